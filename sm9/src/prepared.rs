//! Precomputation on public data, built once per master public key and reused:
//!
//! * [`PreparedSignMasterPublicKey`]: `g = e(P1, Ppub-s)` as a fixed-base GT table (signing
//!   computes `g^r`, verification `g^h`).
//! * [`PreparedEncMasterPublicKey`]: `g = e(Ppub-e, P2)` as a fixed-base GT table and a comb
//!   table of `Ppub-e`, so `[r]QB = [r·h1]P1 + [r]Ppub-e` takes two fixed-base multiplications.
//!
//! Per user decryption key, [`DecryptionKey`](crate::DecryptionKey) holds the `G2Prepared`
//! lines of `de`; it is owned by the key object and never cached globally.

use sm_curve::sm9::Sm9G1Curve;
use sm_curve::{CombTable, PrecomputedTable};
use sm_pairing::GtTable;

use crate::groups::{mul_p1, p1, p2, pairing, G1Jacobian, G2Prepared, Gt};
use crate::keys::{EncMasterPublicKey, SignMasterPublicKey};
use crate::Scalar;

/// A signature master public key with `g = e(P1, Ppub-s)` precomputed as a fixed-base table
/// and the Miller-loop lines of `Ppub-s` (used by verification).
#[derive(Clone)]
pub struct PreparedSignMasterPublicKey {
    pub(crate) public: SignMasterPublicKey,
    pub(crate) g_table: GtTable,
    pub(crate) ppub_lines: G2Prepared,
}

impl core::fmt::Debug for PreparedSignMasterPublicKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PreparedSignMasterPublicKey")
            .field("public", &self.public)
            .finish()
    }
}

impl PreparedSignMasterPublicKey {
    /// Computes `g = e(P1, Ppub-s)` and its table.
    pub fn new(public: &SignMasterPublicKey) -> Self {
        let ppub_lines = G2Prepared::new(&public.ppub);
        let g = sm_pairing::pairing_prepared(&p1(), &ppub_lines);
        Self {
            public: *public,
            g_table: GtTable::new(&g),
            ppub_lines,
        }
    }

    /// The master public key.
    pub fn public_key(&self) -> &SignMasterPublicKey {
        &self.public
    }

    /// `g = e(P1, Ppub-s)`.
    pub fn g(&self) -> &Gt {
        self.g_table.base()
    }

    /// `g^k`, constant time in `k`.
    pub(crate) fn g_pow(&self, k: &Scalar) -> Gt {
        self.g_table.pow_scalar(k)
    }
}

impl SignMasterPublicKey {
    /// Precomputes `g = e(P1, Ppub-s)` for signing and verification.
    pub fn prepare(&self) -> PreparedSignMasterPublicKey {
        PreparedSignMasterPublicKey::new(self)
    }
}

/// An encryption / key-exchange master public key with `g = e(Ppub-e, P2)` as a fixed-base
/// GT table and a comb table of `Ppub-e`.
#[derive(Clone)]
pub struct PreparedEncMasterPublicKey {
    pub(crate) public: EncMasterPublicKey,
    pub(crate) g_table: GtTable,
    pub(crate) ppub_table: PrecomputedTable<Sm9G1Curve>,
}

impl core::fmt::Debug for PreparedEncMasterPublicKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PreparedEncMasterPublicKey")
            .field("public", &self.public)
            .finish()
    }
}

impl PreparedEncMasterPublicKey {
    /// Computes `g = e(Ppub-e, P2)` and the tables.
    pub fn new(public: &EncMasterPublicKey) -> Self {
        let g = pairing(&public.ppub, &p2());
        Self {
            public: *public,
            g_table: GtTable::new(&g),
            ppub_table: PrecomputedTable::new(&public.ppub),
        }
    }

    /// The master public key.
    pub fn public_key(&self) -> &EncMasterPublicKey {
        &self.public
    }

    /// `g = e(Ppub-e, P2)`.
    pub fn g(&self) -> &Gt {
        self.g_table.base()
    }

    /// `g^k`, constant time in `k`.
    pub(crate) fn g_pow(&self, k: &Scalar) -> Gt {
        self.g_table.pow_scalar(k)
    }

    /// `[r]Q` for `Q = [h1]P1 + Ppub-e` as `[r·h1]P1 + [r]Ppub-e`: two fixed-base combs,
    /// constant time in the secret `r`.
    pub(crate) fn mul_q(&self, h1: &Scalar, r: &Scalar) -> G1Jacobian {
        let mut rh = *r * h1;
        let a = mul_p1(&rh);
        zeroize::Zeroize::zeroize(&mut rh);
        a.add(&self.ppub_table.mul(r))
    }
}

impl EncMasterPublicKey {
    /// Precomputes `e(Ppub-e, P2)` and a comb table of `Ppub-e` for encryption, encapsulation
    /// and key exchange.
    pub fn prepare(&self) -> PreparedEncMasterPublicKey {
        PreparedEncMasterPublicKey::new(self)
    }
}
