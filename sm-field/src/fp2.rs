//! GF(p²) = GF(p)\[u\]/(u² + 2) for the SM9 prime (GM/T 0044.5 §A, tower 1-2-4-12).
//!
//! An element is `c0 + c1·u`. Its 64-byte encoding is `c1 ‖ c0` (the u-coefficient first), the
//! order of GM/T 0044, GmSSL and gmsm. −2 is a non-residue modulo p (p ≡ 5 mod 8), so the
//! p-power Frobenius is conjugation `c0 − c1·u`.

use core::fmt;

use rand_core::CryptoRng;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};

use crate::{Backend, DefaultBackend, Field, Fp, Limbs, Sm9P};

/// The SM9 base field GF(p), the bottom of the tower.
pub type Fp1<B> = Fp<Sm9P, B>;

/// An element `c0 + c1·u` of GF(p²) with u² = −2.
pub struct Fp2<B: Backend = DefaultBackend> {
    /// Constant coefficient.
    pub c0: Fp1<B>,
    /// Coefficient of u.
    pub c1: Fp1<B>,
}

/// `1/2 mod p` = (p + 1)/2, in Montgomery form at compile time.
const HALF_HEX: &str = "5B2000000151D378EB01D5A7FAC763A290F949A58D3D776DF2B7CD93F1A8A2BF";

impl<B: Backend> Fp2<B> {
    /// Zero.
    pub const ZERO: Self = Self {
        c0: Fp::ZERO,
        c1: Fp::ZERO,
    };
    /// One.
    pub const ONE: Self = Self {
        c0: Fp::ONE,
        c1: Fp::ZERO,
    };
    /// The generator u (u² = −2).
    pub const U: Self = Self {
        c0: Fp::ZERO,
        c1: Fp::ONE,
    };

    /// `c0 + c1·u`.
    #[inline(always)]
    pub const fn new(c0: Fp1<B>, c1: Fp1<B>) -> Self {
        Self { c0, c1 }
    }

    /// Embeds an element of GF(p).
    #[inline(always)]
    pub const fn from_fp(c0: Fp1<B>) -> Self {
        Self { c0, c1: Fp::ZERO }
    }

    /// From big-endian hex of the two coefficients, u-coefficient first (compile time).
    pub const fn from_be_hex_const(c1: &str, c0: &str) -> Self {
        Self {
            c0: Fp::from_be_hex_const(c0),
            c1: Fp::from_be_hex_const(c1),
        }
    }

    /// `self · rhs` by the backend's GF(p²) kernel, [`Backend::mul_fp2`]: by default Karatsuba
    /// (3 multiplications in GF(p)), `v0 = a0·b0`, `v1 = a1·b1`, `c0 = v0 − 2·v1`,
    /// `c1 = (a0 + a1)(b0 + b1) − v0 − v1`; on `U32` the same with lazy reduction. The batched
    /// tower products (`Fp4::products`) stage the same factor pairs (`mul_factors`) and share
    /// the recombination (`mul_combine`).
    ///
    /// Deliberately not inlined (nor [`square`](Self::square)): inlined, its three multiplication
    /// kernels were copied into every tower formula and line function, and the Miller loop's
    /// code outgrew the instruction caches; one shared copy made the pairing ≈ 15 % and the
    /// Miller loop ≈ 25 % faster (`cargo xtask bench --against`, same process).
    #[inline(never)]
    pub fn mul(&self, rhs: &Self) -> Self {
        Self::from_limbs(B::mul_fp2::<Sm9P>(&self.limbs(), &rhs.limbs()))
    }

    /// `self²` by complex squaring (2 multiplications): with `m = a0·a1`,
    /// `c0 = (a0 + a1)(a0 − 2·a1) + m` (= a0² − 2·a1²), `c1 = 2·m`.
    #[inline(never)]
    pub fn square(&self) -> Self {
        let m = self.c0.mul(&self.c1);
        let t = self.c0.add(&self.c1).mul(&self.c0.sub(&self.c1.double()));
        Self {
            c0: t.add(&m),
            c1: m.double(),
        }
    }

    /// The coefficients' Montgomery limbs `[c0, c1]` (the backends' GF(p²) kernels take these).
    #[inline(always)]
    fn limbs(&self) -> [Limbs; 2] {
        [self.c0.to_mont_limbs(), self.c1.to_mont_limbs()]
    }

    /// From the backends' reduced output limbs.
    #[inline(always)]
    fn from_limbs(c: [Limbs; 2]) -> Self {
        Self::new(Fp::from_mont_unchecked(c[0]), Fp::from_mont_unchecked(c[1]))
    }

    /// The pre-additions of [`mul`](Self::mul): its three GF(p) factor pairs `(a0, b0)`,
    /// `(a1, b1)`, `(a0 + a1, b0 + b1)`.
    #[inline(always)]
    pub(crate) fn mul_factors(&self, rhs: &Self) -> [(Fp1<B>, Fp1<B>); 3] {
        crate::backend::fp2_factors::<B, Sm9P>(&self.limbs(), &rhs.limbs())
            .map(|(x, y)| (Fp::from_mont_unchecked(x), Fp::from_mont_unchecked(y)))
    }

    /// The recombination of [`mul`](Self::mul) from the products of
    /// [`mul_factors`](Self::mul_factors), `[v0, v1, s]`: `v0 − 2·v1 + (s − v0 − v1)·u`.
    #[inline(always)]
    pub(crate) fn mul_combine(v0: &Fp1<B>, v1: &Fp1<B>, s: &Fp1<B>) -> Self {
        let v = [v0, v1, s].map(Fp::to_mont_limbs);
        Self::from_limbs(crate::backend::fp2_combine::<B, Sm9P>(&v))
    }

    /// Multiplication by an element of GF(p) (2 multiplications).
    #[inline(always)]
    pub fn mul_by_fp(&self, k: &Fp1<B>) -> Self {
        Self {
            c0: self.c0.mul(k),
            c1: self.c1.mul(k),
        }
    }

    /// Multiplication by the non-residue u (defines GF(p⁴) = GF(p²)\[v\]/(v² − u)):
    /// `(a0 + a1·u)·u = −2·a1 + a0·u`. Additions only.
    #[inline(always)]
    pub fn mul_by_u(&self) -> Self {
        Self {
            c0: self.c1.double().neg(),
            c1: self.c0,
        }
    }

    /// `self + u·rhs = (a0 − 2·b1) + (a1 + b0)·u`: 3 GF(p) additions instead of the 4 of
    /// `mul_by_u` followed by `add`.
    #[inline(always)]
    pub fn add_mul_by_u(&self, rhs: &Self) -> Self {
        Self {
            c0: self.c0.sub(&rhs.c1.double()),
            c1: self.c1.add(&rhs.c0),
        }
    }

    /// `self − u·rhs = (a0 + 2·b1) + (a1 − b0)·u` (3 GF(p) additions).
    #[inline(always)]
    pub fn sub_mul_by_u(&self, rhs: &Self) -> Self {
        Self {
            c0: self.c0.add(&rhs.c1.double()),
            c1: self.c1.sub(&rhs.c0),
        }
    }

    /// Conjugate `c0 − c1·u`, which is also the p-power Frobenius map (u^p = −u).
    #[inline(always)]
    pub fn conjugate(&self) -> Self {
        Self {
            c0: self.c0,
            c1: self.c1.neg(),
        }
    }

    /// `self^(p^k)`: conjugation for odd `k`, identity for even `k`.
    #[inline]
    pub fn frobenius_map(&self, k: usize) -> Self {
        if k % 2 == 1 {
            self.conjugate()
        } else {
            *self
        }
    }

    /// The norm to GF(p): `self · conj(self) = c0² + 2·c1²`.
    #[inline]
    pub fn norm(&self) -> Fp1<B> {
        self.c0.square().add(&self.c1.square().double())
    }

    /// Inverse in constant time, `conj(self) / norm(self)`; none for zero.
    pub fn invert(&self) -> CtOption<Self> {
        self.norm()
            .invert()
            .map(|ni| self.conjugate().mul_by_fp(&ni))
    }

    /// Inverse with the variable-time GF(p) inversion (public data only); none for zero.
    pub fn invert_vartime(&self) -> Option<Self> {
        self.norm()
            .invert_vartime()
            .map(|ni| self.conjugate().mul_by_fp(&ni))
    }

    /// The compression "sign": `sgn0` of RFC 9380 §4.1 for m = 2, i.e. the parity of `c0`, or the
    /// parity of `c1` when `c0 = 0`. Constant time.
    pub fn is_odd(&self) -> Choice {
        self.c0.is_odd() | (self.c0.is_zero() & self.c1.is_odd())
    }

    /// Whether the element is a square in GF(p²): exactly when its norm is a square in GF(p).
    pub fn is_square(&self) -> Choice {
        self.norm().is_square()
    }

    /// A square root in constant time, if one exists (either root may be returned).
    ///
    /// The complex method (e.g. Adj, Rodríguez-Henríquez, "Square root computation over even
    /// extension fields", IEEE TC 2014, Alg. 8 with p ≡ 5 mod 8 GF(p) roots): for
    /// `a = a0 + a1·u` put `α = √(a0² + 2·a1²)` (the norm); then `x0² = (a0 ± α)/2` (exactly one
    /// sign gives a square when a1 ≠ 0, as the product of both is −a1²/2, a non-square) and
    /// `x1 = a1 / (2·x0)`. When `a1 = 0`, `x = √a0` if a0 is a square, else `√(−a0/2)·u`. Both
    /// branches are computed and selected with `subtle`; the result is checked by squaring.
    pub fn sqrt(&self) -> CtOption<Self> {
        let half = Fp1::<B>::from_be_hex_const(HALF_HEX);
        let (a0, a1) = (self.c0, self.c1);
        // General case, a1 ≠ 0.
        let alpha = self.norm().sqrt().unwrap_or(Fp::ZERO);
        let d1 = a0.add(&alpha).mul(&half);
        let d2 = a0.sub(&alpha).mul(&half);
        let s1 = d1.sqrt();
        let s2 = d2.sqrt();
        let x0 = Fp::conditional_select(
            &s2.unwrap_or(Fp::ZERO),
            &s1.unwrap_or(Fp::ZERO),
            s1.is_some(),
        );
        let x1 = a1.mul(&x0.double().invert().unwrap_or(Fp::ZERO));
        let general = Self { c0: x0, c1: x1 };
        // a1 = 0.
        let r0 = a0.sqrt();
        let r1 = a0.neg().mul(&half).sqrt().unwrap_or(Fp::ZERO);
        let real = Self::conditional_select(
            &Self {
                c0: Fp::ZERO,
                c1: r1,
            },
            &Self {
                c0: r0.unwrap_or(Fp::ZERO),
                c1: Fp::ZERO,
            },
            r0.is_some(),
        );
        let x = Self::conditional_select(&general, &real, a1.is_zero());
        CtOption::new(x, x.square().ct_eq(self))
    }

    /// `self^exp` for a public exponent (little-endian limbs), square and multiply.
    pub fn pow_vartime(&self, exp: &[u64]) -> Self {
        let mut acc = Self::ONE;
        for limb in exp.iter().rev() {
            for i in (0..64).rev() {
                acc = acc.square();
                if (limb >> i) & 1 == 1 {
                    acc = acc.mul(self);
                }
            }
        }
        acc
    }

    /// 64 bytes: `c1 ‖ c0`, each 32-byte big-endian (GM/T 0044 order, u-coefficient first).
    pub fn to_bytes(&self) -> [u8; 64] {
        let mut out = [0u8; 64];
        out[..32].copy_from_slice(&self.c1.to_bytes());
        out[32..].copy_from_slice(&self.c0.to_bytes());
        out
    }

    /// Inverse of [`to_bytes`](Self::to_bytes); none unless both coefficients are below p.
    pub fn from_bytes(bytes: &[u8; 64]) -> CtOption<Self> {
        let c1 = Fp::from_bytes(bytes[..32].try_into().expect("32 bytes"));
        let c0 = Fp::from_bytes(bytes[32..].try_into().expect("32 bytes"));
        c0.and_then(|c0| c1.map(|c1| Self { c0, c1 }))
    }
}

impl<B: Backend> fmt::Debug for Fp2<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fp2({:?} + {:?}·u)", self.c0, self.c1)
    }
}

crate::tower::tower_type!(Fp2 over Fp: c0, c1);

impl<B: Backend> Field for Fp2<B> {
    const ZERO: Self = Fp2::ZERO;
    const ONE: Self = Fp2::ONE;
    const ENCODED_LEN: usize = 64;

    #[inline(always)]
    fn is_zero(&self) -> Choice {
        Fp2::is_zero(self)
    }
    #[inline(always)]
    fn is_zero_vartime(&self) -> bool {
        Fp2::is_zero_vartime(self)
    }
    #[inline(always)]
    fn square(&self) -> Self {
        Fp2::square(self)
    }
    #[inline(always)]
    fn double(&self) -> Self {
        Fp2::double(self)
    }
    fn invert(&self) -> CtOption<Self> {
        Fp2::invert(self)
    }
    fn sqrt(&self) -> CtOption<Self> {
        Fp2::sqrt(self)
    }
    fn random(rng: &mut impl CryptoRng) -> Self {
        Fp2::random(rng)
    }
    fn write_bytes(&self, out: &mut [u8]) {
        out.copy_from_slice(&self.to_bytes());
    }
    fn read_bytes(bytes: &[u8]) -> CtOption<Self> {
        match <&[u8; 64]>::try_from(bytes) {
            Ok(b) => Fp2::from_bytes(b),
            Err(_) => CtOption::new(Fp2::ZERO, Choice::from(0)),
        }
    }
    fn is_odd(&self) -> Choice {
        Fp2::is_odd(self)
    }
}
