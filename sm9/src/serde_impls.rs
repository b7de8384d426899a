//! Optional `serde` support (feature `serde`) for the public value types, in RustCrypto's
//! convention (`serdect`): a lower-case hex string in human-readable formats (JSON, TOML, ...),
//! raw bytes in binary ones (CBOR, postcard, bincode, ...). Decoding validates exactly as the
//! byte decoders named here do (points on the curve and in the subgroup, scalars in range).
//!
//! * [`SignMasterPublicKey`], [`EncMasterPublicKey`]: `04 ‖ x ‖ y` (129 / 65 bytes,
//!   `to_bytes`/`from_bytes`).
//! * [`Signature`]: `h ‖ S` ([`Signature::to_bytes`]/[`Signature::from_bytes`]).
//! * [`Ciphertext`]: the GM/T 0080 DER ([`Ciphertext::to_der`]/[`Ciphertext::from_der`]), the
//!   one form that names the encryption mode.
//! * [`EncapsulatedKey`]: `04 ‖ x ‖ y` (65 bytes).
//!
//! Not provided: master secret keys and user private keys (keep secrets out of serde's
//! intermediate strings and buffers, which are not zeroized: use PKCS#8 or encrypted PKCS#8).

use serde::{de, ser, Deserialize, Deserializer, Serialize, Serializer};

use sm_field::Backend;

use crate::encrypt::{Ciphertext, EncapsulatedKey};
use crate::keys::{Enc, MasterPublicKey, Sign};
use crate::sign::Signature;

/// `Serialize`/`Deserialize` through a byte encoder (`|value| bytes`, possibly fallible) and a
/// validating byte decoder (`|bytes| Result<Self>`).
macro_rules! serde_as_bytes {
    ($ty:ty, |$v:ident| $encode:expr, |$b:ident| $decode:expr) => {
        impl<B: Backend> Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let $v = self;
                let bytes = $encode.map_err(ser::Error::custom)?;
                serdect::slice::serialize_hex_lower_or_bin(&bytes, serializer)
            }
        }

        impl<'de, B: Backend> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let bytes = serdect::slice::deserialize_hex_or_bin_vec(deserializer)?;
                let $b = &bytes[..];
                $decode.map_err(de::Error::custom)
            }
        }
    };
}

serde_as_bytes!(
    MasterPublicKey<Sign, B>,
    |k| crate::Result::Ok(k.to_bytes()),
    |b| { MasterPublicKey::from_bytes(b) }
);
serde_as_bytes!(
    MasterPublicKey<Enc, B>,
    |k| crate::Result::Ok(k.to_bytes()),
    |b| { MasterPublicKey::from_bytes(b) }
);
serde_as_bytes!(Signature<B>, |s| crate::Result::Ok(s.to_bytes()), |b| {
    Signature::from_bytes(b)
});
serde_as_bytes!(Ciphertext<B>, |c| c.to_der(), |b| Ciphertext::from_der(b));
serde_as_bytes!(
    EncapsulatedKey<B>,
    |c| crate::Result::Ok(c.to_bytes()),
    |b| { EncapsulatedKey::from_bytes(b) }
);
