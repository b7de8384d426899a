//! Eight independent elements of GF(p) in the eight 64-bit lanes of AVX-512 registers, with
//! Montgomery arithmetic on the IFMA multiplier (`vpmadd52luq`/`vpmadd52huq`): the field layer of
//! multi-buffer protocols (eight SM2 verifications at once, one per lane).
//!
//! **Representation.** [`Lanes8<M>`] holds five `__m512i`, one per radix-2^52 limb: limb j of
//! element i is lane i of vector j. Element i is stored as its Montgomery residue for
//! R' = 2^260 (five 52-bit limbs), so that one 5 × 52-bit word-by-word
//! Montgomery multiplication (which divides by 2^260) keeps the form. This is not the R = 2^256
//! of [`Fp`]; the conversions [`Lanes8::from_fp`] and [`Lanes8::to_fp`] are one lane
//! multiplication each: the Montgomery limbs `a·2^256` times `2^264 mod p` give `a·2^260`, and
//! `a·2^260` times `2^256 mod p` gives back `a·2^256` (reduced fully there, so bit-identical to
//! every scalar backend). The batched kernel of `MulxIfma` (`backend/x86_64/ifma.rs`) instead enters
//! one operand as `16·a` to land directly on R = 2^256; here the values stay in lane form across
//! many operations, so the conversion is paid only at the ends.
//!
//! **Multiplication** is the operand-scanning word-by-word Montgomery multiplication (Koç, Acar,
//! Kaliski, IEEE Micro 1996, CIOS) in radix 2^52 with 64-bit accumulators that absorb the carries
//! until one normalisation at the end, the layout of Gueron and Krasnov, "Accelerating big
//! integer arithmetic using Intel IFMA extensions", ARITH 2016, and Drucker and Gueron, "Fast
//! modular squaring with AVX512IFMA", ePrint 2018/335 (also the design of Intel's `crypto_mb`).
//! An accumulator receives at most four 52-bit terms per round plus one carry, < 2^57 over five
//! rounds: the 12 bits of headroom per lane make carry propagation inside the loop unnecessary.
//! Limbs of p equal to 2^52 − 1 are reduced by an addition and a subtraction instead of two
//! products (three of SM2's five limbs), so the accumulators are signed (|limb| < 2^57) and the
//! carries are arithmetic shifts.
//!
//! **Lazy reduction.** A lane holds any representative below 2p of its element (every limb below
//! 2^52), not necessarily the one below p. The multiplication needs no final subtraction: with
//! `a, b < 2p`, `p < 2^256` and `m < 2^260` its result is
//! `(a·b + m·p)/2^260 < 4p²/2^260 + p < p/4 + p < 2p`. Additions and subtractions propagate
//! carries with shifts and end with one masked correction by 2p (`a + b < 4p`, less 2p where
//! that is not negative; `a − b > −2p`, plus 2p where negative), so every operation keeps the
//! bound. Where `2^256 mod p` is small (SM2's p and n, pseudo-Mersenne shapes), the correction
//! is a fold instead, with no comparison: the bits of `a + b` (or `a − b + 4p`, or any small
//! combination `A·a + B·b + C·c` with a multiple of p added for the negative terms,
//! [`Lanes8::combine3`]) from 2^256 up are cleared and added back times `2^256 mod p`, which
//! lands below 2p — one fold for a whole combination in a point formula. Likewise a
//! combination of two products ([`Lanes8::mul_wide`], [`Wide8::combine`]) is reduced once,
//! not once per product. Only where values leave the lanes or are compared is the
//! representative reduced below p: [`Lanes8::to_fp`] ends with a conditional subtraction of
//! p, [`Lanes8::eq`] and [`Lanes8::is_zero`] compare modulo p.
//!
//! **Availability.** Every operation takes an [`Ifma`] token, which only [`Ifma::detect`] makes
//! from the crate's one CPU probe ([`backend::cpu::has_ifma`](crate::backend::cpu::has_ifma):
//! CPUID and the OS-enabled ZMM state in XCR0, via `cpufeatures`; the answer is cached). Callers
//! detect once per batch call and pass the token down.
//!
//! **Constant time.** Every operation is straight-line vector code: no branch or memory index
//! depends on lane values (selection is a mask blend; [`Lanes8::select_affine`] scans a whole
//! table row), except [`Lanes8::gather`] and
//! [`Lanes8::gather_mont`], which load at per-lane indices and are for public indices only
//! (variable-time code such as signature verification). [`Lanes8::eq`] and
//! [`Lanes8::is_zero`] return their per-lane answers as a bit mask.
#![allow(unsafe_code)]

use core::arch::x86_64::*;
use core::fmt;
use core::marker::PhantomData;

use crate::{Backend, Fp, Limbs, Modulus};

/// Proof that the CPU and OS support AVX-512F and AVX512-IFMA, required by every lane operation.
/// Only [`Ifma::detect`] makes one.
#[derive(Clone, Copy, Debug)]
pub struct Ifma(());

impl Ifma {
    /// `Some` where the CPU (and the OS) support AVX-512F and AVX512-IFMA. CPUID runs once
    /// (`cpufeatures` caches the answer); call this once per batch, not per operation.
    #[inline(always)]
    pub fn detect() -> Option<Self> {
        crate::backend::cpu::has_ifma().then_some(Self(()))
    }

    /// `f(self)`, run inside a function compiled for AVX-512F and AVX512-IFMA. The lane
    /// operations are `#[inline(always)]` without a `#[target_feature]` of their own: called
    /// from code compiled for the features (this function, and the `#[inline(always)]` code `f`
    /// inlines), each becomes inline vector code that the compiler schedules across operations;
    /// called from anywhere else, each intrinsic is an out-of-line call. Wrap a whole batch
    /// computation (a scalar multiplication, not one operation) in one `run`, and mark `f`
    /// (`t.run(#[inline(always)] |t| ...)`) and the helpers it calls `#[inline(always)]`.
    #[inline(always)]
    pub fn run<R>(self, f: impl FnOnce(Self) -> R) -> R {
        #[target_feature(enable = "avx512f,avx512ifma")]
        fn with<R>(t: Ifma, f: impl FnOnce(Ifma) -> R) -> R {
            f(t)
        }
        // SAFETY: the token proves that the CPU and the OS support AVX-512F and AVX512-IFMA.
        unsafe { with(self, f) }
    }
}

const MASK52: u64 = (1 << 52) - 1;

/// `2a mod p` for `a < p` (p > 2^255), at compile time.
const fn double_mod(a: &Limbs, p: &Limbs) -> Limbs {
    let top = a[3] >> 63;
    let d = [
        a[0] << 1,
        (a[1] << 1) | (a[0] >> 63),
        (a[2] << 1) | (a[1] >> 63),
        (a[3] << 1) | (a[2] >> 63),
    ];
    // d − p with borrow
    let mut s = [0u64; 4];
    let mut borrow = 0u64;
    let mut i = 0;
    while i < 4 {
        let (v, b1) = d[i].overflowing_sub(p[i]);
        let (v, b2) = v.overflowing_sub(borrow);
        s[i] = v;
        borrow = (b1 | b2) as u64;
        i += 1;
    }
    if top == 1 || borrow == 0 {
        s
    } else {
        d
    }
}

/// `2^k·a mod p` by `k` modular doublings, at compile time.
const fn shl_mod(a: &Limbs, k: u32, p: &Limbs) -> Limbs {
    let mut x = *a;
    let mut i = 0;
    while i < k {
        x = double_mod(&x, p);
        i += 1;
    }
    x
}

/// A 256-bit value in radix 2^52.
const fn split52(a: &Limbs) -> [u64; 5] {
    [
        a[0] & MASK52,
        ((a[0] >> 52) | (a[1] << 12)) & MASK52,
        ((a[1] >> 40) | (a[2] << 24)) & MASK52,
        ((a[2] >> 28) | (a[3] << 36)) & MASK52,
        a[3] >> 16,
    ]
}

/// `2a` for a radix-2^52 value `a < 2^259`, normalised.
const fn double52(a: &[u64; 5]) -> [u64; 5] {
    let mut r = [0u64; 5];
    let mut carry = 0;
    let mut j = 0;
    while j < 5 {
        let v = (a[j] << 1) + carry;
        r[j] = v & MASK52;
        carry = v >> 52;
        j += 1;
    }
    r
}

/// Per-modulus constants in radix 2^52.
struct Consts<M>(PhantomData<M>);
impl<M: Modulus> Consts<M> {
    const P: [u64; 5] = split52(&M::P);
    /// `2p` in radix 2^52 (below 2^257, so the top limb has room).
    const P2: [u64; 5] = double52(&Self::P);
    /// `−p⁻¹ mod 2^52`.
    const INV: u64 = M::INV & MASK52;
    /// `2^260 mod p`: one in lane form.
    const ONE: [u64; 5] = split52(&shl_mod(&M::R, 4, &M::P));
    /// `2^264 mod p`: multiplies R = 2^256 residues into lane form.
    const TO_LANE: [u64; 5] = split52(&shl_mod(&M::R, 8, &M::P));
    /// `2^256 mod p`: multiplies lane residues back to R = 2^256.
    const FROM_LANE: [u64; 5] = split52(&M::R);
    /// Whether sums, differences and small multiples are reduced by folding their bits from
    /// 2^256 up back in as multiples of `2^256 mod p` ([`k::fold`]): where `2^256 mod p` is
    /// below 2^240 (SM2's p and n; pseudo-Mersenne shapes). [`Combination`] checks each use's
    /// bound at compile time.
    const FOLDS: bool = M::R[3] >> 48 == 0;
}

/// `a·b` for a radix-2^52 value `a` and a small `b`, carried (the top limb keeps the rest), at
/// compile time.
const fn times52(a: &[u64; 5], b: u64) -> [u64; 5] {
    let mut r = [0u64; 5];
    let mut carry = 0;
    let mut j = 0;
    while j < 5 {
        let v = a[j] * b + carry;
        r[j] = if j < 4 { v & MASK52 } else { v };
        carry = v >> 52;
        j += 1;
    }
    r
}

/// The linear combination `A·a + B·b + C·c` of lane values below 2p ([`k::combine`]), for a
/// modulus that [folds](Consts::FOLDS): its constants and the compile-time checks of its bounds.
struct Combination<M, const A: u64, const B: i64, const C: i64>(PhantomData<M>);
impl<M: Modulus, const A: u64, const B: i64, const C: i64> Combination<M, A, B, C> {
    /// The subtracted multiples: `|B|` and `|C|` where negative.
    const NEG: u64 =
        (if B < 0 { B.unsigned_abs() } else { 0 }) + (if C < 0 { C.unsigned_abs() } else { 0 });
    /// The added multiples.
    const POS: u64 = A + (if B > 0 { B as u64 } else { 0 }) + (if C > 0 { C as u64 } else { 0 });
    /// `4·NEG·p` (at least twice the subtracted `< 2·NEG·p`) with `NEG·2^52` moved down into
    /// each of the four low limbs: adding it before subtracting `NEG` multiples of normalised
    /// limbs leaves every limb non-negative (the top limb too: checked in [`Self::FITS`]).
    const BIAS: [u64; 5] = {
        let q = times52(&Consts::<M>::P, 4 * Self::NEG);
        let n = Self::NEG;
        [
            q[0] + (n << 52),
            q[1] + (n << 52) - n,
            q[2] + (n << 52) - n,
            q[3] + (n << 52) - n,
            q[4] - n,
        ]
    };
    /// The sum before folding is below `UNITS·p` (inputs below 2p), so its bits from 2^256 up,
    /// `h`, are below `UNITS`.
    const UNITS: u64 = 2 * Self::POS + 4 * Self::NEG;
    /// The compile-time conditions of [`k::combine`]: coefficients up to 8 (limbs stay below
    /// 2^60); for a modulus that folds, the biased top limb covers `NEG` top limbs of values
    /// below 2p, and the folded value is below 2p ([`folds_below_2p`]).
    const FITS: bool = {
        let p2 = double52(&Consts::<M>::P);
        A >= 1
            && A <= 8
            && B.unsigned_abs() <= 8
            && C.unsigned_abs() <= 8
            && (!Consts::<M>::FOLDS
                || (Self::BIAS[4] >= Self::NEG * p2[4] && folds_below_2p::<M>(Self::UNITS)))
    };
}

/// Whether [`k::fold`] of a value below `units·p` (limbs below 2^60) lands below 2p: the
/// folded value `< 2^256 + 2^217 + units·(2^256 mod p)` compared with 2p in units of 2^192,
/// rounded up (true for moduli that do not fold: they never fold).
const fn folds_below_2p<M: Modulus>(units: u64) -> bool {
    let top = units as u128 * (M::R[3] as u128 + 1) + (1 << 64) + (1 << 25);
    !Consts::<M>::FOLDS || top < 2 * M::P[3] as u128
}

/// For [`k::combine_wide`] of `A·x + B·y`: the multiple `k` of p that makes the reduced value
/// non-negative (`⌈|B|/4⌉` for negative B), and `units` with the result below `units·p`
/// (`⌈(A + max(B, 0))/4⌉ + k + 1`).
const fn wide_bounds(a: u64, b: i64) -> (u64, u64) {
    let k = if b < 0 {
        b.unsigned_abs().div_ceil(4)
    } else {
        0
    };
    let pos = a + if b > 0 { b as u64 } else { 0 };
    (k, pos.div_ceil(4) + k + 1)
}

type L5 = [__m512i; 5];
/// Ten columns of an unreduced product.
type W10 = [__m512i; 10];

/// Eight elements of GF(`M::P`), one per 64-bit lane (see the module docs).
#[derive(Clone, Copy)]
#[repr(transparent)]
pub struct Lanes8<M: Modulus> {
    l: L5,
    _m: PhantomData<fn() -> M>,
}

/// The unreduced product of two [`Lanes8`] values (ten radix-2^52 columns per lane), made by
/// [`Lanes8::mul_wide`] and [`Lanes8::square_wide`]: for formulas that subtract or add
/// products, [`Wide8::combine`] reduces the whole combination once.
#[derive(Clone, Copy)]
pub struct Wide8<M: Modulus> {
    c: W10,
    _m: PhantomData<fn() -> M>,
}

impl<M: Modulus> Wide8<M> {
    /// `A·x + B·y` per lane, reduced (below 2p), `1 ≤ A ≤ 8`, `|B| ≤ 8` (checked at compile
    /// time): one Montgomery reduction for both products.
    #[inline(always)]
    pub fn combine<const A: u64, const B: i64>(_: Ifma, x: &Self, y: &Self) -> Lanes8<M> {
        // SAFETY: the token proves AVX-512F/IFMA.
        Lanes8::wrap(unsafe { k::combine_wide::<M, A, B>(&x.c, &y.c) })
    }

    /// The product, reduced: the same limbs as [`Lanes8::mul`] of the factors.
    #[inline(always)]
    pub fn reduce(&self, _: Ifma) -> Lanes8<M> {
        // SAFETY: the token proves AVX-512F/IFMA.
        Lanes8::wrap(unsafe { k::reduced::<M>(&self.c) })
    }
}

impl<M: Modulus> fmt::Debug for Lanes8<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lanes8")
            .field("modulus", &M::NAME)
            // The lane representatives (R' = 2^260, radix 2^52, below 2p), not canonical values.
            .field("limbs52", &self.raw_limbs52())
            .finish()
    }
}

/// The kernels, on raw limb vectors.
///
/// # Safety
/// Every function needs AVX-512F and AVX512-IFMA: callable only where the [`Ifma`] token proved
/// them. They carry no `#[target_feature]` of their own but are `#[inline(always)]`, so inside
/// [`Ifma::run`] (a function compiled for those features) a whole formula becomes one body of
/// inline vector code; called elsewhere, the intrinsics stay calls (correct, slower).
mod k {
    use super::*;

    #[inline(always)]
    pub(super) unsafe fn splat(c: &[u64; 5]) -> L5 {
        [
            _mm512_set1_epi64(c[0] as i64),
            _mm512_set1_epi64(c[1] as i64),
            _mm512_set1_epi64(c[2] as i64),
            _mm512_set1_epi64(c[3] as i64),
            _mm512_set1_epi64(c[4] as i64),
        ]
    }

    /// The Montgomery quotient digit `m = t0·(−p⁻¹) mod 2^52` per lane (the IFMA low half is the
    /// product mod 2^52). For SM2's p (≡ −1 mod 2^64) −p⁻¹ ≡ 1, so m is t0's low 52 bits: an
    /// AND instead of a multiplication on the critical path (decided at compile time).
    #[inline(always)]
    unsafe fn quotient_digit<M: Modulus>(t0: __m512i) -> __m512i {
        if Consts::<M>::INV == 1 {
            _mm512_and_si512(t0, _mm512_set1_epi64(MASK52 as i64))
        } else {
            let inv = _mm512_set1_epi64(Consts::<M>::INV as i64);
            _mm512_madd52lo_epu64(_mm512_setzero_si512(), t0, inv)
        }
    }

    /// One round of the Montgomery reduction on `t[0..6]`: the quotient digit `m` of `t0`
    /// ([`quotient_digit`], below 2^52), `t += m·p` (the low half of `m·p_j` at limb j, the
    /// high half at limb j + 1), and `t0`, then ≡ 0 mod 2^52, divided by 2^52 into `t1`
    /// (`t0` is left as it was). A limb of p equal to 2^52 − 1 (three of SM2's five: `p ≡ −1
    /// mod 2^52`, and the runs of ones of 2^256 − 2^224 − 2^96 + 2^64 − 1) needs no product:
    /// `m·(2^52 − 1)` at limb j is `−m` at limb j and `+m` at limb j + 1. These `±m` are summed
    /// per limb at compile time (SM2's p, limbs 0, 2 and 3 all ones: `+m` at limb 1, `−m` at
    /// limb 2, `+m` at limb 4 — the two at limb 3 cancel), and where `p_0 = 2^52 − 1`, so that
    /// `m = t0 mod 2^52`, `t0 − m` is `t0` with its low 52 bits cleared: the carry is
    /// `⌊t0/2^52⌋` without the subtraction. The accumulators are signed (see [`normalise`]).
    /// SM2's p: 4 IFMA products and 3 additions per digit instead of 10 products.
    #[inline(always)]
    // An indexed loop over constant bounds: LLVM unrolls it and folds the per-limb constants
    // (an iterator chain here was left rolled in some builds: verify batch 2× slower).
    #[allow(clippy::needless_range_loop)]
    unsafe fn reduce_round<M: Modulus>(t: &mut [__m512i], p: &L5) {
        let m = quotient_digit::<M>(t[0]);
        for j in 0..5 {
            if Consts::<M>::P[j] != MASK52 {
                t[j] = _mm512_madd52lo_epu64(t[j], m, p[j]);
                t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, p[j]);
            }
        }
        for j in 1..6 {
            match ones_at::<M>(j - 1) as i8 - ones_at::<M>(j) as i8 {
                1 => t[j] = _mm512_add_epi64(t[j], m),
                -1 => t[j] = _mm512_sub_epi64(t[j], m),
                _ => {}
            }
        }
        let carry = _mm512_srai_epi64::<52>(t[0]);
        t[1] = _mm512_add_epi64(t[1], carry);
    }

    /// Whether limb `j` of p is 2^52 − 1 (false past the top limb).
    #[inline(always)]
    const fn ones_at<M: Modulus>(j: usize) -> bool {
        j < 5 && Consts::<M>::P[j] == MASK52
    }

    /// Montgomery product `a·b·2^-260 mod p` per lane, below 2p, for normalised inputs with
    /// `a·b < p·2^258` (both below 2p; or one below 2^256 and the other below 2p): the result
    /// `(a·b + m·p)/2^260 < p/4 + p` (module docs). No final subtraction.
    #[inline(always)]
    pub(super) unsafe fn mul<M: Modulus>(a: &L5, b: &L5) -> L5 {
        let zero = _mm512_setzero_si512();
        let p = splat(&Consts::<M>::P);
        let mut t = [zero; 6];
        for ai in a {
            // t += a_i·b: low halves at limb j, high halves at limb j + 1 (t5 the new top limb).
            for j in 0..5 {
                t[j] = _mm512_madd52lo_epu64(t[j], *ai, b[j]);
            }
            for j in 0..5 {
                t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], *ai, b[j]);
            }
            reduce_round::<M>(&mut t, &p);
            t = [t[1], t[2], t[3], t[4], t[5], zero];
        }
        normalise([t[0], t[1], t[2], t[3], t[4]])
    }

    /// `a²·2^-260 mod p` per lane, the same integer as [`mul`]`(a, a)` (the Montgomery
    /// quotient `m` below 2^260 with `a² + m·p ≡ 0 mod 2^260` is unique, so the separate
    /// reduction ([`reduce`]) ends at the same value as the interleaved one).
    #[inline(always)]
    pub(super) unsafe fn square<M: Modulus>(a: &L5) -> L5 {
        reduced::<M>(&square_wide(a))
    }

    /// A product of values below 2p (below 4p²), reduced below 2p and normalised.
    #[inline(always)]
    pub(super) unsafe fn reduced<M: Modulus>(x: &W10) -> L5 {
        normalise(reduce::<M>(*x))
    }

    /// `a·b` as ten columns (the low half of `a_i·b_j` in column i + j, the high half in
    /// column i + j + 1; a column gathers at most ten halves below 2^52, so it is below 2^56),
    /// the low and high halves in separate accumulators (chains of at most five dependent
    /// IFMAs).
    #[inline(always)]
    pub(super) unsafe fn mul_wide(a: &L5, b: &L5) -> W10 {
        let zero = _mm512_setzero_si512();
        let (mut lo, mut hi) = ([zero; 10], [zero; 10]);
        for i in 0..5 {
            for j in 0..5 {
                lo[i + j] = _mm512_madd52lo_epu64(lo[i + j], a[i], b[j]);
                hi[i + j + 1] = _mm512_madd52hi_epu64(hi[i + j + 1], a[i], b[j]);
            }
        }
        let mut t = [zero; 10];
        for k in 0..10 {
            t[k] = _mm512_add_epi64(lo[k], hi[k]);
        }
        t
    }

    /// `a²` as ten columns (as [`mul_wide`]), with 15 products instead of 25: the cross
    /// products `a_i·a_j` (i < j) once, then doubled, and the five diagonal ones (the
    /// schoolbook squaring of Menezes–van Oorschot–Vanstone, *Handbook of Applied
    /// Cryptography*, Algorithm 14.16; doubling the accumulated sums, not the operands,
    /// because IFMA reads only 52 bits of each factor). A column gathers at most ten halves
    /// below 2^52 (doubled cross terms included).
    #[inline(always)]
    pub(super) unsafe fn square_wide(a: &L5) -> W10 {
        let zero = _mm512_setzero_si512();
        // Cross products a_i·a_j, i < j: low halves at limb i + j, high halves at i + j + 1,
        // in two sets of accumulators (chains of at most two dependent IFMAs each).
        let (mut lo, mut hi) = ([zero; 10], [zero; 10]);
        for i in 0..5 {
            for j in i + 1..5 {
                lo[i + j] = _mm512_madd52lo_epu64(lo[i + j], a[i], a[j]);
                hi[i + j + 1] = _mm512_madd52hi_epu64(hi[i + j + 1], a[i], a[j]);
            }
        }
        let mut t = [zero; 10];
        for k in 0..10 {
            let s = _mm512_add_epi64(lo[k], hi[k]);
            t[k] = _mm512_add_epi64(s, s);
        }
        for i in 0..5 {
            t[2 * i] = _mm512_madd52lo_epu64(t[2 * i], a[i], a[i]);
            t[2 * i + 1] = _mm512_madd52hi_epu64(t[2 * i + 1], a[i], a[i]);
        }
        t
    }

    /// Montgomery reduction of ten signed columns (|column| < 2^61, the value `T` ≥ −2^515),
    /// one 52-bit digit at a time (as in [`mul`]): five limbs, not normalised, of
    /// `(T + m·p)/2^260` with `m < 2^260` (`T + m·p ≡ 0 mod 2^260`; the quotient digit reads
    /// a column's low 52 bits, its residue whatever the sign, and each column then divides
    /// exactly). The rounds add at most ten halves below 2^52 and five carries to a column.
    #[inline(always)]
    unsafe fn reduce<M: Modulus>(mut t: W10) -> L5 {
        let p = splat(&Consts::<M>::P);
        for i in 0..5 {
            reduce_round::<M>(&mut t[i..i + 6], &p);
        }
        [t[5], t[6], t[7], t[8], t[9]]
    }

    /// `(A·x + B·y)·2^-260 mod p`, below 2p, for products `x`, `y` of values below 2p (so
    /// below 4p²), `1 ≤ A ≤ 8`, `|B| ≤ 8`: the columns combined and one [`reduce`] where
    /// reducing `x` and `y` and then combining them would take two. With [`Consts::FOLDS`]:
    /// the reduced value lies in `(−|B|·p/4, A·p/4 + p)` (`|B|·4p²/2^260 < |B|·p/4`), plus
    /// `⌈|B|/4⌉·p` it is non-negative and below `(A/4 + ⌈|B|/4⌉ + 1)·p`, then one [`fold`]
    /// (after normalising: the reduced limbs are signed). Otherwise `x` and `y` reduced and
    /// [`combine`]d.
    #[inline(always)]
    pub(super) unsafe fn combine_wide<M: Modulus, const A: u64, const B: i64>(
        x: &W10,
        y: &W10,
    ) -> L5 {
        const { assert!(A >= 1 && A <= 8 && B.unsigned_abs() <= 8) };
        if !Consts::<M>::FOLDS {
            let (x, y) = (reduced::<M>(x), reduced::<M>(y));
            return combine::<M, A, B, 0>(&x, &y, &y);
        }
        let mut s = *x;
        for j in 0..10 {
            s[j] = add_times(times(A, x[j]), B, y[j]);
        }
        let mut r = reduce::<M>(s);
        let (k, units) = const { wide_bounds(A, B) };
        const { assert!(folds_below_2p::<M>(wide_bounds(A, B).1)) };
        let p = splat(&Consts::<M>::P);
        for j in 0..5 {
            r[j] = _mm512_add_epi64(r[j], times(k, p[j]));
        }
        fold::<M>(normalise(r), units)
    }

    /// Propagates carries so that every limb is in [0, 2^52) (the top limb keeps what is left).
    /// The limbs are signed accumulators (a limb may be negative where [`reduce_round`]
    /// subtracted a digit, |limb| < 2^57): the carry is the arithmetic shift, `⌊t_j/2^52⌋`.
    #[inline(always)]
    unsafe fn normalise(mut t: L5) -> L5 {
        let mask = _mm512_set1_epi64(MASK52 as i64);
        for j in 0..4 {
            let carry = _mm512_srai_epi64::<52>(t[j]);
            t[j] = _mm512_and_si512(t[j], mask);
            t[j + 1] = _mm512_add_epi64(t[j + 1], carry);
        }
        t
    }

    /// `t − p` where that is non-negative, else `t`, for normalised `t` and `p` (below 2^260):
    /// below `p` where `t < 2p` (with `p` the modulus: the canonical representative; with `p`
    /// = 2p and `t < 4p`: below 2p).
    #[inline(always)]
    unsafe fn sub_p_if_ge(t: L5, p: &L5) -> L5 {
        let mask = _mm512_set1_epi64(MASK52 as i64);
        let zero = _mm512_setzero_si512();
        let mut d = [zero; 5];
        let mut borrow = zero;
        for j in 0..5 {
            let x = _mm512_add_epi64(_mm512_sub_epi64(t[j], p[j]), borrow);
            borrow = _mm512_srai_epi64::<52>(x);
            d[j] = x;
        }
        let keep_t = _mm512_cmplt_epi64_mask(d[4], zero);
        let mut r = [zero; 5];
        for j in 0..5 {
            r[j] = _mm512_mask_blend_epi64(keep_t, _mm512_and_si512(d[j], mask), t[j]);
        }
        r
    }

    /// Reduces `s` (limbs in [0, 2^60), a value below `units·p`) below 2p and normalises it,
    /// for a modulus with [`Consts::FOLDS`]: the bits from 2^256 up, `h < units`, are cleared
    /// and `h·c` added back, `c = 2^256 mod p` (`Consts::FROM_LANE`): per nonzero limb of `c`
    /// one low-half IFMA, and a high half where `h·c_j` can reach 2^52 (SM2's p,
    /// `2^256 ≡ 2^224 + 2^96 − 2^64 + 1`, needs three low halves). The result is below
    /// `2^256 + 2^217 + units·c < 2p` ([`folds_below_2p`]); no comparison, no selection.
    /// (`units` is a constant of the caller; the tests on it vanish once inlined.)
    #[inline(always)]
    unsafe fn fold<M: Modulus>(mut s: L5, units: u64) -> L5 {
        let h = _mm512_srli_epi64::<48>(s[4]);
        s[4] = _mm512_and_si512(s[4], _mm512_set1_epi64((1 << 48) - 1));
        for j in 0..5 {
            let c = Consts::<M>::FROM_LANE[j];
            let cv = _mm512_set1_epi64(c as i64);
            if c != 0 {
                s[j] = _mm512_madd52lo_epu64(s[j], h, cv);
            }
            // `c < 2^240`: the top limb is below 2^32, so j + 1 < 5 here.
            if (units - 1) * c >= 1 << 52 {
                s[j + 1] = _mm512_madd52hi_epu64(s[j + 1], h, cv);
            }
        }
        normalise(s)
    }

    /// `k·x` per 64-bit lane, `k < 16`, by shifts and additions (`k` a constant of the caller).
    #[inline(always)]
    unsafe fn times(k: u64, x: __m512i) -> __m512i {
        let mut s = _mm512_setzero_si512();
        for b in 0..4 {
            if k >> b & 1 == 1 {
                s = _mm512_add_epi64(s, _mm512_sllv_epi64(x, _mm512_set1_epi64(b as i64)));
            }
        }
        s
    }

    /// `k·a mod p`, below 2p, for `a` below 2p and `k ≥ 1` (a constant of the caller), by
    /// doublings and additions left to right over the bits of `k`.
    #[inline(always)]
    unsafe fn times_mod<M: Modulus>(k: u64, a: &L5) -> L5 {
        let mut r = *a;
        for b in (0..63 - k.leading_zeros()).rev() {
            r = add::<M>(&r, &r);
            if k >> b & 1 == 1 {
                r = add::<M>(&r, a);
            }
        }
        r
    }

    /// `A·a + B·b + C·c mod p`, below 2p, for inputs below 2p, `1 ≤ A ≤ 8` and
    /// `|B|, |C| ≤ 8` (a zero coefficient leaves its operand out). With [`Consts::FOLDS`]:
    /// the limbs combined, [`Combination::BIAS`] added for the subtracted terms (every limb
    /// stays non-negative), then one [`fold`] — one reduction for the whole combination where
    /// separate additions, subtractions and multiples would fold after each. Otherwise
    /// composed of [`add`], [`sub`] and doublings.
    #[inline(always)]
    pub(super) unsafe fn combine<M: Modulus, const A: u64, const B: i64, const C: i64>(
        a: &L5,
        b: &L5,
        c: &L5,
    ) -> L5 {
        const { assert!(Combination::<M, A, B, C>::FITS) };
        if !Consts::<M>::FOLDS {
            let r = times_mod::<M>(A, a);
            let r = add_times_mod::<M>(&r, B, b);
            return add_times_mod::<M>(&r, C, c);
        }
        let mut s = splat(&Combination::<M, A, B, C>::BIAS);
        for j in 0..5 {
            s[j] = add_times(s[j], A as i64, a[j]);
            s[j] = add_times(s[j], B, b[j]);
            s[j] = add_times(s[j], C, c[j]);
        }
        fold::<M>(s, Combination::<M, A, B, C>::UNITS)
    }

    /// `s + k·x` per 64-bit lane, `|k| < 16` (a constant of the caller).
    #[inline(always)]
    unsafe fn add_times(s: __m512i, k: i64, x: __m512i) -> __m512i {
        match k {
            0 => s,
            1.. => _mm512_add_epi64(s, times(k.unsigned_abs(), x)),
            _ => _mm512_sub_epi64(s, times(k.unsigned_abs(), x)),
        }
    }

    /// `r + k·a mod p` for the moduli that do not fold ([`times_mod`], [`add`], [`sub`]).
    #[inline(always)]
    unsafe fn add_times_mod<M: Modulus>(r: &L5, k: i64, a: &L5) -> L5 {
        match k {
            0 => *r,
            1.. => add::<M>(r, &times_mod::<M>(k.unsigned_abs(), a)),
            _ => sub::<M>(r, &times_mod::<M>(k.unsigned_abs(), a)),
        }
    }

    /// `a + b mod p`, below 2p (inputs below 2p): [`combine`] where the modulus folds, else
    /// the sum (below 4p) less 2p where that is not negative.
    #[inline(always)]
    pub(super) unsafe fn add<M: Modulus>(a: &L5, b: &L5) -> L5 {
        if Consts::<M>::FOLDS {
            return combine::<M, 1, 1, 0>(a, b, b);
        }
        let mut s = *a;
        for j in 0..5 {
            s[j] = _mm512_add_epi64(a[j], b[j]);
        }
        sub_p_if_ge(normalise(s), &splat(&Consts::<M>::P2))
    }

    /// `a − b mod p`, below 2p (inputs below 2p): [`combine`] where the modulus folds, else
    /// `a − b > −2p`, plus 2p where negative.
    #[inline(always)]
    pub(super) unsafe fn sub<M: Modulus>(a: &L5, b: &L5) -> L5 {
        if Consts::<M>::FOLDS {
            return combine::<M, 1, -1, 0>(a, b, b);
        }
        let mask = _mm512_set1_epi64(MASK52 as i64);
        let zero = _mm512_setzero_si512();
        let p = splat(&Consts::<M>::P2);
        let mut d = [zero; 5];
        let mut borrow = zero;
        for j in 0..5 {
            let x = _mm512_add_epi64(_mm512_sub_epi64(a[j], b[j]), borrow);
            borrow = _mm512_srai_epi64::<52>(x);
            d[j] = _mm512_and_si512(x, mask);
        }
        // Negative lanes (borrow out of the top limb) add 2p back, modulo 2^260.
        let neg = _mm512_cmplt_epi64_mask(borrow, zero);
        let mut carry = zero;
        for j in 0..5 {
            let x = _mm512_add_epi64(
                _mm512_add_epi64(d[j], _mm512_maskz_mov_epi64(neg, p[j])),
                carry,
            );
            carry = _mm512_srli_epi64::<52>(x);
            d[j] = _mm512_and_si512(x, mask);
        }
        d
    }

    /// Lane mask of equal limbs.
    #[inline(always)]
    unsafe fn same(a: &L5, b: &L5) -> u8 {
        let mut m = 0xff;
        for j in 0..5 {
            m &= _mm512_cmpeq_epi64_mask(a[j], b[j]);
        }
        m
    }

    /// The representative below p of each lane (below 2p).
    #[inline(always)]
    pub(super) unsafe fn canonical<M: Modulus>(a: &L5) -> L5 {
        sub_p_if_ge(*a, &splat(&Consts::<M>::P))
    }

    /// Lane mask of `a ≡ b (mod p)`: equal canonical representatives.
    #[inline(always)]
    pub(super) unsafe fn eq<M: Modulus>(a: &L5, b: &L5) -> u8 {
        same(&canonical::<M>(a), &canonical::<M>(b))
    }

    /// The representative below p in the lanes outside `mask`, the one in [p, 2p) in the lanes
    /// of `mask` (the canonical `c < p` plus p: below 2^260, one carry pass normalises it).
    #[inline(always)]
    pub(super) unsafe fn lift<M: Modulus>(mask: u8, a: &L5) -> L5 {
        let c = canonical::<M>(a);
        let p = splat(&Consts::<M>::P);
        let mut s = c;
        for j in 0..5 {
            s[j] = _mm512_add_epi64(c[j], p[j]);
        }
        select(mask, &c, &normalise(s))
    }

    /// Lane mask of `a ≡ 0 (mod p)`: the representative (below 2p) is 0 or p.
    #[inline(always)]
    pub(super) unsafe fn is_zero<M: Modulus>(a: &L5) -> u8 {
        same(a, &splat(&[0; 5])) | same(a, &splat(&Consts::<M>::P))
    }

    /// Lane `i` from `b` where bit `i` of `mask` is set, else from `a`.
    #[inline(always)]
    pub(super) unsafe fn select(mask: u8, a: &L5, b: &L5) -> L5 {
        let mut r = *a;
        for j in 0..5 {
            r[j] = _mm512_mask_blend_epi64(mask, a[j], b[j]);
        }
        r
    }

    /// `(x >> R) | (y << L)` masked to 52 bits: one 52-bit limb straddling two 64-bit words.
    #[inline(always)]
    unsafe fn straddle<const R: u32, const L: u32>(x: __m512i, y: __m512i) -> __m512i {
        _mm512_and_si512(
            _mm512_or_si512(_mm512_srli_epi64::<R>(x), _mm512_slli_epi64::<L>(y)),
            _mm512_set1_epi64(MASK52 as i64),
        )
    }

    /// Four vectors of 64-bit limbs (limb j of element i in lane i of vector j) to radix 2^52.
    #[inline(always)]
    unsafe fn to52(l: &[__m512i; 4]) -> L5 {
        [
            _mm512_and_si512(l[0], _mm512_set1_epi64(MASK52 as i64)),
            straddle::<52, 12>(l[0], l[1]),
            straddle::<40, 24>(l[1], l[2]),
            straddle::<28, 36>(l[2], l[3]),
            _mm512_srli_epi64::<16>(l[3]),
        ]
    }

    /// Lane form of the elements whose Montgomery limbs (R = 2^256) are the columns:
    /// `cols[j][i]` is limb j of element i.
    #[inline(always)]
    pub(super) unsafe fn from_mont_cols<M: Modulus>(cols: &[[u64; 8]; 4]) -> L5 {
        let l64 = cols.map(|c| words(&c));
        mul::<M>(&to52(&l64), &splat(&Consts::<M>::TO_LANE))
    }

    /// Inverse of [`from_mont_cols`].
    #[inline(always)]
    pub(super) unsafe fn to_mont_cols<M: Modulus>(a: &L5) -> [[u64; 8]; 4] {
        let r = to64(&canonical::<M>(&mul::<M>(
            a,
            &splat(&Consts::<M>::FROM_LANE),
        )));
        let mut cols = [[0u64; 8]; 4];
        for (c, v) in cols.iter_mut().zip(r) {
            // SAFETY: `c` is 64 writable bytes; AVX-512F is enabled here.
            unsafe { _mm512_storeu_si512(c.as_mut_ptr().cast(), v) };
        }
        cols
    }

    /// Radix 2^52 (normalised, below 2^256) to four vectors of 64-bit limbs.
    #[inline(always)]
    unsafe fn to64(r: &L5) -> [__m512i; 4] {
        [
            _mm512_or_si512(r[0], _mm512_slli_epi64::<52>(r[1])),
            _mm512_or_si512(_mm512_srli_epi64::<12>(r[1]), _mm512_slli_epi64::<40>(r[2])),
            _mm512_or_si512(_mm512_srli_epi64::<24>(r[2]), _mm512_slli_epi64::<28>(r[3])),
            _mm512_or_si512(_mm512_srli_epi64::<36>(r[3]), _mm512_slli_epi64::<16>(r[4])),
        ]
    }

    /// The eight words as one vector: lane `i` = `w[i]`.
    #[inline(always)]
    pub(super) unsafe fn words(w: &[u64; 8]) -> __m512i {
        _mm512_loadu_si512(w.as_ptr().cast())
    }

    /// Indices of eight lanes as a vector (each below 2^32).
    #[inline(always)]
    unsafe fn idx_vec(idx: &[usize; 8]) -> __m512i {
        words(&idx.map(|i| i as u64))
    }

    /// `x·c` per lane for `x, c < 2^32` (`vpmuludq`; no AVX512-DQ needed).
    #[inline(always)]
    unsafe fn mul_small(x: __m512i, c: u32) -> __m512i {
        _mm512_mul_epu32(x, _mm512_set1_epi64(c as i64))
    }

    /// Lane `i` of limb vector `j` = lane `i` of limb `j` of element `idx[i]` of a table of
    /// `Lanes8` values.
    ///
    /// # Safety
    /// Every `idx[i]` is below the number of readable `L5` values at `table`, and below 2^32/40.
    #[inline(always)]
    pub(super) unsafe fn gather(table: *const L5, idx: &[usize; 8]) -> L5 {
        // In units of u64: element e, limb j, lane i at 40·e + 8·j + i.
        let lane = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
        let base = _mm512_add_epi64(mul_small(idx_vec(idx), 40), lane);
        let p = table.cast::<i64>();
        let mut r = [_mm512_setzero_si512(); 5];
        for (j, rj) in r.iter_mut().enumerate() {
            let off = _mm512_add_epi64(base, _mm512_set1_epi64(8 * j as i64));
            // SAFETY: the offsets address lane i of limb j of element idx[i], inside the table
            // (the caller's guarantee).
            *rj = unsafe { _mm512_i64gather_epi64::<8>(off, p) };
        }
        r
    }

    /// Lane form of the affine points whose Montgomery limbs (R = 2^256) are `row[idx[i]]` =
    /// `x ‖ y`, by a masked scan of every entry (lanes whose index is out of range get zeros).
    #[inline(always)]
    pub(super) unsafe fn scan_affine<M: Modulus>(row: &[[u64; 8]], idx: &[u64; 8]) -> (L5, L5) {
        let iv = words(idx);
        let mut l64 = [_mm512_setzero_si512(); 8];
        for (j, e) in row.iter().enumerate() {
            let m = _mm512_cmpeq_epi64_mask(iv, _mm512_set1_epi64(j as i64));
            for (l, v) in l64.iter_mut().zip(e) {
                *l = _mm512_mask_blend_epi64(m, *l, _mm512_set1_epi64(*v as i64));
            }
        }
        let c = splat(&Consts::<M>::TO_LANE);
        let x = [l64[0], l64[1], l64[2], l64[3]];
        let y = [l64[4], l64[5], l64[6], l64[7]];
        (mul::<M>(&to52(&x), &c), mul::<M>(&to52(&y), &c))
    }

    /// Lane form of the elements whose Montgomery limbs (R = 2^256) are the u64s at offsets
    /// `idx[i]·stride + at + j`, j < 4, of `table`.
    ///
    /// # Safety
    /// Every such offset addresses a readable u64 of `table`, and is below 2^32.
    #[inline(always)]
    pub(super) unsafe fn gather_mont<M: Modulus>(
        table: *const u64,
        idx: &[usize; 8],
        stride: u32,
        at: u32,
    ) -> L5 {
        let base = _mm512_add_epi64(
            mul_small(idx_vec(idx), stride),
            _mm512_set1_epi64(at as i64),
        );
        let p = table.cast::<i64>();
        let mut l64 = [_mm512_setzero_si512(); 4];
        for (j, lj) in l64.iter_mut().enumerate() {
            let off = _mm512_add_epi64(base, _mm512_set1_epi64(j as i64));
            // SAFETY: the caller guarantees these offsets lie within the table.
            *lj = unsafe { _mm512_i64gather_epi64::<8>(off, p) };
        }
        mul::<M>(&to52(&l64), &splat(&Consts::<M>::TO_LANE))
    }
}

impl<M: Modulus> Lanes8<M> {
    #[inline(always)]
    const fn wrap(l: L5) -> Self {
        Self { l, _m: PhantomData }
    }

    /// All lanes zero.
    #[inline(always)]
    pub fn zero(_: Ifma) -> Self {
        // SAFETY: the token proves AVX-512F.
        Self::wrap(unsafe { k::splat(&[0; 5]) })
    }

    /// All lanes one.
    #[inline(always)]
    pub fn one(_: Ifma) -> Self {
        // SAFETY: the token proves AVX-512F.
        Self::wrap(unsafe { k::splat(&Consts::<M>::ONE) })
    }

    /// Every lane `v`.
    #[inline(always)]
    pub fn splat<B: Backend>(t: Ifma, v: &Fp<M, B>) -> Self {
        Self::from_fp(t, &[*v; 8])
    }

    /// Lane `i` = `v[i]`.
    #[inline(always)]
    pub fn from_fp<B: Backend>(_: Ifma, v: &[Fp<M, B>; 8]) -> Self {
        let mut cols = [[0u64; 8]; 4];
        for (i, x) in v.iter().enumerate() {
            for (c, limb) in cols.iter_mut().zip(x.to_mont_limbs()) {
                c[i] = limb;
            }
        }
        // SAFETY: the token proves AVX-512F/IFMA.
        Self::wrap(unsafe { k::from_mont_cols::<M>(&cols) })
    }

    /// The eight elements.
    #[inline(always)]
    pub fn to_fp<B: Backend>(&self, _: Ifma) -> [Fp<M, B>; 8] {
        // SAFETY: the token proves AVX-512F/IFMA.
        let cols = unsafe { k::to_mont_cols::<M>(&self.l) };
        core::array::from_fn(|i| {
            Fp::from_mont_unchecked([cols[0][i], cols[1][i], cols[2][i], cols[3][i]])
        })
    }

    /// `self + rhs` per lane.
    #[inline(always)]
    pub fn add(&self, _: Ifma, rhs: &Self) -> Self {
        // SAFETY: the token proves AVX-512F.
        Self::wrap(unsafe { k::add::<M>(&self.l, &rhs.l) })
    }

    /// `self − rhs` per lane.
    #[inline(always)]
    pub fn sub(&self, _: Ifma, rhs: &Self) -> Self {
        // SAFETY: the token proves AVX-512F.
        Self::wrap(unsafe { k::sub::<M>(&self.l, &rhs.l) })
    }

    /// `−self` per lane.
    #[inline(always)]
    pub fn neg(&self, t: Ifma) -> Self {
        Self::zero(t).sub(t, self)
    }

    /// `2·self` per lane.
    #[inline(always)]
    pub fn double(&self, t: Ifma) -> Self {
        self.add(t, self)
    }

    /// `K·self` per lane, `1 ≤ K ≤ 8` (for SM2's moduli one reduction instead of one per
    /// doubling).
    #[inline(always)]
    pub fn mul_small<const K: u64>(&self, t: Ifma) -> Self {
        Self::combine::<K, 0>(t, self, self)
    }

    /// `A·a + B·b` per lane, `1 ≤ A ≤ 8`, `|B| ≤ 8` (checked at compile time): for SM2's
    /// moduli one reduction for the whole combination (sums, differences and small multiples
    /// folded once), elsewhere composed of additions and subtractions.
    #[inline(always)]
    pub fn combine<const A: u64, const B: i64>(t: Ifma, a: &Self, b: &Self) -> Self {
        Self::combine3::<A, B, 0>(t, a, b, b)
    }

    /// `A·a + B·b + C·c` per lane, `1 ≤ A ≤ 8`, `|B|, |C| ≤ 8`: [`combine`](Self::combine)
    /// with three terms.
    #[inline(always)]
    pub fn combine3<const A: u64, const B: i64, const C: i64>(
        _: Ifma,
        a: &Self,
        b: &Self,
        c: &Self,
    ) -> Self {
        // SAFETY: the token proves AVX-512F/IFMA.
        Self::wrap(unsafe { k::combine::<M, A, B, C>(&a.l, &b.l, &c.l) })
    }

    /// `self · rhs` per lane.
    #[inline(always)]
    pub fn mul(&self, _: Ifma, rhs: &Self) -> Self {
        // SAFETY: the token proves AVX-512F/IFMA.
        Self::wrap(unsafe { k::mul::<M>(&self.l, &rhs.l) })
    }

    /// `self²` per lane (15 products for the square instead of 25; the same limbs as
    /// [`mul`](Self::mul) of `self` by itself).
    #[inline(always)]
    pub fn square(&self, _: Ifma) -> Self {
        // SAFETY: the token proves AVX-512F/IFMA.
        Self::wrap(unsafe { k::square::<M>(&self.l) })
    }

    /// `self · rhs` per lane, unreduced: for [`Wide8::combine`].
    #[inline(always)]
    pub fn mul_wide(&self, _: Ifma, rhs: &Self) -> Wide8<M> {
        Wide8 {
            // SAFETY: the token proves AVX-512F/IFMA.
            c: unsafe { k::mul_wide(&self.l, &rhs.l) },
            _m: PhantomData,
        }
    }

    /// `self²` per lane, unreduced (15 products): for [`Wide8::combine`].
    #[inline(always)]
    pub fn square_wide(&self, _: Ifma) -> Wide8<M> {
        Wide8 {
            // SAFETY: the token proves AVX-512F/IFMA.
            c: unsafe { k::square_wide(&self.l) },
            _m: PhantomData,
        }
    }

    /// Lane `i` from `b` where bit `i` of `mask` is set, else from `a` (a mask blend: constant
    /// time in the mask).
    #[inline(always)]
    pub fn select(_: Ifma, mask: u8, a: &Self, b: &Self) -> Self {
        // SAFETY: the token proves AVX-512F.
        Self::wrap(unsafe { k::select(mask, &a.l, &b.l) })
    }

    /// Bit `i` set where lane `i` of `self` equals lane `i` of `rhs` (as elements: the
    /// representatives are reduced below p first).
    #[inline(always)]
    pub fn eq(&self, _: Ifma, rhs: &Self) -> u8 {
        // SAFETY: the token proves AVX-512F.
        unsafe { k::eq::<M>(&self.l, &rhs.l) }
    }

    /// Bit `i` set where lane `i` is zero (its representative is 0 or p).
    #[inline(always)]
    pub fn is_zero(&self, _: Ifma) -> u8 {
        // SAFETY: the token proves AVX-512F.
        unsafe { k::is_zero::<M>(&self.l) }
    }

    /// Test hook for the lazy reduction: the same elements, with the lanes of `mask` moved to
    /// their representative in `[p, 2p)` (the others reduced below p).
    #[doc(hidden)]
    #[inline]
    pub fn lift_to_p_2p(&self, _: Ifma, mask: u8) -> Self {
        // SAFETY: the token proves AVX-512F.
        Self::wrap(unsafe { k::lift::<M>(mask, &self.l) })
    }

    /// Test hook for the lazy reduction: the raw representatives, lane `i` as five radix-2^52
    /// limbs (least significant first), to check the bounds (limbs below 2^52, value below 2p).
    #[doc(hidden)]
    pub fn raw_limbs52(&self) -> [[u64; 5]; 8] {
        let mut limbs = [[0u64; 8]; 5];
        for (dst, v) in limbs.iter_mut().zip(self.l.iter()) {
            // SAFETY: `__m512i` and `[u64; 8]` have the same size, and every bit pattern is a
            // valid `[u64; 8]`.
            *dst = unsafe { core::mem::transmute::<__m512i, [u64; 8]>(*v) };
        }
        core::array::from_fn(|i| core::array::from_fn(|j| limbs[j][i]))
    }

    /// Lane `i` = lane `i` of `table[idx[i]]`. The load addresses depend on `idx`: public
    /// indices only (variable-time code). Panics unless every `idx[i] < table.len()`.
    #[inline(always)]
    pub fn gather(_: Ifma, table: &[Self], idx: &[usize; 8]) -> Self {
        assert!(
            idx.iter().all(|&i| i < table.len()) && table.len() <= (u32::MAX / 40) as usize,
            "lane gather index out of range"
        );
        // SAFETY: the token proves AVX-512F; every index is below `table.len()` (checked), and
        // `Lanes8` is `repr(transparent)` over five `__m512i`.
        Self::wrap(unsafe { k::gather(table.as_ptr().cast(), idx) })
    }

    /// Lane `i` = the affine point `(x, y)` whose Montgomery limbs (R = 2^256, as
    /// [`Fp::to_mont_limbs`]) are `row[idx[i]]` = `x ‖ y` (the layout of a comb row), reading
    /// every entry of `row` and keeping the matching one by mask blends: the memory accesses and
    /// the instructions do not depend on `idx`, so the indices may be secret. A lane whose index
    /// is not below `row.len()` gets `(0, 0)`.
    #[inline(always)]
    pub fn select_affine(_: Ifma, row: &[[u64; 8]], idx: &[u64; 8]) -> (Self, Self) {
        // SAFETY: the token proves AVX-512F/IFMA.
        let (x, y) = unsafe { k::scan_affine::<M>(row, idx) };
        (Self::wrap(x), Self::wrap(y))
    }

    /// Lane `i` = the element whose Montgomery limbs (R = 2^256, as
    /// [`Fp::to_mont_limbs`]) are `table[idx[i]][at..at + 4]`; for tables of raw limbs such as
    /// a comb of affine points stored `x ‖ y`. The limbs should be below p (then the lane equals
    /// the element of [`Fp::from_mont_limbs`]); any 256-bit value gives some element. The load
    /// addresses depend on `idx`: public indices only. Panics unless every `idx[i] <
    /// table.len()` and `at + 4 ≤ L`.
    #[inline(always)]
    pub fn gather_mont<const L: usize>(
        _: Ifma,
        table: &[[u64; L]],
        idx: &[usize; 8],
        at: usize,
    ) -> Self {
        assert!(
            at + 4 <= L
                && idx.iter().all(|&i| i < table.len())
                && table.len().saturating_mul(L) <= u32::MAX as usize,
            "lane gather index out of range"
        );
        // SAFETY: the token proves AVX-512F/IFMA; every offset `idx[i]·L + at + j` (j < 4) lies
        // inside the table and below 2^32 (checked above).
        Self::wrap(unsafe { k::gather_mont::<M>(table.as_ptr().cast(), idx, L as u32, at as u32) })
    }
}

/// Table lookups at secret per-lane indices (SM2 batch decryption's variable-base scalar
/// multiplication reads its per-lane table of multiples this way).
impl<M: Modulus> Lanes8<M> {
    /// Lane `i` of output `c` = lane `i` of `table[idx[i]][c]`, reading every entry of `table`
    /// and keeping the matching one by mask blends: the memory accesses and the instructions do
    /// not depend on `idx`, so the indices may be secret. A lane whose index is not below
    /// `table.len()` gets zero in every output.
    #[inline]
    pub fn select_scan<const N: usize>(_: Ifma, table: &[[Self; N]], idx: &[u64; 8]) -> [Self; N] {
        // SAFETY: the token proves AVX-512F.
        unsafe { scan_table(table, idx) }
    }
}

/// [`Lanes8::select_scan`].
#[inline]
#[target_feature(enable = "avx512f")]
fn scan_table<M: Modulus, const N: usize>(
    table: &[[Lanes8<M>; N]],
    idx: &[u64; 8],
) -> [Lanes8<M>; N] {
    // SAFETY: reads the 64 bytes of `idx`; this function is compiled for AVX-512F.
    let iv = unsafe { k::words(idx) };
    let mut r = [[_mm512_setzero_si512(); 5]; N];
    for (j, entry) in table.iter().enumerate() {
        let m = _mm512_cmpeq_epi64_mask(iv, _mm512_set1_epi64(j as i64));
        for (rc, ec) in r.iter_mut().zip(entry) {
            for (rl, el) in rc.iter_mut().zip(&ec.l) {
                *rl = _mm512_mask_blend_epi64(m, *rl, *el);
            }
        }
    }
    r.map(Lanes8::wrap)
}
