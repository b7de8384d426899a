//! Prime fields for SM2 (GB/T 32918) and SM9 (GM/T 0044), generic over a limb [`Backend`].
//!
//! * [`Modulus`] fixes a prime: [`Sm2P`], [`Sm2N`], [`Sm9P`], [`Sm9N`].
//! * [`Backend`] implements limb arithmetic on Montgomery residues (R = 2^256). The backends are
//!   pure types, laid out by ISA under [`backend`]: [`U64`] (portable, `u128` products), `U32`
//!   (portable, no `u128`: 29-bit digits for products, feature `u32`), and with feature `asm` `Mulx` (x86_64
//!   MULX/ADCX/ADOX), `MulxIfma` (the same plus the AVX-512 IFMA batch) and `Aarch64`
//!   (MUL/UMULH/ADCS/CSEL). All produce bit-identical limbs.
//! * `Asm` (feature `asm`) is the fast backend of the target: `Auto` on x86_64, the one backend
//!   that asks the CPU (the crate's single probe, `backend::cpu`), and whose
//!   [`Backend::dispatch`] runs a whole entry point (a pairing, a GT exponentiation) on
//!   `MulxIfma`, `Mulx` or `U64` after one question; `Aarch64` on aarch64.
//! * [`Fp<M, B>`](Fp) is an element of GF(p), with `B` defaulting to [`DefaultBackend`].
//!
//! The default backend is chosen by Cargo features with priority `asm > u64 > u32` (`asm` only on
//! x86_64 and aarch64), except on targets with 32-bit pointers (`wasm32`, 32-bit Arm, x86 and
//! RISC-V): they have no asm backend and no fast 64×64→128-bit multiply, so there the default is
//! always `u32` (compiled whatever the features; in wasm32 it measured 1.55× faster than `u64`).
//! Feature `mulx` (x86_64) makes the default the pure `Mulx` instead of `Auto`, for harnesses
//! that must run the MULX kernels where the probe is hidden (valgrind); such a binary dies with
//! `SIGILL` on a CPU without BMI2/ADX. `--cfg sm_backend="u32"` (or `"u64"`, `"asm"`) in
//! `RUSTFLAGS` overrides the features everywhere (the same list, checked first).
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

// `counting::JobGuard` keeps a per-thread count.
#[cfg(any(test, feature = "op-count"))]
extern crate std;

pub mod backend;
#[cfg(feature = "op-count")]
pub mod counting;
mod field;
mod fp;
mod fp12;
mod fp2;
mod fp4;
mod inversion;
#[cfg(all(target_arch = "x86_64", any(feature = "asm", sm_backend = "asm")))]
pub mod lanes;
#[cfg(all(target_arch = "x86_64", any(feature = "asm", sm_backend = "asm")))]
pub mod lanes_tower;
mod modulus;
mod rng;
mod tower;

pub use backend::{Backend, Job, U64};
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

#[cfg(all(target_arch = "aarch64", any(feature = "asm", sm_backend = "asm")))]
pub use backend::aarch64::Aarch64;
#[cfg(any(feature = "u32", sm_backend = "u32", target_pointer_width = "32"))]
pub use backend::u32::U32;
#[cfg(all(target_arch = "x86_64", any(feature = "asm", sm_backend = "asm")))]
pub use backend::x86_64::{Auto, Mulx, MulxIfma};

/// The fast backend of the target (feature `asm`): [`Auto`] on x86_64.
#[cfg(all(target_arch = "x86_64", any(feature = "asm", sm_backend = "asm")))]
pub type Asm = Auto;
/// The fast backend of the target (feature `asm`): [`Aarch64`] on aarch64.
#[cfg(all(target_arch = "aarch64", any(feature = "asm", sm_backend = "asm")))]
pub type Asm = Aarch64;

/// Four little-endian 64-bit limbs of a 256-bit value.
pub type Limbs = [u64; 4];

/// Defines `DefaultBackend` from a first-match list of `cfg` predicates: each arm applies when
/// its predicate holds and no earlier one does (the macro writes the negations, as `cfg-if`).
macro_rules! default_backend {
    ($([$cfg:meta] => $ty:ty,)* _ => $last:ty $(,)?) => {
        default_backend!(@arms [] $([$cfg] => $ty,)* _ => $last);
    };
    (@arms [$($prev:meta,)*] [$cfg:meta] => $ty:ty, $($rest:tt)*) => {
        /// The backend used when none is named (chosen by `--cfg sm_backend` and the features,
        /// see the crate docs).
        #[cfg(all($cfg, not(any($($prev),*))))]
        pub type DefaultBackend = $ty;
        default_backend!(@arms [$($prev,)* $cfg,] $($rest)*);
    };
    (@arms [$($prev:meta,)*] _ => $last:ty) => {
        /// The backend used when none is named (chosen by `--cfg sm_backend` and the features,
        /// see the crate docs).
        #[cfg(not(any($($prev),*)))]
        pub type DefaultBackend = $last;
    };
}

default_backend! {
    // `--cfg sm_backend` first ("asm" on a target without it: u64).
    [sm_backend = "u32"] => U32,
    [sm_backend = "u64"] => U64,
    [all(sm_backend = "asm", any(target_arch = "x86_64", target_arch = "aarch64"))] => Asm,
    [sm_backend = "asm"] => U64,
    // 32-bit targets (wasm32 included): no asm backend, no fast 64×64→128-bit multiply.
    [target_pointer_width = "32"] => U32,
    // Features, priority mulx > asm > u64 > u32.
    [all(feature = "mulx", target_arch = "x86_64")] => Mulx,
    [all(feature = "asm", any(target_arch = "x86_64", target_arch = "aarch64"))] => Asm,
    [any(feature = "u64", feature = "asm", not(feature = "u32"))] => U64,
    _ => U32,
}
