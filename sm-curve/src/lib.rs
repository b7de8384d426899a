//! Short-Weierstrass elliptic-curve points for SM2 (GB/T 32918) and SM9 (GM/T 0044), generic over
//! the base field (any [`sm_field::Field`]: GF(p) or a tower extension) and the limb backend.
//!
//! * [`CurveParams`] describes a curve `y² = x³ + a·x + b` (with `a` classified by [`AKind`] so the
//!   fastest doubling formula is picked at compile time), its generator and scalar field.
//! * [`Affine`] and [`Jacobian`] points: doubling, addition, mixed addition, validation,
//!   SEC1 encodings ([`Affine::write_sec1`], [`Affine::from_sec1`]), batch normalisation.
//! * Scalar multiplication: constant-time signed fixed window ([`Jacobian::mul`]), fixed-base comb
//!   ([`CurveParams::mul_generator`], [`PrecomputedTable`]), and `_vartime` wNAF / Straus for
//!   public data only.
//! * [`Sm2Curve`]: the SM2 recommended curve (GB/T 32918.5), with a generator comb table generated
//!   at build time.
//!
//! ```
//! use sm_curve::{Affine, CurveParams, Jacobian, Sm2Curve};
//! use sm_field::{Fp, Sm2N};
//! let k = Fp::<Sm2N>::from_u64(12345);
//! let p1 = Sm2Curve::mul_generator(&k);
//! let p2 = Jacobian::<Sm2Curve>::generator().mul(&k);
//! assert_eq!(p1, p2);
//! let a = p1.to_affine();
//! let bytes = a.to_sec1_vec(true);
//! assert_eq!(Affine::<Sm2Curve>::from_sec1(&bytes).unwrap(), a);
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(test, feature = "runtime-tables"))]
extern crate std;

mod affine;
mod comb;
mod encoding;
mod jacobian;
mod params;
mod scalar_mul;
mod sm2;
pub mod sm9;

pub use affine::Affine;
pub use comb::{CombTable, COMB_ENTRIES, COMB_WINDOW, COMB_WINDOWS};
#[cfg(feature = "alloc")]
pub use comb::{OnBackend, PrecomputedTable, SecretOnBackend, SecretPrecomputedTable};
pub use encoding::Error;
pub use jacobian::Jacobian;
pub use params::{AKind, ChangeBackend, CurveParams};
pub use scalar_mul::scalar_to_limbs;
pub use sm2::{Sm2Curve, Sm2GeneratorTable};

pub use sm_field;
