//! Per-stage timings of the SM9 pairing on the default backend (and asm/u64 A/B with
//! `--features all-backends`).
//!
//! `cargo bench -p sm-benches --bench pairing -- --warm-up-time 1 --measurement-time 2`

#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use sm_pairing::{
    final_exponentiation, miller_loop, multi_pairing, pairing, pairing_prepared, Backend, G1Affine,
    G2Affine, G2Prepared, Gt, GtTable,
};

fn bench_backend<B: Backend>(c: &mut Criterion) {
    let name = B::NAME;
    let p = G1Affine::<B>::GENERATOR;
    let q = G2Affine::<B>::GENERATOR;
    let f = miller_loop(&p, &q);
    let g = pairing(&p, &q);
    let prep = G2Prepared::new(&q);
    let table = GtTable::new(&g);
    let k = [
        0x0123_4567_89ab_cdef,
        0xfedc_ba98_7654_3210,
        0x0f1e_2d3c_4b5a_6978,
        0x3640_0000_02a3_a6f1,
    ];
    c.bench_function(&format!("{name}/pairing"), |b| {
        b.iter(|| pairing(black_box(&p), black_box(&q)))
    });
    c.bench_function(&format!("{name}/miller_loop"), |b| {
        b.iter(|| miller_loop(black_box(&p), black_box(&q)))
    });
    c.bench_function(&format!("{name}/final_exponentiation"), |b| {
        b.iter(|| final_exponentiation(black_box(&f)))
    });
    c.bench_function(&format!("{name}/pairing_prepared"), |b| {
        b.iter(|| pairing_prepared(black_box(&p), black_box(&prep)))
    });
    c.bench_function(&format!("{name}/multi_pairing_2"), |b| {
        b.iter(|| multi_pairing(black_box(&[(p, q), (p.neg(), q)])))
    });
    c.bench_function(&format!("{name}/gt_pow_ct"), |b| {
        b.iter(|| black_box(&g).pow(black_box(&k)))
    });
    c.bench_function(&format!("{name}/gt_table_pow_ct"), |b| {
        b.iter(|| black_box(&table).pow(black_box(&k)))
    });
    c.bench_function(&format!("{name}/gt_pow_vartime"), |b| {
        b.iter(|| black_box(&g).pow_vartime(black_box(&k)))
    });
    let _: Gt<B> = g;
}

fn bench_ops<B: Backend>(c: &mut Criterion) {
    let name = B::NAME;
    let g = pairing(&G1Affine::<B>::GENERATOR, &G2Affine::GENERATOR);
    let a = *g.as_fp12();
    let b = a.square();
    let x = a.c0.c0;
    let y = b.c1.c1;
    c.bench_function(&format!("{name}/op/fp_mul"), |bb| {
        bb.iter(|| black_box(x.c0) * black_box(y.c1))
    });
    c.bench_function(&format!("{name}/op/fp2_mul"), |bb| {
        bb.iter(|| black_box(x) * black_box(y))
    });
    c.bench_function(&format!("{name}/op/fp12_mul"), |bb| {
        bb.iter(|| black_box(a) * black_box(b))
    });
    c.bench_function(&format!("{name}/op/fp12_square"), |bb| {
        bb.iter(|| black_box(a).square())
    });
    c.bench_function(&format!("{name}/op/gt_cyclotomic_square"), |bb| {
        bb.iter(|| black_box(g).square())
    });
    c.bench_function(&format!("{name}/op/fp12_mul_by_023"), |bb| {
        bb.iter(|| black_box(a).mul_by_023(black_box(&x), black_box(&y), black_box(&x)))
    });
}

fn benches(c: &mut Criterion) {
    bench_ops::<sm_pairing::DefaultBackend>(c);
    bench_backend::<sm_pairing::DefaultBackend>(c);
    #[cfg(target_arch = "x86_64")]
    bench_backend::<sm_field::U64>(c);
}

criterion_group!(group, benches);
criterion_main!(group);
