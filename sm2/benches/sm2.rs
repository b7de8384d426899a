//! SM2 operation timings (criterion). Run short:
//! `cargo bench --manifest-path sm2/Cargo.toml --bench sm2 -- --warm-up-time 1 --measurement-time 2`
//! (groups: `sm2/` protocol operations, `prim/` curve and field primitives, `rustcrypto/` the
//! RustCrypto `sm2` crate in the same process as a yardstick).
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use shangmi_sm2::exchange::{Initiator, Responder};
use shangmi_sm2::{Mode, SecretKey, SigningKey, VerifyingKey};

fn benches(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let sk = SecretKey::random(&mut rng);
    let signer = SigningKey::new(&sk);
    let vk = VerifyingKey::new(sk.public_key());
    let vk_table = vk.clone().with_precomputed_table();
    let msg = [0x5au8; 32];
    let sig = signer.sign_with_rng(&mut rng, &msg);
    let mut g = c.benchmark_group("sm2");
    g.bench_function("keygen", |b| b.iter(|| SecretKey::random(&mut rng)));
    g.bench_function("sign", |b| b.iter(|| signer.sign_with_rng(&mut rng, &msg)));
    g.bench_function("sign_deterministic", |b| {
        b.iter(|| signer.sign_deterministic(&msg))
    });
    g.bench_function("verify", |b| b.iter(|| vk.verify(&msg, &sig).unwrap()));
    g.bench_function("verify_precomputed", |b| {
        b.iter(|| vk_table.verify(&msg, &sig).unwrap())
    });
    let pk = *sk.public_key();
    g.bench_function("encrypt_32B", |b| {
        b.iter(|| pk.encrypt(&mut rng, &msg, Mode::C1C3C2).unwrap())
    });
    let ct = pk.encrypt(&mut rng, &msg, Mode::C1C3C2).unwrap();
    g.bench_function("decrypt_32B", |b| {
        b.iter(|| sk.decrypt(&ct, Mode::C1C3C2).unwrap())
    });
    let peer = SecretKey::random(&mut rng);
    g.bench_function("kx_initiator_confirmed", |b| {
        b.iter_batched(
            || {
                let a = Initiator::new(&sk, b"a", peer.public_key(), b"b").unwrap();
                let resp = Responder::new(&peer, b"b", sk.public_key(), b"a").unwrap();
                let mut r = ChaCha20Rng::seed_from_u64(7);
                let (a, ra) = a.start(&mut r);
                let (_, rb, sb) = resp.respond(&mut r, &ra, 16).unwrap();
                (a, rb, sb)
            },
            |(a, rb, sb)| a.finish(&rb, &sb, 16).unwrap(),
            criterion::BatchSize::SmallInput,
        )
    });
    g.bench_function("kx_responder_confirmed", |b| {
        b.iter_batched(
            || {
                let a = Initiator::new(&sk, b"a", peer.public_key(), b"b").unwrap();
                let resp = Responder::new(&peer, b"b", sk.public_key(), b"a").unwrap();
                let mut r = ChaCha20Rng::seed_from_u64(7);
                let (_, ra) = a.start(&mut r);
                (resp, ra, r)
            },
            |(resp, ra, mut r)| resp.respond(&mut r, &ra, 16).unwrap(),
            criterion::BatchSize::SmallInput,
        )
    });
    g.finish();
}

fn primitives(c: &mut Criterion) {
    use shangmi_sm2::sm_curve::{CurveParams, Jacobian};
    use shangmi_sm2::{Curve, FieldElement, Scalar};
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let a: FieldElement = FieldElement::random(&mut rng);
    let b: FieldElement = FieldElement::random(&mut rng);
    let k: Scalar = Scalar::random(&mut rng);
    let p = Curve::mul_generator(&k);
    let q = Curve::mul_generator(&(k + k));
    let qa = q.to_affine();
    let mut g = c.benchmark_group("prim");
    println!(
        "backend: {}",
        <shangmi_sm2::DefaultBackend as shangmi_sm2::Backend>::NAME
    );
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

/// RustCrypto's `sm2` in the same process, as a yardstick under the same (noisy) conditions.
fn peer(c: &mut Criterion) {
    use rc::dsa::signature::{Signer, Verifier};
    use rustcrypto_sm2 as rc;
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let sk = SecretKey::random(&mut rng);
    let their = rc::SecretKey::from_slice(&sk.to_bytes()[..]).unwrap();
    let signer = rc::dsa::SigningKey::new("1234567812345678", &their).unwrap();
    let vk = signer.verifying_key().clone();
    let msg = [0x5au8; 32];
    let sig: rc::dsa::Signature = signer.sign(&msg);
    let dk = rc::pke::DecryptingKey::new(their.clone());
    let ct = dk
        .encrypting_key()
        .encrypt(&mut rc::elliptic_curve::common::getrandom::SysRng, &msg)
        .unwrap();
    let mut g = c.benchmark_group("rustcrypto");
    g.bench_function("sign_deterministic", |b| {
        b.iter(|| -> rc::dsa::Signature { signer.sign(&msg) })
    });
    g.bench_function("verify", |b| b.iter(|| vk.verify(&msg, &sig).unwrap()));
    g.bench_function("encrypt_32B", |b| {
        b.iter(|| {
            dk.encrypting_key()
                .encrypt(&mut rc::elliptic_curve::common::getrandom::SysRng, &msg)
                .unwrap()
        })
    });
    g.bench_function("decrypt_32B", |b| b.iter(|| dk.decrypt(&ct).unwrap()));
    g.finish();
}

criterion_group!(group, benches, primitives, peer);
criterion_main!(group);
