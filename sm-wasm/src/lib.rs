//! WebAssembly binding of the workspace's SM2, SM3 and SM9 crates (wasm-bindgen), the core of the
//! npm package built by `cargo xtask wasm build` (see `sm-wasm/js/` and the README).
//!
//! Conventions of the JavaScript API: camelCase names, `Uint8Array` in and out, strings accepted
//! (as UTF-8) for IDs and messages, and every failure thrown as an `SmError` (an `Error`
//! subclass, `js/pkg/errors.js`) with a stable `code`, never a trap. Secrets (private keys,
//! user keys, nonces, shared keys in flight) stay in Rust memory and are wiped when the object is
//! freed (`free()`, `using`, or the FinalizationRegistry wasm-bindgen attaches); they are handed
//! to JavaScript only as `Uint8Array` (never as a string), and only when asked for.
//!
//! Randomness comes from `crypto.getRandomValues` through getrandom's `js` support.
//!
//! On targets other than wasm32 the crate compiles (it is a workspace member, so the host's
//! `cargo test`/`clippy` cover it) but its functions need a JavaScript host to run.

mod error;
mod input;
mod sm2_api;
mod sm3_api;
mod sm9_api;
