//! SM9 point decoders: G1 (encryption master public key, ephemeral point, KEM encapsulation)
//! and G2 (signature master public key): off-curve, out-of-subgroup, infinity, wrong tags.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let g1 = sm9::EncMasterPublicKey::from_bytes(data).is_ok();
    assert_eq!(sm9::EphemeralPoint::from_bytes(data).is_ok(), g1);
    if let Ok(c) = sm9::EncapsulatedKey::from_bytes(data) {
        assert!(g1);
        assert_eq!(&c.to_bytes()[..], data);
        let der = c.to_der().expect("encode");
        assert_eq!(
            sm9::EncapsulatedKey::from_der(&der)
                .expect("re-decode")
                .to_bytes(),
            c.to_bytes()
        );
    }
    if let Ok(c) = sm9::EncapsulatedKey::from_der(data) {
        assert!(sm9::EncapsulatedKey::from_bytes(&c.to_bytes()).is_ok());
    }
    if let Ok(p) = sm9::SignMasterPublicKey::from_bytes(data) {
        assert_eq!(
            sm9::SignMasterPublicKey::from_bytes(&p.to_bytes()).expect("re-decode"),
            p
        );
    }
});
