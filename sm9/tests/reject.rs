//! Bad input gives typed errors, never a panic; tampered artefacts are rejected (proptest flips
//! random bits of every artefact).

use proptest::prelude::*;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use shangmi_sm9::{EncryptionMode, Error, MacMode};
use std::sync::OnceLock;

struct Fixture {
    sign_master: shangmi_sm9::PreparedSignMasterPublicKey,
    sign_master_key: shangmi_sm9::SignMasterKey,
    alice: shangmi_sm9::SignUserKey,
    msg: Vec<u8>,
    sig: shangmi_sm9::Signature,
    enc_master: shangmi_sm9::PreparedEncMasterPublicKey,
    bob_dec: shangmi_sm9::DecryptionKey,
    bob_enc_der: Vec<u8>,
    cts: Vec<(shangmi_sm9::Ciphertext, MacMode)>,
    kem: (Vec<u8>, shangmi_sm9::EncapsulatedKey),
    x_alice: shangmi_sm9::ExchangeKey,
    x_bob: shangmi_sm9::ExchangeKey,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let mut rng = ChaCha20Rng::seed_from_u64(9);
        let sign_master_key = shangmi_sm9::SignMasterKey::generate(&mut rng);
        let sign_master = sign_master_key.public_key().prepare();
        let alice = sign_master_key.extract(b"Alice").unwrap();
        let msg = b"tamper me".to_vec();
        let sig = shangmi_sm9::sign(&alice, &sign_master, &msg, &mut rng).unwrap();
        let ekgc = shangmi_sm9::EncMasterKey::generate(&mut rng);
        let enc_master = ekgc.public_key().prepare();
        let bob = ekgc.extract(b"Bob").unwrap();
        let bob_enc_der = bob.to_der().unwrap().to_vec();
        let bob_dec = bob.prepare();
        let mut cts = Vec::new();
        for mode in [
            EncryptionMode::KdfStream,
            EncryptionMode::Sm4Ecb,
            EncryptionMode::Sm4Cbc,
        ] {
            for mac in [MacMode::Sm3, MacMode::HmacSm3] {
                let ct = shangmi_sm9::encrypt(
                    &enc_master,
                    b"Bob",
                    b"attack at dawn!!x",
                    mode,
                    mac,
                    &mut rng,
                )
                .unwrap();
                cts.push((ct, mac));
            }
        }
        let (k, c) = shangmi_sm9::encapsulate(&enc_master, b"Bob", 32, &mut rng).unwrap();
        let x_alice = ekgc.extract_exchange(b"Alice").unwrap().prepare();
        let x_bob = ekgc.extract_exchange(b"Bob").unwrap().prepare();
        Fixture {
            sign_master,
            sign_master_key,
            alice,
            msg,
            sig,
            enc_master,
            bob_dec,
            bob_enc_der,
            cts,
            kem: (k.to_vec(), c),
            x_alice,
            x_bob,
        }
    })
}

fn flip(bytes: &[u8], bit: usize) -> Vec<u8> {
    let mut b = bytes.to_vec();
    let i = bit % (b.len() * 8);
    b[i / 8] ^= 1 << (i % 8);
    b
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn tampered_signature_rejected(bit in any::<usize>()) {
        let f = fixture();
        let raw = flip(&f.sig.to_bytes(), bit);
        if let Ok(sig) = shangmi_sm9::Signature::from_bytes(&raw) {
            prop_assert_eq!(shangmi_sm9::verify(&f.sign_master, b"Alice", &f.msg, &sig), Err(Error::Verification));
        }
        let der = flip(&f.sig.to_der().unwrap(), bit);
        if let Ok(sig) = shangmi_sm9::Signature::from_der(&der) {
            prop_assert_eq!(shangmi_sm9::verify(&f.sign_master, b"Alice", &f.msg, &sig), Err(Error::Verification));
        }
        let msg = flip(&f.msg, bit);
        prop_assert_eq!(shangmi_sm9::verify(&f.sign_master, b"Alice", &msg, &f.sig), Err(Error::Verification));
        let id = flip(b"Alice", bit);
        prop_assert_eq!(shangmi_sm9::verify(&f.sign_master, &id, &f.msg, &f.sig), Err(Error::Verification));
    }

    #[test]
    fn tampered_ciphertext_rejected(bit in any::<usize>(), which in 0usize..6) {
        let f = fixture();
        let (ct, mac) = &f.cts[which];
        prop_assert_eq!(&shangmi_sm9::decrypt(&f.bob_dec, b"Bob", ct, *mac).unwrap()[..], b"attack at dawn!!x");
        let raw = flip(&ct.to_bytes(), bit);
        if let Ok(t) = shangmi_sm9::Ciphertext::from_bytes(ct.mode(), &raw) {
            prop_assert_eq!(shangmi_sm9::decrypt(&f.bob_dec, b"Bob", &t, *mac).unwrap_err(), Error::Decryption);
        }
        let der = flip(&ct.to_der().unwrap(), bit);
        if let Ok(t) = shangmi_sm9::Ciphertext::from_der(&der) {
            prop_assert_eq!(shangmi_sm9::decrypt(&f.bob_dec, b"Bob", &t, *mac).unwrap_err(), Error::Decryption);
        }
    }

    #[test]
    fn tampered_kem_changes_key(bit in any::<usize>()) {
        let f = fixture();
        let (k, c) = &f.kem;
        let raw = flip(&c.to_bytes(), bit);
        if let Ok(t) = shangmi_sm9::EncapsulatedKey::from_bytes(&raw) {
            let k2 = shangmi_sm9::decapsulate(&f.bob_dec, b"Bob", &t, 32).unwrap();
            prop_assert_ne!(&k2[..], &k[..]);
        }
    }

    #[test]
    fn tampered_exchange_rejected(bit in any::<usize>(), target in 0usize..4) {
        let f = fixture();
        let mut rng = ChaCha20Rng::seed_from_u64(bit as u64);
        let (a, ra) = shangmi_sm9::Initiator::start(&f.x_alice, &f.enc_master, b"Alice", b"Bob", &mut rng).unwrap();
        let ra = if target == 0 {
            match shangmi_sm9::EphemeralPoint::from_bytes(&flip(&ra.to_bytes(), bit)) {
                Ok(p) => p,
                Err(e) => { prop_assert!(e == Error::InvalidPoint || e == Error::Encoding); return Ok(()); }
            }
        } else { ra };
        let (b, rb, sb) = shangmi_sm9::Responder::respond(&f.x_bob, &f.enc_master, b"Bob", b"Alice", &ra, &mut rng).unwrap();
        let rb = if target == 1 {
            match shangmi_sm9::EphemeralPoint::from_bytes(&flip(&rb.to_bytes(), bit)) {
                Ok(p) => p,
                Err(e) => { prop_assert!(e == Error::InvalidPoint || e == Error::Encoding); return Ok(()); }
            }
        } else { rb };
        let sb: [u8; 32] = if target == 2 { flip(&sb, bit).try_into().unwrap() } else { sb };
        match a.finish(&rb, Some(&sb), 16) {
            Ok((_, sa)) => {
                prop_assert_eq!(target, 3);
                let sa: [u8; 32] = flip(&sa, bit).try_into().unwrap();
                prop_assert_eq!(b.confirm(&sa, 16).unwrap_err(), Error::KeyConfirmation);
            }
            Err(e) => prop_assert_eq!(e, Error::KeyConfirmation),
        }
    }

    #[test]
    fn tampered_keys_rejected_or_unusable(bit in any::<usize>()) {
        let f = fixture();
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        // Master public key DER: decoding fails, or the key no longer verifies Alice.
        let der = flip(&f.sign_master.public_key().to_der().unwrap(), bit);
        if let Ok(pk) = shangmi_sm9::SignMasterPublicKey::from_der(&der) {
            prop_assert_eq!(shangmi_sm9::verify(&pk.prepare(), b"Alice", &f.msg, &f.sig), Err(Error::Verification));
        }
        // User signing key DER: decoding fails, or signatures made with it do not verify.
        let der = flip(&f.alice.to_der().unwrap(), bit);
        if let Ok(k) = shangmi_sm9::SignUserKey::from_der(&der) {
            match shangmi_sm9::sign(&k, &f.sign_master, &f.msg, &mut rng) {
                Ok(sig) => prop_assert_eq!(shangmi_sm9::verify(&f.sign_master, b"Alice", &f.msg, &sig), Err(Error::Verification)),
                Err(e) => prop_assert_eq!(e, Error::KeyMismatch),
            }
        }
        // User decryption key DER.
        let der = flip(&f.bob_enc_der, bit);
        if let Ok(k) = shangmi_sm9::EncUserKey::from_der(&der) {
            let (ct, mac) = &f.cts[0];
            prop_assert!(shangmi_sm9::decrypt(&k.prepare(), b"Bob", ct, *mac).is_err() || k.master_public_key() != *f.enc_master.public_key());
        }
        // Master key DER (consistency of ks and Ppub-s is checked).
        let der = flip(&f.sign_master_key.to_der().unwrap(), bit);
        if let Ok(k) = shangmi_sm9::SignMasterKey::from_der(&der) {
            prop_assert_ne!(k.to_bytes(), f.sign_master_key.to_bytes());
        }
    }
}

#[test]
fn scalar_and_point_ranges() {
    let f = fixture();
    let s = f.sig.s_bytes();
    // h = 0 and h = n are out of range; h = n − 1 is fine.
    let n = sm_testvectors::hex("B640000002A3A6F1D603AB4FF58EC74449F2934B18EA8BEEE56EE19CD69ECF25");
    let n1 =
        sm_testvectors::hex("B640000002A3A6F1D603AB4FF58EC74449F2934B18EA8BEEE56EE19CD69ECF24");
    assert_eq!(
        shangmi_sm9::Signature::from_parts(&[0; 32], &s).unwrap_err(),
        Error::InvalidScalar
    );
    assert_eq!(
        shangmi_sm9::Signature::from_parts(&n, &s).unwrap_err(),
        Error::InvalidScalar
    );
    assert_eq!(
        shangmi_sm9::Signature::from_parts(&[0xff; 32], &s).unwrap_err(),
        Error::InvalidScalar
    );
    assert!(shangmi_sm9::Signature::from_parts(&n1, &s).is_ok());
    // Off-curve S, identity / compressed encodings, wrong lengths.
    let mut off = s;
    off[64] ^= 1;
    assert_eq!(
        shangmi_sm9::Signature::from_parts(&n1, &off).unwrap_err(),
        Error::InvalidPoint
    );
    assert_eq!(
        shangmi_sm9::Signature::from_parts(&n1, &[0]).unwrap_err(),
        Error::Encoding
    );
    let mut comp = s;
    comp[0] = 0x02;
    assert_eq!(
        shangmi_sm9::Signature::from_parts(&n1, &comp).unwrap_err(),
        Error::Encoding
    );
    assert_eq!(
        shangmi_sm9::Signature::from_bytes(&[0; 96]).unwrap_err(),
        Error::Encoding
    );
    // Coordinates ≥ p.
    let mut big = s;
    big[1..33].copy_from_slice(&[0xff; 32]);
    assert_eq!(
        shangmi_sm9::Signature::from_parts(&n1, &big).unwrap_err(),
        Error::InvalidPoint
    );
    // Master secrets 0 and n.
    assert_eq!(
        shangmi_sm9::SignMasterKey::from_bytes(&[0; 32]).unwrap_err(),
        Error::InvalidScalar
    );
    assert_eq!(
        shangmi_sm9::EncMasterKey::from_bytes(&n.clone().try_into().unwrap()).unwrap_err(),
        Error::InvalidScalar
    );
}

#[test]
fn g2_point_outside_subgroup_is_rejected() {
    use sm_field::{Field, Fp, Fp2};
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let b = Fp2::new(Fp::ZERO, Fp::from_u64(5));
    let mut found = 0;
    while found < 2 {
        let x = <Fp2 as Field>::random(&mut rng);
        let rhs = x.square() * x + b;
        if let Some(y) = Option::<Fp2>::from(rhs.sqrt()) {
            let mut enc = vec![0x04];
            enc.extend_from_slice(&x.to_bytes());
            enc.extend_from_slice(&y.to_bytes());
            assert_eq!(
                shangmi_sm9::SignMasterPublicKey::from_bytes(&enc).unwrap_err(),
                Error::InvalidPoint
            );
            found += 1;
        }
    }
    // And off the twist entirely.
    let mut enc = fixture().sign_master.public_key().to_bytes().to_vec();
    enc[128] ^= 1;
    assert_eq!(
        shangmi_sm9::SignMasterPublicKey::from_bytes(&enc).unwrap_err(),
        Error::InvalidPoint
    );
}

#[test]
fn degenerate_identity_is_a_typed_error() {
    // ks = n − H1(ID ‖ 0x01) makes t1 = 0.
    let h = shangmi_sm9::h1(b"Mallory", 1);
    let ks = (-h).to_bytes();
    let kgc = shangmi_sm9::SignMasterKey::from_bytes(&ks).unwrap();
    assert_eq!(
        kgc.extract(b"Mallory").unwrap_err(),
        Error::DegenerateIdentity
    );
    assert!(kgc.extract(b"Alice").is_ok());
    let h = shangmi_sm9::h1(b"Mallory", 3);
    let ekgc = shangmi_sm9::EncMasterKey::from_bytes(&(-h).to_bytes()).unwrap();
    assert_eq!(
        ekgc.extract(b"Mallory").unwrap_err(),
        Error::DegenerateIdentity
    );
    assert!(ekgc.extract_exchange(b"Mallory").is_ok());
}

#[test]
fn der_and_pem_errors() {
    let f = fixture();
    let der = f.sig.to_der().unwrap();
    // Truncated and overlong.
    for cut in [0, 1, 10, der.len() - 1] {
        assert_eq!(
            shangmi_sm9::Signature::from_der(&der[..cut]).unwrap_err(),
            Error::Encoding
        );
    }
    let mut long = der.clone();
    long.push(0);
    assert_eq!(
        shangmi_sm9::Signature::from_der(&long).unwrap_err(),
        Error::Encoding
    );
    let (ct, _) = &f.cts[0];
    let cder = ct.to_der().unwrap();
    assert_eq!(
        shangmi_sm9::Ciphertext::from_der(&cder[..cder.len() - 1]).unwrap_err(),
        Error::Encoding
    );
    // Unknown EnType.
    let mut bad = cder.clone();
    assert_eq!(&bad[2..5], &[0x02, 0x01, 0x00]);
    bad[4] = 4;
    assert_eq!(
        shangmi_sm9::Ciphertext::from_der(&bad).unwrap_err(),
        Error::UnknownAlgorithm
    );
    // PKCS#8 with the wrong algorithm OID, PEM with the wrong label.
    let p8 = f.alice.to_pkcs8_der().unwrap();
    assert!(shangmi_sm9::SignUserKey::from_pkcs8_der(&p8).is_ok());
    assert_eq!(
        shangmi_sm9::EncUserKey::from_pkcs8_der(&p8).unwrap_err(),
        Error::UnknownAlgorithm
    );
    assert_eq!(
        shangmi_sm9::SignMasterKey::from_pkcs8_der(&p8).unwrap_err(),
        Error::UnknownAlgorithm
    );
    let pem = f.sign_master.public_key().to_pem().unwrap();
    assert_eq!(
        shangmi_sm9::EncMasterPublicKey::from_pem(&pem).unwrap_err(),
        Error::UnknownAlgorithm
    );
    assert_eq!(
        shangmi_sm9::SignMasterPublicKey::from_pem("garbage").unwrap_err(),
        Error::Encoding
    );
    let pem = f.sign_master_key.to_pkcs8_pem().unwrap();
    let back = shangmi_sm9::SignMasterKey::from_pkcs8_pem(&pem).unwrap();
    assert_eq!(back.to_bytes(), f.sign_master_key.to_bytes());
    // The exchange key's PKCS#8 uses sm9keyagreement, not sm9encrypt.
    let x = f.x_alice.user_key().to_pkcs8_der().unwrap();
    assert_eq!(
        shangmi_sm9::EncUserKey::from_pkcs8_der(&x).unwrap_err(),
        Error::UnknownAlgorithm
    );
    assert!(shangmi_sm9::ExchangeUserKey::from_pkcs8_der(&x).is_ok());
}

#[test]
fn usage_errors() {
    let f = fixture();
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    assert_eq!(
        shangmi_sm9::encapsulate(&f.enc_master, b"Bob", 0, &mut rng).unwrap_err(),
        Error::InvalidLength
    );
    // A user key with another master public key.
    let other = shangmi_sm9::SignMasterKey::generate(&mut rng);
    let other_master = other.public_key().prepare();
    assert_eq!(
        shangmi_sm9::sign(&f.alice, &other_master, b"m", &mut rng).unwrap_err(),
        Error::KeyMismatch
    );
    assert_eq!(
        shangmi_sm9::verify(&other_master, b"Alice", &f.msg, &f.sig),
        Err(Error::Verification)
    );
    // Wrong ID and wrong key for decryption.
    let (ct, mac) = &f.cts[2];
    assert_eq!(
        shangmi_sm9::decrypt(&f.bob_dec, b"Bobby", ct, *mac).unwrap_err(),
        Error::Decryption
    );
    let ekgc = shangmi_sm9::EncMasterKey::generate(&mut rng);
    let eve = ekgc.extract(b"Bob").unwrap().prepare();
    assert_eq!(
        shangmi_sm9::decrypt(&eve, b"Bob", ct, *mac).unwrap_err(),
        Error::Decryption
    );
    // Exchange key with another KGC.
    let eve_x = ekgc.extract_exchange(b"Alice").unwrap().prepare();
    assert!(matches!(
        shangmi_sm9::Initiator::start(&eve_x, &f.enc_master, b"Alice", b"Bob", &mut rng),
        Err(Error::KeyMismatch)
    ));
}

#[test]
fn batch_verification_reports_failures() {
    let f = fixture();
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    let other = shangmi_sm9::SignMasterKey::generate(&mut rng);
    let other_master = other.public_key().prepare();
    let ids: [&[u8]; 3] = [b"Alice", b"Bob", b"Carol"];
    let msgs: Vec<Vec<u8>> = (0..12)
        .map(|i| format!("message {i}").into_bytes())
        .collect();
    let mut sigs = Vec::new();
    for (i, m) in msgs.iter().enumerate() {
        let (kgc, master) = if i % 2 == 0 {
            (&f.sign_master_key, &f.sign_master)
        } else {
            (&other, &other_master)
        };
        let key = kgc.extract(ids[i % 3]).unwrap();
        sigs.push(shangmi_sm9::sign(&key, master, m, &mut rng).unwrap());
    }
    let bad_msg = b"forged".to_vec();
    let mut verifier = shangmi_sm9::BatchVerifier::new(4);
    for round in 0..2 {
        let items: Vec<shangmi_sm9::BatchItem> = (0..12)
            .map(|i| shangmi_sm9::BatchItem {
                master: if i % 2 == 0 {
                    &f.sign_master
                } else {
                    &other_master
                },
                id: ids[i % 3],
                message: if i == 5 || i == 8 { &bad_msg } else { &msgs[i] },
                signature: &sigs[if i == 10 { 0 } else { i }],
            })
            .collect();
        let res = verifier.verify(&items);
        assert_eq!(res.failed(), vec![5, 8, 10], "round {round}");
        assert!(!res.all_valid());
        let res2 = shangmi_sm9::verify_batch(&items);
        assert_eq!(res2, res);
    }
}

/// The PBKDF2 work an encrypted key can demand is bounded: counts above
/// `MAX_PBKDF2_ITERATIONS` are refused when writing and rejected before any work when reading
/// (fuzzing found a 300-byte key asking for 5.5 million iterations under the old bound, 2^24).
#[test]
fn pbkdf2_iteration_bound() {
    let k = shangmi_sm9::SignMasterKey::from_bytes(&[0x21; 32]).unwrap();
    let max = shangmi_sm9::MAX_PBKDF2_ITERATIONS;
    assert_eq!(max, 1 << 20);
    for bad in [0, max + 1, u32::MAX] {
        assert_eq!(
            k.to_encrypted_pkcs8_der_with(b"pw", &[7; 16], &[9; 16], bad)
                .err(),
            Some(Error::InvalidLength)
        );
    }
    // 0x010001 iterations is a 3-byte DER INTEGER, like 0x100000 (the bound) and 0x100001.
    let enc = k
        .to_encrypted_pkcs8_der_with(b"pw", &[7; 16], &[9; 16], 0x01_0001)
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
    // `InvalidLength` (the parameters), not `Decryption`: refused before deriving a key.
    for bad in [max + 1, 0x7F_FFFF] {
        assert_eq!(
            shangmi_sm9::SignMasterKey::from_encrypted_pkcs8_der(&with_count(bad), b"pw").err(),
            Some(Error::InvalidLength)
        );
    }
    // At the bound the key is derived (another key, so the padding or the inner parse fails).
    assert_eq!(
        shangmi_sm9::SignMasterKey::from_encrypted_pkcs8_der(&with_count(max), b"pw").err(),
        Some(Error::Decryption)
    );
    assert!(shangmi_sm9::SignMasterKey::from_encrypted_pkcs8_der(&enc, b"pw").is_ok());
}
