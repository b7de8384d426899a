//! A prepared signing key: the user key `ds` with a fixed-base comb table of `ds`, so that
//! step A6 `S = [l]ds` costs 43 mixed additions instead of a variable-base ladder.
//!
//! The table is derived from the secret `ds`: lookups read every entry of a row
//! (constant time), it is owned by the key object (never cached globally) and zeroized on drop.

use alloc::vec::Vec;

use sm_curve::sm9::Sm9G1Curve;
use sm_curve::{CombTable, COMB_ENTRIES, COMB_WINDOW, COMB_WINDOWS};
use subtle::{ConditionallySelectable, ConstantTimeEq};
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::groups::{G1Affine, G1Jacobian};
use crate::keys::SignUserKey;

/// Comb table of a secret G1 point (same layout as `sm_curve::PrecomputedTable`: row `w` holds
/// `j · 2^(6w) · ds` for `j = 1..=32`).
struct SecretComb {
    rows: Vec<[G1Affine; COMB_ENTRIES]>,
}

impl SecretComb {
    fn new(base: &G1Affine) -> Self {
        let mut pts: Vec<G1Jacobian> = Vec::with_capacity(COMB_WINDOWS * COMB_ENTRIES);
        let mut row_base = base.to_jacobian();
        for _ in 0..COMB_WINDOWS {
            let mut acc = row_base;
            pts.push(acc);
            for _ in 1..COMB_ENTRIES {
                acc = acc.add(&row_base);
                pts.push(acc);
            }
            for _ in 0..COMB_WINDOW {
                row_base = row_base.double();
            }
        }
        let mut aff = alloc::vec![G1Affine::IDENTITY; pts.len()];
        G1Jacobian::batch_to_affine(&pts, &mut aff);
        pts.zeroize();
        row_base.zeroize();
        let rows = aff
            .chunks_exact(COMB_ENTRIES)
            .map(|c| {
                let mut row = [G1Affine::IDENTITY; COMB_ENTRIES];
                row.copy_from_slice(c);
                row
            })
            .collect();
        aff.zeroize();
        Self { rows }
    }
}

impl CombTable<Sm9G1Curve> for SecretComb {
    fn select(&self, window: usize, abs: u8) -> G1Affine {
        let mut r = G1Affine::IDENTITY;
        for (j, e) in self.rows[window].iter().enumerate() {
            r.conditional_assign(e, abs.ct_eq(&(j as u8 + 1)));
        }
        r
    }

    fn get_vartime(&self, window: usize, abs: u8) -> G1Affine {
        // Never used for the secret table (only `mul`, which calls `select`); kept constant
        // time anyway.
        self.select(window, abs)
    }
}

impl Drop for SecretComb {
    fn drop(&mut self) {
        for row in self.rows.iter_mut() {
            row.zeroize();
        }
    }
}

/// A [`SignUserKey`] with a comb table of `ds` for faster signing. Zeroized on drop.
pub struct SigningKey {
    pub(crate) key: SignUserKey,
    table: SecretComb,
}

impl ZeroizeOnDrop for SigningKey {}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SigningKey").finish_non_exhaustive()
    }
}

impl SigningKey {
    /// Precomputes the comb table of `ds` (≈ 1,400 point additions, 88 KB).
    pub fn new(key: &SignUserKey) -> Self {
        Self {
            key: key.clone(),
            table: SecretComb::new(&key.ds),
        }
    }

    /// The user key.
    pub fn user_key(&self) -> &SignUserKey {
        &self.key
    }

    /// `[l]ds` in constant time.
    pub(crate) fn mul_ds(&self, l: &crate::Scalar) -> G1Jacobian {
        self.table.mul(l)
    }
}

impl SignUserKey {
    /// Precomputes a comb table of `ds` for faster signing.
    pub fn prepare(&self) -> SigningKey {
        SigningKey::new(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::SeedableRng;

    #[test]
    fn comb_matches_ladder_and_signs() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        let kgc = crate::SignMasterKey::generate(&mut rng);
        let master = kgc.public_key().prepare();
        let key = kgc.extract(b"Alice").unwrap();
        let sk = key.prepare();
        let n_minus_1 = -crate::Scalar::ONE;
        for l in [crate::Scalar::ONE, n_minus_1, crate::Scalar::from_u64(2)]
            .into_iter()
            .chain((0..8).map(|_| crate::Scalar::random(&mut rng)))
        {
            assert_eq!(sk.mul_ds(&l), G1Jacobian::from(key.ds).mul(&l));
        }
        let sig = crate::sign_prepared(&sk, &master, b"msg", &mut rng).unwrap();
        crate::verify(&master, b"Alice", b"msg", &sig).unwrap();
        // Same nonce, same signature as the plain key.
        let r = crate::Scalar::random(&mut rng);
        let mut a = crate::Signer::new(&key, &master).unwrap();
        a.update(b"msg");
        let mut b = crate::Signer::with_prepared(&sk, &master).unwrap();
        b.update(b"msg");
        assert_eq!(a.sign_with_nonce_scalar(&r), b.sign_with_nonce_scalar(&r));
    }
}
