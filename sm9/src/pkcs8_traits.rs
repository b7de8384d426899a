//! The RustCrypto `pkcs8`/`spki` traits on the SM9 keys, built on the inherent encoders.
//!
//! * [`EncodePrivateKey`] / [`DecodePrivateKey`] on the master keys ([`SignMasterKey`],
//!   [`EncMasterKey`]) and the user keys ([`SignUserKey`], [`EncUserKey`], [`ExchangeUserKey`]):
//!   exactly the `PrivateKeyInfo` of the inherent `to_pkcs8_der` / `from_pkcs8_der` (GmSSL's
//!   layout: algorithm `sm9` with parameter `sm9sign`/`sm9encrypt` for master keys, the bare
//!   `sm9sign`/`sm9encrypt`/`sm9keyagreement` OID for user keys, the key's own DER inside).
//! * [`EncodePublicKey`] / [`DecodePublicKey`] on the master public keys
//!   ([`SignMasterPublicKey`], [`EncMasterPublicKey`]): `SubjectPublicKeyInfo { AlgorithmIdentifier
//!   { sm9, sm9sign | sm9encrypt }, BIT STRING 04 ‖ x ‖ y }`. GmSSL and gmsm write master public
//!   keys only in their own `SEQUENCE { BIT STRING }` form (the inherent `to_der`); this SPKI uses
//!   the algorithm identifier of the master key's PKCS#8 and the point as the subject public key,
//!   the way elliptic-curve SPKIs carry theirs.
//!
//! Decoding validates as the inherent decoders do (algorithm identifier, points in G1/G2,
//! scalars in `[1, n − 1]`, the master key's public point).

use der::asn1::{AnyRef, BitStringRef, ObjectIdentifier};
use der::Encode;
use pkcs8::spki::{
    self, AlgorithmIdentifierRef, Document, EncodePublicKey, SubjectPublicKeyInfoRef,
};
use pkcs8::{EncodePrivateKey, PrivateKeyInfoRef, SecretDocument};
use sm_field::Backend;
use zeroize::Zeroizing;

use crate::asn1::{OID_SM9, OID_SM9_ENCRYPT, OID_SM9_SIGN};
use crate::keys::{Enc, ExchangeUserKey, MasterKey, MasterPublicKey, Scheme, Sign, UserKey};
use crate::Error;

/// This crate's error as a `pkcs8` error (`oid`: the algorithm the input named).
fn pkcs8_error(e: Error, oid: ObjectIdentifier) -> pkcs8::Error {
    match e {
        Error::UnknownAlgorithm => pkcs8::Error::PublicKey(spki::Error::OidUnknown { oid }),
        _ => pkcs8::Error::KeyMalformed(pkcs8::KeyError::Invalid),
    }
}

macro_rules! impl_private_key_traits {
    ($([$($g:tt)*] $ty:ty),+) => {$(
        impl<$($g)*> EncodePrivateKey for $ty {
            fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
                let der = <$ty>::to_pkcs8_der(self)
                    .map_err(|_| pkcs8::Error::KeyMalformed(pkcs8::KeyError::Invalid))?;
                SecretDocument::try_from(&der[..]).map_err(pkcs8::Error::Asn1)
            }
        }

        impl<$($g)*> TryFrom<PrivateKeyInfoRef<'_>> for $ty {
            type Error = pkcs8::Error;

            /// The checks of the inherent `from_pkcs8_der` on the re-encoded `PrivateKeyInfo`.
            fn try_from(pki: PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
                let der = Zeroizing::new(pki.to_der().map_err(pkcs8::Error::Asn1)?);
                <$ty>::from_pkcs8_der(&der).map_err(|e| pkcs8_error(e, pki.algorithm.oid))
            }
        }
    )+};
}

impl_private_key_traits!(
    [S: Scheme, B: Backend] MasterKey<S, B>,
    [S: Scheme, B: Backend] UserKey<S, B>,
    [B: Backend] ExchangeUserKey<B>
);

/// The `SubjectPublicKeyInfo` of a master public key `point` of the system `system`.
fn spki_der(system: &'static ObjectIdentifier, point: &[u8]) -> spki::Result<Document> {
    let info = SubjectPublicKeyInfoRef {
        algorithm: AlgorithmIdentifierRef {
            oid: OID_SM9,
            parameters: Some(AnyRef::from(system)),
        },
        subject_public_key: BitStringRef::from_bytes(point)?,
    };
    Ok(Document::encode_msg(&info)?)
}

/// The point of a master public key's `SubjectPublicKeyInfo`, after checking its algorithm
/// identifier names `system`.
fn spki_point<'a>(
    info: &SubjectPublicKeyInfoRef<'a>,
    system: &ObjectIdentifier,
) -> spki::Result<&'a [u8]> {
    info.algorithm.assert_algorithm_oid(OID_SM9)?;
    let param: ObjectIdentifier = info
        .algorithm
        .parameters
        .ok_or(spki::Error::AlgorithmParametersMissing)?
        .decode_as()?;
    if &param != system {
        return Err(spki::Error::OidUnknown { oid: param });
    }
    info.subject_public_key
        .as_bytes()
        .ok_or(spki::Error::KeyMalformed)
}

macro_rules! impl_public_key_traits {
    ($ty:ty, $system:expr) => {
        impl<B: Backend> EncodePublicKey for $ty {
            fn to_public_key_der(&self) -> spki::Result<Document> {
                spki_der(&$system, &self.to_bytes())
            }
        }

        impl<B: Backend> TryFrom<SubjectPublicKeyInfoRef<'_>> for $ty {
            type Error = spki::Error;

            /// Checks the algorithm identifier and that the point lies in the group.
            fn try_from(info: SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
                let point = spki_point(&info, &$system)?;
                <$ty>::from_bytes(point).map_err(|_| spki::Error::KeyMalformed)
            }
        }
    };
}

impl_public_key_traits!(MasterPublicKey<Sign, B>, OID_SM9_SIGN);
impl_public_key_traits!(MasterPublicKey<Enc, B>, OID_SM9_ENCRYPT);
