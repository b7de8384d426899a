//! SM9 ciphertext decoders (raw per mode, GM/T 0080 DER) and decryption with a fixed key.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sm9::{Ciphertext, EncryptionMode, MacMode};

fuzz_target!(|data: &[u8]| {
    let f = sm_fuzz::sm9();
    let (sel, rest) = sm_fuzz::split1(data);
    let mode = [
        EncryptionMode::KdfStream,
        EncryptionMode::Sm4Ecb,
        EncryptionMode::Sm4Cbc,
    ][usize::from(sel % 3)];
    let mac = if sel & 4 == 0 {
        MacMode::Sm3
    } else {
        MacMode::HmacSm3
    };
    let parsed = if sel & 8 == 0 {
        Ciphertext::from_bytes(mode, rest)
    } else {
        Ciphertext::from_der(rest)
    };
    if let Ok(c) = parsed {
        assert_eq!(
            Ciphertext::from_bytes(c.mode(), &c.to_bytes()).expect("re-decode"),
            c
        );
        if let Ok(der) = c.to_der() {
            assert_eq!(Ciphertext::from_der(&der).expect("re-decode"), c);
        }
        assert!(sm9::decrypt(&f.bob_dec, b"Bob", &c, mac).is_err());
    }
});
