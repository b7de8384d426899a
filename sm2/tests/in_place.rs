//! The in-place encryption and decryption paths (`encrypt_in_place`, `encrypt_der_in_place`,
//! `decrypt_in_place`, `decrypt_der_in_place`): byte-identical to the allocating functions and
//! to the `Ciphertext` encodings, the GB/T 32918.5 known answers decrypt in place, and every
//! tampered or malformed ciphertext is the opaque error with the buffer emptied.

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use shangmi_sm2::{Ciphertext, Error, Mode, SecretKey};
use sm_testvectors::hex_at;

const MODES: [Mode; 2] = [Mode::C1C3C2, Mode::C1C2C3];

fn key(seed: u64) -> SecretKey {
    SecretKey::random(&mut ChaCha20Rng::seed_from_u64(seed))
}

#[test]
fn in_place_matches_the_allocating_functions_for_random_lengths() {
    let sk = key(1);
    let pk = sk.public_key();
    let mut lengths = ChaCha20Rng::seed_from_u64(2);
    for round in 0..40u64 {
        let len = 1 + (lengths.next_u32() % 2000) as usize;
        let mut msg = vec![0u8; len];
        lengths.fill_bytes(&mut msg);
        // The same seed gives the same k, so the ciphertexts must be equal byte for byte.
        let rng = || ChaCha20Rng::seed_from_u64(100 + round);
        let reference = pk.encrypt_to_ciphertext(&mut rng(), &msg).unwrap();
        for mode in MODES {
            let mut buf = msg.clone();
            pk.encrypt_in_place(&mut rng(), &mut buf, mode).unwrap();
            assert_eq!(buf, pk.encrypt(&mut rng(), &msg, mode).unwrap(), "{len}");
            assert_eq!(buf, reference.to_bytes(mode), "{len} {mode:?}");
            let ct = buf.clone();
            sk.decrypt_in_place(&mut buf, mode).unwrap();
            assert_eq!(buf, msg);
            assert_eq!(sk.decrypt(&ct, mode).unwrap().as_slice(), &msg[..]);
            let cc = Ciphertext::from_bytes(&ct, mode).unwrap();
            assert_eq!(sk.decrypt_ciphertext(&cc).unwrap().as_slice(), &msg[..]);
        }
        let mut buf = Vec::with_capacity(len + shangmi_sm2::DER_OVERHEAD);
        buf.extend_from_slice(&msg);
        let cap = buf.capacity();
        pk.encrypt_der_in_place(&mut rng(), &mut buf).unwrap();
        assert_eq!(
            buf.capacity(),
            cap,
            "DER_OVERHEAD suffices: no reallocation"
        );
        assert_eq!(buf, reference.to_der().unwrap());
        assert_eq!(buf, pk.encrypt_der(&mut rng(), &msg).unwrap());
        Ciphertext::check_der(&buf).unwrap();
        sk.decrypt_der_in_place(&mut buf).unwrap();
        assert_eq!(buf, msg);
    }
}

#[test]
fn gbt_32918_5_vectors_decrypt_in_place() {
    let v = sm_testvectors::sm2_sm3();
    let g = &v["sm2_encrypt_recommended"];
    let sk = SecretKey::from_bytes(&hex_at(g, "/dB").try_into().unwrap()).unwrap();
    let msg = hex_at(g, "/msg_hex");
    for (path, mode) in [
        ("/ciphertext_raw_C1C3C2", Mode::C1C3C2),
        ("/ciphertext_raw_C1C2C3", Mode::C1C2C3),
    ] {
        let mut buf = hex_at(g, path);
        Ciphertext::check_bytes(&buf, mode).unwrap();
        sk.decrypt_in_place(&mut buf, mode).unwrap();
        assert_eq!(buf, msg, "{path}");
        // C1 compressed on input.
        let c = Ciphertext::from_bytes(&hex_at(g, path), mode).unwrap();
        let mut buf = c.with_c1_compressed(true).unwrap().to_bytes(mode);
        assert_eq!(buf.len(), 33 + 32 + msg.len());
        sk.decrypt_in_place(&mut buf, mode).unwrap();
        assert_eq!(buf, msg);
    }
    let mut buf = hex_at(g, "/ciphertext_der_gmt0009");
    sk.decrypt_der_in_place(&mut buf).unwrap();
    assert_eq!(buf, msg);
}

/// Decrypts `ct` in place and asserts the opaque error with the buffer emptied.
fn assert_rejected(r: Result<(), Error>, buf: &[u8], what: &str) {
    assert_eq!(r, Err(Error::Decryption), "{what}");
    assert!(buf.is_empty(), "{what}: buffer not cleared");
}

#[test]
fn tampering_anywhere_is_the_opaque_error_and_clears_the_buffer() {
    let sk = key(3);
    let msg = b"twenty bytes of text".to_vec();
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    for mode in MODES {
        let ct = sk.public_key().encrypt(&mut rng, &msg, mode).unwrap();
        // Every byte: C1 (0..65), then C3 and C2 in the mode's order.
        for i in 0..ct.len() {
            let class = match (i, mode) {
                (0..65, _) => "C1",
                (65..97, Mode::C1C3C2) => "C3",
                (_, Mode::C1C3C2) => "C2",
                (_, _) if i >= ct.len() - 32 => "C3",
                _ => "C2",
            };
            let mut buf = ct.clone();
            buf[i] ^= 0x01;
            let r = sk.decrypt_in_place(&mut buf, mode);
            assert_rejected(r, &buf, &format!("{mode:?} {class} byte {i}"));
        }
        // Truncated, extended, wrong order, wrong key.
        let mut buf = ct[..ct.len() - 1].to_vec();
        let r = sk.decrypt_in_place(&mut buf, mode);
        assert_rejected(r, &buf, "truncated");
        let mut buf = [&ct[..], &[0]].concat();
        let r = sk.decrypt_in_place(&mut buf, mode);
        assert_rejected(r, &buf, "extended");
        let other = if mode == Mode::C1C3C2 {
            Mode::C1C2C3
        } else {
            Mode::C1C3C2
        };
        let mut buf = ct.clone();
        let r = sk.decrypt_in_place(&mut buf, other);
        assert_rejected(r, &buf, "other order");
        let mut buf = ct.clone();
        let r = key(5).decrypt_in_place(&mut buf, mode);
        assert_rejected(r, &buf, "wrong key");
    }
    // Malformed framing: empty, bad C1 prefix, no C2.
    for bad in [vec![], vec![5u8; 120], [&[4u8; 97][..]].concat()] {
        let mut buf = bad.clone();
        let r = sk.decrypt_in_place(&mut buf, Mode::C1C3C2);
        assert_rejected(r, &buf, "malformed");
        assert_eq!(
            Ciphertext::check_bytes(&bad, Mode::C1C3C2),
            Err(Error::Encoding)
        );
    }
    // DER: every byte of the encoding (framing, x, y, C3, C2).
    let der = sk.public_key().encrypt_der(&mut rng, &msg).unwrap();
    for i in 0..der.len() {
        let mut buf = der.clone();
        buf[i] ^= 0x01;
        let r = sk.decrypt_der_in_place(&mut buf);
        assert_rejected(r, &buf, &format!("DER byte {i}"));
    }
    let mut buf = der[..der.len() - 1].to_vec();
    let r = sk.decrypt_der_in_place(&mut buf);
    assert_rejected(r, &buf, "truncated DER");
}

#[test]
fn encrypting_an_empty_buffer_is_refused_and_leaves_it_alone() {
    let pk = *key(6).public_key();
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let mut buf = Vec::new();
    assert_eq!(
        pk.encrypt_in_place(&mut rng, &mut buf, Mode::C1C3C2),
        Err(Error::EmptyPlaintext)
    );
    assert_eq!(
        pk.encrypt_der_in_place(&mut rng, &mut buf),
        Err(Error::EmptyPlaintext)
    );
    assert!(buf.is_empty());
}
