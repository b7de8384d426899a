//! Elements of GF(p) in Montgomery form, generic over the modulus and the limb backend.

use core::fmt;
use core::iter::{Product, Sum};
use core::marker::PhantomData;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use rand_core::CryptoRng;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};
use zeroize::Zeroize;

use crate::backend::u64::sbb;
use crate::modulus::to_mont_const;
use crate::{Backend, DefaultBackend, Limbs, Modulus};

/// An element of GF(p) for the prime `M::P`, computed by backend `B`.
///
/// Internally the Montgomery residue `a·2^256 mod p`, always fully reduced, so equal elements have
/// equal limbs on every backend. All methods are constant time unless their name ends in
/// `_vartime`.
pub struct Fp<M: Modulus, B: Backend = DefaultBackend> {
    mont: Limbs,
    _marker: PhantomData<fn() -> (M, B)>,
}

impl<M: Modulus, B: Backend> Clone for Fp<M, B> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<M: Modulus, B: Backend> Copy for Fp<M, B> {}

/// Exponents derived from the prime at compile time.
struct Exps<M>(PhantomData<M>);

const fn sub_small(a: &Limbs, s: u64) -> Limbs {
    let mut r = *a;
    let mut borrow = s;
    let mut i = 0;
    while i < 4 {
        let (v, b) = r[i].overflowing_sub(borrow);
        r[i] = v;
        borrow = b as u64;
        i += 1;
    }
    r
}

const fn add_small(a: &Limbs, s: u64) -> (Limbs, u64) {
    let mut r = *a;
    let mut carry = s;
    let mut i = 0;
    while i < 4 {
        let (v, c) = r[i].overflowing_add(carry);
        r[i] = v;
        carry = c as u64;
        i += 1;
    }
    (r, carry)
}

/// `(hi·2^256 + a) >> k` for `k < 64`.
const fn shr(a: &Limbs, hi: u64, k: u32) -> Limbs {
    [
        (a[0] >> k) | (a[1] << (64 - k)),
        (a[1] >> k) | (a[2] << (64 - k)),
        (a[2] >> k) | (a[3] << (64 - k)),
        (a[3] >> k) | (hi << (64 - k)),
    ]
}

impl<M: Modulus> Exps<M> {
    /// p − 2 (Fermat inversion).
    const P_MINUS_2: Limbs = sub_small(&M::P, 2);
    /// (p + 1) / 4 (square root when p ≡ 3 mod 4).
    const P_PLUS_1_DIV_4: Limbs = {
        let (s, c) = add_small(&M::P, 1);
        shr(&s, c, 2)
    };
    /// (p − 5) / 8 (Atkin's square root when p ≡ 5 mod 8).
    const P_MINUS_5_DIV_8: Limbs = shr(&sub_small(&M::P, 5), 0, 3);
    /// (p − 1) / 2 (Euler's criterion).
    const P_MINUS_1_DIV_2: Limbs = shr(&sub_small(&M::P, 1), 0, 1);
}

impl<M: Modulus, B: Backend> Fp<M, B> {
    /// Zero.
    pub const ZERO: Self = Self::from_mont_unchecked([0; 4]);
    /// One.
    pub const ONE: Self = Self::from_mont_unchecked(M::R);

    #[inline(always)]
    pub(crate) const fn from_mont_unchecked(mont: Limbs) -> Self {
        Self {
            mont,
            _marker: PhantomData,
        }
    }

    /// The Montgomery limbs `a·2^256 mod p` (little-endian), identical on every backend.
    #[inline(always)]
    pub const fn to_mont_limbs(&self) -> Limbs {
        self.mont
    }

    /// From Montgomery limbs; none unless the limbs are below p.
    pub fn from_mont_limbs(mont: Limbs) -> CtOption<Self> {
        CtOption::new(Self::from_mont_unchecked(mont), is_below::<M>(&mont))
    }

    /// The same value computed by another backend.
    #[inline(always)]
    pub const fn to_backend<B2: Backend>(&self) -> Fp<M, B2> {
        Fp::from_mont_unchecked(self.mont)
    }

    /// From canonical little-endian limbs known at compile time; panics (at compile time in a
    /// `const`) unless the value is below p.
    pub const fn from_canonical_limbs_const(limbs: Limbs) -> Self {
        let mut i = 4;
        let mut below = false;
        while i > 0 {
            i -= 1;
            if limbs[i] != M::P[i] {
                below = limbs[i] < M::P[i];
                break;
            }
        }
        assert!(below, "constant is not below the modulus");
        Self::from_mont_unchecked(to_mont_const::<M>(&limbs))
    }

    /// From 64 big-endian hex digits known at compile time (panics unless below p).
    pub const fn from_be_hex_const(hex: &str) -> Self {
        Self::from_canonical_limbs_const(crate::limbs_from_be_hex(hex))
    }

    /// From canonical little-endian limbs; none unless below p.
    pub fn from_canonical_limbs(limbs: Limbs) -> CtOption<Self> {
        let ok = is_below::<M>(&limbs);
        CtOption::new(Self::from_mont_unchecked(B::mul::<M>(&limbs, &M::R2)), ok)
    }

    /// Canonical little-endian limbs of the value (leaves Montgomery form).
    #[inline]
    pub fn to_canonical_limbs(&self) -> Limbs {
        B::mul::<M>(&self.mont, &[1, 0, 0, 0])
    }

    /// A small integer.
    pub fn from_u64(v: u64) -> Self {
        Self::from_mont_unchecked(B::mul::<M>(&[v, 0, 0, 0], &M::R2))
    }

    /// From 32 big-endian bytes; none if the value is not below p.
    pub fn from_bytes(bytes: &[u8; 32]) -> CtOption<Self> {
        Self::from_canonical_limbs(be_bytes_to_limbs(bytes))
    }

    /// From 32 big-endian bytes, reduced modulo p (any 256-bit value is accepted).
    pub fn from_bytes_reduced(bytes: &[u8; 32]) -> Self {
        let l = crate::backend::u64::reduce_once(&be_bytes_to_limbs(bytes), 0, &M::P);
        Self::from_mont_unchecked(B::mul::<M>(&l, &M::R2))
    }

    /// A big-endian byte string of any length reduced modulo p (SM9's H1/H2 reduce 40 bytes;
    /// 64 bytes give a uniform element). Processes 32-byte chunks by Horner's rule:
    /// `acc ← acc·2^256 + chunk`, where multiplying a Montgomery residue by `R^2` and reducing
    /// yields `acc·2^256` in Montgomery form.
    pub fn from_wide_bytes(bytes: &[u8]) -> Self {
        let head = bytes.len() % 32;
        let mut acc = Self::ZERO;
        let mut first = true;
        let mut absorb = |chunk: &[u8; 32]| {
            let l = crate::backend::u64::reduce_once(&be_bytes_to_limbs(chunk), 0, &M::P);
            let c = B::mul::<M>(&l, &M::R2);
            acc.mont = if first {
                c
            } else {
                B::add::<M>(&B::mul::<M>(&acc.mont, &M::R2), &c)
            };
            first = false;
        };
        if head != 0 {
            let mut buf = [0u8; 32];
            buf[32 - head..].copy_from_slice(&bytes[..head]);
            absorb(&buf);
        }
        for chunk in bytes[head..].chunks_exact(32) {
            absorb(chunk.try_into().expect("32-byte chunk"));
        }
        acc
    }

    /// 32 big-endian bytes of the canonical value.
    pub fn to_bytes(&self) -> [u8; 32] {
        let l = self.to_canonical_limbs();
        let mut out = [0u8; 32];
        for i in 0..4 {
            out[24 - 8 * i..32 - 8 * i].copy_from_slice(&l[i].to_be_bytes());
        }
        out
    }

    /// A uniformly random element (64 random bytes reduced: bias below 2^-256).
    pub fn random(rng: &mut impl CryptoRng) -> Self {
        let mut buf = [0u8; 64];
        rng.fill_bytes(&mut buf);
        let r = Self::from_wide_bytes(&buf);
        buf.zeroize();
        r
    }

    /// Whether the element is zero.
    #[inline]
    pub fn is_zero(&self) -> Choice {
        self.ct_eq(&Self::ZERO)
    }

    /// Whether the element is zero, by a plain comparison (public values only).
    #[inline(always)]
    pub fn is_zero_vartime(&self) -> bool {
        self.mont == [0; 4]
    }

    /// Whether the canonical value is odd (the SEC1 / GM/T compression bit).
    pub fn is_odd(&self) -> Choice {
        Choice::from((self.to_canonical_limbs()[0] & 1) as u8)
    }

    /// `self + rhs`.
    #[inline(always)]
    pub fn add(&self, rhs: &Self) -> Self {
        Self::from_mont_unchecked(B::add::<M>(&self.mont, &rhs.mont))
    }

    /// `self − rhs`.
    #[inline(always)]
    pub fn sub(&self, rhs: &Self) -> Self {
        Self::from_mont_unchecked(B::sub::<M>(&self.mont, &rhs.mont))
    }

    /// `−self`.
    #[inline(always)]
    pub fn neg(&self) -> Self {
        Self::from_mont_unchecked(B::neg::<M>(&self.mont))
    }

    /// `2·self`.
    #[inline(always)]
    pub fn double(&self) -> Self {
        Self::from_mont_unchecked(B::double::<M>(&self.mont))
    }

    /// `self · rhs`.
    #[inline(always)]
    pub fn mul(&self, rhs: &Self) -> Self {
        Self::from_mont_unchecked(B::mul::<M>(&self.mont, &rhs.mont))
    }

    /// `self²`.
    #[inline(always)]
    pub fn square(&self) -> Self {
        Self::from_mont_unchecked(B::square::<M>(&self.mont))
    }

    /// `self^(2^n)` by `n` squarings.
    #[inline]
    pub fn square_n(&self, n: u32) -> Self {
        let mut r = *self;
        for _ in 0..n {
            r = r.square();
        }
        r
    }

    /// `self^exp` for a **secret** exponent (little-endian limbs): fixed 4-bit windows, every table
    /// entry read for each window, so time and memory access do not depend on `exp` or `self`.
    pub fn pow(&self, exp: &[u64]) -> Self {
        let mut table = [Self::ONE; 16];
        for i in 1..16 {
            table[i] = table[i - 1].mul(self);
        }
        let mut acc = Self::ONE;
        for limb in exp.iter().rev() {
            for nib in (0..16).rev() {
                acc = acc.square_n(4);
                let idx = ((limb >> (4 * nib)) & 0xf) as u8;
                let mut t = Self::ZERO;
                for (j, entry) in table.iter().enumerate() {
                    t.conditional_assign(entry, idx.ct_eq(&(j as u8)));
                }
                acc = acc.mul(&t);
            }
        }
        table.zeroize();
        acc
    }

    /// `self^exp` for a **public** exponent: sliding 5-bit windows over the exponent bits. Time
    /// depends on `exp` only, never on `self`, so a secret base is fine (inversion and square
    /// roots use this with exponents derived from p).
    fn pow_public_exponent(&self, exp: &[u64]) -> Self {
        const W: usize = 5;
        // table[i] = self^(2i+1)
        let sq = self.square();
        let mut table = [*self; 1 << (W - 1)];
        for i in 1..table.len() {
            table[i] = table[i - 1].mul(&sq);
        }
        let nbits = exp.len() * 64;
        let bit = |i: usize| (exp[i / 64] >> (i % 64)) & 1;
        let mut acc = Self::ONE;
        let mut started = false;
        let mut i = nbits as isize - 1;
        while i >= 0 {
            if bit(i as usize) == 0 {
                if started {
                    acc = acc.square();
                }
                i -= 1;
                continue;
            }
            // Longest window [j, i] of at most W bits that ends in a 1 bit.
            let mut j = (i - W as isize + 1).max(0);
            while bit(j as usize) == 0 {
                j += 1;
            }
            let mut val = 0usize;
            for k in (j..=i).rev() {
                val = (val << 1) | bit(k as usize) as usize;
            }
            if started {
                acc = acc.square_n((i - j + 1) as u32);
                acc = acc.mul(&table[val >> 1]);
            } else {
                acc = table[val >> 1];
                started = true;
            }
            i = j - 1;
        }
        let mut t = table;
        t.zeroize();
        acc
    }

    /// `self^exp` with time depending on the exponent (little-endian limbs); never use with a
    /// secret exponent.
    pub fn pow_vartime(&self, exp: &[u64]) -> Self {
        self.pow_public_exponent(exp)
    }

    /// Multiplicative inverse in constant time (Bernstein–Yang safegcd, 590 branch-free
    /// divsteps; see `inversion.rs`); none for zero.
    pub fn invert(&self) -> CtOption<Self> {
        // (a·R)^-1 = a^-1·R^-1; one Montgomery product with R^3 gives a^-1·R.
        let inv = crate::inversion::invert::<M>(&self.mont);
        CtOption::new(
            Self::from_mont_unchecked(B::mul::<M>(&inv, &M::R3)),
            !self.is_zero(),
        )
    }

    /// Multiplicative inverse in constant time by Fermat's little theorem, `self^(p−2)` with a
    /// window schedule that depends on p only; none for zero. Slower than [`Self::invert`]; kept
    /// as an independent cross-check.
    pub fn invert_fermat(&self) -> CtOption<Self> {
        CtOption::new(
            self.pow_public_exponent(&Exps::<M>::P_MINUS_2),
            !self.is_zero(),
        )
    }

    /// Multiplicative inverse by variable-time safegcd divsteps (stops when done); time
    /// depends on the value, so only for public data. None for zero.
    pub fn invert_vartime(&self) -> Option<Self> {
        if bool::from(self.is_zero()) {
            return None;
        }
        let inv = crate::inversion::invert_vartime::<M>(&self.mont);
        Some(Self::from_mont_unchecked(B::mul::<M>(&inv, &M::R3)))
    }

    /// Square root in constant time, if one exists (either root may be returned).
    ///
    /// p ≡ 3 (mod 4): `a^((p+1)/4)`. p ≡ 5 (mod 8): Atkin's method — `b = (2a)^((p−5)/8)`,
    /// `i = 2a·b²`, `x = a·b·(i − 1)` (Atkin 1992; IEEE 1363-2000 A.2.5).
    pub fn sqrt(&self) -> CtOption<Self> {
        let x = if M::P[0] & 3 == 3 {
            self.pow_public_exponent(&Exps::<M>::P_PLUS_1_DIV_4)
        } else if M::P[0] & 7 == 5 {
            let two_a = self.double();
            let b = two_a.pow_public_exponent(&Exps::<M>::P_MINUS_5_DIV_8);
            let i = two_a.mul(&b.square());
            self.mul(&b).mul(&i.sub(&Self::ONE))
        } else {
            // None of the moduli here is ≡ 1 (mod 8); this branch is resolved at compile time.
            unreachable!("square roots need p ≡ 3 mod 4 or p ≡ 5 mod 8")
        };
        CtOption::new(x, x.square().ct_eq(self))
    }

    /// Whether the element is a square (Euler's criterion; zero counts as a square).
    pub fn is_square(&self) -> Choice {
        let e = self.pow_public_exponent(&Exps::<M>::P_MINUS_1_DIV_2);
        e.ct_eq(&Self::ONE) | self.is_zero()
    }

    /// Inverts every element with one field inversion (Montgomery's trick); zeros stay zero.
    /// `scratch` must be at least as long as `elems`. Constant time.
    pub fn batch_invert_with_scratch(elems: &mut [Self], scratch: &mut [Self]) {
        assert!(scratch.len() >= elems.len(), "scratch too short");
        let mut acc = Self::ONE;
        for (e, s) in elems.iter().zip(scratch.iter_mut()) {
            *s = acc;
            // Treat zero as one so it does not poison the product.
            let z = e.is_zero();
            acc = acc.mul(&Self::conditional_select(e, &Self::ONE, z));
        }
        let mut inv = acc.invert().unwrap_or(Self::ZERO);
        for (e, s) in elems.iter_mut().zip(scratch.iter()).rev() {
            let z = e.is_zero();
            let e_or_one = Self::conditional_select(e, &Self::ONE, z);
            let new = inv.mul(s);
            inv = inv.mul(&e_or_one);
            *e = Self::conditional_select(&new, &Self::ZERO, z);
        }
    }
}

/// Constant-time `a < P`.
#[inline]
fn is_below<M: Modulus>(a: &Limbs) -> Choice {
    let (_, b) = sbb(a[0], M::P[0], 0);
    let (_, b) = sbb(a[1], M::P[1], b);
    let (_, b) = sbb(a[2], M::P[2], b);
    let (_, b) = sbb(a[3], M::P[3], b);
    Choice::from(b as u8)
}

fn be_bytes_to_limbs(bytes: &[u8; 32]) -> Limbs {
    let mut l = [0u64; 4];
    for (i, limb) in l.iter_mut().enumerate() {
        let off = 24 - 8 * i;
        *limb = u64::from_be_bytes(bytes[off..off + 8].try_into().expect("8 bytes"));
    }
    l
}

impl<M: Modulus, B: Backend> Default for Fp<M, B> {
    fn default() -> Self {
        Self::ZERO
    }
}

impl<M: Modulus, B: Backend> ConstantTimeEq for Fp<M, B> {
    /// The limb differences ORed together, then one `subtle` comparison with zero (one
    /// optimisation barrier instead of one per limb; branch-free either way).
    fn ct_eq(&self, other: &Self) -> Choice {
        let (a, b) = (&self.mont, &other.mont);
        let d = (a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3]);
        d.ct_eq(&0)
    }
}

impl<M: Modulus, B: Backend> ConditionallySelectable for Fp<M, B> {
    #[inline(always)]
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        Self::from_mont_unchecked([
            u64::conditional_select(&a.mont[0], &b.mont[0], choice),
            u64::conditional_select(&a.mont[1], &b.mont[1], choice),
            u64::conditional_select(&a.mont[2], &b.mont[2], choice),
            u64::conditional_select(&a.mont[3], &b.mont[3], choice),
        ])
    }
}

impl<M: Modulus, B: Backend> PartialEq for Fp<M, B> {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}
impl<M: Modulus, B: Backend> Eq for Fp<M, B> {}

impl<M: Modulus, B: Backend> Zeroize for Fp<M, B> {
    fn zeroize(&mut self) {
        self.mont.zeroize();
    }
}

impl<M: Modulus, B: Backend> fmt::Debug for Fp<M, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fp<{}>(0x", M::NAME)?;
        for b in self.to_bytes() {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

impl<M: Modulus, B: Backend> From<u64> for Fp<M, B> {
    fn from(v: u64) -> Self {
        Self::from_u64(v)
    }
}

macro_rules! binop {
    ($Tr:ident, $f:ident, $TrA:ident, $fa:ident) => {
        impl<M: Modulus, B: Backend> $Tr<Fp<M, B>> for Fp<M, B> {
            type Output = Fp<M, B>;
            #[inline(always)]
            fn $f(self, rhs: Fp<M, B>) -> Fp<M, B> {
                Fp::$f(&self, &rhs)
            }
        }
        impl<'a, M: Modulus, B: Backend> $Tr<&'a Fp<M, B>> for Fp<M, B> {
            type Output = Fp<M, B>;
            #[inline(always)]
            fn $f(self, rhs: &'a Fp<M, B>) -> Fp<M, B> {
                Fp::$f(&self, rhs)
            }
        }
        impl<'a, M: Modulus, B: Backend> $Tr<Fp<M, B>> for &'a Fp<M, B> {
            type Output = Fp<M, B>;
            #[inline(always)]
            fn $f(self, rhs: Fp<M, B>) -> Fp<M, B> {
                Fp::$f(self, &rhs)
            }
        }
        impl<'a, 'b, M: Modulus, B: Backend> $Tr<&'b Fp<M, B>> for &'a Fp<M, B> {
            type Output = Fp<M, B>;
            #[inline(always)]
            fn $f(self, rhs: &'b Fp<M, B>) -> Fp<M, B> {
                Fp::$f(self, rhs)
            }
        }
        impl<M: Modulus, B: Backend> $TrA<Fp<M, B>> for Fp<M, B> {
            #[inline(always)]
            fn $fa(&mut self, rhs: Fp<M, B>) {
                *self = Fp::$f(self, &rhs);
            }
        }
        impl<'a, M: Modulus, B: Backend> $TrA<&'a Fp<M, B>> for Fp<M, B> {
            #[inline(always)]
            fn $fa(&mut self, rhs: &'a Fp<M, B>) {
                *self = Fp::$f(self, rhs);
            }
        }
    };
}
binop!(Add, add, AddAssign, add_assign);
binop!(Sub, sub, SubAssign, sub_assign);
binop!(Mul, mul, MulAssign, mul_assign);

impl<M: Modulus, B: Backend> Neg for Fp<M, B> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Fp::neg(&self)
    }
}
impl<M: Modulus, B: Backend> Neg for &Fp<M, B> {
    type Output = Fp<M, B>;
    #[inline(always)]
    fn neg(self) -> Fp<M, B> {
        Fp::neg(self)
    }
}

impl<M: Modulus, B: Backend> Sum for Fp<M, B> {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::ZERO, |a, b| a + b)
    }
}
impl<M: Modulus, B: Backend> Product for Fp<M, B> {
    fn product<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::ONE, |a, b| a * b)
    }
}
