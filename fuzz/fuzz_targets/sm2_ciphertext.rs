//! SM2 ciphertext decoders (C1C3C2, C1C2C3, GM/T 0009 DER; C1 compressed or not) and
//! decryption with a fixed key: tampered or random input must fail without panicking.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sm2::{Ciphertext, Mode};

fuzz_target!(|data: &[u8]| {
    let sk = sm_fuzz::sm2_key();
    let (sel, rest) = sm_fuzz::split1(data);
    let parsed = match sel % 3 {
        0 => Ciphertext::from_bytes(rest, Mode::C1C3C2),
        1 => Ciphertext::from_bytes(rest, Mode::C1C2C3),
        _ => Ciphertext::from_der(rest),
    };
    if let Ok(c) = parsed {
        for mode in [Mode::C1C3C2, Mode::C1C2C3] {
            assert_eq!(
                Ciphertext::from_bytes(&c.to_bytes(mode), mode).expect("re-decode"),
                c
            );
        }
        // Random input decrypts only with a 2^-256 chance (C3 must match).
        assert!(sk.decrypt_ciphertext(&c).is_err());
    }
    // The one-step forms agree with decoding then decrypting: both fail.
    assert!(sk.decrypt(rest, Mode::C1C3C2).is_err());
    assert!(sk.decrypt_der(rest).is_err());
});
