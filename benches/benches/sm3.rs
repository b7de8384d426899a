//! SM3 benchmarks: single stream, multi-buffer (per SIMD backend), KDF, HMAC, with the RustCrypto
//! `sm3` crate as a peer for ratios.
//!
//! `cargo bench -p sm-benches --bench sm3 -- --warm-up-time 1 --measurement-time 3`
// `criterion_group!` defines an undocumented `pub fn benches`.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rustcrypto_sm3::Digest as _;
use sm3::backend_info::{self, Backend};

fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 131 + 7) as u8).collect()
}

fn single_stream(c: &mut Criterion) {
    let mut g = c.benchmark_group("sm3/single");
    eprintln!(
        "sm3 single-stream path: {}, multi-buffer path: {}",
        backend_info::single_stream_kind(),
        backend_info::simd_kind()
    );
    for len in [64usize, 1024, 8 * 1024, 64 * 1024] {
        let msg = data(len);
        g.throughput(Throughput::Bytes(len as u64));
        g.bench_with_input(BenchmarkId::new("sm3", len), &msg, |b, m| {
            b.iter(|| sm3::hash(black_box(m)))
        });
        g.bench_with_input(BenchmarkId::new("sm3-portable", len), &msg, |b, m| {
            b.iter(|| sm3::hash_portable(black_box(m)))
        });
        g.bench_with_input(BenchmarkId::new("rustcrypto-sm3", len), &msg, |b, m| {
            b.iter(|| rustcrypto_sm3::Sm3::digest(black_box(m)))
        });
    }
    g.finish();
}

fn multi_buffer(c: &mut Criterion) {
    let mut g = c.benchmark_group("sm3/multi-16x1KiB");
    let msgs: Vec<Vec<u8>> = (0..16).map(|i| data(1024 + i)[i..].to_vec()).collect();
    let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
    g.throughput(Throughput::Bytes(16 * 1024));
    for backend in Backend::ALL {
        if !backend.is_available() {
            eprintln!("sm3 multi-buffer backend {} unavailable", backend.name());
            continue;
        }
        g.bench_function(backend.name(), |b| {
            let mut out = [[0u8; 32]; 16];
            b.iter(|| sm3::hash_many_with(backend, black_box(&refs), &mut out))
        });
    }
    g.bench_function("rustcrypto-sm3", |b| {
        b.iter(|| {
            let mut out = [[0u8; 32]; 16];
            for (m, o) in black_box(&refs).iter().zip(&mut out) {
                o.copy_from_slice(&rustcrypto_sm3::Sm3::digest(m));
            }
            out
        })
    });
    g.finish();
}

/// KDF written the obvious way over the RustCrypto crate, as the peer.
fn rustcrypto_kdf(z: &[u8], out: &mut [u8]) {
    for (i, chunk) in out.chunks_mut(32).enumerate() {
        let mut h = rustcrypto_sm3::Sm3::new();
        h.update(z);
        h.update(((i + 1) as u32).to_be_bytes());
        chunk.copy_from_slice(&h.finalize()[..chunk.len()]);
    }
}

fn kdf(c: &mut Criterion) {
    let mut g = c.benchmark_group("sm3/kdf-z64");
    let z = data(64);
    for len in [32usize, 1024] {
        g.throughput(Throughput::Bytes(len as u64));
        let mut out = vec![0u8; len];
        g.bench_function(BenchmarkId::new("sm3", len), |b| {
            b.iter(|| sm3::kdf(black_box(&z), &mut out))
        });
        for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
            g.bench_function(
                BenchmarkId::new(format!("sm3-{}", backend.name()), len),
                |b| {
                    b.iter(|| {
                        let mut r = sm3::Kdf::with_backend(backend, &[black_box(&z)]).unwrap();
                        r.fill(&mut out)
                    })
                },
            );
        }
        g.bench_function(BenchmarkId::new("rustcrypto-sm3", len), |b| {
            b.iter(|| rustcrypto_kdf(black_box(&z), &mut out))
        });
    }
    g.finish();
}

fn hmac(c: &mut Criterion) {
    let mut g = c.benchmark_group("sm3/hmac");
    let key = data(32);
    for len in [64usize, 1024] {
        let msg = data(len);
        g.throughput(Throughput::Bytes(len as u64));
        g.bench_function(BenchmarkId::new("hmac_sm3", len), |b| {
            b.iter(|| sm3::hmac_sm3(black_box(&key), black_box(&msg)))
        });
    }
    g.finish();
}

criterion_group!(benches, single_stream, multi_buffer, kdf, hmac);
criterion_main!(benches);
