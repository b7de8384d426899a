//! A prepared signing key: the user key `ds` with a fixed-base comb table of `ds`, so that
//! step A6 `S = [l]ds` costs 43 mixed additions instead of a variable-base ladder.
//!
//! The table is sm-curve's [`SecretPrecomputedTable`] of the secret `ds`: lookups read every
//! entry of a row (constant time), it is owned by the key object (never cached globally) and
//! zeroized on drop.

use sm_curve::sm9::Sm9G1Curve;
use sm_curve::{CombTable, SecretPrecomputedTable};
use sm_field::{Backend, Job};
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::generic::{Scalar, SignUserKey};
use crate::groups::{G1Affine, G1Jacobian};

/// A [`SignUserKey`] with a comb table of `ds` for faster signing. Zeroized on drop.
pub struct SigningKey<B: Backend> {
    pub(crate) key: SignUserKey<B>,
    table: SecretPrecomputedTable<Sm9G1Curve<B>>,
}

impl<B: Backend> ZeroizeOnDrop for SigningKey<B> {}

impl<B: Backend> core::fmt::Debug for SigningKey<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SigningKey").finish_non_exhaustive()
    }
}

impl<B: Backend> SigningKey<B> {
    /// Precomputes the comb table of `ds` (≈ 1,400 point additions, 88 KB), as one dispatched
    /// job (the table built on the running backend is copied to `B` and wiped).
    pub fn new(key: &SignUserKey<B>) -> Self {
        struct Build<'a, B: Backend>(&'a G1Affine<B>);
        impl<B: Backend> Job for Build<'_, B> {
            type Output = SecretPrecomputedTable<Sm9G1Curve<B>>;
            fn run<B2: Backend>(self) -> Self::Output {
                let mut d = self.0.to_backend::<B2>();
                let table = SecretPrecomputedTable::new(&d).to_backend();
                d.zeroize();
                table
            }
        }
        Self {
            key: key.clone(),
            table: B::dispatch(Build(&key.d)),
        }
    }

    /// The user key.
    pub fn user_key(&self) -> &SignUserKey<B> {
        &self.key
    }

    /// `[l]ds` in constant time, on backend `B2` (no dispatch: for code inside a job; the
    /// table is read in place).
    pub(crate) fn mul_ds<B2: Backend>(&self, l: &Scalar<B2>) -> G1Jacobian<B2> {
        self.table.on_backend::<B2>().mul(l)
    }
}

impl<B: Backend> SignUserKey<B> {
    /// Precomputes a comb table of `ds` for faster signing.
    pub fn prepare(&self) -> SigningKey<B> {
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
            assert_eq!(sk.mul_ds(&l), G1Jacobian::from(key.d).mul(&l));
            let on_u64 = sk.mul_ds(&l.to_backend::<sm_field::U64>());
            assert_eq!(
                on_u64.to_affine().to_backend(),
                G1Jacobian::from(key.d).mul(&l).to_affine()
            );
        }
        let sig = crate::sign_prepared(&sk, &master, b"msg", &mut rng).unwrap();
        crate::verify(&master, b"Alice", b"msg", &sig).unwrap();
        // Same nonce, same signature as the plain key.
        let r = [7u8; 32];
        let mut a = crate::Signer::new(&key, &master).unwrap();
        a.update(b"msg");
        let mut b = crate::Signer::with_prepared(&sk, &master).unwrap();
        b.update(b"msg");
        let nonce = || crate::keys::FixedNonce { r: &r, iv: [0; 16] };
        assert_eq!(a.sign_with_nonces(nonce()), b.sign_with_nonces(nonce()));
    }
}
