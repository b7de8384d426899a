//! Every SM9 protocol entry point runs its arithmetic as one `Backend::dispatch` job: with a
//! backend whose own operations are counted and whose `dispatch` runs the job on `U64` (as
//! `Auto` does on the pure type the CPU supports), a call performs no operation of the outer
//! backend, i.e. nothing below the entry point would ask the CPU. Results are checked against
//! the same calls on `U64`, so the guard backend computes the right values.

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use shangmi_sm9::generic::{
    BatchItem, Ciphertext, DecryptionKey, EncMasterKey, ExchangeKey, Initiator, SignMasterKey,
    SigningKey,
};
use shangmi_sm9::{hazmat, EncryptionMode, MacMode, Responder};
use sm_field::counting::{expect_dispatched as dispatched, JobGuard as Guard};
use sm_field::U64;

#[test]
fn signatures_dispatch_once() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let kgc: SignMasterKey<Guard> = dispatched("generate", || SignMasterKey::generate(&mut rng));
    let ks = kgc.to_bytes();
    let kgc = dispatched("from_bytes", || SignMasterKey::<Guard>::from_bytes(&ks)).unwrap();
    let master = dispatched("prepare", || kgc.public_key().prepare());
    let alice = dispatched("extract", || kgc.extract(b"Alice")).unwrap();
    let prepared: SigningKey<Guard> = dispatched("SigningKey::new", || alice.prepare());
    let sig = dispatched("sign", || {
        shangmi_sm9::sign(&alice, &master, b"msg", &mut rng)
    })
    .unwrap();
    let sig2 = dispatched("sign_prepared", || {
        shangmi_sm9::sign_prepared(&prepared, &master, b"msg", &mut rng)
    })
    .unwrap();
    let r = [5u8; 32];
    let sig3 = dispatched("sign_with_nonce", || {
        hazmat::sign_with_nonce(&alice, &master, b"msg", &r)
    })
    .unwrap();
    for s in [&sig, &sig2, &sig3] {
        dispatched("verify", || {
            shangmi_sm9::verify(&master, b"Alice", b"msg", s)
        })
        .unwrap();
    }
    assert!(dispatched("verify", || {
        shangmi_sm9::verify(&master, b"Bob", b"msg", &sig)
    })
    .is_err());
    // Fewer than eight items: the scalar path on every CPU.
    let items: Vec<_> = [&sig, &sig2, &sig3]
        .into_iter()
        .map(|s| BatchItem {
            master: &master,
            id: b"Alice",
            message: b"msg",
            signature: s,
        })
        .collect();
    let res = dispatched("verify_batch", || shangmi_sm9::verify_batch(&items));
    assert!(res.all_valid());
    // Two full groups: the IFMA lanes where the CPU has them (Alice's signer point prepared,
    // Bob's single signature through [h1]S), the scalar path elsewhere; one bad signature.
    let bob = kgc.extract(b"Bob").unwrap();
    let sig_bob = hazmat::sign_with_nonce(&bob, &master, b"msg", &r).unwrap();
    let mut items: Vec<_> = (0..16)
        .map(|i| BatchItem {
            master: &master,
            id: b"Alice",
            message: b"msg",
            signature: [&sig, &sig2, &sig3][i % 3],
        })
        .collect();
    items[9] = BatchItem {
        id: b"Bob",
        signature: &sig_bob,
        ..items[9]
    };
    items[12].message = b"another message";
    let res = dispatched("verify_batch (16)", || shangmi_sm9::verify_batch(&items));
    assert_eq!(res.failed(), [12]);

    // The same nonce on U64 gives the same bytes.
    let kgc64 = SignMasterKey::<U64>::from_bytes(&ks).unwrap();
    let master64 = kgc64.public_key().prepare();
    let alice64 = kgc64.extract(b"Alice").unwrap();
    let sig64 = hazmat::sign_with_nonce(&alice64, &master64, b"msg", &r).unwrap();
    assert_eq!(sig3.to_bytes(), sig64.to_bytes());
}

#[test]
fn encryption_kem_and_exchange_dispatch_once() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let kgc: EncMasterKey<Guard> = dispatched("generate", || EncMasterKey::generate(&mut rng));
    let master = dispatched("prepare", || kgc.public_key().prepare());
    let bob = dispatched("extract", || kgc.extract(b"Bob")).unwrap();
    let bob: DecryptionKey<Guard> = dispatched("DecryptionKey::new", || bob.prepare());
    for mode in [EncryptionMode::KdfStream, EncryptionMode::Sm4Cbc] {
        let ct: Ciphertext<Guard> = dispatched("encrypt", || {
            shangmi_sm9::encrypt(&master, b"Bob", b"hello", mode, MacMode::Sm3, &mut rng)
        })
        .unwrap();
        let m = dispatched("decrypt", || {
            shangmi_sm9::decrypt(&bob, b"Bob", &ct, MacMode::Sm3)
        })
        .unwrap();
        assert_eq!(&m[..], b"hello");
    }
    let r = [9u8; 32];
    let ct = dispatched("encrypt_with_nonce", || {
        hazmat::encrypt_with_nonce(
            &master,
            b"Bob",
            b"hi",
            EncryptionMode::KdfStream,
            MacMode::Sm3,
            &r,
            &[0; 16],
        )
    })
    .unwrap();
    let (k, c) = dispatched("encapsulate", || {
        shangmi_sm9::encapsulate(&master, b"Bob", 32, &mut rng)
    })
    .unwrap();
    let k2 = dispatched("decapsulate", || {
        shangmi_sm9::decapsulate(&bob, b"Bob", &c, 32)
    })
    .unwrap();
    assert_eq!(k, k2);
    let (k3, c3) = dispatched("encapsulate_with_nonce", || {
        hazmat::encapsulate_with_nonce(&master, b"Bob", 32, &r)
    })
    .unwrap();

    // Key exchange, both sides.
    let a = dispatched("extract_exchange", || kgc.extract_exchange(b"A")).unwrap();
    let b = kgc.extract_exchange(b"B").unwrap();
    let (a, b): (ExchangeKey<Guard>, ExchangeKey<Guard>) = (a.prepare(), b.prepare());
    let (init, ra) = dispatched("Initiator::start", || {
        Initiator::start(&a, &master, b"A", b"B", &mut rng)
    })
    .unwrap();
    let (resp, rb, sb) = dispatched("Responder::respond", || {
        Responder::respond(&b, &master, b"B", b"A", &ra, &mut rng)
    })
    .unwrap();
    let (ka, sa) = dispatched("Initiator::finish", || init.finish(&rb, Some(&sb), 16)).unwrap();
    let kb = resp.confirm(&sa, 16).unwrap();
    assert_eq!(ka, kb);
    let (init, ra) = dispatched("initiator_start_with_nonce", || {
        hazmat::initiator_start_with_nonce(&a, &master, b"A", b"B", &[3; 32])
    })
    .unwrap();
    let (resp, rb, sb) = dispatched("responder_respond_with_nonce", || {
        hazmat::responder_respond_with_nonce(&b, &master, b"B", b"A", &ra, &[4; 32])
    })
    .unwrap();
    let (ka, _) = init.finish(&rb, Some(&sb), 16).unwrap();
    assert_eq!(ka, resp.finish_unconfirmed(16).unwrap());

    // The fixed-nonce results equal U64's.
    let kgc64 = EncMasterKey::<U64>::from_bytes(&kgc.to_bytes()).unwrap();
    let master64 = kgc64.public_key().prepare();
    let ct64 = hazmat::encrypt_with_nonce(
        &master64,
        b"Bob",
        b"hi",
        EncryptionMode::KdfStream,
        MacMode::Sm3,
        &r,
        &[0; 16],
    )
    .unwrap();
    assert_eq!(ct.to_bytes(), ct64.to_bytes());
    let (k64, c64) = hazmat::encapsulate_with_nonce(&master64, b"Bob", 32, &r).unwrap();
    assert_eq!((k3, c3.to_bytes()), (k64, c64.to_bytes()));
}
