//! Tamper and edge suites over the public SM2 API (issue 9). `robustness.rs` flips *random*
//! bits; here every bit of every artefact is flipped, every truncation and a run of extensions
//! is tried, and the scalar, point and identity-length edges are pinned to the exact typed
//! outcome the standard prescribes (GB/T 32918.1 §6.1: 1 ≤ d ≤ n − 2; .2 §7.1 B1–B2:
//! r, s ∈ [1, n − 1]; .1 §6.2.1: public keys on the curve, not O, coordinates in [0, p − 1];
//! .2 §5.5: ENTL is 16 bits, so an ID has at most 8191 bytes).

use proptest::prelude::*;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use shangmi_sm2::exchange::{Initiator, Responder};
use shangmi_sm2::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use shangmi_sm2::spki::{DecodePublicKey, EncodePublicKey};
use shangmi_sm2::{
    Ciphertext, Error, Mode, PublicKey, SecretKey, Signature, SigningKey, VerifyingKey,
};

const N: &str = "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54123";
const N_PLUS_1: &str = "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54124";
const N_MINUS_1: &str = "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54122";
const N_MINUS_2: &str = "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54121";
const P: &str = "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFF";
const MAX: &str = "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF";

fn h32(s: &str) -> [u8; 32] {
    hex::decode(s).unwrap().try_into().unwrap()
}

fn small(v: u8) -> [u8; 32] {
    let mut b = [0u8; 32];
    b[31] = v;
    b
}

fn key(seed: u64) -> SecretKey {
    SecretKey::random(&mut ChaCha20Rng::seed_from_u64(seed))
}

/// `bytes` with bit `i` (0 = MSB of byte 0) flipped.
fn flip(bytes: &[u8], i: usize) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[i / 8] ^= 0x80 >> (i % 8);
    b
}

/// Every strict prefix of `bytes`.
fn truncations(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    (0..bytes.len()).map(move |l| &bytes[..l])
}

/// `bytes` extended by 1..=16 bytes, zeros and 0xA5 alternately, plus a copy of itself.
fn extensions(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for n in 1..=16 {
        for fill in [0u8, 0xA5] {
            let mut b = bytes.to_vec();
            b.extend(std::iter::repeat_n(fill, n));
            v.push(b);
        }
    }
    let mut twice = bytes.to_vec();
    twice.extend_from_slice(bytes);
    v.push(twice);
    v
}

/// A point of the SM2 curve with x = 0, y = √b (b is a square mod p), as `(y bytes, odd)`.
fn point_with_x_zero() -> [u8; 32] {
    use shangmi_sm2::sm_curve::CurveParams;
    let b = <shangmi_sm2::Curve as CurveParams>::B;
    let y: Option<shangmi_sm2::FieldElement> = b.sqrt().into();
    y.expect("b is a square mod p for SM2").to_bytes()
}

// ---------------------------------------------------------------------------------------------
// Signatures
// ---------------------------------------------------------------------------------------------

#[test]
fn every_bit_of_raw_and_der_signatures() {
    let sk = SigningKey::new(&key(1));
    let vk = sk.verifying_key();
    let vk_table = vk.clone().with_precomputed_table();
    let msg = b"every bit counts";
    let sig = sk.sign_deterministic(msg);
    vk.verify(msg, &sig).unwrap();
    let raw = sig.to_bytes();
    for i in 0..raw.len() * 8 {
        match Signature::from_bytes(&flip(&raw, i)) {
            Ok(s) => {
                assert_eq!(vk.verify(msg, &s), Err(Error::Verification), "raw bit {i}");
                assert_eq!(vk_table.verify(msg, &s), Err(Error::Verification));
            }
            Err(e) => assert_eq!(e, Error::InvalidSignature, "raw bit {i}"),
        }
    }

    for der in [sig.to_der()] {
        for i in 0..der.len() * 8 {
            let t = flip(&der, i);
            match Signature::from_der(&t) {
                Ok(s) => {
                    assert_ne!(s, sig, "DER bit {i}: strict DER is a unique encoding");
                    assert_eq!(vk.verify(msg, &s), Err(Error::Verification), "DER bit {i}");
                }
                Err(e) => assert_eq!(e, Error::InvalidSignature, "DER bit {i}"),
            }
            match Signature::from_der_lenient(&t) {
                Ok(s) => assert_eq!(vk.verify(msg, &s), Err(Error::Verification), "bit {i}"),
                Err(e) => assert_eq!(e, Error::InvalidSignature, "lenient DER bit {i}"),
            }
        }
        for t in truncations(&der) {
            assert_eq!(Signature::from_der(t), Err(Error::InvalidSignature));
            assert_eq!(Signature::from_der_lenient(t), Err(Error::InvalidSignature));
        }
        for t in extensions(&der) {
            assert_eq!(Signature::from_der(&t), Err(Error::InvalidSignature));
            assert_eq!(
                Signature::from_der_lenient(&t),
                Err(Error::InvalidSignature)
            );
        }
    }
    for t in truncations(&raw) {
        assert_eq!(Signature::from_bytes(t), Err(Error::InvalidSignature));
    }
    for t in extensions(&raw) {
        assert_eq!(Signature::from_bytes(&t), Err(Error::InvalidSignature));
    }
    // Every bit of the message.
    for i in 0..msg.len() * 8 {
        assert_eq!(
            vk.verify(&flip(msg, i), &sig),
            Err(Error::Verification),
            "msg bit {i}"
        );
    }
    // The message truncated or extended.
    for t in truncations(msg) {
        assert_eq!(vk.verify(t, &sig), Err(Error::Verification));
    }
    for t in extensions(msg) {
        assert_eq!(vk.verify(&t, &sig), Err(Error::Verification));
    }
    // Every bit of the prehash e.
    let e = shangmi_sm2::message_digest(sk.za(), msg);
    vk.verify_prehash(&e, &sig).unwrap();
    for i in 0..256 {
        let t: [u8; 32] = flip(&e, i).try_into().unwrap();
        assert_eq!(vk.verify_prehash(&t, &sig), Err(Error::Verification));
    }
}

#[test]
fn signature_scalar_edges() {
    let sk = SigningKey::new(&key(2));
    let vk = sk.verifying_key();
    let bad = [[0u8; 32], h32(N), h32(N_PLUS_1), h32(MAX)];
    let good = [small(1), h32(N_MINUS_1)];
    for b in bad {
        for g in good {
            assert_eq!(
                Signature::from_scalars(&b, &g),
                Err(Error::InvalidSignature)
            );
            assert_eq!(
                Signature::from_scalars(&g, &b),
                Err(Error::InvalidSignature)
            );
            let mut raw = [0u8; 64];
            raw[..32].copy_from_slice(&b);
            raw[32..].copy_from_slice(&g);
            assert_eq!(Signature::from_bytes(&raw), Err(Error::InvalidSignature));
            // The same values as DER INTEGERs (a valid encoding of an out-of-range value).
            let der = der_sig(&b, &g);
            assert_eq!(Signature::from_der(&der), Err(Error::InvalidSignature));
            assert_eq!(
                Signature::from_der_lenient(&der),
                Err(Error::InvalidSignature)
            );
            let der = der_sig(&g, &b);
            assert_eq!(Signature::from_der(&der), Err(Error::InvalidSignature));
        }
    }
    // r, s ∈ {1, n − 1} are well-formed (and do not verify).
    for r in good {
        for s in good {
            let sig = Signature::from_scalars(&r, &s).unwrap();
            assert_eq!(Signature::from_der(&sig.to_der()).unwrap(), sig);
            assert_eq!(vk.verify(b"m", &sig), Err(Error::Verification));
        }
    }
    // B5: t = r + s ≡ 0 (mod n) must be rejected. With s chosen, r = n − s and
    // e = r − x(s·G) mod n, every other check passes: (x1, y1) = s·G + t·P = s·G and
    // (e + x1) mod n = r, so this signature verifies under any key unless B5 is checked.
    for s_val in [1u8, 2, 7, 200] {
        let s = small(s_val);
        let r = sub_mod_n(&h32(N), &s);
        let sg = SecretKey::from_bytes(&s)
            .unwrap()
            .public_key()
            .to_uncompressed();
        let x1: [u8; 32] = sg[1..33].try_into().unwrap();
        let e = sub_mod_n(&r, &x1);
        let sig = Signature::from_scalars(&r, &s).unwrap();
        assert_eq!(vk.verify_prehash(&e, &sig), Err(Error::Verification));
    }
    // The caller's nonce k: 0 and ≥ n rejected, 1 and n − 1 sign valid signatures.
    let e = shangmi_sm2::message_digest(sk.za(), b"m");
    for k in bad {
        assert_eq!(
            sk.sign_prehash_with_nonce(&e, &k),
            Err(Error::InvalidSecretKey)
        );
    }
    for k in good {
        let sig = sk.sign_prehash_with_nonce(&e, &k).unwrap();
        vk.verify_prehash(&e, &sig).unwrap();
    }
}

/// (a − b) mod n for big-endian a, b < 2^256 with a − b > −n (schoolbook, independent of the
/// crate's field code).
fn sub_mod_n(a: &[u8; 32], b: &[u8; 32]) -> [u8; 32] {
    let n = h32(N);
    let mut out = [0u8; 32];
    let mut borrow = 0i16;
    for i in (0..32).rev() {
        let d = a[i] as i16 - b[i] as i16 - borrow;
        borrow = i16::from(d < 0);
        out[i] = d.rem_euclid(256) as u8;
    }
    if borrow == 1 {
        let mut carry = 0u16;
        for i in (0..32).rev() {
            let v = out[i] as u16 + n[i] as u16 + carry;
            out[i] = v as u8;
            carry = v >> 8;
        }
    }
    out
}

/// Minimal DER INTEGER of a 32-byte big-endian magnitude.
fn der_int(v: &[u8; 32]) -> Vec<u8> {
    let first = v.iter().position(|&b| b != 0).unwrap_or(31);
    let mut body = v[first..].to_vec();
    if body[0] & 0x80 != 0 {
        body.insert(0, 0);
    }
    let mut out = vec![0x02, body.len() as u8];
    out.extend(body);
    out
}

fn der_sig(r: &[u8; 32], s: &[u8; 32]) -> Vec<u8> {
    let mut body = der_int(r);
    body.extend(der_int(s));
    let mut out = vec![0x30, body.len() as u8];
    out.extend(body);
    out
}

// ---------------------------------------------------------------------------------------------
// Ciphertexts
// ---------------------------------------------------------------------------------------------

#[test]
fn every_bit_of_every_ciphertext_form() {
    let sk = key(3);
    let pk = *sk.public_key();
    let msg = b"twenty-one byte text!";
    let ct = pk.encrypt_with_nonce(&h32(N_MINUS_2), msg).unwrap();
    let compressed = ct.with_c1_compressed(true).unwrap();
    assert_eq!(sk.decrypt_ciphertext(&compressed).unwrap().as_slice(), msg);
    let mut forms: Vec<(&str, Vec<u8>)> = Vec::new();
    for (c, tag) in [(&ct, "uncompressed"), (&compressed, "compressed")] {
        forms.push((tag, c.to_bytes(Mode::C1C3C2)));
        forms.push((tag, c.to_bytes(Mode::C1C2C3)));
    }
    let der = ct.to_der().unwrap();
    let decrypt = |form: usize, bytes: &[u8]| match form {
        0 | 2 => sk.decrypt(bytes, Mode::C1C3C2),
        1 | 3 => sk.decrypt(bytes, Mode::C1C2C3),
        _ => sk.decrypt_der(bytes),
    };
    forms.push(("der", der));
    for (f, (tag, bytes)) in forms.iter().enumerate() {
        assert_eq!(decrypt(f, bytes).unwrap().as_slice(), msg, "{tag} {f}");
        for i in 0..bytes.len() * 8 {
            assert_eq!(
                decrypt(f, &flip(bytes, i)).map(|m| m.to_vec()),
                Err(Error::Decryption),
                "form {f} ({tag}) bit {i}"
            );
        }
        for t in truncations(bytes) {
            assert_eq!(
                decrypt(f, t).map(|m| m.to_vec()),
                Err(Error::Decryption),
                "form {f} truncated to {}",
                t.len()
            );
        }
        for t in extensions(bytes) {
            assert_eq!(
                decrypt(f, &t).map(|m| m.to_vec()),
                Err(Error::Decryption),
                "form {f} extended to {}",
                t.len()
            );
        }
    }
    // Parsed ciphertexts: every bit of C3 and C2 through `from_parts` / `decrypt_ciphertext`.
    for i in 0..256 {
        let c3: [u8; 32] = flip(ct.c3(), i).try_into().unwrap();
        let t = Ciphertext::from_parts(ct.c1(), &c3, ct.c2()).unwrap();
        assert_eq!(
            sk.decrypt_ciphertext(&t).map(|m| m.to_vec()),
            Err(Error::Decryption)
        );
    }
    for i in 0..ct.c2().len() * 8 {
        let t = Ciphertext::from_parts(ct.c1(), ct.c3(), &flip(ct.c2(), i)).unwrap();
        assert_eq!(
            sk.decrypt_ciphertext(&t).map(|m| m.to_vec()),
            Err(Error::Decryption)
        );
    }
}

#[test]
fn ciphertext_point_edges() {
    let sk = key(4);
    let ct = sk
        .public_key()
        .encrypt_with_nonce(&small(7), b"payload")
        .unwrap();
    let c3 = *ct.c3();
    let c2 = ct.c2().to_vec();
    let y0 = point_with_x_zero();
    // C1 candidates that must all fail decryption: the identity (00, and 04‖0‖0), off the
    // curve, x ≥ p (x = p would reduce to the valid point (0, √b)), hybrid tags 06/07.
    let mut c1s: Vec<Vec<u8>> = Vec::new();
    c1s.push([[0x04].as_slice(), &[0u8; 64]].concat());
    let mut off = ct.c1().to_vec();
    off[64] ^= 1;
    c1s.push(off);
    c1s.push([[0x04].as_slice(), &h32(P), &y0].concat());
    c1s.push([[0x02].as_slice(), &h32(P)].concat());
    c1s.push([[0x03].as_slice(), &h32(P)].concat());
    c1s.push([[0x02].as_slice(), &h32(MAX)].concat());
    let mut hybrid = ct.c1().to_vec();
    hybrid[0] = 0x06 | (hybrid[64] & 1);
    for c1 in &c1s {
        // Through the parsed form (from_parts accepts any tag-and-length-valid C1).
        let t = Ciphertext::from_parts(c1, &c3, &c2).unwrap();
        assert_eq!(
            sk.decrypt_ciphertext(&t).map(|m| m.to_vec()),
            Err(Error::Decryption)
        );
        // And raw, in both orders.
        for mode in [Mode::C1C3C2, Mode::C1C2C3] {
            assert_eq!(
                sk.decrypt(&t.to_bytes(mode), mode).map(|m| m.to_vec()),
                Err(Error::Decryption)
            );
        }
    }
    // (0, √b) itself is a valid C1 (decrypts to garbage, so C3 fails); encoding x = p instead
    // of 0 must not be accepted as the same point.
    let zero_pt = [[0x04].as_slice(), &[0u8; 32], &y0].concat();
    let t = Ciphertext::from_parts(&zero_pt, &c3, &c2).unwrap();
    assert_eq!(
        sk.decrypt_ciphertext(&t).map(|m| m.to_vec()),
        Err(Error::Decryption)
    );
    for bad in [&hybrid[..], &[0u8][..], &[0u8; 65][..], &[0x04; 33][..]] {
        assert_eq!(
            Ciphertext::from_parts(bad, &c3, &c2).unwrap_err(),
            Error::Encoding
        );
        let mut raw = bad.to_vec();
        raw.extend_from_slice(&c3);
        raw.extend_from_slice(&c2);
        assert_eq!(
            sk.decrypt(&raw, Mode::C1C3C2).map(|m| m.to_vec()),
            Err(Error::Decryption)
        );
    }
    // DER: x = y = 0 (the all-zero "identity"), x = p, and x, y of 33 significant bytes.
    for (x, y) in [([0u8; 32], [0u8; 32]), (h32(P), y0), (h32(MAX), h32(MAX))] {
        let der = der_cipher(&x, &y, &c3, &c2);
        assert_eq!(
            sk.decrypt_der(&der).map(|m| m.to_vec()),
            Err(Error::Decryption)
        );
    }
    // C2 empty is an encoding error (at least one byte of plaintext).
    assert_eq!(
        Ciphertext::from_parts(ct.c1(), &c3, &[]).unwrap_err(),
        Error::Encoding
    );
    let der = der_cipher(
        &ct.c1()[1..33].try_into().unwrap(),
        &ct.c1()[33..].try_into().unwrap(),
        &c3,
        &[],
    );
    assert_eq!(Ciphertext::from_der(&der).unwrap_err(), Error::Encoding);
    // The untampered DER built here matches the library's.
    let der = der_cipher(
        &ct.c1()[1..33].try_into().unwrap(),
        &ct.c1()[33..].try_into().unwrap(),
        &c3,
        &c2,
    );
    assert_eq!(der, ct.to_der().unwrap());
}

fn der_tlv(tag: u8, body: &[u8]) -> Vec<u8> {
    assert!(body.len() < 128);
    let mut out = vec![tag, body.len() as u8];
    out.extend_from_slice(body);
    out
}

fn der_cipher(x: &[u8; 32], y: &[u8; 32], c3: &[u8; 32], c2: &[u8]) -> Vec<u8> {
    let mut body = der_int(x);
    body.extend(der_int(y));
    body.extend(der_tlv(0x04, c3));
    body.extend(der_tlv(0x04, c2));
    der_tlv(0x30, &body)
}

// ---------------------------------------------------------------------------------------------
// Keys
// ---------------------------------------------------------------------------------------------

#[test]
fn every_bit_of_sec1_public_keys() {
    let sk = SigningKey::new(&key(5));
    let pk = *sk.verifying_key().public_key();
    let sig = sk.sign_deterministic(b"m");
    let unc = pk.to_uncompressed();
    for i in 0..unc.len() * 8 {
        // A flip of x or y leaves the curve (a second y for the same x is −y, which differs in
        // many bits); a flip of the tag gives an unknown or hybrid tag or a wrong length.
        assert_eq!(
            PublicKey::from_sec1_bytes(&flip(&unc, i)),
            Err(Error::InvalidPublicKey),
            "uncompressed bit {i}"
        );
    }
    let comp = pk.to_compressed();
    let mut other_points = 0;
    for i in 0..comp.len() * 8 {
        match PublicKey::from_sec1_bytes(&flip(&comp, i)) {
            // Another x with a square right-hand side (about half of them), or the parity bit:
            // a different valid key, under which the signature does not verify.
            Ok(p) => {
                other_points += 1;
                assert_ne!(p, pk, "compressed bit {i}");
                let vk = VerifyingKey::with_id(&p, shangmi_sm2::DEFAULT_ID).unwrap();
                assert_eq!(vk.verify(b"m", &sig), Err(Error::Verification));
            }
            Err(e) => assert_eq!(e, Error::InvalidPublicKey, "compressed bit {i}"),
        }
    }
    assert!(other_points >= 1, "the parity flip 02 <-> 03 gives −P");
    for enc in [&unc[..], &comp[..]] {
        for t in truncations(enc) {
            assert_eq!(PublicKey::from_sec1_bytes(t), Err(Error::InvalidPublicKey));
        }
        for t in extensions(enc) {
            assert_eq!(PublicKey::from_sec1_bytes(&t), Err(Error::InvalidPublicKey));
        }
    }
}

#[test]
fn public_key_point_edges() {
    let y0 = point_with_x_zero();
    let bad: Vec<Vec<u8>> = vec![
        vec![0x00],                                        // the identity
        vec![0x00; 65],                                    // "00" padded to the uncompressed length
        [[0x04].as_slice(), &[0u8; 64]].concat(),          // (0, 0): off the curve
        [[0x04].as_slice(), &h32(P), &y0].concat(),        // x = p ≡ 0: x ≥ p
        [[0x04].as_slice(), &[0u8; 32], &h32(P)].concat(), // y = p
        [[0x02].as_slice(), &h32(P)].concat(),             // compressed x = p
        [[0x03].as_slice(), &h32(MAX)].concat(),           // compressed x = 2^256 − 1
        [[0x06].as_slice(), &[0u8; 32], &y0].concat(),     // hybrid form
        [[0x07].as_slice(), &[0u8; 32], &y0].concat(),
        [[0x05].as_slice(), &[0u8; 32], &y0].concat(),
    ];
    for b in &bad {
        assert_eq!(
            PublicKey::from_sec1_bytes(b),
            Err(Error::InvalidPublicKey),
            "{}",
            hex::encode(b)
        );
    }
    // The same points canonically encoded are valid keys: only the encoding is at fault.
    let good = [[0x04].as_slice(), &[0u8; 32], &y0].concat();
    let p = PublicKey::from_sec1_bytes(&good).unwrap();
    let c = p.to_compressed();
    assert_eq!(&c[1..], &[0u8; 32]);
    assert_eq!(PublicKey::from_sec1_bytes(&c).unwrap(), p);
    // The identity as an affine point.
    assert_eq!(
        PublicKey::from_affine(shangmi_sm2::AffinePoint::IDENTITY),
        Err(Error::InvalidPublicKey)
    );
    // SPKI carrying the identity, an off-curve point, x = p.
    let spki = p.to_public_key_der().unwrap().as_bytes().to_vec();
    let pos = spki.len() - 65;
    assert_eq!(&spki[pos..], &good[..]);
    for b in &bad[2..5] {
        let mut t = spki.clone();
        t[pos..].copy_from_slice(b);
        assert!(matches!(
            PublicKey::from_public_key_der(&t),
            Err(shangmi_sm2::spki::Error::KeyMalformed)
        ));
    }
}

#[test]
fn every_bit_of_key_der() {
    let sk = key(6);
    let pk = *sk.public_key();
    // SPKI: every bit flip is rejected (no flip gives another valid SPKI of a curve point).
    let spki = pk.to_public_key_der().unwrap().as_bytes().to_vec();
    assert_eq!(PublicKey::from_public_key_der(&spki).unwrap(), pk);
    for i in 0..spki.len() * 8 {
        assert!(
            PublicKey::from_public_key_der(&flip(&spki, i)).is_err(),
            "SPKI bit {i}"
        );
    }
    for t in truncations(&spki) {
        assert!(PublicKey::from_public_key_der(t).is_err());
    }
    for t in extensions(&spki) {
        assert!(PublicKey::from_public_key_der(&t).is_err());
    }
    // PKCS#8: a flip in d or in the embedded public key makes them disagree; a flip in the
    // structure breaks the DER. The one accepted flip class is none: assert every flip fails.
    let p8 = sk.to_pkcs8_der().unwrap().as_bytes().to_vec();
    assert_eq!(
        SecretKey::from_pkcs8_der(&p8).unwrap().to_bytes(),
        sk.to_bytes()
    );
    for i in 0..p8.len() * 8 {
        match SecretKey::from_pkcs8_der(&flip(&p8, i)) {
            Err(_) => {}
            Ok(k) => panic!(
                "PKCS#8 bit {i} accepted (same key: {})",
                *k.to_bytes() == *sk.to_bytes()
            ),
        }
    }
    for t in truncations(&p8) {
        assert!(SecretKey::from_pkcs8_der(t).is_err());
    }
    for t in extensions(&p8) {
        assert!(SecretKey::from_pkcs8_der(&t).is_err());
    }
    // SEC1 ECPrivateKey (with parameters and public key).
    let s1 = sk.to_sec1_der().unwrap().to_vec();
    // Offset of the `[1] publicKey` tag (A1) after `[0] parameters`.
    let pk_tag = s1.len() - 65 - 1 - 2 - 2;
    assert_eq!(s1[pk_tag], 0xA1);
    for i in 0..s1.len() * 8 {
        let t = flip(&s1, i);
        match SecretKey::from_sec1_der(&t) {
            Err(e) => assert!(
                matches!(
                    e,
                    Error::Encoding | Error::InvalidSecretKey | Error::InvalidPublicKey
                ),
                "SEC1 bit {i}: {e:?}"
            ),
            // Found by this suite and fixed: A1 -> A0 turned the public key into a second `[0]`
            // field, which the `der` crate skipped, so the key parsed without its public key.
            // `from_sec1_der` now insists on strict DER (re-encoding reproduces the input).
            Ok(_) => panic!("SEC1 bit {i} accepted"),
        }
    }
    for t in truncations(&s1) {
        assert_eq!(SecretKey::from_sec1_der(t).unwrap_err(), Error::Encoding);
    }
    for t in extensions(&s1) {
        assert_eq!(SecretKey::from_sec1_der(&t).unwrap_err(), Error::Encoding);
    }
}

/// SEC1 `ECPrivateKey` DER without the public key: `SEQUENCE { 1, OCTET STRING d }`.
fn sec1_bare(d: &[u8]) -> Vec<u8> {
    let mut body = vec![0x02, 0x01, 0x01];
    body.extend(der_tlv(0x04, d));
    der_tlv(0x30, &body)
}

#[test]
fn secret_key_scalar_edges() {
    // GB/T 32918.1 §6.1: d ∈ [1, n − 2].
    let rejected = [[0u8; 32], h32(N_MINUS_1), h32(N), h32(N_PLUS_1), h32(MAX)];
    let accepted = [small(1), small(2), h32(N_MINUS_2)];
    for d in rejected {
        assert_eq!(
            SecretKey::from_bytes(&d).unwrap_err(),
            Error::InvalidSecretKey
        );
        assert_eq!(
            SecretKey::from_slice(&d).unwrap_err(),
            Error::InvalidSecretKey
        );
        assert_eq!(
            SecretKey::from_sec1_der(&sec1_bare(&d)).unwrap_err(),
            Error::InvalidSecretKey
        );
    }
    for d in accepted {
        let sk = SecretKey::from_bytes(&d).unwrap();
        let back = SecretKey::from_sec1_der(&sec1_bare(&d)).unwrap();
        assert_eq!(back.to_bytes(), sk.to_bytes());
        // The whole key life cycle works at the edges.
        let p8 = sk.to_pkcs8_der().unwrap();
        let back = SecretKey::from_pkcs8_der(p8.as_bytes()).unwrap();
        assert_eq!(back.to_bytes(), sk.to_bytes());
        let signer = SigningKey::new(&sk);
        let sig = signer.sign_deterministic(b"edge");
        signer.verifying_key().verify(b"edge", &sig).unwrap();
        let ct = sk.public_key().encrypt_with_nonce(&small(3), b"e").unwrap();
        assert_eq!(sk.decrypt_ciphertext(&ct).unwrap().as_slice(), b"e");
    }
    // Wrong lengths: 31, 33 bytes (33 with a leading zero is still > 32 bytes).
    assert_eq!(
        SecretKey::from_slice(&[1; 33]).unwrap_err(),
        Error::InvalidSecretKey
    );
    assert_eq!(
        SecretKey::from_slice(&[]).unwrap_err(),
        Error::InvalidSecretKey
    );
    let mut d33 = vec![0u8];
    d33.extend_from_slice(&small(1));
    assert_eq!(
        SecretKey::from_sec1_der(&sec1_bare(&d33)).unwrap_err(),
        Error::InvalidSecretKey
    );
    // Key exchange ephemerals: 0 and ≥ n rejected, n − 1 accepted.
    let (a, b) = (key(7), key(8));
    for r in [[0u8; 32], h32(N), h32(N_PLUS_1), h32(MAX)] {
        let alice = Initiator::new(&a, b"A", b.public_key(), b"B").unwrap();
        assert_eq!(
            alice.start_with_ephemeral(&r).err(),
            Some(Error::InvalidSecretKey)
        );
        let bob = Responder::new(&b, b"B", a.public_key(), b"A").unwrap();
        assert_eq!(
            bob.respond_with_ephemeral(&r, a.public_key(), 16).err(),
            Some(Error::InvalidSecretKey)
        );
    }
    let alice = Initiator::new(&a, b"A", b.public_key(), b"B").unwrap();
    let bob = Responder::new(&b, b"B", a.public_key(), b"A").unwrap();
    let (alice, ra) = alice.start_with_ephemeral(&h32(N_MINUS_1)).unwrap();
    let (bob, rb, sb) = bob.respond_with_ephemeral(&small(1), &ra, 16).unwrap();
    let (ka, sa) = alice.finish(&rb, &sb, 16).unwrap();
    assert_eq!(bob.confirm(&sa).unwrap().as_slice(), ka.as_slice());
    // Encryption nonces.
    for k in [[0u8; 32], h32(N), h32(MAX)] {
        assert!(a.public_key().encrypt_with_nonce(&k, b"x").is_err());
    }
}

// ---------------------------------------------------------------------------------------------
// Key exchange messages
// ---------------------------------------------------------------------------------------------

#[test]
fn every_bit_of_exchange_messages() {
    let (a, b) = (key(9), key(10));
    let run = || {
        let alice = Initiator::new(&a, b"alice", b.public_key(), b"bob").unwrap();
        let bob = Responder::new(&b, b"bob", a.public_key(), b"alice").unwrap();
        let (alice, ra) = alice.start_with_ephemeral(&small(11)).unwrap();
        let (bob, rb, sb) = bob.respond_with_ephemeral(&small(12), &ra, 32).unwrap();
        (alice, bob, ra, rb, sb)
    };
    let (alice, bob, ra, rb, sb) = run();
    let (key_a, sa) = alice.finish(&rb, &sb, 32).unwrap();
    assert_eq!(bob.confirm(&sa).unwrap().as_slice(), key_a.as_slice());
    // R_A and R_B: every flip of the uncompressed point is rejected when decoded; every flip
    // of the compressed point is rejected or gives another point, for which the confirmation
    // fails (responder side: A's S_A check; initiator side: the S_B check).
    for (which, p) in [(0, ra), (1, rb)] {
        for i in 0..65 * 8 {
            assert_eq!(
                PublicKey::from_sec1_bytes(&flip(&p.to_uncompressed(), i)),
                Err(Error::InvalidPublicKey)
            );
        }
        for i in 0..33 * 8 {
            let Ok(q) = PublicKey::from_sec1_bytes(&flip(&p.to_compressed(), i)) else {
                continue;
            };
            let (alice, bob, ra, rb, sb) = run();
            if which == 0 {
                let bob2 = Responder::new(&b, b"bob", a.public_key(), b"alice").unwrap();
                let (bob2, rb2, sb2) = bob2.respond_with_ephemeral(&small(12), &q, 32).unwrap();
                // A sees an S_B computed over the wrong R_A.
                assert_eq!(alice.finish(&rb2, &sb2, 32).err(), Some(Error::KeyExchange));
                let _ = (bob, ra, rb, sb, bob2);
            } else {
                assert_eq!(alice.finish(&q, &sb, 32).err(), Some(Error::KeyExchange));
                let _ = (bob, ra, rb);
            }
        }
    }
    // S_B and S_A: every bit.
    for i in 0..256 {
        let (alice, _bob, _ra, rb, sb) = run();
        let t: [u8; 32] = flip(&sb, i).try_into().unwrap();
        assert_eq!(alice.finish(&rb, &t, 32).err(), Some(Error::KeyExchange));
        let (alice, bob, _ra, rb, sb) = run();
        let (_, sa) = alice.finish(&rb, &sb, 32).unwrap();
        let t: [u8; 32] = flip(&sa, i).try_into().unwrap();
        assert_eq!(bob.confirm(&t).err(), Some(Error::KeyExchange));
    }
}

// ---------------------------------------------------------------------------------------------
// Identities
// ---------------------------------------------------------------------------------------------

#[test]
fn identity_lengths() {
    let sk = key(13);
    let pk = *sk.public_key();
    assert_eq!(shangmi_sm2::MAX_ID_LEN, 8191);
    let id_max = vec![0xA5u8; 8191];
    for bad in [8192usize, 8193, 65_535, 65_536] {
        let id = vec![0u8; bad];
        assert_eq!(
            shangmi_sm2::compute_za(&id, &pk),
            Err(Error::IdTooLong),
            "{bad}"
        );
        assert_eq!(SigningKey::with_id(&sk, &id).err(), Some(Error::IdTooLong));
        assert_eq!(
            VerifyingKey::with_id(&pk, &id).err(),
            Some(Error::IdTooLong)
        );
        assert_eq!(
            Initiator::new(&sk, &id, &pk, b"B").err(),
            Some(Error::IdTooLong)
        );
        assert_eq!(
            Initiator::new(&sk, b"A", &pk, &id).err(),
            Some(Error::IdTooLong)
        );
        assert_eq!(
            Responder::new(&sk, &id, &pk, b"A").err(),
            Some(Error::IdTooLong)
        );
        assert_eq!(
            Responder::new(&sk, b"B", &pk, &id).err(),
            Some(Error::IdTooLong)
        );
    }
    // 8191 bytes: ENTL = 65528 bits, the largest whole-byte length that fits 16 bits; and the
    // empty ID (ENTL = 0). Both sign/verify, cross-reject, and run a key exchange.
    let ids: [&[u8]; 3] = [b"", &id_max, &id_max[..8190]];
    let zs: Vec<[u8; 32]> = ids
        .iter()
        .map(|id| shangmi_sm2::compute_za(id, &pk).unwrap())
        .collect();
    assert_ne!(zs[0], zs[1]);
    assert_ne!(zs[1], zs[2]);
    for (i, id) in ids.iter().enumerate() {
        let s = SigningKey::with_id(&sk, id).unwrap();
        assert_eq!(s.za(), &zs[i]);
        let sig = s.sign_deterministic(b"msg");
        VerifyingKey::with_id(&pk, id)
            .unwrap()
            .verify(b"msg", &sig)
            .unwrap();
        for (j, other) in ids.iter().enumerate() {
            if j != i {
                assert_eq!(
                    VerifyingKey::with_id(&pk, other)
                        .unwrap()
                        .verify(b"msg", &sig),
                    Err(Error::Verification)
                );
            }
        }
    }
    let b = key(14);
    for (ida, idb) in [(&b""[..], &id_max[..]), (&id_max[..], &b""[..])] {
        let alice = Initiator::new(&sk, ida, b.public_key(), idb).unwrap();
        let bob = Responder::new(&b, idb, sk.public_key(), ida).unwrap();
        let (alice, ra) = alice.start_with_ephemeral(&small(5)).unwrap();
        let (bob, rb, sb) = bob.respond_with_ephemeral(&small(6), &ra, 24).unwrap();
        let (ka, sa) = alice.finish(&rb, &sb, 24).unwrap();
        assert_eq!(bob.confirm(&sa).unwrap().as_slice(), ka.as_slice());
    }
}

// ---------------------------------------------------------------------------------------------
// Randomised: random keys, messages, multi-byte corruptions.
// ---------------------------------------------------------------------------------------------

fn corrupt(bytes: &[u8], pos: usize, xor: u8) -> Vec<u8> {
    let mut b = bytes.to_vec();
    let i = pos % b.len();
    b[i] ^= xor;
    b
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn random_byte_corruption_is_rejected(
        seed: u64,
        msg in proptest::collection::vec(any::<u8>(), 1..200),
        id in proptest::collection::vec(any::<u8>(), 0..64),
        pos: usize,
        xor in 1u8..=255,
        cut: usize,
    ) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let sk = SecretKey::random(&mut rng);
        let signer = SigningKey::with_id(&sk, &id).unwrap();
        let vk = VerifyingKey::with_id(sk.public_key(), &id).unwrap();
        let sig = signer.sign_with_rng(&mut rng, &msg);
        prop_assert!(vk.verify(&msg, &sig).is_ok());
        match Signature::from_bytes(&corrupt(&sig.to_bytes(), pos, xor)) {
            Ok(s) => prop_assert_eq!(vk.verify(&msg, &s), Err(Error::Verification)),
            Err(e) => prop_assert_eq!(e, Error::InvalidSignature),
        }
        match Signature::from_der(&corrupt(&sig.to_der(), pos, xor)) {
            Ok(s) => prop_assert_eq!(vk.verify(&msg, &s), Err(Error::Verification)),
            Err(e) => prop_assert_eq!(e, Error::InvalidSignature),
        }
        prop_assert_eq!(vk.verify(&corrupt(&msg, pos, xor), &sig), Err(Error::Verification));
        let der = sig.to_der();
        prop_assert_eq!(Signature::from_der(&der[..cut % der.len()]), Err(Error::InvalidSignature));

        for mode in [Mode::C1C3C2, Mode::C1C2C3] {
            let ct = sk.public_key().encrypt(&mut rng, &msg, mode).unwrap();
            prop_assert_eq!(sk.decrypt(&ct, mode).unwrap().to_vec(), msg.clone());
            prop_assert_eq!(
                sk.decrypt(&corrupt(&ct, pos, xor), mode).map(|m| m.to_vec()),
                Err(Error::Decryption)
            );
            prop_assert_eq!(
                sk.decrypt(&ct[..cut % ct.len()], mode).map(|m| m.to_vec()),
                Err(Error::Decryption)
            );
        }
        let der = sk.public_key().encrypt_der(&mut rng, &msg).unwrap();
        prop_assert_eq!(
            sk.decrypt_der(&corrupt(&der, pos, xor)).map(|m| m.to_vec()),
            Err(Error::Decryption)
        );
        prop_assert_eq!(
            sk.decrypt_der(&der[..cut % der.len()]).map(|m| m.to_vec()),
            Err(Error::Decryption)
        );
        let mut long = der.clone();
        long.push(xor);
        prop_assert_eq!(sk.decrypt_der(&long).map(|m| m.to_vec()), Err(Error::Decryption));
    }
}
