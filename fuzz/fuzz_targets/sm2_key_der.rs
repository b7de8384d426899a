//! SM2 key decoders: raw scalar, SEC1 ECPrivateKey DER, PKCS#8 DER, SPKI DER, SEC1 points.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sm2::pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey};
use sm2::{PublicKey, SecretKey};

fuzz_target!(|data: &[u8]| {
    if let Ok(k) = SecretKey::from_slice(data) {
        assert_eq!(&k.to_bytes()[..], data);
    }
    if let Ok(k) = SecretKey::from_sec1_der(data) {
        let again =
            SecretKey::from_sec1_der(&k.to_sec1_der().expect("encode")).expect("round trip");
        assert_eq!(again.to_bytes(), k.to_bytes());
    }
    if let Ok(k) = SecretKey::from_pkcs8_der(data) {
        let der = k.to_pkcs8_der().expect("encode");
        assert_eq!(
            SecretKey::from_pkcs8_der(der.as_bytes())
                .expect("round trip")
                .to_bytes(),
            k.to_bytes()
        );
    }
    if let Ok(p) = PublicKey::from_public_key_der(data) {
        assert_eq!(
            PublicKey::from_sec1_bytes(&p.to_uncompressed()).expect("re-decode"),
            p
        );
    }
    if let Ok(p) = PublicKey::from_sec1_bytes(data) {
        // Compressed and uncompressed forms decode to the same point.
        assert_eq!(
            PublicKey::from_sec1_bytes(&p.to_compressed()).expect("compressed"),
            p
        );
        assert_eq!(
            PublicKey::from_sec1_bytes(&p.to_uncompressed()).expect("uncompressed"),
            p
        );
    }
});
