//! GF(p⁴) = GF(p²)\[v\]/(v² − u) for the SM9 prime (GM/T 0044.5, tower 1-2-4-12).
//!
//! An element is `c0 + c1·v` with `c0, c1 ∈ GF(p²)`; in terms of the generator w of GF(p¹²)
//! (w³ = v, w⁶ = u), v = w³. The 128-byte encoding is `c1 ‖ c0` (highest power first).
//!
//! `Fp4` does not implement [`Field`](crate::Field): no curve is defined over it, so it has no
//! square root or compression sign.

use core::fmt;

use rand_core::CryptoRng;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};
use zeroize::Zeroize;

use crate::fp2::tower_ops;
use crate::{Backend, DefaultBackend, Fp, Fp2, Limbs, Sm9P};

/// An element `c0 + c1·v` of GF(p⁴) with v² = u.
pub struct Fp4<B: Backend = DefaultBackend> {
    /// Constant coefficient.
    pub c0: Fp2<B>,
    /// Coefficient of v.
    pub c1: Fp2<B>,
}

impl<B: Backend> Clone for Fp4<B> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<B: Backend> Copy for Fp4<B> {}

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

    /// The same value computed by another backend.
    #[inline(always)]
    pub const fn to_backend<B2: Backend>(&self) -> Fp4<B2> {
        Fp4 {
            c0: self.c0.to_backend(),
            c1: self.c1.to_backend(),
        }
    }

    /// `self + rhs`.
    #[inline(always)]
    pub fn add(&self, rhs: &Self) -> Self {
        Self {
            c0: self.c0.add(&rhs.c0),
            c1: self.c1.add(&rhs.c1),
        }
    }

    /// `self − rhs`.
    #[inline(always)]
    pub fn sub(&self, rhs: &Self) -> Self {
        Self {
            c0: self.c0.sub(&rhs.c0),
            c1: self.c1.sub(&rhs.c1),
        }
    }

    /// `−self`.
    #[inline(always)]
    pub fn neg(&self) -> Self {
        Self {
            c0: self.c0.neg(),
            c1: self.c1.neg(),
        }
    }

    /// `2·self`.
    #[inline(always)]
    pub fn double(&self) -> Self {
        Self {
            c0: self.c0.double(),
            c1: self.c1.double(),
        }
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

    /// The GF(p⁴) products `ops` of one tower formula (the sub-products between its
    /// pre-additions and its recombination).
    ///
    /// On a backend without batches ([`Backend::BATCH`] false) each is computed directly by
    /// [`mul`](Self::mul), [`square`](Self::square) or [`mul_by_fp2`](Self::mul_by_fp2).
    /// Otherwise the same formulas' GF(p) factor pairs (9 per [`Op4::Mul`], 6 per
    /// [`Op4::Square`] or [`Op4::MulFp2`], in the order of `ops`) go to the backend in one
    /// [`Backend::mul_batch`] call and are recombined from its products. `BATCH` is a
    /// compile-time constant, so each monomorphisation compiles one of the two; the results are
    /// bit-identical either way.
    #[inline(always)]
    pub(crate) fn products<const N: usize>(ops: [Op4<'_, B>; N]) -> [Self; N] {
        if B::BATCH {
            Self::products_batched(ops)
        } else {
            // A plain loop, not `array::map`: that was compiled as a call taking and returning
            // the arrays (Fp12 square and sparse product 9-13 % slower on `Mulx`); this one
            // unrolls into the formula.
            let mut out = [Self::ZERO; N];
            for (o, op) in out.iter_mut().zip(ops) {
                *o = op.eval();
            }
            out
        }
    }

    /// [`products`](Self::products) with one [`Backend::mul_batch`] call.
    fn products_batched<const N: usize>(ops: [Op4<'_, B>; N]) -> [Self; N] {
        let mut x = [[[0u64; 4]; 9]; N];
        let mut y = [[[0u64; 4]; 9]; N];
        let mut r = [[[0u64; 4]; 9]; N];
        let (x, y, r) = (
            x.as_flattened_mut(),
            y.as_flattened_mut(),
            r.as_flattened_mut(),
        );
        let n = ops.iter().fold(0, |n, op| op.stage(x, y, n));
        B::mul_batch::<Sm9P>(&x[..n], &y[..n], &mut r[..n]);
        let mut out = [Self::ZERO; N];
        let mut n = 0;
        for (o, op) in out.iter_mut().zip(ops) {
            (*o, n) = op.combine(r, n);
        }
        out
    }

    /// `[x²; N]` for N elements at once (`products` of N squarings: on a backend with batches,
    /// [`Backend::BATCH`], their 6N GF(p) products go to it in one [`Backend::mul_batch`] call),
    /// e.g. the two or three GF(p⁴) squarings of a compressed or
    /// cyclotomic squaring in GF(p¹²). Same results as [`square`](Self::square).
    pub fn square_batch<const N: usize>(xs: &[Self; N]) -> [Self; N] {
        Self::products(xs.each_ref().map(Op4::Square))
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

    /// Whether the element is zero.
    #[inline]
    pub fn is_zero(&self) -> Choice {
        self.c0.is_zero() & self.c1.is_zero()
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

    /// A uniformly random element.
    pub fn random(rng: &mut impl CryptoRng) -> Self {
        Self {
            c0: Fp2::random(rng),
            c1: Fp2::random(rng),
        }
    }
}

/// One GF(p⁴) product of a tower formula, for [`Fp4::products`].
#[derive(Clone, Copy)]
pub(crate) enum Op4<'a, B: Backend> {
    /// `a · b` ([`Fp4::mul`]: 3 GF(p²), 9 GF(p) products).
    Mul(&'a Fp4<B>, &'a Fp4<B>),
    /// `a²` ([`Fp4::square`]: 2 GF(p²), 6 GF(p) products).
    Square(&'a Fp4<B>),
    /// `a · k` with `k ∈ GF(p²)` ([`Fp4::mul_by_fp2`]: 2 GF(p²), 6 GF(p) products).
    MulFp2(&'a Fp4<B>, &'a Fp2<B>),
}

impl<B: Backend> Op4<'_, B> {
    /// The product, computed directly.
    #[inline(always)]
    fn eval(self) -> Fp4<B> {
        match self {
            Op4::Mul(a, b) => a.mul(b),
            Op4::Square(a) => a.square(),
            Op4::MulFp2(a, k) => a.mul_by_fp2(k),
        }
    }

    /// Writes the GF(p) factor pairs of the product to `x[n..]`, `y[n..]` and returns the offset
    /// after them. Not inlined (code size: one copy of the three formulas' staging).
    #[inline(never)]
    fn stage(self, x: &mut [Limbs], y: &mut [Limbs], n: usize) -> usize {
        match self {
            Op4::Mul(a, b) => stage(&a.mul_factors(b), x, y, n),
            Op4::Square(a) => stage(&a.square_factors(), x, y, n),
            Op4::MulFp2(a, k) => stage(&a.mul_by_fp2_factors(k), x, y, n),
        }
    }

    /// The product from the GF(p) products of its [`stage`](Self::stage)d factors at `r[n..]`,
    /// and the offset after them.
    #[inline(never)]
    fn combine(self, r: &[Limbs], n: usize) -> (Fp4<B>, usize) {
        match self {
            Op4::Mul(..) => {
                let ([v0, v1, s], n) = staged_products(r, n);
                (Fp4::mul_combine(&v0, &v1, &s), n)
            }
            Op4::Square(..) => {
                let ([m, t], n) = staged_products(r, n);
                (Fp4::square_combine(&m, &t), n)
            }
            Op4::MulFp2(..) => {
                // The two products are the coefficients.
                let ([c0, c1], n) = staged_products(r, n);
                (Fp4::new(c0, c1), n)
            }
        }
    }
}

/// Writes the `3K` GF(p) factor pairs of `K` GF(p²) factor pairs (the pre-additions of
/// [`Fp2::mul`]) to `x[n..]`, `y[n..]`; returns the offset after them.
#[inline(always)]
fn stage<B: Backend, const K: usize>(
    pairs: &[(Fp2<B>, Fp2<B>); K],
    x: &mut [Limbs],
    y: &mut [Limbs],
    mut n: usize,
) -> usize {
    for (p, q) in pairs {
        for (f, g) in p.mul_factors(q) {
            x[n] = f.to_mont_limbs();
            y[n] = g.to_mont_limbs();
            n += 1;
        }
    }
    n
}

/// The `K` GF(p²) products whose `3K` GF(p) products [`stage`] laid out at `r[n..]` (the
/// recombination of [`Fp2::mul`]), and the offset after them.
#[inline(always)]
fn staged_products<B: Backend, const K: usize>(r: &[Limbs], n: usize) -> ([Fp2<B>; K], usize) {
    // Plain loops, not `array::from_fn`/`map`, as in `Fp4::products` (those can be compiled as
    // out-of-line calls that copy the arrays).
    let mut p = [Fp2::ZERO; K];
    for (i, o) in p.iter_mut().enumerate() {
        // Fully reduced Montgomery limbs, by the `Backend` contract.
        let f = |j: usize| Fp::from_mont_unchecked(r[n + 3 * i + j]);
        *o = Fp2::mul_combine(&f(0), &f(1), &f(2));
    }
    (p, n + 3 * K)
}

impl<B: Backend> Default for Fp4<B> {
    fn default() -> Self {
        Self::ZERO
    }
}

impl<B: Backend> ConstantTimeEq for Fp4<B> {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.c0.ct_eq(&other.c0) & self.c1.ct_eq(&other.c1)
    }
}

impl<B: Backend> ConditionallySelectable for Fp4<B> {
    #[inline(always)]
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        Self {
            c0: Fp2::conditional_select(&a.c0, &b.c0, choice),
            c1: Fp2::conditional_select(&a.c1, &b.c1, choice),
        }
    }
}

impl<B: Backend> PartialEq for Fp4<B> {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}
impl<B: Backend> Eq for Fp4<B> {}

impl<B: Backend> Zeroize for Fp4<B> {
    fn zeroize(&mut self) {
        self.c0.zeroize();
        self.c1.zeroize();
    }
}

impl<B: Backend> fmt::Debug for Fp4<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fp4({:?} + {:?}·v)", self.c0, self.c1)
    }
}

tower_ops!(Fp4);
