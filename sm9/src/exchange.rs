//! Key exchange (GM/T 0044.3 §7; GB/T 38635.2 §7 in the 2020 numbering) between an initiator A
//! and a responder B registered with the same encryption KGC (user keys with hid = 0x02).
//!
//! * A1–A4 (A): `QB = [H1(IDB ‖ hid, n)]P1 + Ppub-e`, `rA` random, `RA = [rA]QB`, send RA.
//! * B1–B7 (B): `QA = …`, `rB`, `RB = [rB]QA`; check `RA ∈ G1`; `g1 = e(RA, deB)`,
//!   `g2 = e(Ppub-e, P2)^rB`, `g3 = g1^rB`;
//!   `SKB = KDF(IDA ‖ IDB ‖ RA ‖ RB ‖ g1 ‖ g2 ‖ g3, klen)`;
//!   optionally `SB = SM3(0x82 ‖ g1 ‖ SM3(g2 ‖ g3 ‖ IDA ‖ IDB ‖ RA ‖ RB))`; send RB (and SB).
//! * A5–A8 (A): check `RB ∈ G1`; `g1' = e(Ppub-e, P2)^rA`, `g2' = e(RB, deA)`, `g3' = g2'^rA`;
//!   optionally check `SB`; `SKA = KDF(…)`; `SA = SM3(0x83 ‖ g1' ‖ SM3(…))`, send SA.
//! * B8 (B): optionally check `SA`.
//!
//! The states consume themselves: [`Initiator::start`] → [`Initiator::finish`];
//! [`Responder::respond`] → [`Responder::confirm`] or [`Responder::finish_unconfirmed`].
//! Points are hashed as `x ‖ y` (64 bytes), GT elements in their 384-byte encoding.

use alloc::vec::Vec;

use rand_core::CryptoRng;
use sm3::{Digest, Sm3};
use sm_field::{Backend, Job};
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::generic::{PreparedEncMasterPublicKey, Scalar};
use crate::groups::{g1_from_bytes, g1_to_bytes, G1Affine, G2Prepared, Gt};
use crate::hash::h1_in;
use crate::keys::{ExchangeUserKey, Nonces, RandomNonces, HID_EXCHANGE};
use crate::{Error, Result};

/// A user key-exchange key (hid = 0x02) with the Miller-loop lines of `de` precomputed
/// (zeroized on drop).
#[derive(Clone)]
pub struct ExchangeKey<B: Backend> {
    key: ExchangeUserKey<B>,
    prepared: G2Prepared<B>,
}

impl<B: Backend> core::fmt::Debug for ExchangeKey<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ExchangeKey").finish_non_exhaustive()
    }
}

impl<B: Backend> ExchangeKey<B> {
    /// Precomputes the lines of `de`.
    pub fn new(key: &ExchangeUserKey<B>) -> Self {
        Self {
            key: key.clone(),
            prepared: G2Prepared::new(&key.0.d),
        }
    }

    /// The user key.
    pub fn user_key(&self) -> &ExchangeUserKey<B> {
        &self.key
    }

    fn pair<B2: Backend>(&self, r: &G1Affine<B2>) -> Gt<B2> {
        self.prepared.on_backend::<B2>().pairing(r)
    }
}

impl<B: Backend> ExchangeUserKey<B> {
    /// Precomputes the pairing lines of `de` for key exchange.
    pub fn prepare(&self) -> ExchangeKey<B> {
        ExchangeKey::new(self)
    }
}

/// An ephemeral point `RA` or `RB` (in G1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EphemeralPoint<B: Backend>(G1Affine<B>);

impl<B: Backend> EphemeralPoint<B> {
    /// `04 ‖ x ‖ y` (65 bytes).
    pub fn to_bytes(&self) -> [u8; 65] {
        g1_to_bytes(&self.0)
    }

    /// Decodes `04 ‖ x ‖ y`, checking that the point lies in G1 (B4 / A5).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        g1_from_bytes(bytes).map(Self)
    }
}

/// The shared values `g1, g2, g3` and the transcript, zeroized on drop.
struct Shared {
    g: [[u8; 384]; 3],
    id_a: Vec<u8>,
    id_b: Vec<u8>,
    ra: [u8; 65],
    rb: [u8; 65],
}

impl Drop for Shared {
    fn drop(&mut self) {
        self.g.zeroize();
    }
}

impl Shared {
    fn new<B: Backend>(
        g1: &Gt<B>,
        g2: &Gt<B>,
        g3: &Gt<B>,
        id_a: &[u8],
        id_b: &[u8],
        ra: &G1Affine<B>,
        rb: &G1Affine<B>,
    ) -> Self {
        Self {
            g: [g1.to_bytes(), g2.to_bytes(), g3.to_bytes()],
            id_a: id_a.to_vec(),
            id_b: id_b.to_vec(),
            ra: g1_to_bytes(ra),
            rb: g1_to_bytes(rb),
        }
    }

    /// `KDF(IDA ‖ IDB ‖ RA ‖ RB ‖ g1 ‖ g2 ‖ g3, klen)`.
    fn session_key(&self, key_len: usize) -> Result<Zeroizing<Vec<u8>>> {
        if key_len == 0 || key_len as u64 > u64::from(u32::MAX) * 32 {
            return Err(Error::InvalidLength);
        }
        let mut k = Zeroizing::new(alloc::vec![0u8; key_len]);
        sm3::Kdf::new(&[
            &self.id_a,
            &self.id_b,
            &self.ra[1..],
            &self.rb[1..],
            &self.g[0],
            &self.g[1],
            &self.g[2],
        ])
        .fill(&mut k);
        Ok(k)
    }

    /// `SM3(tag ‖ g1 ‖ SM3(g2 ‖ g3 ‖ IDA ‖ IDB ‖ RA ‖ RB))` with tag 0x82 (SB) or 0x83 (SA).
    fn confirmation(&self, tag: u8) -> [u8; 32] {
        let mut inner = Sm3::new();
        inner.update(self.g[1]);
        inner.update(self.g[2]);
        inner.update(&self.id_a);
        inner.update(&self.id_b);
        inner.update(&self.ra[1..]);
        inner.update(&self.rb[1..]);
        let inner = inner.finalize();
        let mut outer = Sm3::new();
        outer.update([tag]);
        outer.update(self.g[0]);
        outer.update(inner);
        outer.finalize().into()
    }
}

/// `[r]Q_peer` for `Q_peer = [H1(ID_peer ‖ 0x02)]P1 + Ppub-e`, on backend `B2` (inside a job).
fn ephemeral<B: Backend, B2: Backend>(
    master: &PreparedEncMasterPublicKey<B>,
    peer_id: &[u8],
    r: &Scalar<B2>,
) -> G1Affine<B2> {
    let h1 = h1_in(peer_id, HID_EXCHANGE);
    master.mul_q(&h1, r).to_affine()
}

/// `g1`, `g2`, `g3` of the shared values on backend `B2` (inside a job): `g_own = e(R_peer,
/// d_own)`, `g_master = e(Ppub-e, P2)^r`, `g_own^r`, in the initiator's (`own_first` false) or
/// responder's order; the secrets computed here are wiped.
#[allow(clippy::too_many_arguments)]
fn shared_on<B: Backend, B2: Backend>(
    key: &ExchangeKey<B>,
    master: &PreparedEncMasterPublicKey<B>,
    r: &Scalar<B2>,
    r_peer: &G1Affine<B>,
    own_first: bool,
    id_a: &[u8],
    id_b: &[u8],
    ra: &G1Affine<B2>,
    rb: &G1Affine<B2>,
) -> Shared {
    let mut g_own = key.pair(&r_peer.to_backend::<B2>());
    let mut g_master = master.g_pow(r);
    // `pow_scalar` on the pure `B2` runs in place.
    let mut g_own_r = g_own.pow_scalar(r);
    let shared = if own_first {
        Shared::new(&g_own, &g_master, &g_own_r, id_a, id_b, ra, rb)
    } else {
        Shared::new(&g_master, &g_own, &g_own_r, id_a, id_b, ra, rb)
    };
    g_own.zeroize();
    g_master.zeroize();
    g_own_r.zeroize();
    shared
}

fn check_key<B: Backend>(
    key: &ExchangeKey<B>,
    master: &PreparedEncMasterPublicKey<B>,
) -> Result<()> {
    if key.key.0.ppub == master.public.ppub {
        Ok(())
    } else {
        Err(Error::KeyMismatch)
    }
}

/// The initiator A after sending `RA`; consumed by [`finish`](Self::finish).
pub struct Initiator<'a, B: Backend> {
    key: &'a ExchangeKey<B>,
    master: &'a PreparedEncMasterPublicKey<B>,
    r: Scalar<B>,
    ra: G1Affine<B>,
    id_a: Vec<u8>,
    id_b: Vec<u8>,
}

impl<B: Backend> Drop for Initiator<'_, B> {
    fn drop(&mut self) {
        self.r.zeroize();
    }
}
impl<B: Backend> ZeroizeOnDrop for Initiator<'_, B> {}

impl<'a, B: Backend> Initiator<'a, B> {
    /// A1–A4: A (`own_id`, key `key`) starts an exchange with B (`peer_id`); send the returned
    /// `RA` to B.
    ///
    /// ```
    /// let mut rng = rand_core::UnwrapErr(getrandom::SysRng); // the OS RNG
    /// let kgc = shangmi_sm9::EncMasterKey::generate(&mut rng);
    /// let master = kgc.public_key().prepare();
    /// let alice = kgc.extract_exchange(b"Alice").unwrap().prepare();
    /// let bob = kgc.extract_exchange(b"Bob").unwrap().prepare();
    ///
    /// let (a, ra) = shangmi_sm9::Initiator::start(&alice, &master, b"Alice", b"Bob", &mut rng).unwrap();
    /// let (b, rb, sb) =
    ///     shangmi_sm9::Responder::respond(&bob, &master, b"Bob", b"Alice", &ra, &mut rng).unwrap();
    /// let (key_a, sa) = a.finish(&rb, Some(&sb), 16).unwrap();
    /// let key_b = b.confirm(&sa, 16).unwrap();
    /// assert_eq!(key_a, key_b);
    /// ```
    pub fn start(
        key: &'a ExchangeKey<B>,
        master: &'a PreparedEncMasterPublicKey<B>,
        own_id: &[u8],
        peer_id: &[u8],
        rng: &mut impl CryptoRng,
    ) -> Result<(Self, EphemeralPoint<B>)> {
        Self::start_with_nonces(key, master, own_id, peer_id, RandomNonces(rng))
    }

    /// A1–A4 as one dispatched job ([`Backend::dispatch`]), the nonce drawn inside it.
    pub(crate) fn start_with_nonces(
        key: &'a ExchangeKey<B>,
        master: &'a PreparedEncMasterPublicKey<B>,
        own_id: &[u8],
        peer_id: &[u8],
        nonces: impl Nonces,
    ) -> Result<(Self, EphemeralPoint<B>)> {
        struct Start<'a, B: Backend, N> {
            master: &'a PreparedEncMasterPublicKey<B>,
            peer_id: &'a [u8],
            nonces: N,
        }
        impl<B: Backend, N: Nonces> Job for Start<'_, B, N> {
            type Output = Result<(Scalar<B>, G1Affine<B>)>;
            fn run<B2: Backend>(mut self) -> Self::Output {
                let mut r = self.nonces.draw::<B2>()?;
                let ra = ephemeral(self.master, self.peer_id, &r).to_backend();
                let out = (r.to_backend(), ra);
                r.zeroize();
                Ok(out)
            }
        }
        check_key(key, master)?;
        let (r, ra) = B::dispatch(Start {
            master,
            peer_id,
            nonces,
        })?;
        let s = Self {
            key,
            master,
            r,
            ra,
            id_a: own_id.to_vec(),
            id_b: peer_id.to_vec(),
        };
        Ok((s, EphemeralPoint(ra)))
    }

    /// A5–A8: given B's `RB` (and `SB` when B sent one, which is then checked), returns the
    /// `key_len`-byte session key and `SA` (send it to B if B expects confirmation).
    pub fn finish(
        self,
        rb: &EphemeralPoint<B>,
        sb: Option<&[u8; 32]>,
        key_len: usize,
    ) -> Result<(Zeroizing<Vec<u8>>, [u8; 32])> {
        /// A5 as one dispatched job.
        struct Finish<'s, 'a, B: Backend>(&'s Initiator<'a, B>, &'s G1Affine<B>);
        impl<B: Backend> Job for Finish<'_, '_, B> {
            type Output = Shared;
            fn run<B2: Backend>(self) -> Shared {
                let (a, rb) = (self.0, self.1);
                let mut r = a.r.to_backend::<B2>();
                // g1' = e(Ppub-e, P2)^rA, g2' = e(RB, deA), g3' = g2'^rA.
                let (ra2, rb2) = (a.ra.to_backend::<B2>(), rb.to_backend::<B2>());
                let shared =
                    shared_on(a.key, a.master, &r, rb, false, &a.id_a, &a.id_b, &ra2, &rb2);
                r.zeroize();
                shared
            }
        }
        let shared = B::dispatch(Finish(&self, &rb.0));
        // A6: S1 = Hash(0x82 ‖ …) = SB?
        if let Some(sb) = sb {
            if !bool::from(shared.confirmation(0x82).ct_eq(sb)) {
                return Err(Error::KeyConfirmation);
            }
        }
        // A7–A8.
        let sk = shared.session_key(key_len)?;
        Ok((sk, shared.confirmation(0x83)))
    }
}

/// The responder B after sending `RB` and `SB`; consumed by [`confirm`](Self::confirm) or
/// [`finish_unconfirmed`](Self::finish_unconfirmed).
pub struct Responder {
    shared: Shared,
}

impl Responder {
    /// B1–B7: B (`own_id`) answers A's (`peer_id`) `RA`; send the returned `RB` and `SB` to A.
    pub fn respond<B: Backend>(
        key: &ExchangeKey<B>,
        master: &PreparedEncMasterPublicKey<B>,
        own_id: &[u8],
        peer_id: &[u8],
        ra: &EphemeralPoint<B>,
        rng: &mut impl CryptoRng,
    ) -> Result<(Self, EphemeralPoint<B>, [u8; 32])> {
        Self::respond_with_nonces(key, master, own_id, peer_id, ra, RandomNonces(rng))
    }

    /// B1–B6 as one dispatched job ([`Backend::dispatch`]), the nonce drawn inside it.
    pub(crate) fn respond_with_nonces<B: Backend>(
        key: &ExchangeKey<B>,
        master: &PreparedEncMasterPublicKey<B>,
        own_id: &[u8],
        peer_id: &[u8],
        ra: &EphemeralPoint<B>,
        nonces: impl Nonces,
    ) -> Result<(Self, EphemeralPoint<B>, [u8; 32])> {
        struct Respond<'a, B: Backend, N> {
            key: &'a ExchangeKey<B>,
            master: &'a PreparedEncMasterPublicKey<B>,
            own_id: &'a [u8],
            peer_id: &'a [u8],
            ra: &'a G1Affine<B>,
            nonces: N,
        }
        impl<B: Backend, N: Nonces> Job for Respond<'_, B, N> {
            type Output = Result<(Shared, G1Affine<B>)>;
            fn run<B2: Backend>(mut self) -> Self::Output {
                let mut r = self.nonces.draw::<B2>()?;
                // B1–B3: RB = [rB]QA.
                let rb = ephemeral(self.master, self.peer_id, &r);
                // B4: g1 = e(RA, deB), g2 = e(Ppub-e, P2)^rB, g3 = g1^rB.
                let ra = self.ra.to_backend::<B2>();
                let (id_a, id_b) = (self.peer_id, self.own_id);
                let shared = shared_on(
                    self.key,
                    self.master,
                    &r,
                    self.ra,
                    true,
                    id_a,
                    id_b,
                    &ra,
                    &rb,
                );
                r.zeroize();
                Ok((shared, rb.to_backend()))
            }
        }
        check_key(key, master)?;
        let (shared, rb) = B::dispatch(Respond {
            key,
            master,
            own_id,
            peer_id,
            ra: &ra.0,
            nonces,
        })?;
        // B6: SB.
        let sb = shared.confirmation(0x82);
        Ok((Self { shared }, EphemeralPoint(rb), sb))
    }

    /// B5 and B8: checks A's `SA`, then returns the `key_len`-byte session key.
    pub fn confirm(self, sa: &[u8; 32], key_len: usize) -> Result<Zeroizing<Vec<u8>>> {
        if !bool::from(self.shared.confirmation(0x83).ct_eq(sa)) {
            return Err(Error::KeyConfirmation);
        }
        self.shared.session_key(key_len)
    }

    /// B5 without confirmation: the `key_len`-byte session key.
    pub fn finish_unconfirmed(self, key_len: usize) -> Result<Zeroizing<Vec<u8>>> {
        self.shared.session_key(key_len)
    }
}
