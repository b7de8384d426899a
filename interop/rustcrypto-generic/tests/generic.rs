//! A downstream crate's view: the same generic functions, written once against the RustCrypto
//! traits, run on P-256 (`p256`/`ecdsa`) and on our SM2 types; and an SM2 X.509 certificate
//! built with `x509-cert` that the `openssl` CLI (a required peer) parses and verifies.

use std::process::Command;
use std::str::FromStr;
use std::time::Duration;

use p256::pkcs8::spki::{DecodePublicKey, EncodePublicKey};
use p256::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use x509_cert::builder::profile::cabf;
use x509_cert::builder::{Builder, CertificateBuilder};
use x509_cert::der::{pem::LineEnding, EncodePem};
use x509_cert::name::Name;
use x509_cert::serial_number::SerialNumber;
use x509_cert::spki::SubjectPublicKeyInfoOwned;
use x509_cert::time::Validity;

use ecdsa::signature::{Keypair, RandomizedSigner, Signer, Verifier};

/// Sign, verify, reject a changed message, and round-trip both keys through PKCS#8 / SPKI DER:
/// generic over the scheme.
fn exercise<S, Sig>(signer: &S) -> (Vec<u8>, Vec<u8>)
where
    S: Signer<Sig> + RandomizedSigner<Sig> + Keypair + EncodePrivateKey + DecodePrivateKey,
    S::VerifyingKey: Verifier<Sig> + EncodePublicKey + DecodePublicKey,
{
    let vk = signer.verifying_key();
    let sig = signer.sign(b"generic message");
    vk.verify(b"generic message", &sig).unwrap();
    assert!(vk.verify(b"generic messagE", &sig).is_err());
    let rsig = signer.sign_with_rng(&mut ChaCha20Rng::seed_from_u64(1), b"randomized");
    vk.verify(b"randomized", &rsig).unwrap();

    let pkcs8 = signer.to_pkcs8_der().unwrap();
    let back = S::from_pkcs8_der(pkcs8.as_bytes()).unwrap();
    back.verifying_key()
        .verify(b"again", &back.sign(b"again"))
        .unwrap();
    let spki = vk.to_public_key_der().unwrap();
    let vback = S::VerifyingKey::from_public_key_der(spki.as_bytes()).unwrap();
    vback.verify(b"again", &back.sign(b"again")).unwrap();
    (pkcs8.as_bytes().to_vec(), spki.as_bytes().to_vec())
}

#[test]
fn p256_and_sm2_through_the_same_generic_code() {
    let p = p256::ecdsa::SigningKey::from_slice(&[0x42; 32]).unwrap();
    let (p_pkcs8, p_spki) = exercise::<_, p256::ecdsa::Signature>(&p);
    let s = sm2::SigningKey::random(&mut ChaCha20Rng::seed_from_u64(2));
    let (s_pkcs8, s_spki) = exercise::<_, sm2::Signature>(&s);
    // Each scheme refuses the other's keys.
    assert!(sm2::SigningKey::from_pkcs8_der(&p_pkcs8).is_err());
    assert!(p256::ecdsa::SigningKey::from_pkcs8_der(&s_pkcs8).is_err());
    assert!(sm2::VerifyingKey::from_public_key_der(&p_spki).is_err());
    assert!(p256::ecdsa::VerifyingKey::from_public_key_der(&s_spki).is_err());
}

fn openssl(args: &[&str], dir: &std::path::Path) -> String {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the openssl CLI is a required peer of this test");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn sm2_self_signed_certificate_accepted_by_openssl() {
    let key = sm2::SigningKey::random(&mut ChaCha20Rng::seed_from_u64(3));
    let subject = Name::from_str("CN=SM2 Test Root,O=sm-crypto,C=CN").unwrap();
    let profile = cabf::Root::new(false, subject).unwrap();
    let spki = SubjectPublicKeyInfoOwned::from_key(key.verifying_key()).unwrap();
    let validity = Validity::from_now(Duration::from_secs(3600)).unwrap();
    let builder =
        CertificateBuilder::new(profile, SerialNumber::from(19u32), validity, spki).unwrap();
    let cert = builder.build::<_, sm2::Signature>(&key).unwrap();
    let pem = cert.to_pem(LineEnding::LF).unwrap();

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("cert.pem"), &pem).unwrap();
    let text = openssl(&["x509", "-in", "cert.pem", "-text", "-noout"], dir.path());
    assert!(text.contains("Signature Algorithm: SM2-with-SM3"), "{text}");
    assert!(text.contains("CN = SM2 Test Root"), "{text}");
    assert!(text.contains("CA:TRUE"), "{text}");
    // `openssl verify` accepts it as its own trust anchor (it does not check a root's
    // self-signature; OpenSSL 3.0 cannot check SM2 certificate signatures at all, even on
    // certificates it wrote: `-check_ss_sig` fails with "EVP lib" for those too).
    let ok = openssl(&["verify", "-CAfile", "cert.pem", "cert.pem"], dir.path());
    assert!(ok.contains("cert.pem: OK"), "{ok}");
    // So OpenSSL checks the signature itself: TBSCertificate (cut out of the PEM by OpenSSL)
    // against the signature BIT STRING, under the certificate's key and the default ID.
    assert!(verify_cert_signature_with_openssl(
        dir.path(),
        "cert.pem",
        &cert
    ));

    // A certificate whose signature was made under another ID is refused.
    let other = sm2::SigningKey::with_id(key.secret_key(), b"another id").unwrap();
    let subject = Name::from_str("CN=SM2 Test Root,O=sm-crypto,C=CN").unwrap();
    let spki = SubjectPublicKeyInfoOwned::from_key(key.verifying_key()).unwrap();
    let bad = CertificateBuilder::new(
        cabf::Root::new(false, subject).unwrap(),
        SerialNumber::from(20u32),
        Validity::from_now(Duration::from_secs(3600)).unwrap(),
        spki,
    )
    .unwrap()
    .build::<_, sm2::Signature>(&other)
    .unwrap();
    std::fs::write(
        dir.path().join("bad.pem"),
        bad.to_pem(LineEnding::LF).unwrap(),
    )
    .unwrap();
    assert!(!verify_cert_signature_with_openssl(
        dir.path(),
        "bad.pem",
        &bad
    ));
}

/// `openssl pkeyutl -verify` of the certificate's signature over its TBSCertificate (extracted
/// by `openssl asn1parse`), with the SM2 default ID.
fn verify_cert_signature_with_openssl(
    dir: &std::path::Path,
    pem: &str,
    cert: &x509_cert::Certificate,
) -> bool {
    openssl(
        &["x509", "-in", pem, "-pubkey", "-noout", "-out", "pub.pem"],
        dir,
    );
    // The outer SEQUENCE has a 4-byte header (30 82 LL LL): the TBSCertificate starts at 4.
    openssl(
        &[
            "asn1parse",
            "-in",
            pem,
            "-strparse",
            "4",
            "-noout",
            "-out",
            "tbs.der",
        ],
        dir,
    );
    std::fs::write(dir.join("sig.der"), cert.signature().raw_bytes()).unwrap();
    Command::new("openssl")
        .args([
            "pkeyutl",
            "-verify",
            "-pubin",
            "-inkey",
            "pub.pem",
            "-rawin",
            "-digest",
            "sm3",
            "-in",
            "tbs.der",
            "-sigfile",
            "sig.der",
            "-pkeyopt",
            "distid:1234567812345678",
        ])
        .current_dir(dir)
        .output()
        .expect("the openssl CLI is a required peer of this test")
        .status
        .success()
}
