//! Portable backend for targets without a 64 × 64 → 128-bit multiply (32-bit targets such as
//! wasm32; elsewhere an independent second implementation): no `u128`, and every product is one
//! of 32-bit operands. Addition and subtraction run on the shared 4 × 64-bit limbs with carries
//! from `overflowing_add`/`overflowing_sub`; multiplication converts to nine 29-bit digits and
//! accumulates with lazy carries.

use super::Backend;
use crate::{Limbs, Modulus};

/// Portable backend without 128-bit products.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct U32;

/// `a + b + carry` as (sum, carry out ∈ {0, 1}).
#[inline(always)]
fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let (s, c1) = a.overflowing_add(b);
    let (s, c2) = s.overflowing_add(carry);
    (s, (c1 | c2) as u64)
}

/// `a - b - borrow` as (difference, borrow out ∈ {0, 1}).
#[inline(always)]
fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let (d, b1) = a.overflowing_sub(b);
    let (d, b2) = d.overflowing_sub(borrow);
    (d, (b1 | b2) as u64)
}

/// `hi·2^256 + r` (below 2p) reduced to `[0, p)` in constant time.
#[inline(always)]
fn reduce_once(r: Limbs, hi: u64, p: &Limbs) -> Limbs {
    let mut s = [0u64; 4];
    let mut b = 0;
    for ((s, &r), &p) in s.iter_mut().zip(&r).zip(p) {
        (*s, b) = sbb(r, p, b);
    }
    let (_, b) = sbb(hi, 0, b);
    // `black_box`: without it LLVM turned this select into a branch on the borrow (a
    // secret-dependent branch in every addition, found by `cargo xtask ct` under valgrind).
    let keep = core::hint::black_box(b.wrapping_neg());
    core::array::from_fn(|i| (r[i] & keep) | (s[i] & !keep))
}

const MASK29: u64 = (1 << 29) - 1;

/// The nine 29-bit digits of `x·2^shift` (`shift ≤ 5`, so `x·2^shift < 2^261`), each in a `u64`.
///
/// The multiplication's representation: 32-bit targets such as wasm32 multiply 32 × 32 → 64 bits
/// natively but have no 64 × 64 → 128 product, and a 29-bit digit leaves a 64-bit accumulator six
/// bits of headroom, so the sums need no carry chain (unsaturated limbs, as 32-bit elliptic-curve
/// code uses them: radix 2^25.5 in Bernstein's Curve25519, 2006, §4; Montgomery's digit-serial
/// reduction otherwise as in CIOS, Koç, Acar, Kaliski 1996).
#[inline(always)]
fn to_radix29(x: &Limbs, shift: u32) -> [u64; 9] {
    let w = [
        x[0] << shift,
        x[1] << shift | x[0] >> (63 - shift) >> 1,
        x[2] << shift | x[1] >> (63 - shift) >> 1,
        x[3] << shift | x[2] >> (63 - shift) >> 1,
        x[3] >> (63 - shift) >> 1,
    ];
    let mut d = [0u64; 9];
    for (k, d) in d.iter_mut().enumerate() {
        let (word, bit) = (29 * k / 64, 29 * k % 64);
        let mut v = w[word] >> bit;
        if bit > 35 {
            v |= w[word + 1] << (64 - bit);
        }
        *d = v & MASK29;
    }
    d
}

/// One Montgomery digit step: `t = (t + a·bi + m·p) / 2^29` with `m` chosen so the division is
/// exact, carries left in the accumulator except the one shifted out of position 0.
#[inline(always)]
fn digit_step(t: &mut [u64; 9], a: &[u64; 9], bi: u64, p: &[u64; 9], inv: u64) {
    for j in 0..9 {
        t[j] += a[j] * bi;
    }
    let m = t[0].wrapping_mul(inv) & MASK29;
    for j in 0..9 {
        t[j] += m * p[j];
    }
    // t[0] ≡ 0 mod 2^29 now: shift the accumulator down by one digit.
    let carry = t[0] >> 29;
    *t = [t[1] + carry, t[2], t[3], t[4], t[5], t[6], t[7], t[8], 0];
}

/// Column `K` of the schoolbook product of two digit vectors, `Σ_{i+j=K} a[i]·b[j]`, without
/// carries, in wrapping 64-bit arithmetic: exact where the column's true value fits, and
/// combinations of columns are exact wherever the combination's true value fits. `K` is a
/// constant so that the loop unrolls (wasm32 kept variable-bound loops and their arrays in
/// memory: 2.2× slower).
#[inline(always)]
fn column<const K: usize>(a: &[u64; 9], b: &[u64; 9]) -> u64 {
    let mut s = 0u64;
    let mut i = K.saturating_sub(8);
    while i <= if K < 8 { K } else { 8 } {
        s = s.wrapping_add(a[i].wrapping_mul(b[K - i]));
        i += 1;
    }
    s
}

/// Calls `$f::<K>($args)` for K = 0…16 into an array.
macro_rules! for_columns {
    ($f:ident $args:tt) => {
        for_columns!(@ $f $args; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
    };
    (@ $f:ident $args:tt; $($k:literal)*) => {
        [$($f::<$k> $args),*]
    };
}

/// The 17 columns of the schoolbook product (see [`column`]).
#[inline(always)]
fn columns(a: &[u64; 9], b: &[u64; 9]) -> [u64; 17] {
    for_columns!(column(a, b))
}

/// `x − q` if `x ≥ q`, else `x`, for five-limb values (constant time).
#[inline(always)]
fn sub_if_ge(x: [u64; 5], q: &[u64; 5]) -> [u64; 5] {
    let mut d = [0u64; 5];
    let mut b = 0;
    for ((d, &x), &q) in d.iter_mut().zip(&x).zip(q) {
        (*d, b) = sbb(x, q, b);
    }
    let keep = core::hint::black_box(b.wrapping_neg()); // see `reduce_once`
    core::array::from_fn(|i| (x[i] & keep) | (d[i] & !keep))
}

/// Column `K` of [`redc_columns`]: adds the column and the quotient digits' products landing
/// there to the accumulator; below column 9 chooses the quotient digit `m[K]` that clears the
/// column's low 29 bits, from column 9 on returns them as the result's digit `K − 9`. The
/// accumulator then moves to the next column (an exact arithmetic shift).
#[inline(always)]
fn redc_step<const K: usize>(
    c: &[u64; 17],
    p: &[u64; 9],
    inv: u64,
    m: &mut [u64; 9],
    acc: &mut u64,
) -> u64 {
    let mut a = acc.wrapping_add(c[K]);
    let mut i = K.saturating_sub(8);
    while i < if K < 9 { K } else { 9 } {
        a = a.wrapping_add(m[i] * p[K - i]);
        i += 1;
    }
    let digit = if K < 9 {
        m[K] = a.wrapping_mul(inv) & MASK29;
        a = a.wrapping_add(m[K] * p[0]);
        0
    } else {
        a & MASK29
    };
    *acc = ((a as i64) >> 29) as u64;
    digit
}

/// Montgomery reduction of a lazily summed GF(p²) coefficient: `c` are the 17 columns (signed,
/// two's complement) of an integer `T` with `|T| < 2^6·p²` — a sum of at most two products of a
/// digit vector and one scaled by 2^5 (`to_radix29(_, 5)`), the second possibly subtracted
/// twice when `SIGNED` (then `−2^6·p² < T < 2^5·p²`; otherwise `0 ≤ T < 2^6·p²`). Returns
/// `T·2^-261 mod p`, fully reduced.
///
/// Product scanning with the reduction interleaved column by column (FIPS, Koç, Acar, Kaliski
/// 1996): every column receives its own sum, at most nine products `m_i·p_j < 2^58` and the
/// carry, so with `|c_k| < 2^62.2` the signed 64-bit accumulator never overflows. The quotient
/// digits `m < 2^261` add less than `2^261·p`, so `R = (T + m·p)/2^261` lies in `(−2p, 2p)`
/// when `SIGNED` (made positive by adding 2p) and in `[0, 3p)` otherwise; one conditional
/// subtraction of 2p and one of p finish it.
#[inline(always)]
fn redc_columns<M: Modulus, const SIGNED: bool>(c: &[u64; 17]) -> Limbs {
    let p = to_radix29(&M::P, 0);
    let inv = M::INV & MASK29;
    let mut m = [0u64; 9];
    let mut acc = 0u64;
    let d: [u64; 17] = for_columns!(redc_step(c, &p, inv, &mut m, &mut acc));
    let d = &d[9..];
    // R = Σ d_j·2^(29j) (j < 8) + acc·2^232, acc signed: five limbs in two's complement.
    let x = [
        d[0] | d[1] << 29 | d[2] << 58,
        d[2] >> 6 | d[3] << 23 | d[4] << 52,
        d[4] >> 12 | d[5] << 17 | d[6] << 46,
        d[6] >> 18 | d[7] << 11 | acc << 40,
        ((acc as i64) >> 24) as u64,
    ];
    let p2 = [
        M::P[0] << 1,
        M::P[1] << 1 | M::P[0] >> 63,
        M::P[2] << 1 | M::P[1] >> 63,
        M::P[3] << 1 | M::P[2] >> 63,
        M::P[3] >> 63,
    ];
    let x = if SIGNED {
        let mut y = [0u64; 5];
        let mut carry = 0;
        for ((y, &x), &q) in y.iter_mut().zip(&x).zip(&p2) {
            (*y, carry) = adc(x, q, carry);
        }
        y
    } else {
        x
    };
    let x = sub_if_ge(x, &p2);
    reduce_once([x[0], x[1], x[2], x[3]], x[4], &M::P)
}

impl Backend for U32 {
    const NAME: &'static str = "u32";

    #[inline]
    fn add<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        let mut r = [0u64; 4];
        let mut c = 0;
        for ((r, &a), &b) in r.iter_mut().zip(a).zip(b) {
            (*r, c) = adc(a, b, c);
        }
        reduce_once(r, c, &M::P)
    }

    #[inline]
    fn sub<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        let mut r = [0u64; 4];
        let mut bw = 0;
        for ((r, &a), &b) in r.iter_mut().zip(a).zip(b) {
            (*r, bw) = sbb(a, b, bw);
        }
        let mask = core::hint::black_box(bw.wrapping_neg()); // see `reduce_once`
        let mut c = 0;
        for (r, &p) in r.iter_mut().zip(&M::P) {
            (*r, c) = adc(*r, p & mask, c);
        }
        r
    }

    /// Montgomery multiplication in radix 2^29 with lazy carries (see `to_radix29`): every
    /// limb product is 58 bits, so a 64-bit accumulator takes all 18 products one position ever
    /// receives without a carry; the only carry inside the loop is the one shifted out at
    /// position 0. Nine digit steps divide by 2^261, so `b` enters multiplied by 2^5 and the
    /// result is `a·b·2^-256 mod p`, the shared Montgomery form.
    #[inline]
    fn mul<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        let (a, b, p) = (to_radix29(a, 0), to_radix29(b, 5), to_radix29(&M::P, 0));
        // -p^-1 mod 2^29 is the low part of -p^-1 mod 2^64.
        let inv = M::INV & MASK29;
        // The digit steps are written out: a loop over them was not unrolled for wasm32, which
        // kept the accumulator in memory.
        let mut t = [0u64; 9];
        digit_step(&mut t, &a, b[0], &p, inv);
        digit_step(&mut t, &a, b[1], &p, inv);
        digit_step(&mut t, &a, b[2], &p, inv);
        digit_step(&mut t, &a, b[3], &p, inv);
        digit_step(&mut t, &a, b[4], &p, inv);
        digit_step(&mut t, &a, b[5], &p, inv);
        digit_step(&mut t, &a, b[6], &p, inv);
        digit_step(&mut t, &a, b[7], &p, inv);
        digit_step(&mut t, &a, b[8], &p, inv);
        // t < 2p < 2^257 (a < p, b·2^5 < 2^5·p, the added multiples of p < 2^261·p).
        for j in 0..8 {
            t[j + 1] += t[j] >> 29;
            t[j] &= MASK29;
        }
        let r = [
            t[0] | t[1] << 29 | t[2] << 58,
            t[2] >> 6 | t[3] << 23 | t[4] << 52,
            t[4] >> 12 | t[5] << 17 | t[6] << 46,
            t[6] >> 18 | t[7] << 11 | t[8] << 40,
        ];
        reduce_once(r, t[8] >> 24, &M::P)
    }

    /// Karatsuba with lazy reduction (Aranha, Karabina, Longa, Gebotys, López, ePrint 2010/526
    /// §3): the three digit products `v0 = a0·b0`, `v1 = a1·b1`, `s = (a0 + a1)(b0 + b1)` are
    /// kept as carry-free columns (the digit sums stay below 2^30, so `s`'s columns fit in 64
    /// bits), combined column by column into `c0 = v0 − 2·v1` (signed) and `c1 = s − v0 − v1`
    /// (= `a0·b1 + a1·b0`), and reduced once per coefficient: 243 + 162 digit products and
    /// no GF(p) additions instead of 3 × 162 products and six modular additions.
    #[inline]
    fn mul_fp2<M: Modulus>(a: &[Limbs; 2], b: &[Limbs; 2]) -> [Limbs; 2] {
        let (a0, a1) = (to_radix29(&a[0], 0), to_radix29(&a[1], 0));
        let (b0, b1) = (to_radix29(&b[0], 5), to_radix29(&b[1], 5));
        let sa: [u64; 9] = core::array::from_fn(|i| a0[i] + a1[i]);
        let sb: [u64; 9] = core::array::from_fn(|i| b0[i] + b1[i]);
        let (v0, v1, s) = (columns(&a0, &b0), columns(&a1, &b1), columns(&sa, &sb));
        let c0 = core::array::from_fn(|k| v0[k].wrapping_sub(v1[k] << 1));
        let c1 = core::array::from_fn(|k| s[k].wrapping_sub(v0[k]).wrapping_sub(v1[k]));
        [redc_columns::<M, true>(&c0), redc_columns::<M, false>(&c1)]
    }
}
