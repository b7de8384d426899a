//! Arithmetic in the cyclotomic subgroup G_{Φ₆(p²)} of GF(p¹²)*, where the final exponentiation's
//! hard part and every GT operation work: Granger–Scott squaring, Karabina's compressed squaring
//! with decompression, and exponentiation by the BN parameter t. Inversion there is conjugation.
//! Shared by `final_exp.rs` and `gt.rs`.

use sm_field::{Backend, Fp12, Fp4};
use subtle::ConditionallySelectable;

use crate::exponent::naf;
use crate::BN_T;

/// Granger–Scott squaring in the cyclotomic subgroup ("Faster squaring in the cyclotomic
/// subgroup of sixth degree extensions", ePrint 2009/565 §3.2), with GF(p¹²) = GF(q²)[w]/(w³ − v)
/// for q = p² (GF(q²) = GF(p⁴)): for a = a0 + a1·w + a2·w² with a^(q²−q+1) = 1,
/// `a² = (3a0² − 2·conj(a0)) + (3v·a2² + 2·conj(a1))·w + (3a1² − 2·conj(a2))·w²`,
/// conj being the GF(p⁴)/GF(p²) conjugation. 3 GF(p⁴) squarings = 6 GF(p²) multiplications.
/// Only valid on the cyclotomic subgroup (e.g. after the easy part, and on GT). The three
/// squarings (18 GF(p) products) go to the backend in one batch ([`Fp4::square_batch`]).
#[inline]
pub(crate) fn square<B: Backend>(a: &Fp12<B>) -> Fp12<B> {
    let [s0, s1, s2] = Fp4::square_batch(&[a.c0, a.c1, a.c2]);
    let (c1, c2) = compressed_from_squares(&a.c1, &a.c2, &s1, &s2);
    Fp12::new(three_minus_two_conj(&s0, &a.c0), c1, c2)
}

/// `3s − 2·conj(c)`: (3s0 − 2c0, 3s1 + 2c1) = (2(s0 − c0) + s0, 2(s1 + c1) + s1).
#[inline(always)]
fn three_minus_two_conj<B: Backend>(s: &Fp4<B>, c: &Fp4<B>) -> Fp4<B> {
    Fp4::new(
        s.c0.sub(&c.c0).double().add(&s.c0),
        s.c1.add(&c.c1).double().add(&s.c1),
    )
}

/// `3s + 2·conj(c)`: (3s0 + 2c0, 3s1 − 2c1).
#[inline(always)]
fn three_plus_two_conj<B: Backend>(s: &Fp4<B>, c: &Fp4<B>) -> Fp4<B> {
    Fp4::new(
        s.c0.add(&c.c0).double().add(&s.c0),
        s.c1.sub(&c.c1).double().add(&s.c1),
    )
}

/// The w and w² coefficients of a Granger–Scott square, which depend on `(a1, a2)` only: the
/// compressed squaring of Karabina ("Squaring in cyclotomic subgroups", ePrint 2010/542), here
/// over GF(p⁴): `a1' = 3v·a2² + 2·conj(a1)`, `a2' = 3a1² − 2·conj(a2)`. 2 GF(p⁴) squarings,
/// batched (12 GF(p) products in one [`Fp4::square_batch`]).
#[inline]
fn compressed_square<B: Backend>(a1: &Fp4<B>, a2: &Fp4<B>) -> (Fp4<B>, Fp4<B>) {
    let [s1, s2] = Fp4::square_batch(&[*a1, *a2]);
    compressed_from_squares(a1, a2, &s1, &s2)
}

/// [`compressed_square`] from `s1 = a1²` and `s2 = a2²`.
#[inline(always)]
fn compressed_from_squares<B: Backend>(
    a1: &Fp4<B>,
    a2: &Fp4<B>,
    s1: &Fp4<B>,
    s2: &Fp4<B>,
) -> (Fp4<B>, Fp4<B>) {
    (
        three_plus_two_conj(&s2.mul_by_v(), a1),
        three_minus_two_conj(s1, a2),
    )
}

/// Recovers a0 from `(a1, a2)` for `a = a0 + a1·w + a2·w²` in the cyclotomic subgroup, in
/// constant time. Equating the w² coefficients of the Granger–Scott square and the schoolbook
/// square gives, for every cyclotomic a, `a0·a2 = a1² − conj(a2)`; so `a0 = (a1² − conj(a2))/a2`
/// when a2 ≠ 0. If a2 = 0 the relation forces a1² = 0, so a = a0 ∈ GF(p⁴) ∩ G_{Φ₆(p²)}, whose
/// order divides gcd(p⁴ − 1, p⁴ − p² + 1), a divisor of 3 that p⁴ − p² + 1 ≡ 1 (mod 3)
/// excludes: a = 1. One GF(p⁴) inversion.
fn decompress<B: Backend>(a1: &Fp4<B>, a2: &Fp4<B>) -> Fp12<B> {
    let num = a1.square().sub(&a2.conjugate());
    let a0 = num.mul(&a2.invert().unwrap_or(Fp4::ZERO));
    let a0 = Fp4::conditional_select(&a0, &Fp4::ONE, a2.is_zero());
    Fp12::new(a0, *a1, *a2)
}

/// NAF digits of t (little-endian) and their count.
const T_NAF: ([i8; 72], usize) = naf(BN_T as u128);

/// The longest run of zero NAF digits of t below the top digit: `(top, len)` with
/// `d[top] = … = d[top − len + 1] = 0` (for SM9's t: digits 60…24).
const fn longest_zero_run() -> (usize, usize) {
    let (d, len) = T_NAF;
    let (mut best_top, mut best_len, mut cur_top, mut cur_len) = (0, 0, 0, 0);
    let mut i = len - 1;
    while i > 0 {
        i -= 1;
        if d[i] == 0 {
            if cur_len == 0 {
                cur_top = i;
            }
            cur_len += 1;
            if cur_len > best_len {
                best_len = cur_len;
                best_top = cur_top;
            }
        } else {
            cur_len = 0;
        }
    }
    (best_top, best_len)
}

const T_ZERO_RUN: (usize, usize) = longest_zero_run();
// The run is followed by a non-zero digit (so the decompressed value is multiplied at once).
const _: () = assert!(T_ZERO_RUN.0 >= T_ZERO_RUN.1 && T_ZERO_RUN.1 >= 8);

/// `a^t` in the cyclotomic subgroup: NAF of t (64 digits, 11 non-zero), 63 cyclotomic squarings
/// and 10 multiplications; digit −1 multiplies by conj(a) = a⁻¹. t is public. The 38 squarings
/// across the long zero run of t (digits 60…23) are compressed (Karabina, 2 instead of 3 GF(p⁴)
/// squarings each) and followed by one decompression.
pub(crate) fn exp_by_t<B: Backend>(a: &Fp12<B>) -> Fp12<B> {
    let (d, len) = T_NAF;
    let (run_top, run_len) = T_ZERO_RUN;
    let a_inv = a.conjugate();
    let mut acc = *a; // top digit is +1
    let mut i = len - 1;
    while i > 0 {
        i -= 1;
        if i == run_top {
            // Squarings for digits run_top down to run_top − run_len (the first non-zero one).
            let (mut c1, mut c2) = (acc.c1, acc.c2);
            for _ in 0..=run_len {
                (c1, c2) = compressed_square(&c1, &c2);
            }
            acc = decompress(&c1, &c2);
            i -= run_len;
        } else {
            acc = square(&acc);
        }
        if d[i] == 1 {
            acc = acc.mul(a);
        } else if d[i] == -1 {
            acc = acc.mul(&a_inv);
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::SeedableRng;
    use sm_field::U64;

    fn random_cyclotomic(seed: u64) -> Fp12<U64> {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
        crate::final_exp::easy_part(&Fp12::random(&mut rng))
    }

    #[test]
    fn compressed_squarings_match() {
        for seed in 0..8 {
            let a = random_cyclotomic(seed);
            let (mut c1, mut c2) = (a.c1, a.c2);
            let mut full = a;
            for _ in 0..5 {
                (c1, c2) = compressed_square(&c1, &c2);
                full = square(&full);
                assert_eq!(decompress(&c1, &c2), full);
            }
            assert_eq!(full, a.square().square().square().square().square());
        }
    }

    #[test]
    fn decompress_identity() {
        assert_eq!(decompress::<U64>(&Fp4::ZERO, &Fp4::ZERO), Fp12::ONE);
    }

    #[test]
    fn exp_by_t_matches_pow() {
        for seed in 10..13 {
            let a = random_cyclotomic(seed);
            assert_eq!(exp_by_t(&a), a.pow_vartime(&[BN_T]));
        }
        assert_eq!(exp_by_t(&Fp12::<U64>::ONE), Fp12::ONE);
    }
}
