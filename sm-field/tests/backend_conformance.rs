//! One conformance suite for every limb backend, instantiated per backend type by name
//! (`suite!(module, Type, runs_here, env)`), replacing the per-backend copies.
//!
//! Each backend is checked limb for limb, on all four moduli, against `U64` (and `U32` when
//! compiled) and against `num-bigint` (an independent reference):
//! * random operand pairs (100 000 per modulus; 50 000 on aarch64, which runs under QEMU), every
//!   64th also against `num-bigint`;
//! * adversarial operands: per-limb combinations of {0, 1, 2, 2^63, all ones, all ones − 1,
//!   p_i − 1, p_i, p_i + 1} below p, p − k, single bits, all-ones limbs, R, R², R³;
//! * the GF(p²) product kernel (`mul_fp2`) on random and adversarial coefficient pairs against
//!   `num-bigint` and `U64`'s default formula;
//! * long dependent chains (a result congruent but not fully reduced would diverge);
//! * the `Fp` algorithms on top (inversion, square roots, exponentiation, encodings);
//! * `mul_batch` for every length 0…20, random batches of lengths 1…70, every edge pair in every
//!   lane of a group of eight, mismatched slice lengths;
//! * the tower products (`Fp12::mul`, `square`, `mul_by_023`, `Fp4::square_batch`) on the
//!   backend and on [`Flip<B>`] (the same backend with the other [`Backend::BATCH`]), i.e. the
//!   batched and the direct evaluation of the same formulas, against `U64`, and the shape of the
//!   batched evaluation (one `mul_batch` call per product, of 54, 36, 39 or 6N GF(p) products).
//!
//! A backend the CPU lacks **fails** its tests unless the environment declares the CPU's lack
//! (`SM_EXPECT_MULX=0`, `SM_EXPECT_IFMA=0`; `cargo xtask test` sets them from /proc/cpuinfo):
//! never a silent skip (`sm_testvectors::backend_runs_here`, which prints whether it ran).
#![allow(clippy::type_complexity)]

use std::io::Write;

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use sm_conformance::{batches, chains, edges, field_ops, random_pairs, tower};
use sm_field::{Backend, Fp12, Fp2, Fp4, Limbs, Modulus, Sm2N, Sm2P, Sm9N, Sm9P, U64};

const RANDOM_PAIRS: usize = if cfg!(target_arch = "aarch64") {
    50_000
} else {
    100_000
};

/// `U64` with a fixed [`Backend::BATCH`] that records, per thread, the length of every
/// `mul_batch` call and the number of single products.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Recording<const BATCH: bool>;

thread_local! {
    static BATCHES: core::cell::RefCell<Vec<usize>> = const { core::cell::RefCell::new(Vec::new()) };
    static SINGLES: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
}

impl<const BATCH: bool> Backend for Recording<BATCH> {
    const NAME: &'static str = "recording";
    const BATCH: bool = BATCH;
    fn add<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        U64::add::<M>(a, b)
    }
    fn sub<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        U64::sub::<M>(a, b)
    }
    fn mul<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        SINGLES.with(|s| s.set(s.get() + 1));
        U64::mul::<M>(a, b)
    }
    fn mul_batch<M: Modulus>(a: &[Limbs], b: &[Limbs], out: &mut [Limbs]) {
        BATCHES.with(|v| v.borrow_mut().push(out.len().min(a.len()).min(b.len())));
        U64::mul_batch::<M>(a, b, out)
    }
}

/// `(batch lengths, single products)` of `f` on this thread.
fn recorded(f: impl FnOnce()) -> (Vec<usize>, usize) {
    BATCHES.with(|v| v.borrow_mut().clear());
    SINGLES.with(|s| s.set(0));
    f();
    (BATCHES.with(|v| v.take()), SINGLES.with(|s| s.get()))
}

/// The shape of the tower products' evaluation: with batches, all GF(p) products of one formula
/// in one `mul_batch` call (`Fp12::mul` 54, `square` 36, `mul_by_023` 39, `Fp4::square_batch`
/// 6 per element) and no single product; without, the same counts as single products.
#[test]
fn tower_product_staging() {
    fn shapes<C: Backend>() -> [(Vec<usize>, usize); 5] {
        let mut rng = ChaCha20Rng::seed_from_u64(6000);
        let x = Fp12::<U64>::random(&mut rng).to_backend::<C>();
        let y = Fp12::<U64>::random(&mut rng).to_backend::<C>();
        let l: [Fp2<C>; 3] = core::array::from_fn(|_| Fp2::<U64>::random(&mut rng).to_backend());
        [
            recorded(|| {
                core::hint::black_box(x.mul(&y));
            }),
            recorded(|| {
                core::hint::black_box(x.square());
            }),
            recorded(|| {
                core::hint::black_box(x.mul_by_023(&l[0], &l[1], &l[2]));
            }),
            recorded(|| {
                core::hint::black_box(Fp4::square_batch(&[x.c0, x.c1, x.c2]));
            }),
            recorded(|| {
                core::hint::black_box(Fp4::square_batch(&[x.c1, x.c2]));
            }),
        ]
    }
    let counts = [54, 36, 39, 18, 12];
    let batched = shapes::<Recording<true>>();
    let direct = shapes::<Recording<false>>();
    for i in 0..counts.len() {
        assert_eq!(batched[i], (vec![counts[i]], 0), "product {i}, batched");
        assert_eq!(direct[i], (vec![], counts[i]), "product {i}, direct");
    }
}

macro_rules! suite {
    ($name:ident, $B:ty, $runs_here:expr, $env:expr) => {
        mod $name {
            use super::*;
            type B = $B;
            fn go() -> bool {
                match $env {
                    Some(env) => sm_testvectors::backend_runs_here(stringify!($B), $runs_here, env),
                    None => true,
                }
            }
            macro_rules! per_modulus {
                ($m:ident, $M:ty, $seed:literal) => {
                    mod $m {
                        use super::*;
                        #[test]
                        fn random_inputs() {
                            if go() {
                                random_pairs::<$M, B>($seed, RANDOM_PAIRS);
                            }
                        }
                        #[test]
                        fn adversarial_inputs() {
                            if go() {
                                edges::<$M, B>($seed + 1, RANDOM_PAIRS);
                            }
                        }
                        #[test]
                        fn dependent_chains() {
                            if go() {
                                chains::<$M, B>($seed + 2, RANDOM_PAIRS);
                            }
                        }
                        #[test]
                        fn fp_algorithms() {
                            if go() {
                                field_ops::<$M, B>($seed + 3);
                            }
                        }
                        #[test]
                        fn batched_products() {
                            if go() {
                                batches::<$M, B>($seed + 4, RANDOM_PAIRS);
                            }
                        }
                    }
                };
            }
            per_modulus!(sm2_p, Sm2P, 1000);
            per_modulus!(sm2_n, Sm2N, 2000);
            per_modulus!(sm9_p, Sm9P, 3000);
            per_modulus!(sm9_n, Sm9N, 4000);
            #[test]
            fn tower_batch_on_and_off() {
                if go() {
                    tower::<B>(5000, RANDOM_PAIRS);
                }
            }
        }
    };
}

suite!(u64_backend, U64, true, None::<&str>);
#[cfg(feature = "u32")]
suite!(u32_backend, sm_field::U32, true, None::<&str>);
#[cfg(all(feature = "asm", target_arch = "x86_64"))]
suite!(
    mulx_backend,
    sm_field::Mulx,
    sm_field::backend::cpu::has_mulx_adx(),
    Some("SM_EXPECT_MULX")
);
#[cfg(all(feature = "asm", target_arch = "x86_64"))]
suite!(
    mulx_ifma_backend,
    sm_field::MulxIfma,
    sm_field::backend::cpu::has_mulx_adx() && sm_field::backend::cpu::has_ifma(),
    Some("SM_EXPECT_IFMA")
);
#[cfg(all(feature = "asm", target_arch = "x86_64"))]
suite!(auto_backend, sm_field::Auto, true, None::<&str>);
#[cfg(all(feature = "asm", target_arch = "aarch64"))]
suite!(aarch64_backend, sm_field::Aarch64, true, None::<&str>);

/// `Auto`'s dispatch runs a job on the type the probe names, and says which (printed).
#[cfg(all(feature = "asm", target_arch = "x86_64"))]
#[test]
fn auto_dispatch_follows_the_probe() {
    use sm_field::backend::cpu::{self, Kernels};
    use sm_field::{Auto, Job};
    struct Name;
    impl Job for Name {
        type Output = (&'static str, bool);
        fn run<B2: Backend>(self) -> Self::Output {
            (B2::NAME, B2::BATCH)
        }
    }
    let got = Auto::dispatch(Name);
    let want = match cpu::kernels() {
        Kernels::MulxIfma => ("mulx-ifma", true),
        Kernels::Mulx => ("mulx", false),
        Kernels::Portable => ("u64", false),
    };
    writeln!(
        std::io::stderr(),
        "sm-field conformance: Auto dispatches to {} (BATCH = {})",
        got.0,
        got.1
    )
    .expect("stderr");
    assert_eq!(got, want);
    // A pure backend runs the job itself.
    assert_eq!(U64::dispatch(Name), ("u64", false));
    assert_eq!(sm_field::Mulx::dispatch(Name), ("mulx", false));
    // The probe agrees with /proc/cpuinfo where the OS lists the flags.
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    if let Some(flags) = cpuinfo.lines().find(|l| l.starts_with("flags")) {
        let listed = |f: &str| flags.split_whitespace().any(|w| w == f);
        assert_eq!(cpu::has_mulx_adx(), listed("bmi2") && listed("adx"));
        assert_eq!(cpu::has_ifma(), listed("avx512f") && listed("avx512ifma"));
    }
}

/// Feature `asm` makes `Asm` the default unless `--cfg sm_backend=...` forces another.
#[cfg(all(feature = "asm", any(target_arch = "x86_64", target_arch = "aarch64")))]
#[test]
fn asm_is_the_default() {
    #[cfg(not(sm_backend))]
    assert_eq!(<sm_field::DefaultBackend as Backend>::NAME, "asm");
    assert_eq!(<sm_field::Asm as Backend>::NAME, "asm");
    const { assert!(!<sm_field::Asm as Backend>::BATCH) };
}
