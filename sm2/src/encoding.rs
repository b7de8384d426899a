//! Key encodings: SEC1 `ECPrivateKey` (RFC 5915), PKCS#8 `PrivateKeyInfo` (RFC 5208/5958),
//! `SubjectPublicKeyInfo` (RFC 5280), each in DER and PEM through the RustCrypto `sec1`, `pkcs8`
//! and `spki` traits; and password-encrypted PKCS#8 as GmSSL writes it (PBES2 with
//! PBKDF2-HMAC-SM3 and SM4-CBC, RFC 8018 structures with the GM/T algorithm OIDs).
//!
//! The algorithm identifier is `id-ecPublicKey` (1.2.840.10045.2.1) with the named curve
//! `sm2p256v1` (1.2.156.10197.1.301), as OpenSSL 3 and GmSSL write it.

use alloc::string::String;
use alloc::vec::Vec;

use der::asn1::{AnyRef, BitStringRef, Null, ObjectIdentifier, OctetStringRef};
use der::pem::LineEnding;
use der::{Decode, Encode, Sequence};
use pkcs8::{AlgorithmIdentifierRef, EncodePrivateKey, PrivateKeyInfoRef, SecretDocument};
use rand_core::CryptoRng;
use sec1::{EcParameters, EcPrivateKey};
use sm_field::Backend;
use spki::{Document, EncodePublicKey, SubjectPublicKeyInfoRef};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use crate::keys::{PublicKey, SecretKey};
use crate::Error;

/// `sm2p256v1` (GM/T 0006): 1.2.156.10197.1.301.
pub const SM2_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.301");
/// `id-ecPublicKey` (RFC 5480): 1.2.840.10045.2.1.
pub const EC_PUBLIC_KEY_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const PBES2_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.5.13");
const PBKDF2_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.5.12");
const HMAC_SM3_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.401.2");
const SM4_CBC_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.104.2");
const HMAC_SHA256_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.2.9");
const AES128_CBC_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.1.2");
const AES256_CBC_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.1.42");

/// Which PBES2 (RFC 8018 §6.2) parameters a password-encrypted key is written with. Reading
/// accepts both, and AES-128-CBC too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Pbes2 {
    /// PBKDF2-HMAC-SM3 and SM4-CBC, as GmSSL writes (and reads) it. OpenSSL 3.0 cannot read
    /// it: it has no HMAC-SM3 PRF for PBKDF2.
    #[default]
    GmSsl,
    /// PBKDF2-HMAC-SHA256 and AES-256-CBC, what `openssl pkcs8 -topk8 -v2 aes-256-cbc` writes
    /// and every OpenSSL reads.
    OpenSsl,
}

/// The PRF of PBKDF2.
#[derive(Clone, Copy)]
enum Prf {
    HmacSm3,
    HmacSha256,
}

/// The PBES2 encryption scheme (all CBC with PKCS#7 padding and a 16-byte IV).
#[derive(Clone, Copy)]
enum Cbc {
    Sm4,
    Aes128,
    Aes256,
}

impl Cbc {
    fn from_oid(oid: ObjectIdentifier) -> Option<Self> {
        match oid {
            SM4_CBC_OID => Some(Cbc::Sm4),
            AES128_CBC_OID => Some(Cbc::Aes128),
            AES256_CBC_OID => Some(Cbc::Aes256),
            _ => None,
        }
    }

    fn oid(self) -> ObjectIdentifier {
        match self {
            Cbc::Sm4 => SM4_CBC_OID,
            Cbc::Aes128 => AES128_CBC_OID,
            Cbc::Aes256 => AES256_CBC_OID,
        }
    }

    fn key_len(self) -> usize {
        match self {
            Cbc::Sm4 | Cbc::Aes128 => 16,
            Cbc::Aes256 => 32,
        }
    }

    fn encrypt(self, key: &[u8], iv: &[u8; 16], data: &[u8]) -> Vec<u8> {
        use cbc::cipher::{block_padding::Pkcs7, BlockModeEncrypt, KeyIvInit};
        match self {
            Cbc::Sm4 => cbc::Encryptor::<sm4_ct::Sm4>::new_from_slices(key, iv)
                .expect("key and IV lengths")
                .encrypt_padded_vec::<Pkcs7>(data),
            Cbc::Aes128 => cbc::Encryptor::<aes::Aes128>::new_from_slices(key, iv)
                .expect("key and IV lengths")
                .encrypt_padded_vec::<Pkcs7>(data),
            Cbc::Aes256 => cbc::Encryptor::<aes::Aes256>::new_from_slices(key, iv)
                .expect("key and IV lengths")
                .encrypt_padded_vec::<Pkcs7>(data),
        }
    }

    fn decrypt(self, key: &[u8], iv: &[u8; 16], data: &[u8]) -> Result<Vec<u8>, Error> {
        use cbc::cipher::{block_padding::Pkcs7, BlockModeDecrypt, KeyIvInit};
        match self {
            Cbc::Sm4 => cbc::Decryptor::<sm4_ct::Sm4>::new_from_slices(key, iv)
                .expect("key and IV lengths")
                .decrypt_padded_vec::<Pkcs7>(data),
            Cbc::Aes128 => cbc::Decryptor::<aes::Aes128>::new_from_slices(key, iv)
                .expect("key and IV lengths")
                .decrypt_padded_vec::<Pkcs7>(data),
            Cbc::Aes256 => cbc::Decryptor::<aes::Aes256>::new_from_slices(key, iv)
                .expect("key and IV lengths")
                .decrypt_padded_vec::<Pkcs7>(data),
        }
        .map_err(|_| Error::Decryption)
    }
}

impl Pbes2 {
    fn parts(self) -> (Prf, Cbc) {
        match self {
            Pbes2::GmSsl => (Prf::HmacSm3, Cbc::Sm4),
            Pbes2::OpenSsl => (Prf::HmacSha256, Cbc::Aes256),
        }
    }
}

/// Iteration count GmSSL uses for PBKDF2.
pub const PBKDF2_ITERATIONS: u32 = 65536;
/// Largest PBKDF2 iteration count accepted (2^20, 16 times GmSSL's default; OpenSSL writes
/// 2048): an encrypted key is often untrusted input, and this bounds the work one can demand to
/// about 0.3 s. (Fuzzing found the previous bound, 2^24, let a 300-byte key take seconds.)
pub const MAX_PBKDF2_ITERATIONS: u32 = 1 << 20;
/// The bound applied when decrypting: [`MAX_PBKDF2_ITERATIONS`], or 256 in cargo-fuzz builds
/// (`cfg(fuzzing)`) so that the fuzzer spends its time in the decoders, not in PBKDF2 loops
/// (under ASan one iteration costs ~4 µs: the writers' 2048 or 65536 would allow ~100
/// executions per second).
const DECRYPT_MAX_ITERATIONS: u32 = if cfg!(fuzzing) {
    1 << 8
} else {
    MAX_PBKDF2_ITERATIONS
};

fn algorithm() -> AlgorithmIdentifierRef<'static> {
    AlgorithmIdentifierRef {
        oid: EC_PUBLIC_KEY_OID,
        parameters: Some(AnyRef::from(&SM2_OID)),
    }
}

fn check_algorithm(alg: &AlgorithmIdentifierRef<'_>) -> Result<(), Error> {
    if alg.oid != EC_PUBLIC_KEY_OID {
        return Err(Error::Encoding);
    }
    let curve: ObjectIdentifier = alg
        .parameters
        .ok_or(Error::Encoding)?
        .decode_as()
        .map_err(|_| Error::Encoding)?;
    if curve != SM2_OID {
        return Err(Error::Encoding);
    }
    Ok(())
}

/// An RFC 5915 `ECPrivateKey` in strict DER: re-encoding the parsed structure must reproduce the
/// input. (The `der` crate skips an unexpected lower-numbered context field, so a `[1]` public
/// key retagged `[0]` would otherwise parse as a key without its public key, bypassing the
/// consistency check.) The comparison is constant time; its outcome is the published decoding
/// error.
fn strict_ec_private_key(der: &[u8]) -> Result<EcPrivateKey<'_>, Error> {
    let k = EcPrivateKey::from_der(der).map_err(|_| Error::Encoding)?;
    let again = Zeroizing::new(k.to_der().map_err(|_| Error::Encoding)?);
    if again.len() != der.len() || !bool::from(again.as_slice().ct_eq(der)) {
        return Err(Error::Encoding);
    }
    Ok(k)
}

impl<B: Backend> SecretKey<B> {
    /// From an RFC 5915 `ECPrivateKey` structure: `d` (up to 32 bytes), the curve parameters if
    /// present must name SM2, and an embedded public key if present must match `d·G`.
    fn from_ec_private_key(k: &EcPrivateKey<'_>) -> Result<Self, Error> {
        if let Some(EcParameters::NamedCurve(oid)) = k.parameters {
            if oid != SM2_OID {
                return Err(Error::Encoding);
            }
        }
        if k.private_key.len() > 32 {
            return Err(Error::InvalidSecretKey);
        }
        let mut d = Zeroizing::new([0u8; 32]);
        d[32 - k.private_key.len()..].copy_from_slice(k.private_key);
        let sk = Self::from_bytes(&d)?;
        if let Some(pk) = k.public_key {
            let pk = PublicKey::<B>::from_sec1_bytes(pk)?;
            if pk != *sk.public_key() {
                return Err(Error::InvalidSecretKey);
            }
        }
        Ok(sk)
    }

    fn ec_private_key_der(&self, with_params: bool) -> Result<Zeroizing<Vec<u8>>, Error> {
        let d = self.to_bytes();
        let p = self.public_key().to_uncompressed();
        let k = EcPrivateKey {
            private_key: &d[..],
            parameters: with_params.then_some(EcParameters::NamedCurve(SM2_OID)),
            public_key: Some(&p),
        };
        Ok(Zeroizing::new(k.to_der().map_err(|_| Error::Encoding)?))
    }

    /// PKCS#8 DER with the inner ECPrivateKey optionally carrying `[0] parameters`
    /// (OpenSSL omits them, GmSSL writes them).
    fn pkcs8_der(&self, inner_params: bool) -> Result<SecretDocument, Error> {
        let inner = self.ec_private_key_der(inner_params)?;
        let pki = PrivateKeyInfoRef {
            algorithm: algorithm(),
            private_key: OctetStringRef::new(&inner).map_err(|_| Error::Encoding)?,
            public_key: None,
        };
        SecretDocument::encode_msg(&pki).map_err(|_| Error::Encoding)
    }

    /// PKCS#8 `PrivateKeyInfo` DER in GmSSL's layout: the inner `ECPrivateKey` also names the
    /// curve (`[0] parameters`). [`EncodePrivateKey`] writes OpenSSL's layout, which leaves it
    /// out; GmSSL and OpenSSL read both, and so does [`DecodePrivateKey`](pkcs8::DecodePrivateKey).
    pub fn to_pkcs8_der_gmssl(&self) -> Result<SecretDocument, Error> {
        self.pkcs8_der(true)
    }

    /// PKCS#8 `EncryptedPrivateKeyInfo` DER as GmSSL writes it: PBES2 with PBKDF2-HMAC-SM3
    /// (65536 iterations, 16-byte key, random 16-byte salt) and SM4-CBC (random IV, PKCS#7
    /// padding) over the PKCS#8 `PrivateKeyInfo`. [`SecretKey::to_pkcs8_encrypted_der_as`]
    /// writes what OpenSSL reads.
    pub fn to_pkcs8_encrypted_der(
        &self,
        rng: &mut impl CryptoRng,
        password: &[u8],
    ) -> Result<Vec<u8>, Error> {
        self.to_pkcs8_encrypted_der_as(rng, password, Pbes2::GmSsl)
    }

    /// [`SecretKey::to_pkcs8_encrypted_der`] with the PBES2 parameters of `scheme` (65536
    /// PBKDF2 iterations, random 16-byte salt and IV).
    pub fn to_pkcs8_encrypted_der_as(
        &self,
        rng: &mut impl CryptoRng,
        password: &[u8],
        scheme: Pbes2,
    ) -> Result<Vec<u8>, Error> {
        encrypt_pkcs8_der(rng, self.pkcs8_der(false)?.as_bytes(), password, scheme)
    }

    /// [`SecretKey::to_pkcs8_encrypted_der`] with explicit salt, IV and iteration count
    /// (reproducible output for tests; use fresh random salt and IV otherwise). The count must be
    /// in `1..=`[`MAX_PBKDF2_ITERATIONS`] (what the decoder accepts), else [`Error::Encoding`].
    pub fn to_pkcs8_encrypted_der_with_params(
        &self,
        password: &[u8],
        salt: &[u8],
        iv: &[u8; 16],
        iterations: u32,
    ) -> Result<Vec<u8>, Error> {
        self.encrypt_pkcs8(Pbes2::GmSsl, password, salt, iv, iterations)
    }

    fn encrypt_pkcs8(
        &self,
        scheme: Pbes2,
        password: &[u8],
        salt: &[u8],
        iv: &[u8; 16],
        iterations: u32,
    ) -> Result<Vec<u8>, Error> {
        let plain = self.pkcs8_der(false)?;
        pbes2_encrypt(plain.as_bytes(), scheme, password, salt, iv, iterations)
    }

    /// PEM (`ENCRYPTED PRIVATE KEY`) form of [`SecretKey::to_pkcs8_encrypted_der`].
    pub fn to_pkcs8_encrypted_pem(
        &self,
        rng: &mut impl CryptoRng,
        password: &[u8],
        line_ending: LineEnding,
    ) -> Result<String, Error> {
        self.to_pkcs8_encrypted_pem_as(rng, password, Pbes2::GmSsl, line_ending)
    }

    /// PEM (`ENCRYPTED PRIVATE KEY`) form of [`SecretKey::to_pkcs8_encrypted_der_as`].
    pub fn to_pkcs8_encrypted_pem_as(
        &self,
        rng: &mut impl CryptoRng,
        password: &[u8],
        scheme: Pbes2,
        line_ending: LineEnding,
    ) -> Result<String, Error> {
        let der = self.to_pkcs8_encrypted_der_as(rng, password, scheme)?;
        der::pem::encode_string("ENCRYPTED PRIVATE KEY", line_ending, &der)
            .map_err(|_| Error::Encoding)
    }

    /// Decrypts a PBES2 `EncryptedPrivateKeyInfo` in DER: PBKDF2 with HMAC-SM3 (GmSSL) or
    /// HMAC-SHA256 (OpenSSL), and SM4-CBC, AES-128-CBC or AES-256-CBC. A wrong password gives
    /// [`Error::Decryption`]; an iteration count above [`MAX_PBKDF2_ITERATIONS`] is rejected
    /// before any work ([`Error::Encoding`]).
    pub fn from_pkcs8_encrypted_der(der: &[u8], password: &[u8]) -> Result<Self, Error> {
        Self::from_decrypted_pkcs8(pbes2_decrypt(der, password)?)
    }

    /// Parses (and then wipes) the decrypted `PrivateKeyInfo` of
    /// [`SecretKey::from_pkcs8_encrypted_der`]; any failure is the opaque [`Error::Decryption`]
    /// (a wrong password). Kept out of line: the constant-time harness recognises this frame
    /// (`ct-check/declassified.txt`).
    #[inline(never)]
    fn from_decrypted_pkcs8(plain: Zeroizing<Vec<u8>>) -> Result<Self, Error> {
        let pki = PrivateKeyInfoRef::from_der(&plain).map_err(|_| Error::Decryption)?;
        Self::try_from_pki(&pki).map_err(|_| Error::Decryption)
    }

    /// PEM (`ENCRYPTED PRIVATE KEY`) form of [`SecretKey::from_pkcs8_encrypted_der`].
    pub fn from_pkcs8_encrypted_pem(pem: &str, password: &[u8]) -> Result<Self, Error> {
        let (label, der) = der::pem::decode_vec(pem.as_bytes()).map_err(|_| Error::Encoding)?;
        if label != "ENCRYPTED PRIVATE KEY" {
            return Err(Error::Encoding);
        }
        Self::from_pkcs8_encrypted_der(&der, password)
    }

    fn try_from_pki(pki: &PrivateKeyInfoRef<'_>) -> Result<Self, Error> {
        check_algorithm(&pki.algorithm)?;
        let k = strict_ec_private_key(pki.private_key.as_bytes())?;
        Self::from_ec_private_key(&k)
    }
}

/// The plaintext of a PBES2 `EncryptedPrivateKeyInfo` (RFC 8018 §6.2.2) in DER, whatever key it
/// holds: PBKDF2 with HMAC-SM3 (GmSSL) or HMAC-SHA256 (OpenSSL), and SM4-CBC, AES-128-CBC or
/// AES-256-CBC, the schemes [`SecretKey::from_pkcs8_encrypted_der`] reads. For tools that
/// recognise the `PrivateKeyInfo` afterwards (smtool reads SM9 keys with it too). A wrong
/// password gives [`Error::Decryption`] (also when the padding happens to check out but the
/// plaintext is no `PrivateKeyInfo`); unknown parameters or an iteration count above
/// [`MAX_PBKDF2_ITERATIONS`] give [`Error::Encoding`] before any work.
pub fn decrypt_pkcs8_der(der: &[u8], password: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
    let plain = pbes2_decrypt(der, password)?;
    PrivateKeyInfoRef::from_der(&plain).map_err(|_| Error::Decryption)?;
    Ok(plain)
}

/// PBES2 encryption (RFC 8018 §6.2.1) of any `PrivateKeyInfo` DER with the parameters of
/// `scheme` (65536 PBKDF2 iterations, random 16-byte salt and IV): the counterpart of
/// [`decrypt_pkcs8_der`], for keys [`SecretKey::to_pkcs8_encrypted_der_as`] does not write
/// (GmSSL's layout from [`SecretKey::to_pkcs8_der_gmssl`], other key types).
pub fn encrypt_pkcs8_der(
    rng: &mut impl CryptoRng,
    pki_der: &[u8],
    password: &[u8],
    scheme: Pbes2,
) -> Result<Vec<u8>, Error> {
    let mut salt = [0u8; 16];
    let mut iv = [0u8; 16];
    rng.fill_bytes(&mut salt);
    rng.fill_bytes(&mut iv);
    pbes2_encrypt(pki_der, scheme, password, &salt, &iv, PBKDF2_ITERATIONS)
}

/// PBES2 encryption of `plain` (a `PrivateKeyInfo`).
fn pbes2_encrypt(
    plain: &[u8],
    scheme: Pbes2,
    password: &[u8],
    salt: &[u8],
    iv: &[u8; 16],
    iterations: u32,
) -> Result<Vec<u8>, Error> {
    if iterations == 0 || iterations > MAX_PBKDF2_ITERATIONS {
        return Err(Error::Encoding);
    }
    let (prf, cipher) = scheme.parts();
    let key = pbkdf2(prf, password, salt, iterations, cipher.key_len());
    let ct = cipher.encrypt(&key, iv, plain);
    let e = |_| Error::Encoding;
    let info = EncryptedPki {
        alg: Pbes2Alg {
            oid: PBES2_OID,
            params: Pbes2Params {
                kdf: KdfAlg {
                    oid: PBKDF2_OID,
                    params: Pbkdf2Params {
                        salt: OctetStringRef::new(salt).map_err(e)?,
                        iteration_count: iterations,
                        key_length: Some(cipher.key_len() as u16),
                        prf: Some(PrfAlg {
                            oid: match prf {
                                Prf::HmacSm3 => HMAC_SM3_OID,
                                Prf::HmacSha256 => HMAC_SHA256_OID,
                            },
                            null: match prf {
                                Prf::HmacSm3 => None,
                                // OpenSSL writes the NULL parameter of hmacWithSHA256.
                                Prf::HmacSha256 => Some(Null),
                            },
                        }),
                    },
                },
                enc: EncScheme {
                    oid: cipher.oid(),
                    iv: OctetStringRef::new(iv).map_err(e)?,
                },
            },
        },
        data: OctetStringRef::new(&ct).map_err(e)?,
    };
    info.to_der().map_err(e)
}

/// PBES2 decryption of an `EncryptedPrivateKeyInfo` (the plaintext is not examined).
fn pbes2_decrypt(der: &[u8], password: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
    let info = EncryptedPki::from_der(der).map_err(|_| Error::Encoding)?;
    let kdf = &info.alg.params.kdf;
    let enc = &info.alg.params.enc;
    let prf = match &kdf.params.prf {
        Some(p) if p.oid == HMAC_SM3_OID => Prf::HmacSm3,
        Some(p) if p.oid == HMAC_SHA256_OID => Prf::HmacSha256,
        _ => return Err(Error::Encoding),
    };
    let cipher = Cbc::from_oid(enc.oid).ok_or(Error::Encoding)?;
    if info.alg.oid != PBES2_OID
        || kdf.oid != PBKDF2_OID
        || kdf
            .params
            .key_length
            .is_some_and(|n| usize::from(n) != cipher.key_len())
        || kdf.params.iteration_count == 0
        || kdf.params.iteration_count > DECRYPT_MAX_ITERATIONS
    {
        return Err(Error::Encoding);
    }
    let iv: &[u8; 16] = enc.iv.as_bytes().try_into().map_err(|_| Error::Encoding)?;
    let key = pbkdf2(
        prf,
        password,
        kdf.params.salt.as_bytes(),
        kdf.params.iteration_count,
        cipher.key_len(),
    );
    Ok(Zeroizing::new(cipher.decrypt(
        &key,
        iv,
        info.data.as_bytes(),
    )?))
}

/// Whether `der` is an `EncryptedPrivateKeyInfo` whose algorithm is PBES2 (its parameters are
/// checked by [`decrypt_pkcs8_der`]).
pub fn is_pbes2_encrypted(der: &[u8]) -> bool {
    #[derive(Sequence)]
    struct Outer<'a> {
        alg: AlgorithmIdentifierRef<'a>,
        data: &'a OctetStringRef,
    }
    Outer::from_der(der).is_ok_and(|o| o.alg.oid == PBES2_OID)
}

/// PBKDF2 (RFC 8018 §5.2) with `prf`: a `len`-byte key (16 or 32).
fn pbkdf2(
    prf: Prf,
    password: &[u8],
    salt: &[u8],
    iterations: u32,
    len: usize,
) -> Zeroizing<Vec<u8>> {
    let mut key = Zeroizing::new(alloc::vec![0u8; len]);
    match prf {
        Prf::HmacSm3 => pbkdf2::pbkdf2_hmac::<sm3::Sm3>(password, salt, iterations, &mut key),
        Prf::HmacSha256 => {
            pbkdf2::pbkdf2_hmac::<sha2::Sha256>(password, salt, iterations, &mut key)
        }
    }
    key
}

#[derive(Sequence)]
struct PrfAlg {
    oid: ObjectIdentifier,
    null: Option<Null>,
}

#[derive(Sequence)]
struct Pbkdf2Params<'a> {
    salt: &'a OctetStringRef,
    iteration_count: u32,
    key_length: Option<u16>,
    prf: Option<PrfAlg>,
}

#[derive(Sequence)]
struct KdfAlg<'a> {
    oid: ObjectIdentifier,
    params: Pbkdf2Params<'a>,
}

#[derive(Sequence)]
struct EncScheme<'a> {
    oid: ObjectIdentifier,
    iv: &'a OctetStringRef,
}

#[derive(Sequence)]
struct Pbes2Params<'a> {
    kdf: KdfAlg<'a>,
    enc: EncScheme<'a>,
}

#[derive(Sequence)]
struct Pbes2Alg<'a> {
    oid: ObjectIdentifier,
    params: Pbes2Params<'a>,
}

#[derive(Sequence)]
struct EncryptedPki<'a> {
    alg: Pbes2Alg<'a>,
    data: &'a OctetStringRef,
}

impl<B: Backend> TryFrom<PrivateKeyInfoRef<'_>> for SecretKey<B> {
    type Error = pkcs8::Error;
    fn try_from(pki: PrivateKeyInfoRef<'_>) -> Result<Self, pkcs8::Error> {
        Self::try_from_pki(&pki).map_err(|_| pkcs8::Error::KeyMalformed(pkcs8::KeyError::Invalid))
    }
}

impl<B: Backend> EncodePrivateKey for SecretKey<B> {
    /// PKCS#8 in OpenSSL's layout (inner ECPrivateKey with the public key, without parameters).
    fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
        self.pkcs8_der(false)
            .map_err(|_| pkcs8::Error::KeyMalformed(pkcs8::KeyError::Invalid))
    }
}

impl<B: Backend> TryFrom<EcPrivateKey<'_>> for SecretKey<B> {
    type Error = sec1::Error;
    fn try_from(k: EcPrivateKey<'_>) -> Result<Self, sec1::Error> {
        Self::from_ec_private_key(&k).map_err(|_| sec1::Error::Crypto)
    }
}

impl<B: Backend> SecretKey<B> {
    /// SEC1 `ECPrivateKey` DER with parameters and public key (as `openssl ec` writes it; the
    /// `sec1` crate's blanket `EncodeEcPrivateKey` would omit the curve, which OpenSSL needs).
    pub fn to_sec1_der(&self) -> Result<Zeroizing<Vec<u8>>, Error> {
        self.ec_private_key_der(true)
    }

    /// PEM (`EC PRIVATE KEY`) form of [`SecretKey::to_sec1_der`].
    pub fn to_sec1_pem(&self, line_ending: LineEnding) -> Result<Zeroizing<String>, Error> {
        let der = self.to_sec1_der()?;
        der::pem::encode_string("EC PRIVATE KEY", line_ending, &der)
            .map(Zeroizing::new)
            .map_err(|_| Error::Encoding)
    }

    /// From SEC1 `ECPrivateKey` DER.
    pub fn from_sec1_der(der: &[u8]) -> Result<Self, Error> {
        let k = strict_ec_private_key(der)?;
        Self::from_ec_private_key(&k)
    }

    /// From SEC1 PEM (`EC PRIVATE KEY`, or `SM2 PRIVATE KEY` as `openssl ec` labels it).
    pub fn from_sec1_pem(pem: &str) -> Result<Self, Error> {
        let (label, der) = der::pem::decode_vec(pem.as_bytes()).map_err(|_| Error::Encoding)?;
        let der = Zeroizing::new(der);
        if label != "EC PRIVATE KEY" && label != "SM2 PRIVATE KEY" {
            return Err(Error::Encoding);
        }
        Self::from_sec1_der(&der)
    }
}

impl<B: Backend> TryFrom<SubjectPublicKeyInfoRef<'_>> for PublicKey<B> {
    type Error = spki::Error;
    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> Result<Self, spki::Error> {
        check_algorithm(&spki.algorithm).map_err(|_| spki::Error::KeyMalformed)?;
        let bits = spki
            .subject_public_key
            .as_bytes()
            .ok_or(spki::Error::KeyMalformed)?;
        Self::from_sec1_bytes(bits).map_err(|_| spki::Error::KeyMalformed)
    }
}

impl<B: Backend> EncodePublicKey for PublicKey<B> {
    fn to_public_key_der(&self) -> spki::Result<Document> {
        let p = self.to_uncompressed();
        let info = SubjectPublicKeyInfoRef {
            algorithm: algorithm(),
            subject_public_key: BitStringRef::from_bytes(&p)?,
        };
        Ok(Document::encode_msg(&info)?)
    }
}
