//! Password-based encryption of PKCS#8 keys: PBES2 (RFC 8018 §6.2) with PBKDF2 (§5.2).
//!
//! Reading accepts what GmSSL writes (PRF hmacWithSM3, SM4-CBC) and what OpenSSL 3.0 writes
//! (PRF hmacWithSHA256 with AES-128/256-CBC or SM4-CBC). Writing offers the GmSSL form (through
//! the `sm2`/`sm9` crates) and, for SM2 keys, [`encrypt_openssl`]: hmacWithSHA256 + SM4-CBC,
//! which OpenSSL 3.0 reads (it has no hmacWithSM3 PRF for PBKDF2) and GmSSL too.

use aes::{Aes128, Aes256};
use cbc::cipher::{block_padding::Pkcs7, BlockModeDecrypt, BlockModeEncrypt, KeyIvInit};
use der::asn1::{AnyRef, ObjectIdentifier, OctetStringRef};
use der::{Decode, Encode, Sequence};
use getrandom::SysRng;
use rand_core::{Rng, UnwrapErr};
use zeroize::Zeroizing;

const OID_PBES2: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.5.13");
const OID_PBKDF2: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.5.12");
const OID_HMAC_SM3: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.401.2");
const OID_HMAC_SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.2.9");
const OID_SM4_CBC: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.104.2");
const OID_AES128_CBC: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.1.2");
const OID_AES256_CBC: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.1.42");

/// Iteration count used when writing (GmSSL's value).
pub const ITERATIONS: u32 = 65536;
/// Largest iteration count accepted when reading (bounds the work a file can demand to about
/// 0.3 s): the libraries' bound, 2^20, shared by SM2 and SM9 keys.
const MAX_ITERATIONS: u32 = sm2::MAX_PBKDF2_ITERATIONS;
const _: () = assert!(sm2::MAX_PBKDF2_ITERATIONS == sm9::MAX_PBKDF2_ITERATIONS);

/// Why an encrypted key could not be opened.
#[derive(Debug, PartialEq, Eq)]
pub enum PbeError {
    /// Not an `EncryptedPrivateKeyInfo`, or parameters out of range.
    Malformed(&'static str),
    /// A PRF or cipher this tool does not implement.
    Unsupported(String),
    /// Padding check failed: wrong password (or a corrupted file).
    WrongPassword,
}

#[derive(Sequence)]
struct AlgId<'a> {
    oid: ObjectIdentifier,
    params: Option<AnyRef<'a>>,
}

#[derive(Sequence)]
struct EncryptedPki<'a> {
    alg: AlgId<'a>,
    data: &'a OctetStringRef,
}

#[derive(Sequence)]
struct Pbes2Params<'a> {
    kdf: AlgId<'a>,
    enc: AlgId<'a>,
}

#[derive(Sequence)]
struct Pbkdf2Params<'a> {
    salt: &'a OctetStringRef,
    iterations: u32,
    key_length: Option<u16>,
    prf: Option<AlgId<'a>>,
}

#[derive(Clone, Copy)]
enum Cipher {
    Sm4,
    Aes128,
    Aes256,
}

impl Cipher {
    fn key_len(self) -> usize {
        match self {
            Cipher::Sm4 | Cipher::Aes128 => 16,
            Cipher::Aes256 => 32,
        }
    }
}

/// Whether `der` looks like an `EncryptedPrivateKeyInfo` with PBES2.
pub fn is_pbes2(der: &[u8]) -> bool {
    EncryptedPki::from_der(der).is_ok_and(|e| e.alg.oid == OID_PBES2)
}

/// Decrypts a PBES2 `EncryptedPrivateKeyInfo` and returns the inner `PrivateKeyInfo` DER.
pub fn decrypt(der: &[u8], password: &[u8]) -> Result<Zeroizing<Vec<u8>>, PbeError> {
    let info = EncryptedPki::from_der(der)
        .map_err(|_| PbeError::Malformed("not an EncryptedPrivateKeyInfo"))?;
    if info.alg.oid != OID_PBES2 {
        return Err(PbeError::Unsupported(format!(
            "key encryption scheme {} (only PBES2 is supported)",
            info.alg.oid
        )));
    }
    let params: Pbes2Params<'_> = info
        .alg
        .params
        .ok_or(PbeError::Malformed("PBES2 parameters missing"))?
        .decode_as()
        .map_err(|_| PbeError::Malformed("bad PBES2 parameters"))?;
    if params.kdf.oid != OID_PBKDF2 {
        return Err(PbeError::Unsupported(format!(
            "key derivation {} (only PBKDF2 is supported)",
            params.kdf.oid
        )));
    }
    let kdf: Pbkdf2Params<'_> = params
        .kdf
        .params
        .ok_or(PbeError::Malformed("PBKDF2 parameters missing"))?
        .decode_as()
        .map_err(|_| PbeError::Malformed("bad PBKDF2 parameters"))?;
    let cipher = match params.enc.oid {
        o if o == OID_SM4_CBC => Cipher::Sm4,
        o if o == OID_AES128_CBC => Cipher::Aes128,
        o if o == OID_AES256_CBC => Cipher::Aes256,
        o => {
            return Err(PbeError::Unsupported(format!(
                "key encryption cipher {o} (SM4-CBC, AES-128-CBC and AES-256-CBC are supported)"
            )))
        }
    };
    let iv: &OctetStringRef = params
        .enc
        .params
        .ok_or(PbeError::Malformed("cipher IV missing"))?
        .decode_as()
        .map_err(|_| PbeError::Malformed("bad cipher IV"))?;
    let iv: [u8; 16] = iv
        .as_bytes()
        .try_into()
        .map_err(|_| PbeError::Malformed("cipher IV is not 16 bytes"))?;
    if kdf.iterations == 0 || kdf.iterations > MAX_ITERATIONS {
        return Err(PbeError::Unsupported(format!(
            "PBKDF2 iteration count {} (the maximum is {MAX_ITERATIONS})",
            kdf.iterations
        )));
    }
    if kdf
        .key_length
        .is_some_and(|l| usize::from(l) != cipher.key_len())
    {
        return Err(PbeError::Malformed(
            "PBKDF2 key length does not fit the cipher",
        ));
    }
    let mut key = Zeroizing::new(vec![0u8; cipher.key_len()]);
    let salt = kdf.salt.as_bytes();
    match kdf.prf.as_ref().map(|p| p.oid) {
        Some(o) if o == OID_HMAC_SM3 => {
            pbkdf2::pbkdf2_hmac::<sm3::Sm3>(password, salt, kdf.iterations, &mut key)
        }
        Some(o) if o == OID_HMAC_SHA256 => {
            pbkdf2::pbkdf2_hmac::<sha2::Sha256>(password, salt, kdf.iterations, &mut key)
        }
        Some(o) => {
            return Err(PbeError::Unsupported(format!(
                "PBKDF2 PRF {o} (hmacWithSM3 and hmacWithSHA256 are supported)"
            )))
        }
        None => {
            return Err(PbeError::Unsupported(
                "PBKDF2 PRF hmacWithSHA1 (hmacWithSM3 and hmacWithSHA256 are supported)".into(),
            ))
        }
    }
    let data = info.data.as_bytes();
    let plain = match cipher {
        Cipher::Sm4 => cbc::Decryptor::<sm4_ct::Sm4>::new_from_slices(&key, &iv)
            .map_err(|_| PbeError::Malformed("cipher key"))?
            .decrypt_padded_vec::<Pkcs7>(data),
        Cipher::Aes128 => cbc::Decryptor::<Aes128>::new_from_slices(&key, &iv)
            .map_err(|_| PbeError::Malformed("cipher key"))?
            .decrypt_padded_vec::<Pkcs7>(data),
        Cipher::Aes256 => cbc::Decryptor::<Aes256>::new_from_slices(&key, &iv)
            .map_err(|_| PbeError::Malformed("cipher key"))?
            .decrypt_padded_vec::<Pkcs7>(data),
    }
    .map_err(|_| PbeError::WrongPassword)?;
    Ok(Zeroizing::new(plain))
}

/// Encrypts a `PrivateKeyInfo` DER as OpenSSL 3.0 can read it: PBES2, PBKDF2-HMAC-SHA256
/// (65536 iterations, 16-byte random salt), SM4-CBC with a random IV.
pub fn encrypt_openssl(pki_der: &[u8], password: &[u8]) -> der::Result<Vec<u8>> {
    let mut salt = [0u8; 16];
    let mut iv = [0u8; 16];
    UnwrapErr(SysRng).fill_bytes(&mut salt);
    UnwrapErr(SysRng).fill_bytes(&mut iv);
    let mut key = Zeroizing::new([0u8; 16]);
    pbkdf2::pbkdf2_hmac::<sha2::Sha256>(password, &salt, ITERATIONS, &mut key[..]);
    let ct = cbc::Encryptor::<sm4_ct::Sm4>::new((&*key).into(), (&iv).into())
        .encrypt_padded_vec::<Pkcs7>(pki_der);
    let null_der = der::asn1::Null.to_der()?;
    let kdf_params = Pbkdf2Params {
        salt: OctetStringRef::new(&salt)?,
        iterations: ITERATIONS,
        key_length: None,
        prf: Some(AlgId {
            oid: OID_HMAC_SHA256,
            params: Some(AnyRef::from_der(&null_der)?),
        }),
    }
    .to_der()?;
    let iv_der = OctetStringRef::new(&iv)?.to_der()?;
    let pbes2_params = Pbes2Params {
        kdf: AlgId {
            oid: OID_PBKDF2,
            params: Some(AnyRef::from_der(&kdf_params)?),
        },
        enc: AlgId {
            oid: OID_SM4_CBC,
            params: Some(AnyRef::from_der(&iv_der)?),
        },
    }
    .to_der()?;
    EncryptedPki {
        alg: AlgId {
            oid: OID_PBES2,
            params: Some(AnyRef::from_der(&pbes2_params)?),
        },
        data: OctetStringRef::new(&ct)?,
    }
    .to_der()
}
