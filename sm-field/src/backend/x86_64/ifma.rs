//! [`MulxIfma`]: the [`Mulx`] scalar kernels plus eight Montgomery multiplications at once with
//! AVX-512 IFMA (`vpmadd52luq`/`vpmadd52huq`) in [`Backend::mul_batch`], and
//! [`Backend::BATCH`] `= true`, so the tower formulas stage their products in batches.
//!
//! Lane i of every `__m512i` belongs to product i. Operands are 4 × 64-bit limbs in memory; after
//! an 8 × 4 transpose (`vpermt2q`) they are split into five 52-bit limbs (radix 2^52, the width
//! of the IFMA multiplier). A 5 × 52 = 260-bit Montgomery multiplication divides by R' = 2^260,
//! not by the backends' R = 2^256, so the first operand enters as `A = 16·a` (a < p < 2^256, so
//! A < 2^260 fills exactly five limbs: its limbs are a's bits shifted by 4) and `B = b`:
//! `A·B·2^-260 = a·b·2^-256`, the same residue as the scalar kernels. With `A·B < 16p²` and
//! `m < 2^260` the result `(A·B + m·p)/2^260 < 16p²/2^260 + p < 2p` (p < 2^256), so one
//! conditional subtraction of p, chosen by a mask blend, gives the fully reduced value, bit for
//! bit equal to [`Backend::mul`](super::Backend::mul) of every backend.
//!
//! The multiplication is word-by-word Montgomery (operand scanning, Koç, Acar, Kaliski, "Analyzing
//! and comparing Montgomery multiplication algorithms", IEEE Micro 1996, CIOS) in radix 2^52 with
//! 64-bit accumulators that absorb the carries until one normalisation at the end, the layout of
//! Gueron and Krasnov, "Accelerating big integer arithmetic using Intel IFMA extensions", ARITH
//! 2016, and of Drucker and Gueron, "Fast modular squaring with AVX512IFMA", ePrint 2018/335.
//! Each round i adds `A_i·B` (low halves at limb j, high halves at limb j + 1), takes
//! `m = t0·(−p⁻¹) mod 2^52`, adds `m·p`, and shifts the accumulators down one limb, carrying
//! `t0 >> 52` (the low 52 bits of t0 are then zero). An accumulator receives at most four
//! 52-bit terms per round plus one carry, < 2^57 over five rounds: no overflow.
//!
//! Constant time: straight-line vector code, no branch or index depends on the operands; the
//! final subtraction is a mask blend. Only the number of products (public) picks the load/store
//! masks of a partial group.
//!
//! The vector functions here need AVX-512F and AVX512-IFMA (`#[target_feature]`: calling them
//! on a CPU without is undefined behaviour). [`MulxIfma::mul_batch`] is the only caller and
//! asserts [`cpu::has_ifma`] first: a soundness guard, not a dispatch (the assertion holds
//! wherever `MulxIfma` is used as documented, it costs one load of the cached probe answer per
//! batch, and a program that names `MulxIfma` on the wrong CPU panics instead of running vector
//! code the CPU lacks). Valgrind's emulated CPUID hides AVX-512 (and it cannot run it), so the
//! constant-time harness under memcheck exercises the scalar MULX/ADX kernels ([`Mulx`]); this
//! vector kernel is constant time by construction (above).
#![allow(unsafe_code)]

use core::arch::x86_64::*;
use core::marker::PhantomData;

use super::Mulx;
use crate::backend::{cpu, Backend};
use crate::{Limbs, Modulus};

/// x86_64 MULX/ADCX/ADOX scalar kernels ([`Mulx`]) and the AVX-512 IFMA batched
/// multiplication, with [`BATCH`](Backend::BATCH) `= true`.
///
/// **Requirement: the CPU has BMI2, ADX, AVX-512F and AVX512-IFMA, enabled by the OS**
/// ([`cpu::has_ifma`] and [`cpu::has_mulx_adx`]). The scalar products behave like [`Mulx`]'s on
/// a CPU without BMI2/ADX (`SIGILL`); [`mul_batch`](Backend::mul_batch) panics on a CPU without
/// IFMA (see the module docs). [`Auto`](super::Auto)'s dispatch picks it after probing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MulxIfma;

/// Smallest batch that [`MulxIfma::mul_batch`](Backend::mul_batch) hands to the IFMA kernel
/// (smaller ones take the scalar kernel; a partial group of eight computes on zeros in its
/// missing lanes). The tower batches 12 to 54 products, so this only concerns direct callers.
pub const IFMA_MIN_BATCH: usize = 4;

impl Backend for MulxIfma {
    const NAME: &'static str = "mulx-ifma";
    const BATCH: bool = true;

    #[inline(always)]
    fn add<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        Mulx::add::<M>(a, b)
    }
    #[inline(always)]
    fn sub<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        Mulx::sub::<M>(a, b)
    }
    #[inline(always)]
    fn mul<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        Mulx::mul::<M>(a, b)
    }
    #[inline(always)]
    fn square<M: Modulus>(a: &Limbs) -> Limbs {
        Mulx::square::<M>(a)
    }

    /// Eight products per AVX-512 IFMA pass for batches of at least [`IFMA_MIN_BATCH`]; the
    /// scalar kernel per pair below. Both give the same limbs.
    ///
    /// # Panics
    /// On a CPU without AVX-512F/IFMA (the soundness guard of the module docs).
    #[inline]
    fn mul_batch<M: Modulus>(a: &[Limbs], b: &[Limbs], out: &mut [Limbs]) {
        let n = out.len().min(a.len()).min(b.len());
        if n >= IFMA_MIN_BATCH {
            assert!(
                cpu::has_ifma(),
                "MulxIfma used on a CPU without AVX-512 IFMA"
            );
            // SAFETY: `cpu::has_ifma` confirmed AVX-512F and AVX512-IFMA (CPUID and XCR0).
            unsafe { mul_batch::<M>(a, b, out) };
        } else {
            for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
                *o = Mulx::mul::<M>(x, y);
            }
        }
    }
}

const MASK52: u64 = (1 << 52) - 1;

/// The modulus in radix 2^52 and `−p⁻¹ mod 2^52`.
struct Params52<M>(PhantomData<M>);
impl<M: Modulus> Params52<M> {
    const P: [u64; 5] = {
        let p = M::P;
        [
            p[0] & MASK52,
            ((p[0] >> 52) | (p[1] << 12)) & MASK52,
            ((p[1] >> 40) | (p[2] << 24)) & MASK52,
            ((p[2] >> 28) | (p[3] << 36)) & MASK52,
            p[3] >> 16,
        ]
    };
    /// `−p⁻¹ mod 2^52` is `−p⁻¹ mod 2^64` reduced.
    const INV: u64 = M::INV & MASK52;
}

/// `out[i] = a[i]·b[i]·2^-256 mod p` for `i < min(len)`, fully reduced; eight products per
/// kernel pass, a last partial group with row-wise loads and stores (no memory beyond the
/// slices is touched; the missing lanes compute on zeros).
///
/// # Safety
/// The CPU must support AVX-512F and AVX512-IFMA ([`cpu::has_ifma`] returned `true`).
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn mul_batch<M: Modulus>(a: &[Limbs], b: &[Limbs], out: &mut [Limbs]) {
    let n = out.len().min(a.len()).min(b.len());
    let mut i = 0;
    while i + 8 <= n {
        // SAFETY: rows i..i + 8 lie within every slice (i + 8 ≤ n ≤ each length); the caller
        // guarantees AVX-512F/IFMA.
        unsafe { mul_x8::<M>(a[i..].as_ptr(), b[i..].as_ptr(), out[i..].as_mut_ptr(), 8) };
        i += 8;
    }
    if i < n {
        // SAFETY: rows i..n lie within every slice and only they are touched; the caller
        // guarantees AVX-512F/IFMA.
        unsafe {
            mul_x8::<M>(
                a[i..].as_ptr(),
                b[i..].as_ptr(),
                out[i..].as_mut_ptr(),
                n - i,
            )
        };
    }
}

/// Eight rows of four 64-bit limbs (`p[0..8]`; rows from `rows` on read as zero) to four vectors
/// of eight lanes (limb j of row i in lane i of vector j): two rounds of `vpermt2q`. A partial
/// group is loaded row by row with 256-bit loads (masked loads are slow on some cores).
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn load_transpose(p: *const Limbs, rows: usize) -> [__m512i; 4] {
    let mut z = [_mm512_setzero_si512(); 4];
    if rows >= 8 {
        for (r, zr) in z.iter_mut().enumerate() {
            // SAFETY: the caller guarantees 8 readable rows; unaligned 64-byte loads of rows
            // 2r, 2r + 1.
            *zr = unsafe { _mm512_loadu_si512(p.wrapping_add(2 * r).cast()) };
        }
    } else {
        for (r, zr) in z.iter_mut().enumerate() {
            if 2 * r < rows {
                // SAFETY: row 2r < rows is readable (32 bytes), as the caller guarantees.
                let lo = unsafe { _mm256_loadu_si256(p.wrapping_add(2 * r).cast()) };
                *zr = _mm512_inserti64x4::<0>(_mm512_setzero_si512(), lo);
            }
            if 2 * r + 1 < rows {
                // SAFETY: row 2r + 1 < rows is readable (32 bytes), as the caller guarantees.
                let hi = unsafe { _mm256_loadu_si256(p.wrapping_add(2 * r + 1).cast()) };
                *zr = _mm512_inserti64x4::<1>(*zr, hi);
            }
        }
    }
    let [z0, z1, z2, z3] = z;
    // z0 = rows 0, 1 (limbs 0..3 each), z1 = rows 2, 3, ...
    let lo = _mm512_setr_epi64(0, 4, 8, 12, 1, 5, 9, 13);
    let hi = _mm512_setr_epi64(2, 6, 10, 14, 3, 7, 11, 15);
    let u0 = _mm512_permutex2var_epi64(z0, lo, z1); // rows 0..3: limb 0, limb 1
    let u1 = _mm512_permutex2var_epi64(z0, hi, z1); // rows 0..3: limb 2, limb 3
    let v0 = _mm512_permutex2var_epi64(z2, lo, z3); // rows 4..7: limb 0, limb 1
    let v1 = _mm512_permutex2var_epi64(z2, hi, z3); // rows 4..7: limb 2, limb 3
    let first = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11);
    let second = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
    [
        _mm512_permutex2var_epi64(u0, first, v0),
        _mm512_permutex2var_epi64(u0, second, v0),
        _mm512_permutex2var_epi64(u1, first, v1),
        _mm512_permutex2var_epi64(u1, second, v1),
    ]
}

/// Inverse of [`load_transpose`]: writes the first `rows` rows of `p[0..8]` (a partial group row
/// by row with 256-bit stores: masked stores are slow on some cores).
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn transpose_store(l: [__m512i; 4], p: *mut Limbs, rows: usize) {
    let first = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11);
    let second = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
    let u0 = _mm512_permutex2var_epi64(l[0], first, l[1]); // rows 0..3: limb 0, limb 1
    let v0 = _mm512_permutex2var_epi64(l[0], second, l[1]); // rows 4..7: limb 0, limb 1
    let u1 = _mm512_permutex2var_epi64(l[2], first, l[3]); // rows 0..3: limb 2, limb 3
    let v1 = _mm512_permutex2var_epi64(l[2], second, l[3]); // rows 4..7: limb 2, limb 3
    let lo = _mm512_setr_epi64(0, 4, 8, 12, 1, 5, 9, 13);
    let hi = _mm512_setr_epi64(2, 6, 10, 14, 3, 7, 11, 15);
    let (z0, z1) = (
        _mm512_permutex2var_epi64(u0, lo, u1),
        _mm512_permutex2var_epi64(u0, hi, u1),
    );
    let (z2, z3) = (
        _mm512_permutex2var_epi64(v0, lo, v1),
        _mm512_permutex2var_epi64(v0, hi, v1),
    );
    if rows >= 8 {
        for (r, z) in [z0, z1, z2, z3].into_iter().enumerate() {
            // SAFETY: the caller guarantees 8 writable rows; unaligned 64-byte store of rows
            // 2r, 2r + 1.
            unsafe { _mm512_storeu_si512(p.wrapping_add(2 * r).cast(), z) };
        }
    } else {
        for (r, z) in [z0, z1, z2, z3].into_iter().enumerate() {
            let (lo, hi) = (_mm512_castsi512_si256(z), _mm512_extracti64x4_epi64::<1>(z));
            if 2 * r < rows {
                // SAFETY: row 2r < rows is writable (32 bytes), as the caller guarantees.
                unsafe { _mm256_storeu_si256(p.wrapping_add(2 * r).cast(), lo) };
            }
            if 2 * r + 1 < rows {
                // SAFETY: row 2r + 1 < rows is writable (32 bytes), as the caller guarantees.
                unsafe { _mm256_storeu_si256(p.wrapping_add(2 * r + 1).cast(), hi) };
            }
        }
    }
}

/// `(x >> r) | (y << l)` masked to 52 bits: one 52-bit limb straddling two 64-bit words.
#[inline]
#[target_feature(enable = "avx512f")]
fn straddle<const R: u32, const L: u32>(x: __m512i, y: __m512i, mask: __m512i) -> __m512i {
    _mm512_and_si512(
        _mm512_or_si512(_mm512_srli_epi64::<R>(x), _mm512_slli_epi64::<L>(y)),
        mask,
    )
}

/// Montgomery products `out[i] = a[i]·b[i]·2^-256 mod p`, one per lane (see the module docs), for
/// the first `rows` (≤ 8) rows; the missing lanes compute on zeros and are not stored.
///
/// # Safety
/// `a`, `b` must point to `rows` readable limb arrays and `out` to `rows` writable ones; the CPU
/// must support AVX-512F and AVX512-IFMA.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn mul_x8<M: Modulus>(a: *const Limbs, b: *const Limbs, out: *mut Limbs, rows: usize) {
    let mask = _mm512_set1_epi64(MASK52 as i64);
    let zero = _mm512_setzero_si512();
    // SAFETY: `rows` readable rows at `a`, as the caller guarantees.
    let la = unsafe { load_transpose(a, rows) };
    // SAFETY: `rows` readable rows at `b`, as the caller guarantees.
    let lb = unsafe { load_transpose(b, rows) };
    // A = 16·a: bits [52j − 4, 52j + 48) of a.
    let av = [
        _mm512_and_si512(_mm512_slli_epi64::<4>(la[0]), mask),
        straddle::<48, 16>(la[0], la[1], mask),
        straddle::<36, 28>(la[1], la[2], mask),
        straddle::<24, 40>(la[2], la[3], mask),
        _mm512_srli_epi64::<12>(la[3]),
    ];
    // B = b: bits [52j, 52j + 52) of b.
    let bv = [
        _mm512_and_si512(lb[0], mask),
        straddle::<52, 12>(lb[0], lb[1], mask),
        straddle::<40, 24>(lb[1], lb[2], mask),
        straddle::<28, 36>(lb[2], lb[3], mask),
        _mm512_srli_epi64::<16>(lb[3]),
    ];
    let pp = Params52::<M>::P;
    let p = [
        _mm512_set1_epi64(pp[0] as i64),
        _mm512_set1_epi64(pp[1] as i64),
        _mm512_set1_epi64(pp[2] as i64),
        _mm512_set1_epi64(pp[3] as i64),
        _mm512_set1_epi64(pp[4] as i64),
    ];
    let inv = _mm512_set1_epi64(Params52::<M>::INV as i64);

    let mut t = [zero; 5];
    for ai in av {
        // t += A_i·B: low halves at limb j, high halves at limb j + 1 (t5 is the new top limb).
        let mut t5 = zero;
        for j in 0..5 {
            t[j] = _mm512_madd52lo_epu64(t[j], ai, bv[j]);
        }
        for j in 0..4 {
            t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], ai, bv[j]);
        }
        t5 = _mm512_madd52hi_epu64(t5, ai, bv[4]);
        // m = t0·(−p⁻¹) mod 2^52 (the IFMA low half is exactly the product mod 2^52).
        let m = _mm512_madd52lo_epu64(zero, t[0], inv);
        for j in 0..5 {
            t[j] = _mm512_madd52lo_epu64(t[j], m, p[j]);
        }
        for j in 0..4 {
            t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, p[j]);
        }
        t5 = _mm512_madd52hi_epu64(t5, m, p[4]);
        // t0 ≡ 0 mod 2^52 now: divide by 2^52, carrying its high bits into t1.
        let carry = _mm512_srli_epi64::<52>(t[0]);
        t = [_mm512_add_epi64(t[1], carry), t[2], t[3], t[4], t5];
    }

    // Normalise to 52-bit limbs (the value is < 2p < 2^257, so nothing leaves limb 4).
    for j in 0..4 {
        let carry = _mm512_srli_epi64::<52>(t[j]);
        t[j] = _mm512_and_si512(t[j], mask);
        t[j + 1] = _mm512_add_epi64(t[j + 1], carry);
    }
    // d = t − p with the borrow propagated by arithmetic shifts; keep t where d < 0.
    let mut d = [zero; 5];
    let mut borrow = zero;
    for j in 0..5 {
        let x = _mm512_add_epi64(_mm512_sub_epi64(t[j], p[j]), borrow);
        borrow = _mm512_srai_epi64::<52>(x);
        d[j] = x;
    }
    let keep_t = _mm512_cmplt_epi64_mask(d[4], zero);
    let mut r = [zero; 5];
    for j in 0..5 {
        r[j] = _mm512_mask_blend_epi64(keep_t, _mm512_and_si512(d[j], mask), t[j]);
    }
    // Back to 64-bit limbs.
    let l = [
        _mm512_or_si512(r[0], _mm512_slli_epi64::<52>(r[1])),
        _mm512_or_si512(_mm512_srli_epi64::<12>(r[1]), _mm512_slli_epi64::<40>(r[2])),
        _mm512_or_si512(_mm512_srli_epi64::<24>(r[2]), _mm512_slli_epi64::<28>(r[3])),
        _mm512_or_si512(_mm512_srli_epi64::<36>(r[3]), _mm512_slli_epi64::<16>(r[4])),
    ];
    // SAFETY: `rows` writable rows, as the caller guarantees.
    unsafe { transpose_store(l, out, rows) };
}
