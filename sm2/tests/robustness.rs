//! Bad input gives typed errors, never a panic; tampering is always detected.

use proptest::prelude::*;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use shangmi_sm2::exchange::{Initiator, Responder};
use shangmi_sm2::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use shangmi_sm2::signature_traits::{
    hazmat::PrehashSigner, hazmat::PrehashVerifier, Keypair, RandomizedSigner, Signer, Verifier,
};
use shangmi_sm2::{
    Ciphertext, Error, Mode, PublicKey, SecretKey, Signature, SigningKey, VerifyingKey,
};
use sm_field::{Fp, Sm2N};

const N: &str = "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54123";
const N_MINUS_1: &str = "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54122";
const N_MINUS_2: &str = "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54121";

fn h32(s: &str) -> [u8; 32] {
    hex::decode(s).unwrap().try_into().unwrap()
}

fn key(seed: u64) -> SecretKey {
    SecretKey::random(&mut ChaCha20Rng::seed_from_u64(seed))
}

#[test]
fn secret_key_range() {
    assert_eq!(
        SecretKey::from_bytes(&[0u8; 32]).unwrap_err(),
        Error::InvalidSecretKey
    );
    assert_eq!(
        SecretKey::from_bytes(&h32(N)).unwrap_err(),
        Error::InvalidSecretKey
    );
    assert_eq!(
        SecretKey::from_bytes(&h32(N_MINUS_1)).unwrap_err(),
        Error::InvalidSecretKey
    );
    assert_eq!(
        SecretKey::from_bytes(&[0xff; 32]).unwrap_err(),
        Error::InvalidSecretKey
    );
    assert!(SecretKey::from_bytes(&h32(N_MINUS_2)).is_ok());
    let mut one = [0u8; 32];
    one[31] = 1;
    let sk = SecretKey::from_bytes(&one).unwrap();
    // d = 1 and d = n − 2 sign and verify.
    for sk in [sk, SecretKey::from_bytes(&h32(N_MINUS_2)).unwrap()] {
        let s = SigningKey::new(&sk);
        let sig = s.sign_deterministic(b"m");
        s.verifying_key().verify(b"m", &sig).unwrap();
    }
    assert_eq!(
        SecretKey::from_slice(&[1u8; 31]).unwrap_err(),
        Error::InvalidSecretKey
    );
}

#[test]
fn public_key_validation() {
    let pk = *key(1).public_key();
    let u = pk.to_uncompressed();
    assert_eq!(PublicKey::from_sec1_bytes(&u).unwrap(), pk);
    assert_eq!(PublicKey::from_sec1_bytes(&pk.to_compressed()).unwrap(), pk);
    let mut off = u;
    off[64] ^= 1;
    assert_eq!(
        PublicKey::from_sec1_bytes(&off).unwrap_err(),
        Error::InvalidPublicKey
    );
    assert_eq!(
        PublicKey::from_sec1_bytes(&u[..64]).unwrap_err(),
        Error::InvalidPublicKey
    );
    assert_eq!(
        PublicKey::from_sec1_bytes(&[0]).unwrap_err(),
        Error::InvalidPublicKey
    );
    assert_eq!(
        PublicKey::from_sec1_bytes(&[]).unwrap_err(),
        Error::InvalidPublicKey
    );
    let mut long = u.to_vec();
    long.push(0);
    assert_eq!(
        PublicKey::from_sec1_bytes(&long).unwrap_err(),
        Error::InvalidPublicKey
    );
    assert!(PublicKey::from_affine(shangmi_sm2::AffinePoint::IDENTITY).is_err());
}

#[test]
fn signature_encodings() {
    let zero = [0u8; 32];
    let one = {
        let mut o = [0u8; 32];
        o[31] = 1;
        o
    };
    assert_eq!(
        Signature::from_scalars(&zero, &one).unwrap_err(),
        Error::InvalidSignature
    );
    assert_eq!(
        Signature::from_scalars(&one, &zero).unwrap_err(),
        Error::InvalidSignature
    );
    assert_eq!(
        Signature::from_scalars(&h32(N), &one).unwrap_err(),
        Error::InvalidSignature
    );
    assert_eq!(
        Signature::from_scalars(&one, &h32(N)).unwrap_err(),
        Error::InvalidSignature
    );
    assert!(Signature::from_scalars(&h32(N_MINUS_1), &one).is_ok());
    assert_eq!(
        Signature::from_bytes(&[1u8; 63]).unwrap_err(),
        Error::InvalidSignature
    );

    let sk = SigningKey::new(&key(2));
    let sig = sk.sign_deterministic(b"x");
    let der = sig.to_der();
    assert_eq!(Signature::from_der(&der).unwrap(), sig);
    // Trailing garbage.
    let mut t = der.clone();
    t.push(0);
    assert_eq!(
        Signature::from_der(&t).unwrap_err(),
        Error::InvalidSignature
    );
    assert_eq!(
        Signature::from_der_lenient(&t).unwrap_err(),
        Error::InvalidSignature
    );
    // Truncation.
    for l in 0..der.len() {
        assert!(Signature::from_der(&der[..l]).is_err());
    }
    // Non-minimal INTEGER (extra leading zero) and long-form length: lenient only.
    let pad = |v: &[u8; 32]| -> Vec<u8> {
        let mut i = vec![0x02, 34, 0, 0];
        i.extend_from_slice(v);
        i
    };
    let mut body = pad(sig.r());
    body.extend(pad(sig.s()));
    let mut nm = vec![0x30, body.len() as u8];
    nm.extend(&body);
    assert_eq!(
        Signature::from_der(&nm).unwrap_err(),
        Error::InvalidSignature
    );
    assert_eq!(Signature::from_der_lenient(&nm).unwrap(), sig);
    let mut lf = vec![0x30, 0x81, (der.len() - 2) as u8];
    lf.extend(&der[2..]);
    assert_eq!(
        Signature::from_der(&lf).unwrap_err(),
        Error::InvalidSignature
    );
    assert_eq!(Signature::from_der_lenient(&lf).unwrap(), sig);
    // Negative INTEGER: r = n − 1 (top bit set) needs a 0x00 pad; without it the same bytes
    // are a negative INTEGER, rejected by both parsers.
    let padded = Signature::from_scalars(&h32(N_MINUS_1), &one)
        .unwrap()
        .to_der();
    let mut want = vec![0x30, 38, 0x02, 33, 0x00];
    want.extend_from_slice(&h32(N_MINUS_1));
    want.extend([0x02, 1, 1]);
    assert_eq!(padded, want);
    let mut neg = vec![0x30, 37, 0x02, 32];
    neg.extend_from_slice(&h32(N_MINUS_1));
    neg.extend([0x02, 1, 1]);
    assert_eq!(
        Signature::from_der(&neg).unwrap_err(),
        Error::InvalidSignature
    );
    assert_eq!(
        Signature::from_der_lenient(&neg).unwrap_err(),
        Error::InvalidSignature
    );
    // r = 0 in DER.
    let z = [0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x01];
    assert_eq!(
        Signature::from_der(&z).unwrap_err(),
        Error::InvalidSignature
    );
}

#[test]
fn za_id_limits() {
    let pk = *key(3).public_key();
    assert!(shangmi_sm2::compute_za(&vec![b'a'; 8191], &pk).is_ok());
    assert_eq!(
        shangmi_sm2::compute_za(&vec![b'a'; 8192], &pk).unwrap_err(),
        Error::IdTooLong
    );
    assert_eq!(
        VerifyingKey::with_id(&pk, &vec![0u8; 10_000]).unwrap_err(),
        Error::IdTooLong
    );
    // Empty and binary IDs work and give different Z.
    let z0 = shangmi_sm2::compute_za(b"", &pk).unwrap();
    let z1 = shangmi_sm2::compute_za(&[0, 255, 7], &pk).unwrap();
    assert_ne!(z0, z1);
}

#[test]
fn signature_traits_and_nonces() {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let sk = SigningKey::new(&key(4));
    let vk = sk.verifying_key_owned();
    let a: Signature = Signer::sign(&sk, b"msg");
    let b: Signature = Signer::sign(&sk, b"msg");
    assert_eq!(a, b, "deterministic");
    let c: Signature = RandomizedSigner::sign_with_rng(&sk, &mut rng, b"msg");
    let d = sk.sign_hedged(&mut rng, b"msg");
    assert_ne!(c, d);
    assert_ne!(a, c);
    for s in [a, c, d, sk.sign_with_rng(&mut rng, b"msg")] {
        Verifier::verify(&vk, b"msg", &s).unwrap();
        assert!(Verifier::verify(&vk, b"msG", &s).is_err());
    }
    let e = shangmi_sm2::message_digest(sk.za(), b"msg");
    let p = PrehashSigner::sign_prehash(&sk, &e).unwrap();
    assert_eq!(p, a);
    PrehashVerifier::verify_prehash(&vk, &e, &p).unwrap();
    assert!(PrehashSigner::<Signature>::sign_prehash(&sk, &e[..31]).is_err());
    assert!(PrehashVerifier::verify_prehash(&vk, &e[..31], &p).is_err());
    // Wrong key / wrong ID reject.
    let other = VerifyingKey::new(key(5).public_key());
    assert_eq!(other.verify(b"msg", &a).unwrap_err(), Error::Verification);
    let wrong_id = VerifyingKey::with_id(vk.public_key(), b"").unwrap();
    assert_eq!(
        wrong_id.verify(b"msg", &a).unwrap_err(),
        Error::Verification
    );
    // Bad nonce inputs to the KAT entry point.
    assert!(sk.sign_prehash_with_nonce(&e, &[0u8; 32]).is_err());
    assert!(sk.sign_prehash_with_nonce(&e, &h32(N)).is_err());
}

trait Owned {
    fn verifying_key_owned(&self) -> VerifyingKey;
}
impl Owned for SigningKey {
    fn verifying_key_owned(&self) -> VerifyingKey {
        Keypair::verifying_key(self)
    }
}

#[test]
fn ciphertext_rejections() {
    let mut rng = ChaCha20Rng::seed_from_u64(6);
    let sk = key(6);
    let pk = *sk.public_key();
    assert_eq!(
        pk.encrypt(&mut rng, b"", Mode::C1C3C2).unwrap_err(),
        Error::EmptyPlaintext
    );
    let ct = pk.encrypt(&mut rng, b"hello world", Mode::C1C3C2).unwrap();
    // Truncated at every length.
    for l in 0..ct.len() {
        assert_eq!(
            sk.decrypt(&ct[..l], Mode::C1C3C2).unwrap_err(),
            Error::Decryption,
            "len {l}"
        );
    }
    // C1 off the curve.
    let mut bad = ct.clone();
    bad[64] ^= 1;
    assert_eq!(
        sk.decrypt(&bad, Mode::C1C3C2).unwrap_err(),
        Error::Decryption
    );
    // C1 at infinity / bad tag.
    let mut bad = ct.clone();
    bad[0] = 0;
    assert_eq!(
        sk.decrypt(&bad, Mode::C1C3C2).unwrap_err(),
        Error::Decryption
    );
    // Wrong key.
    assert_eq!(
        key(7).decrypt(&ct, Mode::C1C3C2).unwrap_err(),
        Error::Decryption
    );
    // Wrong mode.
    assert_eq!(
        sk.decrypt(&ct, Mode::C1C2C3).unwrap_err(),
        Error::Decryption
    );
    // DER: trailing data, non-minimal.
    let der = pk.encrypt_der(&mut rng, b"abc").unwrap();
    assert_eq!(sk.decrypt_der(&der).unwrap().as_slice(), b"abc");
    let mut t = der.clone();
    t.push(0);
    assert_eq!(sk.decrypt_der(&t).unwrap_err(), Error::Decryption);
    assert!(Ciphertext::from_der(&t).is_err());
    for l in 0..der.len() {
        assert!(sk.decrypt_der(&der[..l]).is_err());
    }
    assert!(
        Ciphertext::from_bytes(&[4u8; 97], Mode::C1C3C2).is_err(),
        "C2 must not be empty"
    );
}

#[test]
fn key_exchange_misuse() {
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    let (a, b) = (key(8), key(9));
    let alice = Initiator::new(&a, b"A", b.public_key(), b"B").unwrap();
    let bob = Responder::new(&b, b"B", a.public_key(), b"A").unwrap();
    let (alice, ra) = alice.start(&mut rng);
    let (bob, rb, sb) = bob.respond(&mut rng, &ra, 48).unwrap();
    let mut bad_sb = sb;
    bad_sb[0] ^= 1;
    assert_eq!(
        alice.finish(&rb, &bad_sb, 48).unwrap_err(),
        Error::KeyExchange
    );
    assert_eq!(bob.confirm(&[0u8; 32]).unwrap_err(), Error::KeyExchange);
    // Mismatched IDs make the confirmation fail on both sides.
    let alice = Initiator::new(&a, b"A", b.public_key(), b"B").unwrap();
    let bob = Responder::new(&b, b"B", a.public_key(), b"not A").unwrap();
    let (alice, ra) = alice.start(&mut rng);
    let (_bob, rb, sb) = bob.respond(&mut rng, &ra, 16).unwrap();
    assert_eq!(alice.finish(&rb, &sb, 16).unwrap_err(), Error::KeyExchange);
    // Unconfirmed flow, odd key length, both agree.
    let alice = Initiator::new(&a, b"", b.public_key(), &[0u8; 100]).unwrap();
    let bob = Responder::new(&b, &[0u8; 100], a.public_key(), b"").unwrap();
    let (alice, ra) = alice.start(&mut rng);
    let (kb, rb) = bob.respond_unconfirmed(&mut rng, &ra, 77).unwrap();
    let ka = alice.finish_unconfirmed(&rb, 77).unwrap();
    assert_eq!(ka.as_slice(), kb.as_slice());
    assert_eq!(ka.len(), 77);
    // Invalid peer points are rejected when decoded.
    let mut off = ra.to_uncompressed();
    off[1] ^= 1;
    assert_eq!(
        PublicKey::from_sec1_bytes(&off).unwrap_err(),
        Error::InvalidPublicKey
    );
    // P_A + x̄₁·R_A = O gives an error, not a key: pick r_A, R_A = r_A·G and
    // x̄₁ = 2^127 + (x(R_A) mod 2^127), then d_A = −x̄₁·r_A mod n makes P_A = −x̄₁·R_A.
    let r_a = Fp::<Sm2N>::from_u64(0x1234_5678_9abc_def0);
    let ra_bad = *SecretKey::from_bytes(&r_a.to_bytes()).unwrap().public_key();
    let mut xbar = [0u8; 32];
    xbar[16..].copy_from_slice(&ra_bad.to_uncompressed()[17..33]);
    xbar[16] |= 0x80;
    let d_a = -(Fp::<Sm2N>::from_bytes_reduced(&xbar) * r_a);
    let a_bad = SecretKey::from_bytes(&d_a.to_bytes()).unwrap();
    let bob = Responder::new(&b, b"B", a_bad.public_key(), b"A").unwrap();
    assert_eq!(
        bob.respond(&mut rng, &ra_bad, 16).err(),
        Some(Error::KeyExchange)
    );
    // The same R_A with Alice's real key exchanges normally.
    let bob = Responder::new(&b, b"B", a.public_key(), b"A").unwrap();
    assert!(bob.respond(&mut rng, &ra_bad, 16).is_ok());
    assert!(Initiator::new(&a, &vec![0u8; 8192], b.public_key(), b"B").is_err());
}

#[test]
fn key_encoding_rejections() {
    let sk = key(10);
    let der = sk.to_pkcs8_der().unwrap();
    let bytes = der.as_bytes().to_vec();
    for l in 0..bytes.len() {
        assert!(SecretKey::from_pkcs8_der(&bytes[..l]).is_err());
    }
    // Public key inside not matching d.
    let other = key(11);
    let mut mixed = bytes.clone();
    let p = sk.public_key().to_uncompressed();
    let pos = mixed.windows(65).position(|w| w == p).unwrap();
    mixed[pos..pos + 65].copy_from_slice(&other.public_key().to_uncompressed());
    assert!(SecretKey::from_pkcs8_der(&mixed).is_err());
    // Encrypted PKCS#8 round trip and wrong password.
    let mut rng = ChaCha20Rng::seed_from_u64(12);
    let enc = sk
        .to_pkcs8_encrypted_der_with_params(b"pw", &[7u8; 16], &[9u8; 16], 1000)
        .unwrap();
    assert_eq!(
        SecretKey::from_pkcs8_encrypted_der(&enc, b"pw")
            .unwrap()
            .to_bytes(),
        sk.to_bytes()
    );
    assert!(SecretKey::from_pkcs8_encrypted_der(&enc, b"px").is_err());
    let pem = sk
        .to_pkcs8_encrypted_pem(&mut rng, b"pw", shangmi_sm2::pkcs8::LineEnding::LF)
        .unwrap();
    assert_eq!(
        SecretKey::from_pkcs8_encrypted_pem(&pem, b"pw")
            .unwrap()
            .to_bytes(),
        sk.to_bytes()
    );
    // SEC1 round trip.
    let s1 = sk.to_sec1_pem(shangmi_sm2::pkcs8::LineEnding::LF).unwrap();
    assert_eq!(
        SecretKey::from_sec1_pem(&s1).unwrap().to_bytes(),
        sk.to_bytes()
    );
    assert!(SecretKey::from_sec1_pem(&s1.replace("EC PRIVATE", "RSA PRIVATE")).is_err());
}

/// The PBKDF2 work an encrypted key can demand is bounded: counts above
/// `MAX_PBKDF2_ITERATIONS` are refused when writing and rejected before any work when reading
/// (fuzzing found a 300-byte key asking for 5.5 million iterations under the old bound).
#[test]
fn pbkdf2_iteration_bound() {
    let sk = key(13);
    let max = shangmi_sm2::MAX_PBKDF2_ITERATIONS;
    assert_eq!(max, 1 << 20);
    for bad in [0, max + 1, u32::MAX] {
        assert_eq!(
            sk.to_pkcs8_encrypted_der_with_params(b"pw", &[7u8; 16], &[9u8; 16], bad),
            Err(Error::Encoding)
        );
    }
    // 0x010001 iterations is a 3-byte DER INTEGER, like 0x100000 (the bound) and 0x100001.
    let enc = sk
        .to_pkcs8_encrypted_der_with_params(b"pw", &[7u8; 16], &[9u8; 16], 0x01_0001)
        .unwrap();
    let at = enc
        .windows(5)
        .position(|w| w == [0x02, 0x03, 0x01, 0x00, 0x01])
        .unwrap();
    let with_count = |c: u32| {
        let mut e = enc.clone();
        e[at + 2..at + 5].copy_from_slice(&c.to_be_bytes()[1..]);
        e
    };
    // `Encoding` (the parameters), not `Decryption`: refused before deriving a key.
    assert_eq!(
        SecretKey::from_pkcs8_encrypted_der(&with_count(max + 1), b"pw").err(),
        Some(Error::Encoding)
    );
    assert_eq!(
        SecretKey::from_pkcs8_encrypted_der(&with_count(0x7F_FFFF), b"pw").err(),
        Some(Error::Encoding)
    );
    // At the bound the key is derived (another key, so the padding or the inner parse fails).
    assert_eq!(
        SecretKey::from_pkcs8_encrypted_der(&with_count(max), b"pw").err(),
        Some(Error::Decryption)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn tampered_signatures_and_messages_rejected(seed: u64, msg in proptest::collection::vec(any::<u8>(), 0..100), bit in 0usize..512, mbit: usize) {
        let sk = SigningKey::new(&key(seed));
        let vk = sk.verifying_key();
        let sig = sk.sign_deterministic(&msg);
        prop_assert!(vk.verify(&msg, &sig).is_ok());
        let mut b = sig.to_bytes();
        b[bit / 8] ^= 1 << (bit % 8);
        if let Ok(s2) = Signature::from_bytes(&b) {
            prop_assert_eq!(vk.verify(&msg, &s2), Err(Error::Verification));
        }
        if !msg.is_empty() {
            let mut m = msg.clone();
            let i = mbit % (m.len() * 8);
            m[i / 8] ^= 1 << (i % 8);
            prop_assert_eq!(vk.verify(&m, &sig), Err(Error::Verification));
        }
        let mut der = sig.to_der();
        let i = mbit % (der.len() * 8);
        der[i / 8] ^= 1 << (i % 8);
        if let Ok(s3) = Signature::from_der(&der) {
            prop_assert!(vk.verify(&msg, &s3).is_err());
        }
    }

    #[test]
    fn tampered_ciphertexts_rejected(seed: u64, msg in proptest::collection::vec(any::<u8>(), 1..100), bit: usize, c1c2c3: bool) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let sk = SecretKey::random(&mut rng);
        let mode = if c1c2c3 { Mode::C1C2C3 } else { Mode::C1C3C2 };
        let ct = sk.public_key().encrypt(&mut rng, &msg, mode).unwrap();
        let pt = sk.decrypt(&ct, mode).unwrap();
        prop_assert_eq!(pt.as_slice(), &msg[..]);
        let mut t = ct.clone();
        let i = bit % (t.len() * 8);
        t[i / 8] ^= 1 << (i % 8);
        prop_assert_eq!(sk.decrypt(&t, mode).unwrap_err(), Error::Decryption);
        let der = sk.public_key().encrypt_der(&mut rng, &msg).unwrap();
        let mut t = der.clone();
        let i = bit % (t.len() * 8);
        t[i / 8] ^= 1 << (i % 8);
        prop_assert!(sk.decrypt_der(&t).is_err());
    }
}
