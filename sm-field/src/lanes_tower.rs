//! The SM9 tower GF(p²) ⊂ GF(p⁴) ⊂ GF(p¹²) over [`Lanes8<Sm9P>`]: eight independent tower
//! elements, one per AVX-512 IFMA lane, for eight pairings at once (`sm_pairing::lanes`).
//!
//! The types mirror the scalar tower exactly — [`Lanes8Fp2`] = GF(p)\[u\]/(u² + 2) ([`Fp2`]),
//! [`Lanes8Fp4`] = GF(p²)\[v\]/(v² − u) ([`Fp4`]), [`Lanes8Fp12`] = GF(p⁴)\[w\]/(w³ − v)
//! ([`Fp12`]) — with the same formulas: Karatsuba products and complex squarings in GF(p²) and
//! GF(p⁴), cubic Karatsuba and Chung–Hasan SQR2 in GF(p¹²) (Devegili, Ó hÉigeartaigh, Scott,
//! Dahab, ePrint 2006/471 §4), the sparse line product `mul_by_023`, the Frobenius maps by the
//! constants [`Fp12::GAMMA`], and inversion through the norms down to GF(p). Every lane value is
//! fully reduced (the [`Lanes8`] contract), so lane `i` of every result equals, bit for bit, the
//! scalar tower's result on lane `i`'s inputs ([`Lanes8Fp12::to_fp12`]; tested in
//! `sm-field/tests/lanes_tower.rs`).
//!
//! GF(p) inversion in lanes is Fermat's `x^(p−2)` (a public exponent: a fixed chain of 255
//! squarings and multiplications, the same for every lane; zero maps to zero, as the scalar
//! `invert().unwrap_or(ZERO)`).
//!
//! **Code layout.** Every operation takes the [`Ifma`] token. The arithmetic lives in
//! `#[target_feature(enable = "avx512f,avx512ifma")]` functions (module `imp`), so that the
//! [`Lanes8`] kernels inline into them; the public methods call them once (the token proves the
//! features). The GF(p²) and GF(p⁴) products and the GF(p¹²) operations are not inlined into
//! their callers (one shared copy each: inlining 54 lane multiplications into one GF(p¹²)
//! product would outgrow the instruction cache, as the scalar tower measured).
//! The conversions, selects and comparisons are `#[inline(always)]` on the [`Lanes8`] operations:
//! call them inside [`Ifma::run`] (as `sm_pairing::lanes` does), where they become inline vector
//! code; elsewhere each intrinsic is an out-of-line call.
//!
//! **Constant time.** Straight-line vector code throughout: no branch or memory index depends on
//! lane values (the Frobenius power `k` and the inversion exponent are public).
#![allow(unsafe_code)]

use crate::lanes::{Ifma, Lanes8};
use crate::{Backend, Fp12, Fp2, Fp4, Modulus, Sm9P, U64};

/// Eight elements of GF(p) (the SM9 prime) in lanes.
pub type Lanes8Fp = Lanes8<Sm9P>;

/// Eight elements `c0 + c1·u` of GF(p²), u² = −2 (lane `i` of each coefficient is element `i`).
#[derive(Clone, Copy, Debug)]
pub struct Lanes8Fp2 {
    /// Constant coefficient.
    pub c0: Lanes8Fp,
    /// Coefficient of u.
    pub c1: Lanes8Fp,
}

/// Eight elements `c0 + c1·v` of GF(p⁴), v² = u.
#[derive(Clone, Copy, Debug)]
pub struct Lanes8Fp4 {
    /// Constant coefficient.
    pub c0: Lanes8Fp2,
    /// Coefficient of v.
    pub c1: Lanes8Fp2,
}

/// Eight elements `c0 + c1·w + c2·w²` of GF(p¹²), w³ = v.
#[derive(Clone, Copy, Debug)]
pub struct Lanes8Fp12 {
    /// Constant coefficient.
    pub c0: Lanes8Fp4,
    /// Coefficient of w.
    pub c1: Lanes8Fp4,
    /// Coefficient of w².
    pub c2: Lanes8Fp4,
}

/// Public methods that call the `imp` function of the same name (after `&self` and the token,
/// the listed arguments).
macro_rules! entries {
    ($( $(#[$doc:meta])* fn $name:ident($($a:ident: $ty:ty),*) -> $ret:ty; )*) => {$(
        $(#[$doc])*
        #[inline(always)]
        pub fn $name(&self, t: Ifma, $($a: $ty),*) -> $ret {
            // SAFETY: the token proves AVX-512F and AVX512-IFMA, the features `imp` enables.
            unsafe { Self::imp_fns().$name(t, self, $($a),*) }
        }
    )*};
}

// `imp_fns` returns a zero-sized dispatcher whose methods are the target-feature functions; it
// lets the `entries!` macro name them uniformly per type.
#[derive(Clone, Copy)]
struct Fp2Fns;
#[derive(Clone, Copy)]
struct Fp4Fns;
#[derive(Clone, Copy)]
struct Fp12Fns;

impl Lanes8Fp2 {
    #[inline(always)]
    fn imp_fns() -> Fp2Fns {
        Fp2Fns
    }

    /// `c0 + c1·u`.
    #[inline(always)]
    pub const fn new(c0: Lanes8Fp, c1: Lanes8Fp) -> Self {
        Self { c0, c1 }
    }

    /// All lanes zero.
    #[inline(always)]
    pub fn zero(t: Ifma) -> Self {
        Self::new(Lanes8::zero(t), Lanes8::zero(t))
    }

    /// All lanes one.
    #[inline(always)]
    pub fn one(t: Ifma) -> Self {
        Self::new(Lanes8::one(t), Lanes8::zero(t))
    }

    /// Lane `i` = `v[i]`.
    #[inline(always)]
    pub fn from_fp2<B: Backend>(t: Ifma, v: &[Fp2<B>; 8]) -> Self {
        Self::new(
            Lanes8::from_fp(t, &core::array::from_fn(|i| v[i].c0)),
            Lanes8::from_fp(t, &core::array::from_fn(|i| v[i].c1)),
        )
    }

    /// The eight elements.
    #[inline(always)]
    pub fn to_fp2<B: Backend>(&self, t: Ifma) -> [Fp2<B>; 8] {
        let (c0, c1) = (self.c0.to_fp::<B>(t), self.c1.to_fp::<B>(t));
        core::array::from_fn(|i| Fp2::new(c0[i], c1[i]))
    }

    /// Lane `i` from `b` where bit `i` of `mask` is set, else from `a` (mask blends).
    #[inline(always)]
    pub fn select(t: Ifma, mask: u8, a: &Self, b: &Self) -> Self {
        Self::new(
            Lanes8::select(t, mask, &a.c0, &b.c0),
            Lanes8::select(t, mask, &a.c1, &b.c1),
        )
    }

    /// Bit `i` set where lane `i` of `self` equals lane `i` of `rhs`.
    #[inline(always)]
    pub fn eq(&self, t: Ifma, rhs: &Self) -> u8 {
        self.c0.eq(t, &rhs.c0) & self.c1.eq(t, &rhs.c1)
    }

    entries! {
        /// `self + rhs`.
        fn add(rhs: &Self) -> Self;
        /// `self − rhs`.
        fn sub(rhs: &Self) -> Self;
        /// `−self`.
        fn neg() -> Self;
        /// `2·self`.
        fn double() -> Self;
        /// `self · rhs` by Karatsuba (3 lane multiplications), as [`Fp2::mul`].
        fn mul(rhs: &Self) -> Self;
        /// `self²` by complex squaring (2 lane multiplications), as [`Fp2::square`].
        fn square() -> Self;
        /// Multiplication by an element of GF(p) in each lane.
        fn mul_by_fp(k: &Lanes8Fp) -> Self;
        /// Multiplication by u: `(a0 + a1·u)·u = −2·a1 + a0·u`.
        fn mul_by_u() -> Self;
        /// `self + u·rhs`.
        fn add_mul_by_u(rhs: &Self) -> Self;
        /// `self − u·rhs`.
        fn sub_mul_by_u(rhs: &Self) -> Self;
        /// Conjugate `c0 − c1·u` (the p-power Frobenius).
        fn conjugate() -> Self;
        /// Inverse per lane (`conj / norm`, the norm inverted by Fermat); zero lanes give zero.
        fn invert() -> Self;
    }
}

impl Lanes8Fp4 {
    #[inline(always)]
    fn imp_fns() -> Fp4Fns {
        Fp4Fns
    }

    /// `c0 + c1·v`.
    #[inline(always)]
    pub const fn new(c0: Lanes8Fp2, c1: Lanes8Fp2) -> Self {
        Self { c0, c1 }
    }

    /// All lanes zero.
    #[inline(always)]
    pub fn zero(t: Ifma) -> Self {
        Self::new(Lanes8Fp2::zero(t), Lanes8Fp2::zero(t))
    }

    /// All lanes one.
    #[inline(always)]
    pub fn one(t: Ifma) -> Self {
        Self::new(Lanes8Fp2::one(t), Lanes8Fp2::zero(t))
    }

    /// Lane `i` = `v[i]`.
    #[inline(always)]
    pub fn from_fp4<B: Backend>(t: Ifma, v: &[Fp4<B>; 8]) -> Self {
        Self::new(
            Lanes8Fp2::from_fp2(t, &core::array::from_fn(|i| v[i].c0)),
            Lanes8Fp2::from_fp2(t, &core::array::from_fn(|i| v[i].c1)),
        )
    }

    /// The eight elements.
    #[inline(always)]
    pub fn to_fp4<B: Backend>(&self, t: Ifma) -> [Fp4<B>; 8] {
        let (c0, c1) = (self.c0.to_fp2::<B>(t), self.c1.to_fp2::<B>(t));
        core::array::from_fn(|i| Fp4::new(c0[i], c1[i]))
    }

    /// Lane `i` from `b` where bit `i` of `mask` is set, else from `a` (mask blends).
    #[inline(always)]
    pub fn select(t: Ifma, mask: u8, a: &Self, b: &Self) -> Self {
        Self::new(
            Lanes8Fp2::select(t, mask, &a.c0, &b.c0),
            Lanes8Fp2::select(t, mask, &a.c1, &b.c1),
        )
    }

    entries! {
        /// `self + rhs`.
        fn add(rhs: &Self) -> Self;
        /// `self − rhs`.
        fn sub(rhs: &Self) -> Self;
        /// `−self`.
        fn neg() -> Self;
        /// `2·self`.
        fn double() -> Self;
        /// `self · rhs` by Karatsuba (3 GF(p²) products), as [`Fp4::mul`].
        fn mul(rhs: &Self) -> Self;
        /// `self²` by complex squaring (2 GF(p²) products), as [`Fp4::square`].
        fn square() -> Self;
        /// Multiplication by an element of GF(p²) in each lane.
        fn mul_by_fp2(k: &Lanes8Fp2) -> Self;
        /// Multiplication by v: `(a0 + a1·v)·v = u·a1 + a0·v`.
        fn mul_by_v() -> Self;
        /// `self + v·rhs`.
        fn add_mul_by_v(rhs: &Self) -> Self;
        /// Conjugate over GF(p²), `c0 − c1·v`.
        fn conjugate() -> Self;
        /// Inverse per lane, `(c0 − c1·v)/(c0² − u·c1²)`; zero lanes give zero.
        fn invert() -> Self;
    }
}

impl Lanes8Fp12 {
    #[inline(always)]
    fn imp_fns() -> Fp12Fns {
        Fp12Fns
    }

    /// `c0 + c1·w + c2·w²`.
    #[inline(always)]
    pub const fn new(c0: Lanes8Fp4, c1: Lanes8Fp4, c2: Lanes8Fp4) -> Self {
        Self { c0, c1, c2 }
    }

    /// All lanes one.
    #[inline(always)]
    pub fn one(t: Ifma) -> Self {
        Self::new(Lanes8Fp4::one(t), Lanes8Fp4::zero(t), Lanes8Fp4::zero(t))
    }

    /// Lane `i` = `v[i]`.
    #[inline(always)]
    pub fn from_fp12<B: Backend>(t: Ifma, v: &[Fp12<B>; 8]) -> Self {
        Self::new(
            Lanes8Fp4::from_fp4(t, &core::array::from_fn(|i| v[i].c0)),
            Lanes8Fp4::from_fp4(t, &core::array::from_fn(|i| v[i].c1)),
            Lanes8Fp4::from_fp4(t, &core::array::from_fn(|i| v[i].c2)),
        )
    }

    /// The eight elements.
    #[inline(always)]
    pub fn to_fp12<B: Backend>(&self, t: Ifma) -> [Fp12<B>; 8] {
        let c0 = self.c0.to_fp4::<B>(t);
        let c1 = self.c1.to_fp4::<B>(t);
        let c2 = self.c2.to_fp4::<B>(t);
        core::array::from_fn(|i| Fp12::new(c0[i], c1[i], c2[i]))
    }

    /// Lane `i` from `b` where bit `i` of `mask` is set, else from `a` (mask blends).
    #[inline(always)]
    pub fn select(t: Ifma, mask: u8, a: &Self, b: &Self) -> Self {
        Self::new(
            Lanes8Fp4::select(t, mask, &a.c0, &b.c0),
            Lanes8Fp4::select(t, mask, &a.c1, &b.c1),
            Lanes8Fp4::select(t, mask, &a.c2, &b.c2),
        )
    }

    entries! {
        /// `self · rhs` by cubic Karatsuba (18 GF(p²) products), as [`Fp12::mul`].
        fn mul(rhs: &Self) -> Self;
        /// `self²` by Chung–Hasan SQR2, as [`Fp12::square`].
        fn square() -> Self;
        /// Multiplication by the sparse `a + b·w² + c·w³` per lane (13 GF(p²) products), as
        /// [`Fp12::mul_by_023`].
        fn mul_by_023(a: &Lanes8Fp2, b: &Lanes8Fp2, c: &Lanes8Fp2) -> Self;
        /// Conjugate over GF(p⁶) (w ↦ −w), as [`Fp12::conjugate`].
        fn conjugate() -> Self;
        /// `self^(p^k)`, as [`Fp12::frobenius_map`] (`k` is public).
        fn frobenius_map(k: usize) -> Self;
        /// Inverse per lane, as [`Fp12::invert`]; zero lanes give zero.
        fn invert() -> Self;
    }
}

/// The arithmetic, compiled with AVX-512F and AVX512-IFMA enabled (see the module docs).
mod imp {
    use super::*;

    type F2 = Lanes8Fp2;
    type F4 = Lanes8Fp4;
    type F12 = Lanes8Fp12;

    /// `x^(p−2)`: Fermat inversion (left to right over the public exponent's bits).
    #[inline(never)]
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn fp_invert(t: Ifma, x: &Lanes8Fp) -> Lanes8Fp {
        let p = Sm9P::P;
        let e = [p[0] - 2, p[1], p[2], p[3]];
        let mut acc = *x; // the top bit of p − 2 (bit 255) is set
        for i in (0..255).rev() {
            acc = acc.square(t);
            if (e[i / 64] >> (i % 64)) & 1 == 1 {
                acc = acc.mul(t, x);
            }
        }
        acc
    }
    const _: () = assert!(Sm9P::P[3] >> 63 == 1);

    impl Fp2Fns {
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn add(self, t: Ifma, a: &F2, b: &F2) -> F2 {
            F2::new(a.c0.add(t, &b.c0), a.c1.add(t, &b.c1))
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn sub(self, t: Ifma, a: &F2, b: &F2) -> F2 {
            F2::new(a.c0.sub(t, &b.c0), a.c1.sub(t, &b.c1))
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn neg(self, t: Ifma, a: &F2) -> F2 {
            F2::new(a.c0.neg(t), a.c1.neg(t))
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn double(self, t: Ifma, a: &F2) -> F2 {
            F2::new(a.c0.double(t), a.c1.double(t))
        }
        /// `v0 = a0·b0`, `v1 = a1·b1`, `c0 = v0 − 2·v1`, `c1 = (a0 + a1)(b0 + b1) − v0 − v1`.
        #[inline(never)]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn mul(self, t: Ifma, a: &F2, b: &F2) -> F2 {
            let v0 = a.c0.mul(t, &b.c0);
            let v1 = a.c1.mul(t, &b.c1);
            let s = a.c0.add(t, &a.c1).mul(t, &b.c0.add(t, &b.c1));
            F2::new(v0.sub(t, &v1.double(t)), s.sub(t, &v0).sub(t, &v1))
        }
        /// `m = a0·a1`, `c0 = (a0 + a1)(a0 − 2·a1) + m`, `c1 = 2·m`.
        #[inline(never)]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn square(self, t: Ifma, a: &F2) -> F2 {
            let m = a.c0.mul(t, &a.c1);
            let s = a.c0.add(t, &a.c1).mul(t, &a.c0.sub(t, &a.c1.double(t)));
            F2::new(s.add(t, &m), m.double(t))
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn mul_by_fp(self, t: Ifma, a: &F2, k: &Lanes8Fp) -> F2 {
            F2::new(a.c0.mul(t, k), a.c1.mul(t, k))
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn mul_by_u(self, t: Ifma, a: &F2) -> F2 {
            F2::new(a.c1.double(t).neg(t), a.c0)
        }
        /// `(a0 − 2·b1) + (a1 + b0)·u`.
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn add_mul_by_u(self, t: Ifma, a: &F2, b: &F2) -> F2 {
            F2::new(a.c0.sub(t, &b.c1.double(t)), a.c1.add(t, &b.c0))
        }
        /// `(a0 + 2·b1) + (a1 − b0)·u`.
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn sub_mul_by_u(self, t: Ifma, a: &F2, b: &F2) -> F2 {
            F2::new(a.c0.add(t, &b.c1.double(t)), a.c1.sub(t, &b.c0))
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn conjugate(self, t: Ifma, a: &F2) -> F2 {
            F2::new(a.c0, a.c1.neg(t))
        }
        /// `conj(a) / (a0² + 2·a1²)`.
        #[inline(never)]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn invert(self, t: Ifma, a: &F2) -> F2 {
            let norm = a.c0.square(t).add(t, &a.c1.square(t).double(t));
            let ni = fp_invert(t, &norm);
            self.mul_by_fp(t, &self.conjugate(t, a), &ni)
        }
    }

    impl Fp4Fns {
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn add(self, t: Ifma, a: &F4, b: &F4) -> F4 {
            F4::new(Fp2Fns.add(t, &a.c0, &b.c0), Fp2Fns.add(t, &a.c1, &b.c1))
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn sub(self, t: Ifma, a: &F4, b: &F4) -> F4 {
            F4::new(Fp2Fns.sub(t, &a.c0, &b.c0), Fp2Fns.sub(t, &a.c1, &b.c1))
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn neg(self, t: Ifma, a: &F4) -> F4 {
            F4::new(Fp2Fns.neg(t, &a.c0), Fp2Fns.neg(t, &a.c1))
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn double(self, t: Ifma, a: &F4) -> F4 {
            F4::new(Fp2Fns.double(t, &a.c0), Fp2Fns.double(t, &a.c1))
        }
        /// `c0 = a0·b0 + u·a1·b1`, `c1 = (a0 + a1)(b0 + b1) − a0·b0 − a1·b1`.
        #[inline(never)]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn mul(self, t: Ifma, a: &F4, b: &F4) -> F4 {
            let f = Fp2Fns;
            let v0 = f.mul(t, &a.c0, &b.c0);
            let v1 = f.mul(t, &a.c1, &b.c1);
            let s = f.mul(t, &f.add(t, &a.c0, &a.c1), &f.add(t, &b.c0, &b.c1));
            F4::new(
                f.add_mul_by_u(t, &v0, &v1),
                f.sub(t, &f.sub(t, &s, &v0), &v1),
            )
        }
        /// `m = a0·a1`, `c0 = (a0 + a1)(a0 + u·a1) − m − u·m`, `c1 = 2·m`.
        #[inline(never)]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn square(self, t: Ifma, a: &F4) -> F4 {
            let f = Fp2Fns;
            let m = f.mul(t, &a.c0, &a.c1);
            let s = f.mul(t, &f.add(t, &a.c0, &a.c1), &f.add_mul_by_u(t, &a.c0, &a.c1));
            F4::new(f.sub_mul_by_u(t, &f.sub(t, &s, &m), &m), f.double(t, &m))
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn mul_by_fp2(self, t: Ifma, a: &F4, k: &F2) -> F4 {
            F4::new(Fp2Fns.mul(t, &a.c0, k), Fp2Fns.mul(t, &a.c1, k))
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn mul_by_v(self, t: Ifma, a: &F4) -> F4 {
            F4::new(Fp2Fns.mul_by_u(t, &a.c1), a.c0)
        }
        /// `(a0 + u·b1) + (a1 + b0)·v`.
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn add_mul_by_v(self, t: Ifma, a: &F4, b: &F4) -> F4 {
            F4::new(
                Fp2Fns.add_mul_by_u(t, &a.c0, &b.c1),
                Fp2Fns.add(t, &a.c1, &b.c0),
            )
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn conjugate(self, t: Ifma, a: &F4) -> F4 {
            F4::new(a.c0, Fp2Fns.neg(t, &a.c1))
        }
        #[inline(never)]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn invert(self, t: Ifma, a: &F4) -> F4 {
            let f = Fp2Fns;
            let n = f.sub(t, &f.square(t, &a.c0), &f.mul_by_u(t, &f.square(t, &a.c1)));
            let ni = f.invert(t, &n);
            self.mul_by_fp2(t, &self.conjugate(t, a), &ni)
        }
    }

    impl Fp12Fns {
        /// Cubic Karatsuba (ePrint 2006/471 §4), ξ = v: `vi = ai·bi`,
        /// `c0 = v0 + ξ((a1 + a2)(b1 + b2) − v1 − v2)`, `c1 = (a0 + a1)(b0 + b1) − v0 − v1 + ξ·v2`,
        /// `c2 = (a0 + a2)(b0 + b2) − v0 + v1 − v2`.
        #[inline(never)]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn mul(self, t: Ifma, a: &F12, b: &F12) -> F12 {
            let f = Fp4Fns;
            let v0 = f.mul(t, &a.c0, &b.c0);
            let v1 = f.mul(t, &a.c1, &b.c1);
            let v2 = f.mul(t, &a.c2, &b.c2);
            let t12 = f.mul(t, &f.add(t, &a.c1, &a.c2), &f.add(t, &b.c1, &b.c2));
            let t12 = f.sub(t, &f.sub(t, &t12, &v1), &v2);
            let t01 = f.mul(t, &f.add(t, &a.c0, &a.c1), &f.add(t, &b.c0, &b.c1));
            let t01 = f.sub(t, &f.sub(t, &t01, &v0), &v1);
            let t02 = f.mul(t, &f.add(t, &a.c0, &a.c2), &f.add(t, &b.c0, &b.c2));
            let t02 = f.sub(t, &f.add(t, &f.sub(t, &t02, &v0), &v1), &v2);
            F12::new(
                f.add_mul_by_v(t, &v0, &t12),
                f.add_mul_by_v(t, &t01, &v2),
                t02,
            )
        }

        /// Chung–Hasan SQR2 (ePrint 2006/471 §4.2): `s0 = a0²`, `s1 = 2·a1·a2`,
        /// `s2 = (a0 − a1 + a2)²`, `s3 = 2·a0·a1`, `s4 = a2²`; `c0 = s0 + ξ·s1`,
        /// `c1 = s3 + ξ·s4`, `c2 = s1 + s2 + s3 − s0 − s4`.
        #[inline(never)]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn square(self, t: Ifma, a: &F12) -> F12 {
            let f = Fp4Fns;
            let s0 = f.square(t, &a.c0);
            let s1 = f.double(t, &f.mul(t, &a.c1, &a.c2));
            let s2 = f.square(t, &f.add(t, &f.sub(t, &a.c0, &a.c1), &a.c2));
            let s3 = f.double(t, &f.mul(t, &a.c0, &a.c1));
            let s4 = f.square(t, &a.c2);
            let c2 = f.add(t, &f.add(t, &s1, &s2), &s3);
            let c2 = f.sub(t, &f.sub(t, &c2, &s0), &s4);
            F12::new(f.add_mul_by_v(t, &s0, &s1), f.add_mul_by_v(t, &s3, &s4), c2)
        }

        /// With `L0 = a + c·v`, `L2 = b`: `(f0·L0 + v·f1·L2) + (f1·L0 + v·f2·L2)·w +
        /// ((f0 + f2)(L0 + L2) − f0·L0 − f2·L2)·w²` (13 GF(p²) products).
        #[inline(never)]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn mul_by_023(self, t: Ifma, x: &F12, a: &F2, b: &F2, c: &F2) -> F12 {
            let f = Fp4Fns;
            let l0 = F4::new(*a, *c);
            let f0l0 = f.mul(t, &x.c0, &l0);
            let f2l2 = f.mul_by_fp2(t, &x.c2, b);
            let f1l0 = f.mul(t, &x.c1, &l0);
            let f1l2 = f.mul_by_fp2(t, &x.c1, b);
            let cross = f.mul(
                t,
                &f.add(t, &x.c0, &x.c2),
                &F4::new(Fp2Fns.add(t, a, b), *c),
            );
            F12::new(
                f.add_mul_by_v(t, &f0l0, &f1l2),
                f.add_mul_by_v(t, &f1l0, &f2l2),
                f.sub(t, &f.sub(t, &cross, &f0l0), &f2l2),
            )
        }

        /// The odd powers of w (slots c0.c1, c1.c0, c2.c1) change sign.
        #[inline]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn conjugate(self, t: Ifma, a: &F12) -> F12 {
            let n = |x: &F2| Fp2Fns.neg(t, x);
            F12::new(
                F4::new(a.c0.c0, n(&a.c0.c1)),
                F4::new(n(&a.c1.c0), a.c1.c1),
                F4::new(a.c2.c0, n(&a.c2.c1)),
            )
        }

        /// The coefficient `c` at `w^j` becomes `conj^k(c)·γ^(k·j mod 12)`.
        #[inline(never)]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn frobenius_map(self, t: Ifma, a: &F12, k: usize) -> F12 {
            let g = |c: &F2, j: usize| -> F2 {
                let c = if k % 2 == 1 {
                    Fp2Fns.conjugate(t, c)
                } else {
                    *c
                };
                match (k * j) % 12 {
                    0 => c,
                    6 => Fp2Fns.neg(t, &c),
                    e => Fp2Fns.mul_by_fp(t, &c, &Lanes8::splat(t, &Fp12::<U64>::GAMMA[e])),
                }
            };
            F12::new(
                F4::new(g(&a.c0.c0, 0), g(&a.c0.c1, 3)),
                F4::new(g(&a.c1.c0, 1), g(&a.c1.c1, 4)),
                F4::new(g(&a.c2.c0, 2), g(&a.c2.c1, 5)),
            )
        }

        /// ξ = v: `t0 = a0² − ξ·a1·a2`, `t1 = ξ·a2² − a0·a1`, `t2 = a1² − a0·a2`,
        /// `N = a0·t0 + ξ·(a2·t1 + a1·t2)`, `a⁻¹ = (t0 + t1·w + t2·w²)/N`.
        #[inline(never)]
        #[target_feature(enable = "avx512f,avx512ifma")]
        pub(super) fn invert(self, t: Ifma, a: &F12) -> F12 {
            let f = Fp4Fns;
            let (a0, a1, a2) = (&a.c0, &a.c1, &a.c2);
            let t0 = f.sub(t, &f.square(t, a0), &f.mul_by_v(t, &f.mul(t, a1, a2)));
            let t1 = f.sub(t, &f.mul_by_v(t, &f.square(t, a2)), &f.mul(t, a0, a1));
            let t2 = f.sub(t, &f.square(t, a1), &f.mul(t, a0, a2));
            let inner = f.add(t, &f.mul(t, a2, &t1), &f.mul(t, a1, &t2));
            let n = f.add(t, &f.mul(t, a0, &t0), &f.mul_by_v(t, &inner));
            let ni = f.invert(t, &n);
            F12::new(f.mul(t, &t0, &ni), f.mul(t, &t1, &ni), f.mul(t, &t2, &ni))
        }
    }
}
