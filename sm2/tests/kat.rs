//! Known answers: GB/T 32918.5 recommended-curve examples (signature, encryption, key exchange),
//! the GmSSL 3.3 cases with recorded randomness (keys in every encoding, signatures, ciphertexts)
//! and OpenSSL-generated values, byte for byte.

use serde_json::Value;
use shangmi_sm2::exchange::{Initiator, Responder};
use shangmi_sm2::generic::{PublicKey, SecretKey, SigningKey, VerifyingKey};
use shangmi_sm2::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use shangmi_sm2::spki::{DecodePublicKey, EncodePublicKey};
use shangmi_sm2::{compute_za, message_digest, Ciphertext, Mode, Signature};
use sm_testvectors::{hex, hex_at};

fn arr32(v: &[u8]) -> [u8; 32] {
    v.try_into().unwrap()
}

fn str_at<'a>(v: &'a Value, p: &str) -> &'a str {
    v.pointer(p)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no {p}"))
}

macro_rules! suite {
    ($m:ident, $B:ty) => {
        mod $m {
            use super::*;
            type Sk = SecretKey<$B>;
            type Pk = PublicKey<$B>;

            #[test]
            fn gbt_32918_5_signature() {
                let v = sm_testvectors::sm2_sm3();
                let g = &v["sm2_sign_recommended"];
                let sk = Sk::from_bytes(&arr32(&hex_at(g, "/dA"))).unwrap();
                let p = sk.public_key().to_uncompressed();
                assert_eq!(&p[1..33], &hex_at(g, "/xA")[..]);
                assert_eq!(&p[33..], &hex_at(g, "/yA")[..]);
                let id = hex_at(g, "/id_hex");
                let za = compute_za(&id, sk.public_key()).unwrap();
                assert_eq!(za.to_vec(), hex_at(g, "/ZA"));
                let e = message_digest(&za, &hex_at(g, "/msg_hex"));
                assert_eq!(e.to_vec(), hex_at(g, "/e"));
                let signer = SigningKey::with_id(&sk, &id).unwrap();
                let sig = signer
                    .sign_prehash_with_nonce(&e, &arr32(&hex_at(g, "/k")))
                    .unwrap();
                assert_eq!(sig.r().to_vec(), hex_at(g, "/r"));
                assert_eq!(sig.s().to_vec(), hex_at(g, "/s"));
                assert_eq!(sig.to_der(), hex_at(g, "/signature_der"));
                assert_eq!(
                    Signature::from_der(&hex_at(g, "/signature_der")).unwrap(),
                    sig
                );
                let vk = VerifyingKey::with_id(sk.public_key(), &id).unwrap();
                vk.verify(&hex_at(g, "/msg_hex"), &sig).unwrap();
                vk.clone()
                    .with_precomputed_table()
                    .verify(&hex_at(g, "/msg_hex"), &sig)
                    .unwrap();
                assert!(vk.verify(b"message digesT", &sig).is_err());
                // Key encodings (OpenSSL layout).
                assert_eq!(
                    sk.to_pkcs8_der().unwrap().as_bytes(),
                    &hex_at(g, "/pkcs8_private_key_der")[..]
                );
                assert_eq!(
                    sk.public_key().to_public_key_der().unwrap().as_bytes(),
                    &hex_at(g, "/spki_public_key_der")[..]
                );
                let back = Sk::from_pkcs8_der(&hex_at(g, "/pkcs8_private_key_der")).unwrap();
                assert_eq!(back.to_bytes(), sk.to_bytes());
                assert_eq!(
                    Pk::from_public_key_der(&hex_at(g, "/spki_public_key_der")).unwrap(),
                    *sk.public_key()
                );
            }

            #[test]
            fn gbt_32918_5_encryption() {
                let v = sm_testvectors::sm2_sm3();
                let g = &v["sm2_encrypt_recommended"];
                let sk = Sk::from_bytes(&arr32(&hex_at(g, "/dB"))).unwrap();
                let msg = hex_at(g, "/msg_hex");
                let c = sk
                    .public_key()
                    .encrypt_with_nonce(&arr32(&hex_at(g, "/k")), &msg)
                    .unwrap();
                assert_eq!(
                    c.to_bytes(Mode::C1C3C2),
                    hex_at(g, "/ciphertext_raw_C1C3C2")
                );
                assert_eq!(
                    c.to_bytes(Mode::C1C2C3),
                    hex_at(g, "/ciphertext_raw_C1C2C3")
                );
                assert_eq!(c.to_der().unwrap(), hex_at(g, "/ciphertext_der_gmt0009"));
                assert_eq!(c.c3().to_vec(), hex_at(g, "/C3"));
                assert_eq!(c.c2().to_vec(), hex_at(g, "/C2"));
                assert_eq!(
                    sk.decrypt(&hex_at(g, "/ciphertext_raw_C1C3C2"), Mode::C1C3C2)
                        .unwrap()
                        .as_slice(),
                    &msg[..]
                );
                assert_eq!(
                    sk.decrypt(&hex_at(g, "/ciphertext_raw_C1C2C3"), Mode::C1C2C3)
                        .unwrap()
                        .as_slice(),
                    &msg[..]
                );
                assert_eq!(
                    sk.decrypt_der(&hex_at(g, "/ciphertext_der_gmt0009"))
                        .unwrap()
                        .as_slice(),
                    &msg[..]
                );
                // Compressed C1 on input.
                let cc = c.with_c1_compressed(true).unwrap();
                assert_eq!(cc.c1().len(), 33);
                assert_eq!(
                    sk.decrypt(&cc.to_bytes(Mode::C1C3C2), Mode::C1C3C2)
                        .unwrap()
                        .as_slice(),
                    &msg[..]
                );
                assert_eq!(Ciphertext::from_der(&c.to_der().unwrap()).unwrap(), c);
            }

            #[test]
            fn gbt_32918_5_key_exchange() {
                let v = sm_testvectors::sm2_sm3();
                let g = &v["sm2_kx_recommended"];
                let a = Sk::from_bytes(&arr32(&hex_at(g, "/dA"))).unwrap();
                let b = Sk::from_bytes(&arr32(&hex_at(g, "/dB"))).unwrap();
                assert_eq!(a.public_key().to_uncompressed().to_vec(), hex_at(g, "/PA"));
                assert_eq!(b.public_key().to_uncompressed().to_vec(), hex_at(g, "/PB"));
                let ida = str_at(g, "/IDA_ascii").as_bytes();
                let idb = str_at(g, "/IDB_ascii").as_bytes();
                assert_eq!(
                    compute_za(ida, a.public_key()).unwrap().to_vec(),
                    hex_at(g, "/ZA")
                );
                assert_eq!(
                    compute_za(idb, b.public_key()).unwrap().to_vec(),
                    hex_at(g, "/ZB")
                );
                let klen = 16;
                let alice = Initiator::new(&a, ida, b.public_key(), idb).unwrap();
                let bob = Responder::new(&b, idb, a.public_key(), ida).unwrap();
                let (alice, ra) = alice
                    .start_with_ephemeral(&arr32(&hex_at(g, "/rA")))
                    .unwrap();
                assert_eq!(ra.to_uncompressed().to_vec(), hex_at(g, "/RA"));
                let (bob, rb, sb) = bob
                    .respond_with_ephemeral(&arr32(&hex_at(g, "/rB")), &ra, klen)
                    .unwrap();
                assert_eq!(rb.to_uncompressed().to_vec(), hex_at(g, "/RB"));
                assert_eq!(sb.to_vec(), hex_at(g, "/SB_equals_S1"));
                let (ka, sa) = alice.finish(&rb, &sb, klen).unwrap();
                assert_eq!(ka.to_vec(), hex_at(g, "/K"));
                assert_eq!(sa.to_vec(), hex_at(g, "/SA_equals_S2"));
                let kb = bob.confirm(&sa).unwrap();
                assert_eq!(kb.to_vec(), hex_at(g, "/K"));
            }

            #[test]
            fn gmssl_cases() {
                let v = sm_testvectors::gmssl();
                let cases = v["sm2"].as_array().unwrap();
                assert!(cases.len() >= 10);
                for c in cases {
                    let sk = Sk::from_bytes(&arr32(&hex_at(c, "/private_key_hex"))).unwrap();
                    let pk_bytes = hex_at(c, "/public_key_hex");
                    assert_eq!(sk.public_key().to_uncompressed().to_vec(), pk_bytes);
                    let pk = Pk::from_sec1_bytes(&pk_bytes).unwrap();
                    // SPKI DER and PEM: byte for byte.
                    assert_eq!(
                        pk.to_public_key_der().unwrap().as_bytes(),
                        &hex_at(c, "/public_key_spki_der_hex")[..]
                    );
                    let pem = str_at(c, "/public_key_pem");
                    assert_eq!(
                        pk.to_public_key_pem(shangmi_sm2::pkcs8::LineEnding::LF)
                            .unwrap(),
                        pem
                    );
                    assert_eq!(Pk::from_public_key_pem(pem).unwrap(), pk);
                    // PKCS#8 (GmSSL layout, with inner parameters) decodes.
                    let k8 = Sk::from_pkcs8_der(&hex_at(c, "/private_key_pkcs8_der_hex")).unwrap();
                    assert_eq!(k8.to_bytes(), sk.to_bytes());
                    let k8 = Sk::from_pkcs8_pem(str_at(c, "/private_key_pem")).unwrap();
                    assert_eq!(k8.to_bytes(), sk.to_bytes());
                    // ZA, e, signature with the recorded nonce.
                    let id = hex_at(c, "/id_hex");
                    let s = &c["sign"];
                    let signer = SigningKey::with_id(&sk, &id).unwrap();
                    assert_eq!(signer.za().to_vec(), hex_at(s, "/z_hex"));
                    let e = message_digest(signer.za(), &hex_at(s, "/message_hex"));
                    assert_eq!(e.to_vec(), hex_at(s, "/e_hex"));
                    let sig = signer
                        .sign_prehash_with_nonce(&e, &arr32(&hex_at(s, "/k_hex")))
                        .unwrap();
                    assert_eq!(sig.r().to_vec(), hex_at(s, "/r_hex"));
                    assert_eq!(sig.s().to_vec(), hex_at(s, "/s_hex"));
                    assert_eq!(sig.to_der(), hex_at(s, "/signature_der_hex"));
                    signer
                        .verifying_key()
                        .verify(&hex_at(s, "/message_hex"), &sig)
                        .unwrap();
                    // Ciphertext with the recorded k.
                    let en = &c["encrypt"];
                    let pt = hex_at(en, "/plaintext_hex");
                    let ct = pk
                        .encrypt_with_nonce(&arr32(&hex_at(en, "/k_hex")), &pt)
                        .unwrap();
                    assert_eq!(ct.to_der().unwrap(), hex_at(en, "/ciphertext_der_hex"));
                    assert_eq!(ct.to_bytes(Mode::C1C3C2), hex_at(en, "/c1c3c2_hex"));
                    assert_eq!(
                        sk.decrypt_der(&hex_at(en, "/ciphertext_der_hex"))
                            .unwrap()
                            .as_slice(),
                        &pt[..]
                    );
                }
            }
        }
    };
}

suite!(default_backend, sm_field::DefaultBackend);
#[cfg(feature = "all-backends")]
suite!(u32_backend, sm_field::U32);
#[cfg(feature = "all-backends")]
suite!(u64_backend, sm_field::U64);
#[cfg(all(
    feature = "all-backends",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
suite!(asm_backend, sm_field::Asm);

#[test]
fn gmssl_encrypted_pkcs8() {
    let v = sm_testvectors::gmssl();
    for c in v["sm2"].as_array().unwrap().iter().take(3) {
        let e = &c["private_key_encrypted"];
        let pem = str_at(e, "/encrypted_pem");
        let pw = str_at(e, "/pem_password").as_bytes();
        let sk: shangmi_sm2::SecretKey = SecretKey::from_pkcs8_encrypted_pem(pem, pw).unwrap();
        assert_eq!(sk.to_bytes().to_vec(), hex(str_at(c, "/private_key_hex")));
        assert_eq!(
            SecretKey::<sm_field::DefaultBackend>::from_pkcs8_encrypted_pem(pem, b"wrong")
                .unwrap_err(),
            shangmi_sm2::Error::Decryption
        );
        // Byte-for-byte re-encryption with the recorded salt and IV.
        let salt = hex_at(e, "/pem_pbkdf2_salt_hex");
        let iv: [u8; 16] = hex_at(e, "/pem_sm4_cbc_iv_hex").try_into().unwrap();
        let der = sk
            .to_pkcs8_encrypted_der_with_params(pw, &salt, &iv, 65536)
            .unwrap();
        let ours = shangmi_sm2::pkcs8::der::pem::encode_string(
            "ENCRYPTED PRIVATE KEY",
            shangmi_sm2::pkcs8::LineEnding::LF,
            &der,
        )
        .unwrap();
        assert_eq!(ours, pem);
    }
}

#[test]
fn openssl_generated_values() {
    let v = sm_testvectors::sm2_sm3();
    let g = &v["openssl_generated_rustcrypto"];
    let pk: shangmi_sm2::PublicKey =
        PublicKey::from_sec1_bytes(&hex_at(g, "/sign/public_key_sec1")).unwrap();
    let vk = VerifyingKey::with_id(&pk, str_at(g, "/sign/id_ascii").as_bytes()).unwrap();
    let sig = Signature::from_scalars(&arr32(&hex_at(g, "/sign/r")), &arr32(&hex_at(g, "/sign/s")))
        .unwrap();
    vk.verify(str_at(g, "/sign/msg_ascii").as_bytes(), &sig)
        .unwrap();
    let sk: shangmi_sm2::SecretKey =
        SecretKey::from_bytes(&arr32(&hex_at(g, "/decrypt/private_key"))).unwrap();
    let pt = str_at(g, "/decrypt/plaintext_ascii").as_bytes();
    assert_eq!(
        sk.decrypt(&hex_at(g, "/decrypt/ciphertext_raw_C1C3C2"), Mode::C1C3C2)
            .unwrap()
            .as_slice(),
        pt
    );
    assert_eq!(
        sk.decrypt_der(&hex_at(g, "/decrypt/ciphertext_der_from_openssl_pkeyutl"))
            .unwrap()
            .as_slice(),
        pt
    );
}

/// The backend suites above are all compiled under `cargo xtask test` (`SM_EXPECT_ALL_BACKENDS`).
#[test]
fn backend_suites_compiled() {
    sm_testvectors::expect_backends(
        "sm2 kat",
        &[
            #[cfg(feature = "all-backends")]
            "u64",
            #[cfg(feature = "all-backends")]
            "u32",
            #[cfg(all(
                feature = "all-backends",
                any(target_arch = "x86_64", target_arch = "aarch64")
            ))]
            "asm",
        ],
    );
}
