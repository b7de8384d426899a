//! aarch64 backend: inline assembly with `MUL`/`UMULH` products, `ADDS`/`ADCS`/`ADC` and
//! `SUBS`/`SBCS` carry chains and `CSEL` selections.
//!
//! Everything used is in the base Armv8-A instruction set, so [`Aarch64`] runs on every aarch64
//! CPU: it is a pure backend type with nothing to probe (`sm_field::Asm` names it on aarch64).
//!
//! Multiplication and squaring are separated operand scanning (Koç, Acar, Kaliski, "Analyzing
//! and comparing Montgomery multiplication algorithms", IEEE Micro 1996, SOS):
//!
//! 1. the 512-bit product `T = T_hi·2^256 + T_lo`, row by row for a product (16 `MUL` + 16
//!    `UMULH`), or for a square the six off-diagonal products once, doubled, plus the four
//!    diagonal squares (10 + 10);
//! 2. four word-by-word Montgomery rounds on `T_lo` alone: `r ← (r + m·p) / 2^64` with
//!    `m = r_0·(−p⁻¹) mod 2^64`. Since `r < 2^256` and `m·p < 2^64·p`, every `r + m·p` fits in
//!    five words and every `r` in four; after four rounds `r = (T_lo + M·p)/2^256 ≤ p`;
//! 3. `T_hi + r = (T + M·p)/2^256 ≡ a·b·R⁻¹ (mod p)` and it is below `2p` (`T_hi < p`), so one
//!    subtraction of `p`, kept or dropped by `CSEL` on the borrow (the carry word included:
//!    all four moduli have their top bit set), reduces it.
//!
//! Addition, subtraction and negation are carry chains with a `CSEL`-selected correction.
//! Every code path is straight-line: no branch or memory index depends on operand values
//! (`MUL`/`UMULH` run in data-independent time on the cores that document it, Arm's
//! "DIT" list; these instructions do not set flags, so products interleave with the chains).
#![allow(unsafe_code)]

use core::arch::asm;
use core::marker::PhantomData;

use super::Backend;
use crate::{Limbs, Modulus};

/// aarch64 `MUL`/`UMULH`/`ADCS`/`CSEL` backend (base Armv8-A: no feature check needed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Aarch64;

/// The modulus limbs followed by `-p^-1 mod 2^64`, laid out for the kernels
/// (`[p0, p1, p2, p3, inv]`).
struct Params<M>(PhantomData<M>);
impl<M: Modulus> Params<M> {
    const PI: [u64; 5] = [M::P[0], M::P[1], M::P[2], M::P[3], M::INV];
}

/// One Montgomery round on the four-word state `r0..r3` (registers named by the caller; the
/// new state is `r1, r2, r3, r0`, i.e. the caller rotates the names each round).
/// Needs `p0..p3` in x3..x6, `-p^-1` in x7; uses x1 (m) and x16, x17, x20, x21 (products).
///
/// `r ← (r + m·p) / 2^64`, `m = r0·inv mod 2^64`: the low words of `m·p` are added on one
/// chain (the lowest sum is zero by the choice of `m`; only its carry matters), the high words
/// on a second chain one word up. `r + m·p < 2^320`, so no carry leaves the top word.
#[rustfmt::skip] // one instruction per line
macro_rules! mont_round {
    ($r0:literal, $r1:literal, $r2:literal, $r3:literal) => {
        concat!(
            "mul x1, ", $r0, ", x7\n",
            "mul x16, x1, x3\n",
            "mul x17, x1, x4\n",
            "mul x20, x1, x5\n",
            "mul x21, x1, x6\n",
            "adds xzr, ", $r0, ", x16\n",
            "adcs ", $r1, ", ", $r1, ", x17\n",
            "adcs ", $r2, ", ", $r2, ", x20\n",
            "adcs ", $r3, ", ", $r3, ", x21\n",
            "adc ", $r0, ", xzr, xzr\n",
            "umulh x16, x1, x3\n",
            "umulh x17, x1, x4\n",
            "umulh x20, x1, x5\n",
            "umulh x21, x1, x6\n",
            "adds ", $r1, ", ", $r1, ", x16\n",
            "adcs ", $r2, ", ", $r2, ", x17\n",
            "adcs ", $r3, ", ", $r3, ", x20\n",
            "adc ", $r0, ", ", $r0, ", x21\n",
        )
    };
}

/// Steps 2 and 3 of the module doc: reduce `T = x8..x15` (little-endian words) to `[0, p)` in
/// x8..x11. Loads `p` and `-p^-1` from the `[p0, p1, p2, p3, inv]` array at x2.
macro_rules! mont_reduce {
    () => {
        concat!(
            "ldp x3, x4, [x2]\n",
            "ldp x5, x6, [x2, #16]\n",
            "ldr x7, [x2, #32]\n",
            mont_round!("x8", "x9", "x10", "x11"),
            mont_round!("x9", "x10", "x11", "x8"),
            mont_round!("x10", "x11", "x8", "x9"),
            mont_round!("x11", "x8", "x9", "x10"),
            // r (≤ p) + T_hi (< p), with the carry in x1.
            "adds x8, x8, x12\n",
            "adcs x9, x9, x13\n",
            "adcs x10, x10, x14\n",
            "adcs x11, x11, x15\n",
            "adc x1, xzr, xzr\n",
            // Subtract p; carry set (no borrow) means the sum was ≥ p: take the difference.
            "subs x12, x8, x3\n",
            "sbcs x13, x9, x4\n",
            "sbcs x14, x10, x5\n",
            "sbcs x15, x11, x6\n",
            "sbcs xzr, x1, xzr\n",
            "csel x8, x12, x8, hs\n",
            "csel x9, x13, x9, hs\n",
            "csel x10, x14, x10, hs\n",
            "csel x11, x15, x11, hs\n",
        )
    };
}

/// One row of the schoolbook product: `x[i..i+4] += a·b_i` with `a` in x3..x6 and `b_i` in x7,
/// for `i ≥ 1` (the partial sum `a·(b mod 2^{64(i+1)})` fits in `i + 5` words, so the top word
/// takes the last carry without overflow).
#[rustfmt::skip] // one instruction per line
macro_rules! mul_row {
    ($t0:literal, $t1:literal, $t2:literal, $t3:literal, $t4:literal) => {
        concat!(
            "mul x16, x3, x7\n",
            "mul x17, x4, x7\n",
            "mul x20, x5, x7\n",
            "mul x21, x6, x7\n",
            "adds ", $t0, ", ", $t0, ", x16\n",
            "adcs ", $t1, ", ", $t1, ", x17\n",
            "adcs ", $t2, ", ", $t2, ", x20\n",
            "adcs ", $t3, ", ", $t3, ", x21\n",
            "adc ", $t4, ", xzr, xzr\n",
            "umulh x16, x3, x7\n",
            "umulh x17, x4, x7\n",
            "umulh x20, x5, x7\n",
            "umulh x21, x6, x7\n",
            "adds ", $t1, ", ", $t1, ", x16\n",
            "adcs ", $t2, ", ", $t2, ", x17\n",
            "adcs ", $t3, ", ", $t3, ", x20\n",
            "adc ", $t4, ", ", $t4, ", x21\n",
        )
    };
}

/// Montgomery product: `a` at x0, `b` at x1, params at x2; result in x8..x11.
macro_rules! mul_kernel {
    () => {
        concat!(
            "ldp x3, x4, [x0]\n",
            "ldp x5, x6, [x0, #16]\n",
            // Row 0: x8..x12 = a·b0.
            "ldr x7, [x1]\n",
            "mul x8, x3, x7\n",
            "umulh x16, x3, x7\n",
            "mul x17, x4, x7\n",
            "umulh x20, x4, x7\n",
            "mul x21, x5, x7\n",
            "umulh x0, x5, x7\n",
            "mul x13, x6, x7\n",
            "umulh x12, x6, x7\n",
            "adds x9, x17, x16\n",
            "adcs x10, x21, x20\n",
            "adcs x11, x13, x0\n",
            "adc x12, x12, xzr\n",
            // Rows 1..3.
            "ldr x7, [x1, #8]\n",
            mul_row!("x9", "x10", "x11", "x12", "x13"),
            "ldr x7, [x1, #16]\n",
            mul_row!("x10", "x11", "x12", "x13", "x14"),
            "ldr x7, [x1, #24]\n",
            mul_row!("x11", "x12", "x13", "x14", "x15"),
            mont_reduce!(),
        )
    };
}

/// Montgomery square: `a` at x0, params at x2; result in x8..x11.
///
/// Cross products `Σ_{i<j} a_i·a_j·2^{64(i+j)}` into x9..x14, doubled into x9..x15, then the
/// diagonal squares `a_i^2·2^{128 i}` added (x8 = low word of `a_0^2`).
macro_rules! sqr_kernel {
    () => {
        concat!(
            "ldp x3, x4, [x0]\n",
            "ldp x5, x6, [x0, #16]\n",
            // a0·(a1, a2, a3) at words 1..4.
            "mul x9, x3, x4\n",
            "umulh x16, x3, x4\n",
            "mul x17, x3, x5\n",
            "umulh x20, x3, x5\n",
            "mul x21, x3, x6\n",
            "umulh x12, x3, x6\n",
            "adds x10, x17, x16\n",
            "adcs x11, x21, x20\n",
            "adc x12, x12, xzr\n",
            // a1·(a2, a3) at words 3..5.
            "mul x16, x4, x5\n",
            "umulh x17, x4, x5\n",
            "mul x20, x4, x6\n",
            "umulh x13, x4, x6\n",
            "adds x17, x17, x20\n",
            "adc x13, x13, xzr\n",
            "adds x11, x11, x16\n",
            "adcs x12, x12, x17\n",
            "adc x13, x13, xzr\n",
            // a2·a3 at words 5..6.
            "mul x16, x5, x6\n",
            "umulh x14, x5, x6\n",
            "adds x13, x13, x16\n",
            "adc x14, x14, xzr\n",
            // Double: x9..x14 << 1 into x9..x15.
            "adds x9, x9, x9\n",
            "adcs x10, x10, x10\n",
            "adcs x11, x11, x11\n",
            "adcs x12, x12, x12\n",
            "adcs x13, x13, x13\n",
            "adcs x14, x14, x14\n",
            "adc x15, xzr, xzr\n",
            // Diagonal squares.
            "mul x8, x3, x3\n",
            "umulh x16, x3, x3\n",
            "mul x17, x4, x4\n",
            "umulh x20, x4, x4\n",
            "mul x21, x5, x5\n",
            "umulh x0, x5, x5\n",
            "mul x1, x6, x6\n",
            "umulh x7, x6, x6\n",
            "adds x9, x9, x16\n",
            "adcs x10, x10, x17\n",
            "adcs x11, x11, x20\n",
            "adcs x12, x12, x21\n",
            "adcs x13, x13, x0\n",
            "adcs x14, x14, x1\n",
            "adc x15, x15, x7\n",
            mont_reduce!(),
        )
    };
}

#[inline(always)]
fn mul_mont<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
    let pi = &Params::<M>::PI;
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: the kernel reads 4 words at `a` (x0), 4 at `b` (x1) and 5 at `pi` (x2), all valid
    // for reads for the duration of the block; it writes only the registers declared here
    // (x0–x17, x20, x21), does not touch the stack, and uses base Armv8-A instructions only.
    unsafe {
        asm!(
            mul_kernel!(),
            inout("x0") a.as_ptr() => _,
            inout("x1") b.as_ptr() => _,
            in("x2") pi.as_ptr(),
            out("x3") _, out("x4") _, out("x5") _, out("x6") _, out("x7") _,
            lateout("x8") r0, lateout("x9") r1, lateout("x10") r2, lateout("x11") r3,
            out("x12") _, out("x13") _, out("x14") _, out("x15") _,
            out("x16") _, out("x17") _, out("x20") _, out("x21") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

#[inline(always)]
fn square_mont<M: Modulus>(a: &Limbs) -> Limbs {
    let pi = &Params::<M>::PI;
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: the kernel reads 4 words at `a` (x0) and 5 at `pi` (x2), both valid for reads for
    // the duration of the block; it writes only the registers declared here (x0–x17, x20, x21),
    // does not touch the stack, and uses base Armv8-A instructions only.
    unsafe {
        asm!(
            sqr_kernel!(),
            inout("x0") a.as_ptr() => _,
            in("x2") pi.as_ptr(),
            out("x1") _,
            out("x3") _, out("x4") _, out("x5") _, out("x6") _, out("x7") _,
            lateout("x8") r0, lateout("x9") r1, lateout("x10") r2, lateout("x11") r3,
            out("x12") _, out("x13") _, out("x14") _, out("x15") _,
            out("x16") _, out("x17") _, out("x20") _, out("x21") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

impl Backend for Aarch64 {
    const NAME: &'static str = "asm";

    /// `a + b` on a carry chain into a carry word, `p` subtracted on a borrow chain through that
    /// word, and the difference kept by `CSEL` when there was no borrow (sum ≥ p).
    #[inline(always)]
    fn add<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        let [mut r0, mut r1, mut r2, mut r3] = *a;
        let p = &M::P;
        // SAFETY: operates on registers only (`nomem`), writes only the declared registers and
        // the flags, does not touch the stack.
        unsafe {
            asm!(
                "adds {r0}, {r0}, {b0}",
                "adcs {r1}, {r1}, {b1}",
                "adcs {r2}, {r2}, {b2}",
                "adcs {r3}, {r3}, {b3}",
                "adc {c}, xzr, xzr",
                "subs {b0}, {r0}, {p0}",
                "sbcs {b1}, {r1}, {p1}",
                "sbcs {b2}, {r2}, {p2}",
                "sbcs {b3}, {r3}, {p3}",
                "sbcs xzr, {c}, xzr",
                "csel {r0}, {b0}, {r0}, hs",
                "csel {r1}, {b1}, {r1}, hs",
                "csel {r2}, {b2}, {r2}, hs",
                "csel {r3}, {b3}, {r3}, hs",
                r0 = inout(reg) r0, r1 = inout(reg) r1, r2 = inout(reg) r2, r3 = inout(reg) r3,
                b0 = inout(reg) b[0] => _, b1 = inout(reg) b[1] => _,
                b2 = inout(reg) b[2] => _, b3 = inout(reg) b[3] => _,
                c = out(reg) _,
                p0 = in(reg) p[0], p1 = in(reg) p[1], p2 = in(reg) p[2], p3 = in(reg) p[3],
                options(pure, nomem, nostack),
            );
        }
        [r0, r1, r2, r3]
    }

    /// `a − b` on a borrow chain; `p` or 0 chosen by `CSEL` on the borrow and added back.
    #[inline(always)]
    fn sub<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        let [mut r0, mut r1, mut r2, mut r3] = *a;
        let p = &M::P;
        // SAFETY: operates on registers only (`nomem`), writes only the declared registers and
        // the flags, does not touch the stack.
        unsafe {
            asm!(
                "subs {r0}, {r0}, {b0}",
                "sbcs {r1}, {r1}, {b1}",
                "sbcs {r2}, {r2}, {b2}",
                "sbcs {r3}, {r3}, {b3}",
                // Carry clear (`lo`) = borrow: add p, else add 0.
                "csel {b0}, {p0}, xzr, lo",
                "csel {b1}, {p1}, xzr, lo",
                "csel {b2}, {p2}, xzr, lo",
                "csel {b3}, {p3}, xzr, lo",
                "adds {r0}, {r0}, {b0}",
                "adcs {r1}, {r1}, {b1}",
                "adcs {r2}, {r2}, {b2}",
                "adc {r3}, {r3}, {b3}",
                r0 = inout(reg) r0, r1 = inout(reg) r1, r2 = inout(reg) r2, r3 = inout(reg) r3,
                b0 = inout(reg) b[0] => _, b1 = inout(reg) b[1] => _,
                b2 = inout(reg) b[2] => _, b3 = inout(reg) b[3] => _,
                p0 = in(reg) p[0], p1 = in(reg) p[1], p2 = in(reg) p[2], p3 = in(reg) p[3],
                options(pure, nomem, nostack),
            );
        }
        [r0, r1, r2, r3]
    }

    /// `p − a`, replaced by 0 via `CSEL` when `a = 0` (so the result stays below p).
    #[inline(always)]
    fn neg<M: Modulus>(a: &Limbs) -> Limbs {
        let p = &M::P;
        let (r0, r1, r2, r3): (u64, u64, u64, u64);
        // SAFETY: operates on registers only (`nomem`), writes only the declared registers and
        // the flags, does not touch the stack.
        unsafe {
            asm!(
                "orr {z}, {a0}, {a1}",
                "orr {z}, {z}, {a2}",
                "orr {z}, {z}, {a3}",
                "subs {r0}, {p0}, {a0}",
                "sbcs {r1}, {p1}, {a1}",
                "sbcs {r2}, {p2}, {a2}",
                "sbc {r3}, {p3}, {a3}",
                "cmp {z}, #0",
                "csel {r0}, xzr, {r0}, eq",
                "csel {r1}, xzr, {r1}, eq",
                "csel {r2}, xzr, {r2}, eq",
                "csel {r3}, xzr, {r3}, eq",
                a0 = in(reg) a[0], a1 = in(reg) a[1], a2 = in(reg) a[2], a3 = in(reg) a[3],
                p0 = in(reg) p[0], p1 = in(reg) p[1], p2 = in(reg) p[2], p3 = in(reg) p[3],
                // `out`, not `lateout`: r0..r2 are written while a1..a3 are still being read.
                z = out(reg) _,
                r0 = out(reg) r0, r1 = out(reg) r1, r2 = out(reg) r2, r3 = out(reg) r3,
                options(pure, nomem, nostack),
            );
        }
        [r0, r1, r2, r3]
    }

    #[inline(always)]
    fn mul<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        mul_mont::<M>(a, b)
    }

    #[inline(always)]
    fn square<M: Modulus>(a: &Limbs) -> Limbs {
        square_mont::<M>(a)
    }
}
