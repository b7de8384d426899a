//! Cross-checks against RustCrypto's `sm2` crate (an independent implementation): 1,000 random
//! round trips in total — signatures both ways (random IDs) and ciphertexts both ways
//! (C1C3C2, C1C2C3 and DER).

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use rc::dsa::signature::{Signer, Verifier};
use rc::elliptic_curve::common::getrandom::SysRng;
use rustcrypto_sm2 as rc;
use shangmi_sm2::{Mode, SecretKey, Signature, SigningKey, VerifyingKey};

const ROUNDS: usize = 250;

fn random_id(rng: &mut ChaCha20Rng) -> String {
    let len = (rng.next_u32() % 40) as usize;
    (0..len)
        .map(|_| char::from(b'a' + (rng.next_u32() % 26) as u8))
        .collect()
}

fn random_msg(rng: &mut ChaCha20Rng) -> Vec<u8> {
    let mut m = vec![0u8; 1 + (rng.next_u32() % 200) as usize];
    rng.fill_bytes(&mut m);
    m
}

fn their_secret(sk: &SecretKey) -> rc::SecretKey {
    rc::SecretKey::from_slice(&sk.to_bytes()[..]).unwrap()
}

#[test]
fn signatures_both_ways() {
    let mut rng = ChaCha20Rng::seed_from_u64(21);
    for i in 0..ROUNDS {
        let sk = SecretKey::random(&mut rng);
        let id = random_id(&mut rng);
        let msg = random_msg(&mut rng);
        // Ours → theirs.
        let sig = SigningKey::with_id(&sk, id.as_bytes())
            .unwrap()
            .sign_with_rng(&mut rng, &msg);
        let their_vk =
            rc::dsa::VerifyingKey::from_sec1_bytes(&id, &sk.public_key().to_uncompressed())
                .unwrap();
        let their_sig = rc::dsa::Signature::from_bytes(&sig.to_bytes().into()).unwrap();
        their_vk
            .verify(&msg, &their_sig)
            .unwrap_or_else(|e| panic!("round {i}: {e:?}"));
        // Theirs → ours.
        let their_sk = rc::dsa::SigningKey::new(&id, &their_secret(&sk)).unwrap();
        let ts: rc::dsa::Signature = their_sk.sign(&msg);
        let ours = Signature::from_bytes(&ts.to_bytes()).unwrap();
        VerifyingKey::with_id(sk.public_key(), id.as_bytes())
            .unwrap()
            .verify(&msg, &ours)
            .unwrap();
    }
}

#[test]
fn encryption_both_ways() {
    let mut rng = ChaCha20Rng::seed_from_u64(22);
    for i in 0..ROUNDS {
        let sk = SecretKey::random(&mut rng);
        let msg = random_msg(&mut rng);
        let (mode, their_mode) = if i % 2 == 0 {
            (Mode::C1C3C2, rc::pke::Mode::C1C3C2)
        } else {
            (Mode::C1C2C3, rc::pke::Mode::C1C2C3)
        };
        let dk = rc::pke::DecryptingKey::new_with_mode(
            their_secret(&sk).to_nonzero_scalar(),
            their_mode,
        );
        // Ours → theirs (raw and DER).
        let ct = sk.public_key().encrypt(&mut rng, &msg, mode).unwrap();
        assert_eq!(dk.decrypt(&ct).unwrap(), msg, "round {i}");
        let der = sk.public_key().encrypt_der(&mut rng, &msg).unwrap();
        assert_eq!(dk.decrypt_der(&der).unwrap(), msg);
        // Theirs → ours.
        let tct = dk.encrypting_key().encrypt(&mut SysRng, &msg).unwrap();
        assert_eq!(sk.decrypt(&tct, mode).unwrap().as_slice(), &msg[..]);
        let tder = dk.encrypting_key().encrypt_der(&mut SysRng, &msg).unwrap();
        assert_eq!(sk.decrypt_der(&tder).unwrap().as_slice(), &msg[..]);
    }
}
