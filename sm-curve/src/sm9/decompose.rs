//! Constant-time scalar decomposition for the SM9 endomorphisms (GLV on G1, GLS on G2).
//!
//! An endomorphism acting on the group as multiplication by `μ` splits `k` into `D` short parts
//! with `k ≡ Σ kᵢ·μⁱ (mod n)`: with a reduced basis `B` (rows) of the lattice
//! `{v ∈ Zᴰ : Σ vᵢ·μⁱ ≡ 0 (mod n)}`, Babai's rounding gives `cⱼ = round(k·αⱼ)` with
//! `(α₀, …) = (1, 0, …)·B⁻¹` and `(k₀, …) = (k, 0, …) − Σ cⱼ·Bⱼ` (Galbraith–Lin–Scott,
//! "Endomorphisms for faster elliptic curve cryptography on a large class of curves", §5;
//! Bos–Costello–Longa, "Four-dimensional GLV", §3). The rounding uses precomputed
//! `gⱼ = round(2^319·|αⱼ|)` (below 2^256): `cⱼ = ⌊(k·gⱼ + 2^318) / 2^319⌋`, off from `k·αⱼ` by
//! at most `1/2 + 2^−64` since `k < 2^256`, so `|kᵢ| ≤ (1/2 + 2^−64)·Σⱼ |Bⱼᵢ|`.
//!
//! Everything is fixed-size wrapping arithmetic on 256-bit two's-complement integers (the parts
//! are small, so intermediate wrap-around cancels): no branch or index depends on `k`; branches
//! only read the signs of the public constants.
//!
//! The constants (bases in terms of the BN parameter t, and the gⱼ) are recomputed from first
//! principles with `num-bigint` in `src/sm9/tests.rs`.

use subtle::Choice;

/// A 256-bit integer as little-endian limbs (two's complement where signed).
pub(crate) type U256 = [u64; 4];

/// A lattice basis and the rounding constants of its decomposition.
pub(crate) struct Lattice<const D: usize> {
    /// `(|gⱼ|, gⱼ < 0)` with `gⱼ = round(2^319·αⱼ)`.
    pub(crate) g: [(U256, bool); D],
    /// `basis[j][i] = (|Bⱼᵢ|, Bⱼᵢ < 0)`.
    pub(crate) basis: [[(u128, bool); D]; D],
}

/// The BN parameter of SM9 (GM/T 0044.5 §A.1): p = 36t⁴ + 36t³ + 24t² + 6t + 1.
pub(crate) const T: u128 = 0x6000_0000_0058_F98A;

const fn pos(v: u128) -> (u128, bool) {
    (v, false)
}
const fn neg(v: u128) -> (u128, bool) {
    (v, true)
}

/// The GLV lattice of G1 for φ(x, y) = (βx, y) = [λ]P, λ = −(36t³ + 18t² + 6t + 2) mod n:
/// rows `(2t + 1, 6t² + 4t + 1)` and `(6t² + 2t, −(2t + 1))` (determinant −n). Parts are below
/// 2^127 in absolute value.
pub(crate) const GLV: Lattice<2> = Lattice {
    g: [
        // round(2^319·(2t + 1)/n)
        ([0xa5c2_cd7a_0cf0_c988, 0x86d9_0544_78bd_bc68, 0, 0], false),
        // round(2^319·(6t² + 4t + 1)/n)
        (
            [
                0x0668_b190_1e59_5e49,
                0xc1d9_7e82_be74_bebd,
                0x97b4_25ed_0862_0e18,
                0,
            ],
            false,
        ),
    ],
    basis: [
        [pos(2 * T + 1), pos(6 * T * T + 4 * T + 1)],
        [pos(6 * T * T + 2 * T), neg(2 * T + 1)],
    ],
};

/// The 4-dimensional GLS lattice of G2 for ψ = [p] = [6t²] (determinant −n): rows
/// `(2t + 1, 0, 2t, 1)`, `(1, −2t − 1, −1, −2t)`, `(t, −t, t, 2t + 1)`, `(t, −2t, −2t − 1, t)`,
/// an LLL-reduced basis rebalanced so that every column sum is at most 5t + 2: parts are below
/// (1/2 + 2^−64)·(5t + 2) < 2^64 in absolute value.
pub(crate) const GLS: Lattice<4> = Lattice {
    g: [
        (
            [
                0xff8a_bdc5_15c8_7a06,
                0x8358_cbf7_bad0_0ba1,
                0xf685_503b_4d80_488e,
                0xaaaa_aaaa_aa0c_7d42,
            ],
            false,
        ),
        (
            [
                0xdfd5_96f6_f376_a836,
                0xc106_1b31_7e17_241e,
                0xed09_ac20_6994_0ec9,
                0x38e3_8e38_e359_7f15,
            ],
            true,
        ),
        (
            [
                0xc613_df7e_0546_aeb5,
                0x43e5_b4e5_baa3_06fa,
                0x71c7_7e2d_db8a_2bac,
                0x71c7_1c71_c6b2_fe2c,
            ],
            true,
        ),
        (
            [
                0x2051_1203_f855_e52d,
                0xbd0c_afa1_41e5_4a92,
                0x71c7_7e2d_db8a_2bab,
                0x71c7_1c71_c6b2_fe2c,
            ],
            false,
        ),
    ],
    basis: [
        [pos(2 * T + 1), pos(0), pos(2 * T), pos(1)],
        [pos(1), neg(2 * T + 1), neg(1), neg(2 * T)],
        [pos(T), neg(T), pos(T), pos(2 * T + 1)],
        [pos(T), neg(2 * T), neg(2 * T + 1), pos(T)],
    ],
};

#[inline(always)]
fn mac(acc: u64, a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = (acc as u128) + (a as u128) * (b as u128) + (carry as u128);
    (t as u64, (t >> 64) as u64)
}

/// `⌊(a·b + 2^318) / 2^319⌋` (at most 193 bits for `a, b < 2^256`).
#[inline]
fn mul_round_319(a: &U256, b: &U256) -> U256 {
    let mut w = [0u64; 8];
    for i in 0..4 {
        let mut carry = 0;
        for j in 0..4 {
            let (lo, hi) = mac(w[i + j], a[i], b[j], carry);
            w[i + j] = lo;
            carry = hi;
        }
        w[i + 4] = carry;
    }
    // + 2^318: bit 62 of limb 4.
    let (s, mut c) = w[4].overflowing_add(1 << 62);
    w[4] = s;
    for limb in w.iter_mut().skip(5) {
        let (s, c2) = limb.overflowing_add(c as u64);
        *limb = s;
        c = c2;
    }
    // >> 319 = limbs 4.. shifted right by 63 bits.
    [
        (w[4] >> 63) | (w[5] << 1),
        (w[5] >> 63) | (w[6] << 1),
        (w[6] >> 63) | (w[7] << 1),
        w[7] >> 63,
    ]
}

/// Low 256 bits of `a·b` for a 128-bit `b`.
#[inline]
fn mul_lo_128(a: &U256, b: u128) -> U256 {
    let b = [b as u64, (b >> 64) as u64];
    let mut r = [0u64; 4];
    for (j, bj) in b.iter().enumerate() {
        let mut carry = 0;
        for i in 0..4 - j {
            let (lo, hi) = mac(r[i + j], a[i], *bj, carry);
            r[i + j] = lo;
            carry = hi;
        }
    }
    r
}

#[inline]
fn add(a: &U256, b: &U256) -> U256 {
    let mut r = [0u64; 4];
    let mut c = false;
    for i in 0..4 {
        let (s1, c1) = a[i].overflowing_add(b[i]);
        let (s2, c2) = s1.overflowing_add(c as u64);
        r[i] = s2;
        c = c1 | c2;
    }
    r
}

#[inline]
fn sub(a: &U256, b: &U256) -> U256 {
    let mut r = [0u64; 4];
    let mut c = false;
    for i in 0..4 {
        let (s1, c1) = a[i].overflowing_sub(b[i]);
        let (s2, c2) = s1.overflowing_sub(c as u64);
        r[i] = s2;
        c = c1 | c2;
    }
    r
}

/// Two's-complement absolute value and sign, without branches.
#[inline]
fn abs_sign(a: &U256) -> (U256, Choice) {
    let neg = a[3] >> 63;
    let mask = neg.wrapping_neg();
    let mut r = [0u64; 4];
    let mut c = neg;
    for i in 0..4 {
        let (s, c1) = (a[i] ^ mask).overflowing_add(c);
        r[i] = s;
        c = c1 as u64;
    }
    (r, Choice::from(neg as u8))
}

/// Splits `k < 2^256` into `D` parts `(|kᵢ|, kᵢ < 0)` with `k ≡ Σ kᵢ·μⁱ (mod n)`, in constant
/// time. The parts' absolute values are below the lattice's bound (2^127 for [`GLV`], 2^64 for
/// [`GLS`]); their upper limbs are zero.
pub(crate) fn decompose<const D: usize>(k: &U256, lat: &Lattice<D>) -> ([U256; D], [Choice; D]) {
    let mut c = [[0u64; 4]; D];
    for (cj, (g, _)) in c.iter_mut().zip(lat.g.iter()) {
        *cj = mul_round_319(k, g);
    }
    let mut parts = [[0u64; 4]; D];
    let mut signs = [Choice::from(0); D];
    for i in 0..D {
        let mut acc = if i == 0 { *k } else { [0u64; 4] };
        for ((cj, row), (_, g_neg)) in c.iter().zip(lat.basis.iter()).zip(lat.g.iter()) {
            let (b, b_neg) = row[i];
            let prod = mul_lo_128(cj, b);
            // kᵢ −= cⱼ·Bⱼᵢ with cⱼ = ±c[j]; the signs are public constants.
            acc = if g_neg ^ b_neg {
                add(&acc, &prod)
            } else {
                sub(&acc, &prod)
            };
        }
        let (a, s) = abs_sign(&acc);
        parts[i] = a;
        signs[i] = s;
    }
    zeroize::Zeroize::zeroize(&mut c);
    (parts, signs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert_eq!(abs_sign(&[u64::MAX; 4]).0, [1, 0, 0, 0]);
        assert!(bool::from(abs_sign(&[u64::MAX; 4]).1));
        assert_eq!(abs_sign(&[5, 0, 0, 0]).0, [5, 0, 0, 0]);
        assert_eq!(sub(&[0; 4], &[1, 0, 0, 0]), [u64::MAX; 4]);
        assert_eq!(add(&[u64::MAX; 4], &[1, 0, 0, 0]), [0; 4]);
        // 2^255·(2^64 + 2^63) = 1.5·2^319 rounds to 2; 2^255·2^63 = 0.5·2^319 rounds (half up) to 1;
        // 2^255·(2^63 − 1) rounds to 0.
        let half = [0, 0, 0, 1 << 63];
        assert_eq!(mul_round_319(&half, &[1 << 63, 1, 0, 0]), [2, 0, 0, 0]);
        assert_eq!(mul_round_319(&half, &[1 << 63, 0, 0, 0]), [1, 0, 0, 0]);
        assert_eq!(
            mul_round_319(&half, &[(1 << 63) - 1, 0, 0, 0]),
            [0, 0, 0, 0]
        );
        // (2^256 − 1)·2^254 = 2^191·2^319 − 2^254 rounds to 2^191.
        assert_eq!(
            mul_round_319(&[u64::MAX; 4], &[0, 0, 0, 1 << 62]),
            [0, 0, 1 << 63, 0]
        );
        assert_eq!(
            mul_lo_128(&[u64::MAX, 0, 0, 0], u128::MAX),
            [1, u64::MAX, u64::MAX - 1, 0]
        );
    }
}
