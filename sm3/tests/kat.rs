//! Known-answer tests: GB/T 32905 Appendix A, the workspace vector files (SM3, ZA preimages,
//! HMAC-SM3 incl. Wycheproof invalid cases, GmSSL SM3 cases) and KDF outputs from the SM2 / SM9
//! standard examples. Every digest is also checked through each other entry point.

use shangmi_sm3::hmac::{KeyInit, Mac};
use shangmi_sm3::{Digest, HmacSm3, Sm3};
use sm_testvectors::{hex, hex_at, sm2_sm3};

/// Checks one (message, digest) pair through every SM3 entry point.
fn check_digest(msg: &[u8], expected: &[u8], what: &str) {
    assert_eq!(expected.len(), 32, "{what}: digest length");
    assert_eq!(shangmi_sm3::hash(msg), expected, "{what}: hash");
    assert_eq!(
        shangmi_sm3::hash_portable(msg),
        expected,
        "{what}: hash_portable"
    );
    assert_eq!(
        Sm3::digest(msg).as_slice(),
        expected,
        "{what}: Digest::digest"
    );
    let mut h = Sm3::new();
    for chunk in msg.chunks(7) {
        h.update(chunk);
    }
    assert_eq!(
        h.finalize().as_slice(),
        expected,
        "{what}: streaming in 7-byte chunks"
    );
    let mut out = [[0u8; 32]; 3];
    shangmi_sm3::hash_many(&[msg, b"", msg], &mut out);
    assert_eq!(out[0], expected, "{what}: hash_many lane 0");
    assert_eq!(out[2], expected, "{what}: hash_many lane 2");
    assert_eq!(
        out[1],
        shangmi_sm3::hash(b""),
        "{what}: hash_many empty lane"
    );
}

#[test]
fn appendix_a_examples() {
    // GB/T 32905-2016 Appendix A.1 and A.2 (typed in from the standard).
    check_digest(
        b"abc",
        &hex("66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0"),
        "A.1",
    );
    check_digest(
        &b"abcd".repeat(16),
        &hex("debe9ff92275b8a138604889c18e5a4d6fdb70e5387e5765293dcba39c0c5732"),
        "A.2",
    );
}

#[test]
fn json_sm3_group() {
    let v = sm2_sm3();
    let vectors = v.pointer("/sm3/vectors").unwrap().as_array().unwrap();
    assert_eq!(vectors.len(), 2);
    for (i, t) in vectors.iter().enumerate() {
        let msg = hex(t["msg_hex"].as_str().unwrap());
        assert_eq!(msg, t["msg_ascii"].as_str().unwrap().as_bytes());
        check_digest(
            &msg,
            &hex(t["digest"].as_str().unwrap()),
            &format!("sm3[{i}]"),
        );
    }
}

#[test]
fn json_za_preimages() {
    let v = sm2_sm3();
    let vectors = v
        .pointer("/sm3_za_preimages/vectors")
        .unwrap()
        .as_array()
        .unwrap();
    assert_eq!(vectors.len(), 3);
    for (i, _) in vectors.iter().enumerate() {
        let msg = hex_at(&v, &format!("/sm3_za_preimages/vectors/{i}/input_hex"));
        let digest = hex_at(&v, &format!("/sm3_za_preimages/vectors/{i}/digest"));
        check_digest(&msg, &digest, &format!("za[{i}]"));
    }
}

#[test]
fn gmssl_sm3_cases() {
    let g = sm_testvectors::gmssl();
    let cases = g["sm3"].as_array().unwrap();
    assert!(cases.len() >= 5);
    for c in cases {
        let msg = hex(c["message_hex"].as_str().unwrap());
        assert_eq!(msg.len() as u64, c["message_len"].as_u64().unwrap());
        let what = format!("gmssl case {}", c["case"]);
        check_digest(&msg, &hex(c["digest_hex"].as_str().unwrap()), &what);
    }
}

#[test]
fn hmac_sm3_vectors_including_wycheproof_invalid() {
    let v = sm2_sm3();
    let vectors = v.pointer("/hmac_sm3/vectors").unwrap().as_array().unwrap();
    let (mut valid, mut invalid) = (0, 0);
    for t in vectors {
        let key = hex(t["key"].as_str().unwrap());
        let msg = hex(t["msg"].as_str().unwrap());
        if let Some(ascii) = t.get("msg_ascii") {
            assert_eq!(msg, ascii.as_str().unwrap().as_bytes());
        }
        let tag = hex(t["tag"].as_str().unwrap());
        let what = format!("hmac tcId {}", t["tcId"]);
        let one_shot = shangmi_sm3::hmac_sm3(&key, &msg);
        let mut mac = HmacSm3::new_from_slice(&key).unwrap();
        mac.update(&msg);
        let crate_tag = mac.clone().finalize().into_bytes();
        assert_eq!(
            one_shot.as_slice(),
            crate_tag.as_slice(),
            "{what}: one-shot vs Hmac<Sm3>"
        );
        match t["result"].as_str().unwrap() {
            "valid" => {
                valid += 1;
                assert_eq!(one_shot.as_slice(), tag, "{what}");
                assert!(mac.verify_slice(&tag).is_ok(), "{what}: verify");
            }
            "invalid" => {
                invalid += 1;
                assert_ne!(
                    one_shot.as_slice(),
                    tag,
                    "{what}: modified tag must not match"
                );
                assert!(mac.verify_slice(&tag).is_err(), "{what}: verify must fail");
            }
            other => panic!("{what}: unexpected result {other}"),
        }
    }
    assert!(
        valid >= 7 && invalid >= 2,
        "valid {valid}, invalid {invalid}"
    );
}

#[test]
fn hmac_long_key_is_hashed() {
    let key = [0x5au8; 100];
    let hashed = shangmi_sm3::hash(&key);
    assert_eq!(
        shangmi_sm3::hmac_sm3(&key, b"m"),
        shangmi_sm3::hmac_sm3(&hashed, b"m")
    );
    assert_ne!(
        shangmi_sm3::hmac_sm3(&key[..64], b"m"),
        shangmi_sm3::hmac_sm3(&key[..63], b"m")
    );
}

fn kdf_both_ways(parts: &[&[u8]], expected: &[u8], what: &str) {
    let z = parts.concat();
    let mut out = vec![0u8; expected.len()];
    shangmi_sm3::kdf(&z, &mut out);
    assert_eq!(out, expected, "{what}: kdf");
    let mut out2 = vec![0u8; expected.len()];
    let mut r = shangmi_sm3::Kdf::new(parts);
    let (a, b) = out2.split_at_mut(expected.len() / 3);
    r.fill(a);
    r.fill(b);
    assert_eq!(out2, expected, "{what}: Kdf reader");
}

#[test]
fn kdf_sm2_encryption_annex_c() {
    // GB/T 32918.5 Annex C: t = KDF(x2 ‖ y2, klen = 152).
    let v = sm2_sm3();
    let x2 = hex_at(&v, "/sm2_encrypt_recommended/x2");
    let y2 = hex_at(&v, "/sm2_encrypt_recommended/y2");
    let t = hex_at(&v, "/sm2_encrypt_recommended/t_kdf");
    assert_eq!(
        t.len() * 8,
        v["sm2_encrypt_recommended"]["klen_bits"].as_u64().unwrap() as usize
    );
    kdf_both_ways(&[&x2, &y2], &t, "SM2 encryption");
    // And C3 = SM3(x2 ‖ M ‖ y2) of the same example.
    let m = hex_at(&v, "/sm2_encrypt_recommended/msg_hex");
    let c3 = hex_at(&v, "/sm2_encrypt_recommended/C3");
    assert_eq!(
        shangmi_sm3::hash(&[&x2[..], &m, &y2].concat()),
        c3.as_slice()
    );
}

#[test]
fn kdf_sm2_key_exchange_annex_a() {
    // GB/T 32918.3 Annex A: K = KDF(xV ‖ yV ‖ ZA ‖ ZB, klen = 128).
    let v = sm2_sm3();
    let p = |k: &str| hex_at(&v, &format!("/sm2_kx_test_curve/{k}"));
    let (xv, yv, za, zb, k) = (p("xV"), p("yV"), p("ZA"), p("ZB"), p("K"));
    kdf_both_ways(&[&xv, &yv, &za, &zb], &k, "SM2 key exchange");
}

#[test]
fn sm2_key_exchange_confirmation_tags_annex_a() {
    // GB/T 32918.3 Annex A (BouncyCastle's SM2KeyExchangeTest values): SB = S1 =
    // SM3(0x02 ‖ yV ‖ SM3(xV ‖ ZA ‖ ZB ‖ x1 ‖ y1 ‖ x2 ‖ y2)), SA = S2 the same with 0x03. The
    // formula the sm2 crate and its gmalg interop test (sm2/tests/interop_py.rs) use.
    let v = sm2_sm3();
    let p = |k: &str| hex_at(&v, &format!("/sm2_kx_test_curve/{k}"));
    let inner = sm3::hash(
        &[
            p("xV"),
            p("ZA"),
            p("ZB"),
            p("x1"),
            p("y1"),
            p("x2"),
            p("y2"),
        ]
        .concat(),
    );
    let tag = |prefix: u8| sm3::hash(&[&[prefix][..], &p("yV"), &inner].concat()).to_vec();
    assert_eq!(tag(0x02), p("SB_equals_S1"));
    assert_eq!(tag(0x03), p("SA_equals_S2"));
}

#[test]
fn kdf_sm9_kem_and_encryption_annexes() {
    // GM/T 0044.4 annex C: K = KDF(C ‖ w ‖ IDB, 256); annex D: K = KDF(C1 ‖ w ‖ IDB, 416).
    let v = sm_testvectors::sm9();
    let c = hex_at(&v, "/kem_annexC/C");
    let w = hex_at(&v, "/kem_annexC/derived/w=g^r");
    let id = v
        .pointer("/kem_annexC/ID_B")
        .unwrap()
        .as_str()
        .unwrap()
        .as_bytes();
    assert_eq!(w.len(), 384);
    kdf_both_ways(&[&c, &w, id], &hex_at(&v, "/kem_annexC/K"), "SM9 KEM");

    let c1 = hex_at(&v, "/encrypt_annexD/C1");
    let w = hex_at(&v, "/encrypt_annexD/derived/w=e(Ppube,P2)^r");
    let id = v
        .pointer("/encrypt_annexD/ID_B")
        .unwrap()
        .as_str()
        .unwrap()
        .as_bytes();
    let k = hex_at(&v, "/encrypt_annexD/xor_mode/K=K1||K2");
    assert_eq!(k.len(), 52);
    kdf_both_ways(&[&c1, &w, id], &k, "SM9 encryption");
}

#[cfg(feature = "oid")]
#[test]
fn oid() {
    use shangmi_sm3::digest::const_oid::AssociatedOid;
    assert_eq!(Sm3::OID.to_string(), "1.2.156.10197.1.401");
    assert_eq!(shangmi_sm3::Sm3Core::OID.to_string(), shangmi_sm3::SM3_OID);
    // DER body of the OID: 2A 81 1C CF 55 01 83 11.
    assert_eq!(
        Sm3::OID.as_bytes(),
        [0x2a, 0x81, 0x1c, 0xcf, 0x55, 0x01, 0x83, 0x11]
    );
}

#[test]
fn digest_trait_surface() {
    let mut h = Sm3::new();
    h.update(b"ab");
    let snapshot = h.clone();
    h.update(b"c");
    assert_eq!(h.finalize_reset().as_slice(), shangmi_sm3::hash(b"abc"));
    assert_eq!(h.finalize().as_slice(), shangmi_sm3::hash(b""));
    let mut s = snapshot;
    s.update(b"c");
    assert_eq!(s.finalize().as_slice(), shangmi_sm3::hash(b"abc"));
    let mut r = Sm3::new();
    r.update(b"junk");
    Digest::reset(&mut r);
    r.update(b"abc");
    assert_eq!(r.finalize().as_slice(), shangmi_sm3::hash(b"abc"));
    assert_eq!(<Sm3 as Digest>::output_size(), 32);
    assert!(format!("{:?}", Sm3::new()).contains("Sm3"));
}
