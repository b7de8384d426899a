//! Arguments from JavaScript: `Uint8Array`s, strings (UTF-8), and their checks. wasm-bindgen's own
//! `&[u8]` conversion accepts any array-like (a string became zero bytes), so byte arguments
//! arrive as JavaScript values and are checked here: a wrong type is `SM_INVALID_TYPE`.

use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use zeroize::Zeroizing;

use crate::error::{err, invalid};

#[wasm_bindgen]
extern "C" {
    /// A `Uint8Array` argument.
    #[wasm_bindgen(typescript_type = "Uint8Array")]
    pub type Bytes;
    /// A `Uint8Array`, or a string taken as its UTF-8 bytes.
    #[wasm_bindgen(typescript_type = "Uint8Array | string")]
    pub type Text;
}

fn type_error(name: &str, want: &str) -> JsValue {
    err("SM_INVALID_TYPE", &format!("{name}: expected {want}"))
}

/// The bytes of a `Uint8Array` argument.
pub(crate) fn bytes(v: &JsValue, name: &str) -> Result<Vec<u8>, JsValue> {
    v.dyn_ref::<Uint8Array>()
        .map(Uint8Array::to_vec)
        .ok_or_else(|| type_error(name, "a Uint8Array"))
}

/// The bytes of a secret `Uint8Array` argument (wiped when dropped).
pub(crate) fn secret(v: &JsValue, name: &str) -> Result<Zeroizing<Vec<u8>>, JsValue> {
    bytes(v, name).map(Zeroizing::new)
}

/// Exactly `N` bytes.
pub(crate) fn array<const N: usize>(
    v: &JsValue,
    name: &str,
) -> Result<Zeroizing<[u8; N]>, JsValue> {
    let b = secret(v, name)?;
    let mut out = Zeroizing::new([0u8; N]);
    if b.len() != N {
        return Err(invalid(&format!(
            "{name}: expected {N} bytes, got {}",
            b.len()
        )));
    }
    out.copy_from_slice(&b);
    Ok(out)
}

/// A `Uint8Array` or a string (UTF-8).
pub(crate) fn text(v: &JsValue, name: &str) -> Result<Zeroizing<Vec<u8>>, JsValue> {
    if let Some(s) = v.as_string() {
        return Ok(Zeroizing::new(s.into_bytes()));
    }
    secret(v, name).map_err(|_| type_error(name, "a Uint8Array or a string"))
}

/// An optional ID: `undefined`/`null` → `default`.
pub(crate) fn id_or(v: Option<Text>, default: &[u8]) -> Result<Vec<u8>, JsValue> {
    match v {
        Some(t) if !t.is_undefined() && !t.is_null() => Ok(text(&t, "id")?.to_vec()),
        _ => Ok(default.to_vec()),
    }
}

/// A string argument (PEM text, option names); a `Uint8Array` is read as UTF-8.
pub(crate) fn string(v: &JsValue, name: &str) -> Result<Zeroizing<String>, JsValue> {
    let b = text(v, name)?;
    String::from_utf8(b.to_vec())
        .map(Zeroizing::new)
        .map_err(|_| invalid(&format!("{name}: not UTF-8")))
}

/// A `Uint8Array` result.
pub(crate) fn out(b: &[u8]) -> Uint8Array {
    Uint8Array::from(b)
}
