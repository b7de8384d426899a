//! GT: the order-n subgroup of GF(p¹²)* where the pairing takes its values.
//!
//! Elements lie in the cyclotomic subgroup, so [`Gt::square`] uses Granger–Scott squaring and
//! [`Gt::invert`] is conjugation. Secret exponents use [`Gt::pow`] (Frobenius split into two
//! 128-bit halves, fixed signed radix-16 windows, `subtle` table scans) or a [`GtTable`] (fixed
//! base, no squarings); public ones [`Gt::pow_vartime`] (width-5 NAF).
//!
//! The exponentiations, products, squarings, the checked decoding and the table are entry points:
//! each dispatches once per call (`Backend::dispatch`), so with `Auto` they run on the pure
//! backend the CPU supports. A [`GtTable`] stores `B` limbs, valid on every backend.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;

use sm_field::{Backend, DefaultBackend, Fp, Fp12, Job, Sm9N};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};
use zeroize::Zeroize;

use crate::cyclotomic::square as cyclotomic_square;
use crate::exponent::{signed_digits, split_exponent};

/// An element of GT ⊂ GF(p¹²)* (order n).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Gt<B: Backend = DefaultBackend>(Fp12<B>);

/// Why 384 bytes are not a GT element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GtDecodeError {
    /// A coordinate is not below p.
    OutOfRange,
    /// The value is not in the order-n subgroup.
    NotInSubgroup,
}

impl fmt::Display for GtDecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GtDecodeError::OutOfRange => "GT encoding: coordinate out of range",
            GtDecodeError::NotInSubgroup => "GT encoding: not in the order-n subgroup",
        })
    }
}

impl core::error::Error for GtDecodeError {}

/// `table[|d| − 1]` (or 1 for d = 0), conjugated (inverted, on GT) when d < 0, on backend `B2`
/// (the entry is copied from the table's backend `BS` before the conjugation). Reads every
/// entry.
#[inline]
pub(crate) fn ct_lookup<B2: Backend, BS: Backend, const N: usize>(
    table: &[Fp12<BS>; N],
    d: i8,
) -> Fp12<B2> {
    let neg = Choice::from(((d as u8) >> 7) & 1);
    let abs = (d as i16).unsigned_abs() as u8;
    let mut r = Fp12::<BS>::ONE;
    for (j, e) in table.iter().enumerate() {
        r.conditional_assign(e, abs.ct_eq(&(j as u8 + 1)));
    }
    let mut r = r.to_backend::<B2>();
    let c = r.conjugate();
    r.conditional_assign(&c, neg);
    r
}

impl<B: Backend> Gt<B> {
    /// The identity.
    pub const IDENTITY: Self = Self(Fp12::ONE);

    pub(crate) fn from_fp12_unchecked(f: Fp12<B>) -> Self {
        Self(f)
    }

    /// The underlying GF(p¹²) element.
    pub fn as_fp12(&self) -> &Fp12<B> {
        &self.0
    }

    /// The same value computed by another backend.
    pub fn to_backend<B2: Backend>(&self) -> Gt<B2> {
        Gt(self.0.to_backend())
    }

    /// Whether this is the identity.
    pub fn is_identity(&self) -> Choice {
        self.0.is_one()
    }

    /// The group operation (GF(p¹²) multiplication).
    #[inline]
    pub fn mul(&self, rhs: &Self) -> Self {
        struct Mul<'a, B: Backend>(&'a Fp12<B>, &'a Fp12<B>);
        impl<B: Backend> Job for Mul<'_, B> {
            type Output = Fp12<B>;
            fn run<B2: Backend>(self) -> Fp12<B> {
                let (a, b) = (self.0.to_backend::<B2>(), self.1.to_backend::<B2>());
                a.mul(&b).to_backend()
            }
        }
        Self(B::dispatch(Mul(&self.0, &rhs.0)))
    }

    /// `self²` by cyclotomic (Granger–Scott) squaring.
    #[inline]
    pub fn square(&self) -> Self {
        struct Square<'a, B: Backend>(&'a Fp12<B>);
        impl<B: Backend> Job for Square<'_, B> {
            type Output = Fp12<B>;
            fn run<B2: Backend>(self) -> Fp12<B> {
                cyclotomic_square(&self.0.to_backend::<B2>()).to_backend()
            }
        }
        Self(B::dispatch(Square(&self.0)))
    }

    /// Inverse = conjugate (x^(p⁶) = x⁻¹ on the cyclotomic subgroup).
    #[inline]
    pub fn invert(&self) -> Self {
        Self(self.0.conjugate())
    }

    /// `self^(p^k)` (equals `self^(p^k mod n)`).
    pub fn frobenius_map(&self, k: usize) -> Self {
        Self(self.0.frobenius_map(k))
    }

    /// `self^k` for a **secret** exponent (little-endian limbs, any 256-bit value), constant
    /// time. With the Frobenius split k ≡ k0 + k1·λ (mod n), λ = 6t² (see `exponent.rs`),
    /// `self^k = self^k0 · π(self)^k1`: both 128-bit halves in 33 signed radix-16 digits share
    /// one chain of 128 cyclotomic squarings; tables self¹…self⁸ and their Frobenius images are
    /// read entirely at each digit (66 multiplications), whatever k is.
    pub fn pow(&self, k: &[u64; 4]) -> Self {
        struct Pow<'a, B: Backend>(&'a Fp12<B>, &'a [u64; 4]);
        impl<B: Backend> Job for Pow<'_, B> {
            type Output = Fp12<B>;
            fn run<B2: Backend>(self) -> Fp12<B> {
                let mut x = self.0.to_backend::<B2>();
                let r = pow_on(&x, self.1).to_backend();
                x.zeroize();
                r
            }
        }
        Self(B::dispatch(Pow(&self.0, k)))
    }

    /// `self^k` for a secret scalar k ∈ Z/nZ, constant time.
    pub fn pow_scalar(&self, k: &Fp<Sm9N, B>) -> Self {
        let mut limbs = k.to_canonical_limbs();
        let r = self.pow(&limbs);
        limbs.zeroize();
        r
    }

    /// `self^k` for a **public** exponent (little-endian limbs): width-5 NAF, ~256 cyclotomic
    /// squarings and ~43 multiplications; time depends on k.
    pub fn pow_vartime(&self, k: &[u64]) -> Self {
        struct PowVartime<'a, B: Backend>(&'a Fp12<B>, &'a [u64]);
        impl<B: Backend> Job for PowVartime<'_, B> {
            type Output = Fp12<B>;
            fn run<B2: Backend>(self) -> Fp12<B> {
                pow_vartime_on(&self.0.to_backend::<B2>(), self.1).to_backend()
            }
        }
        Self(B::dispatch(PowVartime(&self.0, k)))
    }

    /// The 384-byte GM/T 0044 encoding (see [`Fp12::to_bytes`]).
    pub fn to_bytes(&self) -> [u8; 384] {
        self.0.to_bytes()
    }

    /// Decodes 384 bytes, checking the range of every coordinate and membership in the order-n
    /// subgroup (`x^n = 1`, variable time: for public encodings).
    pub fn from_bytes_checked(bytes: &[u8; 384]) -> Result<Self, GtDecodeError> {
        let f =
            Option::<Fp12<B>>::from(Fp12::from_bytes(bytes)).ok_or(GtDecodeError::OutOfRange)?;
        struct InSubgroup<'a, B: Backend>(&'a Fp12<B>);
        impl<B: Backend> Job for InSubgroup<'_, B> {
            type Output = bool;
            fn run<B2: Backend>(self) -> bool {
                let f = self.0.to_backend::<B2>();
                let n = Fp::<Sm9N, B2>::ZERO - Fp::ONE; // n − 1
                let nm1 = n.to_canonical_limbs();
                // f^(n−1)·f = f^n = 1, and f ≠ 0.
                !bool::from(f.is_zero()) && f.pow_vartime(&nm1).mul(&f) == Fp12::ONE
            }
        }
        if B::dispatch(InSubgroup(&f)) {
            Ok(Self(f))
        } else {
            Err(GtDecodeError::NotInSubgroup)
        }
    }

    /// [`from_bytes_checked`](Self::from_bytes_checked) as a `CtOption`.
    pub fn from_bytes(bytes: &[u8; 384]) -> CtOption<Self> {
        match Self::from_bytes_checked(bytes) {
            Ok(g) => CtOption::new(g, Choice::from(1)),
            Err(_) => CtOption::new(Self::IDENTITY, Choice::from(0)),
        }
    }
}

/// [`Gt::pow`] on `B` itself: `x^k`, constant time in `x` and `k`.
fn pow_on<B: Backend>(x: &Fp12<B>, k: &[u64; 4]) -> Fp12<B> {
    let (mut k0, mut k1) = split_exponent(k);
    let mut d0 = signed_digits::<4, 33>(k0);
    let mut d1 = signed_digits::<4, 33>(k1);
    let mut t0 = [*x; 8];
    t0[1] = cyclotomic_square(x);
    for j in 2..8 {
        t0[j] = t0[j - 1].mul(x);
    }
    let mut t1 = t0.map(|x| x.frobenius_map(1));
    let mut acc = ct_lookup::<B, B, 8>(&t0, d0[32]).mul(&ct_lookup::<B, B, 8>(&t1, d1[32]));
    for i in (0..32).rev() {
        for _ in 0..4 {
            acc = cyclotomic_square(&acc);
        }
        acc = acc.mul(&ct_lookup::<B, B, 8>(&t0, d0[i]));
        acc = acc.mul(&ct_lookup::<B, B, 8>(&t1, d1[i]));
    }
    t0.zeroize();
    t1.zeroize();
    d0.zeroize();
    d1.zeroize();
    k0.zeroize();
    k1.zeroize();
    acc
}

/// [`Gt::pow_vartime`] on `B` itself.
fn pow_vartime_on<B: Backend>(x: &Fp12<B>, k: &[u64]) -> Fp12<B> {
    // wNAF digits (odd, |d| < 16) of k.
    let mut n: Vec<u64> = k.to_vec();
    n.push(0);
    let mut digits: Vec<i8> = Vec::with_capacity(n.len() * 64 + 1);
    let is_zero = |n: &[u64]| n.iter().all(|&l| l == 0);
    while !is_zero(&n) {
        if n[0] & 1 == 1 {
            let m = (n[0] & 31) as i8;
            let d = if m >= 16 { m - 32 } else { m };
            digits.push(d);
            // n -= d
            if d > 0 {
                sub_small(&mut n, d as u64);
            } else {
                add_small(&mut n, (-d) as u64);
            }
        } else {
            digits.push(0);
        }
        shr1(&mut n);
    }
    let sq = cyclotomic_square(x);
    let mut odd = [*x; 8]; // x^(2j+1)
    for j in 1..8 {
        odd[j] = odd[j - 1].mul(&sq);
    }
    let mut acc = Fp12::ONE;
    for &d in digits.iter().rev() {
        acc = cyclotomic_square(&acc);
        if d > 0 {
            acc = acc.mul(&odd[(d as usize) / 2]);
        } else if d < 0 {
            acc = acc.mul(&odd[((-d) as usize) / 2].conjugate());
        }
    }
    acc
}

fn sub_small(n: &mut [u64], mut v: u64) {
    for l in n.iter_mut() {
        let (r, b) = l.overflowing_sub(v);
        *l = r;
        v = b as u64;
    }
}

fn add_small(n: &mut [u64], mut v: u64) {
    for l in n.iter_mut() {
        let (r, c) = l.overflowing_add(v);
        *l = r;
        v = c as u64;
    }
}

fn shr1(n: &mut [u64]) {
    for i in 0..n.len() {
        let hi = if i + 1 < n.len() { n[i + 1] << 63 } else { 0 };
        n[i] = (n[i] >> 1) | hi;
    }
}

impl<B: Backend> Default for Gt<B> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<B: Backend> fmt::Debug for Gt<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Gt(")?;
        for b in self.to_bytes() {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

impl<B: Backend> ConstantTimeEq for Gt<B> {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.0.ct_eq(&other.0)
    }
}

impl<B: Backend> ConditionallySelectable for Gt<B> {
    fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
        Self(Fp12::conditional_select(&a.0, &b.0, c))
    }
}

impl<B: Backend> Zeroize for Gt<B> {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl<B: Backend> core::ops::Mul for Gt<B> {
    type Output = Self;
    fn mul(self, rhs: Self) -> Self {
        Gt::mul(&self, &rhs)
    }
}

impl<'a, B: Backend> core::ops::Mul<&'a Gt<B>> for &'a Gt<B> {
    type Output = Gt<B>;
    fn mul(self, rhs: &'a Gt<B>) -> Gt<B> {
        Gt::mul(self, rhs)
    }
}

impl<B: Backend> core::ops::MulAssign for Gt<B> {
    fn mul_assign(&mut self, rhs: Self) {
        *self = Gt::mul(self, &rhs);
    }
}

/// Radix of the [`GtTable`] digits: signed radix-2^`TABLE_W`.
pub(crate) const TABLE_W: u32 = 5;
/// Entries per row: g^(j·2^(W·i)) for j = 1…2^(W−1).
pub(crate) const TABLE_ENTRIES: usize = 1 << (TABLE_W - 1);
/// Digits (= rows) per 128-bit half: W·rows ≥ 129.
pub(crate) const TABLE_ROWS: usize = 128 / TABLE_W as usize + 1;

/// Fixed-base table for a GT element used with many exponents (e.g. g = e(P1, Ppub-s) per
/// master public key): `g^(j·32^i)` for i = 0…25, j = 1…16 (416 elements, ≈ 160 KB). An
/// exponentiation splits k ≡ k0 + k1·λ (mod n) with the Frobenius (see `exponent.rs`), looks up
/// the signed radix-32 digits of both 128-bit halves in the same rows,
/// `g^k = ∏ T[i][k0ᵢ] · π(∏ T[i][k1ᵢ])`: 51 multiplications, one Frobenius map and 52
/// constant-time scans of 16 entries; no squarings. The table holds public data only.
#[derive(Clone)]
pub struct GtTable<B: Backend = DefaultBackend> {
    pub(crate) rows: Box<[[Fp12<B>; TABLE_ENTRIES]]>,
    base: Gt<B>,
}

impl<B: Backend> GtTable<B> {
    /// Precomputes the table (≈ 400 multiplications and 130 squarings). Dispatches once
    /// (`Backend::dispatch`); the table holds `B` limbs.
    pub fn new(g: &Gt<B>) -> Self {
        struct Build<'a, B: Backend>(&'a Gt<B>);
        impl<B: Backend> Job for Build<'_, B> {
            type Output = GtTable<B>;
            fn run<B2: Backend>(self) -> GtTable<B> {
                GtTable::new_on::<B2>(self.0)
            }
        }
        B::dispatch(Build(g))
    }

    /// [`new`](Self::new) computed on backend `B2` itself, without dispatch (for code already
    /// running inside a job); the table holds `B` limbs.
    pub fn new_on<B2: Backend>(g: &Gt<B>) -> Self {
        let mut rows = Vec::with_capacity(TABLE_ROWS);
        let mut b = g.0.to_backend::<B2>();
        for _ in 0..TABLE_ROWS {
            let mut row = [b; TABLE_ENTRIES];
            row[1] = cyclotomic_square(&b);
            for j in 2..TABLE_ENTRIES {
                row[j] = row[j - 1].mul(&b);
            }
            // b ← b^(2^W) = (b^(2^(W−1)))²
            b = cyclotomic_square(&row[TABLE_ENTRIES - 1]);
            rows.push(row.map(|e| e.to_backend()));
        }
        Self {
            rows: rows.into_boxed_slice(),
            base: *g,
        }
    }

    /// The base element.
    pub fn base(&self) -> &Gt<B> {
        &self.base
    }

    /// `g^k` for a **secret** exponent (little-endian limbs), constant time. Dispatches once
    /// (`Backend::dispatch`); entries are copied to the running backend as they are read.
    pub fn pow(&self, k: &[u64; 4]) -> Gt<B> {
        struct Pow<'a, B: Backend>(&'a GtTable<B>, &'a [u64; 4]);
        impl<B: Backend> Job for Pow<'_, B> {
            type Output = Gt<B>;
            fn run<B2: Backend>(self) -> Gt<B> {
                self.0.on_backend::<B2>().pow(self.1).to_backend()
            }
        }
        B::dispatch(Pow(self, k))
    }

    /// This table read as one over backend `B2`, for code already running inside a job on `B2`
    /// (no copy of the table: limbs are bit-identical on every backend; each entry read is
    /// copied). Nothing it does dispatches.
    pub fn on_backend<B2: Backend>(&self) -> GtTableOn<'_, B, B2> {
        GtTableOn {
            table: self,
            backend: core::marker::PhantomData,
        }
    }

    /// `g^k` for a secret scalar k ∈ Z/nZ, constant time.
    pub fn pow_scalar(&self, k: &Fp<Sm9N, B>) -> Gt<B> {
        let mut limbs = k.to_canonical_limbs();
        let r = self.pow(&limbs);
        limbs.zeroize();
        r
    }
}

/// A [`GtTable`] read over backend `B2` ([`GtTable::on_backend`]): the exponentiation of
/// [`GtTable::pow`] on `B2` itself, without dispatch, each entry copied to `B2` as it is read.
#[derive(Clone, Copy)]
pub struct GtTableOn<'a, B: Backend, B2> {
    table: &'a GtTable<B>,
    backend: core::marker::PhantomData<B2>,
}

impl<B: Backend, B2: Backend> GtTableOn<'_, B, B2> {
    /// `g^k` for a **secret** exponent (little-endian limbs), constant time, on `B2`.
    pub fn pow(&self, k: &[u64; 4]) -> Gt<B2> {
        let rows = &self.table.rows;
        let lookup =
            |row: &[Fp12<B>; TABLE_ENTRIES], d: i8| ct_lookup::<B2, B, TABLE_ENTRIES>(row, d);
        let (mut k0, mut k1) = split_exponent(k);
        let mut d0 = signed_digits::<TABLE_W, TABLE_ROWS>(k0);
        let mut d1 = signed_digits::<TABLE_W, TABLE_ROWS>(k1);
        let mut acc0 = lookup(&rows[0], d0[0]);
        let mut acc1 = lookup(&rows[0], d1[0]);
        for (i, row) in rows.iter().enumerate().skip(1) {
            acc0 = acc0.mul(&lookup(row, d0[i]));
            acc1 = acc1.mul(&lookup(row, d1[i]));
        }
        let r = acc0.mul(&acc1.frobenius_map(1));
        d0.zeroize();
        d1.zeroize();
        k0.zeroize();
        k1.zeroize();
        acc0.zeroize();
        acc1.zeroize();
        Gt(r)
    }

    /// `g^k` for a secret scalar k ∈ Z/nZ, constant time, on `B2`.
    pub fn pow_scalar(&self, k: &Fp<Sm9N, B2>) -> Gt<B2> {
        let mut limbs = k.to_canonical_limbs();
        let r = self.pow(&limbs);
        limbs.zeroize();
        r
    }
}

impl<B: Backend> fmt::Debug for GtTable<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GtTable")
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}
