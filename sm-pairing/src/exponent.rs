//! Exponent recodings: the non-adjacent form of the public loop and exponent parameters, and
//! the constant-time recoding of secret GT exponents.
//!
//! **NAF.** [`naf`] gives the non-adjacent form of a public constant (6t + 2 for the Miller loop,
//! t for the final exponentiation's hard part), evaluated at compile time.
//!
//! **Frobenius split.** On GT (order n) the p-power Frobenius is exponentiation by
//! p mod n = p − n = 6t² =: λ (p = 36t⁴ + 36t³ + 24t² + 6t + 1, n = 36t⁴ + 36t³ + 18t² + 6t + 1).
//! Writing k mod n = k0 + k1·λ with 0 ≤ k0 < λ < 2¹²⁸ and
//! k1 ≤ n/λ = 6t² + 6t + 3 + (6t + 1)/(6t²) < 2¹²⁸ gives `g^k = g^k0 · π(g)^k1`: two 128-bit
//! exponents sharing one squaring chain (the GLV idea in GT; Galbraith, Scott, "Exponentiation in
//! pairing-friendly groups using homomorphisms", ePrint 2008/117 §4, here with the exact
//! 2-dimensional division instead of a lattice reduction, since λ ≈ √n).
//!
//! **Digits.** Each half is recoded into signed radix-2^W digits in [−2^(W−1), 2^(W−1)) with a
//! final digit absorbing the carry, branch-free, so a table of g¹…g^(2^(W−1)) plus conjugation
//! (inversion on GT) covers every digit.

use sm_field::{Modulus, Sm9N};
use subtle::{Choice, ConditionallySelectable};

use crate::BN_T;

/// Non-adjacent form of a public `k < 2⁷¹`: little-endian digits in {−1, 0, 1}, no two adjacent
/// digits non-zero, and the number of digits.
pub(crate) const fn naf(mut k: u128) -> ([i8; 72], usize) {
    let mut d = [0i8; 72];
    let mut i = 0;
    while k != 0 {
        if k & 1 == 1 {
            let z = 2 - (k % 4) as i8; // 1 or −1
            d[i] = z;
            if z == 1 {
                k -= 1;
            } else {
                k += 1;
            }
        }
        k >>= 1;
        i += 1;
    }
    (d, i)
}

/// λ = p − n = 6t², the eigenvalue of the p-power Frobenius on GT.
pub(crate) const LAMBDA: u128 = 6 * (BN_T as u128) * (BN_T as u128);

// The division below starts from the top 128 bits of k mod n, which must already be below λ.
const _: () = assert!(((Sm9N::P[3] as u128) << 64 | Sm9N::P[2] as u128) < LAMBDA);

/// `k mod n` for any 256-bit k (n > 2²⁵⁵, so one conditional subtraction), constant time.
fn reduce_mod_n(k: &[u64; 4]) -> [u64; 4] {
    let n = Sm9N::P;
    let mut d = [0u64; 4];
    let mut borrow = false;
    for i in 0..4 {
        let (x, b1) = k[i].overflowing_sub(n[i]);
        let (x, b2) = x.overflowing_sub(borrow as u64);
        d[i] = x;
        borrow = b1 | b2;
    }
    // borrow = 1 means k < n: keep k.
    let keep = Choice::from(borrow as u8);
    let mut r = [0u64; 4];
    for i in 0..4 {
        r[i] = u64::conditional_select(&d[i], &k[i], keep);
    }
    r
}

/// `(k0, k1)` with `k ≡ k0 + k1·λ (mod n)`, `0 ≤ k0 < λ`, `0 ≤ k1 < 2¹²⁸`, constant time: the
/// quotient of k mod n by the public λ by restoring binary division (128 steps; the remainder is
/// seeded with the top 128 bits, which are below λ).
pub(crate) fn split_exponent(k: &[u64; 4]) -> (u128, u128) {
    let mut r = reduce_mod_n(k);
    let mut rem = ((r[3] as u128) << 64) | r[2] as u128;
    let low = ((r[1] as u128) << 64) | r[0] as u128;
    let mut q: u128 = 0;
    for i in (0..128).rev() {
        // rem < λ < 2¹²⁸, so 2·rem + bit < 2¹²⁹: `top` is bit 128 of the shifted value.
        let top = (rem >> 127) as u8;
        let shifted = (rem << 1) | ((low >> i) & 1);
        let (diff, borrow) = shifted.overflowing_sub(LAMBDA);
        // Subtract when the 129-bit value is ≥ λ (then the wrapped difference is exact).
        let take = Choice::from(top | (!borrow) as u8);
        rem = select_u128(&shifted, &diff, take);
        q = (q << 1) | take.unwrap_u8() as u128;
    }
    r.iter_mut().for_each(|l| *l = 0);
    (rem, q)
}

#[inline(always)]
fn select_u128(a: &u128, b: &u128, c: Choice) -> u128 {
    let lo = u64::conditional_select(&(*a as u64), &(*b as u64), c);
    let hi = u64::conditional_select(&((*a >> 64) as u64), &((*b >> 64) as u64), c);
    ((hi as u128) << 64) | lo as u128
}

/// Signed radix-2^W digits of a 128-bit k: `D` digits in [−2^(W−1), 2^(W−1)) except the last
/// (which takes the final carry), Σ dᵢ·2^(W·i) = k. Requires W·D ≥ 129. Branch-free.
pub(crate) fn signed_digits<const W: u32, const D: usize>(k: u128) -> [i8; D] {
    debug_assert!(W as usize * D > 128 && W <= 7);
    let mask = (1u128 << W) - 1;
    let mut d = [0i8; D];
    for (i, di) in d.iter_mut().enumerate() {
        let s = W as usize * i;
        *di = if s < 128 { ((k >> s) & mask) as i8 } else { 0 };
    }
    let half = 1i8 << (W - 1);
    for i in 0..D - 1 {
        let carry = (d[i] + half) >> W; // 1 if d ≥ 2^(W−1), else 0
        d[i] -= carry << W;
        d[i + 1] += carry;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The NAF of the two constants it is used on, and of a few others, sums back to the value,
    /// has no two adjacent non-zero digits, and is at most one digit longer than the binary form.
    #[test]
    fn naf_is_non_adjacent_and_exact() {
        for k in [
            0,
            1,
            2,
            3,
            7,
            0x55,
            crate::ATE_LOOP,
            BN_T as u128,
            (1u128 << 70) - 1,
        ] {
            let (d, len) = naf(k);
            let value: i128 = (0..len).map(|i| i128::from(d[i]) << i).sum();
            assert_eq!(value, k as i128, "{k:#x}");
            assert!(d.windows(2).all(|w| w[0] == 0 || w[1] == 0), "{k:#x}");
            assert!(d[len..].iter().all(|&x| x == 0));
            assert!(len <= (128 - k.leading_zeros()) as usize + 1);
        }
    }

    #[test]
    fn lambda_is_p_minus_n() {
        let p = sm_field::Sm9P::P;
        let n = Sm9N::P;
        let mut d = [0u64; 4];
        let mut borrow = 0u64;
        for i in 0..4 {
            let (x, b1) = p[i].overflowing_sub(n[i]);
            let (x, b2) = x.overflowing_sub(borrow);
            d[i] = x;
            borrow = (b1 | b2) as u64;
        }
        assert_eq!(borrow, 0);
        assert_eq!(d, [LAMBDA as u64, (LAMBDA >> 64) as u64, 0, 0]);
    }

    #[test]
    fn split_recombines() {
        let n = Sm9N::P;
        let nm1 = [n[0] - 1, n[1], n[2], n[3]];
        let cases = [
            [0u64; 4],
            [1, 0, 0, 0],
            nm1,
            n,
            [u64::MAX; 4],
            [LAMBDA as u64, (LAMBDA >> 64) as u64, 0, 0],
            [
                0x0123_4567_89ab_cdef,
                0xfedc_ba98_7654_3210,
                0x0f1e_2d3c_4b5a_6978,
                0x1122_3344_5566_7788,
            ],
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut all: alloc::vec::Vec<[u64; 4]> = cases.to_vec();
        for _ in 0..200 {
            all.push([rnd(), rnd(), rnd(), rnd()]);
        }
        // Expected values from num-bigint, independent of this module's arithmetic.
        let big = |l: &[u64]| {
            num_bigint::BigUint::from_bytes_le(
                &l.iter()
                    .flat_map(|w| w.to_le_bytes())
                    .collect::<alloc::vec::Vec<u8>>(),
            )
        };
        let big_n = big(&n);
        let big_lambda = big(&[LAMBDA as u64, (LAMBDA >> 64) as u64]);
        for k in all {
            let (k0, k1) = split_exponent(&k);
            assert!(k0 < LAMBDA);
            let k0b = big(&[k0 as u64, (k0 >> 64) as u64]);
            let k1b = big(&[k1 as u64, (k1 >> 64) as u64]);
            assert_eq!(k1b * &big_lambda + k0b, big(&k) % &big_n, "{k:x?}");
        }
    }

    #[test]
    fn digits_recombine() {
        fn check<const W: u32, const D: usize>(k: u128) {
            let d = signed_digits::<W, D>(k);
            let half = 1i32 << (W - 1);
            let mut acc: i128 = 0;
            for (i, &di) in d.iter().enumerate().rev() {
                if i + 1 < D {
                    assert!((-half..half).contains(&(di as i32)));
                } else {
                    assert!((0..=half).contains(&(di as i32)));
                }
                // Evaluate modulo 2^128 (the top digit may carry past it only when zero).
                acc = acc.wrapping_shl(W).wrapping_add(di as i128);
            }
            assert_eq!(acc as u128, k);
        }
        for k in [
            0u128,
            1,
            u128::MAX >> 1,
            LAMBDA - 1,
            0x8888_8888_8888_8888_8888_8888_8888_8888,
            u128::MAX,
        ] {
            check::<4, 33>(k);
            check::<5, 26>(k);
            check::<6, 22>(k);
        }
    }
}
