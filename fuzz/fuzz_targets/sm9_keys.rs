//! SM9 key decoders: master public keys (raw, DER, PEM), master keys and user keys (DER,
//! PKCS#8 DER/PEM), password-encrypted PKCS#8 (DER and PEM), also as mutations of a valid
//! encrypted key (so that the inner key parser is reached).
#![no_main]
use libfuzzer_sys::fuzz_target;
use sm9::{
    EncMasterKey, EncMasterPublicKey, EncUserKey, ExchangeUserKey, SignMasterKey,
    SignMasterPublicKey, SignUserKey,
};

fuzz_target!(|data: &[u8]| {
    let (sel, rest) = sm_fuzz::split1(data);
    match sel % 5 {
        0 => {
            if let Ok(p) = SignMasterPublicKey::from_bytes(rest) {
                assert_eq!(
                    SignMasterPublicKey::from_bytes(&p.to_bytes()).expect("re-decode"),
                    p
                );
            }
            if let Ok(p) = EncMasterPublicKey::from_bytes(rest) {
                assert_eq!(
                    EncMasterPublicKey::from_bytes(&p.to_bytes()).expect("re-decode"),
                    p
                );
            }
            if let Ok(p) = SignMasterPublicKey::from_der(rest) {
                let der = p.to_der().expect("encode");
                assert_eq!(SignMasterPublicKey::from_der(&der).expect("re-decode"), p);
            }
            if let Ok(p) = EncMasterPublicKey::from_der(rest) {
                let der = p.to_der().expect("encode");
                assert_eq!(EncMasterPublicKey::from_der(&der).expect("re-decode"), p);
            }
        }
        1 => {
            if let Ok(k) = SignMasterKey::from_der(rest) {
                let der = k.to_der().expect("encode");
                assert_eq!(
                    SignMasterKey::from_der(&der).expect("re-decode").to_bytes(),
                    k.to_bytes()
                );
            }
            if let Ok(k) = EncMasterKey::from_der(rest) {
                let der = k.to_der().expect("encode");
                assert_eq!(
                    EncMasterKey::from_der(&der).expect("re-decode").to_bytes(),
                    k.to_bytes()
                );
            }
            if let Ok(k) = SignMasterKey::from_pkcs8_der(rest) {
                let der = k.to_pkcs8_der().expect("encode");
                assert_eq!(
                    SignMasterKey::from_pkcs8_der(&der)
                        .expect("re-decode")
                        .to_bytes(),
                    k.to_bytes()
                );
            }
            if let Ok(k) = EncMasterKey::from_pkcs8_der(rest) {
                let der = k.to_pkcs8_der().expect("encode");
                assert_eq!(
                    EncMasterKey::from_pkcs8_der(&der)
                        .expect("re-decode")
                        .to_bytes(),
                    k.to_bytes()
                );
            }
        }
        2 => {
            if let Ok(k) = SignUserKey::from_der(rest) {
                let der = k.to_der().expect("encode");
                assert_eq!(
                    SignUserKey::from_der(&der).expect("re-decode").ds_bytes(),
                    k.ds_bytes()
                );
            }
            if let Ok(k) = EncUserKey::from_der(rest) {
                let der = k.to_der().expect("encode");
                assert_eq!(
                    EncUserKey::from_der(&der).expect("re-decode").de_bytes(),
                    k.de_bytes()
                );
            }
            if let Ok(k) = ExchangeUserKey::from_der(rest) {
                let der = k.to_der().expect("encode");
                assert_eq!(
                    ExchangeUserKey::from_der(&der)
                        .expect("re-decode")
                        .de_bytes(),
                    k.de_bytes()
                );
            }
            if let Ok(k) = SignUserKey::from_pkcs8_der(rest) {
                let der = k.to_pkcs8_der().expect("encode");
                assert_eq!(
                    SignUserKey::from_pkcs8_der(&der)
                        .expect("re-decode")
                        .ds_bytes(),
                    k.ds_bytes()
                );
            }
            if let Ok(k) = EncUserKey::from_pkcs8_der(rest) {
                let der = k.to_pkcs8_der().expect("encode");
                assert_eq!(
                    EncUserKey::from_pkcs8_der(&der)
                        .expect("re-decode")
                        .de_bytes(),
                    k.de_bytes()
                );
            }
            if SignUserKey::from_encrypted_pkcs8_der(rest, sm_fuzz::PASSWORD).is_ok() {
                assert!(SignUserKey::from_encrypted_pkcs8_der(rest, b"not the password").is_err());
            }
        }
        3 => {
            if let Ok(text) = std::str::from_utf8(rest) {
                if let Ok(p) = SignMasterPublicKey::from_pem(text) {
                    let pem = p.to_pem().expect("encode");
                    assert_eq!(SignMasterPublicKey::from_pem(&pem).expect("re-decode"), p);
                }
                if let Ok(p) = EncMasterPublicKey::from_pem(text) {
                    let pem = p.to_pem().expect("encode");
                    assert_eq!(EncMasterPublicKey::from_pem(&pem).expect("re-decode"), p);
                }
                if let Ok(k) = SignMasterKey::from_pkcs8_pem(text) {
                    let pem = k.to_pkcs8_pem().expect("encode");
                    assert_eq!(
                        SignMasterKey::from_pkcs8_pem(&pem)
                            .expect("re-decode")
                            .to_bytes(),
                        k.to_bytes()
                    );
                }
                if let Ok(k) = EncUserKey::from_pkcs8_pem(text) {
                    let pem = k.to_pkcs8_pem().expect("encode");
                    assert_eq!(
                        EncUserKey::from_pkcs8_pem(&pem)
                            .expect("re-decode")
                            .de_bytes(),
                        k.de_bytes()
                    );
                }
                if SignUserKey::from_encrypted_pem(text, sm_fuzz::PASSWORD).is_ok() {
                    assert!(SignUserKey::from_encrypted_pem(text, b"not the password").is_err());
                }
            }
        }
        // A valid encrypted key, XOR-patched and possibly cut (selector bit 7 and the next byte).
        _ => {
            let e = sm_fuzz::encrypted();
            let alice = || sm_fuzz::sm9().alice_sign.ds_bytes();
            let (keep, patch) = match (sel & 0x80 != 0, rest.split_first()) {
                (true, Some((&k, p))) => (Some(usize::from(k)), p),
                _ => (None, rest),
            };
            let (der, same) = sm_fuzz::mutate(&e.sm9_der, patch, keep);
            let r = SignUserKey::from_encrypted_pkcs8_der(&der, sm_fuzz::PASSWORD);
            if same {
                assert_eq!(r.expect("the valid key").ds_bytes(), alice());
            }
            let (pem, same) = sm_fuzz::mutate(e.sm9_pem.as_bytes(), patch, keep);
            if let Ok(text) = std::str::from_utf8(&pem) {
                let r = SignUserKey::from_encrypted_pem(text, sm_fuzz::PASSWORD);
                if same {
                    assert_eq!(r.expect("the valid key").ds_bytes(), alice());
                }
            }
        }
    }
});
