//! Verification and signing of many signatures at once (multi-buffer): on x86_64 CPUs with
//! AVX-512 IFMA, eight verifications (or eight `k·G` of signing) run side by side, one per
//! 64-bit lane of the vector registers (`sm_field::lanes`); elsewhere, one after the other with
//! [`VerifyingKey::verify`] and [`SigningKey::sign_with_rng`] (see [`sign_batch`]). Many
//! ciphertexts at once: [`decrypt_batch`] (eight secret `d·C1` in the lanes, constant time).
//!
//! Every item gets the verdict [`VerifyingKey::verify`] gives it: `e = SM3(Z_A ‖ M)` with the
//! `Z_A` of the item's key (its own distinguishing ID, see [`VerifyingKey::with_id`]), the checks
//! of GB/T 32918.2 §7.1 B1–B7. Only public data is processed (variable time).
//!
//! **Lane algorithm** (per group of eight items whose `t = r + s mod n` is nonzero):
//! `(x1, y1) = s·G + t·P` as two sums in Jacobian coordinates on `y² = x³ − 3x + b`:
//! * `s·G` from the fixed-base comb of the generator shared by all lanes
//!   ([`Sm2GeneratorTable::raw_rows`]: 43 rows of odd multiples `j·2^(6i)·G`), with the
//!   regular odd recoding of `s` or `n − s` (Joye–Tunstall, AFRICACRYPT 2009, §3; the
//!   construction of `Sm2GeneratorTable`): 43 mixed additions, each lane gathering its own
//!   entry; no doublings.
//! * `t·P` with a per-lane table of `P, 3P, …, 31P` and the regular odd recoding of `t` or
//!   `n − t` in 5-bit windows: 255 doublings and 51 additions. The table is built by co-Z
//!   arithmetic (Goundar–Rivain–Verneuil–Joye, CHES 2010, §3): one co-Z doubling of the affine
//!   `P` (1M + 5S) and fifteen co-Z additions of the running `2P` (5M + 2S each, instead of
//!   11M + 5S).
//!
//! Formulas (Bernstein–Lange, Explicit-Formulas Database, "Jacobian coordinates with a4 = −3"):
//! doubling `dbl-2001-b` (3M + 5S), addition `add-2007-bl` (11M + 5S), mixed addition
//! `madd-2007-bl` (7M + 4S). These formulas are incomplete: when the two inputs of an addition
//! are equal, opposite or one is the identity, `H = U2 − U1 = 0`. Each lane records whether any
//! of its additions met `H = 0`; such lanes (never an honestly made signature, except with
//! negligible probability, but an attacker can aim at them) are verified again by the scalar
//! code, so the verdict is always exact. The last step is the check of
//! [`VerifyingKey::verify_prehash`] without inversion: `X ≡ c·Z²` or `X ≡ (c + n)·Z²` (the latter
//! when `c + n < p`), `c = (r − e) mod n`.
//!
//! The last group of fewer than eight items, and items with `t = 0` (which B5 rejects), go
//! through the scalar verification.
//!
//! ```
//! use shangmi_sm2::{batch, SigningKey};
//! let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
//! let keys: Vec<SigningKey> = (0..10).map(|_| SigningKey::random(&mut rng)).collect();
//! let msgs: Vec<Vec<u8>> = (0..10u8).map(|i| vec![i; 20]).collect();
//! let sigs: Vec<_> = keys.iter().zip(&msgs).map(|(k, m)| k.sign_with_rng(&mut rng, m)).collect();
//! let mut items: Vec<_> = (0..10)
//!     .map(|i| (keys[i].verifying_key(), &msgs[i][..], &sigs[i]))
//!     .collect();
//! assert!(batch::verify_batch_all(&items).is_ok());
//! items[3].1 = b"another message";
//! let verdicts = batch::verify_batch(&items);
//! assert_eq!(verdicts.iter().filter(|&&ok| ok).count(), 9);
//! assert!(!verdicts[3]);
//! assert!(batch::verify_batch_all(&items).is_err());
//! ```

use alloc::vec;
use alloc::vec::Vec;

use rand_core::CryptoRng;
use sm_field::Backend;

use crate::signature::{Signature, SigningKey, VerifyingKey};
use crate::Error;

/// One verification request: the key (with its `Z_A`), the message, the signature.
pub type VerifyItem<'a, B> = (&'a VerifyingKey<B>, &'a [u8], &'a Signature);

/// The verdict of [`VerifyingKey::verify`] for every item, in order (`true` = valid).
pub fn verify_batch<B: Backend>(items: &[VerifyItem<'_, B>]) -> Vec<bool> {
    let digests = message_digests(items.iter().map(|(vk, msg, _)| (vk.za(), *msg)));
    let prehashed: Vec<(&VerifyingKey<B>, &[u8; 32], &Signature)> = items
        .iter()
        .zip(&digests)
        .map(|((vk, _, sig), e)| (*vk, e, *sig))
        .collect();
    verify_prehash_batch(&prehashed)
}

/// `e = SM3(Z_A ‖ M)` ([`message_digest`](crate::message_digest)) of every `(Z_A, M)`, hashed
/// side by side in the SM3 lanes ([`sm3::hash_many_prefixed`]: 16 per pass with AVX-512, 8
/// with AVX2).
fn message_digests<'a>(items: impl Iterator<Item = (&'a [u8; 32], &'a [u8])>) -> Vec<[u8; 32]> {
    let parts: Vec<(&[u8], &[u8])> = items.map(|(za, msg)| (&za[..], msg)).collect();
    let mut digests = vec![[0u8; 32]; parts.len()];
    sm3::hash_many_prefixed(&parts, &mut digests);
    digests
}

/// `Ok(())` if every item verifies, else [`Error::Verification`] (without saying which failed).
pub fn verify_batch_all<B: Backend>(items: &[VerifyItem<'_, B>]) -> Result<(), Error> {
    if verify_batch(items).iter().all(|&ok| ok) {
        Ok(())
    } else {
        Err(Error::Verification)
    }
}

/// As [`verify_batch`] for caller-computed digests `e = SM3(Z_A ‖ M)` (the verdicts of
/// [`VerifyingKey::verify_prehash`]).
pub fn verify_prehash_batch<B: Backend>(
    items: &[(&VerifyingKey<B>, &[u8; 32], &Signature)],
) -> Vec<bool> {
    let scalar = |(vk, e, sig): &(&VerifyingKey<B>, &[u8; 32], &Signature)| {
        vk.verify_prehash(e, sig).is_ok()
    };
    let report = lane_report(items).unwrap_or_else(|| vec![None; items.len()]);
    items
        .iter()
        .zip(report)
        .map(|(item, lane)| match lane {
            Some((ok, false)) => ok,
            _ => scalar(item),
        })
        .collect()
}

/// Signs every message with its key: the signatures [`SigningKey::sign_with_rng`] would make,
/// called once per item in order with the same `rng`.
///
/// The nonces are drawn from `rng` in item order exactly as that loop draws them, so the
/// signatures are identical to the loop's. Only in the negligible cases where the scalar signer
/// would draw again (`r = 0`, `r + k = n` or `s = 0`) is that item's new nonce drawn after the
/// whole batch. Constant time in the secret keys and nonces: on CPUs with AVX-512 IFMA, groups of
/// eight compute `k·G` in the lanes with every comb row read in full (no secret-dependent branch
/// or memory index); the last partial group, and CPUs without IFMA, use the scalar signer.
///
/// ```
/// use shangmi_sm2::{batch, SigningKey};
/// let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
/// let keys: Vec<SigningKey> = (0..9).map(|_| SigningKey::random(&mut rng)).collect();
/// let items: Vec<(&SigningKey, &[u8])> = keys.iter().map(|k| (k, &b"message"[..])).collect();
/// let sigs = batch::sign_batch(&items, &mut rng);
/// for (k, s) in keys.iter().zip(&sigs) {
///     assert!(k.verifying_key().verify(b"message", s).is_ok());
/// }
/// ```
pub fn sign_batch<B: Backend>(
    items: &[(&SigningKey<B>, &[u8])],
    rng: &mut impl CryptoRng,
) -> Vec<Signature> {
    #[cfg(all(target_arch = "x86_64", any(feature = "asm", feature = "all-backends")))]
    if let Some(t) = sm_field::lanes::Ifma::detect() {
        let full = items.len() / 8 * 8;
        let mut out = B::dispatch(lanes::SignLanes {
            t,
            items: &items[..full],
            rng: &mut *rng,
        });
        for (key, msg) in &items[full..] {
            out.push(Some(key.sign_with_rng(rng, msg)));
        }
        return out
            .into_iter()
            .zip(items)
            .map(|(sig, (key, msg))| sig.unwrap_or_else(|| key.sign_with_rng(rng, msg)))
            .collect();
    }
    items
        .iter()
        .map(|(key, msg)| key.sign_with_rng(rng, msg))
        .collect()
}

/// Diagnostics for tests: `None` without the lane code (no AVX-512 IFMA); otherwise per item
/// `Some((verified, exceptional))` if a lane decided it (`exceptional`: the lane met a case of
/// the incomplete formulas and [`verify_prehash_batch`] asks the scalar code instead), `None`
/// if the scalar code did (`t = 0`, or the last partial group).
#[doc(hidden)]
pub fn lane_report<B: Backend>(
    items: &[(&VerifyingKey<B>, &[u8; 32], &Signature)],
) -> Option<Vec<Option<(bool, bool)>>> {
    #[cfg(all(target_arch = "x86_64", any(feature = "asm", feature = "all-backends")))]
    if let Some(t) = sm_field::lanes::Ifma::detect() {
        return Some(B::dispatch(lanes::LaneReport { t, items }));
    }
    let _ = items;
    None
}

#[cfg(all(target_arch = "x86_64", any(feature = "asm", feature = "all-backends")))]
pub(crate) mod lanes {
    use alloc::vec;
    use alloc::vec::Vec;

    use sm_curve::Sm2GeneratorTable;
    use sm_field::lanes::{Ifma, Lanes8, Wide8};
    use sm_field::{Backend, Fp, Job, Modulus, Sm2N, Sm2P};

    use rand_core::CryptoRng;

    use super::message_digests;
    use crate::signature::{below_p_minus_n, Signature, SigningKey, VerifyingKey};
    use crate::{AffinePoint, Scalar};

    pub(crate) type Fe = Lanes8<Sm2P>;
    type Wide = Wide8<Sm2P>;

    /// A point in Jacobian coordinates, eight lanes.
    #[derive(Clone, Copy)]
    pub(crate) struct Jac {
        pub(crate) x: Fe,
        pub(crate) y: Fe,
        pub(crate) z: Fe,
    }

    /// Doubling `dbl-2001-b` (a = −3): 3M + 5S, the sums, differences and small multiples
    /// between products as six [`Fe::combine`]s (one fold each), and `y3`'s two products
    /// reduced together ([`Wide::combine`]).
    #[inline(always)]
    pub(crate) fn dbl(t: Ifma, p: &Jac) -> Jac {
        let delta = p.z.square(t);
        let gamma = p.y.square(t);
        let beta = p.x.mul(t, &gamma);
        // α = 3(x − δ)(x + δ)
        let alpha =
            Fe::combine::<1, -1>(t, &p.x, &delta).mul(t, &Fe::combine::<3, 3>(t, &p.x, &delta));
        let x3 = Fe::combine::<1, -8>(t, &alpha.square(t), &beta);
        let z3 = Fe::combine3::<1, -1, -1>(t, &p.y.add(t, &p.z).square(t), &gamma, &delta);
        // y3 = α(4β − x3) − 8γ², the two products reduced together.
        let y3 = Wide::combine::<1, -8>(
            t,
            &alpha.mul_wide(t, &Fe::combine::<4, -1>(t, &beta, &x3)),
            &gamma.square_wide(t),
        );
        Jac {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    /// Addition `add-2007-bl`: 11M + 5S; sets the bits of `bad` where `H = 0`.
    #[inline(always)]
    pub(crate) fn add(t: Ifma, p: &Jac, q: &Jac, bad: &mut u8) -> Jac {
        let z1z1 = p.z.square(t);
        let z2z2 = q.z.square(t);
        let u1 = p.x.mul(t, &z2z2);
        let u2 = q.x.mul(t, &z1z1);
        let s1 = p.y.mul(t, &q.z).mul(t, &z2z2);
        let s2 = q.y.mul(t, &p.z).mul(t, &z1z1);
        let h = u2.sub(t, &u1);
        *bad |= h.is_zero(t);
        let i = h.double(t).square(t);
        let j = h.mul(t, &i);
        let r = Fe::combine::<2, -2>(t, &s2, &s1);
        let v = u1.mul(t, &i);
        let x3 = Fe::combine3::<1, -1, -2>(t, &r.square(t), &j, &v);
        let y3 = Wide::combine::<1, -2>(t, &r.mul_wide(t, &v.sub(t, &x3)), &s1.mul_wide(t, &j));
        let zz = p.z.add(t, &q.z).square(t);
        let z3 = Fe::combine3::<1, -1, -1>(t, &zz, &z1z1, &z2z2).mul(t, &h);
        Jac {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    /// Mixed addition `madd-2007-bl` with an affine `(x2, y2)`: 7M + 4S; sets the bits of `bad`
    /// where `H = 0`.
    #[inline(always)]
    fn madd(t: Ifma, p: &Jac, x2: &Fe, y2: &Fe, bad: &mut u8) -> Jac {
        let z1z1 = p.z.square(t);
        let u2 = x2.mul(t, &z1z1);
        let s2 = y2.mul(t, &p.z).mul(t, &z1z1);
        let h = u2.sub(t, &p.x);
        *bad |= h.is_zero(t);
        let hh = h.square(t);
        let i = hh.mul_small::<4>(t);
        let j = h.mul(t, &i);
        let r = Fe::combine::<2, -2>(t, &s2, &p.y);
        let v = p.x.mul(t, &i);
        let x3 = Fe::combine3::<1, -1, -2>(t, &r.square(t), &j, &v);
        let y3 = Fe::combine::<1, -2>(t, &r.mul(t, &v.sub(t, &x3)), &p.y.mul(t, &j));
        let z3 = Fe::combine3::<1, -1, -1>(t, &p.z.add(t, &h).square(t), &z1z1, &hh);
        Jac {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    /// Co-Z doubling with update ("DBLU", Goundar–Rivain–Verneuil–Joye, CHES 2010, §3, with
    /// a = −3) of an affine `P = (x, y)`: `2P` and `P`, both with the Z of `2P` (`2y`): 1M + 5S.
    #[inline(always)]
    fn dblu(t: Ifma, x: &Fe, y: &Fe) -> (Jac, Jac) {
        let b = x.square(t);
        let e = y.square(t);
        let l = e.square(t);
        // S = 4xy², M = 3x² + a with a = −3.
        let s = Fe::combine3::<2, -2, -2>(t, &x.add(t, &e).square(t), &b, &l);
        let m = Fe::combine::<3, -3>(t, &b, &Fe::one(t));
        let l8 = l.mul_small::<8>(t);
        let x2 = Fe::combine::<1, -2>(t, &m.square(t), &s);
        let y2 = m.mul(t, &s.sub(t, &x2)).sub(t, &l8);
        let z = y.double(t);
        (Jac { x: x2, y: y2, z }, Jac { x: s, y: l8, z })
    }

    /// Co-Z addition with update ("XYCZ-ADD", Goundar–Rivain–Verneuil–Joye, CHES 2010, §3;
    /// Meloni 2007) of `p` and `q` with the same Z: `p + q`, and `p` with the Z of the sum:
    /// 5M + 2S. Sets the bits of `bad` where `x_p = x_q`.
    #[inline(always)]
    fn zaddu(t: Ifma, p: &Jac, q: &Jac, bad: &mut u8) -> (Jac, Jac) {
        let dx = p.x.sub(t, &q.x);
        *bad |= dx.is_zero(t);
        let c = dx.square(t);
        let w1 = p.x.mul(t, &c);
        let w2 = q.x.mul(t, &c);
        let dy = p.y.sub(t, &q.y);
        let a1 = p.y.mul(t, &w1.sub(t, &w2));
        let x3 = Fe::combine3::<1, -1, -1>(t, &dy.square(t), &w1, &w2);
        let y3 = dy.mul(t, &w1.sub(t, &x3)).sub(t, &a1);
        let z3 = p.z.mul(t, &dx);
        (
            Jac {
                x: x3,
                y: y3,
                z: z3,
            },
            Jac {
                x: w1,
                y: a1,
                z: z3,
            },
        )
    }

    /// `count ≤ 57` bits of `k` from bit `start` (bits above 255 read as zero).
    fn bits(k: &[u64; 4], start: usize, count: u32) -> u64 {
        let (limb, shift) = (start / 64, start % 64);
        let lo = if limb < 4 { k[limb] >> shift } else { 0 };
        let hi = if shift != 0 && limb + 1 < 4 {
            k[limb + 1] << (64 - shift)
        } else {
            0
        };
        (lo | hi) & ((1u64 << count) - 1)
    }

    /// Digit `i` of the regular odd recoding of an odd `k` in windows of `w` bits with `top`
    /// digits below the top one: `d_i = (⌊k/2^(wi)⌋ mod 2^(w+1) | 1) − 2^w` for `i < top`, and
    /// `d_top = ⌊k/2^(w·top)⌋ | 1`; then `k = Σ d_i·2^(wi)` and every digit is odd. Returns
    /// `((|d| − 1)/2, 1 if d < 0 else 0)` by arithmetic only (no branch on `k`: also for secret
    /// scalars).
    pub(crate) fn odd_digit(k: &[u64; 4], w: u32, top: usize, i: usize) -> (u64, u8) {
        let d = if i == top {
            (bits(k, w as usize * i, 256 - w * top as u32) | 1) as i64
        } else {
            (bits(k, w as usize * i, w + 1) | 1) as i64 - (1 << w)
        };
        let neg = (d >> 63) as u64; // all ones when negative
        let abs = ((d as u64) ^ neg).wrapping_sub(neg);
        ((abs - 1) >> 1, (neg & 1) as u8)
    }

    /// `k` or `n − k`, whichever is odd (k ≠ 0), and whether it was negated.
    fn odd_limbs<B: Backend>(k: &Scalar<B>) -> ([u64; 4], bool) {
        let even = !bool::from(k.is_odd());
        let k = if even { -*k } else { *k };
        (k.to_canonical_limbs(), even)
    }

    /// Bit mask of the lanes where `f` holds.
    fn mask(f: impl Fn(usize) -> bool) -> u8 {
        (0..8).fold(0, |m, i| m | (f(i) as u8) << i)
    }

    /// `y` negated in the lanes of `neg`.
    #[inline(always)]
    pub(crate) fn neg_where(t: Ifma, neg: u8, y: &Fe) -> Fe {
        Fe::select(t, neg, y, &y.neg(t))
    }

    /// One item ready for the lanes: the item's position and its values.
    struct Lane<B: Backend> {
        index: usize,
        px: Fp<Sm2P, B>,
        py: Fp<Sm2P, B>,
        s: Scalar<B>,
        t: Scalar<B>,
        /// c = (r − e) mod n as a field element, and c + n (meaningful where `cn_ok`).
        c: Fp<Sm2P, B>,
        cn: Fp<Sm2P, B>,
        cn_ok: bool,
    }

    impl<B: Backend> Lane<B> {
        /// `None` when the scalar check B5 (`t ≠ 0`) already rejects.
        fn new(index: usize, p: &AffinePoint<B>, e: &[u8; 32], sig: &Signature) -> Option<Self> {
            // B1–B2 hold by construction of `Signature`: these never fail.
            let r: Scalar<B> = Option::from(Fp::from_bytes(sig.r()))?;
            let s: Scalar<B> = Option::from(Fp::from_bytes(sig.s()))?;
            let e = Scalar::<B>::from_bytes_reduced(e);
            let t = r + s;
            if bool::from(t.is_zero()) {
                return None;
            }
            let c_bytes = (r - e).to_bytes();
            // c < n < p
            let c: Fp<Sm2P, B> = Option::from(Fp::from_bytes(&c_bytes))?;
            let n = Fp::<Sm2P, B>::from_canonical_limbs_const(Sm2N::P);
            Some(Self {
                index,
                px: p.x(),
                py: p.y(),
                s,
                t,
                c,
                cn: c + n,
                cn_ok: below_p_minus_n(&c_bytes),
            })
        }
    }

    /// Windows of the `t·P` side: 5 bits, 51 regular digits below the top one (bit 255).
    pub(crate) const PW: u32 = 5;
    pub(crate) const PTOP: usize = 51;
    /// The comb rows of the generator: 6-bit windows, 42 regular digits below the top one.
    const GW: u32 = 6;
    const GTOP: usize = 42;

    /// Lane i's entry of comb row `row` for the public scalar `sk[i]` (gathered from the
    /// flattened rows): `(x, y)`, `y` negated for negative digits.
    #[inline(always)]
    fn g_entry(t: Ifma, flat: &[[u64; 8]], sk: &[([u64; 4], bool); 8], row: usize) -> (Fe, Fe) {
        let d: [(u64, u8); 8] = core::array::from_fn(|i| odd_digit(&sk[i].0, GW, GTOP, row));
        let idx = d.map(|(j, _)| row * 32 + j as usize);
        let x = Fe::gather_mont(t, flat, &idx, 0);
        let y = neg_where(t, mask(|i| d[i].1 == 1), &Fe::gather_mont(t, flat, &idx, 4));
        (x, y)
    }

    /// Lane i's entry of comb row `row` for the secret scalar limbs `kl[i]`, read in constant
    /// time ([`Lanes8::select_affine`]): `(x, y)`, `y` negated for negative digits.
    #[inline(always)]
    fn k_entry(t: Ifma, row: &[[u64; 8]], kl: &[[u64; 4]; 8], r: usize) -> (Fe, Fe) {
        use zeroize::Zeroize;
        let mut idx = [0u64; 8];
        let mut neg = 0u8;
        for (i, l) in kl.iter().enumerate() {
            let (a, n) = odd_digit(l, GW, GTOP, r);
            idx[i] = a;
            neg |= n << i;
        }
        let (x, y) = Fe::select_affine(t, row, &idx);
        idx.zeroize();
        (x, neg_where(t, neg, &y))
    }

    /// Verdicts of eight lanes: bit `i` of the first mask says lane `i` verified; lanes with bit
    /// `i` of the second mask met an exceptional case and must be verified by the scalar code.
    fn verify8<B: Backend>(t: Ifma, lanes: &[Lane<B>; 8]) -> (u8, u8) {
        t.run(
            #[inline(always)]
            |t| verify8_in(t, lanes),
        )
    }

    /// The body of [`verify8`], inlined into [`Ifma::run`].
    #[inline(always)]
    fn verify8_in<B: Backend>(t: Ifma, lanes: &[Lane<B>; 8]) -> (u8, u8) {
        let mut bad = 0u8;
        let one = Fe::one(t);

        // t·P: the table P, 3P, …, 31P per lane, by co-Z additions (the Z of each entry is the
        // Z of 2P at the time: 1M + 5S, then 5M + 2S per entry instead of 11M + 5S). P has
        // prime order n > 33, so no addition meets equal x (`bad` records it all the same).
        let p = Jac {
            x: Fe::from_fp(t, &core::array::from_fn(|i| lanes[i].px)),
            y: Fe::from_fp(t, &core::array::from_fn(|i| lanes[i].py)),
            z: one,
        };
        let (mut p2, p1) = dblu(t, &p.x, &p.y);
        let mut tab = [p1; 16];
        for m in 1..16 {
            (tab[m], p2) = zaddu(t, &p2, &tab[m - 1], &mut bad);
        }
        let (tx, ty, tz): (Vec<Fe>, Vec<Fe>, Vec<Fe>) = (
            tab.iter().map(|q| q.x).collect(),
            tab.iter().map(|q| q.y).collect(),
            tab.iter().map(|q| q.z).collect(),
        );
        let tk: [([u64; 4], bool); 8] = core::array::from_fn(|i| odd_limbs(&lanes[i].t));
        // The top digit is 1: start from P.
        debug_assert!(tk
            .iter()
            .all(|(k, _)| odd_digit(k, PW, PTOP, PTOP) == (0, 0)));
        let mut acc = p;
        for w in (0..PTOP).rev() {
            for _ in 0..PW {
                acc = dbl(t, &acc);
            }
            let d: [(u64, u8); 8] = core::array::from_fn(|i| odd_digit(&tk[i].0, PW, PTOP, w));
            let idx = d.map(|(j, _)| j as usize);
            let q = Jac {
                x: Fe::gather(t, &tx, &idx),
                y: neg_where(t, mask(|i| d[i].1 == 1), &Fe::gather(t, &ty, &idx)),
                z: Fe::gather(t, &tz, &idx),
            };
            acc = add(t, &acc, &q, &mut bad);
        }
        let tp = Jac {
            y: neg_where(t, mask(|i| tk[i].1), &acc.y),
            ..acc
        };

        // s·G from the comb rows.
        let rows = Sm2GeneratorTable.raw_rows();
        debug_assert_eq!(rows.len(), GTOP + 1);
        let flat = rows.as_flattened();
        let sk: [([u64; 4], bool); 8] = core::array::from_fn(|i| odd_limbs(&lanes[i].s));
        let (x, y) = g_entry(t, flat, &sk, 0);
        let mut gacc = Jac { x, y, z: one };
        for row in 1..rows.len() {
            let (x, y) = g_entry(t, flat, &sk, row);
            gacc = madd(t, &gacc, &x, &y, &mut bad);
        }
        let sg = Jac {
            y: neg_where(t, mask(|i| sk[i].1), &gacc.y),
            ..gacc
        };

        // B6–B7: (x1, y1) = s·G + t·P; accept iff X ≡ c·Z² or X ≡ (c + n)·Z² (c + n < p).
        let sum = add(t, &sg, &tp, &mut bad);
        let z2 = sum.z.square(t);
        let c = Fe::from_fp(t, &core::array::from_fn(|i| lanes[i].c));
        let cn = Fe::from_fp(t, &core::array::from_fn(|i| lanes[i].cn));
        let ok =
            sum.x.eq(t, &c.mul(t, &z2)) | (sum.x.eq(t, &cn.mul(t, &z2)) & mask(|i| lanes[i].cn_ok));
        (ok & !bad, bad)
    }

    /// Full groups of eight signatures as one dispatched job: the nonces drawn in item order,
    /// `k·G` in the lanes, steps A5–A6 per item (`None` where the signer must draw again).
    pub(crate) struct SignLanes<'a, 'b, B: Backend, R> {
        pub(crate) t: Ifma,
        pub(crate) items: &'a [(&'b SigningKey<B>, &'b [u8])],
        pub(crate) rng: &'a mut R,
    }

    impl<B: Backend, R: CryptoRng> Job for SignLanes<'_, '_, B, R> {
        type Output = Vec<Option<Signature>>;
        fn run<B2: Backend>(self) -> Self::Output {
            use zeroize::Zeroize;
            let mut ks: Vec<Scalar<B2>> = (0..self.items.len())
                .map(|_| loop {
                    let k = Scalar::<B2>::random(self.rng);
                    if !bool::from(k.is_zero()) {
                        break k;
                    }
                })
                .collect();
            let digests = message_digests(self.items.iter().map(|(key, msg)| (key.za(), *msg)));
            let mut out = Vec::with_capacity(self.items.len());
            for ((group, kg), eg) in self
                .items
                .chunks_exact(8)
                .zip(ks.chunks_exact(8))
                .zip(digests.chunks_exact(8))
            {
                let (x1, bad) = mul_generator_x8(self.t, kg);
                for (i, (key, _)) in group.iter().enumerate() {
                    let e = Scalar::<B2>::from_bytes_reduced(&eg[i]);
                    let x1 = (bad >> i & 1 == 0).then_some(&x1[i]);
                    out.push(key.finish_on(&e, &kg[i], x1));
                }
            }
            ks.zeroize();
            out
        }
    }

    /// `x1` of `k_i·G` for eight secret nonces, in constant time: the regular odd recoding of
    /// `k` or `n − k` (the sign does not change `x1`), every comb row read in full by
    /// [`Lanes8::select_affine`], signs applied by mask blends, 42 mixed additions, and one
    /// inversion of the eight `Z` together (Montgomery's trick around the constant-time
    /// safegcd inversion). Bit `i` of the mask is set where lane `i` met `H = 0` (possible only
    /// in the top row, for a negligible set of nonces): its `x1` is then wrong and the caller
    /// recomputes that lane with the scalar code. (The lane values on the stack are not
    /// zeroized; the scalar limbs and digits are.)
    pub(super) fn mul_generator_x8<B: Backend>(
        t: Ifma,
        ks: &[Scalar<B>],
    ) -> ([Fp<Sm2P, B>; 8], u8) {
        use subtle::ConditionallySelectable;
        use zeroize::Zeroize;
        let mut kl = [[0u64; 4]; 8];
        for (l, k) in kl.iter_mut().zip(ks) {
            let even = !k.is_odd();
            let mut kk = Scalar::<B>::conditional_select(k, &-*k, even);
            *l = kk.to_canonical_limbs();
            kk.zeroize();
        }
        let rows = Sm2GeneratorTable.raw_rows();
        // (The conversions out of the lanes inside `run` too: outside it their intrinsics
        // would be calls.)
        let (x, mut z, bad) = t.run(
            #[inline(always)]
            |t| {
                let mut bad = 0u8;
                let (x, y) = k_entry(t, &rows[0], &kl, 0);
                let mut acc = Jac {
                    x,
                    y,
                    z: Fe::one(t),
                };
                for (r, row) in rows.iter().enumerate().skip(1) {
                    let (x, y) = k_entry(t, row, &kl, r);
                    acc = madd(t, &acc, &x, &y, &mut bad);
                }
                let (x, z): ([Fp<Sm2P, B>; 8], _) = (acc.x.to_fp(t), acc.z.to_fp(t));
                (x, z, bad)
            },
        );
        kl.zeroize();
        let mut scratch = [Fp::ZERO; 8];
        Fp::batch_invert_with_scratch(&mut z, &mut scratch);
        (core::array::from_fn(|i| x[i] * z[i].square()), bad)
    }

    /// Per item: `Some((verified, exceptional))` for the items of full groups of eight that went
    /// through the lanes (`exceptional`: the lane met `H = 0` and its `verified` is `false`), `None`
    /// for the others (rejected by B5, or in the last partial group).
    /// A dispatched job: the lanes' set-up and their group checks on the pure backend.
    pub(crate) struct LaneReport<'a, 'b, B: Backend> {
        pub(crate) t: Ifma,
        pub(crate) items: &'a [(&'b VerifyingKey<B>, &'b [u8; 32], &'b Signature)],
    }

    impl<B: Backend> Job for LaneReport<'_, '_, B> {
        type Output = Vec<Option<(bool, bool)>>;
        fn run<B2: Backend>(self) -> Self::Output {
            let mut out = vec![None; self.items.len()];
            let ready: Vec<Lane<B2>> = self
                .items
                .iter()
                .enumerate()
                .filter_map(|(i, (vk, e, sig))| {
                    Lane::new(i, &vk.public_key().as_affine().to_backend(), e, sig)
                })
                .collect();
            for g in ready.chunks_exact(8) {
                let g: &[Lane<B2>; 8] = g.try_into().expect("8 lanes");
                let (ok, bad) = verify8(self.t, g);
                for (i, lane) in g.iter().enumerate() {
                    out[lane.index] = Some((ok >> i & 1 == 1, bad >> i & 1 == 1));
                }
            }
            out
        }
    }
}

pub use crate::batch_encryption::{
    decrypt_batch, decrypt_batch_report, encrypt_batch, DecryptItem, EncryptItem, Format,
};
