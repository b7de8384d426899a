//! Fixed-base comb tables of the SM9 generators P1 and P2, computed at build time
//! (`build/sm9.rs`) and stored as `static` Montgomery limbs (identical for every backend).
//! Lookups read whole rows with arithmetic masks; the sign of a Booth digit is applied by a
//! constant-time negation.
//!
//! * P1: 43 rows of 32 points, signed 6-bit windows (the layout and exception analysis of
//!   `comb.rs`, [`CombTable`]): 43 mixed additions, no doublings.
//! * P2: 37 rows of 64 points, signed 7-bit windows: 37 mixed additions in GF(p²), no doublings.
//!   **Exceptional cases:** before row `i` the accumulator is `a·P2` with
//!   `|a| ≤ Σ_{j<i} 64·2^(7j) < 2^(7i)` and the addend `d·2^(7i)·P2`, `1 ≤ |d| ≤ 64`; while
//!   `2^(7i+6) + 2^(7i) < n` (i ≤ 35), `a ≡ ±d·2^(7i) (mod n)` would be an integer equality,
//!   impossible as `|a| < 2^(7i)`. Only the top row (i = 36) uses the complete addition.

#[cfg(any(all(test, feature = "alloc"), feature = "runtime-tables"))]
use crate::CurveParams;
#[cfg(any(all(test, feature = "alloc"), feature = "runtime-tables"))]
use sm_field::DefaultBackend;
use sm_field::{Backend, Fp, Fp2, Sm9N};
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use super::multiples::{conditional_negate, select};
use super::{Sm9G1Curve, Sm9G2Curve};
use crate::comb::{select_raw, CombTable, COMB_ENTRIES};
use crate::scalar_mul::{booth_digit, scalar_to_limbs};
use crate::{Affine, Jacobian};

#[cfg(not(feature = "runtime-tables"))]
include!(concat!(env!("OUT_DIR"), "/sm9_comb.rs"));

/// Rows of the P1 comb: the build-time `static`.
#[cfg(not(feature = "runtime-tables"))]
#[inline(always)]
fn p1_rows() -> &'static [[[u64; 8]; COMB_ENTRIES]] {
    &SM9_P1_COMB
}

/// Rows of the P2 comb: the build-time `static`.
#[cfg(not(feature = "runtime-tables"))]
#[inline(always)]
fn p2_rows() -> &'static [[[u64; 16]; 64]] {
    &SM9_P2_COMB
}

/// Rows of the P1 comb, built on first use (feature `runtime-tables`).
#[cfg(feature = "runtime-tables")]
fn p1_rows() -> &'static [[[u64; 8]; COMB_ENTRIES]] {
    static ROWS_: std::sync::OnceLock<alloc::vec::Vec<[[u64; 8]; COMB_ENTRIES]>> =
        std::sync::OnceLock::new();
    ROWS_.get_or_init(build_p1_rows)
}

/// Rows of the P2 comb, built on first use (feature `runtime-tables`).
#[cfg(feature = "runtime-tables")]
fn p2_rows() -> &'static [[[u64; 16]; 64]] {
    static ROWS_: std::sync::OnceLock<alloc::vec::Vec<[[u64; 16]; 64]>> =
        std::sync::OnceLock::new();
    ROWS_.get_or_init(build_p2_rows)
}

/// The P1 comb computed at run time in the layout of the build-time table (build/sm9.rs); a
/// test compares the two.
#[cfg(any(all(test, feature = "alloc"), feature = "runtime-tables"))]
fn build_p1_rows() -> alloc::vec::Vec<[[u64; 8]; COMB_ENTRIES]> {
    use crate::comb::{comb_rows_raw, COMB_WINDOW, COMB_WINDOWS};
    let (x, y) = Sm9G1Curve::<DefaultBackend>::GENERATOR;
    let g = Affine::from_coordinates_unchecked(x, y);
    comb_rows_raw::<Sm9G1Curve, 8, COMB_ENTRIES>(&g, COMB_WINDOW, COMB_WINDOWS, false, |p| {
        let (x, y) = (p.x.to_mont_limbs(), p.y.to_mont_limbs());
        [x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3]]
    })
}

/// The P2 comb computed at run time in the layout of the build-time table.
#[cfg(any(all(test, feature = "alloc"), feature = "runtime-tables"))]
fn build_p2_rows() -> alloc::vec::Vec<[[u64; 16]; 64]> {
    let (x, y) = Sm9G2Curve::<DefaultBackend>::GENERATOR;
    let g = Affine::from_coordinates_unchecked(x, y);
    crate::comb::comb_rows_raw::<Sm9G2Curve, 16, 64>(&g, P2_W, P2_ROWS, false, |p| {
        let mut r = [0u64; 16];
        for (o, c) in r.chunks_exact_mut(4).zip([p.x.c0, p.x.c1, p.y.c0, p.y.c1]) {
            o.copy_from_slice(&c.to_mont_limbs());
        }
        r
    })
}

/// The run-time construction (feature `runtime-tables`) reproduces the build-time tables.
#[cfg(all(test, feature = "alloc", not(feature = "runtime-tables")))]
#[test]
fn runtime_tables_match_build_time() {
    assert_eq!(build_p1_rows(), SM9_P1_COMB.to_vec());
    assert_eq!(build_p2_rows(), SM9_P2_COMB.to_vec());
}

/// The comb table of P1 (88 KB, built at compile time, or on first use with the feature
/// `runtime-tables`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sm9P1Table;

/// The comb table of P2 (296 KB, built at compile time, or on first use with the feature
/// `runtime-tables`; 7-bit windows).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sm9P2Table;

#[inline(always)]
fn fp<B: Backend>(l: &[u64]) -> Fp<sm_field::Sm9P, B> {
    // The tables hold reduced Montgomery residues, so this never fails; `unwrap_or` selects
    // without the branch `unwrap` would take on the (secret) selected entry.
    Fp::from_mont_limbs([l[0], l[1], l[2], l[3]]).unwrap_or(Fp::ZERO)
}

fn g1_from_raw<B: Backend>(l: &[u64; 8]) -> Affine<Sm9G1Curve<B>> {
    Affine::from_coordinates_unchecked(fp(&l[0..4]), fp(&l[4..8]))
}

fn g2_from_raw<B: Backend>(l: &[u64; 16]) -> Affine<Sm9G2Curve<B>> {
    Affine::from_coordinates_unchecked(
        Fp2::new(fp(&l[0..4]), fp(&l[4..8])),
        Fp2::new(fp(&l[8..12]), fp(&l[12..16])),
    )
}

impl<B: Backend> CombTable<Sm9G1Curve<B>> for Sm9P1Table {
    fn select(&self, window: usize, abs: u8) -> Affine<Sm9G1Curve<B>> {
        let row: &[[u64; 8]; COMB_ENTRIES] = &p1_rows()[window];
        let mut p = g1_from_raw::<B>(&select_raw(row, abs));
        p.infinity = abs.ct_eq(&0).unwrap_u8();
        p
    }

    fn get_vartime(&self, window: usize, abs: u8) -> Affine<Sm9G1Curve<B>> {
        g1_from_raw::<B>(&p1_rows()[window][abs as usize - 1])
    }
}

/// Window width and rows of the P2 comb (7 · 37 = 259 ≥ 257 recoded bits).
const P2_W: u32 = 7;
const P2_ROWS: usize = 37;

impl Sm9P2Table {
    /// `k·P2` in constant time (a signed 7-bit comb: 37 mixed additions, no doublings).
    pub fn mul<B: Backend>(&self, k: &Fp<Sm9N, B>) -> Jacobian<Sm9G2Curve<B>> {
        let mut l = scalar_to_limbs(k);
        let mut acc = Jacobian::<Sm9G2Curve<B>>::IDENTITY;
        for (i, row) in p2_rows().iter().enumerate() {
            let (abs, neg) = booth_digit(&l, P2_W, i);
            let mut t = g2_from_raw::<B>(&select(row, abs));
            t.infinity = abs.ct_eq(&0).unwrap_u8();
            conditional_negate(&mut t, neg);
            acc = if i == 0 {
                Jacobian::from_affine(&t)
            } else if i + 1 == P2_ROWS {
                acc.add_affine(&t)
            } else {
                acc.add_affine_assume_distinct(&t)
            };
        }
        l.zeroize();
        acc
    }

    /// `k·P2` with time depending on `k` (public scalars only).
    pub fn mul_vartime<B: Backend>(&self, k: &Fp<Sm9N, B>) -> Jacobian<Sm9G2Curve<B>> {
        let l = scalar_to_limbs(k);
        let mut acc = Jacobian::<Sm9G2Curve<B>>::IDENTITY;
        for (i, row) in p2_rows().iter().enumerate() {
            let (abs, neg) = booth_digit(&l, P2_W, i);
            if abs == 0 {
                continue;
            }
            let t = g2_from_raw::<B>(&row[abs as usize - 1]);
            let t = if bool::from(neg) { t.neg() } else { t };
            acc = acc.add_affine_vartime(&t);
        }
        acc
    }
}
