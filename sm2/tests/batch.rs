//! Batch verification gives, item for item, the verdict of the scalar `VerifyingKey::verify`:
//! random valid signatures, corruptions at every lane position (message, key, r, s), `t = r + s
//! = 0`, duplicate keys, keys with other distinguishing IDs, every batch length 0..=20 and 100,
//! and crafted signatures that drive the lane formulas into their exceptional cases (the lanes
//! must hand those to the scalar code).
//!
//! Where the CPU has AVX-512 IFMA the eight-lane code runs; the test `lanes_ran_where_expected`
//! fails on a CPU without it unless `SM_EXPECT_IFMA=0` declares that (`cargo xtask test` sets it
//! from /proc/cpuinfo; then everything here checks the portable loop).

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use shangmi_sm2::batch::{
    lane_report, sign_batch, verify_batch, verify_batch_all, verify_prehash_batch,
};
use shangmi_sm2::sm_curve::sm_field::{Modulus, Sm2N};
use shangmi_sm2::sm_curve::CurveParams;
use shangmi_sm2::{Curve, Scalar, SecretKey, Signature, SigningKey, VerifyingKey};

fn scalar_verdicts(items: &[(&VerifyingKey, &[u8], &Signature)]) -> Vec<bool> {
    items
        .iter()
        .map(|(vk, m, s)| vk.verify(m, s).is_ok())
        .collect()
}

/// The batch verdicts equal the scalar ones; returns them.
fn check(items: &[(&VerifyingKey, &[u8], &Signature)]) -> Vec<bool> {
    let want = scalar_verdicts(items);
    let got = verify_batch(items);
    assert_eq!(got, want, "batch of {}", items.len());
    assert_eq!(
        verify_batch_all(items).is_ok(),
        want.iter().all(|&v| v),
        "all-or-nothing, batch of {}",
        items.len()
    );
    got
}

struct Fixture {
    keys: Vec<SigningKey>,
    msgs: Vec<Vec<u8>>,
    sigs: Vec<Signature>,
}

/// `count` signatures over `count` random messages by `nkeys` keys (key i % nkeys signs message
/// i); some keys with other IDs (empty, long).
fn fixture(rng: &mut ChaCha20Rng, count: usize, nkeys: usize) -> Fixture {
    let keys: Vec<SigningKey> = (0..nkeys)
        .map(|i| {
            let sk = SecretKey::random(rng);
            match i % 3 {
                0 => SigningKey::new(&sk),
                1 => SigningKey::with_id(&sk, b"").unwrap(),
                _ => SigningKey::with_id(&sk, &[0xA5; 300]).unwrap(),
            }
        })
        .collect();
    let msgs: Vec<Vec<u8>> = (0..count)
        .map(|i| {
            let mut m = vec![0u8; (i * 7) % 90];
            rng.fill_bytes(&mut m);
            m
        })
        .collect();
    let sigs = (0..count)
        .map(|i| keys[i % nkeys].sign_with_rng(rng, &msgs[i]))
        .collect();
    Fixture { keys, msgs, sigs }
}

impl Fixture {
    fn vks(&self) -> Vec<VerifyingKey> {
        self.keys
            .iter()
            .map(|k| k.verifying_key().clone())
            .collect()
    }
}

/// (The lanes exist only in x86_64 builds with the asm backend.)
#[cfg(all(target_arch = "x86_64", any(feature = "asm", feature = "all-backends")))]
#[test]
fn lanes_ran_where_expected() {
    let have = shangmi_sm2::sm_curve::sm_field::lanes::Ifma::detect().is_some();
    // Panics where the CPU lacks IFMA unless SM_EXPECT_IFMA=0 declares it (then the scalar loop
    // is what the tests above checked).
    sm_testvectors::backend_runs_here("sm2 batch: IFMA lanes", have, "SM_EXPECT_IFMA");
}

#[test]
fn valid_batches_of_every_length() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let f = fixture(&mut rng, 100, 7);
    let vks = f.vks();
    for len in (0..=20).chain([100]) {
        let items: Vec<_> = (0..len)
            .map(|i| (&vks[i % 7], &f.msgs[i][..], &f.sigs[i]))
            .collect();
        let v = check(&items);
        assert!(v.iter().all(|&ok| ok), "valid batch of {len}");
        // The lanes decided every item of the full groups, without exceptional cases.
        let digests: Vec<[u8; 32]> = items
            .iter()
            .map(|(vk, m, _)| shangmi_sm2::message_digest(vk.za(), m))
            .collect();
        let pre: Vec<_> = items
            .iter()
            .zip(&digests)
            .map(|((vk, _, s), e)| (*vk, e, *s))
            .collect();
        if let Some(report) = lane_report(&pre) {
            for (i, r) in report.iter().enumerate() {
                let want = (i < len / 8 * 8).then_some((true, false));
                assert_eq!(*r, want, "lane report, item {i} of {len}");
            }
        }
    }
}

#[test]
fn one_corruption_at_every_position() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let f = fixture(&mut rng, 24, 5);
    let vks = f.vks();
    let other = SigningKey::random(&mut rng);
    let other_vk = other.verifying_key().clone();
    let n = 24;
    for kind in 0..5 {
        for pos in 0..n {
            let mut msgs = f.msgs.clone();
            let mut sigs = f.sigs.clone();
            let mut keyref: Vec<&VerifyingKey> = (0..n).map(|i| &vks[i % 5]).collect();
            match kind {
                0 => msgs[pos].push(1),
                1 => keyref[pos] = &other_vk,
                2 => {
                    // r + 1 (stays in range for random r)
                    let r = <Scalar>::from_bytes(sigs[pos].r()).unwrap() + <Scalar>::ONE;
                    sigs[pos] = Signature::from_scalars(&r.to_bytes(), sigs[pos].s()).unwrap();
                }
                3 => {
                    let s = <Scalar>::from_bytes(sigs[pos].s()).unwrap().double();
                    sigs[pos] = Signature::from_scalars(sigs[pos].r(), &s.to_bytes()).unwrap();
                }
                _ => {
                    // the signature of the neighbouring item
                    sigs[pos] = f.sigs[(pos + 1) % n];
                }
            }
            let items: Vec<_> = (0..n)
                .map(|i| (keyref[i], &msgs[i][..], &sigs[i]))
                .collect();
            let v = check(&items);
            for (i, ok) in v.iter().enumerate() {
                assert_eq!(*ok, i != pos, "kind {kind}, corrupted {pos}, item {i}");
            }
        }
    }
}

#[test]
fn mixed_random_validity_and_duplicate_keys() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    // One key for everything (duplicates), then two keys.
    for nkeys in [1, 2] {
        let f = fixture(&mut rng, 100, nkeys);
        let vks = f.vks();
        let mut msgs = f.msgs.clone();
        for m in msgs.iter_mut() {
            if rng.next_u32() % 3 == 0 {
                m.push(0);
            }
        }
        let items: Vec<_> = (0..100)
            .map(|i| (&vks[i % nkeys], &msgs[i][..], &f.sigs[i]))
            .collect();
        let v = check(&items);
        assert!(v.iter().any(|&x| x) && v.iter().any(|&x| !x));
    }
}

/// `r, s` outside `[1, n − 1]` cannot be represented as a `Signature`; `t = r + s = 0` can and
/// is rejected (B5), in every lane.
#[test]
fn out_of_range_scalars_and_t_zero() {
    let mut n_bytes = [0u8; 32];
    for (i, l) in Sm2N::P.iter().enumerate() {
        n_bytes[24 - 8 * i..32 - 8 * i].copy_from_slice(&l.to_be_bytes());
    }
    let one = <Scalar>::ONE.to_bytes();
    assert!(Signature::from_scalars(&[0; 32], &one).is_err());
    assert!(Signature::from_scalars(&one, &[0; 32]).is_err());
    assert!(Signature::from_scalars(&n_bytes, &one).is_err());
    assert!(Signature::from_scalars(&one, &[0xff; 32]).is_err());

    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let f = fixture(&mut rng, 16, 3);
    let vks = f.vks();
    for pos in 0..16 {
        let mut sigs = f.sigs.clone();
        let r = <Scalar>::from_bytes(sigs[pos].r()).unwrap();
        sigs[pos] = Signature::from_scalars(&r.to_bytes(), &(-r).to_bytes()).unwrap();
        let items: Vec<_> = (0..16)
            .map(|i| (&vks[i % 3], &f.msgs[i][..], &sigs[i]))
            .collect();
        let v = check(&items);
        assert!(!v[pos] && v.iter().filter(|&&x| x).count() == 15);
    }
}

/// Signatures aimed at the incomplete formulas, in a full group of eight: with the key `P = G`
/// and `r = −2s`, `s·G + t·P` is the identity (rejected); with `P = 2G` and `s = −2r`, `s·G` and
/// `t·P` are equal (the final addition is a doubling), which with `e` chosen to match is a valid
/// signature. Both must get the scalar verdict.
#[test]
fn exceptional_cases_fall_back_to_scalar() {
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let f = fixture(&mut rng, 16, 4);
    let vks = f.vks();
    let key = |d: u8| {
        let mut b = [0u8; 32];
        b[31] = d;
        VerifyingKey::new(SecretKey::from_bytes(&b).unwrap().public_key())
    };
    let (g, g2) = (key(1), key(2));
    let digests: Vec<[u8; 32]> = (0..16)
        .map(|i| shangmi_sm2::message_digest(vks[i % 4].za(), &f.msgs[i]))
        .collect();
    let mut crafted = Vec::new();
    for _ in 0..4 {
        // identity: P = G, r = −2s
        let s = <Scalar>::random(&mut rng);
        let r = -(s + s);
        let sig = Signature::from_scalars(&r.to_bytes(), &s.to_bytes()).unwrap();
        crafted.push((&g, <Scalar>::random(&mut rng).to_bytes(), sig, false));
        // doubling: P = 2G, s = −2r, e = r − x1 with (x1, y1) = 2s·G
        let r = <Scalar>::random(&mut rng);
        let s = -(r + r);
        let x1 = <Curve as CurveParams>::mul_generator(&(s + s))
            .to_affine()
            .x()
            .to_bytes();
        let e = r - <Scalar>::from_bytes_reduced(&x1);
        let sig = Signature::from_scalars(&r.to_bytes(), &s.to_bytes()).unwrap();
        crafted.push((&g2, e.to_bytes(), sig, true));
    }
    for pos in 0..16 {
        for (vk, e, sig, valid) in &crafted {
            let mut items: Vec<(&VerifyingKey, &[u8; 32], &Signature)> = (0..16)
                .map(|i| (&vks[i % 4], &digests[i], &f.sigs[i]))
                .collect();
            items[pos] = (*vk, e, sig);
            let want: Vec<bool> = items
                .iter()
                .map(|(vk, e, s)| vk.verify_prehash(e, s).is_ok())
                .collect();
            assert_eq!(want[pos], *valid);
            assert_eq!(verify_prehash_batch(&items), want, "crafted item at {pos}");
            // The lane met the exceptional case (and the others did not).
            if let Some(report) = lane_report(&items) {
                for (i, r) in report.iter().enumerate() {
                    let want = if i == pos {
                        (false, true)
                    } else {
                        (true, false)
                    };
                    assert_eq!(
                        *r,
                        Some(want),
                        "lane report, crafted item at {pos}, item {i}"
                    );
                }
            }
        }
    }
}

/// `sign_batch` makes, byte for byte, the signatures of `sign_with_rng` called item by item with
/// the same RNG (and leaves the RNG in the same state): every length 0..=20 and 100, duplicate
/// keys, keys with other IDs. The signatures verify (one by one and in a batch).
#[test]
fn sign_batch_equals_the_scalar_loop() {
    let mut rng = ChaCha20Rng::seed_from_u64(6);
    let f = fixture(&mut rng, 100, 5);
    for len in (0..=20).chain([100]) {
        let items: Vec<(&SigningKey, &[u8])> =
            (0..len).map(|i| (&f.keys[i % 5], &f.msgs[i][..])).collect();
        let seed = 1000 + len as u64;
        let mut r1 = ChaCha20Rng::seed_from_u64(seed);
        let got = sign_batch(&items, &mut r1);
        let mut r2 = ChaCha20Rng::seed_from_u64(seed);
        let want: Vec<Signature> = items
            .iter()
            .map(|(k, m)| k.sign_with_rng(&mut r2, m))
            .collect();
        assert_eq!(got, want, "batch of {len}");
        assert_eq!(
            r1.next_u64(),
            r2.next_u64(),
            "RNG state after a batch of {len}"
        );
        let vks = f.vks();
        let vitems: Vec<_> = (0..len)
            .map(|i| (&vks[i % 5], &f.msgs[i][..], &got[i]))
            .collect();
        assert!(check(&vitems).iter().all(|&ok| ok));
    }
}
