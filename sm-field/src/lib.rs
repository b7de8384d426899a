//! Prime fields for SM2 (GB/T 32918) and SM9 (GM/T 0044), generic over a limb [`Backend`].
//!
//! * [`Modulus`] fixes a prime: [`Sm2P`], [`Sm2N`], [`Sm9P`], [`Sm9N`].
//! * [`Backend`] implements limb arithmetic on Montgomery residues (R = 2^256):
//!   [`U64`] (portable, `u128` products), `U32` (portable, 8 × 32-bit limbs, feature `u32`) and
//!   `Asm` (feature `asm`: x86_64 MULX/ADCX/ADOX, or aarch64 MUL/UMULH/ADCS/CSEL). All produce
//!   bit-identical limbs.
//! * [`Fp<M, B>`](Fp) is an element of GF(p), with `B` defaulting to [`DefaultBackend`].
//!
//! The default backend is chosen by Cargo features with priority `asm > u64 > u32` (`asm` only on
//! x86_64 and aarch64), except on targets with 32-bit pointers (`wasm32`, 32-bit Arm, x86 and
//! RISC-V): they have no asm backend and no fast 64×64→128-bit multiply, so there the default is
//! always `u32` (compiled whatever the features; in wasm32 it measured 1.55× faster than `u64`).
//! `--cfg sm_backend="u32"` (or `"u64"`, `"asm"`) in `RUSTFLAGS` overrides the choice everywhere.
//!
//! ```
//! use sm_field::{Fp, Sm9P};
//! let a = Fp::<Sm9P>::from_u64(7);
//! let inv = a.invert().unwrap();
//! assert_eq!(a * inv, Fp::ONE);
//! let s = (a * a).sqrt().unwrap();
//! assert!(s == a || s == -a);
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![cfg_attr(not(any(feature = "asm", sm_backend = "asm")), forbid(unsafe_code))]

#[cfg(test)]
extern crate std;

pub mod backend;
#[cfg(feature = "op-count")]
pub mod counting;
mod field;
mod fp;
mod fp12;
pub(crate) mod fp2;
mod fp4;
mod inversion;
#[cfg(all(target_arch = "x86_64", any(feature = "asm", sm_backend = "asm")))]
pub mod lanes;
mod modulus;
mod rng;

pub use backend::u64::U64;
pub use backend::Backend;
#[cfg(feature = "op-count")]
pub use counting::Counting;
pub use field::Field;
pub use fp::Fp;
pub use fp12::Fp12;
pub use fp2::{Fp1, Fp2};
pub use fp4::Fp4;
pub use modulus::{
    limbs_from_be_hex, mont_mul_const, neg_inv64, to_mont_const, Modulus, Shape, Sm2N, Sm2P, Sm9N,
    Sm9P,
};
pub use rng::RecordingRng;

#[cfg(all(
    any(target_arch = "x86_64", target_arch = "aarch64"),
    any(feature = "asm", sm_backend = "asm")
))]
pub use backend::asm::Asm;
#[cfg(any(feature = "u32", sm_backend = "u32", target_pointer_width = "32"))]
pub use backend::u32::U32;

/// Four little-endian 64-bit limbs of a 256-bit value.
pub type Limbs = [u64; 4];

#[cfg(sm_backend = "u32")]
/// The backend used when none is named (forced by `--cfg sm_backend="u32"`).
pub type DefaultBackend = backend::u32::U32;
#[cfg(sm_backend = "u64")]
/// The backend used when none is named (forced by `--cfg sm_backend="u64"`).
pub type DefaultBackend = U64;
#[cfg(all(
    sm_backend = "asm",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
/// The backend used when none is named (forced by `--cfg sm_backend="asm"`).
pub type DefaultBackend = backend::asm::Asm;
#[cfg(all(
    sm_backend = "asm",
    not(any(target_arch = "x86_64", target_arch = "aarch64"))
))]
/// The backend used when none is named (`asm` requested on a target without it: `u64`).
pub type DefaultBackend = U64;

#[cfg(all(
    not(any(sm_backend = "u32", sm_backend = "u64", sm_backend = "asm")),
    feature = "asm",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
/// The backend used when none is named: `asm` (feature priority asm > u64 > u32).
pub type DefaultBackend = backend::asm::Asm;
#[cfg(all(
    not(any(sm_backend = "u32", sm_backend = "u64", sm_backend = "asm")),
    not(all(feature = "asm", any(target_arch = "x86_64", target_arch = "aarch64"))),
    any(feature = "u64", feature = "asm", not(feature = "u32")),
    not(target_pointer_width = "32")
))]
/// The backend used when none is named: `u64`.
pub type DefaultBackend = U64;
#[cfg(all(
    not(any(sm_backend = "u32", sm_backend = "u64", sm_backend = "asm")),
    feature = "u32",
    not(feature = "u64"),
    not(feature = "asm"),
    not(target_pointer_width = "32")
))]
/// The backend used when none is named: `u32` (only feature enabled).
pub type DefaultBackend = backend::u32::U32;
#[cfg(all(
    not(any(sm_backend = "u32", sm_backend = "u64", sm_backend = "asm")),
    target_pointer_width = "32"
))]
/// The backend used when none is named: `u32` (32-bit target: no asm backend, no fast
/// 64×64→128-bit multiply).
pub type DefaultBackend = backend::u32::U32;
