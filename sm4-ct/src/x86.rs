//! x86_64 GFNI kernels, selected at run time.
//!
//! The S-box of a whole vector of bytes is two instructions (see `algebra.rs`):
//! `GF2P8AFFINEQB` with (M·A, M·C) maps into the AES field, `GF2P8AFFINEINVQB` with (A·M⁻¹, C)
//! inverts there and maps back. Neither has a data-dependent timing or memory access.
//!
//! Blocks are processed word-sliced: after a 4×4 transpose of 32-bit words per 128-bit lane,
//! register Xi holds word i of 4 (SSE), 8 (AVX2) or 16 (AVX-512) blocks, and one round is the
//! same few vector instructions for all of them. Round keys are broadcast.
//!
//! A [`Level`] is built only after the CPU features it needs were detected (cached), so every
//! `unsafe` call of a `#[target_feature]` function below is justified by holding one.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use crate::algebra::{GFNI_IN, GFNI_IN_C, GFNI_OUT, GFNI_OUT_C};

/// A GFNI kernel width the CPU supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    /// GFNI + SSSE3, 4 blocks per pass.
    Sse,
    /// GFNI + AVX2, 8 blocks per pass.
    Avx2,
    /// GFNI + AVX-512F/BW, 16 blocks per pass.
    Avx512,
}

#[cfg(not(feature = "std"))]
mod detect {
    cpufeatures::new!(gfni_sse, "gfni", "ssse3");
    cpufeatures::new!(gfni_avx2, "gfni", "avx", "avx2");
    cpufeatures::new!(gfni_avx512, "gfni", "avx512f", "avx512bw");

    pub(super) fn sse() -> bool {
        gfni_sse::get()
    }
    pub(super) fn avx2() -> bool {
        gfni_avx2::get()
    }
    pub(super) fn avx512() -> bool {
        gfni_avx512::get()
    }
}

#[cfg(feature = "std")]
mod detect {
    use core::sync::atomic::{AtomicU8, Ordering};

    /// Bit 7: initialised; bits 0, 1, 2: SSE, AVX2, AVX-512 levels usable.
    static CACHE: AtomicU8 = AtomicU8::new(0);

    fn bits() -> u8 {
        let c = CACHE.load(Ordering::Relaxed);
        if c & 0x80 != 0 {
            return c;
        }
        let gfni = std::is_x86_feature_detected!("gfni");
        let sse = gfni && std::is_x86_feature_detected!("ssse3");
        let avx2 = gfni && std::is_x86_feature_detected!("avx2");
        let avx512 = gfni
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw");
        let c = 0x80 | u8::from(sse) | (u8::from(avx2) << 1) | (u8::from(avx512) << 2);
        CACHE.store(c, Ordering::Relaxed);
        c
    }
    pub(super) fn sse() -> bool {
        bits() & 1 != 0
    }
    pub(super) fn avx2() -> bool {
        bits() & 2 != 0
    }
    pub(super) fn avx512() -> bool {
        bits() & 4 != 0
    }
}

impl Level {
    /// The widest supported level, if any (detection cached after the first call).
    pub(crate) fn best() -> Option<Self> {
        if detect::avx512() {
            Some(Level::Avx512)
        } else if detect::avx2() {
            Some(Level::Avx2)
        } else if detect::sse() {
            Some(Level::Sse)
        } else {
            None
        }
    }

    /// `Some(level)` when the CPU supports `level`.
    pub(crate) fn check(level: Level) -> Option<Self> {
        let ok = match level {
            Level::Sse => detect::sse(),
            Level::Avx2 => detect::avx2(),
            Level::Avx512 => detect::avx512(),
        };
        ok.then_some(level)
    }

    /// τ (the S-box on 4 bytes) of one word, for the key schedule.
    #[inline]
    pub(crate) fn tau(self, w: u32) -> u32 {
        // SAFETY: every Level implies GFNI + SSSE3 were detected at run time.
        unsafe { sse::tau(w) }
    }

    /// Encrypts (decrypts with `decrypt`) up to 16 blocks: `n` of `blocks` are used, the rest
    /// is scratch (padding lanes, results discarded by the caller).
    #[inline]
    pub(crate) fn crypt(
        self,
        rk: &[u32; 32],
        decrypt: bool,
        blocks: &mut [[u8; 16]; 16],
        n: usize,
    ) {
        match self {
            Level::Avx512 => {
                // SAFETY: Level::Avx512 is only built after GFNI, AVX-512F and AVX-512BW were
                // detected.
                unsafe { avx512::crypt(rk, decrypt, blocks) }
            }
            Level::Avx2 => {
                for chunk in blocks.chunks_exact_mut(8).take(n.div_ceil(8)) {
                    let chunk: &mut [[u8; 16]; 8] = chunk.try_into().expect("8 blocks");
                    // SAFETY: Level::Avx2 is only built after GFNI and AVX2 were detected.
                    unsafe { avx2::crypt(rk, decrypt, chunk) }
                }
            }
            Level::Sse => {
                for chunk in blocks.chunks_exact_mut(4).take(n.div_ceil(4)) {
                    let chunk: &mut [[u8; 16]; 4] = chunk.try_into().expect("4 blocks");
                    // SAFETY: Level::Sse is only built after GFNI and SSSE3 were detected.
                    unsafe { sse::crypt(rk, decrypt, chunk) }
                }
            }
        }
    }

    /// One block with the 4-lane kernel (three lanes of scratch).
    #[inline]
    pub(crate) fn crypt1(self, rk: &[u32; 32], decrypt: bool, block: &mut [u8; 16]) {
        let mut lanes = [*block, [0; 16], [0; 16], [0; 16]];
        // SAFETY: every Level implies GFNI + SSSE3 were detected at run time.
        unsafe { sse::crypt(rk, decrypt, &mut lanes) };
        *block = lanes[0];
    }
}

/// The 32 rounds on word-sliced state, shared by the three widths: each module defines
/// `V`, `xor`, `xor3`, `splat`, `sbox` and `l` (the round's linear transform) with its
/// `#[target_feature]`s; `rounds` is expanded inside it.
macro_rules! rounds {
    ($features:literal) => {
        /// X0..X3 → (X35, X34, X33, X32) of GB/T 32907-2016 §7.1, round keys in order or
        /// reversed.
        #[target_feature(enable = $features)]
        #[inline]
        fn rounds(x: [V; 4], rk: &[u32; 32], decrypt: bool) -> [V; 4] {
            let [mut x0, mut x1, mut x2, mut x3] = x;
            for r in 0..32 {
                let k = splat(rk[if decrypt { 31 - r } else { r }]);
                let t = xor(xor3(x1, x2, x3), k);
                let n = xor(x0, l(sbox(t)));
                (x0, x1, x2, x3) = (x1, x2, x3, n);
            }
            [x3, x2, x1, x0]
        }
    };
}

/// The 4×4 transpose of 32-bit words within each 128-bit lane (an involution), written once
/// for the three widths.
macro_rules! transpose4 {
    ($lo32:ident, $hi32:ident, $lo64:ident, $hi64:ident, $x:expr) => {{
        let [a, b, c, d] = $x;
        let t0 = $lo32(a, b);
        let t1 = $lo32(c, d);
        let t2 = $hi32(a, b);
        let t3 = $hi32(c, d);
        [$lo64(t0, t1), $hi64(t0, t1), $lo64(t2, t3), $hi64(t2, t3)]
    }};
}

/// Byte shuffle that reverses the bytes of each 32-bit word (big-endian words ↔ lanes).
const BSWAP32: [i8; 16] = [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12];
/// Byte shuffles rotating each 32-bit word left by 8 and 16 bits.
const ROL8: [i8; 16] = [3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14];
const ROL16: [i8; 16] = [2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13];
const ROL24: [i8; 16] = [1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12];

/// The GFNI constants as the intrinsics take them.
const IN_MAT: i64 = GFNI_IN as i64;
const IN_C: i32 = GFNI_IN_C as i32;
const OUT_MAT: i64 = GFNI_OUT as i64;
const OUT_C: i32 = GFNI_OUT_C as i32;

mod sse {
    use super::*;

    type V = __m128i;

    #[target_feature(enable = "ssse3,gfni")]
    #[inline]
    fn shuf(x: V, pattern: [i8; 16]) -> V {
        let p = _mm_setr_epi8(
            pattern[0],
            pattern[1],
            pattern[2],
            pattern[3],
            pattern[4],
            pattern[5],
            pattern[6],
            pattern[7],
            pattern[8],
            pattern[9],
            pattern[10],
            pattern[11],
            pattern[12],
            pattern[13],
            pattern[14],
            pattern[15],
        );
        _mm_shuffle_epi8(x, p)
    }
    #[target_feature(enable = "ssse3,gfni")]
    #[inline]
    fn xor(a: V, b: V) -> V {
        _mm_xor_si128(a, b)
    }
    #[target_feature(enable = "ssse3,gfni")]
    #[inline]
    fn xor3(a: V, b: V, c: V) -> V {
        _mm_xor_si128(_mm_xor_si128(a, b), c)
    }
    #[target_feature(enable = "ssse3,gfni")]
    #[inline]
    fn splat(k: u32) -> V {
        _mm_set1_epi32(k as i32)
    }
    #[target_feature(enable = "ssse3,gfni")]
    #[inline]
    fn sbox(x: V) -> V {
        let y = _mm_gf2p8affine_epi64_epi8::<IN_C>(x, _mm_set1_epi64x(IN_MAT));
        _mm_gf2p8affineinv_epi64_epi8::<OUT_C>(y, _mm_set1_epi64x(OUT_MAT))
    }
    /// L(B) = B ⊕ (B<<<24) ⊕ ((B ⊕ (B<<<8) ⊕ (B<<<16)) <<< 2).
    #[target_feature(enable = "ssse3,gfni")]
    #[inline]
    fn l(b: V) -> V {
        let u = xor3(b, shuf(b, ROL8), shuf(b, ROL16));
        let u2 = _mm_or_si128(_mm_slli_epi32::<2>(u), _mm_srli_epi32::<30>(u));
        xor3(b, shuf(b, ROL24), u2)
    }

    rounds!("ssse3,gfni");

    /// τ of one word (lane 0).
    #[target_feature(enable = "ssse3,gfni")]
    #[inline]
    pub(super) fn tau(w: u32) -> u32 {
        _mm_cvtsi128_si32(sbox(_mm_cvtsi32_si128(w as i32))) as u32
    }

    /// 4 blocks.
    #[target_feature(enable = "ssse3,gfni")]
    pub(super) fn crypt(rk: &[u32; 32], decrypt: bool, blocks: &mut [[u8; 16]; 4]) {
        let mut x = [_mm_setzero_si128(); 4];
        for (xi, b) in x.iter_mut().zip(blocks.iter()) {
            // SAFETY: `b` is 16 readable bytes; loadu has no alignment requirement.
            let v = unsafe { _mm_loadu_si128(b.as_ptr().cast()) };
            *xi = shuf(v, BSWAP32);
        }
        let x = transpose4!(
            _mm_unpacklo_epi32,
            _mm_unpackhi_epi32,
            _mm_unpacklo_epi64,
            _mm_unpackhi_epi64,
            x
        );
        let y = rounds(x, rk, decrypt);
        let y = transpose4!(
            _mm_unpacklo_epi32,
            _mm_unpackhi_epi32,
            _mm_unpacklo_epi64,
            _mm_unpackhi_epi64,
            y
        );
        for (yi, b) in y.iter().zip(blocks.iter_mut()) {
            let v = shuf(*yi, BSWAP32);
            // SAFETY: `b` is 16 writable bytes; storeu has no alignment requirement.
            unsafe { _mm_storeu_si128(b.as_mut_ptr().cast(), v) };
        }
    }
}

mod avx2 {
    use super::*;

    type V = __m256i;

    #[target_feature(enable = "avx2,gfni")]
    #[inline]
    fn shuf(x: V, pattern: [i8; 16]) -> V {
        let p = _mm256_setr_epi8(
            pattern[0],
            pattern[1],
            pattern[2],
            pattern[3],
            pattern[4],
            pattern[5],
            pattern[6],
            pattern[7],
            pattern[8],
            pattern[9],
            pattern[10],
            pattern[11],
            pattern[12],
            pattern[13],
            pattern[14],
            pattern[15],
            pattern[0],
            pattern[1],
            pattern[2],
            pattern[3],
            pattern[4],
            pattern[5],
            pattern[6],
            pattern[7],
            pattern[8],
            pattern[9],
            pattern[10],
            pattern[11],
            pattern[12],
            pattern[13],
            pattern[14],
            pattern[15],
        );
        _mm256_shuffle_epi8(x, p)
    }
    #[target_feature(enable = "avx2,gfni")]
    #[inline]
    fn xor(a: V, b: V) -> V {
        _mm256_xor_si256(a, b)
    }
    #[target_feature(enable = "avx2,gfni")]
    #[inline]
    fn xor3(a: V, b: V, c: V) -> V {
        _mm256_xor_si256(_mm256_xor_si256(a, b), c)
    }
    #[target_feature(enable = "avx2,gfni")]
    #[inline]
    fn splat(k: u32) -> V {
        _mm256_set1_epi32(k as i32)
    }
    #[target_feature(enable = "avx2,gfni")]
    #[inline]
    fn sbox(x: V) -> V {
        let y = _mm256_gf2p8affine_epi64_epi8::<IN_C>(x, _mm256_set1_epi64x(IN_MAT));
        _mm256_gf2p8affineinv_epi64_epi8::<OUT_C>(y, _mm256_set1_epi64x(OUT_MAT))
    }
    /// L, as in the SSE kernel.
    #[target_feature(enable = "avx2,gfni")]
    #[inline]
    fn l(b: V) -> V {
        let u = xor3(b, shuf(b, ROL8), shuf(b, ROL16));
        let u2 = _mm256_or_si256(_mm256_slli_epi32::<2>(u), _mm256_srli_epi32::<30>(u));
        xor3(b, shuf(b, ROL24), u2)
    }

    rounds!("avx2,gfni");

    /// 8 blocks: register i holds blocks 2i, 2i+1 (one per 128-bit lane).
    #[target_feature(enable = "avx2,gfni")]
    pub(super) fn crypt(rk: &[u32; 32], decrypt: bool, blocks: &mut [[u8; 16]; 8]) {
        let mut x = [_mm256_setzero_si256(); 4];
        for (xi, b) in x.iter_mut().zip(blocks.chunks_exact(2)) {
            // SAFETY: `b` is two adjacent 16-byte blocks (32 readable bytes); loadu is
            // unaligned.
            let v = unsafe { _mm256_loadu_si256(b.as_ptr().cast()) };
            *xi = shuf(v, BSWAP32);
        }
        let x = transpose4!(
            _mm256_unpacklo_epi32,
            _mm256_unpackhi_epi32,
            _mm256_unpacklo_epi64,
            _mm256_unpackhi_epi64,
            x
        );
        let y = rounds(x, rk, decrypt);
        let y = transpose4!(
            _mm256_unpacklo_epi32,
            _mm256_unpackhi_epi32,
            _mm256_unpacklo_epi64,
            _mm256_unpackhi_epi64,
            y
        );
        for (yi, b) in y.iter().zip(blocks.chunks_exact_mut(2)) {
            let v = shuf(*yi, BSWAP32);
            // SAFETY: `b` is two adjacent 16-byte blocks (32 writable bytes); storeu is
            // unaligned.
            unsafe { _mm256_storeu_si256(b.as_mut_ptr().cast(), v) };
        }
    }
}

mod avx512 {
    use super::*;

    type V = __m512i;

    #[target_feature(enable = "avx512f,avx512bw,gfni")]
    #[inline]
    fn bswap(x: V) -> V {
        let p = BSWAP32;
        let p = _mm512_set_epi8(
            p[15], p[14], p[13], p[12], p[11], p[10], p[9], p[8], p[7], p[6], p[5], p[4], p[3],
            p[2], p[1], p[0], p[15], p[14], p[13], p[12], p[11], p[10], p[9], p[8], p[7], p[6],
            p[5], p[4], p[3], p[2], p[1], p[0], p[15], p[14], p[13], p[12], p[11], p[10], p[9],
            p[8], p[7], p[6], p[5], p[4], p[3], p[2], p[1], p[0], p[15], p[14], p[13], p[12],
            p[11], p[10], p[9], p[8], p[7], p[6], p[5], p[4], p[3], p[2], p[1], p[0],
        );
        _mm512_shuffle_epi8(x, p)
    }
    #[target_feature(enable = "avx512f,avx512bw,gfni")]
    #[inline]
    fn xor(a: V, b: V) -> V {
        _mm512_xor_si512(a, b)
    }
    #[target_feature(enable = "avx512f,avx512bw,gfni")]
    #[inline]
    fn xor3(a: V, b: V, c: V) -> V {
        _mm512_ternarylogic_epi32::<0x96>(a, b, c)
    }
    #[target_feature(enable = "avx512f,avx512bw,gfni")]
    #[inline]
    fn splat(k: u32) -> V {
        _mm512_set1_epi32(k as i32)
    }
    #[target_feature(enable = "avx512f,avx512bw,gfni")]
    #[inline]
    fn sbox(x: V) -> V {
        let y = _mm512_gf2p8affine_epi64_epi8::<IN_C>(x, _mm512_set1_epi64(IN_MAT));
        _mm512_gf2p8affineinv_epi64_epi8::<OUT_C>(y, _mm512_set1_epi64(OUT_MAT))
    }
    /// L(B) = B ⊕ (B<<<2) ⊕ (B<<<10) ⊕ (B<<<18) ⊕ (B<<<24) with `vprold` and two three-way
    /// XORs.
    #[target_feature(enable = "avx512f,avx512bw,gfni")]
    #[inline]
    fn l(b: V) -> V {
        let a = xor3(b, _mm512_rol_epi32::<2>(b), _mm512_rol_epi32::<10>(b));
        xor3(a, _mm512_rol_epi32::<18>(b), _mm512_rol_epi32::<24>(b))
    }

    rounds!("avx512f,avx512bw,gfni");

    /// 16 blocks: register i holds blocks 4i..4i+4 (one per 128-bit lane).
    #[target_feature(enable = "avx512f,avx512bw,gfni")]
    pub(super) fn crypt(rk: &[u32; 32], decrypt: bool, blocks: &mut [[u8; 16]; 16]) {
        let mut x = [_mm512_setzero_si512(); 4];
        for (xi, b) in x.iter_mut().zip(blocks.chunks_exact(4)) {
            // SAFETY: `b` is four adjacent 16-byte blocks (64 readable bytes); loadu is
            // unaligned.
            let v = unsafe { _mm512_loadu_si512(b.as_ptr().cast()) };
            *xi = bswap(v);
        }
        let x = transpose4!(
            _mm512_unpacklo_epi32,
            _mm512_unpackhi_epi32,
            _mm512_unpacklo_epi64,
            _mm512_unpackhi_epi64,
            x
        );
        let y = rounds(x, rk, decrypt);
        let y = transpose4!(
            _mm512_unpacklo_epi32,
            _mm512_unpackhi_epi32,
            _mm512_unpacklo_epi64,
            _mm512_unpackhi_epi64,
            y
        );
        for (yi, b) in y.iter().zip(blocks.chunks_exact_mut(4)) {
            let v = bswap(*yi);
            // SAFETY: `b` is four adjacent 16-byte blocks (64 writable bytes); storeu is
            // unaligned.
            unsafe { _mm512_storeu_si512(b.as_mut_ptr().cast(), v) };
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    /// The GFNI S-box on all 256 bytes equals the algebraic S-box (and so the standard's
    /// table, tested in lib.rs).
    #[test]
    fn gfni_sbox_matches_the_algebraic_sbox() {
        let Some(level) = Level::best() else {
            std::println!("GFNI not available: skipped");
            return;
        };
        for x in 0u32..256 {
            let w = x | ((x ^ 0x5A) << 8) | ((x ^ 0xC3) << 16) | ((255 - x) << 24);
            assert_eq!(level.tau(w), crate::portable::tau(w), "x = {x:#x}");
        }
    }
}
