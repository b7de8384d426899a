//! Portable backend: 4 × 64-bit limbs, products in `u128`, CIOS Montgomery multiplication.
//!
//! The moduli have no spare top bit, so the running sum needs a fifth word and a carry bit
//! (Koç, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication algorithms", 1996, CIOS).

use super::Backend;
use crate::{Limbs, Modulus};

/// Portable 64-bit backend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct U64;

/// `a + b·c + carry` as (low, high).
#[inline(always)]
pub(crate) const fn mac(a: u64, b: u64, c: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + (b as u128) * (c as u128) + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// `a + b + carry` as (sum, carry out).
#[inline(always)]
pub(crate) const fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + b as u128 + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// `a - b - borrow` as (difference, borrow out ∈ {0, 1}).
#[inline(always)]
pub(crate) const fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let t = (a as u128).wrapping_sub(b as u128 + borrow as u128);
    (t as u64, ((t >> 64) as u64) & 1)
}

/// Reduces `(hi·2^256 + r)` for `hi ∈ {0,1}` and value `< 2p` to `[0, p)` in constant time.
#[inline(always)]
pub(crate) fn reduce_once(r: &Limbs, hi: u64, p: &Limbs) -> Limbs {
    let (s0, b) = sbb(r[0], p[0], 0);
    let (s1, b) = sbb(r[1], p[1], b);
    let (s2, b) = sbb(r[2], p[2], b);
    let (s3, b) = sbb(r[3], p[3], b);
    let (_, b) = sbb(hi, 0, b);
    // b = 1 means r < p: keep r. `black_box`: in some inlining contexts (the batched
    // cyclotomic squaring) LLVM turned this select into a branch on the borrow, which
    // `cargo xtask ct` caught; the opaque mask keeps it a data-flow select (as in `u32`).
    let keep = core::hint::black_box(b.wrapping_neg());
    [
        (r[0] & keep) | (s0 & !keep),
        (r[1] & keep) | (s1 & !keep),
        (r[2] & keep) | (s2 & !keep),
        (r[3] & keep) | (s3 & !keep),
    ]
}

impl Backend for U64 {
    const NAME: &'static str = "u64";

    #[inline(always)]
    fn add<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        let (r0, c) = adc(a[0], b[0], 0);
        let (r1, c) = adc(a[1], b[1], c);
        let (r2, c) = adc(a[2], b[2], c);
        let (r3, c) = adc(a[3], b[3], c);
        reduce_once(&[r0, r1, r2, r3], c, &M::P)
    }

    #[inline(always)]
    fn sub<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        let (r0, bw) = sbb(a[0], b[0], 0);
        let (r1, bw) = sbb(a[1], b[1], bw);
        let (r2, bw) = sbb(a[2], b[2], bw);
        let (r3, bw) = sbb(a[3], b[3], bw);
        // On borrow add p back.
        let mask = core::hint::black_box(bw.wrapping_neg()); // see `reduce_once`
        let p = M::P;
        let (r0, c) = adc(r0, p[0] & mask, 0);
        let (r1, c) = adc(r1, p[1] & mask, c);
        let (r2, c) = adc(r2, p[2] & mask, c);
        let (r3, _) = adc(r3, p[3] & mask, c);
        [r0, r1, r2, r3]
    }

    #[inline(always)]
    fn mul<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        let p = M::P;
        let mut t = [0u64; 5];
        let mut i = 0;
        while i < 4 {
            // t += a·b[i]
            let (t0, c) = mac(t[0], a[0], b[i], 0);
            let (t1, c) = mac(t[1], a[1], b[i], c);
            let (t2, c) = mac(t[2], a[2], b[i], c);
            let (t3, c) = mac(t[3], a[3], b[i], c);
            let (t4, t5) = adc(t[4], c, 0);
            // t = (t + m·p) / 2^64
            let m = t0.wrapping_mul(M::INV);
            let (_, c) = mac(t0, m, p[0], 0);
            let (n0, c) = mac(t1, m, p[1], c);
            let (n1, c) = mac(t2, m, p[2], c);
            let (n2, c) = mac(t3, m, p[3], c);
            let (n3, c) = adc(t4, c, 0);
            t = [n0, n1, n2, n3, t5 + c];
            i += 1;
        }
        reduce_once(&[t[0], t[1], t[2], t[3]], t[4], &p)
    }
}
