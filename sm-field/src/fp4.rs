//! GF(p⁴) = GF(p²)[v]/(v² − u) for the SM9 prime (GM/T 0044.5, tower 1-2-4-12).
//!
//! An element is `c0 + c1·v` with `c0, c1 ∈ GF(p²)`; in terms of the generator w of GF(p¹²)
//! (w³ = v, w⁶ = u), v = w³. The 128-byte encoding is `c1 ‖ c0` (highest power first).
//!
//! `Fp4` does not implement [`Field`](crate::Field): no curve is defined over it, so it has no
//! square root or compression sign.

use core::fmt;

use rand_core::CryptoRngCore;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};
use zeroize::Zeroize;

use crate::fp2::tower_ops;
use crate::{Backend, DefaultBackend, Fp2};

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

    /// Multiplication by an element of GF(p²) (2 GF(p²) multiplications).
    #[inline(always)]
    pub fn mul_by_fp2(&self, k: &Fp2<B>) -> Self {
        Self {
            c0: self.c0.mul(k),
            c1: self.c1.mul(k),
        }
    }

    /// Multiplication by the non-residue v (defines GF(p¹²) = GF(p⁴)[w]/(w³ − v)):
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
    pub fn random(rng: &mut impl CryptoRngCore) -> Self {
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
