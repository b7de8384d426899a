// The error class of the package. Every failure of a call into the module is thrown as an
// SmError whose `code` is stable (e.g. 'SM2_DECRYPTION', 'SM9_VERIFICATION', 'SM_INVALID_TYPE',
// 'SM_INVALID_ARGUMENT'); `message` is for people and may change.
export class SmError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'SmError';
    this.code = code;
  }
}

// Called from Rust (wasm-bindgen import) to build the thrown value.
export function smError(code, message) {
  return new SmError(code, message);
}
