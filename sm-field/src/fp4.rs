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
use crate::{Backend, DefaultBackend, Fp2, Limbs, Sm9P};

/// `(first K, rest)` of a slice of operands or products (the tower formulas lay their batches
/// out with constant offsets, so the checks fold away).
#[inline(always)]
pub(crate) fn take<const K: usize>(s: &mut [Limbs]) -> (&mut [Limbs; K], &mut [Limbs]) {
    s.split_first_chunk_mut::<K>().expect("batch layout")
}

/// Read-only [`take`].
#[inline(always)]
pub(crate) fn part<const K: usize>(s: &[Limbs]) -> (&[Limbs; K], &[Limbs]) {
    s.split_first_chunk::<K>().expect("batch layout")
}

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
    /// `c0 = a0·b0 + u·a1·b1`, `c1 = (a0 + a1)(b0 + b1) − a0·b0 − a1·b1`.
    /// Not inlined, like [`Fp2::mul`] (code size; see there).
    #[inline(never)]
    pub fn mul(&self, rhs: &Self) -> Self {
        let v0 = self.c0.mul(&rhs.c0);
        let v1 = self.c1.mul(&rhs.c1);
        let s = self.c0.add(&self.c1).mul(&rhs.c0.add(&rhs.c1));
        Self {
            c0: v0.add_mul_by_u(&v1),
            c1: s.sub(&v0).sub(&v1),
        }
    }

    /// `self²` by complex squaring (2 GF(p²) multiplications): with `m = a0·a1`,
    /// `c0 = (a0 + a1)(a0 + u·a1) − m − u·m` (= a0² + u·a1²), `c1 = 2·m`.
    #[inline(never)]
    pub fn square(&self) -> Self {
        let m = self.c0.mul(&self.c1);
        let t = self.c0.add(&self.c1).mul(&self.c0.add_mul_by_u(&self.c1));
        Self {
            c0: t.sub(&m).sub_mul_by_u(&m),
            c1: m.double(),
        }
    }

    /// The nine GF(p) products of [`mul`](Self::mul) as operand pairs (three GF(p²) Karatsuba
    /// products, each as in [`Fp2::mul`]), for a batched multiplication
    /// ([`Backend::mul_batch`]). Not inlined, like `mul` (code size).
    #[inline(never)]
    pub(crate) fn mul_operands(&self, rhs: &Self, a: &mut [Limbs; 9], b: &mut [Limbs; 9]) {
        let (a0, a) = take::<3>(a);
        let (b0, b) = take::<3>(b);
        let (a1, a2) = take::<3>(a);
        let (b1, b2) = take::<3>(b);
        self.c0.mul_operands(&rhs.c0, a0, b0);
        self.c1.mul_operands(&rhs.c1, a1, b1);
        let (a2, b2) = (take::<3>(a2).0, take::<3>(b2).0);
        self.c0
            .add(&self.c1)
            .mul_operands(&rhs.c0.add(&rhs.c1), a2, b2);
    }

    /// [`mul`](Self::mul) from the products of [`mul_operands`](Self::mul_operands).
    #[inline(never)]
    pub(crate) fn mul_from_products(r: &[Limbs; 9]) -> Self {
        let (r0, r) = part::<3>(r);
        let (r1, r) = part::<3>(r);
        let r2 = part::<3>(r).0;
        let v0 = Fp2::mul_from_products(r0);
        let v1 = Fp2::mul_from_products(r1);
        let s = Fp2::<B>::mul_from_products(r2);
        Self {
            c0: v0.add_mul_by_u(&v1),
            c1: s.sub(&v0).sub(&v1),
        }
    }

    /// The six GF(p) products of [`square`](Self::square) as operand pairs.
    #[inline(never)]
    pub(crate) fn square_operands(&self, a: &mut [Limbs; 6], b: &mut [Limbs; 6]) {
        let (a0, a1) = take::<3>(a);
        let (b0, b1) = take::<3>(b);
        self.c0.mul_operands(&self.c1, a0, b0);
        let (a1, b1) = (take::<3>(a1).0, take::<3>(b1).0);
        self.c0
            .add(&self.c1)
            .mul_operands(&self.c0.add_mul_by_u(&self.c1), a1, b1);
    }

    /// [`square`](Self::square) from the products of [`square_operands`](Self::square_operands).
    #[inline(never)]
    pub(crate) fn square_from_products(r: &[Limbs; 6]) -> Self {
        let (r0, r) = part::<3>(r);
        let m = Fp2::mul_from_products(r0);
        let t = Fp2::<B>::mul_from_products(part::<3>(r).0);
        Self {
            c0: t.sub(&m).sub_mul_by_u(&m),
            c1: m.double(),
        }
    }

    /// The six GF(p) products of [`mul_by_fp2`](Self::mul_by_fp2) as operand pairs.
    #[inline(never)]
    pub(crate) fn mul_by_fp2_operands(&self, k: &Fp2<B>, a: &mut [Limbs; 6], b: &mut [Limbs; 6]) {
        let (a0, a1) = take::<3>(a);
        let (b0, b1) = take::<3>(b);
        self.c0.mul_operands(k, a0, b0);
        self.c1.mul_operands(k, take::<3>(a1).0, take::<3>(b1).0);
    }

    /// [`mul_by_fp2`](Self::mul_by_fp2) from the products of
    /// [`mul_by_fp2_operands`](Self::mul_by_fp2_operands).
    #[inline(never)]
    pub(crate) fn mul_by_fp2_from_products(r: &[Limbs; 6]) -> Self {
        let (r0, r) = part::<3>(r);
        Self {
            c0: Fp2::mul_from_products(r0),
            c1: Fp2::mul_from_products(part::<3>(r).0),
        }
    }

    /// `[x²; N]` for N elements at once: their 6N GF(p) products go to the backend in one
    /// batched multiplication ([`Backend::mul_batch`]), e.g. the two or three GF(p⁴) squarings of
    /// a compressed or cyclotomic squaring in GF(p¹²). Same results as [`square`](Self::square)
    /// (which it calls when the backend does not prefer batches, [`Backend::BATCH`]).
    pub fn square_batch<const N: usize>(xs: &[Self; N]) -> [Self; N] {
        if !B::BATCH {
            return core::array::from_fn(|i| xs[i].square());
        }
        let mut a = [[[0u64; 4]; 6]; N];
        let mut b = [[[0u64; 4]; 6]; N];
        let mut r = [[[0u64; 4]; 6]; N];
        for i in 0..N {
            xs[i].square_operands(&mut a[i], &mut b[i]);
        }
        B::mul_batch::<Sm9P>(a.as_flattened(), b.as_flattened(), r.as_flattened_mut());
        core::array::from_fn(|i| Self::square_from_products(&r[i]))
    }

    /// Multiplication by an element of GF(p²) (2 GF(p²) multiplications).
    #[inline(always)]
    pub fn mul_by_fp2(&self, k: &Fp2<B>) -> Self {
        Self {
            c0: self.c0.mul(k),
            c1: self.c1.mul(k),
        }
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
