//! Verification of many signatures at once (same or different master keys and signers).
//!
//! SM9 verification is hash-based (`h = H2(M ‖ u·g^h)`), so signatures cannot be merged into
//! one pairing equation; the batch instead shares work and cores:
//!
//! * per signer `(Ppub-s, ID)`: `P = [H1(ID ‖ 0x01)]P2 + Ppub-s` and its Miller-loop lines
//!   (`G2Prepared`), computed once per batch and kept in a small bounded cache (FIFO) across
//!   batches by [`BatchVerifier`];
//! * per master key: `g = e(P1, Ppub-s)` as a fixed-base table (the
//!   [`PreparedSignMasterPublicKey`] the caller passes);
//! * with the `parallel` feature, signers are prepared and signatures checked on all cores
//!   (`rayon`).

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use sm_pairing::G2Prepared;

use crate::groups::{g1_for_pairing, g2_for_pairing, mul_p2_vartime};
use crate::hash::{HashToRange, H2_PREFIX};
use crate::keys::HID_SIGN;
use crate::prepared::PreparedSignMasterPublicKey;
use crate::sign::{finish_verification, Signature};

/// One signature to verify.
#[derive(Clone, Copy, Debug)]
pub struct BatchItem<'a> {
    /// The signer's master public key.
    pub master: &'a PreparedSignMasterPublicKey,
    /// The signer's identity (hid = 0x01).
    pub id: &'a [u8],
    /// The signed message.
    pub message: &'a [u8],
    /// The signature.
    pub signature: &'a Signature,
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
        self.valid.iter().enumerate().filter(|(_, &v)| !v).map(|(i, _)| i).collect()
    }

    /// One flag per input, in order.
    pub fn as_slice(&self) -> &[bool] {
        &self.valid
    }
}

type SignerKey = (Vec<u8>, Vec<u8>); // (Ppub-s encoding, ID)
type Prepared = G2Prepared<sm_field::DefaultBackend>;

/// A batch verifier with a bounded cache of prepared signer points `[h1]P2 + Ppub-s`.
///
/// ```
/// # use rand_core::OsRng;
/// let kgc = sm9::SignMasterKey::generate(&mut OsRng);
/// let master = kgc.public_key().prepare();
/// let alice = kgc.extract(b"Alice").unwrap();
/// let s1 = sm9::sign(&alice, &master, b"one", &mut OsRng).unwrap();
/// let s2 = sm9::sign(&alice, &master, b"two", &mut OsRng).unwrap();
/// let items = [
///     sm9::BatchItem { master: &master, id: b"Alice", message: b"one", signature: &s1 },
///     sm9::BatchItem { master: &master, id: b"Alice", message: b"one", signature: &s2 },
/// ];
/// let mut verifier = sm9::BatchVerifier::new(16);
/// assert_eq!(verifier.verify(&items).failed(), vec![1]);
/// ```
pub struct BatchVerifier {
    capacity: usize,
    cache: Vec<(SignerKey, Prepared)>,
}

impl core::fmt::Debug for BatchVerifier {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("BatchVerifier")
            .field("capacity", &self.capacity)
            .field("cached", &self.cache.len())
            .finish()
    }
}

impl Default for BatchVerifier {
    fn default() -> Self {
        Self::new(64)
    }
}

fn prepare_signer(master: &PreparedSignMasterPublicKey, id: &[u8]) -> Prepared {
    let h1 = crate::h1(id, HID_SIGN);
    let p = mul_p2_vartime(&h1).add_affine_vartime(&master.public.ppub_s).to_affine();
    G2Prepared::new(&g2_for_pairing(&p))
}

fn verify_one(item: &BatchItem<'_>, prepared: &Prepared) -> bool {
    let u = sm_pairing::pairing_prepared(&g1_for_pairing(&item.signature.s), prepared);
    let mut hash = HashToRange::new(H2_PREFIX);
    hash.update(item.message);
    finish_verification(item.master, hash, item.signature, &u).is_ok()
}

impl BatchVerifier {
    /// A verifier caching at most `capacity` prepared signers (≈ 15 KB each).
    pub fn new(capacity: usize) -> Self {
        Self { capacity, cache: Vec::new() }
    }

    /// Verifies every item; the result says which failed.
    pub fn verify(&mut self, items: &[BatchItem<'_>]) -> BatchResult {
        // Distinct signers of this batch, and each item's signer index.
        let mut index: BTreeMap<SignerKey, usize> = BTreeMap::new();
        let mut signers: Vec<(SignerKey, usize)> = Vec::new(); // (key, first item)
        let mut item_signer = Vec::with_capacity(items.len());
        for (i, it) in items.iter().enumerate() {
            let key = (it.master.public.to_bytes().to_vec(), it.id.to_vec());
            let next = signers.len();
            let s = *index.entry(key.clone()).or_insert(next);
            if s == next {
                signers.push((key, i));
            }
            item_signer.push(s);
        }
        // Prepared points: from the cache or computed (in parallel with `parallel`).
        let cached: Vec<Option<usize>> = signers
            .iter()
            .map(|(k, _)| self.cache.iter().position(|(ck, _)| ck == k))
            .collect();
        let compute = |(s, c): (&(SignerKey, usize), &Option<usize>)| -> Option<Prepared> {
            match c {
                Some(_) => None,
                None => {
                    let it = &items[s.1];
                    Some(prepare_signer(it.master, it.id))
                }
            }
        };
        #[cfg(feature = "parallel")]
        let fresh: Vec<Option<Prepared>> = {
            use rayon::prelude::*;
            signers.par_iter().zip(cached.par_iter()).map(compute).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let fresh: Vec<Option<Prepared>> = signers.iter().zip(cached.iter()).map(compute).collect();

        let prepared: Vec<&Prepared> = fresh
            .iter()
            .zip(&cached)
            .filter_map(|(f, c)| f.as_ref().or_else(|| c.map(|c| &self.cache[c].1)))
            .collect();
        debug_assert_eq!(prepared.len(), signers.len());
        let check = |(it, &s): (&BatchItem<'_>, &usize)| verify_one(it, prepared[s]);
        #[cfg(feature = "parallel")]
        let valid: Vec<bool> = {
            use rayon::prelude::*;
            items.par_iter().zip(item_signer.par_iter()).map(check).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let valid: Vec<bool> = items.iter().zip(item_signer.iter()).map(check).collect();

        drop(prepared);
        // Keep the newest signers, at most `capacity` (FIFO eviction).
        if self.capacity > 0 {
            for ((key, _), p) in signers.into_iter().zip(fresh) {
                if let Some(p) = p {
                    if self.cache.len() == self.capacity {
                        self.cache.remove(0);
                    }
                    self.cache.push((key, p));
                }
            }
        }
        BatchResult { valid }
    }
}

/// Verifies a batch without keeping a cache across calls.
pub fn verify_batch(items: &[BatchItem<'_>]) -> BatchResult {
    BatchVerifier::new(0).verify(items)
}
