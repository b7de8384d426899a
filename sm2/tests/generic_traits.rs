//! The RustCrypto traits, each used through code generic over the trait (as a downstream crate
//! written for any signature scheme would).

use std::collections::HashSet;

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use shangmi_sm2::pkcs8::der;
use shangmi_sm2::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use shangmi_sm2::signature_traits::hazmat::PrehashSigner;
use shangmi_sm2::signature_traits::{
    DigestSigner, DigestVerifier, RandomizedSigner, Signer, Verifier,
};
use shangmi_sm2::spki::{
    DecodePublicKey, DynSignatureAlgorithmIdentifier, EncodePublicKey, SignatureBitStringEncoding,
};
use shangmi_sm2::{Signature, SigningKey, VerifyingKey};
use sm3::digest::Update;
use sm3::Sm3;
use sm_testvectors::FailingRng;

fn signer() -> SigningKey {
    SigningKey::random(&mut ChaCha20Rng::seed_from_u64(19))
}

fn sign_generic<S: Signer<Sig>, Sig>(s: &S, msg: &[u8]) -> Sig {
    s.sign(msg)
}

fn verify_generic<V: Verifier<Sig>, Sig>(v: &V, msg: &[u8], sig: &Sig) -> bool {
    v.verify(msg, sig).is_ok()
}

fn sign_random_generic<S: RandomizedSigner<Sig>, Sig>(s: &S, msg: &[u8]) -> Sig {
    s.sign_with_rng(&mut ChaCha20Rng::seed_from_u64(7), msg)
}

fn sign_digest_generic<S: DigestSigner<D, Sig>, D: Update, Sig>(s: &S, msg: &[u8]) -> Sig {
    s.sign_digest(|d: &mut D| d.update(msg))
}

fn verify_digest_generic<V: DigestVerifier<D, Sig>, D: Update, Sig>(
    v: &V,
    msg: &[u8],
    sig: &Sig,
) -> bool {
    v.verify_digest(
        |d: &mut D| {
            d.update(msg);
            Ok(())
        },
        sig,
    )
    .is_ok()
}

fn pkcs8_round_trip<K: EncodePrivateKey + DecodePrivateKey>(k: &K) -> K {
    K::from_pkcs8_der(k.to_pkcs8_der().unwrap().as_bytes()).unwrap()
}

fn spki_round_trip<K: EncodePublicKey + DecodePublicKey>(k: &K) -> K {
    K::from_public_key_der(k.to_public_key_der().unwrap().as_bytes()).unwrap()
}

fn der_round_trip<T: for<'a> der::Decode<'a> + der::Encode>(t: &T) -> (Vec<u8>, T) {
    let der = t.to_der().unwrap();
    let back = T::from_der(&der).unwrap();
    (der, back)
}

#[test]
fn signer_is_deterministic_and_randomized_signer_is_not() {
    let sk = signer();
    let vk = sk.verifying_key();
    let a: Signature = sign_generic(&sk, b"msg");
    assert_eq!(a, sign_generic(&sk, b"msg"));
    assert_eq!(a, sk.sign_deterministic(b"msg"));
    assert!(verify_generic(vk, b"msg", &a));
    assert!(!verify_generic(vk, b"msG", &a));
    let r: Signature = sign_random_generic(&sk, b"msg");
    assert_ne!(r, a);
    assert!(verify_generic(vk, b"msg", &r));
}

#[test]
fn digest_signer_hashes_za_then_the_message() {
    let sk = signer();
    let vk = sk.verifying_key();
    let d: Signature = sign_digest_generic::<_, Sm3, _>(&sk, b"digest me");
    // The digest path is e = SM3(Z_A ‖ M) with the deterministic nonce: the same signature as
    // `Signer::sign`, and as the prehash signer on an e computed by hand.
    assert_eq!(d, sign_generic(&sk, b"digest me"));
    let e = shangmi_sm2::message_digest(sk.za(), b"digest me");
    assert_eq!(d, sk.sign_prehash(&e).unwrap());
    assert!(verify_digest_generic::<_, Sm3, _>(vk, b"digest me", &d));
    assert!(!verify_digest_generic::<_, Sm3, _>(vk, b"digest mE", &d));
    assert!(verify_generic(vk, b"digest me", &d));
}

#[test]
fn pkcs8_and_spki_on_signing_and_verifying_keys() {
    let sk = signer();
    let back = pkcs8_round_trip(&sk);
    assert_eq!(back.secret_key().to_bytes(), sk.secret_key().to_bytes());
    assert_eq!(back.za(), sk.za());
    // Same bytes as the secret key's PKCS#8 (the ID is not encoded).
    assert_eq!(
        sk.to_pkcs8_der().unwrap().as_bytes(),
        sk.secret_key().to_pkcs8_der().unwrap().as_bytes()
    );
    let vk = sk.verifying_key();
    let vback = spki_round_trip(vk);
    assert_eq!(vback.public_key(), vk.public_key());
    assert!(verify_generic(&vback, b"m", &sign_generic(&sk, b"m")));
    // A P-256 SPKI is refused.
    let p256_spki = hex::decode(
        "3059301306072a8648ce3d020106082a8648ce3d030107034200046b17d1f2e12c4247f8bce6e563a440f2\
         77037d812deb33a0f4a13945d898c2964fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb640\
         6837bf51f5",
    )
    .unwrap();
    assert!(VerifyingKey::from_public_key_der(&p256_spki).is_err());
}

#[test]
fn x509_algorithm_identifier_and_bit_string() {
    let sk = signer();
    let alg = sk.signature_algorithm_identifier().unwrap();
    assert_eq!(alg.oid.to_string(), "1.2.156.10197.1.501");
    assert!(alg.parameters.is_none());
    let vk_alg = sk.verifying_key().signature_algorithm_identifier().unwrap();
    assert_eq!(vk_alg, alg);
    let sig: Signature = sign_generic(&sk, b"tbs");
    let bits = sig.to_bitstring().unwrap();
    assert_eq!(bits.raw_bytes(), sig.to_der().as_slice());
}

#[test]
fn der_codec_on_signatures() {
    let sig: Signature = sign_generic(&signer(), b"der");
    let (der, back) = der_round_trip(&sig);
    assert_eq!(der, sig.to_der());
    assert_eq!(back, sig);
    // r = 0 is rejected by the `der::Decode` impl too.
    let mut bad = sig.to_der();
    let r_len = usize::from(bad[3]);
    bad.splice(2..4 + r_len, [0x02, 0x01, 0x00]);
    bad[1] = (bad.len() - 2) as u8;
    assert!(<Signature as der::Decode>::from_der(&bad).is_err());
}

#[test]
fn hash_on_public_keys_and_signatures() {
    let a = signer();
    let b = SigningKey::random(&mut ChaCha20Rng::seed_from_u64(20));
    let keys: HashSet<shangmi_sm2::PublicKey> = [
        *a.verifying_key().public_key(),
        *b.verifying_key().public_key(),
        *a.verifying_key().public_key(),
    ]
    .into_iter()
    .collect();
    assert_eq!(keys.len(), 2);
    let sigs: HashSet<Signature> = [
        sign_generic(&a, b"1"),
        sign_generic(&a, b"2"),
        sign_generic(&a, b"1"),
    ]
    .into_iter()
    .collect();
    assert_eq!(sigs.len(), 2);
}

#[test]
fn a_failing_rng_is_an_error_not_a_signature() {
    use shangmi_sm2::signature_traits::hazmat::RandomizedPrehashSigner;
    fn try_sign<S: RandomizedSigner<Sig>, Sig>(
        s: &S,
    ) -> Result<Sig, shangmi_sm2::signature_traits::Error> {
        s.try_sign_with_rng(&mut FailingRng, b"m")
    }
    let sk = signer();
    assert!(try_sign::<_, Signature>(&sk).is_err());
    assert!(
        RandomizedPrehashSigner::sign_prehash_with_rng(&sk, &mut FailingRng, &[7; 32]).is_err()
    );
}
