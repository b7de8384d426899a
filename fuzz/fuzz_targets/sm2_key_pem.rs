//! SM2 PEM decoders (PKCS#8, SEC1, SPKI) and password-encrypted PKCS#8 (DER and PEM), on raw
//! input and on mutations of a valid encrypted key (so that the inner key parser is reached).
#![no_main]
use libfuzzer_sys::fuzz_target;
use sm2::pkcs8::{DecodePrivateKey, DecodePublicKey};
use sm2::{PublicKey, SecretKey};
use sm_fuzz::PASSWORD;

fuzz_target!(|data: &[u8]| {
    let (sel, rest) = sm_fuzz::split1(data);
    match sel % 4 {
        0 => {
            if let Ok(text) = std::str::from_utf8(rest) {
                let _ = SecretKey::from_pkcs8_pem(text);
                let _ = SecretKey::from_sec1_pem(text);
                let _ = PublicKey::from_public_key_pem(text);
                let _ = SecretKey::from_pkcs8_encrypted_pem(text, PASSWORD);
            }
        }
        // Encrypted PKCS#8 DER; the iteration count is capped by the decoder (at 256 in fuzzing
        // builds: `cfg(fuzzing)` in sm2/sm9).
        1 => {
            let _ = SecretKey::from_pkcs8_encrypted_der(rest, PASSWORD);
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
