//! Portable constant-time SM4: a bitsliced S-box circuit (XOR/AND only, no table, no branch on
//! data), used on one word at a time (key schedule, single blocks) and on 16 blocks at once.
//!
//! # The S-box circuit
//!
//! S(x) = A·I(A·x ⊕ C) ⊕ C (see `algebra.rs`). The operand A·x ⊕ C is mapped into the tower
//! field GF((2^4)^2) by Φ (one combined affine map Φ·A, Φ·C); there, for a = a1·Y + a0 with
//! Y^2 = Y + ν,
//!
//! ```text
//! Δ = ν·a1² + a1·a0 + a0²,   a⁻¹ = (a1·Δ⁻¹)·Y + (a0 + a1)·Δ⁻¹      (Δ⁻¹ = 0 when Δ = 0)
//! ```
//!
//! (check: the product's Y coefficient is Δ⁻¹(a1² + a1(a0+a1) + a0a1) = 0 and its constant
//! term is Δ⁻¹(a0(a0+a1) + ν a1²) = 1). ν a1² + a0² is linear; the rest is three GF(2^4)
//! products and one GF(2^4) inversion, whose algebraic normal form (z^4+z+1, bits a,b,c,d =
//! z^0..z^3) is
//!
//! ```text
//! i0 = a+b+c+d+ac+bc+abc+bcd   i1 = d+ab+ac+bc+bd+abd   i2 = c+d+ab+ac+ad+acd   i3 = b+c+d+ad+bd+cd+bcd
//! ```
//!
//! The result is mapped back by A·Φ⁻¹ and C is added. Every map is a compile-time constant
//! matrix, so the loops in [`affine`] unroll to fixed XOR sequences.
//!
//! # The 16-block layout
//!
//! The state of 16 blocks is four words X0..X3, each 8 bit planes (`u64`): bit p of byte q
//! (q = 0 the least significant byte of the big-endian word) of word Xi of block k = 2j + s is
//! bit 16q + 8s + j of plane p of Xi. A rotation of the 32-bit word by 8 is then a rotation of
//! each plane by 16, and by 2 moves planes p → p+2 (planes 6, 7 wrap into the next byte, i.e.
//! into planes 0, 1 rotated by 16): the linear transform L costs a few XORs and rotations.

use crate::algebra::{Mat, A_PHI_INV, C, NORM_LIN, PHI_A, PHI_C};
use core::ops::{BitAnd, BitXor};

/// A bitsliced lane word.
pub(crate) trait Word: Copy + BitXor<Output = Self> + BitAnd<Output = Self> {
    /// All lanes zero.
    const ZERO: Self;
    /// All lanes one.
    const ONES: Self;
}

impl Word for u32 {
    const ZERO: Self = 0;
    const ONES: Self = !0;
}

impl Word for u64 {
    const ZERO: Self = 0;
    const ONES: Self = !0;
}

/// `m·x ⊕ c` on bit planes; `m` and `c` are compile-time constants, so the tests on their bits
/// fold away (they never depend on data).
#[inline(always)]
fn affine<T: Word>(m: &Mat, c: u8, x: &[T; 8]) -> [T; 8] {
    let mut out = [T::ZERO; 8];
    for i in 0..8 {
        for (j, &xj) in x.iter().enumerate() {
            if (m[i] >> j) & 1 == 1 {
                out[i] = out[i] ^ xj;
            }
        }
        if (c >> i) & 1 == 1 {
            out[i] = out[i] ^ T::ONES;
        }
    }
    out
}

/// a·b in GF(2)[z]/(z^4+z+1): schoolbook product, then z^4 = z+1, z^5 = z^2+z, z^6 = z^3+z^2.
#[inline(always)]
fn gf16_mul<T: Word>(a: [T; 4], b: [T; 4]) -> [T; 4] {
    let p0 = a[0] & b[0];
    let p1 = (a[0] & b[1]) ^ (a[1] & b[0]);
    let p2 = (a[0] & b[2]) ^ (a[1] & b[1]) ^ (a[2] & b[0]);
    let p3 = (a[0] & b[3]) ^ (a[1] & b[2]) ^ (a[2] & b[1]) ^ (a[3] & b[0]);
    let p4 = (a[1] & b[3]) ^ (a[2] & b[2]) ^ (a[3] & b[1]);
    let p5 = (a[2] & b[3]) ^ (a[3] & b[2]);
    let p6 = a[3] & b[3];
    [p0 ^ p4, p1 ^ p4 ^ p5, p2 ^ p5 ^ p6, p3 ^ p6]
}

/// a⁻¹ in GF(2)[z]/(z^4+z+1) (0 ↦ 0), from its algebraic normal form (module docs).
#[inline(always)]
fn gf16_inv<T: Word>(x: [T; 4]) -> [T; 4] {
    let [a, b, c, d] = x;
    let ab = a & b;
    let ac = a & c;
    let ad = a & d;
    let bc = b & c;
    let bd = b & d;
    let cd = c & d;
    let abc = ab & c;
    let abd = ab & d;
    let acd = ac & d;
    let bcd = bc & d;
    let cd_ = c ^ d;
    [
        a ^ b ^ cd_ ^ ac ^ bc ^ abc ^ bcd,
        d ^ ab ^ ac ^ bc ^ bd ^ abd,
        cd_ ^ ab ^ ac ^ ad ^ acd,
        b ^ cd_ ^ ad ^ bd ^ cd ^ bcd,
    ]
}

/// The SM4 S-box on every lane of the 8 bit planes.
#[inline(always)]
pub(crate) fn sbox<T: Word>(x: &[T; 8]) -> [T; 8] {
    let t = affine(&PHI_A, PHI_C, x);
    let a0 = [t[0], t[1], t[2], t[3]];
    let a1 = [t[4], t[5], t[6], t[7]];
    let lin = affine(&NORM_LIN, 0, &t);
    let prod = gf16_mul(a1, a0);
    let delta = [
        lin[0] ^ prod[0],
        lin[1] ^ prod[1],
        lin[2] ^ prod[2],
        lin[3] ^ prod[3],
    ];
    let dinv = gf16_inv(delta);
    let b1 = gf16_mul(a1, dinv);
    let s = [a0[0] ^ a1[0], a0[1] ^ a1[1], a0[2] ^ a1[2], a0[3] ^ a1[3]];
    let b0 = gf16_mul(s, dinv);
    let inv = [b0[0], b0[1], b0[2], b0[3], b1[0], b1[1], b1[2], b1[3]];
    affine(&A_PHI_INV, C, &inv)
}

/// τ: the S-box on the four bytes of a word, in constant time (GB/T 32907-2016 §6.2.1).
#[inline]
pub(crate) fn tau(w: u32) -> u32 {
    const LOW: u32 = 0x0101_0101;
    let mut planes = [0u32; 8];
    for (p, plane) in planes.iter_mut().enumerate() {
        *plane = (w >> p) & LOW;
    }
    let s = sbox(&planes);
    let mut out = 0;
    for (p, plane) in s.iter().enumerate() {
        out |= (plane & LOW) << p;
    }
    out
}

/// T = L∘τ of the round function, L(B) = B ⊕ (B<<<2) ⊕ (B<<<10) ⊕ (B<<<18) ⊕ (B<<<24)
/// (GB/T 32907-2016 §6.2.2).
#[inline]
pub(crate) fn t(x: u32) -> u32 {
    let b = tau(x);
    b ^ b.rotate_left(2) ^ b.rotate_left(10) ^ b.rotate_left(18) ^ b.rotate_left(24)
}

/// One block with round keys taken in order (encryption) or reversed (decryption), one word
/// at a time.
pub(crate) fn crypt_block(rk: &[u32; 32], decrypt: bool, block: &mut [u8; 16]) {
    let mut x = crate::load_words(block);
    for r in 0..32 {
        let k = rk[if decrypt { 31 - r } else { r }];
        let n = x[0] ^ t(x[1] ^ x[2] ^ x[3] ^ k);
        x = [x[1], x[2], x[3], n];
    }
    crate::store_words_reversed(&x, block);
}

/// Bitsliced round keys: plane p of round key i has all 16 lanes of byte q set to bit 8q+p of
/// rkᵢ (no branch: multiply by the bit).
pub(crate) fn bitslice_round_keys(rk: &[u32; 32]) -> [[u64; 8]; 32] {
    let mut out = [[0u64; 8]; 32];
    for (o, &k) in out.iter_mut().zip(rk) {
        for (p, plane) in o.iter_mut().enumerate() {
            for q in 0..4 {
                let bit = u64::from((k >> (8 * q + p)) & 1);
                *plane |= bit.wrapping_mul(0xFFFF) << (16 * q);
            }
        }
    }
    out
}

/// Swaps the bits of `a` selected by `mask << shift` with the bits of `b` selected by `mask`.
#[inline(always)]
fn delta_swap(a: &mut u64, b: &mut u64, shift: u32, mask: u64) {
    let t = ((*a >> shift) ^ *b) & mask;
    *b ^= t;
    *a ^= t << shift;
}

/// Transposes the 8×8 byte matrix whose row r is `m[r]` (byte c of `m[r]` = entry (r, c)).
#[inline(always)]
fn transpose_bytes(m: &mut [u64; 8]) {
    for (shift, mask, step) in [
        (32, 0x0000_0000_FFFF_FFFF, 4),
        (16, 0x0000_FFFF_0000_FFFF, 2),
        (8, 0x00FF_00FF_00FF_00FF, 1),
    ] {
        for i in 0..8 {
            if i & step == 0 {
                let (lo, hi) = m.split_at_mut(i + step);
                delta_swap(&mut lo[i], &mut hi[0], shift, mask);
            }
        }
    }
}

/// Transposes the 8×8 bit matrix in `x` (bit c of byte r ↔ bit r of byte c).
#[inline(always)]
fn transpose_bits(x: u64) -> u64 {
    let mut x = x;
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^= t ^ (t << 28);
    x
}

/// Word `i` of 16 blocks → its 8 bit planes (module docs' layout).
///
/// `v[j]` = word of block 2j | word of block 2j+1 << 32, so byte c = 4s + q of `v[j]` is byte q
/// of block 2j+s. Byte transpose: row c holds those bytes for j = 0..8; rows reordered to
/// 2q + s; bit transpose of each row: byte p = bit p of the 8 bytes; byte transpose back: row p
/// (the plane) has byte 2q+s = bits of blocks 2j+s, i.e. bit 16q + 8s + j.
#[inline(always)]
fn bitslice(words: [u32; 16]) -> [u64; 8] {
    let mut m = [0u64; 8];
    for (j, v) in m.iter_mut().enumerate() {
        *v = u64::from(words[2 * j]) | (u64::from(words[2 * j + 1]) << 32);
    }
    transpose_bytes(&mut m);
    // Row c = 4s + q goes to row 2q + s.
    let mut r = [0u64; 8];
    for s in 0..2 {
        for q in 0..4 {
            r[2 * q + s] = transpose_bits(m[4 * s + q]);
        }
    }
    transpose_bytes(&mut r);
    r
}

/// Inverse of [`bitslice`].
#[inline(always)]
fn unbitslice(planes: [u64; 8]) -> [u32; 16] {
    let mut r = planes;
    transpose_bytes(&mut r);
    let mut m = [0u64; 8];
    for s in 0..2 {
        for q in 0..4 {
            m[4 * s + q] = transpose_bits(r[2 * q + s]);
        }
    }
    transpose_bytes(&mut m);
    let mut words = [0u32; 16];
    for (j, v) in m.iter().enumerate() {
        words[2 * j] = *v as u32;
        words[2 * j + 1] = (*v >> 32) as u32;
    }
    words
}

/// L on bitsliced planes: R2 = planes of B<<<2, then
/// L = B ⊕ (B<<<24) ⊕ R2 ⊕ (R2<<<8) ⊕ (R2<<<16), where <<<8k rotates each plane by 16k.
#[inline(always)]
fn l_planes(b: &[u64; 8]) -> [u64; 8] {
    let r2 = [
        b[6].rotate_left(16),
        b[7].rotate_left(16),
        b[0],
        b[1],
        b[2],
        b[3],
        b[4],
        b[5],
    ];
    let mut out = [0u64; 8];
    for p in 0..8 {
        out[p] =
            b[p] ^ b[p].rotate_left(48) ^ r2[p] ^ r2[p].rotate_left(16) ^ r2[p].rotate_left(32);
    }
    out
}

/// 16 blocks at once (encryption with the round keys in order, decryption reversed).
pub(crate) fn crypt_16(bs_rk: &[[u64; 8]; 32], decrypt: bool, blocks: &mut [[u8; 16]; 16]) {
    let mut x = [[0u64; 8]; 4];
    for (i, xi) in x.iter_mut().enumerate() {
        let mut words = [0u32; 16];
        for (w, b) in words.iter_mut().zip(blocks.iter()) {
            *w = u32::from_be_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
        }
        *xi = bitslice(words);
    }
    for r in 0..32 {
        let k = &bs_rk[if decrypt { 31 - r } else { r }];
        let (x0, x1, x2, x3) = (r % 4, (r + 1) % 4, (r + 2) % 4, (r + 3) % 4);
        let mut t = [0u64; 8];
        for p in 0..8 {
            t[p] = x[x1][p] ^ x[x2][p] ^ x[x3][p] ^ k[p];
        }
        let l = l_planes(&sbox(&t));
        for p in 0..8 {
            x[x0][p] ^= l[p];
        }
    }
    // After 32 rounds (a multiple of 4) x[0..4] = X32..X35; the output is (X35, X34, X33, X32).
    for (i, xi) in x.iter().enumerate() {
        let words = unbitslice(*xi);
        for (w, b) in words.iter().zip(blocks.iter_mut()) {
            b[4 * (3 - i)..4 * (3 - i) + 4].copy_from_slice(&w.to_be_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gf16_inverse_formula_is_the_field_inverse() {
        for a in 0u8..16 {
            let bits = [0, 1, 2, 3].map(|i| u32::from((a >> i) & 1));
            let inv = gf16_inv(bits);
            let got = (0..4).fold(0u8, |acc, i| acc | ((inv[i] as u8 & 1) << i));
            if a == 0 {
                assert_eq!(got, 0);
            } else {
                assert_eq!(crate::algebra::gf16_mul(a, got), 1, "a = {a}");
            }
        }
    }

    #[test]
    fn gf16_mul_circuit_matches_the_field() {
        for a in 0u8..16 {
            for b in 0u8..16 {
                let abits = [0, 1, 2, 3].map(|i| u32::from((a >> i) & 1));
                let bbits = [0, 1, 2, 3].map(|i| u32::from((b >> i) & 1));
                let p = gf16_mul(abits, bbits);
                let got = (0..4).fold(0u8, |acc, i| acc | ((p[i] as u8 & 1) << i));
                assert_eq!(got, crate::algebra::gf16_mul(a, b));
            }
        }
    }

    #[test]
    fn bitslice_round_trips_and_has_the_documented_layout() {
        let mut words = [0u32; 16];
        for (k, w) in words.iter_mut().enumerate() {
            *w = (k as u32).wrapping_mul(0x9E37_79B9) ^ 0x1234_5678;
        }
        let planes = bitslice(words);
        for (k, w) in words.iter().enumerate() {
            let (j, s) = (k / 2, k % 2);
            for q in 0..4 {
                for (p, plane) in planes.iter().enumerate() {
                    let want = (w >> (8 * q + p)) & 1;
                    let got = (plane >> (16 * q + 8 * s + j)) & 1;
                    assert_eq!(u64::from(want), got, "k {k} q {q} p {p}");
                }
            }
        }
        assert_eq!(unbitslice(planes), words);
    }

    #[test]
    fn bitsliced_l_matches_the_word_l() {
        let mut words = [0u32; 16];
        for (k, w) in words.iter_mut().enumerate() {
            *w = (k as u32 + 1)
                .wrapping_mul(0x85EB_CA6B)
                .rotate_left(k as u32);
        }
        let l = unbitslice(l_planes(&bitslice(words)));
        for (w, got) in words.iter().zip(l) {
            let want =
                w ^ w.rotate_left(2) ^ w.rotate_left(10) ^ w.rotate_left(18) ^ w.rotate_left(24);
            assert_eq!(got, want);
        }
    }
}
