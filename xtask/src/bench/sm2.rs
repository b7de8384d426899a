//! SM2 protocol operations per backend, and peers in the same process: OpenSSL's SM2 and ECDSA
//! P-256 (the yardstick), RustCrypto `sm2` and `libsm`.
//!
//! Randomised operations are checked for agreement by cross-verification: every variant's output
//! row is "our verifier (or decryptor) accepts what this variant produced" (for ECDSA P-256,
//! OpenSSL's own verifier), so a wrong peer setup fails loudly instead of timing garbage.

use std::hint::black_box;

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use super::harness::{with_backend, Case};
use super::sm2::exchange::{Initiator, Responder};
use super::sm2::generic::{SecretKey, SigningKey, VerifyingKey};
use super::sm2::Mode;
use super::sm_field::{self, Backend};

const MSG: &[u8] = b"a 32-byte message for benchmarks";

fn rng() -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(7)
}

fn case(op: &str, variant: &str, ok: bool, run: Box<dyn FnMut(u64)>) -> Case {
    Case::new("sm2", op, variant, 0, vec![ok as u8], run)
}

/// Batch decryption items: key i with raw C1C3C2 ciphertext i.
fn decrypt_items<'a, B: Backend>(
    keys: &'a [SecretKey<B>],
    cts: &'a [Vec<u8>],
) -> Vec<super::sm2::batch::DecryptItem<'a, B>> {
    keys.iter()
        .zip(cts)
        .map(|(k, c)| (k, &c[..], Mode::C1C3C2.into()))
        .collect()
}

fn cases_for<B: Backend>(out: &mut Vec<Case>, prefix: &str) {
    let v = format!("{prefix}{}", B::NAME);
    let mut r = rng();
    let sk = SecretKey::<B>::random(&mut r);
    let signer = SigningKey::<B>::new(&sk);
    let verifier = VerifyingKey::<B>::new(sk.public_key());
    let sig = signer.sign_with_rng(&mut r, MSG);
    let ok = verifier.verify(MSG, &sig).is_ok();

    out.push(case(
        "keygen",
        &v,
        true,
        Box::new(move |n| {
            let mut r = rng();
            for _ in 0..n {
                black_box(
                    SecretKey::<B>::random(&mut r)
                        .public_key()
                        .to_uncompressed(),
                );
            }
        }),
    ));
    {
        let signer = SigningKey::<B>::new(&sk);
        out.push(case(
            "sign",
            &v,
            ok,
            Box::new(move |n| {
                let mut r = rng();
                for _ in 0..n {
                    black_box(signer.sign_with_rng(&mut r, black_box(MSG)));
                }
            }),
        ));
    }
    {
        let verifier = verifier.clone();
        out.push(case(
            "verify",
            &v,
            ok,
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(verifier.verify(black_box(MSG), &sig).is_ok());
                }
            }),
        ));
    }
    {
        let verifier = verifier.clone().with_precomputed_table();
        out.push(case(
            "verify (precomputed key table)",
            &v,
            verifier.verify(MSG, &sig).is_ok(),
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(verifier.verify(black_box(MSG), &sig).is_ok());
                }
            }),
        ));
    }
    // Batch verification (`sm2::batch`): 64 keys, messages and signatures; one batch of `size`
    // items per run, reported per signature (`per_run`).
    {
        let keys: Vec<SigningKey<B>> = (0..64).map(|_| SigningKey::<B>::random(&mut r)).collect();
        let msgs: Vec<Vec<u8>> = (0..64u8).map(|i| [MSG, &[i]].concat()).collect();
        let sigs: Vec<_> = keys
            .iter()
            .zip(&msgs)
            .map(|(k, m)| k.sign_with_rng(&mut r, m))
            .collect();
        let vks: Vec<VerifyingKey<B>> = keys.iter().map(|k| k.verifying_key().clone()).collect();
        for size in [8usize, 64] {
            let (vks, msgs, sigs) = (vks.clone(), msgs.clone(), sigs.clone());
            let ok = {
                let items: Vec<_> = (0..size)
                    .map(|i| (&vks[i], &msgs[i][..], &sigs[i]))
                    .collect();
                super::sm2::batch::verify_batch_all(&items).is_ok()
            };
            out.push(Case {
                per_run: size as u64,
                ..case(
                    &format!("verify batch of {size} (per signature)"),
                    &v,
                    ok,
                    Box::new(move |n| {
                        let items: Vec<_> = (0..size)
                            .map(|i| (&vks[i], &msgs[i][..], &sigs[i]))
                            .collect();
                        for _ in 0..n {
                            black_box(super::sm2::batch::verify_batch(black_box(&items)));
                        }
                    }),
                )
            });
        }
        let signers: Vec<(&SigningKey<B>, &[u8])> = (0..8).map(|i| (&keys[i], MSG)).collect();
        let sign_ok = {
            let sigs = super::sm2::batch::sign_batch(&signers, &mut rng());
            (0..8).all(|i| vks[i].verify(MSG, &sigs[i]).is_ok())
        };
        let keys8: Vec<SigningKey<B>> = keys[..8].to_vec();
        out.push(Case {
            per_run: 8,
            ..case(
                "sign batch of 8 (per signature)",
                &v,
                sign_ok,
                Box::new(move |n| {
                    let items: Vec<(&SigningKey<B>, &[u8])> =
                        keys8.iter().map(|k| (k, MSG)).collect();
                    let mut r = rng();
                    for _ in 0..n {
                        black_box(super::sm2::batch::sign_batch(black_box(&items), &mut r));
                    }
                }),
            )
        });
    }
    let pk = *sk.public_key();
    let ct = pk.encrypt(&mut r, MSG, Mode::C1C3C2).expect("encrypt");
    let dec_ok = sk
        .decrypt(&ct, Mode::C1C3C2)
        .map(|m| m.as_slice() == MSG)
        .unwrap_or(false);
    out.push(case(
        "encrypt 32 B",
        &v,
        dec_ok,
        Box::new(move |n| {
            let mut r = rng();
            for _ in 0..n {
                black_box(
                    pk.encrypt(&mut r, black_box(MSG), Mode::C1C3C2)
                        .expect("encrypt"),
                );
            }
        }),
    ));
    {
        let sk = sk.clone();
        out.push(case(
            "decrypt 32 B",
            &v,
            dec_ok,
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(sk.decrypt(black_box(&ct), Mode::C1C3C2).expect("decrypt"));
                }
            }),
        ));
    }
    // Batch encryption and decryption (`sm2::batch`): 64 keys and 32-byte ciphertexts; one
    // batch of 8 (encryption) or `size` (decryption) items per run, reported per ciphertext
    // (`per_run`).
    {
        let keys: Vec<SecretKey<B>> = (0..64).map(|_| SecretKey::<B>::random(&mut r)).collect();
        let cts: Vec<Vec<u8>> = keys
            .iter()
            .map(|k| {
                k.public_key()
                    .encrypt(&mut r, MSG, Mode::C1C3C2)
                    .expect("encrypt")
            })
            .collect();
        let pks: Vec<_> = keys[..8].iter().map(|k| *k.public_key()).collect();
        let enc_ok = {
            let items: Vec<_> = pks
                .iter()
                .map(|pk| (pk, MSG, Mode::C1C3C2.into()))
                .collect();
            let cts = super::sm2::batch::encrypt_batch(&items, &mut rng());
            let dec = cts
                .iter()
                .zip(&keys)
                .map(|(c, k)| (k, &c.as_ref().expect("encrypt")[..], Mode::C1C3C2.into()))
                .collect::<Vec<_>>();
            super::sm2::batch::decrypt_batch(&dec)
                .iter()
                .all(|m| m.as_ref().is_ok_and(|m| m.as_slice() == MSG))
        };
        out.push(Case {
            per_run: 8,
            ..case(
                "encrypt batch of 8 (per ciphertext)",
                &v,
                enc_ok,
                Box::new(move |n| {
                    let items: Vec<_> = pks
                        .iter()
                        .map(|pk| (pk, MSG, Mode::C1C3C2.into()))
                        .collect();
                    let mut r = rng();
                    for _ in 0..n {
                        black_box(super::sm2::batch::encrypt_batch(black_box(&items), &mut r));
                    }
                }),
            )
        });
        for size in [8usize, 64] {
            let (keys, cts) = (keys[..size].to_vec(), cts[..size].to_vec());
            let ok = super::sm2::batch::decrypt_batch(&decrypt_items(&keys, &cts))
                .iter()
                .all(|m| m.as_ref().is_ok_and(|m| m.as_slice() == MSG));
            out.push(Case {
                per_run: size as u64,
                ..case(
                    &format!("decrypt batch of {size} (per ciphertext)"),
                    &v,
                    ok,
                    Box::new(move |n| {
                        let items = decrypt_items(&keys, &cts);
                        for _ in 0..n {
                            black_box(super::sm2::batch::decrypt_batch(black_box(&items)));
                        }
                    }),
                )
            });
        }
    }
    // Key exchange: the initiator's whole side (start + finish with confirmation), with the
    // responder's messages prepared once.
    let skb = SecretKey::<B>::random(&mut r);
    let (ida, idb) = (b"alice".as_slice(), b"bob".as_slice());
    let run_a = {
        let (sk, skb) = (sk.clone(), skb.clone());
        move |r: &mut ChaCha20Rng| {
            let a = Initiator::new(&sk, ida, skb.public_key(), idb).expect("initiator");
            let b = Responder::new(&skb, idb, sk.public_key(), ida).expect("responder");
            let (a, ra) = a.start(r);
            let (b, rb, sb) = b.respond(r, &ra, 16).expect("respond");
            let (ka, sa) = a.finish(&rb, &sb, 16).expect("finish");
            let kb = b.confirm(&sa).expect("confirm");
            ka.as_slice() == kb.as_slice()
        }
    };
    let kx_ok = run_a(&mut r);
    out.push(case(
        "key exchange (both sides, confirmed)",
        &v,
        kx_ok,
        Box::new(move |n| {
            let mut r = rng();
            for _ in 0..n {
                black_box(run_a(&mut r));
            }
        }),
    ));
}

/// Cases for the requested backends, then the peers (not in `--against` runs).
pub fn cases(backends: &[String], prefix: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for b in backends {
        with_backend!(b.as_str(), B => cases_for::<B>(&mut out, prefix));
    }
    #[cfg(feature = "peers")]
    if prefix.is_empty() {
        peers::cases(&mut out);
    }
    out
}

#[cfg(feature = "peers")]
mod peers {
    use super::*;
    use openssl::ec::{EcGroup, EcKey};
    use openssl::ecdsa::EcdsaSig;
    use openssl::hash::MessageDigest;
    use openssl::nid::Nid;
    use openssl::pkey::PKey;
    use openssl::pkey_ctx::PkeyCtx;
    use openssl::sign::{Signer, Verifier};
    use rustcrypto_sm2 as rc;
    use sm2::pkcs8::EncodePrivateKey;

    type Ours = sm2::SecretKey;

    pub fn cases(out: &mut Vec<Case>) {
        let sk = Ours::random(&mut rng());
        // Verifiers of ours for what peers produce: OpenSSL's EVP uses the empty ID.
        let ours_default = sm2::VerifyingKey::new(sk.public_key());
        let ours_empty = sm2::VerifyingKey::with_id(sk.public_key(), b"").expect("id");

        // OpenSSL SM2 through EVP.
        let der = sk.to_pkcs8_der().expect("pkcs8");
        let pkey = PKey::private_key_from_der(der.as_bytes()).expect("openssl reads our key");
        let osig = {
            let mut s = Signer::new(MessageDigest::sm3(), &pkey).expect("signer");
            s.sign_oneshot_to_vec(MSG).expect("sign")
        };
        let ok = sm2::Signature::from_der(&osig).is_ok_and(|s| ours_empty.verify(MSG, &s).is_ok());
        {
            let pkey = pkey.clone();
            out.push(case(
                "sign",
                "openssl",
                ok,
                Box::new(move |n| {
                    for _ in 0..n {
                        let mut s = Signer::new(MessageDigest::sm3(), &pkey).expect("signer");
                        black_box(s.sign_oneshot_to_vec(black_box(MSG)).expect("sign"));
                    }
                }),
            ));
        }
        {
            let pkey = pkey.clone();
            let osig = osig.clone();
            let check = Verifier::new(MessageDigest::sm3(), &pkey)
                .and_then(|mut v| v.verify_oneshot(&osig, MSG))
                .unwrap_or(false);
            out.push(case(
                "verify",
                "openssl",
                check && ok,
                Box::new(move |n| {
                    for _ in 0..n {
                        let mut v = Verifier::new(MessageDigest::sm3(), &pkey).expect("verifier");
                        black_box(v.verify_oneshot(&osig, black_box(MSG)).expect("verify"));
                    }
                }),
            ));
        }
        // OpenSSL SM2 encryption (DER, C1C3C2).
        {
            let pkey = pkey.clone();
            let enc = |pkey: &PKey<openssl::pkey::Private>| {
                let mut ctx = PkeyCtx::new(pkey).expect("ctx");
                ctx.encrypt_init().expect("init");
                let mut buf = Vec::new();
                ctx.encrypt_to_vec(MSG, &mut buf).expect("encrypt");
                buf
            };
            let ct = enc(&pkey);
            let ok = sk.decrypt_der(&ct).is_ok_and(|m| m.as_slice() == MSG);
            out.push(case(
                "encrypt 32 B",
                "openssl",
                ok,
                Box::new(move |n| {
                    for _ in 0..n {
                        black_box(enc(&pkey));
                    }
                }),
            ));
            let ours_ct = sk
                .public_key()
                .encrypt_der(&mut rng(), MSG)
                .expect("encrypt");
            let pkey2 = PKey::private_key_from_der(der.as_bytes()).expect("key");
            let dec = move |c: &[u8]| {
                let mut ctx = PkeyCtx::new(&pkey2).expect("ctx");
                ctx.decrypt_init().expect("init");
                let mut buf = Vec::new();
                ctx.decrypt_to_vec(c, &mut buf).expect("decrypt");
                buf
            };
            let ok = dec(&ours_ct) == MSG;
            out.push(case(
                "decrypt 32 B",
                "openssl",
                ok,
                Box::new(move |n| {
                    for _ in 0..n {
                        black_box(dec(black_box(&ours_ct)));
                    }
                }),
            ));
        }
        // OpenSSL ECDSA P-256 (the yardstick; checked by OpenSSL's own verifier).
        {
            let group = EcGroup::from_curve_name(Nid::X9_62_PRIME256V1).expect("p256");
            let key = EcKey::generate(&group).expect("keygen");
            let digest = openssl::sha::sha256(MSG);
            let sig = EcdsaSig::sign(&digest, &key).expect("sign");
            let ok = sig.verify(&digest, &key).unwrap_or(false);
            let k2 = key.clone();
            out.push(case(
                "sign",
                "openssl p256",
                ok,
                Box::new(move |n| {
                    for _ in 0..n {
                        black_box(
                            EcdsaSig::sign(&openssl::sha::sha256(black_box(MSG)), &k2)
                                .expect("sign"),
                        );
                    }
                }),
            ));
            out.push(case(
                "verify",
                "openssl p256",
                ok,
                Box::new(move |n| {
                    for _ in 0..n {
                        black_box(
                            sig.verify(&openssl::sha::sha256(black_box(MSG)), &key)
                                .expect("verify"),
                        );
                    }
                }),
            ));
        }
        // RustCrypto sm2.
        {
            use rc::dsa::signature::{Signer as _, Verifier as _};
            let id = std::str::from_utf8(sm2::DEFAULT_ID).expect("ascii id");
            let their = rc::SecretKey::from_slice(&sk.to_bytes()[..]).expect("key");
            let sk_rc = rc::dsa::SigningKey::new(id, &their).expect("signing key");
            let s: rc::dsa::Signature = sk_rc.sign(MSG);
            let ok = sm2::Signature::from_bytes(&s.to_bytes())
                .is_ok_and(|s| ours_default.verify(MSG, &s).is_ok());
            let vk_rc = sk_rc.verifying_key().clone();
            out.push(case(
                "sign",
                "rustcrypto",
                ok,
                Box::new(move |n| {
                    for _ in 0..n {
                        let s: rc::dsa::Signature = sk_rc.sign(black_box(MSG));
                        black_box(s);
                    }
                }),
            ));
            out.push(case(
                "verify",
                "rustcrypto",
                ok && vk_rc.verify(MSG, &s).is_ok(),
                Box::new(move |n| {
                    for _ in 0..n {
                        black_box(vk_rc.verify(black_box(MSG), &s).is_ok());
                    }
                }),
            ));
        }
        // libsm (default ID 1234567812345678).
        {
            let ctx = libsm::sm2::signature::SigCtx::new();
            let d = ctx.load_seckey(&sk.to_bytes()[..]).expect("libsm key");
            let pk = ctx.pk_from_sk(&d).expect("libsm pk");
            let s = ctx.sign(MSG, &d, &pk).expect("libsm sign");
            let der = s.der_encode();
            let ok = sm2::Signature::from_der_lenient(&der)
                .is_ok_and(|s| ours_default.verify(MSG, &s).is_ok());
            let (d2, pk2) = (d.clone(), pk);
            out.push(case(
                "sign",
                "libsm",
                ok,
                Box::new(move |n| {
                    let ctx = libsm::sm2::signature::SigCtx::new();
                    for _ in 0..n {
                        black_box(ctx.sign(black_box(MSG), &d2, &pk2).expect("sign"));
                    }
                }),
            ));
            out.push(case(
                "verify",
                "libsm",
                ok && ctx.verify(MSG, &pk, &s).unwrap_or(false),
                Box::new(move |n| {
                    let ctx = libsm::sm2::signature::SigCtx::new();
                    for _ in 0..n {
                        black_box(ctx.verify(black_box(MSG), &pk, &s).expect("verify"));
                    }
                }),
            ));
        }
    }
}
