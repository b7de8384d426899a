//! The optional `serde` impls (feature `serde`; `cargo xtask test` switches it on): hex strings
//! in JSON, bytes in a binary format (CBOR via `ciborium`), the bytes of the inherent encoders,
//! and the byte decoders' validation on the way in.
#![cfg(feature = "serde")]

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde::{de::DeserializeOwned, Serialize};
use shangmi_sm2::{Ciphertext, Mode, PublicKey, SecretKey, Signature, SigningKey};

/// JSON: a lower-case hex string of `bytes`; back to an equal value.
fn json_roundtrip<T: Serialize + DeserializeOwned + PartialEq + core::fmt::Debug>(
    v: &T,
    bytes: &[u8],
) {
    let json = serde_json::to_string(v).unwrap();
    assert_eq!(json, format!("\"{}\"", hex::encode(bytes)));
    assert_eq!(&serde_json::from_str::<T>(&json).unwrap(), v);
    // Upper-case hex is read too.
    let upper = format!("\"{}\"", hex::encode_upper(bytes));
    assert_eq!(&serde_json::from_str::<T>(&upper).unwrap(), v);
}

/// CBOR: a byte string of `bytes`; back to an equal value.
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

fn json_rejects<T: DeserializeOwned>(bytes: &[u8]) -> bool {
    serde_json::from_str::<T>(&format!("\"{}\"", hex::encode(bytes))).is_err()
}

fn cbor_rejects<T: DeserializeOwned>(bytes: &[u8]) -> bool {
    let mut buf = Vec::new();
    ciborium::into_writer(&ciborium::Value::Bytes(bytes.to_vec()), &mut buf).unwrap();
    ciborium::from_reader::<T, _>(&buf[..]).is_err()
}

#[test]
fn values_round_trip_as_hex_and_bytes() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let sk = SecretKey::random(&mut rng);
    let pk: PublicKey = *sk.public_key();
    json_roundtrip(&pk, &pk.to_uncompressed());
    cbor_roundtrip(&pk, &pk.to_uncompressed());
    // The compressed form is accepted on input (as `from_sec1_bytes` accepts it).
    let c = format!("\"{}\"", hex::encode(pk.to_compressed()));
    assert_eq!(serde_json::from_str::<PublicKey>(&c).unwrap(), pk);

    let sig: Signature = SigningKey::new(&sk).sign_with_rng(&mut rng, b"message");
    json_roundtrip(&sig, &sig.to_bytes());
    cbor_roundtrip(&sig, &sig.to_bytes());

    let raw = pk.encrypt(&mut rng, b"secret", Mode::C1C3C2).unwrap();
    let ct = Ciphertext::from_bytes(&raw, Mode::C1C3C2).unwrap();
    assert_eq!(ct.to_bytes(Mode::C1C3C2), raw);
    json_roundtrip(&ct, &raw);
    cbor_roundtrip(&ct, &raw);
    let back: Ciphertext = serde_json::from_str(&serde_json::to_string(&ct).unwrap()).unwrap();
    assert_eq!(
        sk.decrypt(&back.to_bytes(Mode::C1C3C2), Mode::C1C3C2)
            .unwrap()
            .as_slice(),
        b"secret"
    );
}

#[test]
fn invalid_encodings_are_rejected() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let sk = SecretKey::random(&mut rng);
    let pk = sk.public_key().to_uncompressed();
    // A point off the curve, the wrong length, an unknown prefix.
    let mut off = pk;
    off[64] ^= 1;
    for bad in [&off[..], &pk[..64], &[0u8; 65][..]] {
        assert!(json_rejects::<PublicKey>(bad));
        assert!(cbor_rejects::<PublicKey>(bad));
    }
    // Not hex, odd length.
    assert!(serde_json::from_str::<PublicKey>("\"zz\"").is_err());
    assert!(serde_json::from_str::<PublicKey>(&format!("\"{}0\"", hex::encode(pk))).is_err());
    // r = 0, s = n, wrong length.
    let sig = SigningKey::new(&sk)
        .sign_with_rng(&mut rng, b"m")
        .to_bytes();
    let mut r0 = sig;
    r0[..32].fill(0);
    let n =
        hex::decode("FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54123").unwrap();
    let mut sn = sig;
    sn[32..].copy_from_slice(&n);
    for bad in [&r0[..], &sn[..], &sig[..63]] {
        assert!(json_rejects::<Signature>(bad));
        assert!(cbor_rejects::<Signature>(bad));
    }
    // A ciphertext with no C2, or a C1 with an unknown prefix.
    let ct = sk
        .public_key()
        .encrypt(&mut rng, b"x", Mode::C1C3C2)
        .unwrap();
    let mut bad_c1 = ct.clone();
    bad_c1[0] = 5;
    for bad in [&ct[..97], &bad_c1[..]] {
        assert!(json_rejects::<Ciphertext>(bad));
        assert!(cbor_rejects::<Ciphertext>(bad));
    }
}
