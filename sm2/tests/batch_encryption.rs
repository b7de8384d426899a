//! Batch decryption gives, item for item, what the scalar `SecretKey::decrypt` /
//! `decrypt_der` gives: the same plaintext bytes or the same error, for valid ciphertexts of
//! every plaintext length 1..=1000 in both raw orders, DER and compressed C1, with duplicate
//! keys at every lane position; for corrupted C1 (off the curve, x ≥ p, bad tags, the identity),
//! C3 and C2, wrong keys, wrong formats, and every truncation; for every batch length 0..=20
//! and 100; and for the secret keys whose lane computation meets the exceptional case of the
//! addition formula in its last window (d = 6 and d = n − 6: `k = n − 6`).
//!
//! Batch encryption gives, with the same seeded rng, the ciphertexts (and errors) of the scalar
//! `encrypt` / `encrypt_der` called in item order, and leaves the rng in the same state.
//!
//! Where the CPU has AVX-512 IFMA the eight-lane code runs (checked through
//! `decrypt_batch_report`); `lanes_ran_where_expected` fails on a CPU without it unless
//! `SM_EXPECT_IFMA=0` declares that (then everything here checks the portable loop).

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use shangmi_sm2::batch::{
    decrypt_batch, decrypt_batch_report, encrypt_batch, DecryptItem, EncryptItem, Format,
};
use shangmi_sm2::sm_curve::sm_field::{Modulus, Sm2N, Sm2P};
use shangmi_sm2::{AffinePoint, Ciphertext, DefaultBackend, Error, Mode, SecretKey};

type Item<'a> = DecryptItem<'a, DefaultBackend>;

fn have_lanes() -> bool {
    #[cfg(all(target_arch = "x86_64", feature = "asm"))]
    return shangmi_sm2::sm_curve::sm_field::lanes::Ifma::detect().is_some();
    #[allow(unreachable_code)]
    false
}

#[test]
fn lanes_ran_where_expected() {
    // Panics where the CPU lacks IFMA unless SM_EXPECT_IFMA=0 declares it (then the scalar loop
    // is what the tests here checked).
    sm_testvectors::backend_runs_here(
        "sm2 batch decryption: IFMA lanes",
        have_lanes(),
        "SM_EXPECT_IFMA",
    );
}

fn scalar(item: &Item<'_>) -> Result<Vec<u8>, Error> {
    let (sk, ct, format) = item;
    match format {
        Format::Raw(mode) => sk.decrypt(ct, *mode),
        Format::Der => sk.decrypt_der(ct),
    }
    .map(|m| m.to_vec())
}

/// The batch results equal the scalar ones; returns them and which items the lanes computed.
fn check(items: &[Item<'_>]) -> (Vec<Result<Vec<u8>, Error>>, Vec<bool>) {
    let want: Vec<_> = items.iter().map(scalar).collect();
    let (got, lanes) = decrypt_batch_report(items);
    let got: Vec<_> = got.into_iter().map(|r| r.map(|m| m.to_vec())).collect();
    assert_eq!(got.len(), items.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "item {i} of {}", items.len());
    }
    let plain: Vec<_> = decrypt_batch(items)
        .into_iter()
        .map(|r| r.map(|m| m.to_vec()))
        .collect();
    assert_eq!(plain, want);
    (got, lanes)
}

/// Where the lanes exist, exactly the items in `expect` came from them.
fn assert_lanes(lanes: &[bool], expect: impl Fn(usize) -> bool, what: &str) {
    if have_lanes() {
        for (i, &l) in lanes.iter().enumerate() {
            assert_eq!(l, expect(i), "{what}: item {i} from the lanes");
        }
    } else {
        assert!(lanes.iter().all(|&l| !l), "{what}: no lanes without IFMA");
    }
}

struct Fixture {
    keys: Vec<SecretKey>,
    msgs: Vec<Vec<u8>>,
    /// Ciphertext i is to key `i % keys.len()` in `formats[i]`.
    cts: Vec<Vec<u8>>,
    formats: Vec<Format>,
}

fn format_of(i: usize) -> Format {
    match i % 4 {
        0 => Format::Raw(Mode::C1C3C2),
        1 => Format::Raw(Mode::C1C2C3),
        2 => Format::Der,
        _ => Mode::C1C3C2.into(),
    }
}

fn encrypt(rng: &mut ChaCha20Rng, sk: &SecretKey, msg: &[u8], format: Format) -> Vec<u8> {
    let pk = sk.public_key();
    match format {
        Format::Raw(mode) => pk.encrypt(rng, msg, mode).unwrap(),
        Format::Der => pk.encrypt_der(rng, msg).unwrap(),
    }
}

/// `count` ciphertexts of messages of lengths `len(i)` to `nkeys` keys, formats cycling; every
/// eighth raw C1C3C2 ciphertext with C1 compressed.
fn fixture(
    rng: &mut ChaCha20Rng,
    count: usize,
    nkeys: usize,
    len: impl Fn(usize) -> usize,
) -> Fixture {
    let keys: Vec<SecretKey> = (0..nkeys).map(|_| SecretKey::random(rng)).collect();
    let msgs: Vec<Vec<u8>> = (0..count)
        .map(|i| {
            let mut m = vec![0u8; len(i)];
            rng.fill_bytes(&mut m);
            m
        })
        .collect();
    let formats: Vec<Format> = (0..count).map(format_of).collect();
    let cts = (0..count)
        .map(|i| {
            let ct = encrypt(rng, &keys[i % nkeys], &msgs[i], formats[i]);
            if i % 8 == 3 {
                Ciphertext::from_bytes(&ct, Mode::C1C3C2)
                    .unwrap()
                    .with_c1_compressed(true)
                    .unwrap()
                    .to_bytes(Mode::C1C3C2)
            } else {
                ct
            }
        })
        .collect();
    Fixture {
        keys,
        msgs,
        cts,
        formats,
    }
}

impl Fixture {
    fn items(&self) -> Vec<Item<'_>> {
        (0..self.cts.len())
            .map(|i| {
                (
                    &self.keys[i % self.keys.len()],
                    &self.cts[i][..],
                    self.formats[i],
                )
            })
            .collect()
    }
}

#[test]
fn valid_batches_of_every_length() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let f = fixture(&mut rng, 100, 7, |i| 1 + (i * 13) % 200);
    let all = f.items();
    for n in (0..=20).chain([100]) {
        let (got, lanes) = check(&all[..n]);
        for (i, r) in got.iter().enumerate() {
            assert_eq!(r.as_deref(), Ok(&f.msgs[i][..]), "item {i} of {n}");
        }
        // Groups of eight and a last group of two to seven run in the lanes; a last single item
        // does not.
        assert_lanes(&lanes, |i| !(n % 8 == 1 && i == n - 1), "valid batch");
    }
}

#[test]
fn every_plaintext_length_to_1000() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let f = fixture(&mut rng, 1000, 5, |i| i + 1);
    let (got, lanes) = check(&f.items());
    for (i, r) in got.iter().enumerate() {
        assert_eq!(r.as_deref(), Ok(&f.msgs[i][..]), "length {}", i + 1);
    }
    assert_lanes(&lanes, |_| true, "lengths");
}

#[test]
fn one_key_in_every_lane_and_duplicates() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    // One key for everything, then two keys alternating.
    for nkeys in [1, 2] {
        let f = fixture(&mut rng, 24, nkeys, |i| 32 + i);
        let (got, _) = check(&f.items());
        assert!(got.iter().all(|r| r.is_ok()));
    }
    // The same ciphertext eight times.
    let f = fixture(&mut rng, 1, 1, |_| 40);
    let items = vec![f.items()[0]; 8];
    let (got, lanes) = check(&items);
    assert!(got.iter().all(|r| r.as_deref() == Ok(&f.msgs[0][..])));
    assert_lanes(&lanes, |_| true, "duplicates");
}

/// C1 (SEC1 bytes) of a raw C1C3C2 ciphertext replaced by `c1`.
fn with_c1(ct: &[u8], c1: &[u8]) -> Vec<u8> {
    let c = Ciphertext::from_bytes(ct, Mode::C1C3C2).unwrap();
    [c1, &c.c3()[..], c.c2()].concat()
}

fn be(limbs: &[u64; 4]) -> [u8; 32] {
    let mut b = [0u8; 32];
    for (i, l) in limbs.iter().enumerate() {
        b[24 - 8 * i..32 - 8 * i].copy_from_slice(&l.to_be_bytes());
    }
    b
}

#[test]
fn corruptions_at_every_lane_position() {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let f = fixture(&mut rng, 16, 3, |i| 20 + i);
    let other = SecretKey::random(&mut rng);
    // A raw C1C3C2 ciphertext to take apart.
    let base = encrypt(
        &mut rng,
        &f.keys[0],
        b"a message of some length",
        Mode::C1C3C2.into(),
    );
    let c1 = &base[..65];
    let mut off_curve = c1.to_vec();
    off_curve[64] ^= 1;
    let mut x_too_big = c1.to_vec();
    x_too_big[1..33].copy_from_slice(&be(&Sm2P::P));
    let mut bad_tag = c1.to_vec();
    bad_tag[0] = 5;
    // A compressed x that is no point's x-coordinate (the first such small x).
    let no_point: Vec<u8> = (0u8..)
        .map(|x| [&[2u8][..], &[0; 31], &[x]].concat())
        .find(|c| AffinePoint::<DefaultBackend>::from_sec1(c).is_err())
        .unwrap();
    let other_point = other.public_key().to_uncompressed();
    let corruptions: Vec<(&str, Vec<u8>, Format)> = vec![
        (
            "C1 off the curve",
            with_c1(&base, &off_curve),
            Mode::C1C3C2.into(),
        ),
        ("C1 x = p", with_c1(&base, &x_too_big), Mode::C1C3C2.into()),
        ("C1 tag 5", with_c1(&base, &bad_tag), Mode::C1C3C2.into()),
        ("C1 identity", with_c1(&base, &[0]), Mode::C1C3C2.into()),
        (
            "C1 compressed, no point",
            with_c1(&base, &no_point),
            Mode::C1C3C2.into(),
        ),
        (
            "C1 another point",
            with_c1(&base, &other_point),
            Mode::C1C3C2.into(),
        ),
        (
            "C3 flipped",
            {
                let mut c = base.clone();
                c[70] ^= 0x80;
                c
            },
            Mode::C1C3C2.into(),
        ),
        (
            "C2 flipped",
            {
                let mut c = base.clone();
                *c.last_mut().unwrap() ^= 1;
                c
            },
            Mode::C1C3C2.into(),
        ),
        ("wrong order", base.clone(), Mode::C1C2C3.into()),
        ("raw as DER", base.clone(), Format::Der),
        ("empty C2", base[..97].to_vec(), Mode::C1C3C2.into()),
        ("empty", Vec::new(), Mode::C1C3C2.into()),
    ];
    for (what, ct, format) in &corruptions {
        for pos in 0..16 {
            let mut items = f.items();
            items[pos] = (&f.keys[0], &ct[..], *format);
            let (got, lanes) = check(&items);
            assert_eq!(got[pos], Err(Error::Decryption), "{what} at {pos}");
            for (i, r) in got.iter().enumerate() {
                if i != pos {
                    assert_eq!(
                        r.as_deref(),
                        Ok(&f.msgs[i][..]),
                        "{what} at {pos}: item {i}"
                    );
                }
            }
            // Items whose framing or C1 the checks reject never reach the lanes (a C1C3C2
            // ciphertext read as C1C2C3 has a valid C1 and fails at C3).
            let rejected_early = what.starts_with("C1") && *what != "C1 another point"
                || matches!(*what, "raw as DER" | "empty C2" | "empty");
            if rejected_early {
                assert!(!lanes[pos], "{what} at {pos}");
                assert_lanes(&lanes, |i| i != pos, what);
            } else {
                assert_lanes(&lanes, |_| true, what);
            }
        }
    }
    // Wrong keys at every position.
    for pos in 0..16 {
        let mut items = f.items();
        items[pos].0 = &other;
        let (got, _) = check(&items);
        assert_eq!(got[pos], Err(Error::Decryption), "wrong key at {pos}");
    }
}

#[test]
fn every_truncation_and_random_garbage() {
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let f = fixture(&mut rng, 3, 1, |_| 100);
    let sk = &f.keys[0];
    let mut items: Vec<Item<'_>> = Vec::new();
    for (ct, format) in f.cts.iter().zip(&f.formats) {
        for len in 0..ct.len() {
            items.push((sk, &ct[..len], *format));
        }
        items.push((sk, &ct[..], *format));
    }
    let garbage: Vec<Vec<u8>> = (0..40)
        .map(|i| {
            let mut g = vec![0u8; i * 7];
            rng.fill_bytes(&mut g);
            if let Some(b) = g.first_mut() {
                *b = [2, 3, 4, 0x30][i % 4];
            }
            g
        })
        .collect();
    for (i, g) in garbage.iter().enumerate() {
        items.push((sk, g, format_of(i)));
    }
    let (got, _) = check(&items);
    assert_eq!(got.iter().filter(|r| r.is_ok()).count(), 3);
}

/// `n − m` as 32 bytes.
fn n_minus(m: u64) -> [u8; 32] {
    let mut l = Sm2N::P;
    let (v, borrow) = l[0].overflowing_sub(m);
    l[0] = v;
    assert!(!borrow);
    be(&l)
}

fn small(m: u64) -> [u8; 32] {
    be(&[m, 0, 0, 0])
}

/// Keys next to the exceptional case of the lanes' last window: `k = n − 6` (d = 6, even, so
/// k = n − d; and d = n − 6, odd, k = d) makes the last addition a doubling, which the lanes
/// must compute as one. The neighbours, the smallest and largest keys, check the rest of the
/// recoding's edges.
#[test]
fn edge_keys() {
    let mut rng = ChaCha20Rng::seed_from_u64(6);
    let mut keys: Vec<SecretKey> = Vec::new();
    for m in [1u64, 2, 3, 4, 5, 6, 7, 8, 30, 31, 32, 33, 62, 63, 64] {
        keys.push(SecretKey::from_bytes(&small(m)).unwrap());
    }
    for m in [2u64, 3, 4, 5, 6, 7, 8, 10, 62, 64] {
        keys.push(SecretKey::from_bytes(&n_minus(m)).unwrap());
    }
    let mut top = [0xffu8; 32];
    top[0] = 0x7f;
    keys.push(SecretKey::from_bytes(&top).unwrap());
    let mut high = [0u8; 32];
    high[0] = 0x80;
    keys.push(SecretKey::from_bytes(&high).unwrap());
    let msgs: Vec<Vec<u8>> = (0..keys.len()).map(|i| vec![i as u8; 33]).collect();
    let cts: Vec<Vec<u8>> = keys
        .iter()
        .zip(&msgs)
        .enumerate()
        .map(|(i, (k, m))| encrypt(&mut rng, k, m, format_of(i)))
        .collect();
    let n = keys.len();
    // Every key at every lane position of a group of eight (rotations of the list).
    for shift in 0..8 {
        let items: Vec<Item<'_>> = (0..n)
            .map(|j| {
                let i = (j + shift) % n;
                (&keys[i], &cts[i][..], format_of(i))
            })
            .collect();
        let (got, lanes) = check(&items);
        for (j, r) in got.iter().enumerate() {
            assert_eq!(
                r.as_deref(),
                Ok(&msgs[(j + shift) % n][..]),
                "shift {shift}, item {j}"
            );
        }
        assert_lanes(&lanes, |j| !(n % 8 == 1 && j == n - 1), "edge keys");
    }
    // The exceptional keys filling a whole group.
    let six = [5usize, 19];
    let items: Vec<Item<'_>> = (0..8)
        .map(|j| {
            let i = six[j % 2];
            (&keys[i], &cts[i][..], format_of(i))
        })
        .collect();
    let (got, lanes) = check(&items);
    assert!(got.iter().all(|r| r.is_ok()));
    assert_lanes(&lanes, |_| true, "k = n − 6");
}

/// The scalar encryptions of `items` in order with one rng.
fn scalar_encrypt(
    items: &[EncryptItem<'_, DefaultBackend>],
    rng: &mut ChaCha20Rng,
) -> Vec<Result<Vec<u8>, Error>> {
    items
        .iter()
        .map(|(pk, msg, format)| match format {
            Format::Raw(mode) => pk.encrypt(rng, msg, *mode),
            Format::Der => pk.encrypt_der(rng, msg),
        })
        .collect()
}

/// Batch = loop with the same seed, and the rng ends in the same state.
fn check_encrypt(
    items: &[EncryptItem<'_, DefaultBackend>],
    seed: u64,
) -> Vec<Result<Vec<u8>, Error>> {
    let mut a = ChaCha20Rng::seed_from_u64(seed);
    let mut b = ChaCha20Rng::seed_from_u64(seed);
    let want = scalar_encrypt(items, &mut a);
    let got = encrypt_batch(items, &mut b);
    assert_eq!(got, want, "batch of {}", items.len());
    assert_eq!(
        a.next_u64(),
        b.next_u64(),
        "rng state after a batch of {}",
        items.len()
    );
    got
}

#[test]
fn encrypt_batch_equals_the_loop() {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let keys: Vec<SecretKey> = (0..5).map(|_| SecretKey::random(&mut rng)).collect();
    let msgs: Vec<Vec<u8>> = (0..1000)
        .map(|i| {
            // Some empty messages (an error, and no rng draw).
            let mut m = vec![0u8; if i % 37 == 5 { 0 } else { 1 + i }];
            rng.fill_bytes(&mut m);
            m
        })
        .collect();
    let items: Vec<EncryptItem<'_, DefaultBackend>> = (0..1000)
        .map(|i| (keys[i % 5].public_key(), &msgs[i][..], format_of(i)))
        .collect();
    for n in (0..=20).chain([1000]) {
        let got = check_encrypt(&items[..n], n as u64);
        // And they decrypt.
        let dec: Vec<Item<'_>> = got
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                c.as_ref()
                    .ok()
                    .map(|c| (&keys[i % 5], &c[..], format_of(i)))
            })
            .collect();
        let (plain, _) = check(&dec);
        let want: Vec<&[u8]> = msgs[..n]
            .iter()
            .map(|m| &m[..])
            .filter(|m| !m.is_empty())
            .collect();
        assert_eq!(
            plain
                .iter()
                .map(|p| p.as_deref().unwrap())
                .collect::<Vec<_>>(),
            want
        );
        for (i, c) in got.iter().enumerate() {
            if msgs[i].is_empty() {
                assert_eq!(c, &Err(Error::EmptyPlaintext));
            }
        }
    }
    // One key for a whole group, and the same message eight times.
    let same: Vec<EncryptItem<'_, DefaultBackend>> =
        vec![(keys[0].public_key(), &msgs[3][..], Format::Der); 9];
    check_encrypt(&same, 99);
}
