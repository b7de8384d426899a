//! Password-encrypted PKCS#8: PBES2 (RFC 8018 §6.2) over any `PrivateKeyInfo` (RFC 5208 /
//! RFC 5958), as GmSSL and OpenSSL write it. The one implementation under `shangmi-sm2`'s and
//! `shangmi-sm9`'s encrypted keys and `smtool`, with one bound on the work a key may demand.
//!
//! ```text
//! EncryptedPrivateKeyInfo ::= SEQUENCE {                                    -- RFC 5958 §3
//!   encryptionAlgorithm SEQUENCE { pbes2 1.2.840.113549.1.5.13, PBES2-params {  -- RFC 8018 A.4
//!     keyDerivationFunc SEQUENCE { pbkdf2 1.2.840.113549.1.5.12, PBKDF2-params {   -- A.2
//!       salt OCTET STRING, iterationCount INTEGER, keyLength INTEGER OPTIONAL,
//!       prf SEQUENCE { hmacWithSM3 1.2.156.10197.1.401.2 | hmacWithSHA256 1.2.840.113549.2.9 } } },
//!     encryptionScheme SEQUENCE { sm4-cbc 1.2.156.10197.1.104.2 | aes128-cbc 2.16.840.1.101.3.4.1.2
//!                                 | aes256-cbc 2.16.840.1.101.3.4.1.42, iv OCTET STRING (16) } } },
//!   encryptedData OCTET STRING }   -- CBC with PKCS#7 padding (RFC 8018 §6.2.1 step 4)
//! ```
//!
//! [`Scheme::GmSsl`] (PBKDF2-HMAC-SM3, SM4-CBC) is what GmSSL 3 writes and reads;
//! [`Scheme::OpenSsl`] (PBKDF2-HMAC-SHA256, AES-256-CBC) what `openssl pkcs8 -topk8 -v2
//! aes-256-cbc` writes and every OpenSSL reads. [`decrypt`] reads both, and AES-128-CBC too.
//!
//! ```
//! use sm_pbes2::{decrypt, encrypt, is_encrypted, Error, Scheme};
//! // A PrivateKeyInfo (here an SM2 key's, as OpenSSL writes it; any key type will do).
//! let pki = [
//!     0x30, 0x41, 0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02,
//!     0x01, 0x06, 0x08, 0x2a, 0x81, 0x1c, 0xcf, 0x55, 0x01, 0x82, 0x2d, 0x04, 0x27, 0x30, 0x25,
//!     0x02, 0x01, 0x01, 0x04, 0x20, 0x39, 0x45, 0x20, 0x8f, 0x7b, 0x21, 0x44, 0xb1, 0x3f, 0x36,
//!     0xe3, 0x8a, 0xc6, 0xd3, 0x9f, 0x95, 0x88, 0x93, 0x93, 0x69, 0x28, 0x60, 0xb5, 0x1a, 0x42,
//!     0xfb, 0x81, 0xef, 0x4d, 0xf7, 0xc5, 0xb8,
//! ];
//! // Fresh random salt and IV in real use (`encrypt_random`); a low iteration count keeps this
//! // example fast (GmSSL writes 65536).
//! let enc = encrypt(&pki, Scheme::GmSsl, b"pw", &[1; 16], &[2; 16], 1000).unwrap();
//! assert!(is_encrypted(&enc) && !is_encrypted(&pki));
//! assert_eq!(decrypt(&enc, b"pw").unwrap().as_slice(), pki);
//! assert_eq!(decrypt(&enc, b"not it").unwrap_err(), Error::Decryption);
//! // The work a key may demand is bounded.
//! let e = encrypt(&pki, Scheme::OpenSsl, b"pw", &[1; 16], &[2; 16], sm_pbes2::MAX_ITERATIONS + 1);
//! assert_eq!(e.unwrap_err(), Error::InvalidParameters);
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate alloc;

use alloc::vec::Vec;
use core::fmt;

use cbc::cipher::block_padding::Pkcs7;
use cbc::cipher::{
    BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit, KeyIvInit,
};
use der::asn1::{AnyRef, Null, ObjectIdentifier, OctetStringRef};
use der::{Decode, Encode, Sequence};
use pkcs8::{AlgorithmIdentifierRef, PrivateKeyInfoRef};
use rand_core::CryptoRng;
use zeroize::Zeroizing;

#[cfg(test)]
mod tests;

/// pkcs5PBES2 (RFC 8018 A.4).
const OID_PBES2: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.5.13");
/// id-PBKDF2 (RFC 8018 A.2).
const OID_PBKDF2: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.5.12");
/// hmacWithSM3 (GM/T 0091).
const OID_HMAC_SM3: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.401.2");
/// id-hmacWithSHA256 (RFC 8018 B.1.2).
const OID_HMAC_SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.2.9");
/// sm4-cbc (GM/T 0006).
const OID_SM4_CBC: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.104.2");
/// aes128-CBC-PAD (RFC 8018 B.2.5).
const OID_AES128_CBC: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.1.2");
/// aes256-CBC-PAD (RFC 8018 B.2.5).
const OID_AES256_CBC: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.1.42");

/// PBKDF2 iteration count GmSSL writes, and [`encrypt_random`] with it.
pub const DEFAULT_ITERATIONS: u32 = 65536;
/// Largest PBKDF2 iteration count accepted, when encrypting and decrypting (2^20, 16 times
/// GmSSL's default; OpenSSL writes 2048): an encrypted key is often untrusted input, and this
/// bounds the work one can demand to about 0.3 s. (Fuzzing found the previous bound, 2^24, let a
/// 300-byte key take seconds.)
pub const MAX_ITERATIONS: u32 = 1 << 20;
/// The bound applied when decrypting: [`MAX_ITERATIONS`], or 256 in cargo-fuzz builds
/// (`cfg(fuzzing)`) so that the fuzzer spends its time in the decoders, not in PBKDF2 loops
/// (under ASan one iteration costs ~4 µs: the writers' 2048 or 65536 would allow ~100
/// executions per second).
const DECRYPT_MAX_ITERATIONS: u32 = if cfg!(fuzzing) {
    1 << 8
} else {
    MAX_ITERATIONS
};

/// Errors of this crate. A wrong password is the one opaque [`Error::Decryption`], whichever
/// check caught it; the other variants describe the public parameters and are reported before
/// any key is derived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// Malformed DER (`EncryptedPrivateKeyInfo`, an IV that is not 16 bytes), or a value that
    /// cannot be encoded.
    Encoding,
    /// Not PBES2 with PBKDF2 and one of the PRFs and ciphers above, or a key length that does not
    /// fit the cipher.
    UnsupportedAlgorithm,
    /// An iteration count outside `1..=`[`MAX_ITERATIONS`], or an empty salt when encrypting.
    InvalidParameters,
    /// Wrong password or damaged ciphertext (bad padding, or the plaintext is no
    /// `PrivateKeyInfo`).
    Decryption,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Error::Encoding => "malformed encrypted PKCS#8 encoding",
            Error::UnsupportedAlgorithm => "unsupported PBES2 parameters",
            Error::InvalidParameters => "PBKDF2 iteration count out of range or empty salt",
            Error::Decryption => "decryption failed",
        })
    }
}

impl core::error::Error for Error {}

impl From<der::Error> for Error {
    fn from(_: der::Error) -> Self {
        Error::Encoding
    }
}

/// Which PBES2 parameters a key is written with. [`decrypt`] accepts both, and AES-128-CBC.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Scheme {
    /// PBKDF2-HMAC-SM3 and SM4-CBC, as GmSSL writes (and reads) it. OpenSSL 3.0 cannot read
    /// it: it has no HMAC-SM3 PRF for PBKDF2.
    #[default]
    GmSsl,
    /// PBKDF2-HMAC-SHA256 and AES-256-CBC, what `openssl pkcs8 -topk8 -v2 aes-256-cbc` writes
    /// and every OpenSSL reads.
    OpenSsl,
}

impl Scheme {
    fn parts(self) -> (Prf, Cbc) {
        match self {
            Scheme::GmSsl => (Prf::HmacSm3, Cbc::Sm4),
            Scheme::OpenSsl => (Prf::HmacSha256, Cbc::Aes256),
        }
    }
}

/// The PRF of PBKDF2 (RFC 8018 §5.2).
#[derive(Clone, Copy)]
enum Prf {
    HmacSm3,
    HmacSha256,
}

impl Prf {
    /// From `prf`; absent means HMAC-SHA1 (RFC 8018 A.2), which is not supported. The
    /// parameters must be absent or NULL.
    fn from_algorithm(prf: Option<AlgorithmIdentifierRef<'_>>) -> Option<Self> {
        let prf = prf.filter(|p| p.parameters.is_none_or(AnyRef::is_null))?;
        match prf.oid {
            OID_HMAC_SM3 => Some(Prf::HmacSm3),
            OID_HMAC_SHA256 => Some(Prf::HmacSha256),
            _ => None,
        }
    }

    fn algorithm(self) -> AlgorithmIdentifierRef<'static> {
        match self {
            // GmSSL writes no parameters for hmacWithSM3 ...
            Prf::HmacSm3 => AlgorithmIdentifierRef {
                oid: OID_HMAC_SM3,
                parameters: None,
            },
            // ... and OpenSSL the NULL parameter of hmacWithSHA256.
            Prf::HmacSha256 => AlgorithmIdentifierRef {
                oid: OID_HMAC_SHA256,
                parameters: Some(AnyRef::from(Null)),
            },
        }
    }

    /// PBKDF2 (RFC 8018 §5.2) with this PRF into `key` (16 or 32 bytes).
    fn derive(self, password: &[u8], salt: &[u8], iterations: u32, key: &mut [u8]) {
        match self {
            Prf::HmacSm3 => pbkdf2::pbkdf2_hmac::<sm3::Sm3>(password, salt, iterations, key),
            Prf::HmacSha256 => pbkdf2::pbkdf2_hmac::<sha2::Sha256>(password, salt, iterations, key),
        }
    }
}

/// The encryption scheme: a 128-bit block cipher in CBC mode with PKCS#7 padding and a 16-byte
/// IV (RFC 8018 §6.2.1 step 4, B.2.5).
#[derive(Clone, Copy)]
enum Cbc {
    Sm4,
    Aes128,
    Aes256,
}

impl Cbc {
    fn from_oid(oid: ObjectIdentifier) -> Option<Self> {
        match oid {
            OID_SM4_CBC => Some(Cbc::Sm4),
            OID_AES128_CBC => Some(Cbc::Aes128),
            OID_AES256_CBC => Some(Cbc::Aes256),
            _ => None,
        }
    }

    fn oid(self) -> ObjectIdentifier {
        match self {
            Cbc::Sm4 => OID_SM4_CBC,
            Cbc::Aes128 => OID_AES128_CBC,
            Cbc::Aes256 => OID_AES256_CBC,
        }
    }

    fn key_len(self) -> usize {
        match self {
            Cbc::Sm4 | Cbc::Aes128 => 16,
            Cbc::Aes256 => 32,
        }
    }

    fn encrypt(self, key: &[u8], iv: &[u8; 16], plain: &[u8]) -> Vec<u8> {
        match self {
            Cbc::Sm4 => cbc_encrypt::<sm4_ct::Sm4>(key, iv, plain),
            Cbc::Aes128 => cbc_encrypt::<aes::Aes128>(key, iv, plain),
            Cbc::Aes256 => cbc_encrypt::<aes::Aes256>(key, iv, plain),
        }
    }

    /// Decrypts `buf` in place; the plaintext is its first `n` bytes.
    fn decrypt(self, key: &[u8], iv: &[u8; 16], buf: &mut [u8]) -> Result<usize, Error> {
        match self {
            Cbc::Sm4 => cbc_decrypt::<sm4_ct::Sm4>(key, iv, buf),
            Cbc::Aes128 => cbc_decrypt::<aes::Aes128>(key, iv, buf),
            Cbc::Aes256 => cbc_decrypt::<aes::Aes256>(key, iv, buf),
        }
    }
}

fn cbc_encrypt<C: BlockCipherEncrypt + KeyInit>(key: &[u8], iv: &[u8], plain: &[u8]) -> Vec<u8> {
    cbc::Encryptor::<C>::new_from_slices(key, iv)
        .expect("key and IV lengths")
        .encrypt_padded_vec::<Pkcs7>(plain)
}

fn cbc_decrypt<C: BlockCipherDecrypt + KeyInit>(
    key: &[u8],
    iv: &[u8],
    buf: &mut [u8],
) -> Result<usize, Error> {
    let mode = cbc::Decryptor::<C>::new_from_slices(key, iv).expect("key and IV lengths");
    match mode.decrypt_padded::<Pkcs7>(buf) {
        Ok(plain) => Ok(plain.len()),
        Err(_) => Err(Error::Decryption),
    }
}

/// `EncryptedPrivateKeyInfo` DER of `pki_der` (a `PrivateKeyInfo`) under `password` with the
/// parameters of `scheme`, the given salt and IV, and `iterations` PBKDF2 iterations (RFC 8018
/// §6.2.1). For reproducible output (known-answer tests); use [`encrypt_random`] otherwise.
/// The count must be in `1..=`[`MAX_ITERATIONS`] (what [`decrypt`] accepts) and the salt
/// non-empty, else [`Error::InvalidParameters`].
pub fn encrypt(
    pki_der: &[u8],
    scheme: Scheme,
    password: &[u8],
    salt: &[u8],
    iv: &[u8; 16],
    iterations: u32,
) -> Result<Vec<u8>, Error> {
    let (prf, cipher) = scheme.parts();
    encrypt_with(pki_der, prf, cipher, password, salt, iv, iterations)
}

/// [`encrypt`] with any PRF and cipher (the tests write AES-128-CBC, which no [`Scheme`] does).
fn encrypt_with(
    pki_der: &[u8],
    prf: Prf,
    cipher: Cbc,
    password: &[u8],
    salt: &[u8],
    iv: &[u8; 16],
    iterations: u32,
) -> Result<Vec<u8>, Error> {
    if salt.is_empty() || iterations == 0 || iterations > MAX_ITERATIONS {
        return Err(Error::InvalidParameters);
    }
    let mut key = Zeroizing::new([0u8; 32]);
    let key = &mut key[..cipher.key_len()];
    prf.derive(password, salt, iterations, key);
    let data = cipher.encrypt(key, iv, pki_der);
    EncryptedPrivateKeyInfo {
        algorithm: Pbes2Algorithm {
            oid: OID_PBES2,
            params: Pbes2Params {
                kdf: Pbkdf2Algorithm {
                    oid: OID_PBKDF2,
                    params: Pbkdf2Params {
                        salt: OctetStringRef::new(salt)?,
                        iteration_count: iterations,
                        key_length: Some(cipher.key_len() as u16),
                        prf: Some(prf.algorithm()),
                    },
                },
                encryption: CbcAlgorithm {
                    oid: cipher.oid(),
                    iv: OctetStringRef::new(iv)?,
                },
            },
        },
        data: OctetStringRef::new(&data)?,
    }
    .to_der()
    .map_err(Error::from)
}

/// [`encrypt`] with a fresh random 16-byte salt and IV from `rng` and [`DEFAULT_ITERATIONS`].
pub fn encrypt_random(
    rng: &mut impl CryptoRng,
    pki_der: &[u8],
    scheme: Scheme,
    password: &[u8],
) -> Result<Vec<u8>, Error> {
    let mut salt = [0u8; 16];
    let mut iv = [0u8; 16];
    rng.fill_bytes(&mut salt);
    rng.fill_bytes(&mut iv);
    encrypt(pki_der, scheme, password, &salt, &iv, DEFAULT_ITERATIONS)
}

/// The `PrivateKeyInfo` DER inside a PBES2 `EncryptedPrivateKeyInfo` (RFC 8018 §6.2.2), whatever
/// key it holds. The parameters are checked before any work: [`Error::Encoding`],
/// [`Error::UnsupportedAlgorithm`], or [`Error::InvalidParameters`] for an iteration count
/// above [`MAX_ITERATIONS`]. A wrong password is [`Error::Decryption`], also when the padding
/// happens to check out but the plaintext is no `PrivateKeyInfo`. Only the `PrivateKeyInfo`
/// framing is checked; the caller parses the key.
pub fn decrypt(der: &[u8], password: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
    let info = EncryptedPrivateKeyInfo::from_der(der)?;
    let params = &info.algorithm.params;
    let kdf = &params.kdf.params;
    if info.algorithm.oid != OID_PBES2 || params.kdf.oid != OID_PBKDF2 {
        return Err(Error::UnsupportedAlgorithm);
    }
    let cipher = Cbc::from_oid(params.encryption.oid).ok_or(Error::UnsupportedAlgorithm)?;
    let prf = Prf::from_algorithm(kdf.prf).ok_or(Error::UnsupportedAlgorithm)?;
    if kdf
        .key_length
        .is_some_and(|n| usize::from(n) != cipher.key_len())
    {
        return Err(Error::UnsupportedAlgorithm);
    }
    if kdf.iteration_count == 0 || kdf.iteration_count > DECRYPT_MAX_ITERATIONS {
        return Err(Error::InvalidParameters);
    }
    let iv: &[u8; 16] =
        (params.encryption.iv.as_bytes().try_into()).map_err(|_| Error::Encoding)?;
    let mut key = Zeroizing::new([0u8; 32]);
    let key = &mut key[..cipher.key_len()];
    prf.derive(password, kdf.salt.as_bytes(), kdf.iteration_count, key);
    let mut plain = Zeroizing::new(info.data.as_bytes().to_vec());
    let len = cipher.decrypt(key, iv, &mut plain)?;
    plain.truncate(len);
    // A wrong password that happens to leave valid padding still fails here.
    if PrivateKeyInfoRef::from_der(&plain).is_err() {
        return Err(Error::Decryption);
    }
    Ok(plain)
}

/// Whether `der` is an `EncryptedPrivateKeyInfo` whose algorithm is PBES2 (its parameters are
/// checked by [`decrypt`]).
pub fn is_encrypted(der: &[u8]) -> bool {
    #[derive(Sequence)]
    struct Outer<'a> {
        algorithm: AlgorithmIdentifierRef<'a>,
        data: &'a OctetStringRef,
    }
    Outer::from_der(der).is_ok_and(|o| o.algorithm.oid == OID_PBES2)
}

/// `EncryptedPrivateKeyInfo` (RFC 5958 §3) with PBES2 parameters.
#[derive(Clone, Copy, Sequence)]
struct EncryptedPrivateKeyInfo<'a> {
    algorithm: Pbes2Algorithm<'a>,
    data: &'a OctetStringRef,
}

#[derive(Clone, Copy, Sequence)]
struct Pbes2Algorithm<'a> {
    oid: ObjectIdentifier,
    params: Pbes2Params<'a>,
}

/// PBES2-params (RFC 8018 A.4).
#[derive(Clone, Copy, Sequence)]
struct Pbes2Params<'a> {
    kdf: Pbkdf2Algorithm<'a>,
    encryption: CbcAlgorithm<'a>,
}

#[derive(Clone, Copy, Sequence)]
struct Pbkdf2Algorithm<'a> {
    oid: ObjectIdentifier,
    params: Pbkdf2Params<'a>,
}

/// PBKDF2-params (RFC 8018 A.2) with a `specified` salt.
#[derive(Clone, Copy, Sequence)]
struct Pbkdf2Params<'a> {
    salt: &'a OctetStringRef,
    iteration_count: u32,
    key_length: Option<u16>,
    prf: Option<AlgorithmIdentifierRef<'a>>,
}

/// A CBC encryption scheme with its IV (RFC 8018 B.2.5; GM/T 0006 for SM4).
#[derive(Clone, Copy, Sequence)]
struct CbcAlgorithm<'a> {
    oid: ObjectIdentifier,
    iv: &'a OctetStringRef,
}
