//! Criterion benches of the operation catalogue (`sm-catalogue`): every operation on every
//! backend of the target, one group per operation and one `BenchmarkId` per backend, each
//! output checked by the catalogue's independent check before it is timed; and the RustCrypto
//! `sm2` crate in the same process as a yardstick (`rustcrypto/`).
//! `cargo bench -p sm-benches --bench ops -- --warm-up-time 1 --measurement-time 2 sm9.verify`
#![allow(missing_docs)] // criterion_group!/criterion_main! generate undocumented items

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use sm_catalogue::{Class, Secret};
use sm_field::Backend;

fn catalogue_on<B: Backend>(c: &mut Criterion) {
    let secret = Secret::new(Class::Random, &mut ChaCha20Rng::seed_from_u64(1));
    for op in sm_catalogue::all::<B>() {
        let mut p = (op.setup)(&secret);
        let out = (p.run)();
        if let Err(e) = (p.check)(&secret, &out) {
            panic!("{} on {}: {e}", op.name, B::NAME);
        }
        c.benchmark_group(op.name)
            .bench_function(BenchmarkId::from_parameter(B::NAME), |b| {
                b.iter(|| (p.run)())
            });
    }
}

fn catalogue(c: &mut Criterion) {
    catalogue_on::<sm_field::U64>(c);
    catalogue_on::<sm_field::U32>(c);
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    catalogue_on::<sm_field::Asm>(c);
}

/// RustCrypto's `sm2` in the same process, as a yardstick under the same (noisy) conditions.
fn peer(c: &mut Criterion) {
    use rc::dsa::signature::{Signer, Verifier};
    use rustcrypto_sm2 as rc;
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let mut key = [0u8; 32];
    rand_core::Rng::fill_bytes(&mut rng, &mut key);
    key[0] &= 0x7f;
    let their = rc::SecretKey::from_slice(&key).unwrap();
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

criterion_group!(group, catalogue, peer);
criterion_main!(group);
