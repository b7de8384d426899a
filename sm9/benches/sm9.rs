//! Criterion benchmarks of the SM9 operations (placeholder until the algebra lands).
#![allow(missing_docs)]
use criterion::{criterion_group, criterion_main, Criterion};

fn bench_h1(c: &mut Criterion) {
    c.bench_function("sm9/h1", |b| b.iter(|| sm9::h1(b"Alice", 1)));
}

criterion_group!(benches, bench_h1);
criterion_main!(benches);
