//! Sixteen-lane SM3 with AVX-512F/BW/VL: lane i of every `__m512i` belongs to message i.
//!
//! Rotations are single `vprold`; FF/GG and the three-way XORs of P0, P1 and the expansion are
//! single `vpternlogd`. Blocks are loaded one message per row and transposed 16×16.

use core::arch::x86_64::*;

use super::lane_rounds;

#[inline]
#[target_feature(enable = "avx512f")]
fn add(x: __m512i, y: __m512i) -> __m512i {
    _mm512_add_epi32(x, y)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn xor(x: __m512i, y: __m512i) -> __m512i {
    _mm512_xor_si512(x, y)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn xor3(x: __m512i, y: __m512i, z: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<0x96>(x, y, z)
}

/// FF_j, 16 ≤ j ≤ 63 (§4.3): majority, truth table 0xE8.
#[inline]
#[target_feature(enable = "avx512f")]
fn maj(x: __m512i, y: __m512i, z: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<0xE8>(x, y, z)
}

/// GG_j, 16 ≤ j ≤ 63 (§4.3): x ? y : z, truth table 0xCA.
#[inline]
#[target_feature(enable = "avx512f")]
fn choose(x: __m512i, y: __m512i, z: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<0xCA>(x, y, z)
}

/// Rotate left by `L` (`R` = 32 − `L` is implied by `vprold`).
#[inline]
#[target_feature(enable = "avx512f")]
fn rol<const L: i32, const R: i32>(x: __m512i) -> __m512i {
    _mm512_rol_epi32::<L>(x)
}

/// P0 (§4.4).
#[inline]
#[target_feature(enable = "avx512f")]
fn p0(x: __m512i) -> __m512i {
    xor3(x, rol::<9, 23>(x), rol::<17, 15>(x))
}

/// P1 (§4.4).
#[inline]
#[target_feature(enable = "avx512f")]
fn p1(x: __m512i) -> __m512i {
    xor3(x, rol::<15, 17>(x), rol::<23, 9>(x))
}

#[inline]
#[target_feature(enable = "avx512f")]
fn splat(x: u32) -> __m512i {
    _mm512_set1_epi32(x as i32)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn load_block(block: &[u8; 64]) -> __m512i {
    // SAFETY: `block` is a valid, readable 64-byte region; `loadu` has no alignment requirement.
    unsafe { _mm512_loadu_si512(block.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx512f")]
fn load_words(words: &[u32; 16]) -> __m512i {
    // SAFETY: `words` is a valid, readable 64-byte region; `loadu` has no alignment requirement.
    unsafe { _mm512_loadu_si512(words.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx512f")]
fn store_words(words: &mut [u32; 16], v: __m512i) {
    // SAFETY: `words` is a valid, writable 64-byte region; `storeu` has no alignment requirement.
    unsafe { _mm512_storeu_si512(words.as_mut_ptr().cast(), v) }
}

/// Loads the 16 lanes' blocks and returns W0..W15 (§5.3.2 a), big-endian words): output vector k
/// holds word k of every lane.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn load_transpose(blocks: &[&[u8; 64]; 16]) -> [__m512i; 16] {
    let bswap = _mm512_set4_epi32(0x0c0d_0e0f, 0x0809_0a0b, 0x0405_0607, 0x0001_0203);
    let r: [__m512i; 16] =
        core::array::from_fn(|i| _mm512_shuffle_epi8(load_block(blocks[i]), bswap));
    // t[2i], t[2i+1]: 32-bit interleave of rows 2i, 2i+1 within each 128-bit lane.
    let mut t = [_mm512_setzero_si512(); 16];
    for i in 0..8 {
        t[2 * i] = _mm512_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
    }
    // u[4i + m], 128-bit lane k: word 4k + m of rows 4i..4i+3.
    let mut u = [_mm512_setzero_si512(); 16];
    for i in 0..4 {
        u[4 * i] = _mm512_unpacklo_epi64(t[4 * i], t[4 * i + 2]);
        u[4 * i + 1] = _mm512_unpackhi_epi64(t[4 * i], t[4 * i + 2]);
        u[4 * i + 2] = _mm512_unpacklo_epi64(t[4 * i + 1], t[4 * i + 3]);
        u[4 * i + 3] = _mm512_unpackhi_epi64(t[4 * i + 1], t[4 * i + 3]);
    }
    // Gather 128-bit lane k of u[m], u[4+m], u[8+m], u[12+m] into word vector 4k + m.
    let mut out = [_mm512_setzero_si512(); 16];
    for m in 0..4 {
        let v0 = _mm512_shuffle_i32x4::<0x44>(u[m], u[4 + m]);
        let v1 = _mm512_shuffle_i32x4::<0xEE>(u[m], u[4 + m]);
        let v2 = _mm512_shuffle_i32x4::<0x44>(u[8 + m], u[12 + m]);
        let v3 = _mm512_shuffle_i32x4::<0xEE>(u[8 + m], u[12 + m]);
        out[m] = _mm512_shuffle_i32x4::<0x88>(v0, v2);
        out[4 + m] = _mm512_shuffle_i32x4::<0xDD>(v0, v2);
        out[8 + m] = _mm512_shuffle_i32x4::<0x88>(v1, v3);
        out[12 + m] = _mm512_shuffle_i32x4::<0xDD>(v1, v3);
    }
    out
}

/// The 64 rounds and the final XOR (§5.3.3) on lane vectors: evaluates to CF(v, w) per lane.
/// A macro rather than a function so that it is expanded inside each `#[target_feature]` caller
/// (keeping `w` in that caller's frame measurably helps register allocation).
macro_rules! cf {
    ($v:expr, $w:expr) => {{
        let v: [__m512i; 8] = $v;
        let mut w: [__m512i; 16] = $w;
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = v;
        lane_rounds!(w, a, b, c, d, e, f, g, h);
        let x = [a, b, c, d, e, f, g, h];
        let out: [__m512i; 8] = core::array::from_fn(|k| xor(v[k], x[k]));
        out
    }};
}

/// CF (§5.3.3) on sixteen independent lanes, over consecutive blocks: `state[k][i]` is word k
/// of lane i's chaining value, `lanes[i]` lane i's next blocks (all slices of one length). The
/// chaining values stay in registers from block to block.
///
/// # Safety
/// The CPU must support AVX-512F, AVX-512BW and AVX-512VL.
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
pub(crate) unsafe fn compress_x16(state: &mut [[u32; 16]; 8], lanes: &[&[[u8; 64]]; 16]) {
    let n = lanes[0].len();
    debug_assert!(lanes.iter().all(|l| l.len() == n));
    let mut v: [__m512i; 8] = core::array::from_fn(|k| load_words(&state[k]));
    #[allow(clippy::needless_range_loop)] // block b of every lane
    for b in 0..n {
        let w = load_transpose(&core::array::from_fn(|i| &lanes[i][b]));
        v = cf!(v, w);
    }
    for (row, x) in state.iter_mut().zip(v) {
        store_words(row, x);
    }
}

/// KDF blocks for sixteen consecutive counters `ct0 + i` from one midstate: every lane hashes
/// the same template words (rest of Z, zeroed counter, padding), with its big-endian counter
/// OR-ed in at byte offset `off` of the flattened template. Writes lane i's result to
/// `out[k][i]`.
///
/// # Safety
/// The CPU must support AVX-512F, AVX-512BW and AVX-512VL.
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
pub(crate) unsafe fn kdf_x16(
    mid: &[u32; 8],
    template: &[[u32; 16]; 2],
    nblocks: usize,
    off: usize,
    ct0: u32,
    out: &mut [[u32; 16]; 8],
) {
    let ct = add(
        splat(ct0),
        _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
    );
    let sh = (8 * (off % 4)) as u32;
    // The counter's first 4 − off%4 bytes end word off/4, the rest start the next word.
    let first = _mm512_srlv_epi32(ct, splat(sh));
    let second = _mm512_sllv_epi32(ct, splat(32 - sh)); // zero when sh = 0
    let mut v: [__m512i; 8] = core::array::from_fn(|k| splat(mid[k]));
    for (b, words) in template.iter().enumerate().take(nblocks) {
        let mut w: [__m512i; 16] = core::array::from_fn(|k| splat(words[k]));
        for (word, part) in [(off / 4, first), (off / 4 + 1, second)] {
            if word / 16 == b {
                w[word % 16] = _mm512_or_si512(w[word % 16], part);
            }
        }
        v = cf!(v, w);
    }
    for (row, x) in out.iter_mut().zip(v) {
        store_words(row, x);
    }
}
