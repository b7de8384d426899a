//! Batch verification (`verify_batch`, `BatchVerifier`) gives the verdicts of one-by-one
//! `verify` for every item: valid, corrupted (other message, other identity, another signer's
//! signature, altered h, another S) and mixed batches, two master keys, duplicate items, every
//! length 0–41 and 100 (full groups of eight run in the IFMA lanes where the CPU has them, the
//! remainder one by one).

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use shangmi_sm9::{
    sign, verify, verify_batch, BatchItem, BatchVerifier, PreparedSignMasterPublicKey,
    SignMasterKey, Signature,
};

/// Where the crate has the lane path: whether it runs here (a CPU without IFMA must declare it
/// with `SM_EXPECT_IFMA=0`; the verdicts are checked either way).
fn lanes_expected() {
    #[cfg(all(target_arch = "x86_64", feature = "asm"))]
    sm_testvectors::backend_runs_here(
        "SM9 batch verification: IFMA lanes",
        sm_field::lanes::Ifma::detect().is_some(),
        "SM_EXPECT_IFMA",
    );
}

struct Owned {
    master: usize,
    id: Vec<u8>,
    msg: Vec<u8>,
    sig: Signature,
}

/// `count` items over two masters and three identities; about a third corrupted in one of five
/// ways (so that the item no longer verifies), some duplicated.
fn items(
    rng: &mut ChaCha20Rng,
    masters: &[PreparedSignMasterPublicKey; 2],
    keys: &[[shangmi_sm9::SignUserKey; 3]; 2],
    count: usize,
) -> Vec<Owned> {
    let ids: [&[u8]; 3] = [b"Alice", b"Bob", b"Carol"];
    let mut out: Vec<Owned> = Vec::with_capacity(count);
    for n in 0..count {
        if n > 0 && rng.next_u32().is_multiple_of(9) {
            let j = rng.next_u32() as usize % n;
            let d = &out[j];
            let dup = Owned {
                master: d.master,
                id: d.id.clone(),
                msg: d.msg.clone(),
                sig: d.sig,
            };
            out.push(dup);
            continue;
        }
        let m = rng.next_u32() as usize % 2;
        let k = rng.next_u32() as usize % 3;
        let msg = format!("message {n}").into_bytes();
        let sig = sign(&keys[m][k], &masters[m], &msg, rng).unwrap();
        let mut it = Owned {
            master: m,
            id: ids[k].to_vec(),
            msg,
            sig,
        };
        match rng.next_u32() % 15 {
            0 => it.msg.push(b'!'),
            1 => it.id = ids[(k + 1) % 3].to_vec(),
            2 => it.master = 1 - m,
            3 => {
                // h + 1 (when still below n).
                let mut h = it.sig.h_bytes();
                if let Some(b) = h.iter_mut().rev().find(|b| **b != 0xff) {
                    *b += 1;
                }
                if let Ok(s) = Signature::from_parts(&h, &it.sig.s_bytes()) {
                    it.sig = s;
                }
            }
            4 => {
                // S of a signature on another message.
                let other = sign(&keys[m][k], &masters[m], b"other", rng).unwrap();
                it.sig = Signature::from_parts(&it.sig.h_bytes(), &other.s_bytes()).unwrap();
            }
            _ => {}
        }
        out.push(it);
    }
    out
}

#[test]
fn batch_verdicts_match_one_by_one() {
    lanes_expected();
    let mut rng = ChaCha20Rng::seed_from_u64(0xba7c);
    let kgcs = [
        SignMasterKey::generate(&mut rng),
        SignMasterKey::generate(&mut rng),
    ];
    let masters = [
        kgcs[0].public_key().prepare(),
        kgcs[1].public_key().prepare(),
    ];
    let keys = [0, 1]
        .map(|m| [b"Alice" as &[u8], b"Bob", b"Carol"].map(|id| kgcs[m].extract(id).unwrap()));
    let pool = items(&mut rng, &masters, &keys, 100);
    let want: Vec<bool> = pool
        .iter()
        .map(|it| verify(&masters[it.master], &it.id, &it.msg, &it.sig).is_ok())
        .collect();
    assert!(want.iter().any(|&v| v) && want.iter().any(|&v| !v));
    let mut cached = BatchVerifier::new(2);
    let mut lengths: Vec<usize> = (0..=41).collect();
    lengths.push(100);
    for len in lengths {
        // A window of the pool at a length-dependent offset.
        let start = (len * 7) % (pool.len() - len + 1);
        let batch: Vec<BatchItem<'_>> = pool[start..start + len]
            .iter()
            .map(|it| BatchItem {
                master: &masters[it.master],
                id: &it.id,
                message: &it.msg,
                signature: &it.sig,
            })
            .collect();
        let expect = &want[start..start + len];
        let got = verify_batch(&batch);
        assert_eq!(got.as_slice(), expect, "length {len}");
        assert_eq!(
            cached.verify(&batch).as_slice(),
            expect,
            "length {len}, cached"
        );
        assert_eq!(got.all_valid(), expect.iter().all(|&v| v));
    }
    // All valid, one master, one signer: a full group of eight and more.
    let all: Vec<(Vec<u8>, Signature)> = (0..16u8)
        .map(|i| {
            let msg = vec![i; 3 + i as usize];
            let sig = sign(&keys[0][0], &masters[0], &msg, &mut rng).unwrap();
            (msg, sig)
        })
        .collect();
    let batch: Vec<BatchItem<'_>> = all
        .iter()
        .map(|(msg, sig)| BatchItem {
            master: &masters[0],
            id: b"Alice",
            message: msg,
            signature: sig,
        })
        .collect();
    assert!(verify_batch(&batch).all_valid());
    // Eight signers, one signature each (no signer prepared), then signer 0 twice and six
    // others once (prepared and unprepared lanes in one group); one bad item each time.
    let ids: Vec<Vec<u8>> = (0..8).map(|i| format!("signer {i}").into_bytes()).collect();
    let signed: Vec<(Vec<u8>, Signature)> = ids
        .iter()
        .map(|id| {
            let key = kgcs[1].extract(id).unwrap();
            let msg = [b"to ".as_slice(), id].concat();
            let sig = sign(&key, &masters[1], &msg, &mut rng).unwrap();
            (msg, sig)
        })
        .collect();
    for pick in [[0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 0, 4, 5, 6, 7]] {
        let mut batch: Vec<BatchItem<'_>> = pick
            .iter()
            .map(|&k| BatchItem {
                master: &masters[1],
                id: &ids[k],
                message: &signed[k].0,
                signature: &signed[k].1,
            })
            .collect();
        batch[6].id = b"nobody";
        assert_eq!(verify_batch(&batch).failed(), vec![6], "{pick:?}");
    }
    // One bad signature in the middle of a group is the only failure.
    let mut bad = batch.clone();
    bad[5].message = b"forged";
    assert_eq!(verify_batch(&bad).failed(), vec![5]);
}
