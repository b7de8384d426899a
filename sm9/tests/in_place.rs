//! The in-place encryption and decryption paths (`encrypt_in_place`, `encrypt_der_in_place`,
//! `decrypt_in_place`, `decrypt_der_in_place`): byte-identical to `encrypt` / `decrypt` and the
//! `Ciphertext` encodings in every mode and MAC, the GM/T 0044.5 Annex D examples decrypt in
//! place, and every tampered or malformed ciphertext is the opaque error with the buffer emptied.

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use shangmi_sm9::{
    Ciphertext, DecryptionKey, EncryptionMode, Error, MacMode, PreparedEncMasterPublicKey,
};
use sm_testvectors::hex_at;

const MODES: [EncryptionMode; 3] = [
    EncryptionMode::KdfStream,
    EncryptionMode::Sm4Ecb,
    EncryptionMode::Sm4Cbc,
];
const MACS: [MacMode; 2] = [MacMode::Sm3, MacMode::HmacSm3];

fn keys() -> (PreparedEncMasterPublicKey, DecryptionKey) {
    let kgc = shangmi_sm9::EncMasterKey::generate(&mut ChaCha20Rng::seed_from_u64(1));
    (
        kgc.public_key().prepare(),
        kgc.extract(b"Bob").unwrap().prepare(),
    )
}

#[test]
fn in_place_matches_encrypt_and_decrypt_for_random_lengths() {
    let (master, bob) = keys();
    let mut lengths = ChaCha20Rng::seed_from_u64(2);
    for round in 0..8u64 {
        let len = 1 + (lengths.next_u32() % 2000) as usize;
        let mut msg = vec![0u8; len];
        lengths.fill_bytes(&mut msg);
        for mode in MODES {
            for mac in MACS {
                let what = format!("{len} {mode:?} {mac:?}");
                // The same seed gives the same nonce and IV: equal ciphertexts byte for byte.
                let rng = || ChaCha20Rng::seed_from_u64(100 + round);
                let reference =
                    shangmi_sm9::encrypt(&master, b"Bob", &msg, mode, mac, &mut rng()).unwrap();
                let mut raw = msg.clone();
                shangmi_sm9::encrypt_in_place(&master, b"Bob", &mut raw, mode, mac, &mut rng())
                    .unwrap();
                assert_eq!(raw, reference.to_bytes(), "{what}");
                let mut der = Vec::with_capacity(mode.c2_len(len) + shangmi_sm9::DER_OVERHEAD);
                der.extend_from_slice(&msg);
                let cap = der.capacity();
                shangmi_sm9::encrypt_der_in_place(&master, b"Bob", &mut der, mode, mac, &mut rng())
                    .unwrap();
                assert_eq!(der.capacity(), cap, "{what}: no reallocation");
                assert_eq!(der, reference.to_der().unwrap(), "{what}");
                assert_eq!(Ciphertext::check_der(&der), Ok(mode));
                Ciphertext::check_bytes(mode, &raw).unwrap();

                let old = shangmi_sm9::decrypt(&bob, b"Bob", &reference, mac).unwrap();
                assert_eq!(&old[..], &msg[..], "{what}");
                shangmi_sm9::decrypt_in_place(&bob, b"Bob", &mut raw, mode, mac).unwrap();
                assert_eq!(raw, msg, "{what}");
                shangmi_sm9::decrypt_der_in_place(&bob, b"Bob", &mut der, mac).unwrap();
                assert_eq!(der, msg, "{what}");
            }
        }
    }
}

#[test]
fn annex_d_examples_decrypt_in_place() {
    let v = sm_testvectors::sm9();
    let d = |p: &str| hex_at(&v, &format!("/encrypt_annexD/{p}"));
    let kgc = shangmi_sm9::EncMasterKey::from_bytes(&d("ke").try_into().unwrap()).unwrap();
    let bob = kgc.extract(b"Bob").unwrap().prepare();
    let m = d("M_hex");
    let c1 = [&[4u8][..], &d("C1")].concat();
    for (mode, mac, c3, c2) in [
        (
            EncryptionMode::KdfStream,
            MacMode::Sm3,
            "xor_mode/C3=SM3(C2||K2)",
            "xor_mode/C2",
        ),
        (
            EncryptionMode::KdfStream,
            MacMode::HmacSm3,
            "xor_mode/GmSSL_v3_C3=HMAC-SM3(K2,C2)_NONSTANDARD (derived)",
            "xor_mode/C2",
        ),
        (
            EncryptionMode::Sm4Ecb,
            MacMode::Sm3,
            "sm4_ecb_pkcs7_mode/C3=SM3(C2||K2)",
            "sm4_ecb_pkcs7_mode/C2",
        ),
    ] {
        let raw = [&c1[..], &d(c3), &d(c2)].concat();
        let mut buf = raw.clone();
        shangmi_sm9::decrypt_in_place(&bob, b"Bob", &mut buf, mode, mac).unwrap();
        assert_eq!(buf, m, "{mode:?} {mac:?}");
        let mut der = Ciphertext::from_bytes(mode, &raw)
            .unwrap()
            .to_der()
            .unwrap();
        shangmi_sm9::decrypt_der_in_place(&bob, b"Bob", &mut der, mac).unwrap();
        assert_eq!(der, m, "{mode:?} {mac:?} DER");
        // The other MAC, the other identity: rejected.
        let other = if mac == MacMode::Sm3 {
            MacMode::HmacSm3
        } else {
            MacMode::Sm3
        };
        let mut buf = raw.clone();
        let r = shangmi_sm9::decrypt_in_place(&bob, b"Bob", &mut buf, mode, other);
        assert_rejected(r, &buf, "other MAC");
        let mut buf = raw.clone();
        let r = shangmi_sm9::decrypt_in_place(&bob, b"Alice", &mut buf, mode, mac);
        assert_rejected(r, &buf, "other identity");
    }
}

fn assert_rejected(r: shangmi_sm9::Result<()>, buf: &[u8], what: &str) {
    assert_eq!(r, Err(Error::Decryption), "{what}");
    assert!(buf.is_empty(), "{what}: buffer not cleared");
}

#[test]
fn tampering_anywhere_is_the_opaque_error_and_clears_the_buffer() {
    let (master, bob) = keys();
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let msg = b"twenty bytes of text";
    for mode in MODES {
        let mut raw = msg.to_vec();
        shangmi_sm9::encrypt_in_place(&master, b"Bob", &mut raw, mode, MacMode::Sm3, &mut rng)
            .unwrap();
        for i in 0..raw.len() {
            let class = match i {
                0..65 => "C1",
                65..97 => "C3",
                _ => "C2",
            };
            let mut buf = raw.clone();
            buf[i] ^= 0x01;
            let r = shangmi_sm9::decrypt_in_place(&bob, b"Bob", &mut buf, mode, MacMode::Sm3);
            assert_rejected(r, &buf, &format!("{mode:?} {class} byte {i}"));
        }
        for bad in [&raw[..raw.len() - 1], &raw[..97], &raw[..10]] {
            let mut buf = bad.to_vec();
            let r = shangmi_sm9::decrypt_in_place(&bob, b"Bob", &mut buf, mode, MacMode::Sm3);
            assert_rejected(r, &buf, &format!("{mode:?} truncated to {}", bad.len()));
        }
        let mut der = msg.to_vec();
        shangmi_sm9::encrypt_der_in_place(&master, b"Bob", &mut der, mode, MacMode::Sm3, &mut rng)
            .unwrap();
        for i in 0..der.len() {
            let mut buf = der.clone();
            buf[i] ^= 0x01;
            let r = shangmi_sm9::decrypt_der_in_place(&bob, b"Bob", &mut buf, MacMode::Sm3);
            assert_rejected(r, &buf, &format!("{mode:?} DER byte {i}"));
        }
    }
}

#[test]
fn encrypting_an_empty_buffer_is_refused_and_leaves_it_alone() {
    let (master, _) = keys();
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let mut buf = Vec::new();
    for mode in MODES {
        assert_eq!(
            shangmi_sm9::encrypt_in_place(&master, b"Bob", &mut buf, mode, MacMode::Sm3, &mut rng),
            Err(Error::EmptyPlaintext)
        );
        assert_eq!(
            shangmi_sm9::encrypt_der_in_place(
                &master,
                b"Bob",
                &mut buf,
                mode,
                MacMode::Sm3,
                &mut rng
            ),
            Err(Error::EmptyPlaintext)
        );
    }
    assert!(buf.is_empty());
}
