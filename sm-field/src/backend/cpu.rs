//! The crate's one CPU probe (x86_64): which of the pure backend types this CPU can run.
//!
//! `cpufeatures` asks CPUID (and XCR0 for the OS-enabled AVX-512 state) once per feature set and
//! caches the answer in a static; when the build already targets the features
//! (`-C target-cpu=native`) the answer is a compile-time `true` and nothing is asked. The answer
//! depends on the CPU only, never on data.
//!
//! The probe is read in three places only: [`Auto`](super::x86_64::Auto)'s scalar operations (the
//! backend that asks, so that `Fp<M, Auto>` works everywhere), [`Auto`](super::x86_64::Auto)'s
//! [`dispatch`](super::Backend::dispatch) (once per protocol entry point, picking a pure type
//! with [`kernels`]), and the soundness guard of [`MulxIfma`](super::x86_64::MulxIfma)'s batch.

cpufeatures::new!(mulx_adx_cpuid, "bmi2", "adx");
cpufeatures::new!(ifma_cpuid, "avx512f", "avx512ifma");

/// Whether this CPU has BMI2 and ADX, i.e. can run [`Mulx`](super::x86_64::Mulx).
#[inline]
pub fn has_mulx_adx() -> bool {
    mulx_adx_cpuid::get()
}

/// Whether this CPU (and OS) supports AVX-512F with IFMA, i.e. can run the batched
/// multiplication of [`MulxIfma`](super::x86_64::MulxIfma) (which also needs [`has_mulx_adx`]).
#[inline]
pub fn has_ifma() -> bool {
    ifma_cpuid::get()
}

/// The fastest x86_64 kernels this CPU runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernels {
    /// No BMI2/ADX: the portable [`U64`](super::U64).
    Portable,
    /// BMI2 and ADX: [`Mulx`](super::x86_64::Mulx).
    Mulx,
    /// BMI2, ADX, AVX-512F and IFMA: [`MulxIfma`](super::x86_64::MulxIfma).
    MulxIfma,
}

/// What this CPU runs (see [`Kernels`]).
#[inline]
pub fn kernels() -> Kernels {
    match (has_mulx_adx(), has_ifma()) {
        (false, _) => Kernels::Portable,
        (true, false) => Kernels::Mulx,
        (true, true) => Kernels::MulxIfma,
    }
}
