//! SM3: one-shot hash, incremental hasher, HMAC-SM3, the SM3 KDF.

use js_sys::Uint8Array;
use sm3::Digest;
use wasm_bindgen::prelude::*;

use crate::error::invalid;
use crate::input::{out, text, Text};

/// SM3 digest (32 bytes) of `data` (bytes, or a string as UTF-8).
#[wasm_bindgen]
pub fn sm3(data: &Text) -> Result<Uint8Array, JsValue> {
    Ok(out(&sm3::hash(&text(data, "data")?)))
}

/// HMAC-SM3 (RFC 2104 with SM3) of `data` under `key`.
#[wasm_bindgen(js_name = hmacSm3)]
pub fn hmac_sm3(key: &Text, data: &Text) -> Result<Uint8Array, JsValue> {
    Ok(out(&sm3::hmac_sm3(
        &text(key, "key")?,
        &text(data, "data")?,
    )))
}

/// The SM3 key derivation function (GB/T 32918.3 §5.4.3): `length` bytes from `z`.
#[wasm_bindgen]
pub fn kdf(z: &Text, length: usize) -> Result<Uint8Array, JsValue> {
    // KDF output is bounded by the 32-bit counter; keep requests to a sane size.
    if length > (1 << 28) {
        return Err(invalid("kdf: length too large"));
    }
    let z = text(z, "z")?;
    let mut k = zeroize::Zeroizing::new(vec![0u8; length]);
    sm3::kdf(&z, &mut k);
    Ok(out(&k))
}

/// Incremental SM3: `update()` any number of times, then `digest()` (which also resets it).
#[wasm_bindgen(js_name = Sm3)]
#[derive(Default)]
pub struct Sm3Hasher(sm3::Sm3);

#[wasm_bindgen(js_class = Sm3)]
impl Sm3Hasher {
    /// A fresh hasher.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Sm3Hasher {
        Sm3Hasher::default()
    }

    /// Absorbs `data` (bytes, or a string as UTF-8).
    pub fn update(&mut self, data: &Text) -> Result<(), JsValue> {
        self.0.update(&*text(data, "data")?);
        Ok(())
    }

    /// The digest of everything absorbed; the hasher starts over afterwards.
    pub fn digest(&mut self) -> Uint8Array {
        out(&self.0.finalize_reset())
    }
}
