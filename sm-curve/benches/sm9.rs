//! SM9 G1/G2 scalar-multiplication timings (default backend). Run short:
//! `cargo bench -p sm-curve --bench sm9 -- --warm-up-time 1 --measurement-time 2`.
//!
//! `fixed_window` is the generic 5-bit signed-window ladder and `runtime_comb` the heap
//! `PrecomputedTable` (the previous SM9 paths), as baselines in the same process.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use sm_curve::sm9::{Sm9G1Curve, Sm9G2Curve};
use sm_curve::{Affine, CombTable, CurveParams, PrecomputedTable};
use sm_field::{Fp, Sm9N};

fn benches(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let k = Fp::<Sm9N>::random(&mut rng);
    let j = Fp::<Sm9N>::random(&mut rng);
    let p = Sm9G1Curve::mul_generator(&j);
    let q = Sm9G2Curve::mul_generator(&j);
    let qa = q.to_affine();

    let mut g = c.benchmark_group("sm9-g1");
    g.bench_function("mul_endo", |b| b.iter(|| black_box(&p).mul_endo(&k)));
    g.bench_function("mul_endo_vartime", |b| {
        b.iter(|| black_box(&p).mul_endo_vartime(&k))
    });
    g.bench_function("fixed_window", |b| b.iter(|| black_box(&p).mul(&k)));
    g.bench_function("mul_generator", |b| {
        b.iter(|| Sm9G1Curve::mul_generator(black_box(&k)))
    });
    g.bench_function("mul_generator_vartime", |b| {
        b.iter(|| Sm9G1Curve::mul_generator_vartime(black_box(&k)))
    });
    let t1 = PrecomputedTable::new(&Affine::<Sm9G1Curve>::GENERATOR);
    g.bench_function("runtime_comb", |b| b.iter(|| t1.mul(black_box(&k))));
    g.bench_function("to_affine", |b| b.iter(|| black_box(&p).to_affine()));
    g.finish();

    let mut g = c.benchmark_group("sm9-g2");
    g.bench_function("mul_endo", |b| b.iter(|| black_box(&q).mul_endo(&k)));
    g.bench_function("mul_endo_vartime", |b| {
        b.iter(|| black_box(&q).mul_endo_vartime(&k))
    });
    g.bench_function("fixed_window", |b| b.iter(|| black_box(&q).mul(&k)));
    g.bench_function("mul_generator", |b| {
        b.iter(|| Sm9G2Curve::mul_generator(black_box(&k)))
    });
    g.bench_function("mul_generator_vartime", |b| {
        b.iter(|| Sm9G2Curve::mul_generator_vartime(black_box(&k)))
    });
    let t2 = PrecomputedTable::new(&Affine::<Sm9G2Curve>::GENERATOR);
    g.bench_function("runtime_comb", |b| b.iter(|| t2.mul(black_box(&k))));
    g.bench_function("is_in_subgroup", |b| {
        b.iter(|| black_box(&qa).is_in_subgroup())
    });
    g.bench_function("subgroup_by_order", |b| {
        b.iter(|| {
            black_box(&q)
                .mul_limbs_vartime(&<Sm9G2Curve as CurveParams>::ORDER)
                .is_identity()
        })
    });
    g.finish();
}

criterion_group!(name = sm9; config = Criterion::default(); targets = benches);
criterion_main!(sm9);
