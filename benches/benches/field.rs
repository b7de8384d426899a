//! Criterion benches of the prime-field operations: one group per modulus and operation, one
//! `BenchmarkId` per backend. `cargo bench -p sm-benches --bench field`.
#![allow(missing_docs)] // criterion_group!/criterion_main! generate undocumented items

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use sm_field::{Backend, Fp, Modulus, Sm2N, Sm2P, Sm9N, Sm9P};

fn bench_backend<M: Modulus, B: Backend>(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let x = Fp::<M, B>::random(&mut rng);
    let y = Fp::<M, B>::random(&mut rng);
    let sq = x.square();
    let id = |_: &str| BenchmarkId::from_parameter(B::NAME);
    c.benchmark_group(format!("{}/mul", M::NAME))
        .bench_function(id("mul"), |b| b.iter(|| black_box(x) * black_box(y)));
    c.benchmark_group(format!("{}/square", M::NAME))
        .bench_function(id("square"), |b| b.iter(|| black_box(x).square()));
    c.benchmark_group(format!("{}/add", M::NAME))
        .bench_function(id("add"), |b| b.iter(|| black_box(x) + black_box(y)));
    c.benchmark_group(format!("{}/invert", M::NAME))
        .bench_function(id("invert"), |b| b.iter(|| black_box(x).invert().unwrap()));
    c.benchmark_group(format!("{}/invert_vartime", M::NAME))
        .bench_function(id("invert_vartime"), |b| {
            b.iter(|| black_box(x).invert_vartime().unwrap())
        });
    c.benchmark_group(format!("{}/sqrt", M::NAME))
        .bench_function(id("sqrt"), |b| b.iter(|| black_box(sq).sqrt().unwrap()));
}

fn bench_all<B: Backend>(c: &mut Criterion) {
    bench_backend::<Sm2P, B>(c);
    bench_backend::<Sm2N, B>(c);
    bench_backend::<Sm9P, B>(c);
    bench_backend::<Sm9N, B>(c);
}

fn field(c: &mut Criterion) {
    bench_all::<sm_field::U64>(c);
    bench_all::<sm_field::U32>(c);
    #[cfg(target_arch = "x86_64")]
    bench_all::<sm_field::Asm>(c);
}

criterion_group!(benches, field);
criterion_main!(benches);
