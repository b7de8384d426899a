//! SM9 keys in password-encrypted PKCS#8 with OpenSSL's PBES2 parameters (PBKDF2-HMAC-SHA256
//! and AES-256-CBC, as `openssl pkcs8 -topk8 -v2 aes-256-cbc` writes; sm2's `pbes2_openssl`
//! test checks that `sm-pbes2` writes exactly what the OpenSSL CLI reads) are read like GmSSL's.

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use shangmi_sm9::{EncMasterKey, Error, SignMasterKey, SignUserKey};

#[test]
fn reads_openssl_scheme() {
    let mut rng = ChaCha20Rng::seed_from_u64(44);
    let kgc = SignMasterKey::generate(&mut rng);
    let alice = kgc.extract(b"alice@example.com").unwrap();
    let pki = alice.to_pkcs8_der().unwrap();
    let enc = sm_pbes2::encrypt_random(&mut rng, &pki, sm_pbes2::Scheme::OpenSsl, b"pw").unwrap();
    let back = SignUserKey::from_encrypted_pkcs8_der(&enc, b"pw").unwrap();
    assert_eq!(back.ds_bytes(), alice.ds_bytes());
    assert_eq!(
        SignUserKey::from_encrypted_pkcs8_der(&enc, b"pW").unwrap_err(),
        Error::Decryption
    );
    // The algorithm of the PrivateKeyInfo is still checked after decryption.
    assert_eq!(
        EncMasterKey::from_encrypted_pkcs8_der(&enc, b"pw").unwrap_err(),
        Error::UnknownAlgorithm
    );
    let pki = kgc.to_pkcs8_der().unwrap();
    let enc = sm_pbes2::encrypt_random(&mut rng, &pki, sm_pbes2::Scheme::OpenSsl, b"pw").unwrap();
    let back = SignMasterKey::from_encrypted_pkcs8_der(&enc, b"pw").unwrap();
    assert_eq!(back.to_bytes(), kgc.to_bytes());
}
