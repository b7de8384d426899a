//! Portable backend with nine 29-bit limbs in `u64` words and lazy carries, shaped for targets
//! whose fastest multiplier is 64 × 64 → 64 bits (WebAssembly's `i64.mul`): no 128-bit products
//! and no carry chains inside a multiplication.
//!
//! A 29-bit × 29-bit product is below 2^58, so a 64-bit word absorbs dozens of them before it
//! overflows: the products are summed with plain additions and the carries are propagated once
//! per reduction round, not once per product. This is the unsaturated-radix idea of Bernstein's
//! Curve25519 implementations (radix 2^25.5, "Curve25519: new Diffie-Hellman speed records",
//! PKC 2006, §4) and of the IFMA kernel in this crate (radix 2^52), applied to 256-bit moduli
//! with 9 × 29 = 261 bits.
//!
//! Montgomery multiplication (Montgomery 1985) by separated operand scanning (Koç, Acar, Kaliski,
//! IEEE Micro 1996): the 17 columns of `a·b` (each a sum of at most 9 products, < 2^61.2; a
//! square computes each cross product once, doubled: 45 products instead of 81), then
//! reduction by R = 2^256 = 2^(8·29 + 24): eight rounds of 29 bits and one of 24, round i
//! adding `m·p·2^(29i)` with `m = t_i·(−p⁻¹) mod 2^29` (2^24 in the last round) and carrying
//! the cleared column's high part into the next one. A column receives at most 9 more products
//! and one carry: < 2^62.3, no overflow. What is left is `c + 32·S` (c the bits of column 8
//! from 2^256 up, S the columns 9..17), below `a·b/2^256 + p < 2p`, so one conditional
//! subtraction (a mask select, no branch) fully reduces it: bit-identical to every backend.
//! Additions and subtractions are those of the `u64` backend.
//!
//! Constant time: every loop bound is fixed, the final subtraction is a mask select.

use super::u64::{adc, reduce_once, U64};
use super::Backend;
use crate::{Limbs, Modulus};

/// Portable radix-2^29 backend (nine limbs, lazy carries): the default on `wasm32`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Radix29;

const MASK: u64 = (1 << 29) - 1;

/// `a·b` for `a, b < 2^32`: written as a 32 × 32 → 64-bit product so that 32-bit targets use
/// their widening multiply (one `umull` on Arm) instead of a full 64 × 64-bit one.
#[inline(always)]
fn mul32(a: u64, b: u64) -> u64 {
    (a as u32 as u64) * (b as u32 as u64)
}

/// The nine 29-bit limbs of `a`.
#[inline(always)]
fn to29(a: &Limbs) -> [u64; 9] {
    let mut r = [0u64; 9];
    for (k, limb) in r.iter_mut().enumerate() {
        let (w, s) = (29 * k / 64, (29 * k % 64) as u32);
        let hi = if s > 35 && w + 1 < 4 {
            a[w + 1] << (64 - s)
        } else {
            0
        };
        *limb = (a[w] >> s | hi) & MASK;
    }
    r
}

/// Packs nine normalised 29-bit limbs of a value below 2^256 into four 64-bit words.
#[inline(always)]
fn from29(t: &[u64; 9]) -> Limbs {
    let mut r = [0u64; 4];
    for (k, &limb) in t.iter().enumerate() {
        let (w, s) = (29 * k / 64, (29 * k % 64) as u32);
        r[w] |= limb << s;
        if s > 35 && w + 1 < 4 {
            r[w + 1] |= limb >> (64 - s);
        }
    }
    r
}

/// The modulus in radix 2^29 and `−p⁻¹ mod 2^29`.
struct Params<M>(core::marker::PhantomData<M>);
impl<M: Modulus> Params<M> {
    const P: [u64; 9] = {
        let p = M::P;
        let mut r = [0u64; 9];
        let mut k = 0;
        while k < 9 {
            let (w, s) = (29 * k / 64, (29 * k % 64) as u32);
            let lo = p[w] >> s;
            let hi = if s > 35 && w + 1 < 4 {
                p[w + 1] << (64 - s)
            } else {
                0
            };
            r[k] = (lo | hi) & MASK;
            k += 1;
        }
        r
    };
    /// `−p⁻¹ mod 2^29` is `−p⁻¹ mod 2^64` reduced.
    const INV: u64 = M::INV & MASK;
}

/// Montgomery reduction of the 17 product columns (lazy carries) to `value·2^-256 mod p`, fully
/// reduced.
#[inline(always)]
fn reduce<M: Modulus>(mut t: [u64; 18]) -> Limbs {
    let p = Params::<M>::P;
    for i in 0..9 {
        // The last round clears 24 bits: 8·29 + 24 = 256.
        let bits = if i < 8 { 29 } else { 24 };
        let m = t[i].wrapping_mul(Params::<M>::INV) & ((1 << bits) - 1);
        for j in 0..9 {
            t[i + j] += mul32(m, p[j]);
        }
        // The low `bits` bits of t[i] are now zero; its high part moves up.
        if i < 8 {
            t[i + 1] += t[i] >> 29;
        }
    }
    // value = c + 32·S with c = t[8] >> 24 and S = Σ t[9 + k]·2^(29k); S < 2p/32 < 2^252.
    let mut s = [0u64; 9];
    let mut carry = 0;
    for k in 0..9 {
        let v = t[9 + k] + carry;
        s[k] = v & MASK;
        carry = v >> 29;
    }
    let w = from29(&s);
    let shifted = [
        w[0] << 5,
        w[1] << 5 | w[0] >> 59,
        w[2] << 5 | w[1] >> 59,
        w[3] << 5 | w[2] >> 59,
    ];
    let (r0, c) = adc(shifted[0], t[8] >> 24, 0);
    let (r1, c) = adc(shifted[1], 0, c);
    let (r2, c) = adc(shifted[2], 0, c);
    let (r3, c) = adc(shifted[3], 0, c);
    reduce_once(&[r0, r1, r2, r3], (w[3] >> 59) + c, &M::P)
}

impl Backend for Radix29 {
    const NAME: &'static str = "radix29";

    #[inline(always)]
    fn add<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        U64::add::<M>(a, b)
    }

    #[inline(always)]
    fn sub<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        U64::sub::<M>(a, b)
    }

    #[inline]
    fn mul<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        let (x, y) = (to29(a), to29(b));
        let mut t = [0u64; 18];
        for i in 0..9 {
            for j in 0..9 {
                t[i + j] += mul32(x[i], y[j]);
            }
        }
        reduce::<M>(t)
    }

    #[inline]
    fn square<M: Modulus>(a: &Limbs) -> Limbs {
        let z = to29(a);
        let mut t = [0u64; 18];
        for i in 0..9 {
            t[2 * i] += mul32(z[i], z[i]);
            let d = 2 * z[i];
            for j in i + 1..9 {
                t[i + j] += mul32(d, z[j]);
            }
        }
        reduce::<M>(t)
    }
}
