//! RustCrypto trait implementations beyond the core `Signer`/`Verifier` ones: digest signing
//! over SM3, the PKCS#8/SPKI traits on the signing and verifying keys, the X.509 signature
//! algorithm identifier, and `der` codecs for [`Signature`].

use core::hash::{Hash, Hasher};

use der::asn1::{AnyRef, BitString, ObjectIdentifier};
use pkcs8::{EncodePrivateKey, PrivateKeyInfoRef, SecretDocument};
use signature::{DigestSigner, DigestVerifier};
use sm3::{Digest, Sm3};
use sm_field::Backend;
use spki::{
    AlgorithmIdentifier, Document, EncodePublicKey, SignatureAlgorithmIdentifier,
    SignatureBitStringEncoding, SubjectPublicKeyInfoRef,
};

use crate::keys::{PublicKey, SecretKey};
use crate::signature::{SigningKey, VerifyingKey};
use crate::Signature;

/// `SM2-with-SM3` (GM/T 0006: 1.2.156.10197.1.501), the signature algorithm of SM2 X.509
/// certificates, CSRs and CMS. Its `AlgorithmIdentifier` has no parameters.
pub const SM2_WITH_SM3_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.501");

/// An `Sm3` hasher that has absorbed `Z_A`: what [`DigestSigner`] / [`DigestVerifier`] hand to
/// the caller's closure, so the closure feeds only the message.
fn za_hasher(za: &[u8; 32]) -> Sm3 {
    let mut d = Sm3::new();
    d.update(za);
    d
}

fn finish(d: Sm3) -> [u8; 32] {
    d.finalize().into()
}

/// The digest is `e = SM3(Z_A ‖ M)` (GB/T 32918.2 §6.1 A1–A2): the signer creates the `Sm3`
/// hasher, feeds it this key's `Z_A`, and the closure adds the message, so
/// `sign_digest(|d| d.update(msg))` equals [`signature::Signer::sign`]`(msg)` (deterministic
/// nonce). Use [`signature::hazmat::PrehashSigner`] to sign an `e` computed elsewhere.
impl<B: Backend> DigestSigner<Sm3, Signature> for SigningKey<B> {
    fn try_sign_digest<F: Fn(&mut Sm3) -> Result<(), signature::Error>>(
        &self,
        f: F,
    ) -> Result<Signature, signature::Error> {
        let mut d = za_hasher(self.za());
        f(&mut d)?;
        signature::hazmat::PrehashSigner::sign_prehash(self, &finish(d))
    }
}

/// As for [`DigestSigner`]: the verifier's `Z_A` is fed first, the closure adds the message.
impl<B: Backend> DigestVerifier<Sm3, Signature> for VerifyingKey<B> {
    fn verify_digest<F: Fn(&mut Sm3) -> Result<(), signature::Error>>(
        &self,
        f: F,
        signature: &Signature,
    ) -> Result<(), signature::Error> {
        let mut d = za_hasher(self.za());
        f(&mut d)?;
        self.verify_prehash(&finish(d), signature)
            .map_err(Into::into)
    }
}

impl<B: Backend> SignatureAlgorithmIdentifier for SigningKey<B> {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmIdentifier<AnyRef<'static>> =
        AlgorithmIdentifier {
            oid: SM2_WITH_SM3_OID,
            parameters: None,
        };
}

impl<B: Backend> SignatureAlgorithmIdentifier for VerifyingKey<B> {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmIdentifier<AnyRef<'static>> =
        <SigningKey<B> as SignatureAlgorithmIdentifier>::SIGNATURE_ALGORITHM_IDENTIFIER;
}

/// The DER `SEQUENCE { r INTEGER, s INTEGER }` as the BIT STRING of an X.509 signature.
impl SignatureBitStringEncoding for Signature {
    fn to_bitstring(&self) -> der::Result<BitString> {
        BitString::from_bytes(&self.to_der())
    }
}

/// DER `SEQUENCE { r INTEGER, s INTEGER }` (what [`Signature::to_der`] writes).
impl der::Encode for Signature {
    fn encoded_len(&self) -> der::Result<der::Length> {
        der::Length::try_from(self.to_der().len())
    }

    fn encode(&self, writer: &mut impl der::Writer) -> der::Result<()> {
        writer.write(&self.to_der())
    }
}

/// Strict DER, as [`Signature::from_der`] (out-of-range `r` or `s` is a value error).
impl<'a> der::Decode<'a> for Signature {
    type Error = der::Error;

    fn decode<R: der::Reader<'a>>(reader: &mut R) -> der::Result<Self> {
        let tlv = reader.tlv_bytes()?;
        Signature::from_der(tlv).map_err(|_| der::Tag::Sequence.value_error().into())
    }
}

impl Hash for Signature {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.to_bytes().hash(state);
    }
}

impl<B: Backend> Hash for PublicKey<B> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.to_uncompressed().hash(state);
    }
}

/// SPKI of the public key; the ID is not part of it (a decoded key gets the default ID).
impl<B: Backend> EncodePublicKey for VerifyingKey<B> {
    fn to_public_key_der(&self) -> spki::Result<Document> {
        self.public_key().to_public_key_der()
    }
}

/// With the default ID `1234567812345678` (use [`VerifyingKey::with_id`] for another).
impl<B: Backend> TryFrom<SubjectPublicKeyInfoRef<'_>> for VerifyingKey<B> {
    type Error = spki::Error;
    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> Result<Self, spki::Error> {
        PublicKey::try_from(spki).map(|pk| VerifyingKey::new(&pk))
    }
}

/// PKCS#8 of the secret key (OpenSSL's layout, as [`SecretKey`]'s); the ID is not part of it.
impl<B: Backend> EncodePrivateKey for SigningKey<B> {
    fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
        self.secret_key().to_pkcs8_der()
    }
}

/// With the default ID `1234567812345678` (use [`SigningKey::with_id`] for another).
impl<B: Backend> TryFrom<PrivateKeyInfoRef<'_>> for SigningKey<B> {
    type Error = pkcs8::Error;
    fn try_from(pki: PrivateKeyInfoRef<'_>) -> Result<Self, pkcs8::Error> {
        SecretKey::try_from(pki).map(|sk| SigningKey::new(&sk))
    }
}
