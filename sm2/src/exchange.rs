//! SM2 key exchange (GB/T 32918.3-2016 §6.1) as a state machine that cannot be misused: each
//! step consumes the previous state, so an ephemeral key is used for exactly one exchange.
//!
//! With `w = ⌈⌈log₂ n⌉ / 2⌉ − 1 = 127` and `x̄ = 2^w + (x mod 2^w)`:
//!
//! * A1–A3 (initiator A): `r_A` random, `R_A = r_A·G`, send `R_A` ([`Initiator::start`]).
//! * B1–B9 (responder B, [`Responder::respond`]): `r_B`, `R_B = r_B·G`, `t_B = d_B + x̄₂·r_B`,
//!   check `R_A`, `V = t_B·(P_A + x̄₁·R_A) ≠ O`, `K_B = KDF(x_V ‖ y_V ‖ Z_A ‖ Z_B, klen)`,
//!   `S_B = SM3(0x02 ‖ y_V ‖ SM3(x_V ‖ Z_A ‖ Z_B ‖ x₁ ‖ y₁ ‖ x₂ ‖ y₂))`; send `R_B`, `S_B`.
//! * A4–A10 ([`InitiatorWaiting::finish`]): `t_A = d_A + x̄₁·r_A`, check `R_B`,
//!   `U = t_A·(P_B + x̄₂·R_B) ≠ O`, `K_A = KDF(…)`, check `S₁ = S_B`, send
//!   `S_A = SM3(0x03 ‖ y_U ‖ …)`.
//! * B10 ([`ResponderWaiting::confirm`]): check `S₂ = S_A`; only then is `K_B` released.
//!
//! `Z_A` is always the initiator's user hash and `Z_B` the responder's. Key lengths are in bytes.
//! The confirmation hashes are optional in the standard: the `*_unconfirmed` methods skip them.

use alloc::vec::Vec;

use rand_core::CryptoRng;
use sm3::{Digest, Sm3};
use sm_field::{Backend, DefaultBackend, Fp, Job};
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

use crate::encryption::shared_bytes;
use crate::keys::{
    decode_nonzero_scalar, encode_point, random_nonzero_scalar, GeneratorMultiple, PublicKey,
    SecretKey,
};
use crate::za::compute_za;
use crate::{AffinePoint, Error, FieldElement, Scalar};

/// A derived shared key (zeroized on drop).
pub type SharedKey = Zeroizing<Vec<u8>>;

/// `x̄ = 2^127 + (x mod 2^127)` (§6.1 A4/B3).
fn x_bar<B: Backend>(x: &FieldElement<B>) -> Scalar<B> {
    let mut b = x.to_bytes();
    b[..16].fill(0);
    b[16] = (b[16] & 0x7f) | 0x80;
    Fp::from_bytes(&b).unwrap()
}

/// [`Common::shared_point`]'s arithmetic on the backend [`Backend::dispatch`] picks.
struct SharedPoint<'a, B: Backend> {
    d: &'a Scalar<B>,
    r: &'a Scalar<B>,
    own_r: &'a AffinePoint<B>,
    peer_r: &'a AffinePoint<B>,
    peer: &'a AffinePoint<B>,
}

impl<B: Backend> Job for SharedPoint<'_, B> {
    /// The coordinates of the point as bytes, `None` for the identity.
    type Output = Option<crate::encryption::SharedPoint>;
    fn run<B2: Backend>(self) -> Self::Output {
        let (own_r, peer_r) = (
            self.own_r.to_backend::<B2>(),
            self.peer_r.to_backend::<B2>(),
        );
        let mut t = self.d.to_backend::<B2>() + x_bar(&own_r.x()) * self.r.to_backend::<B2>();
        let q = peer_r
            .to_jacobian()
            .mul_vartime(&x_bar(&peer_r.x()))
            .add_affine_vartime(&self.peer.to_backend::<B2>());
        let mut v = q.mul(&t).to_affine();
        t.zeroize();
        if bool::from(v.is_identity()) {
            return None;
        }
        let out = shared_bytes(&v.x(), &v.y());
        v.zeroize();
        Some(out)
    }
}

/// Shared secrets of one party before the roles are applied.
struct Common<B: Backend> {
    sk: SecretKey<B>,
    peer: PublicKey<B>,
    za: [u8; 32],
    zb: [u8; 32],
}

impl<B: Backend> Common<B> {
    fn new(
        sk: &SecretKey<B>,
        own_id: &[u8],
        peer: &PublicKey<B>,
        peer_id: &[u8],
        initiator: bool,
    ) -> Result<Self, Error> {
        let own_z = compute_za(own_id, sk.public_key())?;
        let peer_z = compute_za(peer_id, peer)?;
        let (za, zb) = if initiator {
            (own_z, peer_z)
        } else {
            (peer_z, own_z)
        };
        Ok(Self {
            sk: sk.clone(),
            peer: *peer,
            za,
            zb,
        })
    }

    /// `t·(P_peer + x̄_peer·R_peer)` with `t = d + x̄_own·r` (constant time in `d`, `r`; the peer's
    /// values are public), as one dispatched job. Fails if the result is the identity.
    fn shared_point(
        &self,
        r: &Scalar<B>,
        own_r: &AffinePoint<B>,
        peer_r: &PublicKey<B>,
    ) -> Result<crate::encryption::SharedPoint, Error> {
        B::dispatch(SharedPoint {
            d: self.sk.scalar(),
            r,
            own_r,
            peer_r: peer_r.as_affine(),
            peer: self.peer.as_affine(),
        })
        .ok_or(Error::KeyExchange)
    }

    /// The key and the confirmation tags from the shared point `(x_v, y_v)` and both parties'
    /// ephemeral points.
    fn derive(
        &self,
        (xv, yv): &crate::encryption::SharedPoint,
        ra: &AffinePoint<B>,
        rb: &AffinePoint<B>,
        klen: usize,
    ) -> Secrets {
        let mut key = Zeroizing::new(alloc::vec![0u8; klen]);
        sm3::Kdf::new(&[&xv[..], &yv[..], &self.za, &self.zb]).fill(&mut key);
        let mut h = Sm3::new();
        h.update(&xv[..]);
        h.update(self.za);
        h.update(self.zb);
        h.update(&encode_point(ra, false)[1..]);
        h.update(&encode_point(rb, false)[1..]);
        let inner: [u8; 32] = h.finalize().into();
        let tag = |prefix: u8| -> [u8; 32] {
            let mut h = Sm3::new();
            h.update([prefix]);
            h.update(&yv[..]);
            h.update(inner);
            h.finalize().into()
        };
        Secrets {
            key,
            s_b: tag(2),
            s_a: tag(3),
        }
    }
}

struct Secrets {
    key: SharedKey,
    /// S_B = S_1 (prefix 0x02)
    s_b: [u8; 32],
    /// S_A = S_2 (prefix 0x03)
    s_a: [u8; 32],
}

fn ephemeral_from_bytes<B: Backend>(r: &[u8; 32]) -> Result<Scalar<B>, Error> {
    Option::from(decode_nonzero_scalar(r, false)).ok_or(Error::InvalidSecretKey)
}

fn point_of<B: Backend>(r: &Scalar<B>) -> (AffinePoint<B>, PublicKey<B>) {
    // r·G with r ∈ [1, n − 1] is a valid point.
    let p = B::dispatch(GeneratorMultiple(r));
    (p, PublicKey::from_valid(p))
}

/// The initiator (user A) before sending `R_A`.
pub struct Initiator<B: Backend = DefaultBackend> {
    common: Common<B>,
}

/// The initiator after sending `R_A`, waiting for `R_B` (and `S_B`).
pub struct InitiatorWaiting<B: Backend = DefaultBackend> {
    common: Common<B>,
    r: Scalar<B>,
    ra: AffinePoint<B>,
}

impl<B: Backend> Initiator<B> {
    /// A with key `sk` and ID `id`, talking to B with public key `peer` and ID `peer_id`.
    pub fn new(
        sk: &SecretKey<B>,
        id: &[u8],
        peer: &PublicKey<B>,
        peer_id: &[u8],
    ) -> Result<Self, Error> {
        Ok(Self {
            common: Common::new(sk, id, peer, peer_id, true)?,
        })
    }

    /// A1–A3: picks `r_A` and returns `R_A` to send.
    pub fn start(self, rng: &mut impl CryptoRng) -> (InitiatorWaiting<B>, PublicKey<B>) {
        let r = random_nonzero_scalar::<B>(rng);
        self.start_inner(r)
    }

    /// A1–A3 with a caller-chosen `r_A` (known-answer tests only; never reuse an ephemeral).
    pub fn start_with_ephemeral(
        self,
        r: &[u8; 32],
    ) -> Result<(InitiatorWaiting<B>, PublicKey<B>), Error> {
        Ok(self.start_inner(ephemeral_from_bytes(r)?))
    }

    fn start_inner(self, r: Scalar<B>) -> (InitiatorWaiting<B>, PublicKey<B>) {
        let (ra, pk) = point_of(&r);
        (
            InitiatorWaiting {
                common: self.common,
                r,
                ra,
            },
            pk,
        )
    }
}

impl<B: Backend> InitiatorWaiting<B> {
    /// A4–A10: derives the key from `R_B`, checks B's confirmation `S_B`, and returns the key and
    /// `S_A` to send back.
    pub fn finish(
        self,
        rb: &PublicKey<B>,
        sb: &[u8; 32],
        klen: usize,
    ) -> Result<(SharedKey, [u8; 32]), Error> {
        let s = self.secrets(rb, klen)?;
        if !bool::from(s.s_b.ct_eq(sb)) {
            return Err(Error::KeyExchange);
        }
        Ok((s.key, s.s_a))
    }

    /// A4–A8 without key confirmation.
    pub fn finish_unconfirmed(self, rb: &PublicKey<B>, klen: usize) -> Result<SharedKey, Error> {
        Ok(self.secrets(rb, klen)?.key)
    }

    fn secrets(&self, rb: &PublicKey<B>, klen: usize) -> Result<Secrets, Error> {
        let u = self.common.shared_point(&self.r, &self.ra, rb)?;
        Ok(self.common.derive(&u, &self.ra, rb.as_affine(), klen))
    }
}

impl<B: Backend> Drop for InitiatorWaiting<B> {
    fn drop(&mut self) {
        self.r.zeroize();
    }
}

/// What the responder sends back: its waiting state, `R_B` and the confirmation `S_B`.
pub type ResponderReply<B> = (ResponderWaiting<B>, PublicKey<B>, [u8; 32]);

/// The responder (user B) before seeing `R_A`.
pub struct Responder<B: Backend = DefaultBackend> {
    common: Common<B>,
}

/// The responder after answering, waiting for A's confirmation `S_A`.
pub struct ResponderWaiting<B: Backend = DefaultBackend> {
    key: SharedKey,
    s_a: [u8; 32],
    _backend: core::marker::PhantomData<B>,
}

impl<B: Backend> Responder<B> {
    /// B with key `sk` and ID `id`, talking to A with public key `peer` and ID `peer_id`.
    pub fn new(
        sk: &SecretKey<B>,
        id: &[u8],
        peer: &PublicKey<B>,
        peer_id: &[u8],
    ) -> Result<Self, Error> {
        Ok(Self {
            common: Common::new(sk, id, peer, peer_id, false)?,
        })
    }

    /// B1–B9: answers `R_A` with `R_B` and the confirmation `S_B`; the key is released by
    /// [`ResponderWaiting::confirm`] once A's `S_A` checks out.
    pub fn respond(
        self,
        rng: &mut impl CryptoRng,
        ra: &PublicKey<B>,
        klen: usize,
    ) -> Result<ResponderReply<B>, Error> {
        let r = random_nonzero_scalar::<B>(rng);
        self.respond_inner(r, ra, klen)
    }

    /// B1–B9 with a caller-chosen `r_B` (known-answer tests only).
    pub fn respond_with_ephemeral(
        self,
        r: &[u8; 32],
        ra: &PublicKey<B>,
        klen: usize,
    ) -> Result<ResponderReply<B>, Error> {
        self.respond_inner(ephemeral_from_bytes(r)?, ra, klen)
    }

    /// B1–B7 without key confirmation: returns the key and `R_B`.
    pub fn respond_unconfirmed(
        self,
        rng: &mut impl CryptoRng,
        ra: &PublicKey<B>,
        klen: usize,
    ) -> Result<(SharedKey, PublicKey<B>), Error> {
        let r = random_nonzero_scalar::<B>(rng);
        let (w, rb, _) = self.respond_inner(r, ra, klen)?;
        Ok((w.key, rb))
    }

    fn respond_inner(
        self,
        mut r: Scalar<B>,
        ra: &PublicKey<B>,
        klen: usize,
    ) -> Result<ResponderReply<B>, Error> {
        let (rb, rb_pk) = point_of(&r);
        let v = self.common.shared_point(&r, &rb, ra);
        r.zeroize();
        let s = self.common.derive(&v?, ra.as_affine(), &rb, klen);
        let w = ResponderWaiting {
            key: s.key,
            s_a: s.s_a,
            _backend: core::marker::PhantomData,
        };
        Ok((w, rb_pk, s.s_b))
    }
}

impl<B: Backend> ResponderWaiting<B> {
    /// B10: checks A's `S_A` (constant time) and releases the key.
    pub fn confirm(self, sa: &[u8; 32]) -> Result<SharedKey, Error> {
        if bool::from(self.s_a.ct_eq(sa)) {
            Ok(self.key)
        } else {
            Err(Error::KeyExchange)
        }
    }
}
