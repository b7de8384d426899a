//! SM9 signatures through the RustCrypto `signature` 3 traits.

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use shangmi_sm9::{IdentitySigner, IdentityVerifier, SignMasterKey, Signature};
use signature::{RandomizedSigner, SignatureEncoding, Verifier};
use sm_testvectors::FailingRng;

#[test]
fn randomized_signer_and_verifier_agree_with_the_functions() {
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let kgc = SignMasterKey::generate(&mut rng);
    let master = kgc.public_key().prepare();
    let alice = kgc.extract(b"Alice").unwrap();
    let prepared = kgc.extract(b"Alice").unwrap().prepare();

    for signer in [
        IdentitySigner::new(&alice, &master).unwrap(),
        IdentitySigner::with_prepared(&prepared, &master).unwrap(),
    ] {
        let sig: Signature = signer.sign_with_rng(&mut rng, b"message");
        // The trait's signature is an ordinary SM9 signature.
        assert!(shangmi_sm9::verify(&master, b"Alice", b"message", &sig).is_ok());
        let v = IdentityVerifier::new(&master, b"Alice");
        assert!(v.verify(b"message", &sig).is_ok());
        assert!(v.verify(b"messagf", &sig).is_err());
        assert!(IdentityVerifier::new(&master, b"Alice ")
            .verify(b"message", &sig)
            .is_err());
        // And a function-made signature verifies through the trait.
        let sig2 = shangmi_sm9::sign(&alice, &master, b"other", &mut rng).unwrap();
        assert!(v.verify(b"other", &sig2).is_ok());
    }
}

#[test]
fn key_from_another_master_is_rejected() {
    let mut rng = ChaCha20Rng::seed_from_u64(6);
    let kgc1 = SignMasterKey::generate(&mut rng);
    let kgc2 = SignMasterKey::generate(&mut rng);
    let alice = kgc1.extract(b"Alice").unwrap();
    let master2 = kgc2.public_key().prepare();
    assert_eq!(
        IdentitySigner::new(&alice, &master2).err(),
        Some(shangmi_sm9::Error::KeyMismatch)
    );
}

#[test]
fn signature_encoding_round_trips_and_rejects_bad_lengths() {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let kgc = SignMasterKey::generate(&mut rng);
    let master = kgc.public_key().prepare();
    let alice = kgc.extract(b"Alice").unwrap();
    let sig = shangmi_sm9::sign(&alice, &master, b"m", &mut rng).unwrap();
    let repr: [u8; 97] = sig.to_bytes();
    assert_eq!(SignatureEncoding::to_bytes(&sig), repr);
    assert_eq!(sig.encoded_len(), 97);
    assert_eq!(Signature::try_from(&repr[..]).unwrap(), sig);
    assert!(Signature::try_from(&repr[..96]).is_err());
    let mut bad = repr;
    bad[0..32].fill(0); // h = 0 is out of range
    assert!(Signature::try_from(&bad[..]).is_err());
}

fn try_sign_generic<S: RandomizedSigner<Sig>, Sig>(
    s: &S,
    rng: &mut FailingRng,
) -> Result<Sig, signature::Error> {
    s.try_sign_with_rng(rng, b"message")
}

#[test]
fn a_failing_rng_is_an_error_not_a_signature() {
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    let kgc = SignMasterKey::generate(&mut rng);
    let master = kgc.public_key().prepare();
    let alice = kgc.extract(b"Alice").unwrap();
    let signer = IdentitySigner::new(&alice, &master).unwrap();
    assert!(try_sign_generic::<_, Signature>(&signer, &mut FailingRng).is_err());
}

#[test]
fn signatures_hash_by_value() {
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let kgc = SignMasterKey::generate(&mut rng);
    let master = kgc.public_key().prepare();
    let alice = kgc.extract(b"Alice").unwrap();
    let a = shangmi_sm9::sign(&alice, &master, b"a", &mut rng).unwrap();
    let b = shangmi_sm9::sign(&alice, &master, b"b", &mut rng).unwrap();
    let set: std::collections::HashSet<Signature> = [a, b, a].into_iter().collect();
    assert_eq!(set.len(), 2);
}
