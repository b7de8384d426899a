//! Tamper and edge suites over the public SM9 API (issue 9). `reject.rs` flips *random* bits;
//! here every bit of every artefact is flipped, every truncation and a run of extensions is
//! tried, and the scalar, point and identity-length edges are pinned to exact typed outcomes:
//! GM/T 0044.2 §6.1 / .4 §6.1 (master secrets in [1, n − 1]), .2 §7.1 B1–B2 (h ∈ [1, n − 1],
//! S ∈ G1), .4 §7.2 B1 (C1 ∈ G1), .3 §7.2 (RA, RB ∈ G1), and the G2 encodings checked for
//! membership in the order-n subgroup (the twist E'(Fp²) has a large cofactor).

use proptest::prelude::*;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use shangmi_sm9::hazmat;
use shangmi_sm9::{EncryptionMode, Error, MacMode};
use sm_field::{Field, Fp2};
use std::sync::OnceLock;

type Fp = sm_field::Fp<sm_field::Sm9P>;

const N: &str = "B640000002A3A6F1D603AB4FF58EC74449F2934B18EA8BEEE56EE19CD69ECF25";
const N_PLUS_1: &str = "B640000002A3A6F1D603AB4FF58EC74449F2934B18EA8BEEE56EE19CD69ECF26";
const N_MINUS_1: &str = "B640000002A3A6F1D603AB4FF58EC74449F2934B18EA8BEEE56EE19CD69ECF24";
const P: &str = "B640000002A3A6F1D603AB4FF58EC74521F2934B1A7AEEDBE56F9B27E351457D";
const MAX: &str = "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF";
/// n as little-endian 64-bit limbs (for an independent n·Q = O test).
const N_LIMBS: [u64; 4] = [
    0xE56E_E19C_D69E_CF25,
    0x49F2_934B_18EA_8BEE,
    0xD603_AB4F_F58E_C744,
    0xB640_0000_02A3_A6F1,
];

fn h32(s: &str) -> [u8; 32] {
    sm_testvectors::hex(s).try_into().unwrap()
}

fn small(v: u8) -> [u8; 32] {
    let mut b = [0u8; 32];
    b[31] = v;
    b
}

/// `a + b` on 32-byte big-endian numbers (no overflow in the uses here).
fn add_be(a: &[u8; 32], b: &[u8; 32]) -> [u8; 32] {
    let mut out = [0u8; 32];
    let mut carry = 0u16;
    for i in (0..32).rev() {
        let s = a[i] as u16 + b[i] as u16 + carry;
        out[i] = s as u8;
        carry = s >> 8;
    }
    assert_eq!(carry, 0);
    out
}

/// `bytes` with bit `i` (0 = MSB of byte 0) flipped.
fn flip(bytes: &[u8], i: usize) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[i / 8] ^= 0x80 >> (i % 8);
    b
}

/// `bytes` extended by 1..=16 bytes (zeros and 0xA5), and by a copy of itself.
fn extensions(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for n in 1..=16 {
        for fill in [0u8, 0xA5] {
            let mut b = bytes.to_vec();
            b.extend(std::iter::repeat_n(fill, n));
            v.push(b);
        }
    }
    v.push([bytes, bytes].concat());
    v
}

/// Every strict prefix, every extension of `bytes`.
fn resized(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = (0..bytes.len()).map(|l| bytes[..l].to_vec()).collect();
    v.extend(extensions(bytes));
    v
}

/// Asserts `r` is one of the decoding errors in `allowed`.
#[track_caller]
fn assert_err_in<T>(r: Result<T, Error>, allowed: &[Error], what: &str) {
    match r {
        Ok(_) => panic!("{what}: accepted"),
        Err(e) => assert!(allowed.contains(&e), "{what}: {e:?} not in {allowed:?}"),
    }
}

const DECODE: &[Error] = &[Error::Encoding, Error::InvalidPoint, Error::InvalidScalar];

struct Fixture {
    sign_kgc: shangmi_sm9::SignMasterKey,
    sign_master: shangmi_sm9::PreparedSignMasterPublicKey,
    alice: shangmi_sm9::SignUserKey,
    msg: Vec<u8>,
    sig: shangmi_sm9::Signature,
    enc_kgc: shangmi_sm9::EncMasterKey,
    enc_master: shangmi_sm9::PreparedEncMasterPublicKey,
    bob: shangmi_sm9::EncUserKey,
    bob_dec: shangmi_sm9::DecryptionKey,
    x_alice: shangmi_sm9::ExchangeKey,
    x_bob: shangmi_sm9::ExchangeKey,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let mut rng = ChaCha20Rng::seed_from_u64(0x7A3);
        let sign_kgc = shangmi_sm9::SignMasterKey::generate(&mut rng);
        let sign_master = sign_kgc.public_key().prepare();
        let alice = sign_kgc.extract(b"Alice").unwrap();
        let msg = b"tamper-edge".to_vec();
        let sig = shangmi_sm9::sign(&alice, &sign_master, &msg, &mut rng).unwrap();
        let enc_kgc = shangmi_sm9::EncMasterKey::generate(&mut rng);
        let enc_master = enc_kgc.public_key().prepare();
        let bob = enc_kgc.extract(b"Bob").unwrap();
        let bob_dec = bob.prepare();
        let x_alice = enc_kgc.extract_exchange(b"Alice").unwrap().prepare();
        let x_bob = enc_kgc.extract_exchange(b"Bob").unwrap().prepare();
        Fixture {
            sign_kgc,
            sign_master,
            alice,
            msg,
            sig,
            enc_kgc,
            enc_master,
            bob,
            bob_dec,
            x_alice,
            x_bob,
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Signatures
// ---------------------------------------------------------------------------------------------

#[test]
fn every_bit_of_signatures_and_messages() {
    let f = fixture();
    let verify =
        |s: &shangmi_sm9::Signature, m: &[u8]| shangmi_sm9::verify(&f.sign_master, b"Alice", m, s);
    verify(&f.sig, &f.msg).unwrap();
    let raw = f.sig.to_bytes();
    let der = f.sig.to_der().unwrap();
    for (name, bytes) in [("raw", &raw[..]), ("der", &der[..])] {
        let parse = |b: &[u8]| {
            if name == "raw" {
                shangmi_sm9::Signature::from_bytes(b)
            } else {
                shangmi_sm9::Signature::from_der(b)
            }
        };
        for i in 0..bytes.len() * 8 {
            match parse(&flip(bytes, i)) {
                // A flip in h gives another h in [1, n − 1] (or not); a flip in S leaves the
                // curve, so only h-flips get this far.
                Ok(s) => {
                    assert_ne!(s, f.sig);
                    assert_eq!(
                        verify(&s, &f.msg),
                        Err(Error::Verification),
                        "{name} bit {i}"
                    );
                }
                Err(e) => assert!(DECODE.contains(&e), "{name} bit {i}: {e:?}"),
            }
        }
        for t in resized(bytes) {
            assert_eq!(
                parse(&t).unwrap_err(),
                Error::Encoding,
                "{name} len {}",
                t.len()
            );
        }
    }
    for i in 0..f.msg.len() * 8 {
        assert_eq!(verify(&f.sig, &flip(&f.msg, i)), Err(Error::Verification));
    }
    for t in resized(&f.msg) {
        assert_eq!(verify(&f.sig, &t), Err(Error::Verification));
    }
    // Every bit of the signer's identity.
    for i in 0..5 * 8 {
        assert_eq!(
            shangmi_sm9::verify(&f.sign_master, &flip(b"Alice", i), &f.msg, &f.sig),
            Err(Error::Verification)
        );
    }
}

#[test]
fn signature_scalar_edges() {
    let f = fixture();
    let s = f.sig.s_bytes();
    for h in [[0u8; 32], h32(N), h32(N_PLUS_1), h32(MAX)] {
        assert_eq!(
            shangmi_sm9::Signature::from_parts(&h, &s).unwrap_err(),
            Error::InvalidScalar
        );
        let raw = [&h[..], &s[..]].concat();
        assert_eq!(
            shangmi_sm9::Signature::from_bytes(&raw).unwrap_err(),
            Error::InvalidScalar
        );
        // The DER form: h is an OCTET STRING, so its value is range checked the same way.
        let mut der = f.sig.to_der().unwrap();
        let pos = der.windows(32).position(|w| w == f.sig.h_bytes()).unwrap();
        der[pos..pos + 32].copy_from_slice(&h);
        assert_eq!(
            shangmi_sm9::Signature::from_der(&der).unwrap_err(),
            Error::InvalidScalar
        );
    }
    for h in [small(1), h32(N_MINUS_1)] {
        let sig = shangmi_sm9::Signature::from_parts(&h, &s).unwrap();
        assert_eq!(
            shangmi_sm9::Signature::from_der(&sig.to_der().unwrap()).unwrap(),
            sig
        );
        assert_eq!(
            shangmi_sm9::verify(&f.sign_master, b"Alice", &f.msg, &sig),
            Err(Error::Verification)
        );
    }
    // h of the wrong length.
    for l in [0, 31, 33] {
        assert_eq!(
            shangmi_sm9::Signature::from_parts(&vec![1; l], &s).unwrap_err(),
            Error::Encoding
        );
    }
    // Signing nonces r: 0 and ≥ n are rejected, 1 and n − 1 sign verifiable signatures.
    for r in [[0u8; 32], h32(N), h32(N_PLUS_1), h32(MAX)] {
        assert_eq!(
            hazmat::sign_with_nonce(&f.alice, &f.sign_master, &f.msg, &r).unwrap_err(),
            Error::InvalidScalar
        );
    }
    for r in [small(1), h32(N_MINUS_1)] {
        let sig = hazmat::sign_with_nonce(&f.alice, &f.sign_master, &f.msg, &r).unwrap();
        shangmi_sm9::verify(&f.sign_master, b"Alice", &f.msg, &sig).unwrap();
    }
}

// ---------------------------------------------------------------------------------------------
// Ciphertexts and KEM
// ---------------------------------------------------------------------------------------------

#[test]
fn every_bit_of_ciphertexts() {
    let f = fixture();
    let pt = b"seventeen bytes!!";
    let cases = [
        (EncryptionMode::KdfStream, MacMode::Sm3),
        (EncryptionMode::Sm4Ecb, MacMode::HmacSm3),
        (EncryptionMode::Sm4Cbc, MacMode::Sm3),
    ];
    for (k, (mode, mac)) in cases.into_iter().enumerate() {
        let ct = hazmat::encrypt_with_nonce(
            &f.enc_master,
            b"Bob",
            pt,
            mode,
            mac,
            &small(k as u8 + 2),
            &[k as u8; 16],
        )
        .unwrap();
        let dec = |c: &shangmi_sm9::Ciphertext| {
            shangmi_sm9::decrypt(&f.bob_dec, b"Bob", c, mac).map(|m| m.to_vec())
        };
        assert_eq!(dec(&ct).unwrap(), pt);
        // The other MAC mode fails.
        let other = if mac == MacMode::Sm3 {
            MacMode::HmacSm3
        } else {
            MacMode::Sm3
        };
        assert_eq!(
            shangmi_sm9::decrypt(&f.bob_dec, b"Bob", &ct, other).unwrap_err(),
            Error::Decryption
        );
        let raw = ct.to_bytes();
        let der = ct.to_der().unwrap();
        for (name, bytes) in [("raw", &raw), ("der", &der)] {
            let parse = |b: &[u8]| {
                if name == "raw" {
                    shangmi_sm9::Ciphertext::from_bytes(mode, b)
                } else {
                    shangmi_sm9::Ciphertext::from_der(b)
                }
            };
            let check = |b: &[u8], what: &str| match parse(b) {
                // Flips in C3 or C2 (or an EnType flip to another valid mode) parse and must
                // fail the MAC; flips in C1 leave the curve.
                Ok(t) => assert_eq!(dec(&t), Err(Error::Decryption), "{mode:?} {name} {what}"),
                Err(e) => assert!(
                    DECODE.contains(&e) || e == Error::UnknownAlgorithm,
                    "{mode:?} {name} {what}: {e:?}"
                ),
            };
            for i in 0..bytes.len() * 8 {
                check(&flip(bytes, i), &format!("bit {i}"));
            }
            for t in resized(bytes) {
                check(&t, &format!("len {}", t.len()));
            }
        }
        // The wrong identity.
        assert_eq!(
            shangmi_sm9::decrypt(&f.bob_dec, b"Bob\0", &ct, mac).unwrap_err(),
            Error::Decryption
        );
        assert_eq!(
            shangmi_sm9::decrypt(&f.bob_dec, b"", &ct, mac).unwrap_err(),
            Error::Decryption
        );
    }
}

#[test]
fn every_bit_of_kem_encapsulations() {
    let f = fixture();
    let (k, c) = hazmat::encapsulate_with_nonce(&f.enc_master, b"Bob", 32, &small(9)).unwrap();
    assert_eq!(
        shangmi_sm9::decapsulate(&f.bob_dec, b"Bob", &c, 32).unwrap(),
        k
    );
    let raw = c.to_bytes();
    let der = c.to_der().unwrap();
    for (name, bytes) in [("raw", &raw[..]), ("der", &der[..])] {
        let parse = |b: &[u8]| {
            if name == "raw" {
                shangmi_sm9::EncapsulatedKey::from_bytes(b)
            } else {
                shangmi_sm9::EncapsulatedKey::from_der(b)
            }
        };
        for i in 0..bytes.len() * 8 {
            match parse(&flip(bytes, i)) {
                // The KEM has no MAC: a valid other C would give another key. No single-bit
                // flip of x or y stays on the curve, so every flip is a decoding error.
                Ok(t) => panic!("{name} bit {i} accepted: {t:?}"),
                Err(e) => assert!(DECODE.contains(&e), "{name} bit {i}: {e:?}"),
            }
        }
        for t in resized(bytes) {
            assert_err_in(parse(&t), &[Error::Encoding], name);
        }
    }
    // Decapsulating for another identity or length gives another key, not an error.
    let k2 = shangmi_sm9::decapsulate(&f.bob_dec, b"Bob2", &c, 32).unwrap();
    assert_ne!(k2, k);
    let k3 = shangmi_sm9::decapsulate(&f.bob_dec, b"Bob", &c, 33).unwrap();
    assert_eq!(&k3[..32], &k[..], "KDF output is a prefix-stable stream");
    assert_eq!(
        shangmi_sm9::decapsulate(&f.bob_dec, b"Bob", &c, 0).unwrap_err(),
        Error::InvalidLength
    );
    // Nonces.
    for r in [[0u8; 32], h32(N), h32(MAX)] {
        assert_eq!(
            hazmat::encapsulate_with_nonce(&f.enc_master, b"Bob", 32, &r).unwrap_err(),
            Error::InvalidScalar
        );
        assert_eq!(
            hazmat::encrypt_with_nonce(
                &f.enc_master,
                b"Bob",
                b"x",
                EncryptionMode::KdfStream,
                MacMode::Sm3,
                &r,
                &[0; 16]
            )
            .unwrap_err(),
            Error::InvalidScalar
        );
    }
    let (k, c) =
        hazmat::encapsulate_with_nonce(&f.enc_master, b"Bob", 16, &h32(N_MINUS_1)).unwrap();
    assert_eq!(
        shangmi_sm9::decapsulate(&f.bob_dec, b"Bob", &c, 16).unwrap(),
        k
    );
}

// ---------------------------------------------------------------------------------------------
// Key exchange
// ---------------------------------------------------------------------------------------------

#[test]
fn every_bit_of_exchange_messages() {
    let f = fixture();
    let (ra_nonce, rb_nonce) = (small(21), h32(N_MINUS_1));
    let start = || {
        hazmat::initiator_start_with_nonce(&f.x_alice, &f.enc_master, b"Alice", b"Bob", &ra_nonce)
            .unwrap()
    };
    let respond = |ra: &shangmi_sm9::EphemeralPoint| {
        hazmat::responder_respond_with_nonce(
            &f.x_bob,
            &f.enc_master,
            b"Bob",
            b"Alice",
            ra,
            &rb_nonce,
        )
        .unwrap()
    };
    let (a, ra) = start();
    let (b, rb, sb) = respond(&ra);
    let (ka, sa) = a.finish(&rb, Some(&sb), 24).unwrap();
    assert_eq!(b.confirm(&sa, 24).unwrap(), ka);
    for (name, p) in [("RA", ra), ("RB", rb)] {
        let bytes = p.to_bytes();
        for i in 0..bytes.len() * 8 {
            assert_err_in(
                shangmi_sm9::EphemeralPoint::from_bytes(&flip(&bytes, i)),
                DECODE,
                &format!("{name} bit {i}"),
            );
        }
        for t in resized(&bytes) {
            assert_err_in(
                shangmi_sm9::EphemeralPoint::from_bytes(&t),
                &[Error::Encoding],
                name,
            );
        }
    }
    for i in 0..256 {
        let (a, _) = start();
        let t: [u8; 32] = flip(&sb, i).try_into().unwrap();
        assert_eq!(
            a.finish(&rb, Some(&t), 24).unwrap_err(),
            Error::KeyConfirmation,
            "SB bit {i}"
        );
        let (b, _, _) = respond(&ra);
        let t: [u8; 32] = flip(&sa, i).try_into().unwrap();
        assert_eq!(
            b.confirm(&t, 24).unwrap_err(),
            Error::KeyConfirmation,
            "SA bit {i}"
        );
    }
    // A valid but different ephemeral point (the other party's, or a fresh one) as RB: the
    // confirmation fails.
    let (a, _) = start();
    assert_eq!(
        a.finish(&ra, Some(&sb), 24).unwrap_err(),
        Error::KeyConfirmation
    );
    // Nonces.
    for r in [[0u8; 32], h32(N), h32(MAX)] {
        assert_eq!(
            hazmat::initiator_start_with_nonce(&f.x_alice, &f.enc_master, b"Alice", b"Bob", &r)
                .err(),
            Some(Error::InvalidScalar)
        );
        assert_eq!(
            hazmat::responder_respond_with_nonce(
                &f.x_bob,
                &f.enc_master,
                b"Bob",
                b"Alice",
                &ra,
                &r
            )
            .err(),
            Some(Error::InvalidScalar)
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Keys
// ---------------------------------------------------------------------------------------------

#[test]
fn every_bit_of_key_der() {
    let f = fixture();
    // Master public keys.
    let spk = f.sign_kgc.public_key();
    let der = spk.to_der().unwrap();
    for i in 0..der.len() * 8 {
        assert_err_in(
            shangmi_sm9::SignMasterPublicKey::from_der(&flip(&der, i)),
            DECODE,
            &format!("sign master public bit {i}"),
        );
    }
    for t in resized(&der) {
        assert_err_in(
            shangmi_sm9::SignMasterPublicKey::from_der(&t),
            &[Error::Encoding],
            "len",
        );
    }
    let epk = f.enc_kgc.public_key();
    let der = epk.to_der().unwrap();
    for i in 0..der.len() * 8 {
        assert_err_in(
            shangmi_sm9::EncMasterPublicKey::from_der(&flip(&der, i)),
            DECODE,
            &format!("enc master public bit {i}"),
        );
    }
    for t in resized(&der) {
        assert_err_in(
            shangmi_sm9::EncMasterPublicKey::from_der(&t),
            &[Error::Encoding],
            "len",
        );
    }
    // Master key pairs: a flip in ks gives another ks whose Ppub no longer matches (or ks out
    // of range); a flip in Ppub mismatches.
    let der = f.sign_kgc.to_der().unwrap();
    for i in 0..der.len() * 8 {
        assert_err_in(
            shangmi_sm9::SignMasterKey::from_der(&flip(&der, i)),
            DECODE,
            &format!("sign master bit {i}"),
        );
    }
    for t in resized(&der) {
        assert_err_in(
            shangmi_sm9::SignMasterKey::from_der(&t),
            &[Error::Encoding],
            "len",
        );
    }
    let der = f.enc_kgc.to_der().unwrap();
    for i in 0..der.len() * 8 {
        assert_err_in(
            shangmi_sm9::EncMasterKey::from_der(&flip(&der, i)),
            DECODE,
            &format!("enc master bit {i}"),
        );
    }
    for t in resized(&der) {
        assert_err_in(
            shangmi_sm9::EncMasterKey::from_der(&t),
            &[Error::Encoding],
            "len",
        );
    }
    // User keys.
    let der = f.alice.to_der().unwrap();
    for i in 0..der.len() * 8 {
        assert_err_in(
            shangmi_sm9::SignUserKey::from_der(&flip(&der, i)),
            DECODE,
            &format!("sign user bit {i}"),
        );
    }
    for t in resized(&der) {
        assert_err_in(
            shangmi_sm9::SignUserKey::from_der(&t),
            &[Error::Encoding],
            "len",
        );
    }
    let der = f.bob.to_der().unwrap();
    for i in 0..der.len() * 8 {
        assert_err_in(
            shangmi_sm9::EncUserKey::from_der(&flip(&der, i)),
            DECODE,
            &format!("enc user bit {i}"),
        );
        assert_err_in(
            shangmi_sm9::ExchangeUserKey::from_der(&flip(&der, i)),
            DECODE,
            &format!("exchange user bit {i}"),
        );
    }
    for t in resized(&der) {
        assert_err_in(
            shangmi_sm9::EncUserKey::from_der(&t),
            &[Error::Encoding],
            "len",
        );
    }
    // Unencrypted PKCS#8 of each key kind: every flip is rejected (an OID flip names another
    // or no algorithm; everything else as above).
    let with_alg: Vec<Error> = [DECODE, &[Error::UnknownAlgorithm]].concat();
    macro_rules! pkcs8_flips {
        ($ty:ty, $key:expr) => {{
            let der = $key.to_pkcs8_der().unwrap();
            assert!(<$ty>::from_pkcs8_der(&der).is_ok());
            for i in 0..der.len() * 8 {
                assert_err_in(
                    <$ty>::from_pkcs8_der(&flip(&der, i)),
                    &with_alg,
                    &format!("{} PKCS#8 bit {i}", stringify!($ty)),
                );
            }
            for t in resized(&der) {
                assert_err_in(<$ty>::from_pkcs8_der(&t), &with_alg, "PKCS#8 len");
            }
        }};
    }
    pkcs8_flips!(shangmi_sm9::SignMasterKey, f.sign_kgc);
    pkcs8_flips!(shangmi_sm9::EncMasterKey, f.enc_kgc);
    pkcs8_flips!(shangmi_sm9::SignUserKey, f.alice);
    pkcs8_flips!(shangmi_sm9::EncUserKey, f.bob);
    pkcs8_flips!(shangmi_sm9::ExchangeUserKey, f.x_alice.user_key());
}

/// DER `SEQUENCE { INTEGER k, BIT STRING ppub }` (the master key layout) for any `k` bytes.
fn master_der(k: &[u8], ppub: &[u8]) -> Vec<u8> {
    let mut int = k.to_vec();
    while int.len() > 1 && int[0] == 0 && int[1] & 0x80 == 0 {
        int.remove(0);
    }
    if int[0] & 0x80 != 0 {
        int.insert(0, 0);
    }
    let mut body = vec![0x02, int.len() as u8];
    body.extend(int);
    body.extend(tlv(0x03, &[&[0u8][..], ppub].concat()));
    tlv(0x30, &body)
}

fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    if body.len() < 128 {
        out.push(body.len() as u8);
    } else {
        out.push(0x81);
        out.push(body.len() as u8);
    }
    out.extend_from_slice(body);
    out
}

#[test]
fn master_key_scalar_edges() {
    let f = fixture();
    let sppub = f.sign_kgc.public_key().to_bytes();
    let eppub = f.enc_kgc.public_key().to_bytes();
    // The helper reproduces the library's encoding.
    assert_eq!(
        master_der(&f.sign_kgc.to_bytes()[..], &sppub),
        f.sign_kgc.to_der().unwrap().to_vec()
    );
    for k in [[0u8; 32], h32(N), h32(N_PLUS_1), h32(MAX)] {
        assert_eq!(
            shangmi_sm9::SignMasterKey::from_bytes(&k).unwrap_err(),
            Error::InvalidScalar
        );
        assert_eq!(
            shangmi_sm9::EncMasterKey::from_bytes(&k).unwrap_err(),
            Error::InvalidScalar
        );
        assert_eq!(
            shangmi_sm9::SignMasterKey::from_der(&master_der(&k, &sppub)).unwrap_err(),
            Error::InvalidScalar
        );
        assert_eq!(
            shangmi_sm9::EncMasterKey::from_der(&master_der(&k, &eppub)).unwrap_err(),
            Error::InvalidScalar
        );
    }
    // 33 significant bytes.
    let mut k33 = vec![1u8];
    k33.extend_from_slice(&small(1));
    assert_eq!(
        shangmi_sm9::SignMasterKey::from_der(&master_der(&k33, &sppub)).unwrap_err(),
        Error::InvalidScalar
    );
    // ks, ke ∈ {1, n − 1}: full life cycle (n − 1 ≡ −1: Ppub = −P2 / −P1).
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for k in [small(1), h32(N_MINUS_1)] {
        let kgc = shangmi_sm9::SignMasterKey::from_bytes(&k).unwrap();
        let back = shangmi_sm9::SignMasterKey::from_der(&kgc.to_der().unwrap()).unwrap();
        assert_eq!(back.to_bytes(), kgc.to_bytes());
        let master = kgc.public_key().prepare();
        let user = kgc.extract(b"edge").unwrap();
        let sig = shangmi_sm9::sign(&user, &master, b"m", &mut rng).unwrap();
        shangmi_sm9::verify(&master, b"edge", b"m", &sig).unwrap();
        let ekgc = shangmi_sm9::EncMasterKey::from_bytes(&k).unwrap();
        let back = shangmi_sm9::EncMasterKey::from_der(&ekgc.to_der().unwrap()).unwrap();
        assert_eq!(back.to_bytes(), ekgc.to_bytes());
        let master = ekgc.public_key().prepare();
        let dec = ekgc.extract(b"edge").unwrap().prepare();
        let ct = shangmi_sm9::encrypt(
            &master,
            b"edge",
            b"p",
            EncryptionMode::KdfStream,
            MacMode::Sm3,
            &mut rng,
        )
        .unwrap();
        assert_eq!(
            &shangmi_sm9::decrypt(&dec, b"edge", &ct, MacMode::Sm3).unwrap()[..],
            b"p"
        );
    }
    // A master key DER whose Ppub is a valid G2 point but not [ks]P2.
    let other = shangmi_sm9::SignMasterKey::from_bytes(&small(2)).unwrap();
    assert_eq!(
        shangmi_sm9::SignMasterKey::from_der(&master_der(
            &small(3),
            &other.public_key().to_bytes()
        ))
        .unwrap_err(),
        Error::InvalidPoint
    );
}

// ---------------------------------------------------------------------------------------------
// Points: identity, off curve, x ≥ p, G2 outside the subgroup
// ---------------------------------------------------------------------------------------------

/// A G1 point (x, y) with small x, as 32-byte coordinates.
fn g1_point_small_x() -> ([u8; 32], [u8; 32]) {
    let b = Fp::from_u64(5);
    for x in 0u64.. {
        let xf = Fp::from_u64(x);
        if let Some(y) = Option::<Fp>::from((xf.square() * xf + b).sqrt()) {
            return (xf.to_bytes(), y.to_bytes());
        }
    }
    unreachable!()
}

/// Twist points that are on E'(Fp²): y² = x³ + 5u, but not in the order-n subgroup (checked
/// independently by n·Q ≠ O).
fn g2_points_outside_subgroup(count: usize) -> Vec<[u8; 129]> {
    use sm_curve::sm9::Sm9G2Curve;
    use sm_curve::{Affine, Jacobian};
    let mut rng = ChaCha20Rng::seed_from_u64(0xC0FA);
    let b = Fp2::new(Fp::ZERO, Fp::from_u64(5));
    let mut out = Vec::new();
    while out.len() < count {
        let x = <Fp2 as Field>::random(&mut rng);
        let Some(y) = Option::<Fp2>::from((x.square() * x + b).sqrt()) else {
            continue;
        };
        let q: Affine<Sm9G2Curve> = Option::from(Affine::from_coordinates(x, y)).unwrap();
        let nq: Jacobian<Sm9G2Curve> = q.to_jacobian().mul_naive_vartime(&N_LIMBS);
        assert!(
            !bool::from(nq.is_identity()),
            "a random twist point is in G2"
        );
        assert!(!bool::from(q.is_in_subgroup()));
        let mut enc = [0u8; 129];
        enc[0] = 4;
        enc[1..65].copy_from_slice(&x.to_bytes());
        enc[65..].copy_from_slice(&y.to_bytes());
        out.push(enc);
    }
    out
}

#[test]
fn point_edges_in_every_point_carrying_input() {
    let f = fixture();
    let p = h32(P);
    let (x0, y0) = g1_point_small_x();
    // G1 candidates: identity (00, 04‖0…0, all zero), off the curve, x ≥ p (x + p encodes the
    // same residue), y ≥ p, compressed / hybrid tags.
    let valid_g1 = [&[4u8][..], &x0, &y0].concat();
    let mut neg_y = [0u8; 32];
    {
        let y = Fp::from_bytes(&y0).unwrap();
        neg_y.copy_from_slice(&(-y).to_bytes());
    }
    let g1_bad: Vec<(Vec<u8>, Error)> = vec![
        (vec![0x00], Error::Encoding),
        (vec![0x00; 65], Error::Encoding),
        ([&[4u8][..], &[0u8; 64]].concat(), Error::InvalidPoint),
        ([&[4u8][..], &x0, &small(1)].concat(), Error::InvalidPoint),
        (
            [&[4u8][..], &add_be(&x0, &p), &y0].concat(),
            Error::InvalidPoint,
        ),
        (
            [&[4u8][..], &x0, &add_be(&neg_y, &p)].concat(),
            Error::InvalidPoint,
        ),
        (
            [&[4u8][..], &h32(MAX), &h32(MAX)].concat(),
            Error::InvalidPoint,
        ),
        ([&[2u8][..], &x0].concat(), Error::Encoding),
        ([&[6u8][..], &x0, &y0].concat(), Error::Encoding),
    ];
    // The canonical point itself is valid wherever a G1 point is parsed.
    assert!(shangmi_sm9::EncMasterPublicKey::from_bytes(&valid_g1).is_ok());
    let sppub = f.sign_kgc.public_key().to_bytes();
    let eppub = f.enc_kgc.public_key().to_bytes();
    let ds = f.alice.ds_bytes();
    let de = f.bob.de_bytes();
    let c3 = [0u8; 32];
    let h = f.sig.h_bytes();
    for (enc, want) in &g1_bad {
        let what = hex::encode(enc);
        let w = std::slice::from_ref(want);
        assert_err_in(shangmi_sm9::EncMasterPublicKey::from_bytes(enc), w, &what);
        assert_err_in(shangmi_sm9::EphemeralPoint::from_bytes(enc), w, &what);
        assert_err_in(shangmi_sm9::EncapsulatedKey::from_bytes(enc), w, &what);
        assert_err_in(shangmi_sm9::Signature::from_parts(&h, enc), w, &what);
        assert_err_in(
            shangmi_sm9::SignUserKey::from_parts(enc, f.sign_kgc.public_key()),
            w,
            &what,
        );
        assert_err_in(
            shangmi_sm9::Ciphertext::from_parts(EncryptionMode::KdfStream, enc, &c3, b"x"),
            w,
            &what,
        );
        // DER containers carrying the point.
        if enc.len() == 65 {
            let user = tlv(
                0x30,
                &[
                    tlv(0x03, &[&[0u8][..], enc].concat()),
                    tlv(0x03, &[&[0u8][..], &sppub].concat()),
                ]
                .concat(),
            );
            assert_err_in(shangmi_sm9::SignUserKey::from_der(&user), w, &what);
            let user = tlv(
                0x30,
                &[
                    tlv(0x03, &[&[0u8][..], &de[..]].concat()),
                    tlv(0x03, &[&[0u8][..], enc].concat()),
                ]
                .concat(),
            );
            assert_err_in(shangmi_sm9::EncUserKey::from_der(&user), w, &what);
            assert_err_in(
                shangmi_sm9::EncMasterPublicKey::from_der(&tlv(
                    0x30,
                    &tlv(0x03, &[&[0u8][..], enc].concat()),
                )),
                w,
                &what,
            );
            assert_err_in(
                shangmi_sm9::EncapsulatedKey::from_der(&tlv(0x03, &[&[0u8][..], enc].concat())),
                w,
                &what,
            );
            // A master key DER with the bad Ppub-e: the point must match ke·P1.
            assert_err_in(
                shangmi_sm9::EncMasterKey::from_der(&master_der(&f.enc_kgc.to_bytes()[..], enc)),
                &[Error::InvalidPoint],
                &what,
            );
        }
    }
    // The untampered DER built by hand parses (so the failures above are the point's).
    let user = tlv(
        0x30,
        &[
            tlv(0x03, &[&[0u8][..], &ds[..]].concat()),
            tlv(0x03, &[&[0u8][..], &sppub].concat()),
        ]
        .concat(),
    );
    assert_eq!(user, f.alice.to_der().unwrap().to_vec());
    let user = tlv(
        0x30,
        &[
            tlv(0x03, &[&[0u8][..], &de[..]].concat()),
            tlv(0x03, &[&[0u8][..], &eppub].concat()),
        ]
        .concat(),
    );
    assert_eq!(user, f.bob.to_der().unwrap().to_vec());

    // G2 candidates: identity, off the twist, a coefficient ≥ p, outside the subgroup.
    let de_arr: [u8; 129] = de[..].try_into().unwrap();
    let mut g2_bad: Vec<(Vec<u8>, Error)> = vec![
        (vec![0x00], Error::Encoding),
        (vec![0x00; 129], Error::Encoding),
        ([&[4u8][..], &[0u8; 128]].concat(), Error::InvalidPoint),
        ([&[2u8][..], &de_arr[1..65]].concat(), Error::Encoding),
    ];
    let mut off = de_arr;
    off[128] ^= 1;
    g2_bad.push((off.to_vec(), Error::InvalidPoint));
    for coeff in 0..4 {
        // Replace one 32-byte coefficient c by c + p (≥ p, same residue) where that fits.
        let at = 1 + 32 * coeff;
        let c: [u8; 32] = de_arr[at..at + 32].try_into().unwrap();
        if c[0] < 0x49 {
            let mut t = de_arr;
            t[at..at + 32].copy_from_slice(&add_be(&c, &p));
            g2_bad.push((t.to_vec(), Error::InvalidPoint));
        }
        let mut t = de_arr;
        t[at..at + 32].copy_from_slice(&p);
        g2_bad.push((t.to_vec(), Error::InvalidPoint));
    }
    for q in g2_points_outside_subgroup(3) {
        g2_bad.push((q.to_vec(), Error::InvalidPoint));
    }
    let eppub_key = f.enc_kgc.public_key();
    for (enc, want) in &g2_bad {
        let what = hex::encode(&enc[..enc.len().min(8)]);
        let w = std::slice::from_ref(want);
        assert_err_in(shangmi_sm9::SignMasterPublicKey::from_bytes(enc), w, &what);
        assert_err_in(
            shangmi_sm9::EncUserKey::from_parts(enc, eppub_key),
            w,
            &what,
        );
        assert_err_in(
            shangmi_sm9::ExchangeUserKey::from_parts(enc, eppub_key),
            w,
            &what,
        );
        if enc.len() == 129 {
            let bits = tlv(0x03, &[&[0u8][..], enc].concat());
            assert_err_in(
                shangmi_sm9::SignMasterPublicKey::from_der(&tlv(0x30, &bits)),
                w,
                &what,
            );
            let user = tlv(
                0x30,
                &[tlv(0x03, &[&[0u8][..], &ds[..]].concat()), bits.clone()].concat(),
            );
            assert_err_in(shangmi_sm9::SignUserKey::from_der(&user), w, &what);
            let user = tlv(
                0x30,
                &[bits.clone(), tlv(0x03, &[&[0u8][..], &eppub].concat())].concat(),
            );
            assert_err_in(shangmi_sm9::EncUserKey::from_der(&user), w, &what);
            assert_err_in(shangmi_sm9::ExchangeUserKey::from_der(&user), w, &what);
            assert_err_in(
                shangmi_sm9::SignMasterKey::from_der(&master_der(&f.sign_kgc.to_bytes()[..], enc)),
                &[Error::InvalidPoint],
                &what,
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Identities: 0 and 65,535 bytes
// ---------------------------------------------------------------------------------------------

/// GM/T 0044 puts no bound on the identity's length and has no length field for it (H1 hashes
/// `ID ‖ hid`, the KDFs and exchange hashes take `ID` as is), so both the empty identity and a
/// 65,535-byte one must work everywhere, and differ from each other and from near misses.
#[test]
fn identity_lengths_0_and_65535() {
    let f = fixture();
    let mut rng = ChaCha20Rng::seed_from_u64(65_535);
    let long: Vec<u8> = (0..65_535u32).map(|i| (i * 7 + 3) as u8).collect();
    let ids: [&[u8]; 3] = [b"", &long, &long[..65_534]];
    for (i, id) in ids.iter().enumerate() {
        // Sign / verify, plain and streamed, and with a prepared signing key.
        let key = f.sign_kgc.extract(id).unwrap();
        let sig = shangmi_sm9::sign(&key, &f.sign_master, &f.msg, &mut rng).unwrap();
        shangmi_sm9::verify(&f.sign_master, id, &f.msg, &sig).unwrap();
        let mut v = shangmi_sm9::Verifier::new(&f.sign_master, id, &sig);
        v.update(&f.msg[..3]).update(&f.msg[3..]);
        v.verify().unwrap();
        let prepared = key.prepare();
        let sig2 = shangmi_sm9::sign_prepared(&prepared, &f.sign_master, &f.msg, &mut rng).unwrap();
        shangmi_sm9::verify(&f.sign_master, id, &f.msg, &sig2).unwrap();
        // Round trip of the key through DER.
        let back = shangmi_sm9::SignUserKey::from_der(&key.to_der().unwrap()).unwrap();
        assert_eq!(back.ds_bytes(), key.ds_bytes());
        // Encrypt / decrypt in every mode, KEM.
        let dec = f.enc_kgc.extract(id).unwrap().prepare();
        for mode in [
            EncryptionMode::KdfStream,
            EncryptionMode::Sm4Ecb,
            EncryptionMode::Sm4Cbc,
        ] {
            let ct = shangmi_sm9::encrypt(
                &f.enc_master,
                id,
                b"to whom it may concern",
                mode,
                MacMode::Sm3,
                &mut rng,
            )
            .unwrap();
            assert_eq!(
                &shangmi_sm9::decrypt(&dec, id, &ct, MacMode::Sm3).unwrap()[..],
                b"to whom it may concern"
            );
        }
        let (k, c) = shangmi_sm9::encapsulate(&f.enc_master, id, 64, &mut rng).unwrap();
        assert_eq!(shangmi_sm9::decapsulate(&dec, id, &c, 64).unwrap(), k);
        // Cross-identity: nothing made for id verifies / decrypts under another.
        for (j, other) in ids.iter().enumerate() {
            if i == j {
                continue;
            }
            assert_eq!(
                shangmi_sm9::verify(&f.sign_master, other, &f.msg, &sig),
                Err(Error::Verification)
            );
            let ct = shangmi_sm9::encrypt(
                &f.enc_master,
                id,
                b"x",
                EncryptionMode::KdfStream,
                MacMode::Sm3,
                &mut rng,
            )
            .unwrap();
            assert_eq!(
                shangmi_sm9::decrypt(&dec, other, &ct, MacMode::Sm3).unwrap_err(),
                Error::Decryption
            );
            assert_ne!(shangmi_sm9::decapsulate(&dec, other, &c, 64).unwrap(), k);
        }
    }
    // Key exchange with an empty and a 65,535-byte identity, both role assignments.
    for (ida, idb) in [
        (&b""[..], &long[..]),
        (&long[..], &b""[..]),
        (&b""[..], &b""[..]),
    ] {
        let xa = f.enc_kgc.extract_exchange(ida).unwrap().prepare();
        let xb = f.enc_kgc.extract_exchange(idb).unwrap().prepare();
        let (a, ra) =
            shangmi_sm9::Initiator::start(&xa, &f.enc_master, ida, idb, &mut rng).unwrap();
        let (b, rb, sb) =
            shangmi_sm9::Responder::respond(&xb, &f.enc_master, idb, ida, &ra, &mut rng).unwrap();
        let (ka, sa) = a.finish(&rb, Some(&sb), 40).unwrap();
        assert_eq!(b.confirm(&sa, 40).unwrap(), ka);
    }
}

// ---------------------------------------------------------------------------------------------
// Randomised: random messages, identities, multi-byte corruptions.
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn random_corruption_is_rejected(
        msg in proptest::collection::vec(any::<u8>(), 1..100),
        id in proptest::collection::vec(any::<u8>(), 0..40),
        pos: usize,
        xor in 1u8..=255,
        cut: usize,
        seed: u64,
    ) {
        let f = fixture();
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let key = f.sign_kgc.extract(&id).unwrap();
        let sig = shangmi_sm9::sign(&key, &f.sign_master, &msg, &mut rng).unwrap();
        prop_assert!(shangmi_sm9::verify(&f.sign_master, &id, &msg, &sig).is_ok());
        let mut raw = sig.to_bytes();
        raw[pos % raw.len()] ^= xor;
        match shangmi_sm9::Signature::from_bytes(&raw) {
            Ok(s) => prop_assert_eq!(shangmi_sm9::verify(&f.sign_master, &id, &msg, &s), Err(Error::Verification)),
            Err(e) => prop_assert!(DECODE.contains(&e)),
        }
        let mut m = msg.clone();
        let l = m.len();
        m[pos % l] ^= xor;
        prop_assert_eq!(shangmi_sm9::verify(&f.sign_master, &id, &m, &sig), Err(Error::Verification));

        let dec = f.enc_kgc.extract(&id).unwrap().prepare();
        let ct = shangmi_sm9::encrypt(&f.enc_master, &id, &msg, EncryptionMode::Sm4Cbc, MacMode::HmacSm3, &mut rng).unwrap();
        let mut der = ct.to_der().unwrap();
        let l = der.len();
        der[pos % l] ^= xor;
        match shangmi_sm9::Ciphertext::from_der(&der) {
            Ok(t) => prop_assert_eq!(shangmi_sm9::decrypt(&dec, &id, &t, MacMode::HmacSm3).unwrap_err(), Error::Decryption),
            Err(e) => prop_assert!(DECODE.contains(&e) || e == Error::UnknownAlgorithm),
        }
        let der = ct.to_der().unwrap();
        prop_assert!(shangmi_sm9::Ciphertext::from_der(&der[..cut % der.len()]).is_err());
        let raw = ct.to_bytes();
        match shangmi_sm9::Ciphertext::from_bytes(EncryptionMode::Sm4Cbc, &raw[..cut % raw.len()]) {
            Ok(t) => prop_assert_eq!(shangmi_sm9::decrypt(&dec, &id, &t, MacMode::HmacSm3).unwrap_err(), Error::Decryption),
            Err(e) => prop_assert!(DECODE.contains(&e)),
        }
    }
}
