//! Every SM2 protocol entry point runs its field arithmetic in `Backend::dispatch` jobs: on
//! `sm_field::counting::JobGuard`, whose `dispatch` runs jobs on `U64` (as `Auto` does on the
//! pure type the CPU supports) and which counts its own operations, a call performs none, i.e.
//! nothing below the entry point asks the CPU a question per operation. The results are
//! checked against the same calls on `U64`.

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use shangmi_sm2::batch::{self, Format};
use shangmi_sm2::exchange::{Initiator, Responder};
use shangmi_sm2::generic::{SecretKey, SigningKey, VerifyingKey};
use shangmi_sm2::{Mode, Signature};
use sm_field::counting::{expect_dispatched as dispatched, JobGuard as Guard};
use sm_field::U64;

#[test]
fn keys_and_signatures_dispatch() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let sk = dispatched("SecretKey::random", || SecretKey::<Guard>::random(&mut rng));
    let d = sk.to_bytes();
    let sk = dispatched("SecretKey::from_bytes", || {
        SecretKey::<Guard>::from_bytes(&d)
    })
    .unwrap();
    let signer = dispatched("SigningKey::new", || SigningKey::new(&sk));
    let signer = dispatched("SigningKey::with_id", || {
        SigningKey::with_id(&sk, b"alice@example")
    })
    .unwrap_or(signer);
    let sig = dispatched("sign_with_rng", || signer.sign_with_rng(&mut rng, b"msg"));
    let hedged = dispatched("sign_hedged", || signer.sign_hedged(&mut rng, b"msg"));
    let det = dispatched("sign_deterministic", || signer.sign_deterministic(b"msg"));
    let vk = dispatched("VerifyingKey::with_id", || {
        VerifyingKey::with_id(sk.public_key(), b"alice@example")
    })
    .unwrap();
    for s in [&sig, &hedged, &det] {
        dispatched("verify", || vk.verify(b"msg", s)).unwrap();
    }
    let table = dispatched("with_precomputed_table", || {
        vk.clone().with_precomputed_table()
    });
    dispatched("verify (table)", || table.verify(b"msg", &sig)).unwrap();
    assert!(dispatched("verify (bad)", || vk.verify(b"other", &sig)).is_err());

    // Batches: two full groups of eight (the IFMA lanes where the CPU has them) and a rest.
    let signers: Vec<_> = (0..17)
        .map(|_| SigningKey::<Guard>::random(&mut rng))
        .collect();
    let items: Vec<(&SigningKey<Guard>, &[u8])> =
        signers.iter().map(|k| (k, &b"msg"[..])).collect();
    let sigs: Vec<Signature> = dispatched("sign_batch", || batch::sign_batch(&items, &mut rng));
    let mut checks: Vec<_> = signers
        .iter()
        .zip(&sigs)
        .map(|(k, s)| (k.verifying_key(), &b"msg"[..], s))
        .collect();
    checks[3].1 = b"other";
    let verdicts = dispatched("verify_batch", || batch::verify_batch(&checks));
    assert_eq!(verdicts.iter().filter(|&&v| !v).count(), 1);
    assert!(!verdicts[3]);

    // The same deterministic signature on U64.
    let sk64 = SecretKey::<U64>::from_bytes(&d).unwrap();
    let det64 = SigningKey::with_id(&sk64, b"alice@example")
        .unwrap()
        .sign_deterministic(b"msg");
    assert_eq!(det.to_bytes(), det64.to_bytes());
}

#[test]
fn encryption_and_exchange_dispatch() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let sk = SecretKey::<Guard>::random(&mut rng);
    let pk = *sk.public_key();
    let ct = dispatched("encrypt", || pk.encrypt(&mut rng, b"msg", Mode::C1C3C2)).unwrap();
    let der = dispatched("encrypt_der", || pk.encrypt_der(&mut rng, b"msg")).unwrap();
    let m = dispatched("decrypt", || sk.decrypt(&ct, Mode::C1C3C2)).unwrap();
    assert_eq!(m.as_slice(), b"msg");
    let m = dispatched("decrypt_der", || sk.decrypt_der(&der)).unwrap();
    assert_eq!(m.as_slice(), b"msg");
    let mut buf = ct.clone();
    dispatched("decrypt_in_place", || {
        sk.decrypt_in_place(&mut buf, Mode::C1C3C2)
    })
    .unwrap();
    assert_eq!(buf, b"msg");

    let enc: Vec<_> = (0..9).map(|_| (&pk, &b"msg"[..], Format::Der)).collect();
    let cts: Vec<Vec<u8>> = dispatched("encrypt_batch", || batch::encrypt_batch(&enc, &mut rng))
        .into_iter()
        .collect::<Result<_, _>>()
        .unwrap();
    let dec: Vec<_> = cts.iter().map(|c| (&sk, &c[..], Format::Der)).collect();
    for m in dispatched("decrypt_batch", || batch::decrypt_batch(&dec)) {
        assert_eq!(m.unwrap().as_slice(), b"msg");
    }

    let peer = SecretKey::<Guard>::random(&mut rng);
    let a = dispatched("Initiator::new", || {
        Initiator::new(&sk, b"a", peer.public_key(), b"b")
    })
    .unwrap();
    let b = dispatched("Responder::new", || {
        Responder::new(&peer, b"b", sk.public_key(), b"a")
    })
    .unwrap();
    let (a, ra) = dispatched("start", || a.start(&mut rng));
    let (b, rb, sb) = dispatched("respond", || b.respond(&mut rng, &ra, 16)).unwrap();
    let (ka, sa) = dispatched("finish", || a.finish(&rb, &sb, 16)).unwrap();
    let kb = dispatched("confirm", || b.confirm(&sa)).unwrap();
    assert_eq!(ka.as_slice(), kb.as_slice());
}
