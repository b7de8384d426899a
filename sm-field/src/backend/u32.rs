//! Portable backend with 8 × 32-bit limbs and `u64` products (for 32-bit targets and as an
//! independent second implementation). Converts to and from the shared 4 × 64-bit representation
//! at the boundary; CIOS Montgomery multiplication as in the `u64` backend.

use super::Backend;
use crate::{Limbs, Modulus};

/// Portable 32-bit backend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct U32;

type L32 = [u32; 8];

#[inline(always)]
fn split(a: &Limbs) -> L32 {
    let mut r = [0u32; 8];
    for i in 0..4 {
        r[2 * i] = a[i] as u32;
        r[2 * i + 1] = (a[i] >> 32) as u32;
    }
    r
}

#[inline(always)]
fn join(a: &L32) -> Limbs {
    let mut r = [0u64; 4];
    for i in 0..4 {
        r[i] = a[2 * i] as u64 | ((a[2 * i + 1] as u64) << 32);
    }
    r
}

#[inline(always)]
fn mac(a: u32, b: u32, c: u32, carry: u32) -> (u32, u32) {
    let t = a as u64 + (b as u64) * (c as u64) + carry as u64;
    (t as u32, (t >> 32) as u32)
}

#[inline(always)]
fn adc(a: u32, b: u32, carry: u32) -> (u32, u32) {
    let t = a as u64 + b as u64 + carry as u64;
    (t as u32, (t >> 32) as u32)
}

#[inline(always)]
fn sbb(a: u32, b: u32, borrow: u32) -> (u32, u32) {
    let t = (a as u64).wrapping_sub(b as u64 + borrow as u64);
    (t as u32, ((t >> 32) as u32) & 1)
}

/// Subtracts p once if `hi·2^256 + r ≥ p`, in constant time.
#[inline(always)]
fn reduce_once(r: &L32, hi: u32, p: &L32) -> L32 {
    let mut s = [0u32; 8];
    let mut b = 0;
    for i in 0..8 {
        (s[i], b) = sbb(r[i], p[i], b);
    }
    let (_, b) = sbb(hi, 0, b);
    // `black_box`: without it LLVM turned this select into a branch on the borrow (a
    // secret-dependent branch in every addition, found by `cargo xtask ct` under valgrind).
    let keep = core::hint::black_box(b.wrapping_neg());
    let mut out = [0u32; 8];
    for i in 0..8 {
        out[i] = (r[i] & keep) | (s[i] & !keep);
    }
    out
}

impl Backend for U32 {
    const NAME: &'static str = "u32";

    #[inline]
    fn add<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        let (a, b, p) = (split(a), split(b), split(&M::P));
        let mut r = [0u32; 8];
        let mut c = 0;
        for i in 0..8 {
            (r[i], c) = adc(a[i], b[i], c);
        }
        join(&reduce_once(&r, c, &p))
    }

    #[inline]
    fn sub<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        let (a, b, p) = (split(a), split(b), split(&M::P));
        let mut r = [0u32; 8];
        let mut bw = 0;
        for i in 0..8 {
            (r[i], bw) = sbb(a[i], b[i], bw);
        }
        let mask = core::hint::black_box(bw.wrapping_neg()); // see `reduce_once`
        let mut c = 0;
        for i in 0..8 {
            (r[i], c) = adc(r[i], p[i] & mask, c);
        }
        join(&r)
    }

    #[inline]
    // CIOS indexes a, b, p and t together; index loops state that most plainly.
    #[allow(clippy::needless_range_loop)]
    fn mul<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        let (a, b, p) = (split(a), split(b), split(&M::P));
        let inv = M::INV as u32; // -p^-1 mod 2^32 is the low half of -p^-1 mod 2^64
        let mut t = [0u32; 10];
        for i in 0..8 {
            let mut c = 0;
            for j in 0..8 {
                (t[j], c) = mac(t[j], a[j], b[i], c);
            }
            let (t8, t9) = adc(t[8], c, 0);
            t[8] = t8;
            t[9] = t9;
            let m = t[0].wrapping_mul(inv);
            let (_, mut c) = mac(t[0], m, p[0], 0);
            for j in 1..8 {
                (t[j - 1], c) = mac(t[j], m, p[j], c);
            }
            let (t7, c) = adc(t[8], c, 0);
            t[7] = t7;
            t[8] = t[9] + c;
        }
        let mut r = [0u32; 8];
        r.copy_from_slice(&t[..8]);
        join(&reduce_once(&r, t[8], &p))
    }
}
