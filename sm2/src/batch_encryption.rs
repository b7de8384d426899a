//! Decryption of many ciphertexts at once (multi-buffer), re-exported from [`crate::batch`]: on
//! x86_64 CPUs with AVX-512 IFMA the secret scalar multiplications `d_B·C1` of eight ciphertexts
//! run side by side, one per 64-bit lane of the vector registers (`sm_field::lanes`); elsewhere,
//! one after the other as [`SecretKey::decrypt`] does them.
//!
//! Every item gets exactly what the scalar decryption gives it ([`SecretKey::decrypt`] for
//! [`Format::Raw`], [`SecretKey::decrypt_der`] for [`Format::Der`]): the same plaintext bytes, or
//! the same opaque [`Error::Decryption`] for every failure (framing, C1 not on the curve, all-zero
//! KDF output, C3 mismatch), since the framing, the C1 checks (B1–B2) and the steps after the
//! scalar multiplication (B4–B7: KDF, XOR, `u = SM3(x2 ‖ M′ ‖ y2)`, constant-time comparison
//! with C3) are the scalar decryption's own code, item by item. Only B3, `(x2, y2) = d_B·C1`,
//! runs in the lanes.
//!
//! **Lane algorithm** (per group of eight items with a valid C1; a last group of two to seven is
//! padded with copies of its first item, a last single item goes through the scalar code): the
//! regular odd recoding (Joye–Tunstall, AFRICACRYPT 2009, §3) of `k = d` or `k = n − d`,
//! whichever is odd (chosen by a constant-time select), in 5-bit windows: 51 odd digits in
//! `[−31, 31]` below a top digit that is always 1. Each lane builds its own table `C1, 3·C1, …,
//! 31·C1` (Jacobian, one doubling and 15 additions); then 51 windows of five doublings and one
//! addition of the entry `|digit|` read by [`Lanes8::select_scan`](sm_field::lanes::Lanes8)
//! (every entry of the table is read and kept by mask blends: no memory index depends on the
//! secret) and negated by a mask blend where the digit is negative; at the end `y` is negated
//! where `k = n − d`. Every lane does the same work whatever its key; the digits are computed by
//! arithmetic on the scalar limbs (no branch on them). The formulas are those of the batch
//! verifier (`dbl-2001-b`, `add-2007-bl`: Bernstein–Lange, Explicit-Formulas Database,
//! "Jacobian coordinates with a4 = −3"); one inversion of the eight `Z` (Montgomery's trick around
//! the constant-time inversion) gives the affine `(x2, y2)`.
//!
//! **Exceptional cases.** The addition formula is incomplete: it fails when its inputs are equal,
//! opposite or the identity. C1 passed B1–B2, so it has order n (the cofactor is 1). In the table,
//! `(2m − 1)·C1 + 2·C1` is exceptional only if `2m − 1 ≡ ±2 (mod n)`: never for `m ≤ 15`. Before
//! window `w` is added the accumulator is `32A·C1`, where `A ≥ 1` is the value of the digits
//! above `w` (the top digit is 1 and `32A + d ≥ 1` for every odd `|d| ≤ 31`), and the entry is
//! `d_w·C1`. For `w ≥ 1`, `0 < 32A < k/2^(5w) + 32 < n/2`, so `32A ≡ ±d_w (mod n)` would be an
//! integer equality between an even and an odd number: impossible. Only the last window can
//! meet it, and only as `32A ≡ d_0` (the opposite case would mean `k ≡ 0`), that is for
//! `k = n + 2·d_0` where `d_0 = (k mod 64) − 32` is k's own last digit; as `n ≡ 35 (mod 64)`,
//! only `k = n − 6` (`d_0 = −3`) qualifies: the keys `d = 6` and `d = n − 6`, whatever C1 is
//! (`tests/batch_encryption.rs` decrypts with both). There the sum is the
//! doubling of the accumulator, so the last window computes both the addition and the doubling
//! and keeps the doubling in the lanes where `H = 0` (a mask blend: no branch, no timing
//! difference for these keys). The other additions still record `H = 0` per lane; by the
//! argument above that never happens for a point of order n, and if it did the item would be
//! decrypted again by the scalar code, so the result is exact in any case.
//!
//! The lane values on the stack are not zeroized (the scalar limbs, digits and the affine
//! results are).

use alloc::vec::Vec;

use rand_core::CryptoRng;
use sm_curve::{CurveParams, Jacobian};
use sm_field::{Backend, Job};
use zeroize::{Zeroize, Zeroizing};

use crate::encryption::{
    check_der_len, frame_der, frame_raw, open_with_shared, seal_with_shared, shared_point, Parts,
    SharedPoint,
};
use crate::keys::{decode_point, encode_point, random_nonzero_scalar, PublicKey, SecretKey};
use crate::{AffinePoint, Curve, Error, Mode, Scalar};

/// How a ciphertext given to [`decrypt_batch`] is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The raw concatenation in the given order (what [`SecretKey::decrypt`] reads).
    Raw(Mode),
    /// GM/T 0009 DER (what [`SecretKey::decrypt_der`] reads).
    Der,
}

impl From<Mode> for Format {
    fn from(mode: Mode) -> Self {
        Self::Raw(mode)
    }
}

/// One decryption request: the recipient's key, the ciphertext, its encoding.
pub type DecryptItem<'a, B> = (&'a SecretKey<B>, &'a [u8], Format);

/// The result of [`SecretKey::decrypt`] (or [`SecretKey::decrypt_der`]) for every item, in
/// order: the plaintext, or [`Error::Decryption`]. Constant time in the secret keys and the
/// shared points; items may share keys.
///
/// On CPUs with AVX-512 IFMA the secret scalar multiplications `d_B·C1` of eight ciphertexts run
/// side by side in the lanes of the vector registers (constant time: every lane does the same
/// work, table entries are read by masking; the algorithm and its exceptional cases are
/// described at the top of `sm2/src/batch_encryption.rs`); everything else, and CPUs without
/// IFMA, use the scalar decryption's own code, so the results are byte for byte those of the
/// one-by-one calls.
///
/// ```
/// use shangmi_sm2::batch::{self, Format};
/// use shangmi_sm2::{Mode, SecretKey};
/// let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
/// let keys: Vec<SecretKey> = (0..3).map(|_| SecretKey::random(&mut rng)).collect();
/// let msgs: Vec<Vec<u8>> = (0..10u8).map(|i| vec![i; 1 + i as usize]).collect();
/// let cts: Vec<Vec<u8>> = msgs
///     .iter()
///     .enumerate()
///     .map(|(i, m)| {
///         let pk = keys[i % 3].public_key();
///         if i % 2 == 0 {
///             pk.encrypt(&mut rng, m, Mode::C1C3C2).unwrap()
///         } else {
///             pk.encrypt_der(&mut rng, m).unwrap()
///         }
///     })
///     .collect();
/// let mut items: Vec<_> = (0..10)
///     .map(|i| {
///         let format = if i % 2 == 0 { Format::Raw(Mode::C1C3C2) } else { Format::Der };
///         (&keys[i % 3], &cts[i][..], format)
///     })
///     .collect();
/// items[4].0 = &keys[0]; // item 4 was encrypted to keys[1]
/// let out = batch::decrypt_batch(&items);
/// for (i, r) in out.iter().enumerate() {
///     match r {
///         Ok(m) => assert_eq!(m.as_slice(), msgs[i]),
///         Err(e) => assert_eq!((i, *e), (4, shangmi_sm2::Error::Decryption)),
///     }
/// }
/// ```
pub fn decrypt_batch<B: Backend>(
    items: &[DecryptItem<'_, B>],
) -> Vec<Result<Zeroizing<Vec<u8>>, Error>> {
    decrypt_batch_report(items).0
}

/// [`decrypt_batch`] and, per item, whether its `d_B·C1` came from the lanes (diagnostics for
/// tests: all `false` without AVX-512 IFMA, for items whose framing or C1 the checks rejected,
/// and for a last single item).
#[doc(hidden)]
#[allow(clippy::type_complexity)]
pub fn decrypt_batch_report<B: Backend>(
    items: &[DecryptItem<'_, B>],
) -> (Vec<Result<Zeroizing<Vec<u8>>, Error>>, Vec<bool>) {
    // B1–B2 item by item: the framing, then C1 on the curve and not the identity. `buf` keeps
    // C2 only (wiped on failure).
    let mut bufs: Vec<Zeroizing<Vec<u8>>> = items
        .iter()
        .map(|(_, ct, _)| Zeroizing::new(ct.to_vec()))
        .collect();
    let opened: Vec<Option<(AffinePoint<B>, [u8; 32])>> = items
        .iter()
        .zip(bufs.iter_mut())
        .map(|((_, _, format), buf)| {
            let parts = match format {
                Format::Raw(mode) => Parts::split_raw(buf, *mode),
                Format::Der => Parts::split_der(buf),
            }
            .ok()?;
            match decode_point::<B>(parts.c1()) {
                Some(c1) => Some((c1, parts.c3)),
                None => {
                    buf.zeroize();
                    None
                }
            }
        })
        .collect();
    // B3 for the items that passed.
    let ready: Vec<(&Scalar<B>, &AffinePoint<B>)> = items
        .iter()
        .zip(&opened)
        .filter_map(|((sk, _, _), o)| o.as_ref().map(|(c1, _)| (sk.scalar(), c1)))
        .collect();
    let (shared, from_lanes) = shared_points(&ready);
    let mut shared = shared.into_iter().zip(from_lanes);
    // B4–B7 item by item.
    bufs.into_iter()
        .zip(opened)
        .map(|(mut buf, o)| match o {
            Some((_, c3)) => {
                let ((x2, y2), lane) = shared.next().expect("one shared point per opened item");
                (
                    open_with_shared(&x2, &y2, &c3, &mut buf).map(|()| buf),
                    lane,
                )
            }
            None => (Err(Error::Decryption), false),
        })
        .unzip()
}

/// One encryption request: the recipient's key, the message, the encoding of the ciphertext.
pub type EncryptItem<'a, B> = (&'a PublicKey<B>, &'a [u8], Format);

/// Encrypts every message to its key: the ciphertexts [`PublicKey::encrypt`] (for
/// [`Format::Raw`]) or [`PublicKey::encrypt_der`] (for [`Format::Der`]) would make, called once
/// per item in order with the same `rng` (C1 uncompressed), and their errors (an empty message,
/// a DER length that does not encode) for the same items, which draw nothing from `rng` there
/// either.
///
/// The ephemeral `k` are drawn from `rng` in item order exactly as that loop draws them, so the
/// ciphertexts are identical to the loop's. Only in the negligible case where the KDF output is
/// all zero (where the scalar encryption draws again) is that item's new `k` drawn after the
/// whole batch. Constant time in the `k` and the shared points: on CPUs with AVX-512 IFMA the
/// variable-base `k·P_B` of eight items run in the lanes as in [`decrypt_batch`]; `C1 = k·G`
/// uses the scalar fixed-base comb.
///
/// ```
/// use shangmi_sm2::batch::{self, Format};
/// use shangmi_sm2::{Mode, SecretKey};
/// use rand_chacha::rand_core::SeedableRng;
/// let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
/// let keys: Vec<SecretKey> = (0..9).map(|_| SecretKey::random(&mut rng)).collect();
/// let items: Vec<_> = keys
///     .iter()
///     .map(|k| (k.public_key(), &b"message"[..], Format::Raw(Mode::C1C3C2)))
///     .collect();
/// let seed = [7u8; 32];
/// let cts = batch::encrypt_batch(&items, &mut rand_chacha::ChaCha20Rng::from_seed(seed));
/// let mut same = rand_chacha::ChaCha20Rng::from_seed(seed);
/// for (k, ct) in keys.iter().zip(&cts) {
///     let ct = ct.as_ref().unwrap();
///     assert_eq!(ct, &k.public_key().encrypt(&mut same, b"message", Mode::C1C3C2).unwrap());
///     assert_eq!(k.decrypt(ct, Mode::C1C3C2).unwrap().as_slice(), b"message");
/// }
/// ```
pub fn encrypt_batch<B: Backend>(
    items: &[EncryptItem<'_, B>],
    rng: &mut impl CryptoRng,
) -> Vec<Result<Vec<u8>, Error>> {
    // The checks before A1, and A1 in item order.
    let mut out: Vec<Result<Vec<u8>, Error>> = Vec::with_capacity(items.len());
    let mut ks: Vec<Scalar<B>> = Vec::new();
    for (_, msg, format) in items {
        let checked = if msg.is_empty() {
            Err(Error::EmptyPlaintext)
        } else if *format == Format::Der {
            check_der_len(msg.len())
        } else {
            Ok(())
        };
        out.push(checked.map(|()| {
            ks.push(random_nonzero_scalar(rng));
            msg.to_vec()
        }));
    }
    let ready: Vec<usize> = (0..items.len()).filter(|&i| out[i].is_ok()).collect();
    // A2: C1 = k·G (the comb), A4: k·P_B (the lanes).
    let c1 = B::dispatch(GeneratorMultiples(&ks));
    let pairs: Vec<(&Scalar<B>, &AffinePoint<B>)> = ready
        .iter()
        .zip(&ks)
        .map(|(&i, k)| (k, items[i].0.as_affine()))
        .collect();
    let (shared, _) = shared_points(&pairs);
    ks.zeroize();
    // A5–A8 item by item.
    for ((&i, c1), (x2, y2)) in ready.iter().zip(&c1).zip(shared) {
        let (pk, _, format) = items[i];
        let Ok(buf) = out[i].as_mut() else {
            continue;
        };
        out[i] = match seal_with_shared(c1, &x2, &y2, buf) {
            Some((c1, c3)) => match format {
                Format::Raw(mode) => {
                    frame_raw(buf, mode, &c1, &c3);
                    Ok(core::mem::take(buf))
                }
                Format::Der => frame_der(buf, &c1, &c3).map(|()| core::mem::take(buf)),
            },
            // All-zero KDF output: `buf` still holds M; encrypt again with a new k.
            None => match format {
                Format::Raw(mode) => pk.encrypt_in_place(rng, buf, mode),
                Format::Der => pk.encrypt_der_in_place(rng, buf),
            }
            .map(|()| core::mem::take(buf)),
        };
    }
    out
}

/// `k·P` for every pair (secret `k`, valid `P`: `d_B·C1` of decryption, `k·P_B` of
/// encryption), and whether the lanes computed it; one dispatched job.
fn shared_points<B: Backend>(
    ready: &[(&Scalar<B>, &AffinePoint<B>)],
) -> (Vec<SharedPoint>, Vec<bool>) {
    B::dispatch(SharedPoints(ready))
}

struct SharedPoints<'a, 'b, B: Backend>(&'a [(&'b Scalar<B>, &'b AffinePoint<B>)]);

impl<B: Backend> Job for SharedPoints<'_, '_, B> {
    type Output = (Vec<SharedPoint>, Vec<bool>);
    fn run<B2: Backend>(self) -> Self::Output {
        let mut pairs: Vec<(Scalar<B2>, AffinePoint<B2>)> = self
            .0
            .iter()
            .map(|(k, p)| (k.to_backend(), p.to_backend()))
            .collect();
        let refs: Vec<(&Scalar<B2>, &AffinePoint<B2>)> =
            pairs.iter().map(|(k, p)| (k, p)).collect();
        let out = shared_points_on(&refs);
        drop(refs);
        for (k, _) in &mut pairs {
            k.zeroize();
        }
        out
    }
}

/// [`shared_points`] inside its job.
fn shared_points_on<B: Backend>(
    ready: &[(&Scalar<B>, &AffinePoint<B>)],
) -> (Vec<SharedPoint>, Vec<bool>) {
    let scalar = |(k, p): &(&Scalar<B>, &AffinePoint<B>)| shared_point(*k, p);
    #[cfg(all(target_arch = "x86_64", any(feature = "asm", feature = "all-backends")))]
    if let Some(t) = sm_field::lanes::Ifma::detect() {
        let mut out = Vec::with_capacity(ready.len());
        let mut from_lanes = Vec::with_capacity(ready.len());
        for group in ready.chunks(8) {
            if group.len() == 1 {
                out.push(scalar(&group[0]));
                from_lanes.push(false);
                continue;
            }
            let (xy, bad) = t.run(
                #[inline(always)]
                |t| lanes::shared_x8(t, group),
            );
            for (i, (pair, s)) in group.iter().zip(xy).enumerate() {
                let exceptional = bad >> i & 1 == 1;
                out.push(if exceptional { scalar(pair) } else { s });
                from_lanes.push(!exceptional);
            }
        }
        return (out, from_lanes);
    }
    (
        ready.iter().map(scalar).collect(),
        alloc::vec![false; ready.len()],
    )
}

/// `k·G` for every nonce, encoded uncompressed (C1 of batch encryption), as one dispatched job
/// with one shared inversion.
struct GeneratorMultiples<'a, B: Backend>(&'a [Scalar<B>]);

impl<B: Backend> Job for GeneratorMultiples<'_, B> {
    type Output = Vec<[u8; 65]>;
    fn run<B2: Backend>(self) -> Self::Output {
        let jac: Vec<_> = self
            .0
            .iter()
            .map(|k| {
                let mut k = k.to_backend::<B2>();
                let p = Curve::<B2>::mul_generator(&k);
                k.zeroize();
                p
            })
            .collect();
        let mut aff = alloc::vec![AffinePoint::<B2>::IDENTITY; jac.len()];
        Jacobian::batch_to_affine(&jac, &mut aff);
        aff.iter().map(|p| encode_point(p, false)).collect()
    }
}

#[cfg(all(target_arch = "x86_64", any(feature = "asm", feature = "all-backends")))]
mod lanes {
    use alloc::vec::Vec;

    use sm_field::lanes::Ifma;
    use sm_field::{Backend, Fp, Sm2P};
    use subtle::ConditionallySelectable;
    use zeroize::Zeroize;

    use crate::batch::lanes::{add, dbl, neg_where, odd_digit, Fe, Jac, PTOP, PW};
    use crate::encryption::{shared_bytes, SharedPoint};
    use crate::{AffinePoint, Scalar};

    /// `(x, y)` of `d_i·P_i` for the pairs of `group` (two to eight; lanes beyond the group
    /// repeat its first pair; `P_i` of order n), in constant time in the scalars and the points
    /// (see the module docs). Bit `i` of the mask is set where lane `i` met an exceptional case
    /// of the addition formula (never, for points of order n): its result is then wrong and the
    /// caller recomputes it with the scalar code.
    #[inline(always)]
    pub(super) fn shared_x8<B: Backend>(
        t: Ifma,
        group: &[(&Scalar<B>, &AffinePoint<B>)],
    ) -> (Vec<SharedPoint>, u8) {
        let pair = |i: usize| group[if i < group.len() { i } else { 0 }];
        // k = d or n − d, whichever is odd; `negate` marks the lanes where k = n − d.
        let mut kl = [[0u64; 4]; 8];
        let mut negate = 0u8;
        for (i, l) in kl.iter_mut().enumerate() {
            let d = pair(i).0;
            let even = !d.is_odd();
            let mut k = Scalar::<B>::conditional_select(d, &-*d, even);
            *l = k.to_canonical_limbs();
            k.zeroize();
            negate |= even.unwrap_u8() << i;
        }
        let c1 = Jac {
            x: Fe::from_fp(t, &core::array::from_fn(|i| pair(i).1.x())),
            y: Fe::from_fp(t, &core::array::from_fn(|i| pair(i).1.y())),
            z: Fe::one(t),
        };
        // The table C1, 3·C1, …, 31·C1 per lane.
        let mut bad = 0u8;
        let c1x2 = dbl(t, &c1);
        let mut table = [[c1.x, c1.y, c1.z]; 16];
        let mut q = c1;
        for e in table.iter_mut().skip(1) {
            q = add(t, &q, &c1x2, &mut bad);
            *e = [q.x, q.y, q.z];
        }
        // The top digit is 1: start from C1.
        let mut acc = c1;
        for w in (1..PTOP).rev() {
            let (a, e) = window(t, &kl, &table, &acc, w);
            acc = add(t, &a, &e, &mut bad);
        }
        // The last window: where H = 0 the entry equals the accumulator (module docs), and the
        // sum is its doubling.
        let (a, e) = window(t, &kl, &table, &acc, 0);
        let mut same = 0u8;
        let sum = add(t, &a, &e, &mut same);
        let twice = dbl(t, &a);
        let acc = Jac {
            x: Fe::select(t, same, &sum.x, &twice.x),
            y: neg_where(t, negate, &Fe::select(t, same, &sum.y, &twice.y)),
            z: Fe::select(t, same, &sum.z, &twice.z),
        };
        kl.zeroize();
        // Affine: x = X/Z², y = Y/Z³.
        let mut x: [Fp<Sm2P, B>; 8] = acc.x.to_fp(t);
        let mut y: [Fp<Sm2P, B>; 8] = acc.y.to_fp(t);
        let mut z: [Fp<Sm2P, B>; 8] = acc.z.to_fp(t);
        let mut scratch = [Fp::ZERO; 8];
        Fp::batch_invert_with_scratch(&mut z, &mut scratch);
        let out = (0..group.len())
            .map(|i| {
                let z2 = z[i].square();
                shared_bytes(&(x[i] * z2), &(y[i] * z2 * z[i]))
            })
            .collect();
        for v in [&mut x, &mut y, &mut z, &mut scratch] {
            v.zeroize();
        }
        (out, bad)
    }

    /// Window `w` of [`shared_x8`]: five doublings of `acc`, and the table entry ±|d_w|·C1
    /// (read by a masked scan: the secret digits select no address).
    #[inline(always)]
    fn window(
        t: Ifma,
        kl: &[[u64; 4]; 8],
        table: &[[Fe; 3]; 16],
        acc: &Jac,
        w: usize,
    ) -> (Jac, Jac) {
        let mut acc = *acc;
        for _ in 0..PW {
            acc = dbl(t, &acc);
        }
        let mut idx = [0u64; 8];
        let mut neg = 0u8;
        for (i, l) in kl.iter().enumerate() {
            let (j, n) = odd_digit(l, PW, PTOP, w);
            idx[i] = j;
            neg |= n << i;
        }
        let [x, y, z] = Fe::select_scan(t, table, &idx);
        idx.zeroize();
        (
            acc,
            Jac {
                x,
                y: neg_where(t, neg, &y),
                z,
            },
        )
    }
}
