//! SM3 cryptographic hash (GB/T 32905-2016, GM/T 0004-2012), HMAC-SM3, the GM/T 0003 / 0044 key
//! derivation function, and multi-buffer SIMD hashing of independent messages.
//!
//! `#![no_std]`, no allocation; `unsafe` is confined to the x86_64 SIMD module.
//!
//! # One-shot and streaming
//!
//! ```
//! // GB/T 32905-2016 Appendix A, example 1.
//! use shangmi_sm3::{Digest, Sm3};
//!
//! let digest: [u8; 32] = shangmi_sm3::hash(b"abc");
//! assert_eq!(digest[..4], [0x66, 0xc7, 0xf0, 0xf4]);
//!
//! let mut h = Sm3::new();
//! h.update(b"a");
//! let prefix = h.clone(); // the intermediate state can be cloned
//! h.update(b"bc");
//! assert_eq!(h.finalize_reset()[..], digest); // `h` is back at the initial state
//! assert_ne!(prefix.finalize()[..], digest);
//! h.update(b"abc");
//! assert_eq!(h.finalize()[..], digest);
//! ```
//!
//! [`Sm3`] is the RustCrypto [`digest`] 0.11 buffered wrapper over [`Sm3Core`], so generic code
//! and `hmac::Hmac<Sm3>` work:
//!
//! ```
//! use shangmi_sm3::digest::Digest;
//! fn generic<D: Digest>(data: &[u8]) -> Vec<u8> {
//!     D::digest(data).to_vec()
//! }
//! assert_eq!(generic::<shangmi_sm3::Sm3>(b"abc"), shangmi_sm3::hash(b"abc"));
//! ```
//!
//! With the `oid` feature (default), `Sm3` implements `digest::const_oid::AssociatedOid` with
//! OID 1.2.156.10197.1.401; the dotted string is always available as [`SM3_OID`].
//!
//! # HMAC-SM3
//!
//! ```
//! use shangmi_sm3::hmac::{KeyInit, Mac};
//! let tag = shangmi_sm3::hmac_sm3(b"key", b"message");
//!
//! let mut mac = shangmi_sm3::HmacSm3::new_from_slice(b"key").unwrap();
//! mac.update(b"mess");
//! mac.update(b"age");
//! mac.verify_slice(&tag).unwrap(); // constant-time comparison
//! ```
//!
//! # KDF (GM/T 0003.4 §5.4.3, GM/T 0044.4)
//!
//! ```
//! // K = SM3(Z ‖ 00000001) ‖ SM3(Z ‖ 00000002) ‖ …, truncated.
//! let (x2, y2) = ([7u8; 32], [9u8; 32]);
//! let mut k = [0u8; 40];
//! let mut reader = shangmi_sm3::Kdf::new(&[&x2, &y2]); // Z = x2 ‖ y2, no allocation
//! reader.fill(&mut k[..5]);
//! reader.fill(&mut k[5..]); // continues the same stream
//!
//! let z = [x2, y2].concat();
//! let mut expected = [0u8; 40];
//! shangmi_sm3::kdf(&z, &mut expected);
//! assert_eq!(k, expected);
//! assert_eq!(expected[..32], shangmi_sm3::hash(&[&z[..], &[0, 0, 0, 1]].concat()));
//! ```
//!
//! # Speed
//!
//! The compression function expands the message on the fly, uses precomputed `T_j <<< j`
//! constants and fully unrolled rounds; on x86_64 with BMI2 it is recompiled to use `rorx`.
//! [`hash_many`] hashes 16 messages at once with AVX-512 or 8 with AVX2 (detected at run time),
//! [`hash_many_prefixed`] the same for two-part messages such as SM2's Z_A ‖ M, and [`Kdf`] uses the same lanes for long outputs. [`backend_info`] tells which paths run, and
//! [`hash_portable`] / [`hash_many_with`] / [`Kdf::with_backend`] force a path for comparisons.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![cfg_attr(not(target_arch = "x86_64"), forbid(unsafe_code))]
#![deny(missing_docs)]
#![forbid(clippy::undocumented_unsafe_blocks)]

#[cfg(test)]
extern crate std;

pub use digest;
pub use digest::Digest;
pub use hmac;

mod compress;
mod consts;
mod hasher;
mod hmac_sm3;
mod kdf;
mod multi;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use hasher::{Sm3, Sm3Core};
pub use hmac_sm3::{hmac_sm3, HmacSm3};
pub use kdf::{kdf, Kdf};
pub use multi::{hash_many, hash_many_prefixed, hash_many_prefixed_with, hash_many_with};

/// Object identifier of SM3 (GM/T 0006): 1.2.156.10197.1.401.
pub const SM3_OID: &str = "1.2.156.10197.1.401";

/// Digest length in bytes.
pub const DIGEST_SIZE: usize = consts::DIGEST_LEN;

/// Block length in bytes.
pub const BLOCK_SIZE: usize = consts::BLOCK_LEN;

/// One-shot SM3 digest of `msg`.
///
/// ```
/// use shangmi_sm3::{Digest, Sm3};
/// assert_eq!(shangmi_sm3::hash(b"abc"), Sm3::digest(b"abc").as_slice());
/// ```
pub fn hash(msg: &[u8]) -> [u8; DIGEST_SIZE] {
    let mut state = consts::IV;
    let (blocks, rest) = msg.as_chunks::<{ consts::BLOCK_LEN }>();
    compress::compress(&mut state, blocks);
    let mut last = [[0u8; 64]; 2];
    let n = hasher::pad(rest, msg.len() as u64, &mut last);
    compress::compress(&mut state, &last[..n]);
    hasher::state_to_bytes(&state)
}

/// SM3 on the portable compression function only, bypassing any SIMD or BMI2 path.
///
/// Meant for tests and benchmarks that compare paths; the result equals [`hash`].
pub fn hash_portable(msg: &[u8]) -> [u8; DIGEST_SIZE] {
    let mut state = consts::IV;
    let (blocks, rest) = msg.as_chunks::<{ consts::BLOCK_LEN }>();
    compress::compress_portable(&mut state, blocks);
    let mut last = [[0u8; 64]; 2];
    let n = hasher::pad(rest, msg.len() as u64, &mut last);
    compress::compress_portable(&mut state, &last[..n]);
    hasher::state_to_bytes(&state)
}

/// Errors of the backend-forcing entry points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The requested backend is not supported by this CPU or target.
    BackendUnavailable,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::BackendUnavailable => f.write_str("SM3 backend not available on this CPU"),
        }
    }
}

impl core::error::Error for Error {}

/// Which implementation paths this CPU uses, and names for forcing one.
pub mod backend_info {
    /// A multi-buffer implementation of the compression function.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum Backend {
        /// Plain Rust, one message at a time (every target).
        Portable,
        /// 8 lanes of AVX2 (x86_64).
        Avx2,
        /// 16 lanes of AVX-512F/BW/VL (x86_64).
        Avx512,
    }

    impl Backend {
        /// Every backend, narrowest first.
        pub const ALL: [Backend; 3] = [Backend::Portable, Backend::Avx2, Backend::Avx512];

        /// Short name: `"portable"`, `"avx2"` or `"avx512"`.
        pub fn name(self) -> &'static str {
            match self {
                Backend::Portable => "portable",
                Backend::Avx2 => "avx2",
                Backend::Avx512 => "avx512",
            }
        }

        /// Whether this CPU can run the backend (detected once, cached).
        pub fn is_available(self) -> bool {
            match self {
                Backend::Portable => true,
                #[cfg(target_arch = "x86_64")]
                Backend::Avx2 => crate::x86::Avx2Token::get().is_some(),
                #[cfg(target_arch = "x86_64")]
                Backend::Avx512 => crate::x86::Avx512Token::get().is_some(),
                #[cfg(not(target_arch = "x86_64"))]
                _ => false,
            }
        }

        /// The widest available backend (what [`hash_many`](crate::hash_many) and
        /// [`Kdf::new`](crate::Kdf::new) use).
        pub fn best() -> Backend {
            if Backend::Avx512.is_available() {
                Backend::Avx512
            } else if Backend::Avx2.is_available() {
                Backend::Avx2
            } else {
                Backend::Portable
            }
        }
    }

    /// Name of the multi-buffer path in use: `"avx512"`, `"avx2"` or `"portable"`.
    pub fn simd_kind() -> &'static str {
        Backend::best().name()
    }

    /// Name of the single-stream path in use: `"bmi2"` (x86_64 `rorx` build) or `"portable"`.
    pub fn single_stream_kind() -> &'static str {
        #[cfg(target_arch = "x86_64")]
        return crate::x86::single_stream_kind();
        #[cfg(not(target_arch = "x86_64"))]
        "portable"
    }
}
