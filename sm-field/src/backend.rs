//! Limb backends: the only place where field arithmetic touches machine words.
//!
//! Every backend works on **fully reduced Montgomery residues with R = 2^256** stored as four
//! little-endian 64-bit limbs, so the limbs of a value are identical on every backend and can be
//! compared bit for bit (`cargo xtask check` does), and a value moves between backends by copying
//! its limbs (`to_backend` on `Fp`, `Fp2`, `Fp4`, `Fp12` and the types built on them). How a
//! backend computes internally (29-bit digits, `u128` products, MULX/ADCX/ADOX, IFMA) is its
//! own business.
//!
//! All operations are constant time: no branch or memory index depends on operand values.
//!
//! # The rule: pure types, one probe, dispatch at entry points
//!
//! * **Backends are pure types**, laid out by ISA: `U32` (`u32.rs`), [`U64`]
//!   (`u64.rs`), `Mulx` and `MulxIfma` (`x86_64/`), `Aarch64` (`aarch64.rs`). None of them asks
//!   the CPU anything; what a type needs from the CPU is written on the type. Whether the tower
//!   formulas batch their products is the compile-time constant [`Backend::BATCH`], so each
//!   monomorphisation keeps one formula family.
//! * **One probe**: `cpu.rs` (x86_64, `cpufeatures` tokens, answer cached) is the crate's only
//!   CPU question.
//! * **Dispatch at entry points**: `Auto` (x86_64, the default with feature `asm`, also named
//!   `Asm`) is the one backend that asks. Its scalar operations ask per product (so that any
//!   `Fp<M, Auto>` code runs everywhere), and its [`Backend::dispatch`] asks once and runs a
//!   [`Job`] on the pure type the CPU supports. Protocol entry points (the pairing, GT
//!   exponentiation) wrap their body in a `Job` and call `B::dispatch`: with `B = Auto` the
//!   whole call runs on `MulxIfma`, `Mulx` or `U64`; with a pure `B` it runs on `B` itself.
//! * **Features pick the default**: Cargo features `u32`, `u64`, `asm` (and `--cfg sm_backend`
//!   for CI) choose [`DefaultBackend`](crate::DefaultBackend); see the crate docs.

use crate::{Limbs, Modulus};

#[cfg(all(target_arch = "aarch64", any(feature = "asm", sm_backend = "asm")))]
pub mod aarch64;
#[cfg(all(target_arch = "x86_64", any(feature = "asm", sm_backend = "asm")))]
pub mod cpu;
#[cfg(any(feature = "u32", sm_backend = "u32", target_pointer_width = "32"))]
pub mod u32;
pub mod u64;
#[cfg(all(target_arch = "x86_64", any(feature = "asm", sm_backend = "asm")))]
pub mod x86_64;

pub use self::u64::U64;

/// A computation that can run on any backend: the unit of [`Backend::dispatch`].
///
/// An entry point generic over `B` wraps its body in a `Job` whose [`run`](Job::run) converts
/// its inputs to the backend it is given (`to_backend`, a limb copy), computes there, and
/// converts the result back to `B`.
pub trait Job {
    /// The result (independent of the backend the job runs on).
    type Output;
    /// Runs the job on backend `B2`.
    fn run<B2: Backend>(self) -> Self::Output;
}

/// Limb arithmetic modulo `M::P` on fully reduced Montgomery residues (R = 2^256).
///
/// Inputs must be below `M::P`; outputs are below `M::P`.
pub trait Backend:
    'static + Copy + Clone + Default + Send + Sync + core::fmt::Debug + PartialEq + Eq
{
    /// Short name (`"u32"`, `"u64"`, `"mulx"`, `"mulx-ifma"`; `"asm"` for `Asm`, i.e. `Auto`
    /// on x86_64 and `Aarch64` on aarch64).
    const NAME: &'static str;

    /// Whether [`mul_batch`](Self::mul_batch) is faster than one [`mul`](Self::mul) per pair, so
    /// that the tower formulas stage their independent products in batches (which costs some
    /// memory traffic: ≈ 7 % of a pairing where batches are not faster). A compile-time constant:
    /// each monomorphisation of the tower keeps one formula family. `false` by default; `true`
    /// for `MulxIfma`.
    const BATCH: bool = false;

    /// Runs `job` on the backend this one stands for. The default runs it on `Self`; `Auto`
    /// probes the CPU once and runs it on `MulxIfma`, `Mulx` or `U64`. Entry points call this
    /// once per call so that nothing below them asks the CPU.
    #[inline(always)]
    fn dispatch<J: Job>(job: J) -> J::Output {
        job.run::<Self>()
    }

    /// `a + b mod p`.
    fn add<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs;
    /// `a - b mod p`.
    fn sub<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs;
    /// `-a mod p` (0 maps to 0).
    #[inline(always)]
    fn neg<M: Modulus>(a: &Limbs) -> Limbs {
        Self::sub::<M>(&[0; 4], a)
    }
    /// `2a mod p`.
    #[inline(always)]
    fn double<M: Modulus>(a: &Limbs) -> Limbs {
        Self::add::<M>(a, a)
    }
    /// Montgomery product `a·b·R^-1 mod p`.
    fn mul<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs;
    /// Montgomery products `out[i] = a[i]·b[i]·R^-1 mod p` for `i < min(a.len(), b.len(),
    /// out.len())`, bit-identical to [`mul`](Self::mul) on each pair. Tower formulas hand their
    /// independent products over in one call so that a backend can compute several at once
    /// (`MulxIfma`: eight per AVX-512 IFMA pass); the default multiplies one
    /// pair after the other.
    #[inline]
    fn mul_batch<M: Modulus>(a: &[Limbs], b: &[Limbs], out: &mut [Limbs]) {
        for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
            *o = Self::mul::<M>(x, y);
        }
    }
    /// Montgomery square `a^2·R^-1 mod p`.
    #[inline(always)]
    fn square<M: Modulus>(a: &Limbs) -> Limbs {
        Self::mul::<M>(a, a)
    }
    /// The Montgomery product in GF(p²) = GF(p)\[u\]/(u² + 2) (SM9's quadratic extension,
    /// coefficients `[c0, c1]` of `c0 + c1·u`): `[a0·b0 − 2·a1·b1, a0·b1 + a1·b0]·R^-1`.
    ///
    /// The default is Karatsuba with three Montgomery products (`v0 = a0·b0`, `v1 = a1·b1`,
    /// `c0 = v0 − 2·v1`, `c1 = (a0 + a1)(b0 + b1) − v0 − v1`); a backend may instead reduce
    /// sums of unreduced products (lazy reduction: two reductions instead of three), with
    /// bit-identical results.
    #[inline(always)]
    fn mul_fp2<M: Modulus>(a: &[Limbs; 2], b: &[Limbs; 2]) -> [Limbs; 2] {
        let v = fp2_factors::<Self, M>(a, b).map(|(x, y)| Self::mul::<M>(&x, &y));
        fp2_combine::<Self, M>(&v)
    }
}

/// Karatsuba in GF(p²) (u² = −2), before the products: the three GF(p) factor pairs
/// `(a0, b0)`, `(a1, b1)`, `(a0 + a1, b0 + b1)`. The one statement of the formula, shared by
/// [`Backend::mul_fp2`]'s default and the batched tower products (`Fp2::mul_factors`).
#[inline(always)]
pub(crate) fn fp2_factors<B: Backend, M: Modulus>(
    a: &[Limbs; 2],
    b: &[Limbs; 2],
) -> [(Limbs, Limbs); 3] {
    [
        (a[0], b[0]),
        (a[1], b[1]),
        (B::add::<M>(&a[0], &a[1]), B::add::<M>(&b[0], &b[1])),
    ]
}

/// Karatsuba in GF(p²), after the products `[v0, v1, s]` of [`fp2_factors`]:
/// `v0 − 2·v1 + (s − v0 − v1)·u`.
#[inline(always)]
pub(crate) fn fp2_combine<B: Backend, M: Modulus>([v0, v1, s]: &[Limbs; 3]) -> [Limbs; 2] {
    [
        B::sub::<M>(v0, &B::double::<M>(v1)),
        B::sub::<M>(&B::sub::<M>(s, v0), v1),
    ]
}
