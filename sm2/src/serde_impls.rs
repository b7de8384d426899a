//! Optional `serde` support (feature `serde`) for the public value types, in RustCrypto's
//! convention (`serdect`): a lower-case hex string in human-readable formats (JSON, TOML, ...),
//! raw bytes in binary ones (CBOR, postcard, bincode, ...).
//!
//! * [`PublicKey`] (on every backend): SEC1 `04 ‖ x ‖ y` (65 bytes); decoding takes the compressed form too and
//!   checks the point as [`PublicKey::from_sec1_bytes`] does.
//! * [`Signature`]: `r ‖ s` (64 bytes), decoded by [`Signature::from_bytes`] (range checks).
//! * [`Ciphertext`]: `C1 ‖ C3 ‖ C2` (GB/T 32918.4-2016 order), decoded by
//!   [`Ciphertext::from_bytes`] with [`Mode::C1C3C2`].
//!
//! Not provided: secret keys and signing keys (keep secrets out of serde's intermediate strings
//! and buffers, which are not zeroized: use PKCS#8, encrypted PKCS#8 or SEC1), and
//! `VerifyingKey` (it carries the signer's ID through `Z_A`; serialize the [`PublicKey`] and the
//! ID).

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use sm_field::Backend;

use crate::generic::PublicKey;
use crate::{Ciphertext, Mode, Signature};

impl<B: Backend> Serialize for PublicKey<B> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serdect::slice::serialize_hex_lower_or_bin(&self.to_uncompressed(), serializer)
    }
}

impl<'de, B: Backend> Deserialize<'de> for PublicKey<B> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let bytes = serdect::slice::deserialize_hex_or_bin_vec(deserializer)?;
        Self::from_sec1_bytes(&bytes).map_err(de::Error::custom)
    }
}

impl Serialize for Signature {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serdect::slice::serialize_hex_lower_or_bin(&self.to_bytes(), serializer)
    }
}

impl<'de> Deserialize<'de> for Signature {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let bytes = serdect::slice::deserialize_hex_or_bin_vec(deserializer)?;
        Self::from_bytes(&bytes).map_err(de::Error::custom)
    }
}

impl Serialize for Ciphertext {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serdect::slice::serialize_hex_lower_or_bin(&self.to_bytes(Mode::C1C3C2), serializer)
    }
}

impl<'de> Deserialize<'de> for Ciphertext {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let bytes = serdect::slice::deserialize_hex_or_bin_vec(deserializer)?;
        Self::from_bytes(&bytes, Mode::C1C3C2).map_err(de::Error::custom)
    }
}
