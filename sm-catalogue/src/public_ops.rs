//! Operations on public data only (their `secret` is `None`, so the constant-time checks skip
//! them): SM2 and SM9 signature verification, one at a time and in a batch. The key material of
//! the [`Secret`] is only the signer's key here; the outputs are the verdicts, and each check
//! also rejects a tampered input (outside the timed closure).

use sm2::batch;
use sm2::generic::{SecretKey, SigningKey, VerifyingKey};
use sm9::generic::{PreparedSignMasterPublicKey, SignMasterKey, Signature};
use sm_field::Backend;

use crate::{ensure, Op, Prepared, Secret};

const MSG: &[u8] = b"catalogue verification message";
/// Items of the batch rows: one full group of the eight-lane kernels.
const BATCH: usize = 8;

fn sm2_signer<B: Backend>(s: &Secret) -> SigningKey<B> {
    SigningKey::new(&SecretKey::<B>::from_bytes(&s.key).expect("1 <= key < 2^255"))
}

fn sm2_verify<B: Backend>(s: &Secret) -> Prepared {
    let signer = sm2_signer::<B>(s);
    let sig = signer.sign_with_rng(&mut s.rng(), MSG);
    let vk: VerifyingKey<B> = signer.verifying_key().clone();
    let tampered = (vk.clone(), sig);
    Prepared::new(
        move || vec![u8::from(vk.verify(MSG, &sig).is_ok())],
        move |_, out| {
            ensure(out == [1], "a valid signature is rejected")?;
            let (vk, sig) = &tampered;
            ensure(
                vk.verify(b"another message", sig).is_err(),
                "a signature of another message verifies",
            )
        },
    )
}

/// Eight signatures by eight keys (the `Secret`'s key and seven derived from it); the sixth
/// signs another message than the one it is checked against.
fn sm2_verify_batch<B: Backend>(s: &Secret) -> Prepared {
    let mut rng = s.rng();
    let signers: Vec<SigningKey<B>> = (0..BATCH as u8)
        .map(|i| {
            let mut key = s.key;
            key[31] ^= i << 1; // stays odd, so nonzero, and below n
            sm2_signer::<B>(&Secret { key, seed: s.seed })
        })
        .collect();
    let msgs: Vec<Vec<u8>> = (0..BATCH as u8).map(|i| [MSG, &[i]].concat()).collect();
    let sigs: Vec<sm2::Signature> = signers
        .iter()
        .zip(&msgs)
        .enumerate()
        .map(|(i, (k, m))| k.sign_with_rng(&mut rng, if i == 5 { MSG } else { m }))
        .collect();
    let vks: Vec<VerifyingKey<B>> = signers.iter().map(|k| k.verifying_key().clone()).collect();
    let one_by_one: Vec<u8> = (0..BATCH)
        .map(|i| u8::from(vks[i].verify(&msgs[i], &sigs[i]).is_ok()))
        .collect();
    Prepared::new(
        move || {
            let items: Vec<_> = (0..BATCH)
                .map(|i| (&vks[i], &msgs[i][..], &sigs[i]))
                .collect();
            batch::verify_batch(&items)
                .into_iter()
                .map(u8::from)
                .collect()
        },
        move |_, out| {
            ensure(out == one_by_one, "batch verdicts differ from one-by-one")?;
            ensure(
                out.iter().filter(|&&v| v == 1).count() == BATCH - 1 && out[5] == 0,
                "not exactly the tampered item is rejected",
            )
        },
    )
}

fn sm9_verify<B: Backend>(s: &Secret) -> Prepared {
    let kgc = SignMasterKey::<B>::from_bytes(&s.key).expect("1 <= key < n");
    let master: PreparedSignMasterPublicKey<B> = kgc.public_key().prepare();
    let alice = kgc.extract(b"Alice").expect("extract");
    let sig: Signature<B> = sm9::sign(&alice, &master, MSG, &mut s.rng()).expect("sign");
    let tampered = (master.clone(), sig);
    Prepared::new(
        move || vec![u8::from(sm9::verify(&master, b"Alice", MSG, &sig).is_ok())],
        move |_, out| {
            ensure(out == [1], "a valid signature is rejected")?;
            let (master, sig) = &tampered;
            ensure(
                sm9::verify(master, b"Bob", MSG, sig).is_err(),
                "a signature verifies under another identity",
            )
        },
    )
}

pub(crate) fn ops<B: Backend>() -> Vec<Op> {
    vec![
        Op::public("sm2.verify", sm2_verify::<B>),
        Op::public("sm2.verify_batch", sm2_verify_batch::<B>),
        Op::public("sm9.verify", sm9_verify::<B>),
    ]
}
