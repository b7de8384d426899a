//! Multi-buffer hashing (`hash_many`, `hash_many_prefixed` and their `_with` forms) against the
//! single-stream `hash_portable`, byte for byte, on every backend: every length 0..=300 (mixed
//! and in lock-step groups), sizes up to 64 KiB, random mixed lengths for 1..=40 messages, the
//! GB/T 32905 Appendix A examples at every lane position, and two-part messages split at every
//! position around the block boundaries.
//!
//! On x86_64 the AVX-512 kernel is required: where the CPU lacks it these tests fail unless the
//! environment declares it absent (`SM_EXPECT_AVX512=0`, which `cargo xtask test` sets from
//! /proc/cpuinfo; see `sm_testvectors::backend_runs_here`), and then they say so on stderr.

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use shangmi_sm3::backend_info::Backend;
use shangmi_sm3::{hash_many_prefixed_with, hash_many_with, hash_portable};
use sm_testvectors::hex;

/// The backends to check here: portable, AVX2 where present and AVX-512 (demanded, see above).
fn backends(test: &str) -> Vec<Backend> {
    let mut out = vec![Backend::Portable];
    if Backend::Avx2.is_available() {
        out.push(Backend::Avx2);
    }
    #[cfg(target_arch = "x86_64")]
    if sm_testvectors::backend_runs_here(
        &format!("{test}: sm3 avx512"),
        Backend::Avx512.is_available(),
        "SM_EXPECT_AVX512",
    ) {
        out.push(Backend::Avx512);
    }
    let _ = test; // unused where the target has no AVX-512
    out
}

fn bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut v = vec![0u8; len];
    ChaCha20Rng::seed_from_u64(seed).fill_bytes(&mut v);
    v
}

/// `hash_many_with` on each backend equals `hash_portable` of each message; so does
/// `hash_many_prefixed_with` for the messages split in two at `split(i)`.
fn check(backends: &[Backend], test: &str, msgs: &[Vec<u8>], split: impl Fn(usize) -> usize) {
    let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
    let expected: Vec<[u8; 32]> = refs.iter().map(|m| hash_portable(m)).collect();
    let pairs: Vec<(&[u8], &[u8])> = refs
        .iter()
        .enumerate()
        .map(|(i, m)| m.split_at(split(i).min(m.len())))
        .collect();
    for &backend in backends {
        let mut out = vec![[0u8; 32]; refs.len()];
        hash_many_with(backend, &refs, &mut out).unwrap();
        for (i, (d, e)) in out.iter().zip(&expected).enumerate() {
            assert_eq!(
                d,
                e,
                "{test}: {} message {i} (len {})",
                backend.name(),
                refs[i].len()
            );
        }
        let mut out = vec![[0u8; 32]; refs.len()];
        hash_many_prefixed_with(backend, &pairs, &mut out).unwrap();
        for (i, (d, e)) in out.iter().zip(&expected).enumerate() {
            assert_eq!(
                d,
                e,
                "{test}: prefixed, {} message {i} (parts {} + {})",
                backend.name(),
                pairs[i].0.len(),
                pairs[i].1.len()
            );
        }
    }
}

#[test]
fn every_length_to_300_mixed_and_in_lock_step() {
    // All lengths in one call, ascending and descending (lanes finish at every block count and
    // refill with shorter or longer messages).
    let bs = backends("every length to 300");
    let msgs: Vec<Vec<u8>> = (0..=300).map(|n| bytes(n, n as u64)).collect();
    check(&bs, "lengths 0..=300", &msgs, |i| i / 3);
    let rev: Vec<Vec<u8>> = msgs.iter().rev().cloned().collect();
    check(&bs, "lengths 300..=0", &rev, |i| 32 + i % 70);
    // Each length in a group of 17 equal messages: 16 lanes in lock-step plus a straggler.
    for n in 0..=300usize {
        let group: Vec<Vec<u8>> = (0..17).map(|k| bytes(n, (n * 17 + k) as u64)).collect();
        check(&bs, &format!("17 x {n} B"), &group, |k| k * 5);
    }
}

#[test]
fn large_sizes_to_64_kib() {
    let bs = backends("large sizes");
    let sizes = [
        1023usize, 1024, 4095, 4096, 4097, 8191, 8192, 8193, 65472, 65535, 65536,
    ];
    // Equal sizes in lock-step (16 and 8 lanes full, plus stragglers) and all sizes mixed.
    for (s, &len) in sizes.iter().enumerate() {
        let msgs: Vec<Vec<u8>> = (0..17).map(|k| bytes(len, (s * 100 + k) as u64)).collect();
        check(&bs, &format!("17 x {len} B"), &msgs, |k| {
            [0, 32, 64, 100, 4096][k % 5]
        });
    }
    let mixed: Vec<Vec<u8>> = sizes
        .iter()
        .chain(&sizes)
        .enumerate()
        .map(|(i, &len)| bytes(len, 1000 + i as u64))
        .collect();
    check(&bs, "mixed large sizes", &mixed, |i| 32 * i);
}

#[test]
fn random_mixed_lengths_1_to_40_messages() {
    let bs = backends("random mixed lengths");
    let mut rng = ChaCha20Rng::seed_from_u64(0x5333_4d42);
    for count in 1..=40usize {
        for round in 0..3 {
            let msgs: Vec<Vec<u8>> = (0..count)
                .map(|_| {
                    // Mostly short, sometimes up to 20 KiB.
                    let cap = if rng.next_u32() % 4 == 0 { 20_000 } else { 700 };
                    bytes((rng.next_u32() % cap) as usize, rng.next_u64())
                })
                .collect();
            let splits: Vec<usize> = (0..count)
                .map(|_| (rng.next_u32() % 300) as usize)
                .collect();
            check(&bs, &format!("{count} random, round {round}"), &msgs, |i| {
                splits[i]
            });
        }
    }
}

#[test]
fn appendix_a_examples_in_every_lane() {
    // GB/T 32905-2016 Appendix A.1 and A.2.
    let a1 = hex("66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0");
    let a2 = hex("debe9ff92275b8a138604889c18e5a4d6fdb70e5387e5765293dcba39c0c5732");
    let abcd = b"abcd".repeat(16);
    let bs = backends("appendix A");
    for count in [1usize, 8, 16, 17, 33] {
        for at in 0..count {
            // Filler messages of other lengths around the known-answer ones.
            let mut msgs: Vec<Vec<u8>> = (0..count).map(|k| bytes(k * 37, k as u64)).collect();
            msgs[at] = b"abc".to_vec();
            msgs[count - 1 - at] = abcd.clone();
            let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
            for &backend in &bs {
                let mut out = vec![[0u8; 32]; count];
                hash_many_with(backend, &refs, &mut out).unwrap();
                let what = format!("{} of {count}, {}", at, backend.name());
                assert_eq!(out[count - 1 - at], a2[..], "A.2 in lane {what}");
                if at != count - 1 - at {
                    assert_eq!(out[at], a1[..], "A.1 in lane {what}");
                }
                // The same with the message in two parts (a 1-byte / 32-byte prefix).
                let pairs: Vec<(&[u8], &[u8])> = refs
                    .iter()
                    .map(|m| m.split_at(if m.len() > 32 { 32 } else { m.len().min(1) }))
                    .collect();
                let mut out = vec![[0u8; 32]; count];
                hash_many_prefixed_with(backend, &pairs, &mut out).unwrap();
                assert_eq!(out[count - 1 - at], a2[..], "A.2 prefixed, lane {what}");
                if at != count - 1 - at {
                    assert_eq!(out[at], a1[..], "A.1 prefixed, lane {what}");
                }
            }
        }
    }
}

#[test]
fn prefixed_every_split_around_block_boundaries() {
    // Z_A-sized and other prefixes; the seam block, no seam (prefix a multiple of 64), prefix
    // and body together shorter than a block, empty parts.
    let data = bytes(400, 42);
    let mut pairs: Vec<(&[u8], &[u8])> = Vec::new();
    for total in [
        0usize, 1, 31, 32, 55, 56, 63, 64, 65, 96, 119, 120, 128, 191, 200, 400,
    ] {
        for split in 0..=total {
            pairs.push(data[..total].split_at(split));
        }
    }
    let expected: Vec<[u8; 32]> = pairs
        .iter()
        .map(|(p, b)| hash_portable(&[*p, *b].concat()))
        .collect();
    for backend in backends("prefixed splits") {
        let mut out = vec![[0u8; 32]; pairs.len()];
        hash_many_prefixed_with(backend, &pairs, &mut out).unwrap();
        for (i, (d, e)) in out.iter().zip(&expected).enumerate() {
            assert_eq!(
                d,
                e,
                "{}: parts {} + {}",
                backend.name(),
                pairs[i].0.len(),
                pairs[i].1.len()
            );
        }
    }
    // The default-backend entry point too, with one shared 32-byte prefix (SM2's Z_A ‖ M).
    let za = bytes(32, 7);
    let bodies: Vec<Vec<u8>> = (0..50).map(|n| bytes(n * 13, n as u64)).collect();
    let pairs: Vec<(&[u8], &[u8])> = bodies.iter().map(|b| (&za[..], &b[..])).collect();
    let mut out = vec![[0u8; 32]; pairs.len()];
    shangmi_sm3::hash_many_prefixed(&pairs, &mut out);
    for ((p, b), d) in pairs.iter().zip(&out) {
        assert_eq!(*d, shangmi_sm3::hash(&[*p, *b].concat()));
    }
}
