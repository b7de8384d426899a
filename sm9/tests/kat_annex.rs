//! GM/T 0044.5 (GB/T 38635.2) Annex A–D examples and the gmsm DER examples, byte for byte
//! (sm-testvectors/data/sm9-vectors.json), on every compiled limb backend (one suite per backend;
//! `SM_EXPECT_ALL_BACKENDS=1` asks for all of them).

use shangmi_sm9::hazmat;
use shangmi_sm9::{EncryptionMode, MacMode};
use sm_testvectors::{hex, hex_at};

fn v() -> serde_json::Value {
    sm_testvectors::sm9()
}

fn at(v: &serde_json::Value, p: &str) -> Vec<u8> {
    hex_at(v, p)
}

/// `04 ‖ bytes` (the annexes print points without the prefix).
fn pt(b: Vec<u8>) -> Vec<u8> {
    let mut out = vec![0x04];
    out.extend(b);
    out
}

fn arr32(b: &[u8]) -> [u8; 32] {
    b.try_into().unwrap()
}

macro_rules! suite {
    ($m:ident, $B:ty) => {
        mod $m {
            use super::*;

            /// The crate's names, with the key and value types over this suite's backend.
            mod sm9 {
                pub use shangmi_sm9::*;
                use shangmi_sm9::generic as g;
                pub type SignMasterKey = g::SignMasterKey<$B>;
                pub type SignMasterPublicKey = g::SignMasterPublicKey<$B>;
                pub type EncMasterKey = g::EncMasterKey<$B>;
                pub type EncMasterPublicKey = g::EncMasterPublicKey<$B>;
                pub type EncUserKey = g::EncUserKey<$B>;
                pub type Signature = g::Signature<$B>;
                pub type Verifier<'a> = g::Verifier<'a, $B>;
                pub type Ciphertext = g::Ciphertext<$B>;
                pub type EncapsulatedKey = g::EncapsulatedKey<$B>;
                pub type EphemeralPoint = g::EphemeralPoint<$B>;
            }

        #[test]
        fn annex_a_signature() {
            let v = v();
            let a = |p: &str| at(&v, &format!("/sign_annexA/{p}"));
            let kgc = sm9::SignMasterKey::from_bytes(&arr32(&a("ks"))).unwrap();
            assert_eq!(kgc.public_key().to_bytes().to_vec(), pt(a("Ppubs")));
            let master = kgc.public_key().prepare();
            assert_eq!(master.g().to_bytes().to_vec(), a("g_e(P1,Ppubs)"));
            let id = a("ID_A_hex");
            assert_eq!(
                sm9::h1(&id, 1).to_bytes().to_vec(),
                a("h1_H1(IDA||hid)")
            );
            let alice = kgc.extract(&id).unwrap();
            assert_eq!(alice.ds_bytes().to_vec(), pt(a("dsA")));
            let m = a("M_hex");
            let sig = hazmat::sign_with_nonce(&alice, &master, &m, &arr32(&a("r"))).unwrap();
            assert_eq!(sig.h_bytes().to_vec(), a("h"));
            assert_eq!(sig.s_bytes().to_vec(), pt(a("S")));
            let der = sig.to_der().unwrap();
            assert_eq!(
                der,
                at(&v, "/sign_annexA/derived/signature_DER_GmSSL_gmsm (SEQUENCE{h OCTET STRING, S BIT STRING 04||x||y})")
            );
            assert_eq!(sm9::Signature::from_der(&der).unwrap(), sig);
            sm9::verify(&master, &id, &m, &sig).unwrap();
            // Streaming in odd chunks.
            let mut ver = sm9::Verifier::new(&master, &id, &sig);
            for c in m.chunks(3) {
                ver.update(c);
            }
            ver.verify().unwrap();
            assert_eq!(
                sm9::verify(&master, b"Bob", &m, &sig),
                Err(sm9::Error::Verification)
            );
            assert_eq!(
                sm9::verify(&master, &id, b"other", &sig),
                Err(sm9::Error::Verification)
            );
        }

        #[test]
        fn annex_b_key_exchange() {
            let v = v();
            let b = |p: &str| at(&v, &format!("/key_exchange_annexB/{p}"));
            let kgc = sm9::EncMasterKey::from_bytes(&arr32(&b("ke"))).unwrap();
            assert_eq!(kgc.public_key().to_bytes().to_vec(), pt(b("Ppube")));
            let master = kgc.public_key().prepare();
            let alice = kgc.extract_exchange(b"Alice").unwrap();
            let bob = kgc.extract_exchange(b"Bob").unwrap();
            assert_eq!(alice.de_bytes().to_vec(), pt(b("deA")));
            assert_eq!(bob.de_bytes().to_vec(), pt(b("deB")));
            let (alice, bob) = (alice.prepare(), bob.prepare());

            let (a_state, ra) =
                hazmat::initiator_start_with_nonce(&alice, &master, b"Alice", b"Bob", &arr32(&b("rA")))
                    .unwrap();
            assert_eq!(ra.to_bytes().to_vec(), pt(b("RA")));
            let (b_state, rb, sb) = hazmat::responder_respond_with_nonce(
                &bob,
                &master,
                b"Bob",
                b"Alice",
                &ra,
                &arr32(&b("rB")),
            )
            .unwrap();
            assert_eq!(rb.to_bytes().to_vec(), pt(b("RB")));
            assert_eq!(sb.to_vec(), b("SB"));
            let (ska, sa) = a_state.finish(&rb, Some(&sb), 16).unwrap();
            assert_eq!(sa.to_vec(), b("SA"));
            assert_eq!(ska.to_vec(), b("SKA=SKB"));
            let skb = b_state.confirm(&sa, 16).unwrap();
            assert_eq!(skb.to_vec(), b("SKA=SKB"));
        }

        #[test]
        fn annex_b_key_exchange_rejects_tampering() {
            let v = v();
            let b = |p: &str| at(&v, &format!("/key_exchange_annexB/{p}"));
            let kgc = sm9::EncMasterKey::from_bytes(&arr32(&b("ke"))).unwrap();
            let master = kgc.public_key().prepare();
            let alice = kgc.extract_exchange(b"Alice").unwrap().prepare();
            let bob = kgc.extract_exchange(b"Bob").unwrap().prepare();
            let start = || {
                hazmat::initiator_start_with_nonce(&alice, &master, b"Alice", b"Bob", &arr32(&b("rA")))
                    .unwrap()
            };
            let (_, ra) = start();
            let respond = || {
                hazmat::responder_respond_with_nonce(&bob, &master, b"Bob", b"Alice", &ra, &arr32(&b("rB")))
                    .unwrap()
            };
            // Tampered SB.
            let (a_state, _) = start();
            let (_, rb, mut sb) = respond();
            sb[0] ^= 1;
            assert_eq!(
                a_state.finish(&rb, Some(&sb), 16).unwrap_err(),
                sm9::Error::KeyConfirmation
            );
            // Tampered SA.
            let (a_state, _) = start();
            let (b_state, rb, sb) = respond();
            let (_, mut sa) = a_state.finish(&rb, Some(&sb), 16).unwrap();
            sa[31] ^= 0x80;
            assert_eq!(
                b_state.confirm(&sa, 16).unwrap_err(),
                sm9::Error::KeyConfirmation
            );
            // A different RB (wrong responder identity): SB does not match.
            let (a_state, _) = start();
            let (_, _, sb) = respond();
            let other = sm9::EphemeralPoint::from_bytes(&pt(b("RA"))).unwrap();
            assert_eq!(
                a_state.finish(&other, Some(&sb), 16).unwrap_err(),
                sm9::Error::KeyConfirmation
            );
            // Off-curve RA is rejected when decoded.
            let mut bad = pt(b("RA"));
            bad[64] ^= 1;
            assert_eq!(
                sm9::EphemeralPoint::from_bytes(&bad).unwrap_err(),
                sm9::Error::InvalidPoint
            );
        }

        #[test]
        fn annex_c_kem() {
            let v = v();
            let c = |p: &str| at(&v, &format!("/kem_annexC/{p}"));
            let kgc = sm9::EncMasterKey::from_bytes(&arr32(&c("ke"))).unwrap();
            assert_eq!(kgc.public_key().to_bytes().to_vec(), pt(c("Ppube")));
            let master = kgc.public_key().prepare();
            let bob = kgc.extract(b"Bob").unwrap();
            assert_eq!(bob.de_bytes().to_vec(), pt(c("deB")));
            assert_eq!(master.g().to_bytes().to_vec(), c("derived/g=e(Ppube,P2)"));
            let (k, enc) = hazmat::encapsulate_with_nonce(&master, b"Bob", 32, &arr32(&c("r"))).unwrap();
            assert_eq!(enc.to_bytes().to_vec(), pt(c("C")));
            assert_eq!(k.to_vec(), c("K"));
            let bob = bob.prepare();
            assert_eq!(
                sm9::decapsulate(&bob, b"Bob", &enc, 32)
                    .unwrap()
                    .to_vec(),
                c("K")
            );
            // A shorter key is a prefix of the KDF stream.
            assert_eq!(
                sm9::decapsulate(&bob, b"Bob", &enc, 7)
                    .unwrap()
                    .to_vec(),
                c("K")[..7].to_vec()
            );
            assert_eq!(
                sm9::decapsulate(&bob, b"Bob", &enc, 0).unwrap_err(),
                sm9::Error::InvalidLength
            );
        }

        #[test]
        fn annex_d_encryption() {
            let v = v();
            let d = |p: &str| at(&v, &format!("/encrypt_annexD/{p}"));
            let kgc = sm9::EncMasterKey::from_bytes(&arr32(&d("ke"))).unwrap();
            let master = kgc.public_key().prepare();
            let bob = kgc.extract(b"Bob").unwrap();
            assert_eq!(bob.de_bytes().to_vec(), pt(d("deB")));
            let bob = bob.prepare();
            let m = d("M_hex");
            let r = arr32(&d("r"));
            // KDF stream mode.
            let ct = hazmat::encrypt_with_nonce(
                &master,
                b"Bob",
                &m,
                EncryptionMode::KdfStream,
                MacMode::Sm3,
                &r,
                &[0; 16],
            )
            .unwrap();
            assert_eq!(ct.c1_bytes().to_vec(), pt(d("C1")));
            assert_eq!(ct.c2().to_vec(), d("xor_mode/C2"));
            assert_eq!(ct.c3().to_vec(), d("xor_mode/C3=SM3(C2||K2)"));
            let mut raw = pt(d("C1"));
            raw.extend(d("xor_mode/C3=SM3(C2||K2)"));
            raw.extend(d("xor_mode/C2"));
            assert_eq!(ct.to_bytes(), raw);
            let parsed = sm9::Ciphertext::from_bytes(EncryptionMode::KdfStream, &raw).unwrap();
            assert_eq!(
                sm9::decrypt(&bob, b"Bob", &parsed, MacMode::Sm3)
                    .unwrap()
                    .to_vec(),
                m
            );
            assert_eq!(
                sm9::decrypt(&bob, b"Bob", &parsed, MacMode::HmacSm3).unwrap_err(),
                sm9::Error::Decryption
            );
            assert_eq!(
                sm9::decrypt(&bob, b"Alice", &parsed, MacMode::Sm3).unwrap_err(),
                sm9::Error::Decryption
            );
            // GmSSL's MAC over the same C1/C2.
            let gm = hazmat::encrypt_with_nonce(
                &master,
                b"Bob",
                &m,
                EncryptionMode::KdfStream,
                MacMode::HmacSm3,
                &r,
                &[0; 16],
            )
            .unwrap();
            assert_eq!(
                gm.c3().to_vec(),
                d("xor_mode/GmSSL_v3_C3=HMAC-SM3(K2,C2)_NONSTANDARD (derived)")
            );
            // SM4-ECB mode.
            let ct = hazmat::encrypt_with_nonce(
                &master,
                b"Bob",
                &m,
                EncryptionMode::Sm4Ecb,
                MacMode::Sm3,
                &r,
                &[0; 16],
            )
            .unwrap();
            assert_eq!(ct.c1_bytes().to_vec(), pt(d("C1")));
            assert_eq!(ct.c2().to_vec(), d("sm4_ecb_pkcs7_mode/C2"));
            assert_eq!(ct.c3().to_vec(), d("sm4_ecb_pkcs7_mode/C3=SM3(C2||K2)"));
            assert_eq!(
                sm9::decrypt(&bob, b"Bob", &ct, MacMode::Sm3)
                    .unwrap()
                    .to_vec(),
                m
            );
            let der = ct.to_der().unwrap();
            assert_eq!(sm9::Ciphertext::from_der(&der).unwrap(), ct);
            // SM4-CBC round trip with a fixed IV.
            let ct = hazmat::encrypt_with_nonce(
                &master,
                b"Bob",
                &m,
                EncryptionMode::Sm4Cbc,
                MacMode::Sm3,
                &r,
                &[5; 16],
            )
            .unwrap();
            assert_eq!(&ct.c2()[..16], &[5; 16]);
            let back = sm9::Ciphertext::from_der(&ct.to_der().unwrap()).unwrap();
            assert_eq!(back.mode(), EncryptionMode::Sm4Cbc);
            assert_eq!(
                sm9::decrypt(&bob, b"Bob", &back, MacMode::Sm3)
                    .unwrap()
                    .to_vec(),
                m
            );
            // The empty message (KDF stream): the same C1, an empty C2, and C3 = SM3(ε ‖ K2) with K2 the
            // first 32 bytes of the KDF output, i.e. the Annex's K1 (20 bytes) followed by the first 12
            // bytes of its K2 (the KDF output is one stream, whatever klen).
            let empty = hazmat::encrypt_with_nonce(
                &master,
                b"Bob",
                b"",
                EncryptionMode::KdfStream,
                MacMode::Sm3,
                &r,
                &[0; 16],
            )
            .unwrap();
            assert_eq!(empty.c1_bytes().to_vec(), pt(d("C1")));
            assert!(empty.c2().is_empty());
            let mut k2 = d("xor_mode/K1");
            k2.extend(&d("xor_mode/K2")[..32 - k2.len()]);
            assert_eq!(k2.len(), 32);
            assert_eq!(
                empty.c3().to_vec(),
                <sm3::Sm3 as sm3::Digest>::digest(&k2).to_vec()
            );
            let raw = empty.to_bytes();
            assert_eq!(raw.len(), 97);
            let parsed = sm9::Ciphertext::from_bytes(EncryptionMode::KdfStream, &raw).unwrap();
            assert!(sm9::decrypt(&bob, b"Bob", &parsed, MacMode::Sm3)
                .unwrap()
                .is_empty());
            assert_eq!(
                sm9::decrypt(&bob, b"Alice", &parsed, MacMode::Sm3).unwrap_err(),
                sm9::Error::Decryption
            );
        }

        #[test]
        fn gmsm_der_examples() {
            let v = v();
            let g = |p: &str| at(&v, &format!("/interop_DER_examples_gmsm_docs/{p}"));
            // Master public keys as bare BIT STRINGs.
            let bs = |b: &[u8]| -> Vec<u8> {
                use der::Decode;
                der::asn1::BitStringRef::from_der(b)
                    .unwrap()
                    .as_bytes()
                    .unwrap()
                    .to_vec()
            };
            let spk =
                sm9::SignMasterPublicKey::from_bytes(&bs(&g("sign_master_public_key_BITSTRING")))
                    .unwrap();
            let master = spk.prepare();
            let sig = sm9::Signature::from_der(&g(
                "signature_DER_valid_for_Alice_hid01_M_Chinese_IBS_standard",
            ))
            .unwrap();
            sm9::verify(&master, b"Alice", b"Chinese IBS standard", &sig).unwrap();
            assert_eq!(
                sig.to_der().unwrap(),
                g("signature_DER_valid_for_Alice_hid01_M_Chinese_IBS_standard")
            );

            let epk =
                sm9::EncMasterPublicKey::from_bytes(&bs(&g("enc_master_public_key_BITSTRING")))
                    .unwrap();
            let bob =
                sm9::EncUserKey::from_parts(&bs(&g("enc_user_private_key_Bob_BITSTRING")), &epk)
                    .unwrap()
                    .prepare();
            let c = sm9::EncapsulatedKey::from_der(&g("kem_C_BITSTRING_for_Bob")).unwrap();
            assert_eq!(c.to_der().unwrap(), g("kem_C_BITSTRING_for_Bob"));
            assert_eq!(
                sm9::decapsulate(&bob, b"Bob", &c, 32)
                    .unwrap()
                    .to_vec(),
                g("kem_K_32bytes")
            );
            let der = g("ciphertext_DER_XOR_standardMAC (SEQUENCE{INTEGER 0, BIT STRING C1, OCTET STRING C3, OCTET STRING C2})");
            let ct = sm9::Ciphertext::from_der(&der).unwrap();
            assert_eq!(ct.to_der().unwrap(), der);
            assert_eq!(
                &sm9::decrypt(&bob, b"Bob", &ct, MacMode::Sm3).unwrap()[..],
                b"Chinese IBE standard"
            );
            let _ = hex("00");
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

/// The backend suites above are all compiled under `cargo xtask test` (`SM_EXPECT_ALL_BACKENDS`).
#[test]
fn backend_suites_compiled() {
    sm_testvectors::expect_backends(
        "sm9 kat_annex",
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
