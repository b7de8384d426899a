//! Fixed-base comb tables of the SM9 generators P1 and P2, computed at build time
//! (`build/sm9.rs`) and stored as `static` Montgomery limbs (identical for every backend):
//! 43 rows of 32 points, signed 6-bit windows (the layout and exception analysis of `comb.rs`);
//! `k·P1` and `k·P2` cost 43 mixed additions and no doublings. Lookups read whole rows with
//! arithmetic masks.

use sm_field::{Backend, Fp, Fp2};
use subtle::ConstantTimeEq;

use super::{Sm9G1Curve, Sm9G2Curve};
use crate::comb::{select_raw, CombTable, COMB_ENTRIES};
use crate::Affine;

include!(concat!(env!("OUT_DIR"), "/sm9_comb.rs"));

/// The comb table of P1 (88 KB, built at compile time).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sm9P1Table;

/// The comb table of P2 (176 KB, built at compile time).
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

impl<B: Backend> CombTable<Sm9G2Curve<B>> for Sm9P2Table {
    fn select(&self, window: usize, abs: u8) -> Affine<Sm9G2Curve<B>> {
        let row: &[[u64; 16]; COMB_ENTRIES] = &SM9_P2_COMB[window];
        let mut p = g2_from_raw::<B>(&select_raw(row, abs));
        p.infinity = abs.ct_eq(&0).unwrap_u8();
        p
    }

    fn get_vartime(&self, window: usize, abs: u8) -> Affine<Sm9G2Curve<B>> {
        g2_from_raw::<B>(&SM9_P2_COMB[window][abs as usize - 1])
    }
}
