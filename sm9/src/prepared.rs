//! Precomputation on public data, built once per master public key and reused:
//! [`PreparedMasterPublicKey`] holds `g` as a fixed-base GT table and, per system,
//!
//! * [`Sign`]: `g = e(P1, Ppub-s)` (signing computes `g^r`, verification `g^h`) and the
//!   Miller-loop lines of `Ppub-s` (verification);
//! * [`Enc`]: `g = e(Ppub-e, P2)` and a comb table of `Ppub-e`, so `[r]QB = [r·h1]P1 + [r]Ppub-e`
//!   takes two fixed-base multiplications.
//!
//! Per user decryption key, [`DecryptionKey`](crate::DecryptionKey) holds the `G2Prepared`
//! lines of `de`; it is owned by the key object and never cached globally.

use sm_curve::CombTable;
use sm_field::{Backend, Job};
use sm_pairing::GtTable;

use crate::generic::Scalar;
use crate::groups::{mul_p1, p1, p2, pairing, G1Jacobian, G2Prepared, Gt};
use crate::keys::{Enc, MasterPublicKey, Scheme, Sign};

/// A master public key with `g` precomputed as a fixed-base GT table (`g = e(P1, Ppub-s)` for
/// [`Sign`], `g = e(Ppub-e, P2)` for [`Enc`]) and the per-system precomputation: the Miller-loop
/// lines of `Ppub-s` (used by verification), or a comb table of `Ppub-e`.
#[derive(Clone)]
pub struct PreparedMasterPublicKey<S: Scheme, B: Backend> {
    pub(crate) public: MasterPublicKey<S, B>,
    pub(crate) g_table: GtTable<B>,
    pub(crate) pre: S::Precomputed<B>,
}

impl<S: Scheme, B: Backend> core::fmt::Debug for PreparedMasterPublicKey<S, B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct(S::NAMES[2])
            .field("public", &self.public)
            .finish()
    }
}

impl<S: Scheme, B: Backend> PreparedMasterPublicKey<S, B> {
    /// The master public key.
    pub fn public_key(&self) -> &MasterPublicKey<S, B> {
        &self.public
    }

    /// `g` (`e(P1, Ppub-s)` or `e(Ppub-e, P2)`).
    pub fn g(&self) -> &Gt<B> {
        self.g_table.base()
    }

    /// `g^k`, constant time in `k`, on backend `B2` (no dispatch: for code inside a job; the
    /// table is read in place).
    pub(crate) fn g_pow<B2: Backend>(&self, k: &Scalar<B2>) -> Gt<B2> {
        self.g_table.on_backend::<B2>().pow_scalar(k)
    }
}

impl<B: Backend> PreparedMasterPublicKey<Sign, B> {
    /// Computes `g = e(P1, Ppub-s)`, its table and the lines of `Ppub-s` (one dispatched job).
    pub fn new(public: &MasterPublicKey<Sign, B>) -> Self {
        struct Prepare<'a, B: Backend>(&'a MasterPublicKey<Sign, B>);
        impl<B: Backend> Job for Prepare<'_, B> {
            type Output = PreparedMasterPublicKey<Sign, B>;
            fn run<B2: Backend>(self) -> Self::Output {
                let ppub_lines = G2Prepared::new_on::<B2>(&self.0.ppub);
                let g = ppub_lines.on_backend::<B2>().pairing(&p1());
                PreparedMasterPublicKey {
                    public: *self.0,
                    g_table: GtTable::new_on::<B2>(&g.to_backend()),
                    pre: ppub_lines,
                }
            }
        }
        B::dispatch(Prepare(public))
    }

    /// The Miller-loop lines of `Ppub-s`.
    pub(crate) fn ppub_lines(&self) -> &G2Prepared<B> {
        &self.pre
    }
}

impl<B: Backend> MasterPublicKey<Sign, B> {
    /// Precomputes `g = e(P1, Ppub-s)` for signing and verification.
    pub fn prepare(&self) -> PreparedMasterPublicKey<Sign, B> {
        PreparedMasterPublicKey::<Sign, B>::new(self)
    }
}

impl<B: Backend> PreparedMasterPublicKey<Enc, B> {
    /// Computes `g = e(Ppub-e, P2)` and the tables (one dispatched job).
    pub fn new(public: &MasterPublicKey<Enc, B>) -> Self {
        struct Prepare<'a, B: Backend>(&'a MasterPublicKey<Enc, B>);
        impl<B: Backend> Job for Prepare<'_, B> {
            type Output = PreparedMasterPublicKey<Enc, B>;
            fn run<B2: Backend>(self) -> Self::Output {
                let ppub = self.0.ppub.to_backend::<B2>();
                // `pairing` on the pure `B2` runs in place (its dispatch is `B2` itself).
                let g = pairing(&ppub, &p2());
                PreparedMasterPublicKey {
                    public: *self.0,
                    g_table: GtTable::new_on::<B2>(&g.to_backend()),
                    pre: sm_curve::PrecomputedTable::new(&ppub).to_backend(),
                }
            }
        }
        B::dispatch(Prepare(public))
    }

    /// `[r]Q` for `Q = [h1]P1 + Ppub-e` as `[r·h1]P1 + [r]Ppub-e` on backend `B2` (no dispatch:
    /// for code inside a job; the comb of Ppub-e is read in place): two fixed-base combs,
    /// constant time in the secret `r`.
    pub(crate) fn mul_q<B2: Backend>(&self, h1: &Scalar<B2>, r: &Scalar<B2>) -> G1Jacobian<B2> {
        let mut rh = *r * h1;
        let a = mul_p1(&rh);
        zeroize::Zeroize::zeroize(&mut rh);
        a.add(&self.pre.on_backend::<B2>().mul(r))
    }
}

impl<B: Backend> MasterPublicKey<Enc, B> {
    /// Precomputes `e(Ppub-e, P2)` and a comb table of `Ppub-e` for encryption, encapsulation
    /// and key exchange.
    pub fn prepare(&self) -> PreparedMasterPublicKey<Enc, B> {
        PreparedMasterPublicKey::<Enc, B>::new(self)
    }
}
