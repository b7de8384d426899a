//! The SM2 recommended curve (GB/T 32918.5-2017, GM/T 0003.5-2012):
//! `y² = x³ − 3x + b` over GF(p), p = 2^256 − 2^224 − 2^96 + 2^64 − 1, prime order n, cofactor 1.

use core::marker::PhantomData;

use sm_field::{Backend, DefaultBackend, Fp, Modulus, Sm2N, Sm2P};

use subtle::{Choice, ConditionallySelectable};
use zeroize::Zeroize;

use crate::comb::select_raw;
use crate::scalar_mul::{bits, scalar_to_limbs};
use crate::{AKind, Affine, CurveParams, Jacobian};

#[cfg(not(feature = "runtime-tables"))]
include!(concat!(env!("OUT_DIR"), "/sm2_g_comb.rs"));

/// The rows of [`Sm2GeneratorTable`]: the build-time `static`.
#[cfg(not(feature = "runtime-tables"))]
#[inline(always)]
fn comb_rows() -> &'static [[[u64; 8]; 32]] {
    &SM2_G_COMB
}

/// The rows of [`Sm2GeneratorTable`], built on first use (feature `runtime-tables`).
#[cfg(feature = "runtime-tables")]
fn comb_rows() -> &'static [[[u64; 8]; 32]] {
    static ROWS_: std::sync::OnceLock<alloc::vec::Vec<[[u64; 8]; 32]>> = std::sync::OnceLock::new();
    ROWS_.get_or_init(build_comb_rows)
}

/// The rows of [`Sm2GeneratorTable`] computed at run time in the layout of the build-time table
/// (build.rs); a test compares the two.
#[cfg(any(all(test, feature = "alloc"), feature = "runtime-tables"))]
fn build_comb_rows() -> alloc::vec::Vec<[[u64; 8]; 32]> {
    let (x, y) = Sm2Curve::<DefaultBackend>::GENERATOR;
    let g = Affine::from_coordinates_unchecked(x, y);
    crate::comb::comb_rows_raw::<Sm2Curve, 8, 32>(&g, 6, ROWS, true, |p| {
        let (x, y) = (p.x.to_mont_limbs(), p.y.to_mont_limbs());
        [x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3]]
    })
}

/// The SM2 curve over limb backend `B`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sm2Curve<B: Backend = DefaultBackend>(PhantomData<B>);

impl<B: Backend> crate::ChangeBackend for Sm2Curve<B> {
    type On<B2: Backend> = Sm2Curve<B2>;
    #[inline(always)]
    fn base_to<B2: Backend>(x: &Fp<Sm2P, B>) -> Fp<Sm2P, B2> {
        x.to_backend()
    }
}

impl<B: Backend> CurveParams for Sm2Curve<B> {
    type Base = Fp<Sm2P, B>;
    type Scalar = Fp<Sm2N, B>;
    const NAME: &'static str = "sm2p256v1";
    const A_KIND: AKind = AKind::MinusThree;
    const A: Fp<Sm2P, B> =
        Fp::from_be_hex_const("FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFC");
    const B: Fp<Sm2P, B> =
        Fp::from_be_hex_const("28E9FA9E9D9F5E344D5A9E4BCF6509A7F39789F515AB8F92DDBCBD414D940E93");
    const GENERATOR: (Fp<Sm2P, B>, Fp<Sm2P, B>) = (
        Fp::from_be_hex_const("32C4AE2C1F1981195F9904466A39C9948FE30BBFF2660BE1715A4589334C74C7"),
        Fp::from_be_hex_const("BC3736A2F4F6779C59BDCEE36B692153D0A9877CC62A474002DF32E52139F0A0"),
    );
    const ORDER: [u64; 4] = Sm2N::P;

    fn mul_generator(k: &Self::Scalar) -> Jacobian<Self> {
        Sm2GeneratorTable.mul(k)
    }

    fn mul_generator_vartime(k: &Self::Scalar) -> Jacobian<Self> {
        Sm2GeneratorTable.mul_vartime(k)
    }
}

/// The comb table of the SM2 generator, computed at build time (`build.rs`) and stored as a
/// `static` of Montgomery limbs (identical for every backend).
///
/// Row `i` holds the odd multiples `j·2^(6i)·G`, `j = 1, 3, …, 63`. A scalar is first made odd
/// (`k` or `n − k`, negating the result) and recoded into regular signed odd digits
/// (Joye–Tunstall, "Exponent recoding and regular exponentiation algorithms", AFRICACRYPT 2009,
/// §3): `d_i = (⌊k/2^(6i)⌋ mod 2^7 | 1) − 64 ∈ {±1, ±3, …, ±63}` for `i < 42` and the top digit
/// `d_42 = ⌊k/2^252⌋ | 1 ∈ {1, …, 15}`, so `k = Σ d_i·2^(6i)`. Every digit is nonzero: the
/// constant-time path never meets the identity and needs no identity handling per row.
///
/// **Exceptional cases.** Before row `i ≥ 1` is added the accumulator is `a·G` with `a` odd (so
/// not the identity) and `|a| ≤ 63·Σ_{j<i} 2^(6j) < 2^(6i)`; the addend is `d·2^(6i)·G` with
/// `1 ≤ |d| ≤ 63`. For `i ≤ 41`, `|a ∓ d·2^(6i)| < 2^(6i+6) ≤ 2^252 < n`, so `a ≡ ±d·2^(6i)
/// (mod n)` would be an integer equality, impossible as `|a| < |d|·2^(6i)`: the incomplete mixed
/// addition is exact. Only the top row (`i = 42`) uses the complete addition.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sm2GeneratorTable;

/// Rows of the table (6 · 43 = 258 bits; the top digit covers bits 252..255).
const ROWS: usize = 43;

fn raw_to_affine<B: Backend>(l: &[u64; 8]) -> Affine<Sm2Curve<B>> {
    // The table holds reduced Montgomery residues, so these never fail; `unwrap_or` selects
    // without the branch `unwrap` would take on the (secret) selected entry.
    let x = Fp::from_mont_limbs([l[0], l[1], l[2], l[3]]).unwrap_or(Fp::ZERO);
    let y = Fp::from_mont_limbs([l[4], l[5], l[6], l[7]]).unwrap_or(Fp::ZERO);
    Affine::from_coordinates_unchecked(x, y)
}

/// Digit `i` of the regular odd recoding of an odd `k` (see [`Sm2GeneratorTable`]), as
/// `((|d_i| + 1) / 2, d_i < 0)`: the 1-based entry index and the sign, without branches on `k`.
#[inline(always)]
fn odd_digit(k: &[u64; 4], i: usize) -> (u8, u64) {
    let d = if i + 1 == ROWS {
        (bits(k, 6 * i, 4) | 1) as i64
    } else {
        (bits(k, 6 * i, 7) | 1) as i64 - 64
    };
    let neg = (d >> 63) as u64; // all ones when negative
    let abs = ((d as u64) ^ neg).wrapping_sub(neg);
    (abs.div_ceil(2) as u8, neg & 1)
}

/// `k` made odd: `(k, false)` or `(n − k, true)`; a zero `k` becomes `(1, false)` with the
/// returned `zero` flag set. Constant time.
fn make_odd<B: Backend>(k: &Fp<Sm2N, B>) -> (Fp<Sm2N, B>, Choice, Choice) {
    let zero = k.is_zero();
    let k1 = Fp::conditional_select(k, &Fp::ONE, zero);
    let even = !k1.is_odd();
    (Fp::conditional_select(&k1, &-k1, even), even, zero)
}

impl Sm2GeneratorTable {
    /// The entry `(2·idx − 1)·2^(6·row)·G`, negated when `neg = 1`, reading the whole row in
    /// constant time.
    #[inline(always)]
    fn select<B: Backend>(row: usize, idx: u8, neg: u64) -> Affine<Sm2Curve<B>> {
        let mut p = raw_to_affine::<B>(&select_raw(&comb_rows()[row], idx));
        let ny = -p.y;
        p.y.conditional_assign(&ny, Choice::from(neg as u8));
        p
    }

    /// The rows as stored: entry `j` of row `i` is `(2j + 1)·2^(6i)·G` as the Montgomery limbs
    /// (R = 2^256, identical for every backend) `x ‖ y`. For kernels that read entries
    /// directly, such as the lane-parallel batch verification of `sm2`.
    pub fn raw_rows(&self) -> &'static [[[u64; 8]; 32]] {
        comb_rows()
    }

    /// `k·G` in constant time.
    pub fn mul<B: Backend>(&self, k: &Fp<Sm2N, B>) -> Jacobian<Sm2Curve<B>> {
        let (mut kk, even, zero) = make_odd(k);
        let mut l = scalar_to_limbs(&kk);
        kk.zeroize();
        let (idx, neg) = odd_digit(&l, 0);
        let t = Self::select::<B>(0, idx, neg);
        let mut acc = Jacobian::from_raw_unchecked(t.x, t.y, Fp::ONE);
        for i in 1..ROWS - 1 {
            let (idx, neg) = odd_digit(&l, i);
            let t = Self::select::<B>(i, idx, neg);
            // Never the identity or ±acc (see the type docs).
            acc = acc.add_affine_core(&t.x, &t.y).0;
        }
        let (idx, neg) = odd_digit(&l, ROWS - 1);
        acc = acc.add_affine(&Self::select::<B>(ROWS - 1, idx, neg));
        l.zeroize();
        acc.conditional_negate(even);
        Jacobian::conditional_select(&acc, &Jacobian::IDENTITY, zero)
    }

    /// `k·G` with time depending on `k` (public scalars only).
    pub fn mul_vartime<B: Backend>(&self, k: &Fp<Sm2N, B>) -> Jacobian<Sm2Curve<B>> {
        if bool::from(k.is_zero()) {
            return Jacobian::IDENTITY;
        }
        let (kk, even, _) = make_odd(k);
        let l = scalar_to_limbs(&kk);
        let mut acc = Jacobian::IDENTITY;
        for (i, row) in comb_rows().iter().enumerate() {
            let (idx, neg) = odd_digit(&l, i);
            let t = raw_to_affine::<B>(&row[idx as usize - 1]);
            let t = if neg == 1 { t.neg() } else { t };
            acc = acc.add_affine_vartime(&t);
        }
        if bool::from(even) {
            acc.neg()
        } else {
            acc
        }
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use crate::scalar_mul::scalar_to_limbs;
    use sm_field::U64;

    type C = Sm2Curve<U64>;

    /// The run-time construction (feature `runtime-tables`) reproduces the build-time table.
    #[cfg(not(feature = "runtime-tables"))]
    #[test]
    fn runtime_table_matches_build_time() {
        assert_eq!(build_comb_rows(), SM2_G_COMB.to_vec());
    }

    /// The odd-digit comb (constant-time and vartime) against double-and-add, on edge scalars
    /// (0, 1, 2, even/odd, n − 1, n − 6, values hitting the top row's complete addition) and a
    /// pseudo-random sweep.
    #[test]
    fn generator_comb_matches_double_and_add() {
        let g = Jacobian::<C>::generator();
        let mut ks: alloc::vec::Vec<Fp<Sm2N, U64>> = alloc::vec::Vec::new();
        for v in [0u64, 1, 2, 3, 6, 63, 64, 65, 127, 128] {
            ks.push(Fp::from_u64(v));
            ks.push(-Fp::from_u64(v));
        }
        let two252 = Fp::<Sm2N, U64>::from_u64(1 << 63).pow_vartime(&[4, 0, 0, 0]);
        for d in 1..16u64 {
            ks.push(two252 * Fp::from_u64(d));
            ks.push(two252 * Fp::from_u64(d) + Fp::ONE);
            ks.push(-(two252 * Fp::from_u64(d)));
        }
        let mut x = Fp::<Sm2N, U64>::from_u64(0x1234_5678_9abc_def1);
        for _ in 0..40 {
            x = x.square() + Fp::from_u64(7);
            ks.push(x);
        }
        for k in &ks {
            let expect = g.mul_naive_vartime(&scalar_to_limbs(k));
            assert_eq!(Sm2GeneratorTable.mul(k), expect, "ct k = {k:?}");
            assert_eq!(
                Sm2GeneratorTable.mul_vartime(k),
                expect,
                "vartime k = {k:?}"
            );
        }
        assert!(bool::from(
            Sm2GeneratorTable.mul(&Fp::<Sm2N, U64>::ZERO).is_identity()
        ));
    }
}
