//! GF(p⁴) = GF(p²)\[v\]/(v² − u) for the SM9 prime (GM/T 0044.5, tower 1-2-4-12).
//!
//! An element is `c0 + c1·v` with `c0, c1 ∈ GF(p²)`; in terms of the generator w of GF(p¹²)
//! (w³ = v, w⁶ = u), v = w³. The 128-byte encoding is `c1 ‖ c0` (highest power first).
//!
//! `Fp4` does not implement [`Field`](crate::Field): no curve is defined over it, so it has no
//! square root or compression sign.

use core::fmt;

use subtle::CtOption;

use crate::{Backend, DefaultBackend, Fp, Fp2, Limbs, Sm9P};

/// An element `c0 + c1·v` of GF(p⁴) with v² = u.
pub struct Fp4<B: Backend = DefaultBackend> {
    /// Constant coefficient.
    pub c0: Fp2<B>,
    /// Coefficient of v.
    pub c1: Fp2<B>,
}

impl<B: Backend> Fp4<B> {
    /// Zero.
    pub const ZERO: Self = Self {
        c0: Fp2::ZERO,
        c1: Fp2::ZERO,
    };
    /// One.
    pub const ONE: Self = Self {
        c0: Fp2::ONE,
        c1: Fp2::ZERO,
    };

    /// `c0 + c1·v`.
    #[inline(always)]
    pub const fn new(c0: Fp2<B>, c1: Fp2<B>) -> Self {
        Self { c0, c1 }
    }

    /// `self · rhs` by Karatsuba (3 GF(p²) multiplications):
    /// `c0 = a0·b0 + u·a1·b1`, `c1 = (a0 + a1)(b0 + b1) − a0·b0 − a1·b1`. The recombination
    /// (`mul_combine`) is shared with the batched tower products, which stage the same factor
    /// pairs (`mul_factors`); here the products take their operands by reference and the
    /// recombination takes them by reference too (routed through by-value arrays they were
    /// copied: Fp4 mul 317 → 354 ns on `Mulx`). Not inlined, like [`Fp2::mul`] (code size; see
    /// there).
    #[inline(never)]
    pub fn mul(&self, rhs: &Self) -> Self {
        let v0 = self.c0.mul(&rhs.c0);
        let v1 = self.c1.mul(&rhs.c1);
        let s = self.c0.add(&self.c1).mul(&rhs.c0.add(&rhs.c1));
        Self::mul_combine(&v0, &v1, &s)
    }

    /// `self²` by complex squaring (2 GF(p²) multiplications): with `m = a0·a1`,
    /// `c0 = (a0 + a1)(a0 + u·a1) − m − u·m` (= a0² + u·a1²), `c1 = 2·m`.
    #[inline(never)]
    pub fn square(&self) -> Self {
        let m = self.c0.mul(&self.c1);
        let t = self.c0.add(&self.c1).mul(&self.c0.add_mul_by_u(&self.c1));
        Self::square_combine(&m, &t)
    }

    /// Multiplication by an element of GF(p²) (2 GF(p²) multiplications).
    #[inline(always)]
    pub fn mul_by_fp2(&self, k: &Fp2<B>) -> Self {
        Self {
            c0: self.c0.mul(k),
            c1: self.c1.mul(k),
        }
    }

    /// The pre-additions of [`mul`](Self::mul): the GF(p²) factor pairs `(a0, b0)`, `(a1, b1)`,
    /// `(a0 + a1, b0 + b1)`.
    #[inline(always)]
    fn mul_factors(&self, rhs: &Self) -> [(Fp2<B>, Fp2<B>); 3] {
        [
            (self.c0, rhs.c0),
            (self.c1, rhs.c1),
            (self.c0.add(&self.c1), rhs.c0.add(&rhs.c1)),
        ]
    }

    /// The recombination of [`mul`](Self::mul) from the products `[v0, v1, s]` of
    /// [`mul_factors`](Self::mul_factors).
    #[inline(always)]
    fn mul_combine(v0: &Fp2<B>, v1: &Fp2<B>, s: &Fp2<B>) -> Self {
        Self {
            c0: v0.add_mul_by_u(v1),
            c1: s.sub(v0).sub(v1),
        }
    }

    /// The pre-additions of [`square`](Self::square): `(a0, a1)`, `(a0 + a1, a0 + u·a1)`.
    #[inline(always)]
    fn square_factors(&self) -> [(Fp2<B>, Fp2<B>); 2] {
        [
            (self.c0, self.c1),
            (self.c0.add(&self.c1), self.c0.add_mul_by_u(&self.c1)),
        ]
    }

    /// The recombination of [`square`](Self::square) from the products `[m, t]` of
    /// [`square_factors`](Self::square_factors).
    #[inline(always)]
    fn square_combine(m: &Fp2<B>, t: &Fp2<B>) -> Self {
        Self {
            c0: t.sub(m).sub_mul_by_u(m),
            c1: m.double(),
        }
    }

    /// The factor pairs of [`mul_by_fp2`](Self::mul_by_fp2): `(a0, k)`, `(a1, k)`.
    #[inline(always)]
    fn mul_by_fp2_factors(&self, k: &Fp2<B>) -> [(Fp2<B>, Fp2<B>); 2] {
        [(self.c0, *k), (self.c1, *k)]
    }

    /// The GF(p⁴) sub-products of one tower formula (between its pre-additions and its
    /// recombination): `M` products `a·b`, `S` squarings `a²` and `K` products `a·k` by an
    /// element of GF(p²).
    ///
    /// On a backend without batches ([`Backend::BATCH`] false) each is computed directly by
    /// [`mul`](Self::mul), [`square`](Self::square) or [`mul_by_fp2`](Self::mul_by_fp2).
    /// Otherwise the same formulas' `ROWS` = 9M + 6S + 6K GF(p) factor pairs go to the backend
    /// in one [`Backend::mul_batch`] call and are recombined from its products. `BATCH` is a
    /// compile-time constant, so each monomorphisation compiles one of the two; the results are
    /// bit-identical either way.
    ///
    /// The formula's recombination, `recombine`, reads the products where they were written.
    /// Returned by value, the arrays were copied by vector loads of words just stored one by
    /// one: on `MulxIfma` (Zen 5) the pairing was 14 % slower than with the hand-laid batches
    /// the formulas had before; read in place, 4 %.
    #[inline(always)]
    pub(crate) fn products<const M: usize, const S: usize, const K: usize, const ROWS: usize, R>(
        mul: [(&Self, &Self); M],
        square: [&Self; S],
        by_fp2: [(&Self, &Fp2<B>); K],
        recombine: impl FnOnce(&[Self; M], &[Self; S], &[Self; K]) -> R,
    ) -> R {
        let mut out = ([Self::ZERO; M], [Self::ZERO; S], [Self::ZERO; K]);
        if B::BATCH {
            const { assert!(ROWS == 9 * M + 6 * S + 6 * K) };
            let (mut x, mut y, mut r) = ([[0u64; 4]; ROWS], [[0u64; 4]; ROWS], [[0u64; 4]; ROWS]);
            Self::products_batched(mul, square, by_fp2, [&mut x, &mut y, &mut r], &mut out);
        } else {
            Self::products_direct(mul, square, by_fp2, &mut out);
        }
        recombine(&out.0, &out.1, &out.2)
    }

    /// `[x²; N]` for N elements at once (on a backend with batches, [`Backend::BATCH`], their
    /// 6N GF(p) products go to it in one [`Backend::mul_batch`] call), e.g. the two or three
    /// GF(p⁴) squarings of a compressed or cyclotomic squaring in GF(p¹²). Same results as
    /// [`square`](Self::square).
    #[inline]
    pub fn square_batch<const N: usize>(xs: &[Self; N]) -> [Self; N] {
        let square = xs.each_ref();
        let mut out = ([], [Self::ZERO; N], []);
        if B::BATCH {
            let (mut x, mut y, mut r) = (
                [[[0u64; 4]; 6]; N],
                [[[0u64; 4]; 6]; N],
                [[[0u64; 4]; 6]; N],
            );
            let rows = [&mut x, &mut y, &mut r].map(|b| b.as_flattened_mut());
            Self::products_batched([], square, [], rows, &mut out);
        } else {
            Self::products_direct([], square, [], &mut out);
        }
        out.1
    }

    /// [`products`](Self::products), each computed directly. Plain loops, not `array::map`:
    /// that was compiled as a call taking and returning the arrays (Fp12 square and sparse
    /// product 9-13 % slower on `Mulx`); these unroll into the formula.
    #[inline(always)]
    fn products_direct<const M: usize, const S: usize, const K: usize>(
        mul: [(&Self, &Self); M],
        square: [&Self; S],
        by_fp2: [(&Self, &Fp2<B>); K],
        out: &mut Products<B, M, S, K>,
    ) {
        for (o, (a, b)) in out.0.iter_mut().zip(mul) {
            *o = a.mul(b);
        }
        for (o, a) in out.1.iter_mut().zip(square) {
            *o = a.square();
        }
        for (o, (a, k)) in out.2.iter_mut().zip(by_fp2) {
            *o = a.mul_by_fp2(k);
        }
    }

    /// [`products`](Self::products) with one [`Backend::mul_batch`] call on the rows `x`, `y`
    /// (factors) and `r` (products), 9M + 6S + 6K of each, laid out by kind at fixed offsets.
    /// Each GF(p⁴) product is staged and recombined by small out-of-line functions on its own
    /// fixed-size rows (the factors written straight into them), one copy of each for every
    /// formula. Measured on `MulxIfma` (Zen 5, `xtask bench field`): an enum of products staged
    /// at a running offset through intermediate factor arrays made Fp12 mul/square/sparse
    /// product 25-35 % slower than this layout; the same layout with the recombination inlined
    /// 5-15 %.
    #[inline(always)]
    fn products_batched<const M: usize, const S: usize, const K: usize>(
        mul: [(&Self, &Self); M],
        square: [&Self; S],
        by_fp2: [(&Self, &Fp2<B>); K],
        [x, y, r]: [&mut [Limbs]; 3],
        out: &mut Products<B, M, S, K>,
    ) {
        {
            let (xm, xs) = x.split_at_mut(9 * M);
            let (ym, ys) = y.split_at_mut(9 * M);
            for ((a, b), (xi, yi)) in mul.iter().zip(rows(xm).iter_mut().zip(rows(ym))) {
                a.stage_mul(b, xi, yi);
            }
            let (xs, xk) = xs.split_at_mut(6 * S);
            let (ys, yk) = ys.split_at_mut(6 * S);
            for (a, (xi, yi)) in square.iter().zip(rows(xs).iter_mut().zip(rows(ys))) {
                a.stage_square(xi, yi);
            }
            for ((a, k), (xi, yi)) in by_fp2.iter().zip(rows(xk).iter_mut().zip(rows(yk))) {
                a.stage_mul_by_fp2(k, xi, yi);
            }
        }
        B::mul_batch::<Sm9P>(x, y, r);
        let (rm, rs) = r.split_at(9 * M);
        let (rs, rk) = rs.split_at(6 * S);
        for (o, ri) in out.0.iter_mut().zip(rm.as_chunks().0) {
            Self::mul_from_rows(ri, o);
        }
        for (o, ri) in out.1.iter_mut().zip(rs.as_chunks().0) {
            Self::square_from_rows(ri, o);
        }
        for (o, ri) in out.2.iter_mut().zip(rk.as_chunks::<6>().0) {
            // The two products are the coefficients.
            (o.c0, o.c1) = (fp2_from_rows(ri, 0), fp2_from_rows(ri, 3));
        }
    }

    /// The nine GF(p) factor pairs of [`mul`](Self::mul) (batched products).
    #[inline(never)]
    fn stage_mul(&self, rhs: &Self, x: &mut [Limbs; 9], y: &mut [Limbs; 9]) {
        stage_fp2_pairs(&self.mul_factors(rhs), x, y);
    }

    /// The six GF(p) factor pairs of [`square`](Self::square) (batched products).
    #[inline(never)]
    fn stage_square(&self, x: &mut [Limbs; 6], y: &mut [Limbs; 6]) {
        stage_fp2_pairs(&self.square_factors(), x, y);
    }

    /// The six GF(p) factor pairs of [`mul_by_fp2`](Self::mul_by_fp2) (batched products).
    #[inline(never)]
    fn stage_mul_by_fp2(&self, k: &Fp2<B>, x: &mut [Limbs; 6], y: &mut [Limbs; 6]) {
        stage_fp2_pairs(&self.mul_by_fp2_factors(k), x, y);
    }

    /// [`mul`](Self::mul) from the products of [`stage_mul`](Self::stage_mul)'s rows.
    #[inline(never)]
    fn mul_from_rows(r: &[Limbs; 9], out: &mut Self) {
        *out = Self::mul_combine(
            &fp2_from_rows(r, 0),
            &fp2_from_rows(r, 3),
            &fp2_from_rows(r, 6),
        );
    }

    /// [`square`](Self::square) from the products of [`stage_square`](Self::stage_square)'s
    /// rows.
    #[inline(never)]
    fn square_from_rows(r: &[Limbs; 6], out: &mut Self) {
        *out = Self::square_combine(&fp2_from_rows(r, 0), &fp2_from_rows(r, 3));
    }

    /// Multiplication by the non-residue v (defines GF(p¹²) = GF(p⁴)\[w\]/(w³ − v)):
    /// `(a0 + a1·v)·v = u·a1 + a0·v`. Additions only.
    #[inline(always)]
    pub fn mul_by_v(&self) -> Self {
        Self {
            c0: self.c1.mul_by_u(),
            c1: self.c0,
        }
    }

    /// `self + v·rhs = (a0 + u·b1) + (a1 + b0)·v` (5 GF(p) additions instead of 6).
    #[inline(always)]
    pub fn add_mul_by_v(&self, rhs: &Self) -> Self {
        Self {
            c0: self.c0.add_mul_by_u(&rhs.c1),
            c1: self.c1.add(&rhs.c0),
        }
    }

    /// Conjugate over GF(p²), `c0 − c1·v` (the p²-power Frobenius map of GF(p⁴)).
    #[inline(always)]
    pub fn conjugate(&self) -> Self {
        Self {
            c0: self.c0,
            c1: self.c1.neg(),
        }
    }

    /// Inverse in constant time, `(c0 − c1·v) / (c0² − u·c1²)`; none for zero.
    pub fn invert(&self) -> CtOption<Self> {
        let n = self.c0.square().sub(&self.c1.square().mul_by_u());
        n.invert().map(|ni| self.conjugate().mul_by_fp2(&ni))
    }

    /// 128 bytes: `c1 ‖ c0` (each in the [`Fp2`] encoding).
    pub fn to_bytes(&self) -> [u8; 128] {
        let mut out = [0u8; 128];
        out[..64].copy_from_slice(&self.c1.to_bytes());
        out[64..].copy_from_slice(&self.c0.to_bytes());
        out
    }

    /// Inverse of [`to_bytes`](Self::to_bytes); none unless every coefficient is below p.
    pub fn from_bytes(bytes: &[u8; 128]) -> CtOption<Self> {
        let c1 = Fp2::from_bytes(bytes[..64].try_into().expect("64 bytes"));
        let c0 = Fp2::from_bytes(bytes[64..].try_into().expect("64 bytes"));
        c0.and_then(|c0| c1.map(|c1| Self { c0, c1 }))
    }
}

/// The results of [`Fp4::products`]: the `M` products, `S` squarings and `K` products by an
/// element of GF(p²).
type Products<B, const M: usize, const S: usize, const K: usize> =
    ([Fp4<B>; M], [Fp4<B>; S], [Fp4<B>; K]);

/// `xs` as rows of `N` (its length is a multiple of `N`).
#[inline(always)]
fn rows<const N: usize>(xs: &mut [Limbs]) -> &mut [[Limbs; N]] {
    xs.as_chunks_mut().0
}

/// Writes the GF(p) factor pairs of the GF(p²) products `f·g` of `pairs` (the pre-additions
/// of [`Fp2::mul`], three per pair) to the rows `x`, `y`.
#[inline(always)]
fn stage_fp2_pairs<B: Backend, const K: usize>(
    pairs: &[(Fp2<B>, Fp2<B>); K],
    x: &mut [Limbs],
    y: &mut [Limbs],
) {
    for (i, (f, g)) in pairs.iter().enumerate() {
        let [(a0, b0), (a1, b1), (a2, b2)] = f.mul_factors(g);
        let at = 3 * i;
        (x[at], x[at + 1], x[at + 2]) =
            (a0.to_mont_limbs(), a1.to_mont_limbs(), a2.to_mont_limbs());
        (y[at], y[at + 1], y[at + 2]) =
            (b0.to_mont_limbs(), b1.to_mont_limbs(), b2.to_mont_limbs());
    }
}

/// The GF(p²) product whose three GF(p) products [`stage_fp2_pairs`] laid out at
/// `r[at..at + 3]` (the recombination of [`Fp2::mul`]).
#[inline(always)]
fn fp2_from_rows<B: Backend>(r: &[Limbs], at: usize) -> Fp2<B> {
    // Fully reduced Montgomery limbs, by the `Backend` contract.
    let f = |j: usize| Fp::from_mont_unchecked(r[at + j]);
    Fp2::mul_combine(&f(0), &f(1), &f(2))
}

impl<B: Backend> fmt::Debug for Fp4<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fp4({:?} + {:?}·v)", self.c0, self.c1)
    }
}

crate::tower::tower_type!(Fp4 over Fp2: c0, c1);
