//! Curve primitives on the default backend: the SM2 point and field operations (`prim/`) and
//! the SM9 G1/G2 scalar multiplications (`sm9-g1/`, `sm9-g2/`). Run short:
//! `cargo bench -p sm-benches --bench curve -- --warm-up-time 1 --measurement-time 2`.
//!
//! `fixed_window` is the generic 5-bit signed-window ladder and `runtime_comb` the heap
//! `PrecomputedTable` (the previous SM9 paths), as baselines in the same process. The protocol
//! operations are the catalogue's (`--bench ops`).
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use sm_curve::sm9::{Sm9G1Curve, Sm9G2Curve};
use sm_curve::{Affine, CombTable, CurveParams, PrecomputedTable};
use sm_field::{Fp, Sm9N};

fn sm9_groups(c: &mut Criterion) {
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

/// The SM2 field, scalar and point primitives.
fn primitives(c: &mut Criterion) {
    use sm2::sm_curve::{CurveParams, Jacobian};
    use sm2::{Curve, FieldElement, Scalar};
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let a: FieldElement = FieldElement::random(&mut rng);
    let b: FieldElement = FieldElement::random(&mut rng);
    let k: Scalar = Scalar::random(&mut rng);
    let p = Curve::mul_generator(&k);
    let q = Curve::mul_generator(&(k + k));
    let qa = q.to_affine();
    let mut g = c.benchmark_group("prim");
    println!("backend: {}", <sm2::DefaultBackend as sm2::Backend>::NAME);
    g.bench_function("fp_mul", |bn| bn.iter(|| std::hint::black_box(a) * b));
    g.bench_function("fp_invert", |bn| {
        bn.iter(|| std::hint::black_box(a).invert().unwrap())
    });
    g.bench_function("scalar_invert", |bn| {
        bn.iter(|| std::hint::black_box(k).invert().unwrap())
    });
    g.bench_function("double", |bn| bn.iter(|| std::hint::black_box(p).double()));
    g.bench_function("add", |bn| bn.iter(|| std::hint::black_box(p).add(&q)));
    g.bench_function("add_assume_distinct", |bn| {
        bn.iter(|| std::hint::black_box(p).add_assume_distinct(&q))
    });
    g.bench_function("add_affine_assume_distinct", |bn| {
        bn.iter(|| std::hint::black_box(p).add_affine_assume_distinct(&qa))
    });
    g.bench_function("to_affine", |bn| {
        bn.iter(|| std::hint::black_box(p).to_affine())
    });
    g.bench_function("mul_generator_comb", |bn| {
        bn.iter(|| Curve::mul_generator(std::hint::black_box(&k)))
    });
    g.bench_function("mul_generator_comb_vartime", |bn| {
        bn.iter(|| Curve::mul_generator_vartime(std::hint::black_box(&k)))
    });
    g.bench_function("mul_fixed_window", |bn| {
        bn.iter(|| std::hint::black_box(p).mul(&k))
    });
    g.bench_function("mul_wnaf_vartime", |bn| {
        bn.iter(|| std::hint::black_box(p).mul_vartime(&k))
    });
    let _ = Jacobian::<Curve>::IDENTITY;
    g.finish();
}

criterion_group!(group, sm9_groups, primitives);
criterion_main!(group);
