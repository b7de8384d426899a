//! PKCS#8 wrapping of SM9 private keys (RFC 5208 / RFC 5958) as GmSSL 3.x writes them, and
//! password-based encryption with PBES2 (RFC 8018 §6.2) using PBKDF2-HMAC-SM3 and SM4-CBC,
//! through the workspace's one PBES2 implementation, `sm-pbes2` (which also reads OpenSSL's
//! PBKDF2-HMAC-SHA256 with AES-CBC).
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

use der::asn1::{AnyRef, ObjectIdentifier, OctetStringRef};
use der::{Decode, Encode};
use pkcs8::{AlgorithmIdentifierRef, PrivateKeyInfoRef};
use zeroize::Zeroizing;

use crate::asn1::{OID_SM9, OID_SM9_ENCRYPT, OID_SM9_KEY_AGREEMENT, OID_SM9_SIGN};
use crate::{Error, Result};

/// PBKDF2 iteration count GmSSL uses (`sm-pbes2`'s default).
pub use sm_pbes2::DEFAULT_ITERATIONS as DEFAULT_PBKDF2_ITERATIONS;
/// Largest PBKDF2 iteration count accepted, when encrypting and decrypting (2^20): the one bound
/// of `sm-pbes2`, shared with `shangmi-sm2`.
pub use sm_pbes2::MAX_ITERATIONS as MAX_PBKDF2_ITERATIONS;

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

/// A PBES2 failure as this crate reports it: malformed DER is [`Error::Encoding`], parameters
/// other than PBES2 with a supported PRF and cipher [`Error::UnknownAlgorithm`], an iteration
/// count out of range (or an empty salt) [`Error::InvalidLength`], and a wrong password the
/// opaque [`Error::Decryption`].
fn pbes2_error(e: sm_pbes2::Error) -> Error {
    match e {
        sm_pbes2::Error::UnsupportedAlgorithm => Error::UnknownAlgorithm,
        sm_pbes2::Error::InvalidParameters => Error::InvalidLength,
        sm_pbes2::Error::Decryption => Error::Decryption,
        _ => Error::Encoding,
    }
}

/// `EncryptedPrivateKeyInfo` DER of `pki_der` under `password` with the given salt, IV and
/// iteration count, as GmSSL writes it (PBKDF2-HMAC-SM3, SM4-CBC; GmSSL: 16-byte salt, 65536
/// iterations).
pub(crate) fn encrypt(
    pki_der: &[u8],
    password: &[u8],
    salt: &[u8],
    iv: &[u8; 16],
    iterations: u32,
) -> Result<Vec<u8>> {
    sm_pbes2::encrypt(
        pki_der,
        sm_pbes2::Scheme::GmSsl,
        password,
        salt,
        iv,
        iterations,
    )
    .map_err(pbes2_error)
}

/// The `PrivateKeyInfo` DER inside an `EncryptedPrivateKeyInfo`: GmSSL's scheme, or OpenSSL's
/// (PBKDF2-HMAC-SHA256 with AES-CBC). A wrong password gives the opaque [`Error::Decryption`].
pub(crate) fn decrypt(epki_der: &[u8], password: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    sm_pbes2::decrypt(epki_der, password).map_err(pbes2_error)
}
