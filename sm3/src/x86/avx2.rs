//! Eight-lane SM3 with AVX2: lane i of every `__m256i` belongs to message i.
//!
//! Blocks are loaded row-wise (one message per row), transposed 8×8 twice into the 16 word
//! vectors W0..W15, byte-swapped (§5.3.2 a) reads big-endian words), then run through the shared
//! [`lane_rounds!`] body.

use core::arch::x86_64::*;

use super::lane_rounds;

#[inline]
#[target_feature(enable = "avx2")]
fn add(x: __m256i, y: __m256i) -> __m256i {
    _mm256_add_epi32(x, y)
}

#[inline]
#[target_feature(enable = "avx2")]
fn xor(x: __m256i, y: __m256i) -> __m256i {
    _mm256_xor_si256(x, y)
}

#[inline]
#[target_feature(enable = "avx2")]
fn xor3(x: __m256i, y: __m256i, z: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(x, y), z)
}

/// FF_j, 16 ≤ j ≤ 63 (§4.3).
#[inline]
#[target_feature(enable = "avx2")]
fn maj(x: __m256i, y: __m256i, z: __m256i) -> __m256i {
    _mm256_or_si256(
        _mm256_and_si256(x, y),
        _mm256_and_si256(_mm256_or_si256(x, y), z),
    )
}

/// GG_j, 16 ≤ j ≤ 63 (§4.3).
#[inline]
#[target_feature(enable = "avx2")]
fn choose(x: __m256i, y: __m256i, z: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_and_si256(_mm256_xor_si256(y, z), x), z)
}

/// Rotate left by `L` (`R` = 32 − `L`).
#[inline]
#[target_feature(enable = "avx2")]
fn rol<const L: i32, const R: i32>(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi32::<L>(x), _mm256_srli_epi32::<R>(x))
}

/// P0 (§4.4).
#[inline]
#[target_feature(enable = "avx2")]
fn p0(x: __m256i) -> __m256i {
    xor3(x, rol::<9, 23>(x), rol::<17, 15>(x))
}

/// P1 (§4.4).
#[inline]
#[target_feature(enable = "avx2")]
fn p1(x: __m256i) -> __m256i {
    xor3(x, rol::<15, 17>(x), rol::<23, 9>(x))
}

#[inline]
#[target_feature(enable = "avx2")]
fn splat(x: u32) -> __m256i {
    _mm256_set1_epi32(x as i32)
}

#[inline]
#[target_feature(enable = "avx2")]
fn load(bytes: &[u8; 32]) -> __m256i {
    // SAFETY: `bytes` is a valid, readable 32-byte region; `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn load_words(words: &[u32; 8]) -> __m256i {
    // SAFETY: `words` is a valid, readable 32-byte region; `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(words.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn store_words(words: &mut [u32; 8], v: __m256i) {
    // SAFETY: `words` is a valid, writable 32-byte region; `storeu` has no alignment requirement.
    unsafe { _mm256_storeu_si256(words.as_mut_ptr().cast(), v) }
}

/// Transposes 8 rows of 8 words: output vector k holds word k of every row.
#[inline]
#[target_feature(enable = "avx2")]
fn transpose8(r: [__m256i; 8]) -> [__m256i; 8] {
    let t0 = _mm256_unpacklo_epi32(r[0], r[1]);
    let t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    let t2 = _mm256_unpacklo_epi32(r[2], r[3]);
    let t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    let t4 = _mm256_unpacklo_epi32(r[4], r[5]);
    let t5 = _mm256_unpackhi_epi32(r[4], r[5]);
    let t6 = _mm256_unpacklo_epi32(r[6], r[7]);
    let t7 = _mm256_unpackhi_epi32(r[6], r[7]);
    // u[4i + m], 128-bit half k: word 4k + m of rows 4i..4i+3.
    let u0 = _mm256_unpacklo_epi64(t0, t2);
    let u1 = _mm256_unpackhi_epi64(t0, t2);
    let u2 = _mm256_unpacklo_epi64(t1, t3);
    let u3 = _mm256_unpackhi_epi64(t1, t3);
    let u4 = _mm256_unpacklo_epi64(t4, t6);
    let u5 = _mm256_unpackhi_epi64(t4, t6);
    let u6 = _mm256_unpacklo_epi64(t5, t7);
    let u7 = _mm256_unpackhi_epi64(t5, t7);
    [
        _mm256_permute2x128_si256::<0x20>(u0, u4),
        _mm256_permute2x128_si256::<0x20>(u1, u5),
        _mm256_permute2x128_si256::<0x20>(u2, u6),
        _mm256_permute2x128_si256::<0x20>(u3, u7),
        _mm256_permute2x128_si256::<0x31>(u0, u4),
        _mm256_permute2x128_si256::<0x31>(u1, u5),
        _mm256_permute2x128_si256::<0x31>(u2, u6),
        _mm256_permute2x128_si256::<0x31>(u3, u7),
    ]
}

/// Loads word `HALF * 8 + k` (k = 0..8) of every lane's block, as big-endian words.
#[inline]
#[target_feature(enable = "avx2")]
fn load_half<const HALF: usize>(blocks: &[&[u8; 64]; 8]) -> [__m256i; 8] {
    let bswap = _mm256_setr_epi8(
        3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, //
        3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
    );
    let rows = core::array::from_fn(|i| {
        let half = blocks[i].as_chunks::<32>().0[HALF];
        _mm256_shuffle_epi8(load(&half), bswap)
    });
    transpose8(rows)
}

/// The 64 rounds and the final XOR (§5.3.3) on lane vectors: evaluates to CF(v, w) per lane.
/// A macro rather than a function so that it is expanded inside each `#[target_feature]` caller
/// (keeping `w` in that caller's frame measurably helps register allocation).
macro_rules! cf {
    ($v:expr, $w:expr) => {{
        let v: [__m256i; 8] = $v;
        let mut w: [__m256i; 16] = $w;
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = v;
        lane_rounds!(w, a, b, c, d, e, f, g, h);
        let x = [a, b, c, d, e, f, g, h];
        let out: [__m256i; 8] = core::array::from_fn(|k| xor(v[k], x[k]));
        out
    }};
}

/// CF (§5.3.3) on eight independent lanes, over consecutive blocks: `state[k][i]` is word k of
/// lane i's chaining value, `lanes[i]` lane i's next blocks (all slices of one length). The
/// chaining values stay in registers from block to block.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn compress_x8(state: &mut [[u32; 8]; 8], lanes: &[&[[u8; 64]]; 8]) {
    let n = lanes[0].len();
    debug_assert!(lanes.iter().all(|l| l.len() == n));
    let mut v: [__m256i; 8] = core::array::from_fn(|k| load_words(&state[k]));
    #[allow(clippy::needless_range_loop)] // block b of every lane
    for b in 0..n {
        let blocks: [&[u8; 64]; 8] = core::array::from_fn(|i| &lanes[i][b]);
        let lo = load_half::<0>(&blocks);
        let hi = load_half::<1>(&blocks);
        let w = [
            lo[0], lo[1], lo[2], lo[3], lo[4], lo[5], lo[6], lo[7], //
            hi[0], hi[1], hi[2], hi[3], hi[4], hi[5], hi[6], hi[7],
        ];
        v = cf!(v, w);
    }
    for (row, x) in state.iter_mut().zip(v) {
        store_words(row, x);
    }
}

/// KDF blocks for eight consecutive counters `ct0 + i` from one midstate; see
/// [`super::avx512::kdf_x16`] for the template layout.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn kdf_x8(
    mid: &[u32; 8],
    template: &[[u32; 16]; 2],
    nblocks: usize,
    off: usize,
    ct0: u32,
    out: &mut [[u32; 8]; 8],
) {
    let ct = add(splat(ct0), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    let sh = (8 * (off % 4)) as u32;
    let first = _mm256_srlv_epi32(ct, splat(sh));
    let second = _mm256_sllv_epi32(ct, splat(32 - sh)); // zero when sh = 0
    let mut v: [__m256i; 8] = core::array::from_fn(|k| splat(mid[k]));
    for (b, words) in template.iter().enumerate().take(nblocks) {
        let mut w: [__m256i; 16] = core::array::from_fn(|k| splat(words[k]));
        for (word, part) in [(off / 4, first), (off / 4 + 1, second)] {
            if word / 16 == b {
                w[word % 16] = _mm256_or_si256(w[word % 16], part);
            }
        }
        v = cf!(v, w);
    }
    for (row, x) in out.iter_mut().zip(v) {
        store_words(row, x);
    }
}
