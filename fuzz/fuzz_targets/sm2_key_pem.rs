//! SM2 PEM decoders (PKCS#8, SEC1, SPKI) and password-encrypted PKCS#8 (DER and PEM).
#![no_main]
use libfuzzer_sys::fuzz_target;
use sm2::pkcs8::{DecodePrivateKey, DecodePublicKey};
use sm2::{PublicKey, SecretKey};

fuzz_target!(|data: &[u8]| {
    let (sel, rest) = sm_fuzz::split1(data);
    if sel & 1 == 0 {
        if let Ok(text) = std::str::from_utf8(rest) {
            let _ = SecretKey::from_pkcs8_pem(text);
            let _ = SecretKey::from_sec1_pem(text);
            let _ = PublicKey::from_public_key_pem(text);
            let _ = SecretKey::from_pkcs8_encrypted_pem(text, b"password");
        }
    } else {
        // Encrypted PKCS#8 DER; the iteration count is capped by the decoder (at 256 in fuzzing
        // builds: `cfg(fuzzing)` in sm2/sm9).
        let _ = SecretKey::from_pkcs8_encrypted_der(rest, b"password");
    }
});
