//! x86_64 SIMD and BMI2 paths, selected at run time.
//!
//! CPU features are detected once and cached (`cpufeatures`, which also checks that the OS saves
//! the AVX / AVX-512 register state). Each path is reachable only through a token type that can
//! be built only after a successful check, so every `unsafe` call of a `#[target_feature]`
//! function below is justified by holding the token.
//!
//! - [`single`]: one message, scalar rounds compiled with BMI2 (`rorx`, non-destructive).
//! - [`avx2`]: eight independent messages, one per 32-bit lane of a `__m256i`.
//! - [`avx512`]: sixteen independent messages in `__m512i` lanes (AVX-512F/BW/VL), with
//!   `vprold` rotations and `vpternlogd` for FF/GG/three-way XOR.
#![allow(unsafe_code)]

pub(crate) mod avx2;
pub(crate) mod avx512;
mod single;

cpufeatures::new!(bmi2_cpuid, "bmi2");
cpufeatures::new!(avx2_cpuid, "avx2");
cpufeatures::new!(avx512_cpuid, "avx512f", "avx512bw", "avx512vl");

/// Proof that the CPU supports AVX2 (and the OS saves the YMM state).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2Token(());

impl Avx2Token {
    /// `Some` when AVX2 is usable; the check is cached after the first call.
    #[inline]
    pub(crate) fn get() -> Option<Self> {
        avx2_cpuid::get().then_some(Self(()))
    }

    /// CF over eight independent lanes and consecutive blocks; see [`avx2::compress_x8`].
    #[inline]
    pub(crate) fn compress_x8(self, state: &mut [[u32; 8]; 8], lanes: &[&[[u8; 64]]; 8]) {
        // SAFETY: the token exists only if AVX2 was detected at run time.
        unsafe { avx2::compress_x8(state, lanes) }
    }

    /// Eight KDF counter blocks at once; see [`avx2::kdf_x8`].
    #[inline]
    pub(crate) fn kdf_x8(
        self,
        mid: &[u32; 8],
        template: &[[u32; 16]; 2],
        nblocks: usize,
        off: usize,
        ct0: u32,
        out: &mut [[u32; 8]; 8],
    ) {
        // SAFETY: the token exists only if AVX2 was detected at run time.
        unsafe { avx2::kdf_x8(mid, template, nblocks, off, ct0, out) }
    }
}

/// Proof that the CPU supports AVX-512F, AVX-512BW and AVX-512VL (and the OS saves ZMM state).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512Token(());

impl Avx512Token {
    /// `Some` when AVX-512F/BW/VL are usable; the check is cached after the first call.
    #[inline]
    pub(crate) fn get() -> Option<Self> {
        avx512_cpuid::get().then_some(Self(()))
    }

    /// CF over sixteen independent lanes and consecutive blocks; see [`avx512::compress_x16`].
    #[inline]
    pub(crate) fn compress_x16(self, state: &mut [[u32; 16]; 8], lanes: &[&[[u8; 64]]; 16]) {
        // SAFETY: the token exists only if AVX-512F/BW/VL were detected at run time.
        unsafe { avx512::compress_x16(state, lanes) }
    }

    /// Sixteen KDF counter blocks at once; see [`avx512::kdf_x16`].
    #[inline]
    pub(crate) fn kdf_x16(
        self,
        mid: &[u32; 8],
        template: &[[u32; 16]; 2],
        nblocks: usize,
        off: usize,
        ct0: u32,
        out: &mut [[u32; 16]; 8],
    ) {
        // SAFETY: the token exists only if AVX-512F/BW/VL were detected at run time.
        unsafe { avx512::kdf_x16(mid, template, nblocks, off, ct0, out) }
    }
}

/// Name of the single-stream path in use.
pub(crate) fn single_stream_kind() -> &'static str {
    if bmi2_cpuid::get() {
        "bmi2"
    } else {
        "portable"
    }
}

/// Single-stream CF over consecutive blocks: the BMI2 build when available, else portable.
///
/// A variant with the message expansion on 128-bit vectors (four words per step, scalar rounds
/// loading W_j / W′_j) was measured on Zen 5 at 0.6× this path: the rounds are bound by the
/// E → SS1 → TT2 → P0 dependency chain, not by issue width, so moving the expansion off the
/// scalar ports gains nothing while the vector-to-scalar hand-over costs.
#[inline]
pub(crate) fn compress(state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    if bmi2_cpuid::get() {
        // SAFETY: BMI2 support was detected at run time (cached by `cpufeatures`).
        unsafe { single::compress_bmi2(state, blocks) }
    } else {
        crate::compress::compress_portable(state, blocks)
    }
}

/// The 64 rounds of §5.3.3 over vectors of independent lanes, shared by the AVX2 and AVX-512
/// modules. The invoking module provides `add`, `xor`, `xor3`, `maj`, `choose`, `p0`, `p1`,
/// `splat` and `rol::<L, R>` (rotate left by L = 32 − R) for its vector type; `$w` is the
/// 16-word message window, expanded in place (§5.3.2).
macro_rules! lane_rounds {
    ($w:ident, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident) => {
        lane_rounds!(@four 0, xor3, xor3, $w, $a, $b, $c, $d, $e, $f, $g, $h);
        lane_rounds!(@four 4, xor3, xor3, $w, $a, $b, $c, $d, $e, $f, $g, $h);
        lane_rounds!(@four 8, xor3, xor3, $w, $a, $b, $c, $d, $e, $f, $g, $h);
        lane_rounds!(@four 12, xor3, xor3, $w, $a, $b, $c, $d, $e, $f, $g, $h);
        lane_rounds!(@four 16, maj, choose, $w, $a, $b, $c, $d, $e, $f, $g, $h);
        lane_rounds!(@four 20, maj, choose, $w, $a, $b, $c, $d, $e, $f, $g, $h);
        lane_rounds!(@four 24, maj, choose, $w, $a, $b, $c, $d, $e, $f, $g, $h);
        lane_rounds!(@four 28, maj, choose, $w, $a, $b, $c, $d, $e, $f, $g, $h);
        lane_rounds!(@four 32, maj, choose, $w, $a, $b, $c, $d, $e, $f, $g, $h);
        lane_rounds!(@four 36, maj, choose, $w, $a, $b, $c, $d, $e, $f, $g, $h);
        lane_rounds!(@four 40, maj, choose, $w, $a, $b, $c, $d, $e, $f, $g, $h);
        lane_rounds!(@four 44, maj, choose, $w, $a, $b, $c, $d, $e, $f, $g, $h);
        lane_rounds!(@four 48, maj, choose, $w, $a, $b, $c, $d, $e, $f, $g, $h);
        lane_rounds!(@four 52, maj, choose, $w, $a, $b, $c, $d, $e, $f, $g, $h);
        lane_rounds!(@four 56, maj, choose, $w, $a, $b, $c, $d, $e, $f, $g, $h);
        lane_rounds!(@four 60, maj, choose, $w, $a, $b, $c, $d, $e, $f, $g, $h);
    };
    (@expand $w:ident, $i:expr) => {{
        let x = xor3($w[$i % 16], $w[($i - 9) % 16], rol::<15, 17>($w[($i - 3) % 16]));
        $w[$i % 16] = xor3(p1(x), rol::<7, 25>($w[($i - 13) % 16]), $w[($i - 6) % 16]);
    }};
    (@four $j:expr, $ff:ident, $gg:ident, $w:ident,
     $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident) => {{
        if $j >= 12 {
            lane_rounds!(@expand $w, $j + 4);
            lane_rounds!(@expand $w, $j + 5);
            lane_rounds!(@expand $w, $j + 6);
            lane_rounds!(@expand $w, $j + 7);
        }
        lane_rounds!(@round $j, $ff, $gg, $w[$j % 16], $w[($j + 4) % 16],
                     $a, $b, $c, $d, $e, $f, $g, $h);
        lane_rounds!(@round $j + 1, $ff, $gg, $w[($j + 1) % 16], $w[($j + 5) % 16],
                     $d, $a, $b, $c, $h, $e, $f, $g);
        lane_rounds!(@round $j + 2, $ff, $gg, $w[($j + 2) % 16], $w[($j + 6) % 16],
                     $c, $d, $a, $b, $g, $h, $e, $f);
        lane_rounds!(@round $j + 3, $ff, $gg, $w[($j + 3) % 16], $w[($j + 7) % 16],
                     $b, $c, $d, $a, $f, $g, $h, $e);
    }};
    (@round $j:expr, $ff:ident, $gg:ident, $wj:expr, $wj4:expr,
     $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident) => {{
        // B and F are rotated first (into C and G of the next round) so that their old values
        // die in FF / GG: with AVX-512 the three-input `vpternlogd` overwrites one input, and
        // the dying one needs no register copy.
        let (b, f) = ($b, $f);
        $b = rol::<9, 23>(b);
        $f = rol::<19, 13>(f);
        let a12 = rol::<12, 20>($a);
        let ss1 = rol::<7, 25>(add(add(a12, splat(crate::consts::T_ROT[$j])), $e));
        let ss2 = xor(ss1, a12);
        let wp = xor($wj, $wj4);
        let tt1 = add(add($ff(b, $a, $c), add($d, wp)), ss2);
        let tt2 = add(add($gg($e, f, $g), add($h, $wj)), ss1);
        $d = tt1;
        $h = p0(tt2);
    }};
}
pub(crate) use lane_rounds;
