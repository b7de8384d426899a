//! Opt-in operation counting (feature `op-count`), for research diagnostics.
//!
//! [`Counting<B>`] is a [`Backend`] that forwards to `B` and increments global atomic counters, so
//! `Fp<Sm9P, Counting<U64>>` (and every tower type, pairing or curve function generic over the
//! backend) reports how many GF(p) operations it performs:
//!
//! ```
//! # #[cfg(feature = "op-count")] {
//! use sm_field::{counting, Counting, Fp, Sm9P, U64};
//! counting::reset();
//! let a = Fp::<Sm9P, Counting<U64>>::from_u64(3);
//! let _ = a * a + a;
//! let c = counting::snapshot();
//! assert!(c.mul >= 1 && c.add >= 1);
//! # }
//! ```
//!
//! Inversions and square roots appear as the multiplications and squarings of their
//! exponentiations (Fermat). Counters are process-wide: run counted code single-threaded.

use core::marker::PhantomData;
use core::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::{Backend, Job, Limbs, Modulus};

static MUL: AtomicU64 = AtomicU64::new(0);
static SQUARE: AtomicU64 = AtomicU64::new(0);
static ADD: AtomicU64 = AtomicU64::new(0);
static SUB: AtomicU64 = AtomicU64::new(0);
static NEG: AtomicU64 = AtomicU64::new(0);
static DOUBLE: AtomicU64 = AtomicU64::new(0);

/// A backend that counts the operations it forwards to `B`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counting<B: Backend>(PhantomData<fn() -> B>);

/// Operation counts since the last [`reset`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpCounts {
    /// Montgomery multiplications (excluding squarings; a batched call counts each product).
    pub mul: u64,
    /// Montgomery squarings.
    pub square: u64,
    /// Modular additions.
    pub add: u64,
    /// Modular subtractions.
    pub sub: u64,
    /// Negations.
    pub neg: u64,
    /// Doublings.
    pub double: u64,
}

/// Sets every counter to zero.
pub fn reset() {
    for c in [&MUL, &SQUARE, &ADD, &SUB, &NEG, &DOUBLE] {
        c.store(0, Relaxed);
    }
}

/// The current counts.
pub fn snapshot() -> OpCounts {
    OpCounts {
        mul: MUL.load(Relaxed),
        square: SQUARE.load(Relaxed),
        add: ADD.load(Relaxed),
        sub: SUB.load(Relaxed),
        neg: NEG.load(Relaxed),
        double: DOUBLE.load(Relaxed),
    }
}

impl<B: Backend> Backend for Counting<B> {
    const NAME: &'static str = "counting";
    const BATCH: bool = B::BATCH;

    /// Follows `B`'s dispatch and keeps counting: `Counting<Auto>` runs an entry point on
    /// `Counting<MulxIfma>` (or `Counting<Mulx>`, `Counting<U64>`).
    fn dispatch<J: Job>(job: J) -> J::Output {
        struct Wrap<J>(J);
        impl<J: Job> Job for Wrap<J> {
            type Output = J::Output;
            fn run<B2: Backend>(self) -> J::Output {
                self.0.run::<Counting<B2>>()
            }
        }
        B::dispatch(Wrap(job))
    }

    #[inline(always)]
    fn add<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        ADD.fetch_add(1, Relaxed);
        B::add::<M>(a, b)
    }
    #[inline(always)]
    fn sub<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        SUB.fetch_add(1, Relaxed);
        B::sub::<M>(a, b)
    }
    #[inline(always)]
    fn neg<M: Modulus>(a: &Limbs) -> Limbs {
        NEG.fetch_add(1, Relaxed);
        B::neg::<M>(a)
    }
    #[inline(always)]
    fn double<M: Modulus>(a: &Limbs) -> Limbs {
        DOUBLE.fetch_add(1, Relaxed);
        B::double::<M>(a)
    }
    #[inline(always)]
    fn mul<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        MUL.fetch_add(1, Relaxed);
        B::mul::<M>(a, b)
    }
    #[inline(always)]
    fn mul_batch<M: Modulus>(a: &[Limbs], b: &[Limbs], out: &mut [Limbs]) {
        let n = out.len().min(a.len()).min(b.len());
        MUL.fetch_add(n as u64, Relaxed);
        B::mul_batch::<M>(a, b, out)
    }
    #[inline(always)]
    fn square<M: Modulus>(a: &Limbs) -> Limbs {
        SQUARE.fetch_add(1, Relaxed);
        B::square::<M>(a)
    }
}

std::thread_local! {
    static OUTSIDE: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };
}

fn outside() {
    OUTSIDE.with(|c| c.set(c.get() + 1));
}

/// A backend for testing that protocol entry points dispatch: its `dispatch` runs every job on
/// [`U64`](crate::U64) (as `Auto` runs it on the pure type the CPU supports), and its own
/// operations, which can only happen outside a job, are counted ([`outside_jobs`]). An entry
/// point on `JobGuard` that leaves the count unchanged did all its field arithmetic inside
/// jobs, i.e. nothing below it would ask the CPU a question per operation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JobGuard;

/// Operations of [`JobGuard`] on this thread so far.
pub fn outside_jobs() -> u64 {
    OUTSIDE.with(core::cell::Cell::get)
}

/// Runs `f` (an entry point called on [`JobGuard`] types) and panics, naming `what`, if it
/// performed any operation outside a dispatched job.
pub fn expect_dispatched<R>(what: &str, f: impl FnOnce() -> R) -> R {
    let before = outside_jobs();
    let r = f();
    let outside = outside_jobs() - before;
    assert_eq!(
        outside, 0,
        "{what}: {outside} field operations outside its jobs"
    );
    r
}

impl Backend for JobGuard {
    const NAME: &'static str = "job-guard";

    fn dispatch<J: Job>(job: J) -> J::Output {
        job.run::<crate::U64>()
    }
    fn add<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        outside();
        crate::U64::add::<M>(a, b)
    }
    fn sub<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        outside();
        crate::U64::sub::<M>(a, b)
    }
    fn mul<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        outside();
        crate::U64::mul::<M>(a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The guard's own arithmetic is counted, a job's is not.
    #[test]
    fn job_guard_counts_operations_outside_jobs() {
        let a = crate::Fp::<crate::Sm9N, JobGuard>::from_u64(3);
        let before = outside_jobs();
        let _ = a * a;
        assert_eq!(outside_jobs(), before + 1);
        struct Square(crate::Fp<crate::Sm9N, JobGuard>);
        impl Job for Square {
            type Output = crate::Fp<crate::Sm9N, JobGuard>;
            fn run<B2: Backend>(self) -> Self::Output {
                let x = self.0.to_backend::<B2>();
                (x * x).to_backend()
            }
        }
        let sq = expect_dispatched("square", || JobGuard::dispatch(Square(a)));
        assert_eq!(sq, a * a);
        let caught = std::panic::catch_unwind(|| expect_dispatched("outside", || a * a));
        assert!(caught.is_err());
    }
}
