//! ASN.1 structures of GM/T 0080 (SM9 cryptographic algorithm application specification) as
//! written by GmSSL 3.x and gmsm, and the object identifiers of GM/T 0006.
//!
//! ```text
//! SM9Signature        ::= SEQUENCE { h OCTET STRING, S BIT STRING }          -- S = 04‖x‖y
//! SM9Cipher           ::= SEQUENCE { EnType INTEGER, C1 BIT STRING,
//!                                    C3 OCTET STRING, CipherText OCTET STRING }
//! SM9SignMasterKey    ::= SEQUENCE { ks INTEGER, Ppubs BIT STRING }          -- G2, 129 B
//! SM9EncMasterKey     ::= SEQUENCE { ke INTEGER, Ppube BIT STRING }          -- G1, 65 B
//! SM9MasterPublicKey  ::= SEQUENCE { Ppub BIT STRING }
//! SM9SignPrivateKey   ::= SEQUENCE { ds BIT STRING, Ppubs BIT STRING }
//! SM9EncPrivateKey    ::= SEQUENCE { de BIT STRING, Ppube BIT STRING }
//! ```
//!
//! Points are uncompressed `04 ‖ x ‖ y`, GF(p²) coordinates with the u-coefficient first.

use der::asn1::{BitStringRef, ObjectIdentifier, OctetStringRef, UintRef};
use der::Sequence;

use crate::{Error, Result};

/// `sm9` 1.2.156.10197.1.302 (GM/T 0006).
pub const OID_SM9: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.302");
/// `sm9sign` 1.2.156.10197.1.302.1.
pub const OID_SM9_SIGN: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.302.1");
/// `sm9keyagreement` 1.2.156.10197.1.302.2.
pub const OID_SM9_KEY_AGREEMENT: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.2.156.10197.1.302.2");
/// `sm9encrypt` 1.2.156.10197.1.302.3.
pub const OID_SM9_ENCRYPT: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.302.3");

/// PEM label of a signature master public key (GmSSL).
pub const PEM_SIGN_MASTER_PUBLIC_KEY: &str = "SM9 SIGN MASTER PUBLIC KEY";
/// PEM label of an encryption master public key (GmSSL).
pub const PEM_ENC_MASTER_PUBLIC_KEY: &str = "SM9 ENC MASTER PUBLIC KEY";
/// PEM label of a PKCS#8 `PrivateKeyInfo`.
pub const PEM_PRIVATE_KEY: &str = "PRIVATE KEY";
/// PEM label of a PKCS#8 `EncryptedPrivateKeyInfo`.
pub const PEM_ENCRYPTED_PRIVATE_KEY: &str = "ENCRYPTED PRIVATE KEY";

#[derive(Clone, Copy, Debug, Eq, PartialEq, Sequence)]
pub(crate) struct SignatureAsn1<'a> {
    pub h: &'a OctetStringRef,
    pub s: BitStringRef<'a>,
}

#[derive(Clone, Copy, Debug, Eq, PartialEq, Sequence)]
pub(crate) struct CipherAsn1<'a> {
    pub en_type: u8,
    pub c1: BitStringRef<'a>,
    pub c3: &'a OctetStringRef,
    pub c2: &'a OctetStringRef,
}

#[derive(Clone, Copy, Debug, Eq, PartialEq, Sequence)]
pub(crate) struct MasterKeyAsn1<'a> {
    pub k: UintRef<'a>,
    pub ppub: BitStringRef<'a>,
}

#[derive(Clone, Copy, Debug, Eq, PartialEq, Sequence)]
pub(crate) struct MasterPublicKeyAsn1<'a> {
    pub ppub: BitStringRef<'a>,
}

#[derive(Clone, Copy, Debug, Eq, PartialEq, Sequence)]
pub(crate) struct UserKeyAsn1<'a> {
    pub d: BitStringRef<'a>,
    pub ppub: BitStringRef<'a>,
}

/// The bytes of a BIT STRING without unused bits.
pub(crate) fn bit_string_bytes<'a>(b: &BitStringRef<'a>) -> Result<&'a [u8]> {
    b.as_bytes().ok_or(Error::Encoding)
}

/// A BIT STRING of whole bytes.
pub(crate) fn bit_string(bytes: &[u8]) -> Result<BitStringRef<'_>> {
    BitStringRef::from_bytes(bytes).map_err(|_| Error::Encoding)
}

/// An OCTET STRING.
pub(crate) fn octet_string(bytes: &[u8]) -> Result<&OctetStringRef> {
    OctetStringRef::new(bytes).map_err(|_| Error::Encoding)
}

/// A 32-byte big-endian scalar from a DER INTEGER's magnitude (leading zeros stripped).
pub(crate) fn uint_to_32(u: &UintRef<'_>) -> Result<[u8; 32]> {
    let b = u.as_bytes();
    if b.len() > 32 {
        return Err(Error::InvalidScalar);
    }
    let mut out = [0u8; 32];
    out[32 - b.len()..].copy_from_slice(b);
    Ok(out)
}

/// Decodes a PEM document with the expected label.
pub(crate) fn pem_decode(pem: &str, label: &str) -> Result<alloc::vec::Vec<u8>> {
    let (got, der) = der::pem::decode_vec(pem.as_bytes()).map_err(|_| Error::Encoding)?;
    if got != label {
        return Err(Error::UnknownAlgorithm);
    }
    Ok(der)
}

/// Encodes DER as PEM with `\n` line endings (as GmSSL writes it).
pub(crate) fn pem_encode(label: &str, der: &[u8]) -> Result<alloc::string::String> {
    der::pem::encode_string(label, der::pem::LineEnding::LF, der).map_err(|_| Error::Encoding)
}
