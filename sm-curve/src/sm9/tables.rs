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

use sm_field::{Backend, Fp, Fp2, Sm9N};
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use super::multiples::{conditional_negate, select};
use super::{Sm9G1Curve, Sm9G2Curve};
use crate::comb::{select_raw, CombTable, COMB_ENTRIES};
use crate::scalar_mul::{booth_digit, scalar_to_limbs};
use crate::{Affine, Jacobian};

include!(concat!(env!("OUT_DIR"), "/sm9_comb.rs"));

/// The comb table of P1 (88 KB, built at compile time).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sm9P1Table;

/// The comb table of P2 (296 KB, built at compile time; 7-bit windows).
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
        let row: &[[u64; 8]; COMB_ENTRIES] = &SM9_P1_COMB[window];
        let mut p = g1_from_raw::<B>(&select_raw(row, abs));
        p.infinity = abs.ct_eq(&0).unwrap_u8();
        p
    }

    fn get_vartime(&self, window: usize, abs: u8) -> Affine<Sm9G1Curve<B>> {
        g1_from_raw::<B>(&SM9_P1_COMB[window][abs as usize - 1])
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
        for (i, row) in SM9_P2_COMB.iter().enumerate() {
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
        for (i, row) in SM9_P2_COMB.iter().enumerate() {
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
