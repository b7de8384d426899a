//! Scalar multiplication.
//!
//! * [`Jacobian::mul`]: constant time, signed fixed window of 5 bits with Booth recoding
//!   (digits in [−16, 16], 52 windows cover 257 bits), a 16-entry table `P, 2P, …, 16P` read in
//!   full with `subtle` selection for every window, and a constant-time conditional negation.
//! * [`Jacobian::mul_vartime`]: width-5 wNAF (public scalars only).
//! * [`Jacobian::double_mul_vartime`]: Straus–Shamir interleaving of two wNAF expansions.
//!
//! **Exceptional cases of the incomplete addition.** Before window `i` is added the accumulator
//! holds `2^5·A·P`, where `A ≥ 0` is the value of the digits above window `i`, so
//! `2^5·A ≤ k/2^(5i) + 16 < 2^(256−5i) + 16`. The incomplete addition fails only when
//! `2^5·A ≡ d·(±1) (mod n)` with `|d| ≤ 16` and neither side the identity. For `i ≥ 1` both sides
//! are below `n/2` (n > 2^255), so that congruence is an integer equality, impossible unless
//! `A = d = 0` (identities, which the addition handles). Only the last window (`i = 0`) can hit
//! it (e.g. `k = n − 6`), so that one addition uses the complete formula. This needs `P` to have
//! order n (every point of a prime-order curve does; SM9 G2 callers check subgroup membership).

use sm_field::Field;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroize;

use crate::{CurveParams, Jacobian};

/// The canonical little-endian limbs of a 32-byte scalar (via `Field::write_bytes`).
pub fn scalar_to_limbs<S: Field>(s: &S) -> [u64; 4] {
    assert_eq!(S::ENCODED_LEN, 32, "scalars are 256-bit");
    let mut b = [0u8; 32];
    s.write_bytes(&mut b);
    let mut l = [0u64; 4];
    for (i, limb) in l.iter_mut().enumerate() {
        let off = 24 - 8 * i;
        *limb = u64::from_be_bytes(b[off..off + 8].try_into().expect("8 bytes"));
    }
    b.zeroize();
    l
}

/// `count ≤ 57` bits of `k` starting at bit `start` (bits above 255 read as zero).
#[inline(always)]
pub(crate) fn bits(k: &[u64; 4], start: usize, count: u32) -> u64 {
    let limb = start / 64;
    let shift = start % 64;
    let lo = if limb < 4 { k[limb] >> shift } else { 0 };
    let hi = if shift != 0 && limb + 1 < 4 {
        k[limb + 1] << (64 - shift)
    } else {
        0
    };
    (lo | hi) & ((1u64 << count) - 1)
}

/// Signed (Booth) digit `i` of width `w`:
/// `d_i = b_{wi−1} + Σ_{j<w−1} 2^j·b_{wi+j} − 2^(w−1)·b_{wi+w−1}`, so `k = Σ d_i·2^(wi)`.
/// Returns `(|d_i|, d_i < 0)`, computed without branches on the scalar.
#[inline(always)]
pub(crate) fn booth_digit(k: &[u64; 4], w: u32, i: usize) -> (u8, Choice) {
    // w + 1 bits from position wi − 1 (bit −1 is zero).
    let v = if i == 0 {
        bits(k, 0, w) << 1
    } else {
        bits(k, w as usize * i - 1, w + 1)
    };
    let low = v & 1;
    let window = v >> 1;
    let top = window >> (w - 1);
    let d = (low + window) as i64 - ((top as i64) << w);
    let neg = (d >> 63) as u64; // all ones when negative
    let abs = ((d as u64) ^ neg).wrapping_sub(neg);
    (abs as u8, Choice::from((neg & 1) as u8))
}

/// Width-`w` NAF of `k` (public): `k = Σ naf[i]·2^i`, digits odd or zero, |digit| < 2^(w−1).
/// Returns the digits and the index one past the highest nonzero digit.
pub(crate) fn wnaf_vartime(k: &[u64; 4], w: u32) -> ([i8; 258], usize) {
    let mut naf = [0i8; 258];
    let mut n = [k[0], k[1], k[2], k[3], 0u64];
    let mut i = 0;
    let full = 1u64 << w;
    let half = 1u64 << (w - 1);
    while n.iter().any(|&l| l != 0) {
        if n[0] & 1 == 1 {
            let m = n[0] & (full - 1);
            if m >= half {
                // d = m − 2^w < 0: n ← n + (2^w − m)
                naf[i] = (m as i64 - full as i64) as i8;
                let mut carry = full - m;
                for limb in n.iter_mut() {
                    let (s, c) = limb.overflowing_add(carry);
                    *limb = s;
                    carry = c as u64;
                    if carry == 0 {
                        break;
                    }
                }
            } else {
                naf[i] = m as i8;
                n[0] -= m; // m ≤ n[0] mod 2^w, no borrow
            }
        }
        // n ← n / 2
        for j in 0..4 {
            n[j] = (n[j] >> 1) | (n[j + 1] << 63);
        }
        n[4] >>= 1;
        i += 1;
    }
    (naf, i)
}

impl<C: CurveParams> Jacobian<C> {
    /// `k·P` in constant time (signed 5-bit fixed window).
    pub fn mul(&self, k: &C::Scalar) -> Self {
        let mut l = scalar_to_limbs(k);
        let r = self.mul_limbs(&l);
        l.zeroize();
        r
    }

    /// `k·P` for a 256-bit scalar given as little-endian limbs (any value below 2^256), constant
    /// time.
    pub fn mul_limbs(&self, k: &[u64; 4]) -> Self {
        const W: u32 = 5;
        const WINDOWS: usize = 52; // 5 · 52 = 260 ≥ 257
        let mut table = [*self; 16]; // table[j] = (j + 1)·P
        table[1] = self.double();
        for j in 2..16 {
            // j·P ≠ P for 2 ≤ j ≤ 15 when P has order n > 16 (identities are handled).
            table[j] = table[j - 1].add_assume_distinct(self);
        }
        let lookup = |abs: u8, neg: Choice| {
            let mut r = Self::IDENTITY;
            for (j, e) in table.iter().enumerate() {
                r.conditional_assign(e, abs.ct_eq(&(j as u8 + 1)));
            }
            r.conditional_negate(neg);
            r
        };
        let (abs, neg) = booth_digit(k, W, WINDOWS - 1);
        let mut acc = lookup(abs, neg);
        for i in (0..WINDOWS - 1).rev() {
            for _ in 0..W {
                acc = acc.double();
            }
            let (abs, neg) = booth_digit(k, W, i);
            let t = lookup(abs, neg);
            // See the module docs: only the last addition can meet the doubling case.
            acc = if i == 0 {
                acc.add(&t)
            } else {
                acc.add_assume_distinct(&t)
            };
        }
        table.zeroize();
        acc
    }

    /// `k·P` by width-5 wNAF; time depends on `k` and `P` (public data only).
    pub fn mul_vartime(&self, k: &C::Scalar) -> Self {
        self.mul_limbs_vartime(&scalar_to_limbs(k))
    }

    /// [`Jacobian::mul_vartime`] on little-endian limbs.
    pub fn mul_limbs_vartime(&self, k: &[u64; 4]) -> Self {
        let (naf, len) = wnaf_vartime(k, 5);
        let table = odd_multiples::<C, 8>(self);
        let mut acc = Self::IDENTITY;
        for i in (0..len).rev() {
            acc = acc.double();
            let d = naf[i];
            if d > 0 {
                acc = acc.add_vartime(&table[(d / 2) as usize]);
            } else if d < 0 {
                acc = acc.add_vartime(&table[(-d / 2) as usize].neg());
            }
        }
        acc
    }

    /// `a·P + b·Q` by Straus–Shamir interleaved width-5 wNAF (public data only).
    pub fn double_mul_vartime(&self, a: &C::Scalar, q: &Self, b: &C::Scalar) -> Self {
        let (na, la) = wnaf_vartime(&scalar_to_limbs(a), 5);
        let (nb, lb) = wnaf_vartime(&scalar_to_limbs(b), 5);
        let ta = odd_multiples::<C, 8>(self);
        let tb = odd_multiples::<C, 8>(q);
        let mut acc = Self::IDENTITY;
        for i in (0..la.max(lb)).rev() {
            acc = acc.double();
            for (d, t) in [(na[i], &ta), (nb[i], &tb)] {
                if d > 0 {
                    acc = acc.add_vartime(&t[(d / 2) as usize]);
                } else if d < 0 {
                    acc = acc.add_vartime(&t[(-d / 2) as usize].neg());
                }
            }
        }
        acc
    }

    /// `k·P` by plain left-to-right double-and-add (a slow reference for tests; public data only).
    pub fn mul_naive_vartime(&self, k: &[u64; 4]) -> Self {
        let mut acc = Self::IDENTITY;
        for i in (0..256).rev() {
            acc = acc.double();
            if (k[i / 64] >> (i % 64)) & 1 == 1 {
                acc = acc.add_vartime(self);
            }
        }
        acc
    }
}

/// `[P, 3P, 5P, …, (2N − 1)P]`.
fn odd_multiples<C: CurveParams, const N: usize>(p: &Jacobian<C>) -> [Jacobian<C>; N] {
    let mut t = [*p; N];
    let p2 = p.double();
    for j in 1..N {
        t[j] = t[j - 1].add_vartime(&p2);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_from_booth(k: &[u64; 4], w: u32, windows: usize) -> [i128; 3] {
        // Σ d_i 2^(wi) computed in 3 × 128-bit "limbs" would be awkward; instead check the
        // recurrence on the low 120 bits and the digit ranges.
        let mut acc: i128 = 0;
        for i in (0..windows).rev() {
            let (abs, neg) = booth_digit(k, w, i);
            assert!(abs as u32 <= 1 << (w - 1));
            let d = if bool::from(neg) {
                -(abs as i128)
            } else {
                abs as i128
            };
            if (w as usize) * i < 120 {
                acc += d << (w as usize * i);
            }
        }
        [acc, 0, 0]
    }

    #[test]
    fn booth_digits_reconstruct_low_bits() {
        let k = [
            0xfedc_ba98_7654_3210u64,
            0x0123_4567_89ab_cdef,
            u64::MAX,
            0x8000_0000_0000_0001,
        ];
        for w in [5u32, 6] {
            let windows = 257usize.div_ceil(w as usize);
            let [acc, _, _] = value_from_booth(&k, w, windows);
            let low = (k[0] as i128) | (((k[1] & ((1 << 56) - 1)) as i128) << 64);
            let cut = (120 / w as usize) * w as usize; // digits beyond contribute multiples of 2^cut
            let m = (1i128 << cut) - 1;
            assert_eq!(acc & m, low & m, "w = {w}");
        }
    }

    #[test]
    fn wnaf_reconstructs() {
        let k = [0xfedc_ba98_7654_3210u64, 0, 0, 0];
        let (naf, len) = wnaf_vartime(&k, 5);
        let mut v: i128 = 0;
        for i in (0..len).rev() {
            v = 2 * v + naf[i] as i128;
            assert!(naf[i] == 0 || naf[i] % 2 != 0);
        }
        assert_eq!(v, k[0] as i128);
    }
}
