//! Password-encrypted PKCS#8 with OpenSSL 3's CLI, both ways: keys we write with
//! [`Pbes2::OpenSsl`] (PBKDF2-HMAC-SHA256 + AES-256-CBC) are decrypted by `openssl pkey`; keys
//! `openssl pkcs8 -topk8` encrypts with HMAC-SHA256 and AES-256-CBC, AES-128-CBC or SM4-CBC are
//! decrypted by us. `openssl` must be on PATH: the test fails without it (no silent skip).

use std::io::Write;
use std::process::{Command, Stdio};

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use shangmi_sm2::pkcs8::{EncodePrivateKey, LineEnding};

use shangmi_sm2::{Error, Pbes2, SecretKey};

fn openssl(args: &[&str], input: &[u8]) -> Vec<u8> {
    let mut child = Command::new("openssl")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the openssl CLI must be installed for this test");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn openssl_reads_what_we_write() {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for _ in 0..3 {
        let sk = SecretKey::random(&mut rng);
        let pem = sk
            .to_pkcs8_encrypted_pem_as(&mut rng, b"pass word", Pbes2::OpenSsl, LineEnding::LF)
            .unwrap();
        let plain = openssl(
            &["pkey", "-passin", "pass:pass word", "-outform", "DER"],
            pem.as_bytes(),
        );
        // `openssl pkey -outform DER` writes the SEC1 ECPrivateKey.
        assert_eq!(
            SecretKey::from_sec1_der(&plain).unwrap().to_bytes(),
            sk.to_bytes()
        );
        // And we read it back, and refuse a wrong password.
        assert_eq!(
            SecretKey::from_pkcs8_encrypted_pem(&pem, b"pass word")
                .unwrap()
                .to_bytes(),
            sk.to_bytes()
        );
        assert_eq!(
            SecretKey::from_pkcs8_encrypted_pem(&pem, b"pass w0rd").unwrap_err(),
            Error::Decryption
        );
    }
}

#[test]
fn we_read_what_openssl_writes() {
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    for cipher in ["aes-256-cbc", "aes-128-cbc", "sm4-cbc"] {
        let sk = SecretKey::random(&mut rng);
        let plain = sk.to_pkcs8_pem(LineEnding::LF).unwrap();
        let der = openssl(
            &[
                "pkcs8",
                "-topk8",
                "-v2",
                cipher,
                "-v2prf",
                "hmacWithSHA256",
                "-passout",
                "pass:secret",
                "-outform",
                "DER",
            ],
            plain.as_bytes(),
        );
        let back = SecretKey::from_pkcs8_encrypted_der(&der, b"secret").unwrap();
        assert_eq!(back.to_bytes(), sk.to_bytes(), "{cipher}");
        assert_eq!(
            SecretKey::from_pkcs8_encrypted_der(&der, b"Secret").unwrap_err(),
            Error::Decryption,
            "{cipher}"
        );
    }
}

/// The key-agnostic PBES2 decryption (what smtool reads every encrypted key with): the
/// `PrivateKeyInfo` of both schemes, the opaque error for a wrong password, and the iteration
/// bound checked before any work.
#[test]
fn decrypt_pkcs8_der_returns_the_private_key_info() {
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let sk = SecretKey::random(&mut rng);
    let pki = sk.to_pkcs8_der().unwrap();
    for scheme in [Pbes2::GmSsl, Pbes2::OpenSsl] {
        let enc = sk
            .to_pkcs8_encrypted_der_as(&mut rng, b"pw", scheme)
            .unwrap();
        assert!(shangmi_sm2::is_pbes2_encrypted(&enc));
        assert!(!shangmi_sm2::is_pbes2_encrypted(pki.as_bytes()));
        assert_eq!(
            shangmi_sm2::decrypt_pkcs8_der(&enc, b"pw")
                .unwrap()
                .as_slice(),
            pki.as_bytes()
        );
        assert_eq!(
            shangmi_sm2::decrypt_pkcs8_der(&enc, b"not it").unwrap_err(),
            Error::Decryption
        );
    }
    // Any PrivateKeyInfo (here GmSSL's layout) round-trips through encrypt_pkcs8_der.
    let gm = sk.to_pkcs8_der_gmssl().unwrap();
    for scheme in [Pbes2::GmSsl, Pbes2::OpenSsl] {
        let enc = shangmi_sm2::encrypt_pkcs8_der(&mut rng, gm.as_bytes(), b"pw", scheme).unwrap();
        assert_eq!(
            shangmi_sm2::decrypt_pkcs8_der(&enc, b"pw")
                .unwrap()
                .as_slice(),
            gm.as_bytes()
        );
        assert_eq!(
            SecretKey::from_pkcs8_encrypted_der(&enc, b"pw")
                .unwrap()
                .to_bytes(),
            sk.to_bytes()
        );
    }
    let over = sk
        .to_pkcs8_encrypted_der_with_params(b"pw", &[1; 16], &[2; 16], 65536)
        .unwrap();
    let mut over = over.to_vec();
    let pos = over.windows(5).position(|w| w == [2, 3, 1, 0, 0]).unwrap();
    over[pos + 2] = 0x20; // 2^21 iterations
    assert_eq!(
        shangmi_sm2::decrypt_pkcs8_der(&over, b"pw").unwrap_err(),
        Error::Encoding
    );
}
