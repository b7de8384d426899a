//! Key encodings: SEC1 `ECPrivateKey` (RFC 5915), PKCS#8 `PrivateKeyInfo` (RFC 5208/5958),
//! `SubjectPublicKeyInfo` (RFC 5280), each in DER and PEM through the RustCrypto `sec1`, `pkcs8`
//! and `spki` traits; and password-encrypted PKCS#8 as GmSSL writes it (PBES2 with
//! PBKDF2-HMAC-SM3 and SM4-CBC, RFC 8018 structures with the GM/T algorithm OIDs) or as OpenSSL
//! does, through the workspace's one PBES2 implementation, `sm-pbes2`.
//!
//! The algorithm identifier is `id-ecPublicKey` (1.2.840.10045.2.1) with the named curve
//! `sm2p256v1` (1.2.156.10197.1.301), as OpenSSL 3 and GmSSL write it.

use alloc::string::String;
use alloc::vec::Vec;

use der::asn1::{AnyRef, BitStringRef, ObjectIdentifier, OctetStringRef};
use der::pem::LineEnding;
use der::{Decode, Encode};
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
/// Which PBES2 (RFC 8018 §6.2) parameters a password-encrypted key is written with (the
/// workspace's one PBES2 implementation, `sm-pbes2`). Reading accepts both, and AES-128-CBC too.
pub use sm_pbes2::Scheme as Pbes2;
/// Largest PBKDF2 iteration count accepted when writing and reading an encrypted key (2^20):
/// the one bound of `sm-pbes2`, shared with `shangmi-sm9`.
pub use sm_pbes2::MAX_ITERATIONS as MAX_PBKDF2_ITERATIONS;

/// A PBES2 failure as this crate reports it: a wrong password (bad padding, or no
/// `PrivateKeyInfo` inside) is the opaque [`Error::Decryption`]; malformed, unsupported or
/// out-of-range parameters are [`Error::Encoding`].
fn pbes2_error(e: sm_pbes2::Error) -> Error {
    match e {
        sm_pbes2::Error::Decryption => Error::Decryption,
        _ => Error::Encoding,
    }
}

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
    /// in `1..=`[`MAX_PBKDF2_ITERATIONS`] (what the decoder accepts) and the salt non-empty,
    /// else [`Error::Encoding`].
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
        sm_pbes2::encrypt(plain.as_bytes(), scheme, password, salt, iv, iterations)
            .map_err(pbes2_error)
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
        Self::from_decrypted_pkcs8(sm_pbes2::decrypt(der, password).map_err(pbes2_error)?)
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
    sm_pbes2::decrypt(der, password).map_err(pbes2_error)
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
    sm_pbes2::encrypt_random(rng, pki_der, scheme, password).map_err(pbes2_error)
}

/// Whether `der` is an `EncryptedPrivateKeyInfo` whose algorithm is PBES2 (its parameters are
/// checked by [`decrypt_pkcs8_der`]).
pub fn is_pbes2_encrypted(der: &[u8]) -> bool {
    sm_pbes2::is_encrypted(der)
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
