//! Errors thrown to JavaScript: `SmError` objects with a stable `code`.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "./errors.js")]
extern "C" {
    /// `new SmError(code, message)` (defined in `js/pkg/errors.js`, next to the glue module).
    #[wasm_bindgen(js_name = smError)]
    fn sm_error(code: &str, message: &str) -> JsValue;
}

/// A thrown `SmError` with `code` and `message`.
pub(crate) fn err(code: &str, message: &str) -> JsValue {
    sm_error(code, message)
}

/// The stable JavaScript code of an SM2 error.
fn code_of_sm2(e: &sm2::Error) -> &'static str {
    match e {
        sm2::Error::InvalidPublicKey => "SM2_INVALID_PUBLIC_KEY",
        sm2::Error::InvalidSecretKey => "SM2_INVALID_SECRET_KEY",
        sm2::Error::InvalidSignature => "SM2_INVALID_SIGNATURE",
        sm2::Error::Encoding => "SM2_ENCODING",
        sm2::Error::IdTooLong => "SM2_ID_TOO_LONG",
        sm2::Error::EmptyPlaintext => "SM2_EMPTY_PLAINTEXT",
        sm2::Error::Verification => "SM2_VERIFICATION",
        sm2::Error::Decryption => "SM2_DECRYPTION",
        sm2::Error::KeyExchange => "SM2_KEY_EXCHANGE",
        _ => "SM2_ERROR",
    }
}

fn code_of_sm9(e: &sm9::Error) -> &'static str {
    match e {
        sm9::Error::Encoding => "SM9_ENCODING",
        sm9::Error::UnknownAlgorithm => "SM9_UNKNOWN_ALGORITHM",
        sm9::Error::InvalidPoint => "SM9_INVALID_POINT",
        sm9::Error::InvalidScalar => "SM9_INVALID_SCALAR",
        sm9::Error::DegenerateIdentity => "SM9_DEGENERATE_IDENTITY",
        sm9::Error::KeyMismatch => "SM9_KEY_MISMATCH",
        sm9::Error::InvalidLength => "SM9_INVALID_LENGTH",
        sm9::Error::Verification => "SM9_VERIFICATION",
        sm9::Error::Decryption => "SM9_DECRYPTION",
        sm9::Error::KeyConfirmation => "SM9_KEY_CONFIRMATION",
        sm9::Error::Rng => "SM9_RNG",
        _ => "SM9_ERROR",
    }
}

/// Conversion of the library errors into thrown JavaScript values.
pub(crate) trait JsErr<T> {
    fn js(self) -> Result<T, JsValue>;
}

impl<T> JsErr<T> for Result<T, sm2::Error> {
    fn js(self) -> Result<T, JsValue> {
        self.map_err(|e| err(code_of_sm2(&e), &e.to_string()))
    }
}

impl<T> JsErr<T> for Result<T, sm9::Error> {
    fn js(self) -> Result<T, JsValue> {
        self.map_err(|e| err(code_of_sm9(&e), &e.to_string()))
    }
}

/// `SM_INVALID_ARGUMENT`: a value of the right type but unusable (length, range, option).
pub(crate) fn invalid(message: &str) -> JsValue {
    err("SM_INVALID_ARGUMENT", message)
}
