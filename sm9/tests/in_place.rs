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
fn empty_messages_round_trip_in_every_mode_format_and_mac() {
    let (master, bob) = keys();
    for mode in MODES {
        for mac in MACS {
            let what = format!("{mode:?} {mac:?}");
            let rng = || ChaCha20Rng::seed_from_u64(5);
            let reference =
                shangmi_sm9::encrypt(&master, b"Bob", b"", mode, mac, &mut rng()).unwrap();
            // KDF stream: empty C2; SM4: one block of padding (and the IV in CBC mode).
            let c2_len = match mode {
                EncryptionMode::KdfStream => 0,
                EncryptionMode::Sm4Ecb => 16,
                _ => 32,
            };
            assert_eq!(reference.c2().len(), c2_len, "{what}");
            assert_eq!(mode.c2_len(0), c2_len, "{what}");
            let mut raw = Vec::new();
            shangmi_sm9::encrypt_in_place(&master, b"Bob", &mut raw, mode, mac, &mut rng())
                .unwrap();
            assert_eq!(raw, reference.to_bytes(), "{what}");
            assert_eq!(raw.len(), 97 + c2_len, "{what}");
            let mut der = Vec::new();
            shangmi_sm9::encrypt_der_in_place(&master, b"Bob", &mut der, mode, mac, &mut rng())
                .unwrap();
            assert_eq!(der, reference.to_der().unwrap(), "{what}");
            // The DER ends with C2's OCTET STRING: `04 00` when C2 is empty.
            if c2_len == 0 {
                assert_eq!(&der[der.len() - 2..], [0x04, 0x00], "{what}");
            }
            // Both encodings decode back to the same ciphertext.
            assert_eq!(
                Ciphertext::from_bytes(mode, &raw).unwrap(),
                reference,
                "{what}"
            );
            assert_eq!(Ciphertext::from_der(&der).unwrap(), reference, "{what}");
            let parts =
                Ciphertext::from_parts(mode, &reference.c1_bytes(), reference.c3(), reference.c2())
                    .unwrap();
            assert_eq!(parts, reference, "{what}");

            // Decryption by all four paths gives the empty message.
            assert!(shangmi_sm9::decrypt(&bob, b"Bob", &reference, mac)
                .unwrap()
                .is_empty());
            let mut buf = raw.clone();
            shangmi_sm9::decrypt_in_place(&bob, b"Bob", &mut buf, mode, mac).unwrap();
            assert!(buf.is_empty(), "{what}");
            let mut buf = der.clone();
            shangmi_sm9::decrypt_der_in_place(&bob, b"Bob", &mut buf, mac).unwrap();
            assert!(buf.is_empty(), "{what}");

            // The other MAC mode, another identity, and every flipped bit are refused.
            let other = if mac == MacMode::Sm3 {
                MacMode::HmacSm3
            } else {
                MacMode::Sm3
            };
            assert_eq!(
                shangmi_sm9::decrypt(&bob, b"Bob", &reference, other).unwrap_err(),
                Error::Decryption,
                "{what}"
            );
            let kgc = shangmi_sm9::EncMasterKey::generate(&mut ChaCha20Rng::seed_from_u64(1));
            let alice = kgc.extract(b"Alice").unwrap().prepare();
            assert_eq!(
                shangmi_sm9::decrypt(&alice, b"Alice", &reference, mac).unwrap_err(),
                Error::Decryption,
                "{what}"
            );
            for i in 0..raw.len() {
                for bit in [0x01u8, 0x80] {
                    let mut buf = raw.clone();
                    buf[i] ^= bit;
                    let r = shangmi_sm9::decrypt_in_place(&bob, b"Bob", &mut buf, mode, mac);
                    assert_rejected(r, &buf, &format!("{what} raw byte {i} bit {bit:#x}"));
                }
            }
            for i in 0..der.len() {
                let mut buf = der.clone();
                buf[i] ^= 0x01;
                if Ciphertext::check_der(&buf).is_ok_and(|m| m != mode) {
                    // EnType is not covered by the MAC (GM/T 0044.4 §7: C3 = MAC(K2, C2)), and
                    // for a one-block C2 ECB's K2 (after a 16-byte K1) is the KDF stream's: the
                    // ECB ciphertext read as a stream one passes the MAC and yields C2 ⊕ K1, 16
                    // bytes that are not the message.
                    assert_eq!((mode, i), (EncryptionMode::Sm4Ecb, 4), "{what}");
                    shangmi_sm9::decrypt_der_in_place(&bob, b"Bob", &mut buf, mac).unwrap();
                    assert_eq!(buf.len(), 16, "{what}");
                    continue;
                }
                let r = shangmi_sm9::decrypt_der_in_place(&bob, b"Bob", &mut buf, mac);
                assert_rejected(r, &buf, &format!("{what} DER byte {i}"));
            }
            // A byte appended to C2 (raw form) breaks the MAC (KDF stream) or the block length.
            let mut buf = raw.clone();
            buf.push(0);
            let r = shangmi_sm9::decrypt_in_place(&bob, b"Bob", &mut buf, mode, mac);
            assert_rejected(r, &buf, &format!("{what} one byte appended"));
        }
    }
    // In the SM4 modes a C2 shorter than the one padding block (or IV and block) is malformed.
    let (c1, c3) = {
        let ct = shangmi_sm9::encrypt(
            &master,
            b"Bob",
            b"",
            EncryptionMode::Sm4Cbc,
            MacMode::Sm3,
            &mut ChaCha20Rng::seed_from_u64(6),
        )
        .unwrap();
        (ct.c1_bytes(), *ct.c3())
    };
    for (mode, c2_len) in [
        (EncryptionMode::Sm4Ecb, 0),
        (EncryptionMode::Sm4Cbc, 0),
        (EncryptionMode::Sm4Cbc, 16),
    ] {
        assert_eq!(
            Ciphertext::from_parts(mode, &c1, &c3, &vec![0u8; c2_len]).unwrap_err(),
            Error::Encoding,
            "{mode:?} C2 of {c2_len} bytes"
        );
    }
}
