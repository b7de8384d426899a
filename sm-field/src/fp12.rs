//! GF(p¹²) = GF(p⁴)\[w\]/(w³ − v) for the SM9 prime (GM/T 0044.5, tower 1-2-4-12).
//!
//! An element is `c0 + c1·w + c2·w²` with `ci ∈ GF(p⁴)`. Since w³ = v, w⁶ = u and w¹² = −2, the
//! field is also GF(p)\[w\]/(w¹² + 2); the twelve GF(p) coordinates sit at these powers of w:
//!
//! | slot     | c0.c0.c0 | c0.c0.c1 | c0.c1.c0 | c0.c1.c1 | c1.c0.c0 | c1.c0.c1 | c1.c1.c0 | c1.c1.c1 | c2.c0.c0 | c2.c0.c1 | c2.c1.c0 | c2.c1.c1 |
//! |----------|---|---|---|---|---|---|---|---|---|---|---|---|
//! | w^k      | 0 | 6 | 3 | 9 | 1 | 7 | 4 | 10 | 2 | 8 | 5 | 11 |
//!
//! The 384-byte encoding `c2 ‖ c1 ‖ c0` (each GF(p⁴) as `c1 ‖ c0`, each GF(p²) as `c1 ‖ c0`) lists
//! the coefficients of w^[11, 5, 8, 2, 10, 4, 7, 1, 9, 3, 6, 0], the GT order of GM/T 0044 and
//! GmSSL's `sm9_z256_fp12_to_bytes`.
//!
//! **Frobenius.** p ≡ 1 (mod 12), so `w^(p−1) = (w¹²)^((p−1)/12) = γ` with
//! `γ = (−2)^((p−1)/12) ∈ GF(p)` and γ⁶ = (−2)^((p−1)/2) = −1. Hence for a GF(p²) coefficient `c`
//! at `w^j` (j = 0…5), `(c·w^j)^(p^k) = conj^k(c)·γ^(k·j)·w^j` — Frobenius maps cost only GF(p)
//! scalings. The constants [`Fp12::GAMMA`] (γ^i, i = 0…11) are computed at compile time from
//! this formula, and the tests recompute them with `num-bigint`.

use core::fmt;

use subtle::{Choice, ConstantTimeEq, CtOption};

use crate::modulus::{mont_mul_const, to_mont_const};
use crate::{Backend, DefaultBackend, Fp, Fp1, Fp2, Fp4, Limbs, Modulus, Sm9P};

/// An element `c0 + c1·w + c2·w²` of GF(p¹²) with w³ = v.
pub struct Fp12<B: Backend = DefaultBackend> {
    /// Constant coefficient.
    pub c0: Fp4<B>,
    /// Coefficient of w.
    pub c1: Fp4<B>,
    /// Coefficient of w².
    pub c2: Fp4<B>,
}

/// `a / d` for a small divisor `d` (compile time).
const fn div_small(a: &Limbs, d: u64) -> Limbs {
    let mut q = [0u64; 4];
    let mut rem: u128 = 0;
    let mut i = 4;
    while i > 0 {
        i -= 1;
        let cur = (rem << 64) | a[i] as u128;
        q[i] = (cur / d as u128) as u64;
        rem = cur % d as u128;
    }
    q
}

/// Montgomery-form `base^exp mod p` (compile time, square and multiply).
const fn pow_mont_const(base: &Limbs, exp: &Limbs) -> Limbs {
    let p = Sm9P::P;
    let inv = Sm9P::INV;
    let mut acc = Sm9P::R;
    let mut i = 256;
    while i > 0 {
        i -= 1;
        acc = mont_mul_const(&acc, &acc, &p, inv);
        if (exp[i / 64] >> (i % 64)) & 1 == 1 {
            acc = mont_mul_const(&acc, base, &p, inv);
        }
    }
    acc
}

/// Canonical limbs of γ^i, γ = (−2)^((p−1)/12) mod p, for i = 0…11.
const fn gamma_powers() -> [Limbs; 12] {
    let p = Sm9P::P;
    let inv = Sm9P::INV;
    // p − 1 (p is odd, so no borrow past limb 0) divided by 12.
    let pm1 = [p[0] - 1, p[1], p[2], p[3]];
    let e = div_small(&pm1, 12);
    let minus_two = to_mont_const::<Sm9P>(&[p[0] - 2, p[1], p[2], p[3]]);
    let g = pow_mont_const(&minus_two, &e);
    let mut out = [[0u64; 4]; 12];
    let mut acc = Sm9P::R;
    let mut i = 0;
    while i < 12 {
        out[i] = mont_mul_const(&acc, &[1, 0, 0, 0], &p, inv);
        acc = mont_mul_const(&acc, &g, &p, inv);
        i += 1;
    }
    out
}

const GAMMA_LIMBS: [Limbs; 12] = gamma_powers();

impl<B: Backend> Fp12<B> {
    /// Zero.
    pub const ZERO: Self = Self {
        c0: Fp4::ZERO,
        c1: Fp4::ZERO,
        c2: Fp4::ZERO,
    };
    /// One.
    pub const ONE: Self = Self {
        c0: Fp4::ONE,
        c1: Fp4::ZERO,
        c2: Fp4::ZERO,
    };

    /// `GAMMA[i] = γ^i` with `γ = (−2)^((p−1)/12) mod p = w^(p−1)` (i = 0…11; γ⁶ = −1, γ¹² = 1).
    pub const GAMMA: [Fp1<B>; 12] = {
        let mut out = [Fp::<Sm9P, B>::ZERO; 12];
        let mut i = 0;
        while i < 12 {
            out[i] = Fp::from_canonical_limbs_const(GAMMA_LIMBS[i]);
            i += 1;
        }
        out
    };

    /// `c0 + c1·w + c2·w²`.
    #[inline(always)]
    pub const fn new(c0: Fp4<B>, c1: Fp4<B>, c2: Fp4<B>) -> Self {
        Self { c0, c1, c2 }
    }

    /// `self · rhs` by cubic Karatsuba (6 GF(p⁴) = 18 GF(p²) multiplications; Devegili,
    /// Ó hÉigeartaigh, Scott, Dahab, "Multiplication and squaring on pairing-friendly fields",
    /// ePrint 2006/471 §4): with `vi = ai·bi` and ξ = v,
    /// `c0 = v0 + ξ((a1 + a2)(b1 + b2) − v1 − v2)`, `c1 = (a0 + a1)(b0 + b1) − v0 − v1 + ξ·v2`,
    /// `c2 = (a0 + a2)(b0 + b2) − v0 + v1 − v2`.
    ///
    /// The six GF(p⁴) products are one `Fp4::products` call: on a backend with batches
    /// ([`Backend::BATCH`]) their 54 GF(p) products go to it in one [`Backend::mul_batch`].
    #[inline(never)]
    pub fn mul(&self, rhs: &Self) -> Self {
        let (a, b) = (self, rhs);
        Fp4::products::<_, _, _, 54, _>(
            [
                (&a.c0, &b.c0),
                (&a.c1, &b.c1),
                (&a.c2, &b.c2),
                (&a.c1.add(&a.c2), &b.c1.add(&b.c2)),
                (&a.c0.add(&a.c1), &b.c0.add(&b.c1)),
                (&a.c0.add(&a.c2), &b.c0.add(&b.c2)),
            ],
            [],
            [],
            |[v0, v1, v2, s12, s01, s02], [], []| {
                let t12 = s12.sub(v1).sub(v2);
                let t01 = s01.sub(v0).sub(v1);
                let t02 = s02.sub(v0).add(v1).sub(v2);
                Self {
                    c0: v0.add_mul_by_v(&t12),
                    c1: t01.add_mul_by_v(v2),
                    c2: t02,
                }
            },
        )
    }

    /// `self²` by Chung–Hasan SQR2 (Devegili et al., ePrint 2006/471 §4.2): `s0 = a0²`,
    /// `s1 = 2·a1·a2`, `s2 = (a0 − a1 + a2)²`, `s3 = 2·a0·a1`, `s4 = a2²`;
    /// `c0 = s0 + ξ·s1`, `c1 = s3 + ξ·s4`, `c2 = s1 + s2 + s3 − s0 − s4`.
    ///
    /// Two GF(p⁴) products and three squarings in one `Fp4::products` call (36 GF(p) products
    /// in one batch on a backend with batches).
    #[inline(never)]
    pub fn square(&self) -> Self {
        let a = self;
        Fp4::products::<_, _, _, 36, _>(
            [(&a.c1, &a.c2), (&a.c0, &a.c1)],
            [&a.c0, &a.c0.sub(&a.c1).add(&a.c2), &a.c2],
            [],
            |[m12, m01], [s0, s2, s4], []| {
                let s1 = m12.double();
                let s3 = m01.double();
                Self {
                    c0: s0.add_mul_by_v(&s1),
                    c1: s3.add_mul_by_v(s4),
                    c2: s1.add(s2).add(&s3).sub(s0).sub(s4),
                }
            },
        )
    }

    /// Multiplication by a sparse element `a + b·w² + c·w³` (a, b, c ∈ GF(p²)), the shape of the
    /// SM9 Miller-loop lines (slots c0.c0, c2.c0 and c0.c1). 13 GF(p²) multiplications: with
    /// `L0 = a + c·v`, `L2 = b`, the product is `(f0·L0 + v·f1·L2) + (f1·L0 + v·f2·L2)·w +
    /// (f2·L0 + f0·L2)·w²`, and `f2·L0 + f0·L2 = (f0 + f2)(L0 + L2) − f0·L0 − f2·L2` (Karatsuba).
    ///
    /// Three GF(p⁴) products and two by GF(p²) in one `Fp4::products` call (39 GF(p) products
    /// in one batch on a backend with batches).
    #[inline(never)]
    pub fn mul_by_023(&self, a: &Fp2<B>, b: &Fp2<B>, c: &Fp2<B>) -> Self {
        let l0 = Fp4::new(*a, *c);
        let f = self;
        Fp4::products::<_, _, _, 39, _>(
            [
                (&f.c0, &l0),
                (&f.c1, &l0),
                (&f.c0.add(&f.c2), &Fp4::new(a.add(b), *c)),
            ],
            [],
            [(&f.c2, b), (&f.c1, b)],
            |[f0l0, f1l0, cross], [], [f2l2, f1l2]| Self {
                c0: f0l0.add_mul_by_v(f1l2),
                c1: f1l0.add_mul_by_v(f2l2),
                c2: cross.sub(f0l0).sub(f2l2),
            },
        )
    }

    /// Conjugate over GF(p⁶) = the p⁶-power Frobenius: w ↦ −w, i.e. the odd powers of w
    /// (slots c0.c1 = w³, c1.c0 = w, c2.c1 = w⁵) change sign. It is the inverse on the
    /// cyclotomic subgroup (and on GT).
    #[inline]
    pub fn conjugate(&self) -> Self {
        Self {
            c0: Fp4::new(self.c0.c0, self.c0.c1.neg()),
            c1: Fp4::new(self.c1.c0.neg(), self.c1.c1),
            c2: Fp4::new(self.c2.c0, self.c2.c1.neg()),
        }
    }

    /// `self^(p^k)`: each GF(p²) coefficient `c` at `w^j` becomes `conj^k(c)·γ^(k·j mod 12)`
    /// (see the module docs). At most 10 GF(p) multiplications.
    pub fn frobenius_map(&self, k: usize) -> Self {
        let g = |c: &Fp2<B>, j: usize| -> Fp2<B> {
            let c = c.frobenius_map(k);
            let e = (k * j) % 12;
            match e {
                0 => c,
                6 => c.neg(),
                _ => c.mul_by_fp(&Self::GAMMA[e]),
            }
        };
        Self {
            c0: Fp4::new(g(&self.c0.c0, 0), g(&self.c0.c1, 3)),
            c1: Fp4::new(g(&self.c1.c0, 1), g(&self.c1.c1, 4)),
            c2: Fp4::new(g(&self.c2.c0, 2), g(&self.c2.c1, 5)),
        }
    }

    /// Inverse in constant time; none for zero. For `a = a0 + a1·w + a2·w²` over GF(p⁴), ξ = v:
    /// `t0 = a0² − ξ·a1·a2`, `t1 = ξ·a2² − a0·a1`, `t2 = a1² − a0·a2`,
    /// `N = a0·t0 + ξ·(a2·t1 + a1·t2)`, `a⁻¹ = (t0 + t1·w + t2·w²)/N`.
    pub fn invert(&self) -> CtOption<Self> {
        let (a0, a1, a2) = (&self.c0, &self.c1, &self.c2);
        let t0 = a0.square().sub(&a1.mul(a2).mul_by_v());
        let t1 = a2.square().mul_by_v().sub(&a0.mul(a1));
        let t2 = a1.square().sub(&a0.mul(a2));
        let n = a0.mul(&t0).add(&a2.mul(&t1).add(&a1.mul(&t2)).mul_by_v());
        n.invert().map(|ni| Self {
            c0: t0.mul(&ni),
            c1: t1.mul(&ni),
            c2: t2.mul(&ni),
        })
    }

    /// `self^exp` for a public exponent (little-endian limbs), square and multiply.
    pub fn pow_vartime(&self, exp: &[u64]) -> Self {
        let mut acc = Self::ONE;
        let mut started = false;
        for limb in exp.iter().rev() {
            for i in (0..64).rev() {
                if started {
                    acc = acc.square();
                }
                if (limb >> i) & 1 == 1 {
                    acc = if started { acc.mul(self) } else { *self };
                    started = true;
                }
            }
        }
        acc
    }

    /// Whether the element is one.
    #[inline]
    pub fn is_one(&self) -> Choice {
        self.ct_eq(&Self::ONE)
    }

    /// 384 bytes `c2 ‖ c1 ‖ c0`: the coefficients of w^[11, 5, 8, 2, 10, 4, 7, 1, 9, 3, 6, 0],
    /// 32-byte big-endian each (the GM/T 0044 GT encoding).
    pub fn to_bytes(&self) -> [u8; 384] {
        let mut out = [0u8; 384];
        out[..128].copy_from_slice(&self.c2.to_bytes());
        out[128..256].copy_from_slice(&self.c1.to_bytes());
        out[256..].copy_from_slice(&self.c0.to_bytes());
        out
    }

    /// Inverse of [`to_bytes`](Self::to_bytes); none unless every coefficient is below p.
    pub fn from_bytes(bytes: &[u8; 384]) -> CtOption<Self> {
        let c2 = Fp4::from_bytes(bytes[..128].try_into().expect("128 bytes"));
        let c1 = Fp4::from_bytes(bytes[128..256].try_into().expect("128 bytes"));
        let c0 = Fp4::from_bytes(bytes[256..].try_into().expect("128 bytes"));
        c0.and_then(|c0| c1.and_then(|c1| c2.map(|c2| Self { c0, c1, c2 })))
    }

    /// The twelve GF(p) coordinates by power of w: `out[k]` is the coefficient of w^k in
    /// GF(p)\[w\]/(w¹² + 2).
    pub fn to_w_coefficients(&self) -> [Fp1<B>; 12] {
        let mut o = [Fp::ZERO; 12];
        let slots = [
            (&self.c0.c0, 0),
            (&self.c0.c1, 3),
            (&self.c1.c0, 1),
            (&self.c1.c1, 4),
            (&self.c2.c0, 2),
            (&self.c2.c1, 5),
        ];
        for (c, j) in slots {
            o[j] = c.c0;
            o[j + 6] = c.c1;
        }
        o
    }

    /// Inverse of [`to_w_coefficients`](Self::to_w_coefficients).
    pub fn from_w_coefficients(e: &[Fp1<B>; 12]) -> Self {
        let c = |j: usize| Fp2::new(e[j], e[j + 6]);
        Self {
            c0: Fp4::new(c(0), c(3)),
            c1: Fp4::new(c(1), c(4)),
            c2: Fp4::new(c(2), c(5)),
        }
    }
}

impl<B: Backend> fmt::Debug for Fp12<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Fp12({:?} + {:?}·w + {:?}·w²)",
            self.c0, self.c1, self.c2
        )
    }
}

crate::tower::tower_type!(Fp12 over Fp4: c0, c1, c2);
