//! SM2 PEM decoders (PKCS#8, SEC1, SPKI) and password-encrypted PKCS#8 (DER and PEM), on raw
//! input and on mutations of a valid encrypted key (so that the inner key parser is reached).
#![no_main]
use libfuzzer_sys::fuzz_target;
use sm2::pkcs8::{
    DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey, LineEnding,
};
use sm2::{PublicKey, SecretKey};
use sm_fuzz::PASSWORD;

fuzz_target!(|data: &[u8]| {
    let (sel, rest) = sm_fuzz::split1(data);
    match sel % 4 {
        0 => {
            if let Ok(text) = std::str::from_utf8(rest) {
                // Whatever decodes re-encodes (LF lines) and decodes to the same key.
                if let Ok(k) = SecretKey::from_pkcs8_pem(text) {
                    let pem = k.to_pkcs8_pem(LineEnding::LF).expect("encode");
                    let again = SecretKey::from_pkcs8_pem(&pem).expect("re-decode");
                    assert_eq!(again.to_bytes(), k.to_bytes());
                }
                if let Ok(k) = SecretKey::from_sec1_pem(text) {
                    let pem = k.to_sec1_pem(LineEnding::LF).expect("encode");
                    let again = SecretKey::from_sec1_pem(&pem).expect("re-decode");
                    assert_eq!(again.to_bytes(), k.to_bytes());
                }
                if let Ok(p) = PublicKey::from_public_key_pem(text) {
                    let pem = p.to_public_key_pem(LineEnding::LF).expect("encode");
                    assert_eq!(PublicKey::from_public_key_pem(&pem).expect("re-decode"), p);
                }
                if SecretKey::from_pkcs8_encrypted_pem(text, PASSWORD).is_ok() {
                    assert!(
                        SecretKey::from_pkcs8_encrypted_pem(text, b"not the password").is_err()
                    );
                }
            }
        }
        // Encrypted PKCS#8 DER; the iteration count is capped by the decoder (at 256 in fuzzing
        // builds: `cfg(fuzzing)` in sm2/sm9).
        1 => {
            if SecretKey::from_pkcs8_encrypted_der(rest, PASSWORD).is_ok() {
                assert!(SecretKey::from_pkcs8_encrypted_der(rest, b"not the password").is_err());
            }
        }
        // A valid encrypted key, XOR-patched and possibly cut (selector bit 2 and the next byte).
        2 | 3 => {
            let e = sm_fuzz::encrypted();
            let (keep, patch) = match (sel & 4 != 0, rest.split_first()) {
                (true, Some((&k, p))) => (Some(usize::from(k)), p),
                _ => (None, rest),
            };
            let (der, same) = sm_fuzz::mutate(&e.sm2_der, patch, keep);
            let r = SecretKey::from_pkcs8_encrypted_der(&der, PASSWORD);
            if same {
                assert_eq!(
                    r.expect("the valid key").to_bytes(),
                    sm_fuzz::sm2_key().to_bytes()
                );
            }
            if sel & 1 != 0 {
                let (pem, same) = sm_fuzz::mutate(e.sm2_pem.as_bytes(), patch, keep);
                if let Ok(text) = std::str::from_utf8(&pem) {
                    let r = SecretKey::from_pkcs8_encrypted_pem(text, PASSWORD);
                    if same {
                        assert_eq!(
                            r.expect("the valid key").to_bytes(),
                            sm_fuzz::sm2_key().to_bytes()
                        );
                    }
                }
            }
        }
        _ => unreachable!(),
    }
});
