//! The optional `serde` impls (feature `serde`; `cargo xtask test` switches it on): hex strings
//! in JSON, bytes in a binary format (CBOR via `ciborium`), the bytes of the inherent encoders,
//! and the byte decoders' validation (points in G1/G2, scalars in range) on the way in.
#![cfg(feature = "serde")]

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde::{de::DeserializeOwned, Serialize};
use shangmi_sm9::{
    Ciphertext, EncMasterKey, EncMasterPublicKey, EncapsulatedKey, EncryptionMode, MacMode,
    SignMasterKey, SignMasterPublicKey, Signature,
};

fn json_roundtrip<T: Serialize + DeserializeOwned + PartialEq + core::fmt::Debug>(
    v: &T,
    bytes: &[u8],
) {
    let json = serde_json::to_string(v).unwrap();
    assert_eq!(json, format!("\"{}\"", hex::encode(bytes)));
    assert_eq!(&serde_json::from_str::<T>(&json).unwrap(), v);
}

fn cbor_roundtrip<T: Serialize + DeserializeOwned + PartialEq + core::fmt::Debug>(
    v: &T,
    bytes: &[u8],
) {
    let mut out = Vec::new();
    ciborium::into_writer(v, &mut out).unwrap();
    let mut want = Vec::new();
    ciborium::into_writer(&ciborium::Value::Bytes(bytes.to_vec()), &mut want).unwrap();
    assert_eq!(out, want);
    assert_eq!(&ciborium::from_reader::<T, _>(&out[..]).unwrap(), v);
}

/// Both formats refuse `bytes`.
fn rejects<T: DeserializeOwned>(bytes: &[u8]) -> bool {
    let mut buf = Vec::new();
    ciborium::into_writer(&ciborium::Value::Bytes(bytes.to_vec()), &mut buf).unwrap();
    serde_json::from_str::<T>(&format!("\"{}\"", hex::encode(bytes))).is_err()
        && ciborium::from_reader::<T, _>(&buf[..]).is_err()
}

#[test]
fn values_round_trip_as_hex_and_bytes() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let skgc = SignMasterKey::generate(&mut rng);
    let spub: &SignMasterPublicKey = skgc.public_key();
    json_roundtrip(spub, &spub.to_bytes());
    cbor_roundtrip(spub, &spub.to_bytes());
    let ekgc = EncMasterKey::generate(&mut rng);
    let epub: &EncMasterPublicKey = ekgc.public_key();
    json_roundtrip(epub, &epub.to_bytes());
    cbor_roundtrip(epub, &epub.to_bytes());

    let alice = skgc.extract(b"Alice").unwrap();
    let master = spub.prepare();
    let sig: Signature = shangmi_sm9::sign(&alice, &master, b"message", &mut rng).unwrap();
    json_roundtrip(&sig, &sig.to_bytes());
    cbor_roundtrip(&sig, &sig.to_bytes());
    let back: Signature = serde_json::from_str(&serde_json::to_string(&sig).unwrap()).unwrap();
    shangmi_sm9::verify(&master, b"Alice", b"message", &back).unwrap();

    let emaster = epub.prepare();
    let bob = ekgc.extract(b"Bob").unwrap().prepare();
    for (mode, msg) in [
        (EncryptionMode::KdfStream, &b"secret"[..]),
        (EncryptionMode::Sm4Cbc, &b""[..]),
    ] {
        let ct: Ciphertext =
            shangmi_sm9::encrypt(&emaster, b"Bob", msg, mode, MacMode::Sm3, &mut rng).unwrap();
        let der = ct.to_der().unwrap();
        json_roundtrip(&ct, &der);
        cbor_roundtrip(&ct, &der);
        let back: Ciphertext = serde_json::from_str(&serde_json::to_string(&ct).unwrap()).unwrap();
        assert_eq!(back.mode(), mode);
        assert_eq!(
            &shangmi_sm9::decrypt(&bob, b"Bob", &back, MacMode::Sm3).unwrap()[..],
            msg
        );
    }

    let (key, c) = shangmi_sm9::encapsulate(&emaster, b"Bob", 32, &mut rng).unwrap();
    json_roundtrip(&c, &c.to_bytes());
    cbor_roundtrip(&c, &c.to_bytes());
    let back: EncapsulatedKey = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
    assert_eq!(
        shangmi_sm9::decapsulate(&bob, b"Bob", &back, 32).unwrap(),
        key
    );
}

#[test]
fn invalid_encodings_are_rejected() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let skgc = SignMasterKey::generate(&mut rng);
    let ekgc = EncMasterKey::generate(&mut rng);
    // Points off the curve, truncated, or of the other group.
    let mut s = skgc.public_key().to_bytes();
    s[128] ^= 1;
    assert!(rejects::<SignMasterPublicKey>(&s));
    assert!(rejects::<SignMasterPublicKey>(
        &skgc.public_key().to_bytes()[..128]
    ));
    assert!(rejects::<SignMasterPublicKey>(
        &ekgc.public_key().to_bytes()
    ));
    let mut e = ekgc.public_key().to_bytes();
    e[64] ^= 1;
    assert!(rejects::<EncMasterPublicKey>(&e));
    assert!(rejects::<EncapsulatedKey>(&e));
    assert!(rejects::<EncMasterPublicKey>(&skgc.public_key().to_bytes()));
    // A signature with h = 0 or S off the curve.
    let alice = skgc.extract(b"Alice").unwrap();
    let sig = shangmi_sm9::sign(&alice, &skgc.public_key().prepare(), b"m", &mut rng)
        .unwrap()
        .to_bytes();
    let mut h0 = sig;
    h0[..32].fill(0);
    let mut s_off = sig;
    let n = s_off.len();
    s_off[n - 1] ^= 1;
    assert!(rejects::<Signature>(&h0));
    assert!(rejects::<Signature>(&s_off));
    // A ciphertext with an unknown EnType, a raw (non-DER) form, trailing data.
    let emaster = ekgc.public_key().prepare();
    let ct = shangmi_sm9::encrypt(
        &emaster,
        b"Bob",
        b"hi",
        EncryptionMode::KdfStream,
        MacMode::Sm3,
        &mut rng,
    )
    .unwrap();
    let mut der = ct.to_der().unwrap();
    assert_eq!(&der[2..5], [2, 1, 0]);
    der[4] = 7;
    assert!(rejects::<Ciphertext>(&der));
    assert!(rejects::<Ciphertext>(&ct.to_bytes()));
    let mut long = ct.to_der().unwrap();
    long.push(0);
    assert!(rejects::<Ciphertext>(&long));
}
