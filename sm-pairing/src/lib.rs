//! The SM9 pairing (GM/T 0044.5 / GB/T 38635): the R-ate pairing on the BN curve
//! E: y² = x³ + 5 over GF(p), t = 0x600000000058F98A, generic over the `sm-field` limb backend.
//!
//! * [`pairing`]`(P, Q)` = e(P, Q) for P ∈ G1 = E(GF(p)), Q ∈ G2 ⊂ E'(GF(p²)) on the sextic M-type
//!   twist E': y² = x³ + 5u, returning a [`Gt`]. Structure (ePrint 2008/096 (Vercauteren,
//!   optimal pairings) and GM/T 0044.1 §B.4.2):
//!   `e(P, Q) = (f_{a,Q}(P) · l_{aQ,π(Q)}(P) · l_{aQ+π(Q),−π²(Q)}(P))^((p¹²−1)/n)`, a = 6t + 2.
//! * [`miller_loop`] / [`final_exponentiation`] expose the two stages; [`multi_miller_loop`] and
//!   [`multi_pairing`] compute a product of pairings with one shared squaring chain and one
//!   final exponentiation; [`G2Prepared`] precomputes the line coefficients of a fixed G2 point.
//!   All of them run the one driver in `miller.rs` over the one step schedule [`LOOP_SCHEDULE`].
//! * `lanes` (x86_64, feature `asm`): eight independent pairings at once, one per AVX-512 IFMA
//!   lane (`pairing_lanes`, `multi_miller_loop_prepared_lanes`, `final_exponentiation_lanes`),
//!   byte for byte the scalar results; for batch verification.
//! * [`Gt`] is the order-n subgroup of GF(p¹²)*: multiplication, cyclotomic squaring, inverse by
//!   conjugation, constant-time exponentiation, `pow_vartime`, fixed-base tables [`GtTable`], and
//!   the 384-byte GM/T 0044 encoding.
//!
//! Every entry point above (and [`G2Prepared::new`], [`Gt`]'s products, exponentiations and
//! checked decoding, [`GtTable`]) dispatches once per call through `Backend::dispatch`: on a
//! pure backend it runs on that backend; on `sm_field::Asm` = `Auto` (x86_64) it asks the CPU
//! once and runs the whole call on `MulxIfma` (the IFMA-batched tower), `Mulx` or `U64`, moving
//! the inputs and the result by limb copy (`to_backend`). Prepared values ([`G2Prepared`],
//! [`GtTable`]) hold limbs that are valid on every backend.
//!
//! With the `research` feature, [`research`] traces the Miller loop step by step and the final
//! exponentiation's intermediates, for debugging against another implementation, and
//! [`research::variants`] holds the pairing-optimization ledger's variants.
//!
//! # Optimization ledger: how to add a variant
//! `cargo xtask ledger [--quick] [--markdown docs/LEDGER.md]` times, for every optimization, the
//! production configuration against the same configuration with only that optimization switched
//! off (interleaved in one process, after checking both give the same bytes), with GF(p)
//! operation counts from `sm_field::Counting`, and writes `docs/LEDGER.md`. The variants are
//! types in `research::variants` (feature `research`), written on the public `sm-field` API:
//! 1. Write **one type** implementing the strategy trait of its stage (`Fp2Mul`, `Fp4Mul`,
//!    `Fp12Mul`, `Fp2Sqr`/`Fp4Sqr`/`Fp12Sqr`, `Lines`, `LineProduct`, `MillerForm`, `Digits`,
//!    `HardPart`, `CycSquare`), citing the paper its formula comes from.
//! 2. Add **one row**: a `v.visit::<Variant<…>>(Row { … })` call in `variants::visit_rows`,
//!    with the production strategies everywhere except yours (`WithTower<…>` for tower formulas).
//! 3. Run `cargo test -p sm-pairing --features research --test ledger_variants` (every row
//!    must give the production GT values over random points; `cargo xtask test` runs it), then
//!    `cargo xtask ledger --quick` to see the row, and `cargo xtask ledger --markdown
//!    docs/LEDGER.md` to regenerate the document (never edit it by hand).
//!
//!
//! The same row also reaches the **protocol level** without more code: the ledger builds SM9
//! sign, verify and decrypt from the `sm9` crate's steps (`xtask/src/ledger/protocol.rs`) with
//! the configuration's pairing in place of the production one — verification's product of two
//! pairings and decryption's pairing over lines prepared once per key
//! ([`research::variants::Prepared`], [`research::variants::multi_pairing_prepared`]), signing's
//! `g^r` by the fixed-base table with the configuration's tower
//! ([`research::variants::gt_table_pow`]) — checks each against the production signature,
//! verdict and `w'`, and plaintext, and adds a row per operation whose GF(p) operation counts
//! the variant changes (the others are listed as not reached). A variant of a stage those
//! compositions do not call yet (a new GT exponentiation, say) needs its call in the composition
//! of `protocol.rs`; `cargo test -p xtask ledger` checks every configuration there against `sm9`
//! on random keys.
//!
//! Rows outside the pairing (GT exponentiation, G1/G2 scalar multiplication, limb backends)
//! compare production functions and live in `xtask/src/ledger.rs`; a new limb backend is one
//! alias in its `backends` module and one `line(…)` there.
//!
//! Every function is constant time in the points and the GT values (lines use projective
//! formulas without inversions and without branches; identities are handled with `subtle`
//! selections). Points must lie in G1 / G2 (checked by the caller when decoding).
//!
//! The points are `sm-curve`'s: [`G1Affine`] and [`G2Affine`] are `sm_curve::sm9`'s affine
//! points (re-exported here), so the group arithmetic, the generators, the SEC1 / GM/T 0044
//! encodings and the subgroup checks have one home.
//!
//! # Example
//! ```
//! use sm_pairing::{multi_pairing, pairing, DefaultBackend, G1Affine, G2Affine, Gt};
//! let p = G1Affine::<DefaultBackend>::GENERATOR; // P1 of GM/T 0044.5
//! let q = G2Affine::<DefaultBackend>::GENERATOR; // P2
//! let e = pairing(&p, &q);
//! assert!(!bool::from(e.is_identity())); // non-degenerate
//! // Bilinearity through a product: e(P, Q) · e(P, Q) = e(P, Q)², one shared Miller loop.
//! assert!(multi_pairing(&[(p, q), (p, q)]) == e.pow(&[2, 0, 0, 0]));
//! // The 384-byte GM/T encoding round-trips (and is checked to lie in GT).
//! assert!(Gt::<DefaultBackend>::from_bytes_checked(&e.to_bytes()).unwrap() == e);
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

mod cyclotomic;
mod exponent;
mod final_exp;
mod gt;
#[cfg(all(target_arch = "x86_64", feature = "asm"))]
pub mod lanes;
mod lines;
mod miller;
#[cfg(feature = "research")]
pub mod research;

pub use final_exp::final_exponentiation;
pub use gt::{Gt, GtDecodeError, GtTable, GtTableOn};
pub use lines::LineCoeffs;
pub use miller::{
    miller_loop, multi_miller_loop, multi_miller_loop_prepared, multi_miller_loop_prepared_on,
    multi_pairing, pairing, pairing_prepared, G2Prepared, G2PreparedOn, Step, LOOP_SCHEDULE,
    NUM_LINES,
};
/// The SM9 points the pairing takes: sm-curve's affine points of G1 and G2 (re-exported, not a
/// second type; decoding with the subgroup check is sm-curve's `Affine::from_sec1` /
/// `sm_curve::sm9::g2_from_sec1`).
pub use sm_curve::sm9::{G1Affine, G2Affine};
pub use sm_field::{Backend, DefaultBackend, Fp, Fp12, Fp2, Sm9N, Sm9P};

/// The BN parameter t of the SM9 curve (GM/T 0044.5): p = 36t⁴ + 36t³ + 24t² + 6t + 1.
pub const BN_T: u64 = 0x6000_0000_0058_F98A;
/// The R-ate loop parameter a = 6t + 2 (66 bits).
pub const ATE_LOOP: u128 = 6 * BN_T as u128 + 2;
