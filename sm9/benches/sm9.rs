//! Criterion benchmarks of the SM9 operations with prepared keys.
//!
//! `cargo bench -p shangmi-sm9 --bench sm9 -- --warm-up-time 1 --measurement-time 2`
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use shangmi_sm9::{EncryptionMode, MacMode};

fn bench(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let skgc = shangmi_sm9::SignMasterKey::generate(&mut rng);
    let smaster = skgc.public_key().prepare();
    let alice = skgc.extract(b"Alice").unwrap();
    let msg = [0x5au8; 32];
    let sig = shangmi_sm9::sign(&alice, &smaster, &msg, &mut rng).unwrap();

    let ekgc = shangmi_sm9::EncMasterKey::generate(&mut rng);
    let emaster = ekgc.public_key().prepare();
    let bob = ekgc.extract(b"Bob").unwrap().prepare();
    let ct = shangmi_sm9::encrypt(
        &emaster,
        b"Bob",
        &msg,
        EncryptionMode::KdfStream,
        MacMode::Sm3,
        &mut rng,
    )
    .unwrap();
    let (_, kc) = shangmi_sm9::encapsulate(&emaster, b"Bob", 32, &mut rng).unwrap();
    let xa = ekgc.extract_exchange(b"Alice").unwrap().prepare();
    let xb = ekgc.extract_exchange(b"Bob").unwrap().prepare();

    let mut g = c.benchmark_group("sm9");
    g.bench_function("h1", |b| b.iter(|| shangmi_sm9::h1(black_box(b"Alice"), 1)));
    g.bench_function("extract_sign_key", |b| {
        b.iter(|| skgc.extract(black_box(b"Alice")).unwrap())
    });
    g.bench_function("extract_enc_key", |b| {
        b.iter(|| ekgc.extract(black_box(b"Bob")).unwrap())
    });
    g.bench_function("sign", |b| {
        b.iter(|| shangmi_sm9::sign(&alice, &smaster, black_box(&msg), &mut rng).unwrap())
    });
    let alice_prepared = alice.prepare();
    g.bench_function("sign_prepared", |b| {
        b.iter(|| {
            shangmi_sm9::sign_prepared(&alice_prepared, &smaster, black_box(&msg), &mut rng)
                .unwrap()
        })
    });
    g.bench_function("verify", |b| {
        b.iter(|| shangmi_sm9::verify(&smaster, b"Alice", black_box(&msg), &sig).unwrap())
    });
    g.bench_function("encrypt_kdf_32B", |b| {
        b.iter(|| {
            shangmi_sm9::encrypt(
                &emaster,
                b"Bob",
                black_box(&msg),
                EncryptionMode::KdfStream,
                MacMode::Sm3,
                &mut rng,
            )
            .unwrap()
        })
    });
    g.bench_function("decrypt_kdf_32B", |b| {
        b.iter(|| shangmi_sm9::decrypt(&bob, b"Bob", black_box(&ct), MacMode::Sm3).unwrap())
    });
    g.bench_function("kem_encapsulate_32B", |b| {
        b.iter(|| shangmi_sm9::encapsulate(&emaster, b"Bob", 32, &mut rng).unwrap())
    });
    g.bench_function("kem_decapsulate_32B", |b| {
        b.iter(|| shangmi_sm9::decapsulate(&bob, b"Bob", black_box(&kc), 32).unwrap())
    });
    // One side of the key exchange: the initiator's start + finish (RB precomputed).
    let (_, ra0) =
        shangmi_sm9::Initiator::start(&xa, &emaster, b"Alice", b"Bob", &mut rng).unwrap();
    let (_, rb0, _) =
        shangmi_sm9::Responder::respond(&xb, &emaster, b"Bob", b"Alice", &ra0, &mut rng).unwrap();
    g.bench_function("exchange_initiator_side", |b| {
        b.iter(|| {
            let (a, _ra) =
                shangmi_sm9::Initiator::start(&xa, &emaster, b"Alice", b"Bob", &mut rng).unwrap();
            a.finish(black_box(&rb0), None, 16).unwrap()
        })
    });
    g.bench_function("exchange_responder_side", |b| {
        b.iter(|| {
            let (r, _rb, _sb) = shangmi_sm9::Responder::respond(
                &xb,
                &emaster,
                b"Bob",
                b"Alice",
                black_box(&ra0),
                &mut rng,
            )
            .unwrap();
            r.finish_unconfirmed(16).unwrap()
        })
    });
    g.sample_size(10);
    g.bench_function("prepare_sign_master", |b| {
        b.iter(|| skgc.public_key().prepare())
    });
    g.bench_function("prepare_enc_master", |b| {
        b.iter(|| ekgc.public_key().prepare())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
