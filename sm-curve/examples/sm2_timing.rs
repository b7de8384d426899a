//! Rough SM2 fixed-base timings for profiling (an example, not a test: it only prints figures):
//! `cargo run --release -p sm-curve --example sm2_timing`, or with the argument `loop` 100 000
//! `mul_generator` calls and nothing else, for a profiler.

use std::hint::black_box;
use std::time::Instant;

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use sm_curve::CurveParams;
use sm_curve::Sm2Curve;
use sm_field::{Fp, Sm2N};

fn time<F: FnMut()>(name: &str, mut f: F) {
    let mut best = f64::MAX;
    for _ in 0..15 {
        let t = Instant::now();
        for _ in 0..200 {
            f();
        }
        best = best.min(t.elapsed().as_secs_f64() / 200.0);
    }
    println!("{name:<28} {:>9.2} us", best * 1e6);
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("loop") {
        mul_generator_loop();
        return;
    }
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let k = Fp::<Sm2N>::random(&mut rng);
    let p = Sm2Curve::<sm_field::DefaultBackend>::mul_generator(&k);
    time("mul_generator", || {
        black_box(Sm2Curve::<sm_field::DefaultBackend>::mul_generator(
            black_box(&k),
        ));
    });
    time("mul_generator_vartime", || {
        black_box(Sm2Curve::<sm_field::DefaultBackend>::mul_generator_vartime(
            black_box(&k),
        ));
    });
    time("to_affine", || {
        black_box(black_box(&p).to_affine());
    });
    time("variable-base mul", || {
        black_box(black_box(&p).mul(black_box(&k)));
    });
    time("scalar invert", || {
        black_box(black_box(&k).invert());
    });
}

fn mul_generator_loop() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let k = Fp::<Sm2N>::random(&mut rng);
    for _ in 0..100_000 {
        black_box(Sm2Curve::<sm_field::DefaultBackend>::mul_generator(
            black_box(&k),
        ));
    }
}
