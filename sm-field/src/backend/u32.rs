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
}
