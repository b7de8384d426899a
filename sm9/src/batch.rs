//! Verification of many signatures at once (same or different master keys and signers).
//!
//! SM9 verification is hash-based (`h = H2(M ‖ w')`), so signatures cannot be merged into one
//! pairing equation; the batch instead shares work and cores:
//!
//! * per master key: the caller's [`PreparedSignMasterPublicKey`] (the lines of `Ppub-s`; with
//!   the lines of P2, every verification is one two-term Miller loop over precomputed lines and
//!   one final exponentiation, so the scalar path prepares no per-signer G2 point);
//! * per signer `(Ppub-s, ID)`: `h1 = H1(ID ‖ 0x01, n)`, computed once per batch and kept in a
//!   small bounded cache (FIFO) across batches by [`BatchVerifier`];
//! * on one core, where the CPU has AVX-512 IFMA (feature `asm`, x86_64): groups of eight
//!   signatures run their pairing products and final exponentiations in the eight lanes
//!   (`sm_pairing::lanes`), one signature per lane; the G1 points of each group are converted to
//!   affine with one shared inversion; a signer with two or more signatures in the full groups
//!   gets its `P = [h1]P2 + Ppub-s` prepared once per call, and its lanes compute
//!   `w' = e(S, P) · e([h]P1, Ppub-s)` without the variable-base `[h1]S`; a remainder of fewer
//!   than eight takes the scalar path.
//!   The verdicts are those of one-by-one [`verify`](crate::verify) (each lane's w' is the
//!   scalar value, byte for byte);
//! * with the `parallel` feature, the groups of eight are checked on all cores (`rayon`).

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use sm_field::{Backend, Job};

use crate::generic::{PreparedSignMasterPublicKey, Scalar};
use crate::groups::{g2_to_bytes, G2Prepared, G2_LEN};
use crate::hash::{h1_dispatched, HashToRange, H2_PREFIX};
use crate::keys::HID_SIGN;
use crate::sign::{verify_dispatched, Signature, H1};

/// Signatures per group in the lane path (one per IFMA lane).
const GROUP: usize = 8;

/// The lane path: the CPU's IFMA token, if it has one.
#[cfg(all(target_arch = "x86_64", any(feature = "asm", feature = "all-backends")))]
mod lanes {
    pub(super) use sm_field::lanes::Ifma;
    use sm_field::{Backend, Job};
    use sm_pairing::lanes::{final_exponentiation_lanes, multi_miller_loop_prepared_lanes};
    use sm_pairing::Gt;

    use super::{BatchItem, GROUP};
    use crate::generic::Scalar;
    use crate::groups::{
        mul_p1_vartime, mul_p2, with_p2_prepared, G1Affine, G1Jacobian, G2Affine, G2Prepared,
    };
    use crate::hash::{HashToRange, H2_PREFIX};
    use crate::sign::{verify_points, verify_tail};

    /// The token where the CPU has IFMA.
    pub(super) fn token() -> Option<Ifma> {
        Ifma::detect()
    }

    /// `[h1]P2 + Ppub-s` prepared: the signer's G2 point of `u = e(S, P)` (step B6). The point
    /// is one dispatched job, the lines another (`G2Prepared::new`).
    pub(super) fn prepare_signer<B: Backend>(
        _: Ifma,
        master: &crate::generic::PreparedSignMasterPublicKey<B>,
        h1: &Scalar<B>,
    ) -> G2Prepared<B> {
        struct SignerPoint<'a, B: Backend>(&'a Scalar<B>, &'a G2Affine<B>);
        impl<B: Backend> Job for SignerPoint<'_, B> {
            type Output = G2Affine<B>;
            fn run<B2: Backend>(self) -> G2Affine<B> {
                let ppub = self.1.to_backend::<B2>();
                let p = mul_p2(&self.0.to_backend::<B2>()).add_affine(&ppub);
                p.to_affine().to_backend()
            }
        }
        G2Prepared::new(&B::dispatch(SignerPoint(h1, &master.public.ppub)))
    }

    /// The G1 points of eight verifications, affine with one shared inversion, as one
    /// dispatched job: lane `i`'s `[h1]S` and `S + [h]P1` ([`verify_points`]), or `S` and
    /// `[h]P1` where the signer's point is prepared.
    struct G1Points<'a, 'b, B: Backend> {
        items: &'a [BatchItem<'b, B>; GROUP],
        h1: &'a [&'a Scalar<B>; GROUP],
        prepared: [bool; GROUP],
    }

    impl<B: Backend> Job for G1Points<'_, '_, B> {
        type Output = [G1Affine<B>; 2 * GROUP];
        fn run<B2: Backend>(self) -> Self::Output {
            let mut jac = [G1Jacobian::<B2>::default(); 2 * GROUP];
            for (i, it) in self.items.iter().enumerate() {
                let sig = it.signature.to_backend::<B2>();
                let pts = if self.prepared[i] {
                    [G1Jacobian::from(sig.s), mul_p1_vartime(&sig.h)]
                } else {
                    verify_points(&sig, &self.h1[i].to_backend())
                };
                jac[2 * i..2 * i + 2].copy_from_slice(&pts);
            }
            let mut aff = [G1Affine::IDENTITY; 2 * GROUP];
            G1Jacobian::batch_to_affine(&jac, &mut aff);
            aff.map(|p| p.to_backend())
        }
    }

    /// Eight verifications (steps B3–B9) with the pairing products in lanes. Lane `i` computes
    /// `w' = e([h1]S, P2) · e(S + [h]P1, Ppub-s)` as `VerifyJob`, or, where `q[i]` holds the
    /// signer's prepared `P = [h1]P2 + Ppub-s` ([`prepare_signer`]),
    /// `w' = e(S, P) · e([h]P1, Ppub-s)` (= u · g^h by bilinearity): no variable-base G1
    /// multiplication.
    pub(super) fn verify8<B: Backend>(
        t: Ifma,
        items: &[BatchItem<'_, B>; GROUP],
        h1: &[&Scalar<B>; GROUP],
        q: &[Option<&G2Prepared<B>>; GROUP],
    ) -> [bool; GROUP] {
        let aff = B::dispatch(G1Points {
            items,
            h1,
            prepared: q.map(|q| q.is_some()),
        });
        let w = with_p2_prepared::<B, _>(|p2| {
            let terms = [
                core::array::from_fn(|i| (aff[2 * i], q[i].unwrap_or(p2))),
                core::array::from_fn(|i| (aff[2 * i + 1], items[i].master.ppub_lines())),
            ];
            final_exponentiation_lanes(t, &multi_miller_loop_prepared_lanes(t, &terms))
        });
        B::dispatch(Tails { items, w: &w })
    }

    /// Steps B8–B9 of eight verifications, `h2 = H2(M ‖ w')` compared with `h`, as one
    /// dispatched job (the encoding of w' and the reduction of h2 are field arithmetic).
    struct Tails<'a, 'b, B: Backend> {
        items: &'a [BatchItem<'b, B>; GROUP],
        w: &'a [Gt<B>; GROUP],
    }

    impl<B: Backend> Job for Tails<'_, '_, B> {
        type Output = [bool; GROUP];
        fn run<B2: Backend>(self) -> [bool; GROUP] {
            core::array::from_fn(|i| {
                let it = &self.items[i];
                let sig = it.signature.to_backend::<B2>();
                let mut hash = HashToRange::new(H2_PREFIX);
                hash.update(it.message);
                verify_tail(hash, &self.w[i].to_backend::<B2>(), &sig).is_ok()
            })
        }
    }
}

/// A stand-in where there are no lanes: no token, so [`verify8`] is never reached.
#[cfg(not(all(target_arch = "x86_64", any(feature = "asm", feature = "all-backends"))))]
mod lanes {
    /// Never made.
    #[derive(Clone, Copy)]
    pub(super) enum Ifma {}

    pub(super) fn token() -> Option<Ifma> {
        None
    }

    pub(super) fn prepare_signer<B: sm_field::Backend>(
        t: Ifma,
        _: &crate::generic::PreparedSignMasterPublicKey<B>,
        _: &crate::generic::Scalar<B>,
    ) -> crate::groups::G2Prepared<B> {
        match t {}
    }

    pub(super) fn verify8<B: sm_field::Backend>(
        t: Ifma,
        _: &[super::BatchItem<'_, B>; super::GROUP],
        _: &[&crate::generic::Scalar<B>; super::GROUP],
        _: &[Option<&crate::groups::G2Prepared<B>>; super::GROUP],
    ) -> [bool; super::GROUP] {
        match t {}
    }
}

/// One signature to verify.
#[derive(Clone, Copy, Debug)]
pub struct BatchItem<'a, B: Backend> {
    /// The signer's master public key.
    pub master: &'a PreparedSignMasterPublicKey<B>,
    /// The signer's identity (hid = 0x01).
    pub id: &'a [u8],
    /// The signed message.
    pub message: &'a [u8],
    /// The signature.
    pub signature: &'a Signature<B>,
}

/// Which signatures of a batch are valid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchResult {
    valid: Vec<bool>,
}

impl BatchResult {
    /// Whether every signature verified.
    pub fn all_valid(&self) -> bool {
        self.valid.iter().all(|&v| v)
    }

    /// Whether signature `i` verified.
    pub fn is_valid(&self, i: usize) -> bool {
        self.valid.get(i).copied().unwrap_or(false)
    }

    /// Indices of the signatures that failed, ascending.
    pub fn failed(&self) -> Vec<usize> {
        self.valid
            .iter()
            .enumerate()
            .filter(|(_, &v)| !v)
            .map(|(i, _)| i)
            .collect()
    }

    /// One flag per input, in order.
    pub fn as_slice(&self) -> &[bool] {
        &self.valid
    }
}

type SignerKey = (Vec<u8>, Vec<u8>); // (Ppub-s encoding, ID)

/// A batch verifier with a bounded cache of per-signer values.
///
/// ```
/// let mut rng = rand_core::UnwrapErr(getrandom::SysRng); // the OS RNG
/// let kgc = shangmi_sm9::SignMasterKey::generate(&mut rng);
/// let master = kgc.public_key().prepare();
/// let alice = kgc.extract(b"Alice").unwrap();
/// let s1 = shangmi_sm9::sign(&alice, &master, b"one", &mut rng).unwrap();
/// let s2 = shangmi_sm9::sign(&alice, &master, b"two", &mut rng).unwrap();
/// let items = [
///     shangmi_sm9::BatchItem { master: &master, id: b"Alice", message: b"one", signature: &s1 },
///     shangmi_sm9::BatchItem { master: &master, id: b"Alice", message: b"one", signature: &s2 },
/// ];
/// let mut verifier = shangmi_sm9::BatchVerifier::new(16);
/// assert_eq!(verifier.verify(&items).failed(), vec![1]);
/// ```
#[derive(Clone, Debug)]
pub struct BatchVerifier<B: Backend> {
    capacity: usize,
    cache: Vec<(SignerKey, Scalar<B>)>,
}

impl<B: Backend> Default for BatchVerifier<B> {
    fn default() -> Self {
        Self::new(256)
    }
}

impl<B: Backend> BatchVerifier<B> {
    /// A verifier caching at most `capacity` signers.
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity,
            cache: Vec::new(),
        }
    }

    /// Verifies every item; the result says which failed.
    pub fn verify(&mut self, items: &[BatchItem<'_, B>]) -> BatchResult {
        // Distinct signers of this batch and each item's signer.
        let mut index: BTreeMap<SignerKey, usize> = BTreeMap::new();
        let mut signers: Vec<(SignerKey, Scalar<B>, bool)> = Vec::new(); // (key, h1, fresh)
        let mut item_signer = Vec::with_capacity(items.len());
        let mut first_item = Vec::new(); // per signer, its first item
        for (it, ppub) in items.iter().zip(master_encodings(items)) {
            let key = (ppub.to_vec(), it.id.to_vec());
            let next = signers.len();
            let s = *index.entry(key.clone()).or_insert(next);
            if s == next {
                first_item.push(item_signer.len());
                let cached = self.cache.iter().find(|(k, _)| *k == key).map(|(_, h)| *h);
                let fresh = cached.is_none();
                let h1 = cached.unwrap_or_else(|| h1_dispatched(it.id, HID_SIGN));
                signers.push((key, h1, fresh));
            }
            item_signer.push(s);
        }
        let token = lanes::token();
        // In lanes, a signer with at least two signatures in full groups gets its G2 point
        // `[h1]P2 + Ppub-s` prepared once (≈ one G2 multiplication and the lines), which saves
        // each of its signatures the variable-base multiplication `[h1]S`.
        let full = items.len() / GROUP * GROUP;
        let mut count = alloc::vec![0usize; signers.len()];
        for &s in &item_signer[..full] {
            count[s] += 1;
        }
        let prepared: Vec<Option<G2Prepared<B>>> = signers
            .iter()
            .zip(&count)
            .zip(&first_item)
            .map(|((signer, &c), &i)| {
                let t = token.filter(|_| c >= 2)?;
                Some(lanes::prepare_signer(t, items[i].master, &signer.1))
            })
            .collect();
        // One group: in lanes when it is full and the CPU has IFMA, else one by one.
        let check = |(group, idx): (&[BatchItem<'_, B>], &[usize])| -> Vec<bool> {
            if let (Some(t), Ok(g)) = (token, <&[BatchItem<'_, B>; GROUP]>::try_from(group)) {
                let h1 = core::array::from_fn(|i| &signers[idx[i]].1);
                let q = core::array::from_fn(|i| prepared[idx[i]].as_ref());
                return lanes::verify8(t, g, &h1, &q).to_vec();
            }
            group
                .iter()
                .zip(idx)
                .map(|(it, &s)| {
                    let mut hash = HashToRange::new(H2_PREFIX);
                    hash.update(it.message);
                    verify_dispatched(it.master, hash, it.signature, H1::Known(&signers[s].1))
                        .is_ok()
                })
                .collect()
        };
        #[cfg(feature = "parallel")]
        let valid: Vec<bool> = {
            use rayon::prelude::*;
            items
                .par_chunks(GROUP)
                .zip(item_signer.par_chunks(GROUP))
                .flat_map_iter(check)
                .collect()
        };
        #[cfg(not(feature = "parallel"))]
        let valid: Vec<bool> = items
            .chunks(GROUP)
            .zip(item_signer.chunks(GROUP))
            .flat_map(check)
            .collect();

        // Keep the newest signers, at most `capacity` (FIFO eviction).
        if self.capacity > 0 {
            for (key, h1, fresh) in signers {
                if fresh {
                    if self.cache.len() == self.capacity {
                        self.cache.remove(0);
                    }
                    self.cache.push((key, h1));
                }
            }
        }
        BatchResult { valid }
    }
}

/// The encoded master public key of every item, as one dispatched job (the encoding leaves
/// Montgomery form: products).
fn master_encodings<B: Backend>(items: &[BatchItem<'_, B>]) -> Vec<[u8; G2_LEN]> {
    struct Encode<'i, 'a, B: Backend>(&'i [BatchItem<'a, B>]);
    impl<B: Backend> Job for Encode<'_, '_, B> {
        type Output = Vec<[u8; G2_LEN]>;
        fn run<B2: Backend>(self) -> Self::Output {
            let enc =
                |it: &BatchItem<'_, B>| g2_to_bytes(&it.master.public.ppub.to_backend::<B2>());
            self.0.iter().map(enc).collect()
        }
    }
    B::dispatch(Encode(items))
}

/// Verifies a batch without keeping a cache across calls.
pub fn verify_batch<B: Backend>(items: &[BatchItem<'_, B>]) -> BatchResult {
    BatchVerifier::new(0).verify(items)
}
