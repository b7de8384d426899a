//! `sm4_ct::Sm4` against RustCrypto `sm4` 0.5 (table-based oracle), against OpenSSL's
//! `enc -sm4-cbc`, every implementation against the portable one, and the `cbc`/`ecb` modes.

use cipher::block_padding::{NoPadding, Pkcs7};
use cipher::common::InnerInit;
use cipher::{
    BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, InnerIvInit,
    KeyInit, KeyIvInit,
};
use proptest::prelude::*;
use sm4_ct::{Implementation, Sm4};

fn implementations() -> Vec<Implementation> {
    [
        Implementation::Portable,
        Implementation::GfniSse,
        Implementation::GfniAvx2,
        Implementation::GfniAvx512,
    ]
    .into_iter()
    .filter(|&i| Sm4::with_implementation(&[0; 16], i).is_some())
    .collect()
}

fn oracle_encrypt(key: &[u8; 16], blocks: &[[u8; 16]]) -> Vec<[u8; 16]> {
    let c = rustcrypto_sm4::Sm4::new(key.into());
    blocks
        .iter()
        .map(|b| {
            let mut g = (*b).into();
            c.encrypt_block(&mut g);
            g.into()
        })
        .collect()
}

fn as_generic(blocks: &mut [[u8; 16]]) -> Vec<cipher::Block<Sm4>> {
    blocks.iter().map(|b| (*b).into()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random keys and 1..=64 blocks: every implementation, through the multi-block trait
    /// path (ParBlocks + tail), equals the RustCrypto oracle; decryption inverts it.
    #[test]
    fn every_implementation_matches_the_oracle(
        key in any::<[u8; 16]>(),
        blocks in proptest::collection::vec(any::<[u8; 16]>(), 1..=64),
    ) {
        let want = oracle_encrypt(&key, &blocks);
        for imp in implementations() {
            let c = Sm4::with_implementation(&key, imp).unwrap();
            let mut g = as_generic(&mut blocks.clone());
            c.encrypt_blocks(&mut g);
            let got: Vec<[u8; 16]> = g.iter().map(|b| (*b).into()).collect();
            prop_assert_eq!(&got, &want, "{:?} encrypt", imp);
            c.decrypt_blocks(&mut g);
            let back: Vec<[u8; 16]> = g.iter().map(|b| (*b).into()).collect();
            prop_assert_eq!(&back, &blocks, "{:?} decrypt", imp);
            // Single-block path.
            for (b, w) in blocks.iter().zip(&want) {
                let mut one = (*b).into();
                c.encrypt_block(&mut one);
                prop_assert_eq!(<[u8; 16]>::from(one), *w);
                c.decrypt_block(&mut one);
                prop_assert_eq!(<[u8; 16]>::from(one), *b);
            }
        }
    }

    /// The SIMD paths equal the portable path, key schedule included (through `cbc`, whose
    /// decryption uses the parallel kernel and encryption the single-block one).
    #[test]
    fn cbc_every_implementation_equals_portable(
        key in any::<[u8; 16]>(),
        iv in any::<[u8; 16]>(),
        msg in proptest::collection::vec(any::<u8>(), 0..1100),
    ) {
        let oracle = cbc::Encryptor::<rustcrypto_sm4::Sm4>::new(&key.into(), &iv.into())
            .encrypt_padded_vec::<Pkcs7>(&msg);
        let ct = cbc::Encryptor::<Sm4>::new(&key.into(), &iv.into())
            .encrypt_padded_vec::<Pkcs7>(&msg);
        prop_assert_eq!(&ct, &oracle);
        for imp in implementations() {
            let c = Sm4::with_implementation(&key, imp).unwrap();
            let pt = cbc::Decryptor::<Sm4>::inner_iv_init(c.clone(), &iv.into())
                .decrypt_padded_vec::<Pkcs7>(&ct)
                .unwrap();
            prop_assert_eq!(&pt, &msg, "{:?}", imp);
            let ct2 = cbc::Encryptor::<Sm4>::inner_iv_init(c, &iv.into())
                .encrypt_padded_vec::<Pkcs7>(&msg);
            prop_assert_eq!(&ct2, &oracle, "{:?}", imp);
        }
    }

    #[test]
    fn ecb_matches_the_oracle(
        key in any::<[u8; 16]>(),
        msg in proptest::collection::vec(any::<u8>(), 0..1100),
    ) {
        let oracle = ecb::Encryptor::<rustcrypto_sm4::Sm4>::new(&key.into())
            .encrypt_padded_vec::<Pkcs7>(&msg);
        for imp in implementations() {
            let c = Sm4::with_implementation(&key, imp).unwrap();
            let ct = ecb::Encryptor::<Sm4>::inner_init(c.clone())
                .encrypt_padded_vec::<Pkcs7>(&msg);
            prop_assert_eq!(&ct, &oracle, "{:?}", imp);
            let pt = ecb::Decryptor::<Sm4>::inner_init(c)
                .decrypt_padded_vec::<Pkcs7>(&ct)
                .unwrap();
            prop_assert_eq!(&pt, &msg, "{:?}", imp);
        }
    }
}

/// Every block count 1..=64 on every implementation, deterministic (all tail shapes).
#[test]
fn all_lengths_1_to_64_every_implementation() {
    let key: [u8; 16] = core::array::from_fn(|i| (i as u8).wrapping_mul(29) ^ 0x6B);
    let blocks: Vec<[u8; 16]> = (0..64u8)
        .map(|k| core::array::from_fn(|i| k.wrapping_mul(31) ^ (i as u8).wrapping_mul(7)))
        .collect();
    for n in 1..=64 {
        let want = oracle_encrypt(&key, &blocks[..n]);
        for imp in implementations() {
            let c = Sm4::with_implementation(&key, imp).unwrap();
            let mut buf = blocks[..n].to_vec();
            let ct = ecb::Encryptor::<Sm4>::inner_init(c)
                .encrypt_padded_vec::<NoPadding>(buf.as_flattened_mut());
            assert_eq!(ct, want.as_flattened(), "{imp:?} n = {n}");
        }
    }
}

/// `openssl enc -sm4-cbc` (OpenSSL 3) on a few messages. OpenSSL is a required peer: the test
/// fails when the `openssl` CLI is missing or lacks SM4 (never a silent skip).
#[test]
fn openssl_sm4_cbc_interop() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let probe = Command::new("openssl")
        .args(["enc", "-list"])
        .output()
        .unwrap_or_else(|e| panic!("peer openssl required but cannot be run: {e}"));
    assert!(
        probe.status.success() && String::from_utf8_lossy(&probe.stdout).contains("-sm4-cbc"),
        "peer openssl required but this openssl has no sm4-cbc cipher"
    );
    let key: [u8; 16] = core::array::from_fn(|i| (i as u8).wrapping_mul(17).wrapping_add(3));
    let iv: [u8; 16] = core::array::from_fn(|i| 0xF0 ^ i as u8);
    for len in [0usize, 1, 15, 16, 17, 64, 255, 256, 1000, 4096] {
        let msg: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
        let mut child = Command::new("openssl")
            .args(["enc", "-sm4-cbc", "-nosalt", "-K"])
            .arg(hex::encode(key))
            .arg("-iv")
            .arg(hex::encode(iv))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn openssl");
        child.stdin.take().unwrap().write_all(&msg).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        for imp in implementations() {
            let c = Sm4::with_implementation(&key, imp).unwrap();
            let ct = cbc::Encryptor::<Sm4>::inner_iv_init(c.clone(), &iv.into())
                .encrypt_padded_vec::<Pkcs7>(&msg);
            assert_eq!(ct, out.stdout, "{imp:?} len {len}");
            let pt = cbc::Decryptor::<Sm4>::inner_iv_init(c, &iv.into())
                .decrypt_padded_vec::<Pkcs7>(&out.stdout)
                .unwrap();
            assert_eq!(pt, msg);
        }
    }
}

/// The GFNI kernels the tests above compare with the oracle are the ones expected:
/// `SM_EXPECT_GFNI=1` (set by `cargo xtask test` from /proc/cpuinfo) requires the SSE and AVX2
/// GFNI kernels, with `SM_EXPECT_AVX512=1` also the AVX-512 one. Prints one line (not captured)
/// listing the kernels that ran.
#[test]
fn expected_gfni_kernels_ran() {
    let flag = |v: &str| std::env::var(v).is_ok_and(|v| v == "1");
    let ran = implementations();
    std::io::Write::write_all(
        &mut std::io::stderr(),
        format!(
            "sm4-ct kernels: {ran:?} (GFNI expected: {}, AVX-512 expected: {}; detected {:?})\n",
            flag("SM_EXPECT_GFNI"),
            flag("SM_EXPECT_AVX512"),
            Implementation::detected()
        )
        .as_bytes(),
    )
    .unwrap();
    let mut want = vec![];
    if flag("SM_EXPECT_GFNI") {
        want.extend([Implementation::GfniSse, Implementation::GfniAvx2]);
        if flag("SM_EXPECT_AVX512") {
            want.push(Implementation::GfniAvx512);
        }
    }
    for imp in want {
        assert!(ran.contains(&imp), "{imp:?} expected but unavailable");
    }
}

#[test]
fn zeroize_on_drop_is_implemented() {
    fn assert_zod<T: zeroize::ZeroizeOnDrop>() {}
    assert_zod::<Sm4>();
}
