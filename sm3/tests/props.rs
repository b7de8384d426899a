//! Property tests: streaming splits, multi-buffer and SIMD paths against scalar, KDF chunking and
//! a definition-level KDF.

use proptest::prelude::*;
use shangmi_sm3::backend_info::Backend;
use shangmi_sm3::{Digest, Kdf, Sm3};

/// GM/T 0003.4 §5.4.3 written out: Hai = SM3(Z ‖ ct) for ct = 1, 2, …, concatenated, truncated.
fn naive_kdf(z: &[u8], len: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut ct: u32 = 1;
    while out.len() < len {
        let mut input = z.to_vec();
        input.extend_from_slice(&ct.to_be_bytes());
        out.extend_from_slice(&shangmi_sm3::hash_portable(&input));
        ct += 1;
    }
    out.truncate(len);
    out
}

fn available_backends() -> Vec<Backend> {
    Backend::ALL
        .into_iter()
        .filter(|b| b.is_available())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_split_gives_one_shot_digest(
        msg in proptest::collection::vec(any::<u8>(), 0..600),
        cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..8),
    ) {
        let mut points: Vec<usize> = cuts.iter().map(|c| c.index(msg.len() + 1)).collect();
        points.sort_unstable();
        let mut h = Sm3::new();
        let mut start = 0;
        for p in points {
            h.update(&msg[start..p]);
            start = p;
        }
        h.update(&msg[start..]);
        let expected = shangmi_sm3::hash_portable(&msg);
        let streamed: [u8; 32] = h.finalize().into();
        prop_assert_eq!(streamed, expected);
        prop_assert_eq!(shangmi_sm3::hash(&msg), expected);
    }

    #[test]
    fn multi_buffer_equals_scalar_per_lane(
        msgs in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..4096), 0..40),
    ) {
        let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
        let expected: Vec<[u8; 32]> = refs.iter().map(|m| shangmi_sm3::hash_portable(m)).collect();
        let mut out = vec![[0u8; 32]; refs.len()];
        shangmi_sm3::hash_many(&refs, &mut out);
        prop_assert_eq!(&out, &expected);
        for backend in available_backends() {
            let mut out = vec![[0u8; 32]; refs.len()];
            shangmi_sm3::hash_many_with(backend, &refs, &mut out).unwrap();
            prop_assert_eq!(&out, &expected, "backend {}", backend.name());
        }
    }

    #[test]
    fn equal_length_multi_buffer(len in 0usize..1100, count in 1usize..40, seed in any::<u8>()) {
        let msgs: Vec<Vec<u8>> = (0..count)
            .map(|i| (0..len).map(|j| (i * 31 + j * 7) as u8 ^ seed).collect())
            .collect();
        let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
        for backend in available_backends() {
            let mut out = vec![[0u8; 32]; count];
            shangmi_sm3::hash_many_with(backend, &refs, &mut out).unwrap();
            for (m, d) in refs.iter().zip(&out) {
                prop_assert_eq!(d, &shangmi_sm3::hash_portable(m), "backend {}", backend.name());
            }
        }
    }

    #[test]
    fn simd_single_stream_equals_portable(msg in proptest::collection::vec(any::<u8>(), 0..5000)) {
        prop_assert_eq!(shangmi_sm3::hash(&msg), shangmi_sm3::hash_portable(&msg));
    }

    #[test]
    fn kdf_reader_any_chunking_equals_one_shot(
        z in proptest::collection::vec(any::<u8>(), 0..200),
        split in any::<prop::sample::Index>(),
        chunks in proptest::collection::vec(0usize..700, 1..12),
    ) {
        let total: usize = chunks.iter().sum();
        let mut one_shot = vec![0u8; total];
        shangmi_sm3::kdf(&z, &mut one_shot);
        // Z itself split into two parts, output read in the given chunk sizes.
        let (z1, z2) = z.split_at(split.index(z.len() + 1));
        for backend in available_backends() {
            let mut reader = Kdf::with_backend(backend, &[z1, z2]).unwrap();
            let mut streamed = Vec::new();
            for &c in &chunks {
                let mut buf = vec![0u8; c];
                reader.fill(&mut buf);
                streamed.extend_from_slice(&buf);
            }
            prop_assert_eq!(&streamed, &one_shot, "backend {}", backend.name());
        }
    }

    #[test]
    fn kdf_equals_definition(
        z in proptest::collection::vec(any::<u8>(), 0..300),
        len in 0usize..1200,
    ) {
        let mut out = vec![0u8; len];
        shangmi_sm3::kdf(&z, &mut out);
        prop_assert_eq!(out, naive_kdf(&z, len));
    }
}

#[test]
fn kdf_every_z_length_and_long_outputs_on_every_backend() {
    // Z lengths around the block boundary (the counter block spills into a second block from
    // |Z| mod 64 = 52 on), outputs long enough for several SIMD batches plus a partial one.
    for z_len in (0..=140).chain([447, 448, 451, 500]) {
        let z: Vec<u8> = (0..z_len).map(|i| (i * 13 + 5) as u8).collect();
        let expected = naive_kdf(&z, 32 * 37 + 5);
        for backend in available_backends() {
            let mut out = vec![0u8; expected.len()];
            Kdf::with_backend(backend, &[&z]).unwrap().fill(&mut out);
            assert_eq!(out, expected, "z_len {z_len}, backend {}", backend.name());
        }
    }
}

#[test]
fn multi_buffer_boundary_lengths_on_every_backend() {
    // Every length 0..=200 in one call: lanes finish at every possible block count.
    let msgs: Vec<Vec<u8>> = (0..=200usize)
        .map(|n| (0..n).map(|i| (i ^ n) as u8).collect())
        .collect();
    let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
    let expected: Vec<[u8; 32]> = refs.iter().map(|m| shangmi_sm3::hash_portable(m)).collect();
    for backend in available_backends() {
        let mut out = vec![[0u8; 32]; refs.len()];
        shangmi_sm3::hash_many_with(backend, &refs, &mut out).unwrap();
        assert_eq!(out, expected, "backend {}", backend.name());
        // Reversed order too: long messages first, short ones refill lanes.
        let rev: Vec<&[u8]> = refs.iter().rev().copied().collect();
        let mut out = vec![[0u8; 32]; rev.len()];
        shangmi_sm3::hash_many_with(backend, &rev, &mut out).unwrap();
        let mut exp_rev = expected.clone();
        exp_rev.reverse();
        assert_eq!(out, exp_rev, "reversed, backend {}", backend.name());
    }
}

#[test]
fn backend_info_is_consistent() {
    let kind = shangmi_sm3::backend_info::simd_kind();
    assert!(["avx512", "avx2", "portable"].contains(&kind));
    assert_eq!(Backend::best().name(), kind);
    assert!(Backend::best().is_available());
    assert!(Backend::Portable.is_available());
    // `cargo xtask test` sets SM_EXPECT_AVX512=1 where /proc/cpuinfo lists avx512f: the AVX-512
    // kernel must then be the one in use. One line (not captured) says which kernel ran.
    let expect = std::env::var("SM_EXPECT_AVX512").is_ok_and(|v| v == "1");
    std::io::Write::write_all(
        &mut std::io::stderr(),
        format!("sm3 kernels: multi-buffer = {kind} (AVX-512 expected: {expect})\n").as_bytes(),
    )
    .unwrap();
    assert!(
        kind == "avx512" || !expect,
        "SM_EXPECT_AVX512=1 but the SM3 kernel in use is {kind}"
    );
    let unavailable: Vec<Backend> = Backend::ALL
        .into_iter()
        .filter(|b| !b.is_available())
        .collect();
    for b in unavailable {
        let mut out = [[0u8; 32]; 1];
        assert_eq!(
            shangmi_sm3::hash_many_with(b, &[b"x"], &mut out),
            Err(shangmi_sm3::Error::BackendUnavailable)
        );
        assert_eq!(out, [[0u8; 32]; 1]);
        assert!(Kdf::with_backend(b, &[b"z"]).is_err());
    }
    assert!(["bmi2", "portable"].contains(&shangmi_sm3::backend_info::single_stream_kind()));
}
