//! PKCS#8 wrapping of SM9 private keys (RFC 5208 / RFC 5958) as GmSSL 3.x writes them, and
//! password-based encryption with PBES2 (RFC 8018 §6.2) using PBKDF2-HMAC-SM3 and SM4-CBC.
//!
//! ```text
//! PrivateKeyInfo { version 0, AlgorithmIdentifier, OCTET STRING (key DER) }
//!   master keys: AlgorithmIdentifier { sm9, sm9sign | sm9encrypt }
//!   user keys:   AlgorithmIdentifier { sm9sign | sm9encrypt | sm9keyagreement } (no parameters)
//! EncryptedPrivateKeyInfo { AlgorithmIdentifier { pbes2, PBES2-params {
//!     AlgorithmIdentifier { pbkdf2, PBKDF2-params { salt, iterationCount, keyLength 16,
//!                                                  prf { hmacWithSM3 1.2.156.10197.1.401.2 } } },
//!     AlgorithmIdentifier { sm4-cbc 1.2.156.10197.1.104.2, iv OCTET STRING } } },
//!   encryptedData OCTET STRING }
//! ```

use alloc::vec::Vec;

use cbc::cipher::{block_padding::Pkcs7, BlockModeDecrypt, BlockModeEncrypt, KeyIvInit};
use der::asn1::{AnyRef, ObjectIdentifier, OctetStringRef};
use der::{Decode, Encode, Sequence};
use pkcs8::{AlgorithmIdentifierRef, PrivateKeyInfoRef};
use zeroize::{Zeroize, Zeroizing};

use crate::asn1::{OID_SM9, OID_SM9_ENCRYPT, OID_SM9_KEY_AGREEMENT, OID_SM9_SIGN};
use crate::{Error, Result};

/// PBES2 1.2.840.113549.1.5.13.
const OID_PBES2: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.5.13");
/// PBKDF2 1.2.840.113549.1.5.12.
const OID_PBKDF2: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.5.12");
/// hmacWithSM3 1.2.156.10197.1.401.2.
const OID_HMAC_SM3: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.401.2");
/// sm4-cbc 1.2.156.10197.1.104.2.
const OID_SM4_CBC: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.104.2");

/// PBKDF2 iteration count GmSSL uses.
pub const DEFAULT_PBKDF2_ITERATIONS: u32 = 65536;
/// Largest PBKDF2 iteration count accepted, when encrypting and decrypting (2^20, 16 times
/// GmSSL's default): an encrypted key is often untrusted input, and this bounds the work one can
/// demand to about 0.3 s. (Fuzzing found the previous bound, 2^24, let a 300-byte key take
/// seconds.)
pub const MAX_PBKDF2_ITERATIONS: u32 = 1 << 20;
/// The bound applied when decrypting: [`MAX_PBKDF2_ITERATIONS`], or 256 in cargo-fuzz builds
/// (`cfg(fuzzing)`) so that the fuzzer spends its time in the decoders, not in PBKDF2 loops
/// (under ASan one iteration costs ~4 µs: GmSSL's 65536 would allow a few executions per
/// second).
const DECRYPT_MAX_ITERATIONS: u32 = if cfg!(fuzzing) {
    1 << 8
} else {
    MAX_PBKDF2_ITERATIONS
};

/// Which SM9 key a `PrivateKeyInfo` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
///
/// `pub` in this private module only so that the sealed `keys::sealed::Sealed` trait can name
/// it; not reachable from outside the crate.
pub enum KeyKind {
    /// `SignMasterKey`.
    SignMaster,
    /// `EncMasterKey`.
    EncMaster,
    /// `SignUserKey`.
    SignUser,
    /// `EncUserKey`.
    EncUser,
    /// `ExchangeUserKey`.
    ExchangeUser,
}

impl KeyKind {
    fn algorithm(self) -> (ObjectIdentifier, Option<&'static ObjectIdentifier>) {
        match self {
            KeyKind::SignMaster => (OID_SM9, Some(&OID_SM9_SIGN)),
            KeyKind::EncMaster => (OID_SM9, Some(&OID_SM9_ENCRYPT)),
            KeyKind::SignUser => (OID_SM9_SIGN, None),
            KeyKind::EncUser => (OID_SM9_ENCRYPT, None),
            KeyKind::ExchangeUser => (OID_SM9_KEY_AGREEMENT, None),
        }
    }
}

/// `PrivateKeyInfo` DER around the key's own DER.
pub(crate) fn wrap(kind: KeyKind, key_der: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    let (oid, param) = kind.algorithm();
    let algorithm = AlgorithmIdentifierRef {
        oid,
        parameters: param.map(AnyRef::from),
    };
    let pki = PrivateKeyInfoRef::new(algorithm, OctetStringRef::new(key_der)?);
    Ok(Zeroizing::new(pki.to_der()?))
}

/// The key DER inside a `PrivateKeyInfo`, checking the algorithm identifier.
pub(crate) fn unwrap(kind: KeyKind, pki_der: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    let pki = PrivateKeyInfoRef::from_der(pki_der)?;
    let (oid, param) = kind.algorithm();
    if pki.algorithm.oid != oid {
        return Err(Error::UnknownAlgorithm);
    }
    match (param, pki.algorithm.parameters) {
        (None, None) => {}
        (Some(want), Some(got)) => {
            let got: ObjectIdentifier = got.decode_as().map_err(|_| Error::UnknownAlgorithm)?;
            if &got != want {
                return Err(Error::UnknownAlgorithm);
            }
        }
        // A NULL parameter is tolerated for user keys.
        (None, Some(got)) if got.is_null() => {}
        _ => return Err(Error::UnknownAlgorithm),
    }
    if pki.public_key.is_some() {
        return Err(Error::Encoding);
    }
    Ok(Zeroizing::new(pki.private_key.as_bytes().to_vec()))
}

#[derive(Clone, Copy, Debug, Sequence)]
struct EncryptedPrivateKeyInfo<'a> {
    encryption_algorithm: Pbes2Algorithm<'a>,
    encrypted_data: &'a OctetStringRef,
}

#[derive(Clone, Copy, Debug, Sequence)]
struct Pbes2Algorithm<'a> {
    oid: ObjectIdentifier,
    params: Pbes2Params<'a>,
}

#[derive(Clone, Copy, Debug, Sequence)]
struct Pbes2Params<'a> {
    kdf: Pbkdf2Algorithm<'a>,
    encryption: Sm4CbcAlgorithm<'a>,
}

#[derive(Clone, Copy, Debug, Sequence)]
struct Pbkdf2Algorithm<'a> {
    oid: ObjectIdentifier,
    params: Pbkdf2Params<'a>,
}

#[derive(Clone, Copy, Debug, Sequence)]
struct Pbkdf2Params<'a> {
    salt: &'a OctetStringRef,
    iteration_count: u32,
    key_length: Option<u8>,
    prf: Option<AlgorithmIdentifierRef<'a>>,
}

#[derive(Clone, Copy, Debug, Sequence)]
struct Sm4CbcAlgorithm<'a> {
    oid: ObjectIdentifier,
    iv: &'a OctetStringRef,
}

fn derive_key(password: &[u8], salt: &[u8], iterations: u32) -> Result<Zeroizing<[u8; 16]>> {
    let mut key = Zeroizing::new([0u8; 16]);
    pbkdf2::pbkdf2::<sm3::HmacSm3>(password, salt, iterations, &mut *key)
        .map_err(|_| Error::InvalidLength)?;
    Ok(key)
}

/// `EncryptedPrivateKeyInfo` DER of `pki_der` under `password` with the given salt, IV and
/// iteration count (GmSSL: 16-byte salt, 65536 iterations).
pub(crate) fn encrypt(
    pki_der: &[u8],
    password: &[u8],
    salt: &[u8],
    iv: &[u8; 16],
    iterations: u32,
) -> Result<Vec<u8>> {
    if salt.is_empty() || iterations == 0 || iterations > MAX_PBKDF2_ITERATIONS {
        return Err(Error::InvalidLength);
    }
    let key = derive_key(password, salt, iterations)?;
    let enc = cbc::Encryptor::<sm4_ct::Sm4>::new(&(*key).into(), &(*iv).into());
    let data = enc.encrypt_padded_vec::<Pkcs7>(pki_der);
    let epki = EncryptedPrivateKeyInfo {
        encryption_algorithm: Pbes2Algorithm {
            oid: OID_PBES2,
            params: Pbes2Params {
                kdf: Pbkdf2Algorithm {
                    oid: OID_PBKDF2,
                    params: Pbkdf2Params {
                        salt: OctetStringRef::new(salt)?,
                        iteration_count: iterations,
                        key_length: Some(16),
                        prf: Some(AlgorithmIdentifierRef {
                            oid: OID_HMAC_SM3,
                            parameters: None,
                        }),
                    },
                },
                encryption: Sm4CbcAlgorithm {
                    oid: OID_SM4_CBC,
                    iv: OctetStringRef::new(iv)?,
                },
            },
        },
        encrypted_data: OctetStringRef::new(&data)?,
    };
    Ok(epki.to_der()?)
}

/// The `PrivateKeyInfo` DER inside an `EncryptedPrivateKeyInfo`. A wrong password gives the
/// opaque [`Error::Decryption`].
pub(crate) fn decrypt(epki_der: &[u8], password: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    let epki = EncryptedPrivateKeyInfo::from_der(epki_der)?;
    let alg = &epki.encryption_algorithm;
    if alg.oid != OID_PBES2
        || alg.params.kdf.oid != OID_PBKDF2
        || alg.params.encryption.oid != OID_SM4_CBC
    {
        return Err(Error::UnknownAlgorithm);
    }
    let kdf = &alg.params.kdf.params;
    match kdf.prf {
        Some(prf) if prf.oid == OID_HMAC_SM3 && prf.parameters.is_none_or(|p| p.is_null()) => {}
        _ => return Err(Error::UnknownAlgorithm),
    }
    if kdf.key_length.is_some_and(|l| l != 16) {
        return Err(Error::UnknownAlgorithm);
    }
    if kdf.iteration_count == 0 || kdf.iteration_count > DECRYPT_MAX_ITERATIONS {
        return Err(Error::InvalidLength);
    }
    let iv: &[u8; 16] = alg
        .params
        .encryption
        .iv
        .as_bytes()
        .try_into()
        .map_err(|_| Error::Encoding)?;
    let key = derive_key(password, kdf.salt.as_bytes(), kdf.iteration_count)?;
    let dec = cbc::Decryptor::<sm4_ct::Sm4>::new(&(*key).into(), &(*iv).into());
    let mut plain = dec
        .decrypt_padded_vec::<Pkcs7>(epki.encrypted_data.as_bytes())
        .map_err(|_| Error::Decryption)?;
    // A wrong password that happens to leave valid padding still fails here.
    if PrivateKeyInfoRef::from_der(&plain).is_err() {
        plain.zeroize();
        return Err(Error::Decryption);
    }
    Ok(Zeroizing::new(plain))
}
