//! Differential: our SM2 verification against RustCrypto `sm2` on the same key, message and
//! (fuzzed or mutated-valid) signature, with the default distinguishing ID.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rustcrypto_sm2::dsa::signature::Verifier as _;
use sm2::{Signature, SigningKey, VerifyingKey};

fuzz_target!(|data: &[u8]| {
    let sk = sm_fuzz::sm2_key();
    let (sel, rest) = sm_fuzz::split1(data);
    let (sig_bytes, msg): (Vec<u8>, &[u8]) = if sel & 1 == 0 && rest.len() >= 64 {
        (rest[..64].to_vec(), &rest[64..])
    } else {
        // A valid signature, then one fuzz-chosen bit flipped (or none).
        let sig = SigningKey::new(sk).sign_deterministic(rest).to_bytes();
        let mut b = sig.to_vec();
        if sel & 2 != 0 {
            let bit = usize::from(sel >> 2) % 512;
            b[bit / 8] ^= 1 << (bit % 8);
        }
        (b, rest)
    };
    let ours = Signature::from_bytes(&sig_bytes)
        .map(|s| VerifyingKey::new(sk.public_key()).verify(msg, &s).is_ok())
        .unwrap_or(false);
    let peer_vk = rustcrypto_sm2::dsa::VerifyingKey::from_sec1_bytes(
        "1234567812345678",
        &sk.public_key().to_uncompressed(),
    )
    .expect("peer key");
    let theirs = rustcrypto_sm2::dsa::Signature::from_slice(&sig_bytes)
        .map(|s| peer_vk.verify(msg, &s).is_ok())
        .unwrap_or(false);
    assert_eq!(ours, theirs, "verification disagrees with RustCrypto sm2");
});
