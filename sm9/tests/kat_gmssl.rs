//! GmSSL 3.x known answers (sm-testvectors/data/gmssl-kat-sample.json, `sm9` section): keys in
//! DER / PEM / encrypted PKCS#8, signatures and GmSSL-MAC ciphertexts with recorded nonces,
//! byte for byte, on every compiled limb backend (one suite per backend; `SM_EXPECT_ALL_BACKENDS=1`
//! asks for all of them).

use shangmi_sm9::{hazmat, EncryptionMode, MacMode};
use sm_testvectors::{hex, hex_at};

fn arr<const N: usize>(b: &[u8]) -> [u8; N] {
    b.try_into().unwrap()
}

fn s(c: &serde_json::Value, p: &str) -> String {
    c.pointer(p)
        .and_then(|v| v.as_str())
        .unwrap_or_else(|| panic!("missing {p}"))
        .to_string()
}

/// PEM text as GmSSL wrote it vs ours, ignoring only a trailing newline difference.
fn same_pem(a: &str, b: &str) {
    assert_eq!(a.trim_end(), b.trim_end());
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
                pub type SignUserKey = g::SignUserKey<$B>;
                pub type EncMasterKey = g::EncMasterKey<$B>;
                pub type Signature = g::Signature<$B>;
                pub type Ciphertext = g::Ciphertext<$B>;
            }

        #[test]
        fn gmssl_cases() {
            let v = sm_testvectors::gmssl();
            let cases = v["sm9"].as_array().unwrap();
            assert!(cases.len() >= 12);
            // GmSSL encrypts the empty message too; so does this crate (byte for byte, below).
            assert!(cases.iter().any(|c| hex_at(c, "/message_hex").is_empty()));
            for c in cases {
                let case = c["case"].as_u64().unwrap();
                let h = |p: &str| hex_at(c, p);
                let id = h("/id_hex");
                let msg = h("/message_hex");
                let pw = s(c, "/sign_master_key/pem_password");

                // --- signature master key ---------------------------------------------------------
                let kgc =
                    sm9::SignMasterKey::from_bytes(&arr(&h("/sign_master_key/ks_hex"))).unwrap();
                assert_eq!(
                    kgc.public_key().to_bytes().to_vec(),
                    h("/sign_master_key/Ppubs_hex"),
                    "case {case}"
                );
                assert_eq!(
                    kgc.to_der().unwrap().to_vec(),
                    h("/sign_master_key/master_key_der_hex")
                );
                assert_eq!(
                    sm9::SignMasterKey::from_der(&h("/sign_master_key/master_key_der_hex"))
                        .unwrap()
                        .to_bytes(),
                    kgc.to_bytes()
                );
                assert_eq!(
                    kgc.public_key().to_der().unwrap(),
                    h("/sign_master_key/master_public_key_der_hex")
                );
                same_pem(
                    &kgc.public_key().to_pem().unwrap(),
                    &s(c, "/sign_master_key/master_public_key_pem"),
                );
                assert_eq!(
                    &sm9::SignMasterPublicKey::from_pem(&s(
                        c,
                        "/sign_master_key/master_public_key_pem"
                    ))
                    .unwrap(),
                    kgc.public_key()
                );
                let enc = kgc
                    .to_encrypted_pkcs8_der_with(
                        pw.as_bytes(),
                        &h("/sign_master_key/pem_pbkdf2_salt_hex"),
                        &arr(&h("/sign_master_key/pem_sm4_cbc_iv_hex")),
                        sm9::DEFAULT_PBKDF2_ITERATIONS,
                    )
                    .unwrap();
                let gm_pem = s(c, "/sign_master_key/encrypted_pem");
                let (_, gm_der) = der::pem::decode_vec(gm_pem.as_bytes()).unwrap();
                assert_eq!(enc, gm_der, "case {case}: encrypted sign master key");
                let back = sm9::SignMasterKey::from_encrypted_pem(&gm_pem, pw.as_bytes()).unwrap();
                assert_eq!(back.to_bytes(), kgc.to_bytes());

                // --- signature user key and signature -------------------------------------------
                assert_eq!(
                    sm9::h1(&id, 1).to_bytes().to_vec(),
                    h("/sign_user_key/h1_hex")
                );
                let user = kgc.extract(&id).unwrap();
                assert_eq!(
                    user.ds_bytes().to_vec(),
                    h("/sign_user_key/ds_hex"),
                    "case {case}"
                );
                assert_eq!(
                    user.to_der().unwrap().to_vec(),
                    h("/sign_user_key/user_key_der_hex")
                );
                let enc = user
                    .to_encrypted_pkcs8_der_with(
                        pw.as_bytes(),
                        &h("/sign_user_key/pem_pbkdf2_salt_hex"),
                        &arr(&h("/sign_user_key/pem_sm4_cbc_iv_hex")),
                        sm9::DEFAULT_PBKDF2_ITERATIONS,
                    )
                    .unwrap();
                let gm_pem = s(c, "/sign_user_key/encrypted_pem");
                let (_, gm_der) = der::pem::decode_vec(gm_pem.as_bytes()).unwrap();
                assert_eq!(enc, gm_der, "case {case}: encrypted sign user key");
                let back = sm9::SignUserKey::from_encrypted_pem(&gm_pem, pw.as_bytes()).unwrap();
                assert_eq!(back.ds_bytes(), user.ds_bytes());
                assert_eq!(
                    sm9::SignUserKey::from_encrypted_pem(&gm_pem, b"not the password").unwrap_err(),
                    sm9::Error::Decryption
                );

                let master = kgc.public_key().prepare();
                assert_eq!(master.g().to_bytes().to_vec(), h("/signature/g_hex"));
                let sig =
                    hazmat::sign_with_nonce(&user, &master, &msg, &arr(&h("/signature/r_hex"))).unwrap();
                assert_eq!(sig.h_bytes().to_vec(), h("/signature/h_hex"), "case {case}");
                assert_eq!(sig.s_bytes().to_vec(), h("/signature/S_hex"));
                assert_eq!(sig.to_der().unwrap(), h("/signature/signature_der_hex"));
                let parsed = sm9::Signature::from_der(&h("/signature/signature_der_hex")).unwrap();
                sm9::verify(&master, &id, &msg, &parsed).unwrap();

                // --- encryption master key and user keys -----------------------------------------
                let ekgc =
                    sm9::EncMasterKey::from_bytes(&arr(&h("/enc_master_key/ke_hex"))).unwrap();
                assert_eq!(
                    ekgc.public_key().to_bytes().to_vec(),
                    h("/enc_master_key/Ppube_hex")
                );
                assert_eq!(
                    ekgc.to_der().unwrap().to_vec(),
                    h("/enc_master_key/master_key_der_hex")
                );
                assert_eq!(
                    ekgc.public_key().to_der().unwrap(),
                    h("/enc_master_key/master_public_key_der_hex")
                );
                same_pem(
                    &ekgc.public_key().to_pem().unwrap(),
                    &s(c, "/enc_master_key/master_public_key_pem"),
                );
                let enc = ekgc
                    .to_encrypted_pkcs8_der_with(
                        pw.as_bytes(),
                        &h("/enc_master_key/pem_pbkdf2_salt_hex"),
                        &arr(&h("/enc_master_key/pem_sm4_cbc_iv_hex")),
                        sm9::DEFAULT_PBKDF2_ITERATIONS,
                    )
                    .unwrap();
                let gm_pem = s(c, "/enc_master_key/encrypted_pem");
                let (_, gm_der) = der::pem::decode_vec(gm_pem.as_bytes()).unwrap();
                assert_eq!(enc, gm_der, "case {case}: encrypted enc master key");

                assert_eq!(
                    sm9::h1(&id, 3).to_bytes().to_vec(),
                    h("/enc_user_key/h1_hex")
                );
                let euser = ekgc.extract(&id).unwrap();
                assert_eq!(
                    euser.de_bytes().to_vec(),
                    h("/enc_user_key/de_hex"),
                    "case {case}"
                );
                assert_eq!(
                    euser.to_der().unwrap().to_vec(),
                    h("/enc_user_key/user_key_der_hex")
                );
                let enc = euser
                    .to_encrypted_pkcs8_der_with(
                        pw.as_bytes(),
                        &h("/enc_user_key/pem_pbkdf2_salt_hex"),
                        &arr(&h("/enc_user_key/pem_sm4_cbc_iv_hex")),
                        sm9::DEFAULT_PBKDF2_ITERATIONS,
                    )
                    .unwrap();
                let gm_pem = s(c, "/enc_user_key/encrypted_pem");
                let (_, gm_der) = der::pem::decode_vec(gm_pem.as_bytes()).unwrap();
                assert_eq!(enc, gm_der, "case {case}: encrypted enc user key");

                assert_eq!(
                    sm9::h1(&id, 2).to_bytes().to_vec(),
                    h("/exch_user_key/h1_hex")
                );
                let xuser = ekgc.extract_exchange(&id).unwrap();
                assert_eq!(xuser.de_bytes().to_vec(), h("/exch_user_key/de_hex"));
                assert_eq!(
                    xuser.to_der().unwrap().to_vec(),
                    h("/exch_user_key/user_key_der_hex")
                );

                // --- encryption (GmSSL MAC) -------------------------------------------------------
                let emaster = ekgc.public_key().prepare();
                let r = arr(&h("/encryption/r_hex"));
                let ct = hazmat::encrypt_with_nonce(
                    &emaster,
                    &id,
                    &msg,
                    EncryptionMode::KdfStream,
                    MacMode::HmacSm3,
                    &r,
                    &[0; 16],
                )
                .unwrap();
                assert_eq!(
                    ct.c1_bytes().to_vec(),
                    h("/encryption/C1_hex"),
                    "case {case}"
                );
                assert_eq!(ct.c2().to_vec(), h("/encryption/C2_hex"));
                assert_eq!(ct.c3().to_vec(), h("/encryption/C3_hex"));
                assert_eq!(ct.to_der().unwrap(), h("/encryption/ciphertext_der_hex"));
                let std_ct = hazmat::encrypt_with_nonce(
                    &emaster,
                    &id,
                    &msg,
                    EncryptionMode::KdfStream,
                    MacMode::Sm3,
                    &r,
                    &[0; 16],
                )
                .unwrap();
                assert_eq!(std_ct.c3().to_vec(), h("/encryption/C3_if_sm3_mac_hex"));
                let dk = euser.prepare();
                let parsed =
                    sm9::Ciphertext::from_der(&h("/encryption/ciphertext_der_hex")).unwrap();
                assert_eq!(
                    sm9::decrypt(&dk, &id, &parsed, MacMode::HmacSm3)
                        .unwrap()
                        .to_vec(),
                    msg
                );
                assert_eq!(
                    sm9::decrypt(&dk, &id, &parsed, MacMode::Sm3).unwrap_err(),
                    sm9::Error::Decryption
                );
            }
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
        "sm9 kat_gmssl",
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
