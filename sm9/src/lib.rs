//! SM9 identity-based cryptography (GM/T 0044-2016, GB/T 38635-2020).
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

mod error;
mod hash;
mod symmetric;

pub use error::{Error, Result};
pub use hash::{h1, h2};
pub use symmetric::{EncryptionMode, MacMode};

/// An integer modulo the group order n (scalars, `h`, master secrets).
pub type Scalar = sm_field::Fp<sm_field::Sm9N>;
