//! Interoperability with the OpenSSL 3 command line, both directions: signatures (default and
//! empty ID), DER ciphertexts, and keys in PKCS#8, SEC1 and SPKI PEM. OpenSSL is a required
//! peer: every test fails when `openssl` is not on the PATH or lacks SM2 (never a silent skip).

use std::path::{Path, PathBuf};
use std::process::Command;

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use shangmi_sm2::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
use shangmi_sm2::spki::{DecodePublicKey, EncodePublicKey};
use shangmi_sm2::{PublicKey, SecretKey, Signature, SigningKey, VerifyingKey};

/// Panics unless an `openssl` CLI with SM2 support is on the PATH.
fn require_openssl() {
    let out = Command::new("openssl")
        .args(["list", "-public-key-algorithms"])
        .output()
        .unwrap_or_else(|e| panic!("peer openssl required but cannot be run: {e}"));
    assert!(
        out.status.success() && String::from_utf8_lossy(&out.stdout).contains("SM2"),
        "peer openssl required but it lists no SM2 public-key algorithm"
    );
}

fn workdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sm2-openssl-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(dir: &Path, args: &[&str]) -> (bool, Vec<u8>) {
    let o = Command::new("openssl")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run openssl");
    if !o.status.success() {
        eprintln!("openssl {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    }
    (o.status.success(), o.stdout)
}

#[test]
fn signatures_both_directions() {
    require_openssl();
    let dir = workdir("sig");
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    for (i, id) in [&b"1234567812345678"[..], b"", b"alice@example.com"]
        .iter()
        .enumerate()
    {
        let sk = SecretKey::random(&mut rng);
        std::fs::write(
            dir.join("key.pem"),
            sk.to_pkcs8_pem(LineEnding::LF).unwrap().as_bytes(),
        )
        .unwrap();
        std::fs::write(
            dir.join("pub.pem"),
            sk.public_key().to_public_key_pem(LineEnding::LF).unwrap(),
        )
        .unwrap();
        let msg = format!("message number {i} for openssl");
        std::fs::write(dir.join("msg"), &msg).unwrap();
        let distid = format!("distid:{}", String::from_utf8_lossy(id));
        let mut opt: Vec<&str> = vec![];
        if !id.is_empty() {
            opt = vec!["-pkeyopt", &distid];
        }
        // Ours → OpenSSL.
        let signer = SigningKey::with_id(&sk, id).unwrap();
        let sig = signer.sign_with_rng(&mut rng, msg.as_bytes());
        std::fs::write(dir.join("sig"), sig.to_der()).unwrap();
        let mut args = vec![
            "pkeyutl", "-verify", "-rawin", "-digest", "sm3", "-pubin", "-inkey", "pub.pem", "-in",
            "msg", "-sigfile", "sig",
        ];
        args.extend(&opt);
        assert!(
            run(&dir, &args).0,
            "OpenSSL rejects our signature (id {id:?})"
        );
        // A tampered signature is rejected by OpenSSL too (the check can fail).
        let mut bad = sig.to_bytes();
        bad[40] ^= 1;
        std::fs::write(
            dir.join("sig"),
            Signature::from_bytes(&bad).unwrap().to_der(),
        )
        .unwrap();
        assert!(!run(&dir, &args).0);
        // OpenSSL → ours.
        let mut args = vec![
            "pkeyutl", "-sign", "-rawin", "-digest", "sm3", "-inkey", "key.pem", "-in", "msg",
            "-out", "osig",
        ];
        args.extend(&opt);
        assert!(run(&dir, &args).0);
        let osig = Signature::from_der(&std::fs::read(dir.join("osig")).unwrap()).unwrap();
        let vk = VerifyingKey::with_id(sk.public_key(), id).unwrap();
        vk.verify(msg.as_bytes(), &osig).unwrap();
        assert!(vk.verify(b"other", &osig).is_err());
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn encryption_both_directions() {
    require_openssl();
    let dir = workdir("enc");
    let mut rng = ChaCha20Rng::seed_from_u64(12);
    let sk = SecretKey::random(&mut rng);
    std::fs::write(
        dir.join("key.pem"),
        sk.to_pkcs8_pem(LineEnding::LF).unwrap().as_bytes(),
    )
    .unwrap();
    std::fs::write(
        dir.join("pub.pem"),
        sk.public_key().to_public_key_pem(LineEnding::LF).unwrap(),
    )
    .unwrap();
    for len in [1usize, 32, 100] {
        let msg: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
        let ct = sk.public_key().encrypt_der(&mut rng, &msg).unwrap();
        std::fs::write(dir.join("ct"), &ct).unwrap();
        let (ok, out) = run(
            &dir,
            &["pkeyutl", "-decrypt", "-inkey", "key.pem", "-in", "ct"],
        );
        assert!(ok);
        assert_eq!(out, msg, "OpenSSL decrypts our ciphertext");
        std::fs::write(dir.join("msg"), &msg).unwrap();
        assert!(
            run(
                &dir,
                &[
                    "pkeyutl", "-encrypt", "-pubin", "-inkey", "pub.pem", "-in", "msg", "-out",
                    "oct"
                ]
            )
            .0
        );
        let oct = std::fs::read(dir.join("oct")).unwrap();
        assert_eq!(sk.decrypt_der(&oct).unwrap().as_slice(), &msg[..]);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn keys_both_directions() {
    require_openssl();
    let dir = workdir("keys");
    // OpenSSL-generated key → ours (PKCS#8, SEC1 "SM2 PRIVATE KEY", SPKI).
    assert!(
        run(
            &dir,
            &[
                "genpkey",
                "-algorithm",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:SM2",
                "-out",
                "k.pem"
            ]
        )
        .0
    );
    assert!(
        run(
            &dir,
            &["pkey", "-in", "k.pem", "-pubout", "-out", "pub.pem"]
        )
        .0
    );
    assert!(run(&dir, &["ec", "-in", "k.pem", "-out", "sec1.pem"]).0);
    let k8 = std::fs::read_to_string(dir.join("k.pem")).unwrap();
    let sk = SecretKey::from_pkcs8_pem(&k8).unwrap();
    let sec1 = std::fs::read_to_string(dir.join("sec1.pem")).unwrap();
    assert_eq!(
        SecretKey::from_sec1_pem(&sec1).unwrap().to_bytes(),
        sk.to_bytes()
    );
    let pubpem = std::fs::read_to_string(dir.join("pub.pem")).unwrap();
    assert_eq!(
        PublicKey::from_public_key_pem(&pubpem).unwrap(),
        *sk.public_key()
    );
    // Our encodings are byte-identical to what OpenSSL writes for the same key.
    assert_eq!(sk.to_pkcs8_pem(LineEnding::LF).unwrap().as_str(), k8);
    assert_eq!(
        sk.public_key().to_public_key_pem(LineEnding::LF).unwrap(),
        pubpem
    );
    // Ours → OpenSSL: our SEC1 PEM is accepted and checked.
    let mine = SecretKey::random(&mut ChaCha20Rng::seed_from_u64(13));
    std::fs::write(
        dir.join("mine.pem"),
        mine.to_sec1_pem(LineEnding::LF).unwrap().as_bytes(),
    )
    .unwrap();
    assert!(run(&dir, &["ec", "-in", "mine.pem", "-check", "-noout"]).0);
    let (ok, out) = run(&dir, &["pkey", "-in", "mine.pem", "-pubout"]);
    assert!(ok);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        mine.public_key().to_public_key_pem(LineEnding::LF).unwrap()
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Signatures made by `batch::sign_batch` (24 items: three full groups of eight in the IFMA
/// lanes where the CPU has them, distinct keys, IDs and messages, one key repeated) are standard:
/// OpenSSL verifies every one in its DER form, and rejects each when its message is changed.
#[test]
fn batch_signatures_verified_by_openssl() {
    require_openssl();
    let dir = workdir("batch-sig");
    let mut rng = ChaCha20Rng::seed_from_u64(17);
    let ids: [&[u8]; 3] = [b"1234567812345678", b"", b"bob@example.com"];
    let sks: Vec<SecretKey> = (0..23).map(|_| SecretKey::random(&mut rng)).collect();
    // Item 23 reuses item 0's key (duplicate keys in one batch).
    let signers: Vec<SigningKey> = (0..24)
        .map(|i| SigningKey::with_id(&sks[i % 23], ids[i % 3]).unwrap())
        .collect();
    let msgs: Vec<Vec<u8>> = (0..24)
        .map(|i| format!("batch message {i} for openssl").into_bytes())
        .collect();
    let items: Vec<(&SigningKey, &[u8])> = signers
        .iter()
        .zip(&msgs)
        .map(|(k, m)| (k, &m[..]))
        .collect();
    let sigs = shangmi_sm2::batch::sign_batch(&items, &mut rng);
    assert_eq!(sigs.len(), 24);
    for (i, sig) in sigs.iter().enumerate() {
        let sk = &sks[i % 23];
        std::fs::write(
            dir.join("pub.pem"),
            sk.public_key().to_public_key_pem(LineEnding::LF).unwrap(),
        )
        .unwrap();
        std::fs::write(dir.join("sig"), sig.to_der()).unwrap();
        let distid = format!("distid:{}", String::from_utf8_lossy(ids[i % 3]));
        let mut args = vec![
            "pkeyutl", "-verify", "-rawin", "-digest", "sm3", "-pubin", "-inkey", "pub.pem", "-in",
            "msg", "-sigfile", "sig",
        ];
        if !ids[i % 3].is_empty() {
            args.extend(["-pkeyopt", &distid]);
        }
        std::fs::write(dir.join("msg"), &msgs[i]).unwrap();
        assert!(run(&dir, &args).0, "OpenSSL rejects batch signature {i}");
        std::fs::write(dir.join("msg"), b"another message").unwrap();
        assert!(
            !run(&dir, &args).0,
            "OpenSSL accepts batch signature {i} for another message"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
