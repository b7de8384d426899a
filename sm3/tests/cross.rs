//! Cross-implementation checks: the RustCrypto `sm3` crate on random messages and the OpenSSL
//! 3 CLI (`openssl dgst -sm3`) on large inputs.

use std::io::Write;
use std::process::{Command, Stdio};

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use rustcrypto_sm3::Digest as _;

#[test]
fn thousand_random_messages_against_rustcrypto_sm3() {
    let mut rng = ChaCha20Rng::seed_from_u64(0x5333_2026);
    let mut msgs = Vec::new();
    for _ in 0..1000 {
        let len = (rng.next_u32() % 10_000) as usize;
        let mut m = vec![0u8; len];
        rng.fill_bytes(&mut m);
        msgs.push(m);
    }
    let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
    let mut many = vec![[0u8; 32]; refs.len()];
    shangmi_sm3::hash_many(&refs, &mut many);
    for (i, m) in msgs.iter().enumerate() {
        let theirs = rustcrypto_sm3::Sm3::digest(m);
        assert_eq!(
            shangmi_sm3::hash(m).as_slice(),
            theirs.as_slice(),
            "message {i} (len {})",
            m.len()
        );
        assert_eq!(
            many[i].as_slice(),
            theirs.as_slice(),
            "hash_many message {i}"
        );
    }
}

#[test]
fn hmac_against_hmac_over_rustcrypto_sm3() {
    use shangmi_sm3::hmac::{Hmac, KeyInit, Mac};
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for _ in 0..200 {
        let mut key = vec![0u8; (rng.next_u32() % 150) as usize];
        let mut msg = vec![0u8; (rng.next_u32() % 3000) as usize];
        rng.fill_bytes(&mut key);
        rng.fill_bytes(&mut msg);
        let mut theirs = <Hmac<rustcrypto_sm3::Sm3> as KeyInit>::new_from_slice(&key).unwrap();
        theirs.update(&msg);
        assert_eq!(
            shangmi_sm3::hmac_sm3(&key, &msg).as_slice(),
            theirs.finalize().into_bytes().as_slice()
        );
    }
}

fn openssl_sm3(data: &[u8]) -> Vec<u8> {
    let mut child = Command::new("openssl")
        .args(["dgst", "-sm3", "-binary"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the OpenSSL 3 CLI is installed on every project machine");
    let mut stdin = child.stdin.take().unwrap();
    let input = data.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "openssl dgst -sm3 failed");
    out.stdout
}

#[test]
fn large_inputs_against_openssl() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    for len in [0usize, 55, 56, 64, 1 << 20, 3 * (1 << 20) + 7] {
        let mut data = vec![0u8; len];
        rng.fill_bytes(&mut data);
        let theirs = openssl_sm3(&data);
        assert_eq!(theirs.len(), 32, "len {len}");
        assert_eq!(shangmi_sm3::hash(&data).as_slice(), theirs, "len {len}");
        assert_eq!(
            shangmi_sm3::hash_portable(&data).as_slice(),
            theirs,
            "portable, len {len}"
        );
    }
}
