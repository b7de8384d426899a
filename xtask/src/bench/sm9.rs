//! SM9 protocol operations with prepared keys per backend (`--backends u64,asm sm9`), and the
//! `sm9` crate from crates.io as a peer (signatures; it shares our master secret so that its signatures are
//! checked by our verifier before timing).

use std::hint::black_box;

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use super::harness::{with_backend, Case};
use super::sm9;
use super::sm9::generic::{
    BatchItem, EncMasterKey, Initiator, PreparedSignMasterPublicKey, SignMasterKey, Signature,
};
use super::sm_field::{self, Backend};

const MSG: &[u8] = b"Chinese IBS standard";
const KS: [u8; 32] = [
    0x01, 0x30, 0xE7, 0x84, 0x59, 0xD7, 0x85, 0x45, 0xCB, 0x54, 0xC5, 0x87, 0xE0, 0x2C, 0xF4, 0x80,
    0xCE, 0x0B, 0x66, 0x34, 0x0F, 0x31, 0x9F, 0x34, 0x8A, 0x1D, 0x5B, 0x1F, 0x2D, 0xC5, 0xF4, 0x00,
];

fn rng() -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(9)
}

fn case(op: &str, variant: &str, ok: bool, run: Box<dyn FnMut(u64)>) -> Case {
    Case::new("sm9", op, variant, 0, vec![ok as u8], run)
}

/// Cases for the requested backends, then the peers (not in `--against` runs).
pub fn cases(backends: &[String], prefix: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for b in backends {
        with_backend!(b.as_str(), B => cases_for::<B>(&mut out, prefix));
    }
    #[cfg(feature = "peers")]
    if prefix.is_empty() {
        let kgc = sm9::SignMasterKey::from_bytes(&KS).expect("ks");
        peers(&mut out, &kgc.public_key().prepare());
    }
    out
}

/// The SM9 cases on backend `B`.
fn cases_for<B: Backend>(out: &mut Vec<Case>, prefix: &str) {
    let v = format!("{prefix}{}", B::NAME);
    let mut r = rng();
    let kgc = SignMasterKey::<B>::from_bytes(&KS).expect("ks");
    let master = kgc.public_key().prepare();
    let alice = kgc.extract(b"Alice").expect("extract");
    let sig = sm9::sign(&alice, &master, MSG, &mut r).expect("sign");
    let ok = sm9::verify(&master, b"Alice", MSG, &sig).is_ok();
    {
        let kgc = SignMasterKey::<B>::from_bytes(&KS).expect("ks");
        out.push(case(
            "extract sign key",
            &v,
            ok,
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(kgc.extract(black_box(b"Alice")).expect("extract"));
                }
            }),
        ));
    }
    {
        let mpk = *kgc.public_key();
        out.push(case(
            "prepare master public key",
            &v,
            ok,
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(mpk.prepare());
                }
            }),
        ));
    }
    {
        let (alice, master) = (alice.clone(), master.clone());
        out.push(case(
            "sign",
            &v,
            ok,
            Box::new(move |n| {
                let mut r = rng();
                for _ in 0..n {
                    black_box(sm9::sign(&alice, &master, black_box(MSG), &mut r).expect("sign"));
                }
            }),
        ));
    }
    {
        let master = master.clone();
        out.push(case(
            "verify",
            &v,
            ok,
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(sm9::verify(&master, b"Alice", black_box(MSG), &sig).is_ok());
                }
            }),
        ));
    }
    // Encryption, KEM and key exchange share one encryption master key.
    let kgc_e = EncMasterKey::<B>::from_bytes(&KS).expect("ke");
    let emaster = kgc_e.public_key().prepare();
    let bob = kgc_e.extract(b"Bob").expect("extract");
    let bob_dk = bob.prepare();
    let (mode, mac) = (sm9::EncryptionMode::KdfStream, sm9::MacMode::Sm3);
    let ct = sm9::encrypt(&emaster, b"Bob", MSG, mode, mac, &mut r).expect("encrypt");
    let dec_ok = sm9::decrypt(&bob_dk, b"Bob", &ct, mac).is_ok_and(|m| m.as_slice() == MSG);
    {
        let kgc_e = EncMasterKey::<B>::from_bytes(&KS).expect("ke");
        out.push(case(
            "extract encryption key",
            &v,
            dec_ok,
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(kgc_e.extract(black_box(b"Bob")).expect("extract"));
                }
            }),
        ));
    }
    {
        let emaster = emaster.clone();
        out.push(case(
            "encrypt 20 B",
            &v,
            dec_ok,
            Box::new(move |n| {
                let mut r = rng();
                for _ in 0..n {
                    black_box(
                        sm9::encrypt(&emaster, b"Bob", black_box(MSG), mode, mac, &mut r)
                            .expect("enc"),
                    );
                }
            }),
        ));
    }
    {
        let bob_dk = bob.prepare();
        out.push(case(
            "decrypt 20 B",
            &v,
            dec_ok,
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(sm9::decrypt(&bob_dk, b"Bob", black_box(&ct), mac).expect("dec"));
                }
            }),
        ));
    }
    let (k, c) = sm9::encapsulate(&emaster, b"Bob", 32, &mut r).expect("encap");
    let kem_ok =
        sm9::decapsulate(&bob_dk, b"Bob", &c, 32).is_ok_and(|k2| k2.as_slice() == k.as_slice());
    {
        let emaster = emaster.clone();
        out.push(case(
            "KEM encapsulate",
            &v,
            kem_ok,
            Box::new(move |n| {
                let mut r = rng();
                for _ in 0..n {
                    black_box(sm9::encapsulate(&emaster, b"Bob", 32, &mut r).expect("encap"));
                }
            }),
        ));
    }
    out.push(case(
        "KEM decapsulate",
        &v,
        kem_ok,
        Box::new(move |n| {
            for _ in 0..n {
                black_box(sm9::decapsulate(&bob_dk, b"Bob", black_box(&c), 32).expect("decap"));
            }
        }),
    ));
    // Key exchange: both sides with confirmation (per side ≈ half).
    let ka = kgc_e.extract_exchange(b"Alice").expect("extract").prepare();
    let kb = kgc_e.extract_exchange(b"Bob").expect("extract").prepare();
    let run_kx = move |r: &mut ChaCha20Rng| {
        let (a, ra) = Initiator::start(&ka, &emaster, b"Alice", b"Bob", r).expect("start");
        let (b, rb, sb) =
            sm9::Responder::respond(&kb, &emaster, b"Bob", b"Alice", &ra, r).expect("respond");
        let (key_a, sa) = a.finish(&rb, Some(&sb), 16).expect("finish");
        let key_b = b.confirm(&sa, 16).expect("confirm");
        key_a.as_slice() == key_b.as_slice()
    };
    let kx_ok = run_kx(&mut r);
    out.push(case(
        "key exchange (both sides, confirmed)",
        &v,
        kx_ok,
        Box::new(move |n| {
            let mut r = rng();
            for _ in 0..n {
                black_box(run_kx(&mut r));
            }
        }),
    ));
    batch(out, &v, &kgc, &master);
}

/// 1,000 signatures from 10 signers: one by one on one core, then `verify_batch` (all cores with
/// the `parallel` feature, shared per-signer work).
fn batch<B: Backend>(
    out: &mut Vec<Case>,
    v: &str,
    kgc: &SignMasterKey<B>,
    master: &PreparedSignMasterPublicKey<B>,
) {
    const N: usize = 1000;
    let mut r = rng();
    let ids: Vec<Vec<u8>> = (0..10)
        .map(|i| format!("signer-{i}").into_bytes())
        .collect();
    let keys: Vec<_> = ids
        .iter()
        .map(|id| kgc.extract(id).expect("extract"))
        .collect();
    let msgs: Vec<Vec<u8>> = (0..N)
        .map(|i| format!("message {i}").into_bytes())
        .collect();
    let sigs: Vec<Signature<B>> = (0..N)
        .map(|i| sm9::sign(&keys[i % 10], master, &msgs[i], &mut r).expect("sign"))
        .collect();
    let data = std::rc::Rc::new((ids, msgs, sigs, master.clone()));
    // One group of eight (one IFMA lane per signature where the CPU has IFMA), per signature
    // (`per_run`), next to the one-by-one `verify` row.
    let group = {
        let data = data.clone();
        move || {
            let (ids, msgs, sigs, master) = &*data;
            let items: Vec<BatchItem<'_, B>> = (0..8)
                .map(|i| BatchItem {
                    master,
                    id: &ids[i % 10],
                    message: &msgs[i],
                    signature: &sigs[i],
                })
                .collect();
            sm9::verify_batch(&items).all_valid()
        }
    };
    let ok = group();
    out.push(Case {
        per_run: 8,
        ..case(
            "verify batch of 8 (per signature)",
            v,
            ok,
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(group());
                }
            }),
        )
    });
    let one_by_one = {
        let data = data.clone();
        move || {
            let (ids, msgs, sigs, master) = &*data;
            (0..N)
                .filter(|&i| sm9::verify(master, &ids[i % 10], &msgs[i], &sigs[i]).is_ok())
                .count()
        }
    };
    let batched = move || {
        let (ids, msgs, sigs, master) = &*data;
        let items: Vec<BatchItem<'_, B>> = (0..N)
            .map(|i| BatchItem {
                master,
                id: &ids[i % 10],
                message: &msgs[i],
                signature: &sigs[i],
            })
            .collect();
        sm9::verify_batch(&items)
            .as_slice()
            .iter()
            .filter(|&&ok| ok)
            .count()
    };
    let op = "verify 1000 signatures (10 signers)";
    let output = |n: usize| (n as u32).to_be_bytes().to_vec();
    for (variant, f) in [
        (
            format!("{v} one by one"),
            Box::new(one_by_one) as Box<dyn Fn() -> usize>,
        ),
        (format!("{v} verify_batch"), Box::new(batched)),
    ] {
        out.push(Case {
            group: "sm9",
            op: op.to_string(),
            variant,
            output: output(f()),
            bytes: 0,
            per_run: 1,
            run: Box::new(move |n| {
                for _ in 0..n {
                    black_box(f());
                }
            }),
        });
    }
}

#[cfg(feature = "peers")]
fn peers(out: &mut Vec<Case>, master: &sm9::PreparedSignMasterPublicKey) {
    use peer_sm9::{Fn, Sm9};
    let dir = std::env::temp_dir().join(format!("xtask-sm9-peer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (msk, mpk, usk) = (
        dir.join("msk.pem"),
        dir.join("mpk.pem"),
        dir.join("usk.pem"),
    );
    let ks = Fn::from_slice(&KS).expect("ks");
    Sm9::generate_master_private_key_to_pem(&ks, &msk);
    Sm9::generate_master_signature_public_key_to_pem(&msk, &mpk);
    Sm9::generate_user_signature_private_key_to_pem(&msk, b"Alice", &usk);
    let mpk_pem = std::fs::read_to_string(&mpk).expect("mpk");
    let usk_pem = std::fs::read_to_string(&usk).expect("usk");
    let _ = std::fs::remove_dir_all(&dir);
    let sig = Sm9::sign2(&mpk_pem, &usk_pem, MSG);
    // Their signature h ‖ S, checked by our verifier with the same master secret.
    let ours = sm9::Signature::from_bytes(&sig.to_bytes());
    let ok = ours.is_ok_and(|s| sm9::verify(master, b"Alice", MSG, &s).is_ok());
    {
        let (mpk_pem, usk_pem) = (mpk_pem.clone(), usk_pem.clone());
        out.push(case(
            "sign",
            "sm9 crate",
            ok,
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(Sm9::sign2(&mpk_pem, &usk_pem, black_box(MSG)));
                }
            }),
        ));
    }
    out.push(case(
        "verify",
        "sm9 crate",
        ok && Sm9::verify2(&mpk_pem, b"Alice", MSG, &sig),
        Box::new(move |n| {
            for _ in 0..n {
                black_box(Sm9::verify2(&mpk_pem, b"Alice", black_box(MSG), &sig));
            }
        }),
    ));
}
