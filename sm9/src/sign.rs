//! Digital signatures (GM/T 0044.2 §6; GB/T 38635.2 §6.2–6.5).
//!
//! Signing (A1–A7), with `g = e(P1, Ppub-s)` precomputed in a
//! [`PreparedSignMasterPublicKey`](crate::PreparedSignMasterPublicKey):
//!
//! * A2 `r` uniform in `[1, n − 1]`; A3 `w = g^r`; A4 `h = H2(M ‖ w, n)`;
//! * A5 `l = (r − h) mod n`, back to A2 if `l = 0`; A6 `S = [l]dsA`; A7 output `(h, S)`.
//!
//! Verification (B1–B9): `h ∈ [1, n − 1]` and `S ∈ G1` (checked when decoding), `t = g^h`,
//! `h1 = H1(IDA ‖ hid, n)`, `P = [h1]P2 + Ppub-s`, `u = e(S, P)`, `w' = u · t`, accept iff
//! `H2(M ‖ w', n) = h`. By bilinearity `w' = e([h1]S, P2) · e(S + [h]P1, Ppub-s)`, which this
//! crate evaluates with one multi-Miller loop over precomputed lines (see `VerifyJob`).
//!
//! The message is hashed first in `H2(M ‖ w)`, so [`Signer`] and [`Verifier`] take it in chunks
//! before `w` is known.

use alloc::vec::Vec;

use der::{Decode, Encode};
use rand_core::CryptoRng;
use sm_field::{Backend, Job};
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use crate::asn1::{bit_string, bit_string_bytes, octet_string, SignatureAsn1};
use crate::generic::{PreparedSignMasterPublicKey, Scalar, SignUserKey};
use crate::groups::{
    g1_from_bytes, g1_to_bytes, mul_p1_vartime, with_p2_prepared, G1Affine, G1Jacobian, G2Prepared,
    Gt,
};
use crate::hash::{h1_in, HashToRange, H2_PREFIX};
use crate::keys::{scalar_from_bytes, Nonces, RandomNonces, HID_SIGN};
use crate::signing_key::SigningKey;
use crate::{Error, Result};

/// Length of a signature's `h ‖ S` form.
const SIGNATURE_LEN: usize = 97;

/// An SM9 signature `(h, S)`: `h ∈ [1, n − 1]`, `S ∈ G1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature<B: Backend> {
    pub(crate) h: Scalar<B>,
    pub(crate) s: G1Affine<B>,
}

impl<B: Backend> Signature<B> {
    /// Length of [`to_bytes`](Self::to_bytes): `h` (32) ‖ `S` (65, `04 ‖ x ‖ y`).
    pub const BYTE_LEN: usize = SIGNATURE_LEN;

    /// The same signature on the backend `B2` (a limb copy), inside dispatched jobs.
    pub(crate) fn to_backend<B2: Backend>(self) -> Signature<B2> {
        Signature {
            h: self.h.to_backend(),
            s: self.s.to_backend(),
        }
    }

    /// Builds a signature from `h` (32 bytes) and `S` (`04 ‖ x ‖ y`), checking `h ∈ [1, n − 1]`
    /// and `S ∈ G1`.
    pub fn from_parts(h: &[u8], s: &[u8]) -> Result<Self> {
        let h: &[u8; 32] = h.try_into().map_err(|_| Error::Encoding)?;
        Ok(Self {
            h: scalar_from_bytes(h)?,
            s: g1_from_bytes(s)?,
        })
    }

    /// `h` as 32 bytes big-endian.
    pub fn h_bytes(&self) -> [u8; 32] {
        self.h.to_bytes()
    }

    /// `S` as `04 ‖ x ‖ y`.
    pub fn s_bytes(&self) -> [u8; 65] {
        g1_to_bytes(&self.s)
    }

    /// `h ‖ S` (97 bytes).
    pub fn to_bytes(&self) -> [u8; SIGNATURE_LEN] {
        let mut out = [0u8; SIGNATURE_LEN];
        out[..32].copy_from_slice(&self.h_bytes());
        out[32..].copy_from_slice(&self.s_bytes());
        out
    }

    /// Decodes `h ‖ S`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        if bytes.len() != Self::BYTE_LEN {
            return Err(Error::Encoding);
        }
        Self::from_parts(&bytes[..32], &bytes[32..])
    }

    /// GM/T 0080 `SM9Signature ::= SEQUENCE { h OCTET STRING, S BIT STRING }` (104 bytes).
    pub fn to_der(&self) -> Result<Vec<u8>> {
        let h = self.h_bytes();
        let s = self.s_bytes();
        Ok(SignatureAsn1 {
            h: octet_string(&h)?,
            s: bit_string(&s)?,
        }
        .to_der()?)
    }

    /// Decodes [`to_der`](Self::to_der)'s format (strict DER, no trailing bytes).
    pub fn from_der(der: &[u8]) -> Result<Self> {
        let a = SignatureAsn1::from_der(der)?;
        Self::from_parts(a.h.as_bytes(), bit_string_bytes(&a.s)?)
    }
}

/// Checks that a user key belongs to a master public key.
fn check_key<B: Backend>(
    key: &SignUserKey<B>,
    master: &PreparedSignMasterPublicKey<B>,
) -> Result<()> {
    if key.ppub == master.public.ppub {
        Ok(())
    } else {
        Err(Error::KeyMismatch)
    }
}

/// The user key a [`Signer`] uses: plain, or prepared with a comb table of `ds`.
#[derive(Clone, Copy)]
enum KeyRef<'a, B: Backend> {
    Plain(&'a SignUserKey<B>),
    Prepared(&'a SigningKey<B>),
}

/// Incremental signer: feed the message with [`update`](Self::update), then [`sign`](Self::sign).
#[derive(Clone)]
pub struct Signer<'a, B: Backend> {
    key: KeyRef<'a, B>,
    master: &'a PreparedSignMasterPublicKey<B>,
    hash: HashToRange,
}

impl<'a, B: Backend> Signer<'a, B> {
    /// Starts signing with `key` under `master` (the master public key the key was extracted
    /// for; [`Error::KeyMismatch`] otherwise).
    pub fn new(
        key: &'a SignUserKey<B>,
        master: &'a PreparedSignMasterPublicKey<B>,
    ) -> Result<Self> {
        check_key(key, master)?;
        Ok(Self {
            key: KeyRef::Plain(key),
            master,
            hash: HashToRange::new(H2_PREFIX),
        })
    }

    /// [`new`](Self::new) with a prepared [`SigningKey`] (faster step A6).
    pub fn with_prepared(
        key: &'a SigningKey<B>,
        master: &'a PreparedSignMasterPublicKey<B>,
    ) -> Result<Self> {
        check_key(&key.key, master)?;
        Ok(Self {
            key: KeyRef::Prepared(key),
            master,
            hash: HashToRange::new(H2_PREFIX),
        })
    }

    /// Appends a chunk of the message.
    pub fn update(&mut self, chunk: &[u8]) -> &mut Self {
        self.hash.update(chunk);
        self
    }

    /// Signs the message with a fresh nonce from `rng`.
    pub fn sign(self, rng: &mut impl CryptoRng) -> Signature<B> {
        self.sign_with_nonces(RandomNonces(rng))
            .expect("random nonces are retried")
    }

    /// Steps A2–A6 as one dispatched job ([`Backend::dispatch`]), nonces drawn inside it;
    /// [`Error::InvalidScalar`] for a fixed nonce out of range or with `l = 0`.
    pub(crate) fn sign_with_nonces(&self, nonces: impl Nonces) -> Result<Signature<B>> {
        B::dispatch(SignJob {
            signer: self,
            nonces,
        })
    }
}

/// [`Signer::sign_with_nonces`]'s job: everything from the nonce to `S` on the backend
/// [`Backend::dispatch`] picks, the GT table and the comb of `ds` read in place.
struct SignJob<'s, 'a, B: Backend, N> {
    signer: &'s Signer<'a, B>,
    nonces: N,
}

impl<B: Backend, N: Nonces> Job for SignJob<'_, '_, B, N> {
    type Output = Result<Signature<B>>;
    fn run<B2: Backend>(mut self) -> Self::Output {
        loop {
            let mut r = self.nonces.draw::<B2>()?;
            let sig = sign_on(self.signer, &r);
            r.zeroize();
            match sig {
                Some(sig) => return Ok(sig),
                None if N::RETRY => continue,
                None => return Err(Error::InvalidScalar),
            }
        }
    }
}

/// Steps A3–A6 on backend `B2` for a given nonce; `None` when `l = 0`.
fn sign_on<B: Backend, B2: Backend>(
    signer: &Signer<'_, B>,
    r: &Scalar<B2>,
) -> Option<Signature<B>> {
    // A3: w = g^r (constant time in r).
    let w = signer.master.g_pow(r);
    // A4: h = H2(M ‖ w, n).
    let mut hash = signer.hash.clone();
    hash.update(&w.to_bytes());
    let h: Scalar<B2> = hash.finalize();
    // A5: l = (r − h) mod n.
    let mut l = *r - h;
    if bool::from(l.is_zero()) {
        return None;
    }
    // A6: S = [l]dsA (constant time in l and dsA).
    let s = match signer.key {
        KeyRef::Plain(k) => {
            let mut d = k.d.to_backend::<B2>();
            let s = G1Jacobian::from(d).mul_endo(&l);
            d.zeroize();
            s
        }
        KeyRef::Prepared(k) => k.mul_ds(&l),
    }
    .to_affine();
    l.zeroize();
    Some(Signature {
        h: h.to_backend(),
        s: s.to_backend(),
    })
}

/// Signs `message` (one shot).
///
/// ```
/// let mut rng = rand_core::UnwrapErr(getrandom::SysRng); // the OS RNG
/// let kgc = shangmi_sm9::SignMasterKey::generate(&mut rng);
/// let master = kgc.public_key().prepare();
/// let alice = kgc.extract(b"Alice").unwrap();
/// let sig = shangmi_sm9::sign(&alice, &master, b"message", &mut rng).unwrap();
/// assert!(shangmi_sm9::verify(&master, b"Alice", b"message", &sig).is_ok());
/// assert_eq!(shangmi_sm9::verify(&master, b"Bob", b"message", &sig), Err(shangmi_sm9::Error::Verification));
/// ```
pub fn sign<B: Backend>(
    key: &SignUserKey<B>,
    master: &PreparedSignMasterPublicKey<B>,
    message: &[u8],
    rng: &mut impl CryptoRng,
) -> Result<Signature<B>> {
    let mut s = Signer::new(key, master)?;
    s.update(message);
    Ok(s.sign(rng))
}

/// Signs `message` (one shot) with a prepared [`SigningKey`].
///
/// ```
/// let mut rng = rand_core::UnwrapErr(getrandom::SysRng); // the OS RNG
/// let kgc = shangmi_sm9::SignMasterKey::generate(&mut rng);
/// let master = kgc.public_key().prepare();
/// let alice = kgc.extract(b"Alice").unwrap().prepare(); // comb table of ds, built once
/// let sig = shangmi_sm9::sign_prepared(&alice, &master, b"message", &mut rng).unwrap();
/// assert!(shangmi_sm9::verify(&master, b"Alice", b"message", &sig).is_ok());
/// ```
pub fn sign_prepared<B: Backend>(
    key: &SigningKey<B>,
    master: &PreparedSignMasterPublicKey<B>,
    message: &[u8],
    rng: &mut impl CryptoRng,
) -> Result<Signature<B>> {
    let mut s = Signer::with_prepared(key, master)?;
    s.update(message);
    Ok(s.sign(rng))
}

/// Incremental verifier: feed the message with [`update`](Self::update), then
/// [`verify`](Self::verify).
#[derive(Clone)]
pub struct Verifier<'a, B: Backend> {
    master: &'a PreparedSignMasterPublicKey<B>,
    id: &'a [u8],
    hid: u8,
    signature: Signature<B>,
    hash: HashToRange,
}

impl<'a, B: Backend> Verifier<'a, B> {
    /// Starts verifying `signature` by `id` (hid = 0x01) under `master`.
    pub fn new(
        master: &'a PreparedSignMasterPublicKey<B>,
        id: &'a [u8],
        signature: &Signature<B>,
    ) -> Self {
        Self::with_hid(master, id, HID_SIGN, signature)
    }

    /// [`new`](Self::new) for another `hid` byte.
    pub fn with_hid(
        master: &'a PreparedSignMasterPublicKey<B>,
        id: &'a [u8],
        hid: u8,
        signature: &Signature<B>,
    ) -> Self {
        Self {
            master,
            id,
            hid,
            signature: *signature,
            hash: HashToRange::new(H2_PREFIX),
        }
    }

    /// Appends a chunk of the message.
    pub fn update(&mut self, chunk: &[u8]) -> &mut Self {
        self.hash.update(chunk);
        self
    }

    /// Steps B3–B9; [`Error::Verification`] on any mismatch.
    pub fn verify(self) -> Result<()> {
        verify_dispatched(
            self.master,
            self.hash,
            &self.signature,
            H1::Id(self.id, self.hid),
        )
    }
}

/// `h1` of a verification: hashed from the identity inside the job, or already known (the
/// batch verifier's cache).
#[derive(Clone, Copy)]
pub(crate) enum H1<'a, B: Backend> {
    /// `H1(ID ‖ hid, n)` of this identity and `hid`.
    Id(&'a [u8], u8),
    /// A computed `h1`.
    Known(&'a Scalar<B>),
}

/// Steps B3–B9 as one dispatched job ([`Backend::dispatch`]; the lines of P2 are looked up, and
/// on first use built, before it).
pub(crate) fn verify_dispatched<B: Backend>(
    master: &PreparedSignMasterPublicKey<B>,
    hash: HashToRange,
    signature: &Signature<B>,
    h1: H1<'_, B>,
) -> Result<()> {
    with_p2_prepared::<B, _>(|p2| {
        B::dispatch(VerifyJob {
            master,
            p2,
            hash,
            signature,
            h1,
        })
    })
}

/// [`verify_dispatched`]'s job.
struct VerifyJob<'a, B: Backend> {
    master: &'a PreparedSignMasterPublicKey<B>,
    p2: &'a G2Prepared<B>,
    hash: HashToRange,
    signature: &'a Signature<B>,
    h1: H1<'a, B>,
}

impl<B: Backend> Job for VerifyJob<'_, B> {
    type Output = Result<()>;

    /// `w' = e(S, [h1]P2 + Ppub-s) · e(P1, Ppub-s)^h` is evaluated by bilinearity as
    /// `e([h1]S, P2) · e(S + [h]P1, Ppub-s)`: one two-term Miller loop over the *prepared*
    /// lines of the fixed points P2 and Ppub-s and one final exponentiation, with no G2
    /// arithmetic and no GT exponentiation (all inputs are public).
    fn run<B2: Backend>(self) -> Result<()> {
        let h1 = match self.h1 {
            H1::Id(id, hid) => h1_in::<B2>(id, hid),
            H1::Known(h1) => h1.to_backend(),
        };
        let signature = self.signature.to_backend::<B2>();
        let mut aff = [G1Affine::IDENTITY; 2];
        G1Jacobian::batch_to_affine(&verify_points(&signature, &h1), &mut aff);
        let f = sm_pairing::multi_miller_loop_prepared_on(&[
            (aff[0], self.p2.on_backend::<B2>()),
            (aff[1], self.master.ppub_lines().on_backend::<B2>()),
        ]);
        // The final exponentiation on the pure `B2` runs in place.
        let w = sm_pairing::final_exponentiation(&f);
        verify_tail(self.hash, &w, &signature)
    }
}

/// The G1 points of [`VerifyJob`]'s pairing product: `[h1]S` (paired with P2) and
/// `S + [h]P1` (paired with Ppub-s), Jacobian (callers convert many at once). Variable time
/// (public inputs).
pub(crate) fn verify_points<B: Backend>(
    signature: &Signature<B>,
    h1: &Scalar<B>,
) -> [G1Jacobian<B>; 2] {
    let s = G1Jacobian::from(signature.s);
    [
        s.mul_endo_vartime(h1),
        s.add_vartime(&mul_p1_vartime(&signature.h)),
    ]
}

/// Steps B8–B9: `h2 = H2(M ‖ w', n)` (the message is already in `hash`), accept iff `h2 = h`.
pub(crate) fn verify_tail<B: Backend>(
    mut hash: HashToRange,
    w: &Gt<B>,
    signature: &Signature<B>,
) -> Result<()> {
    hash.update(&w.to_bytes());
    let h2: Scalar<B> = hash.finalize();
    if bool::from(h2.ct_eq(&signature.h)) {
        Ok(())
    } else {
        Err(Error::Verification)
    }
}

/// Verifies `signature` on `message` by `id` (hid = 0x01) under `master` (one shot).
pub fn verify<B: Backend>(
    master: &PreparedSignMasterPublicKey<B>,
    id: &[u8],
    message: &[u8],
    signature: &Signature<B>,
) -> Result<()> {
    let mut v = Verifier::new(master, id, signature);
    v.update(message);
    v.verify()
}

/// A user's signing key bound to the master public key it was extracted for, as a RustCrypto
/// [`signature::RandomizedSigner`].
///
/// ```
/// let mut rng = rand_core::UnwrapErr(getrandom::SysRng); // the OS RNG
/// use signature::{RandomizedSigner, Verifier};
/// let kgc = shangmi_sm9::SignMasterKey::generate(&mut rng);
/// let master = kgc.public_key().prepare();
/// let alice = kgc.extract(b"Alice").unwrap();
/// let signer = shangmi_sm9::IdentitySigner::new(&alice, &master).unwrap();
/// let sig: shangmi_sm9::Signature = signer.sign_with_rng(&mut rng, b"message");
/// let verifier = shangmi_sm9::IdentityVerifier::new(&master, b"Alice");
/// assert!(verifier.verify(b"message", &sig).is_ok());
/// assert!(shangmi_sm9::IdentityVerifier::new(&master, b"Bob").verify(b"message", &sig).is_err());
/// ```
#[derive(Clone, Copy)]
pub struct IdentitySigner<'a, B: Backend> {
    key: KeyRef<'a, B>,
    master: &'a PreparedSignMasterPublicKey<B>,
}

impl<'a, B: Backend> IdentitySigner<'a, B> {
    /// Binds `key` to `master` ([`Error::KeyMismatch`] if it was extracted under another one).
    pub fn new(
        key: &'a SignUserKey<B>,
        master: &'a PreparedSignMasterPublicKey<B>,
    ) -> Result<Self> {
        check_key(key, master)?;
        Ok(Self {
            key: KeyRef::Plain(key),
            master,
        })
    }

    /// [`new`](Self::new) with a prepared [`SigningKey`] (faster step A6).
    pub fn with_prepared(
        key: &'a SigningKey<B>,
        master: &'a PreparedSignMasterPublicKey<B>,
    ) -> Result<Self> {
        check_key(&key.key, master)?;
        Ok(Self {
            key: KeyRef::Prepared(key),
            master,
        })
    }
}

impl<B: Backend> signature::RandomizedSigner<Signature<B>> for IdentitySigner<'_, B> {
    /// An RNG failure is an error, never a signature.
    fn try_sign_with_rng<R: rand_core::TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> core::result::Result<Signature<B>, signature::Error> {
        let mut s = Signer {
            key: self.key,
            master: self.master,
            hash: HashToRange::new(H2_PREFIX),
        };
        s.update(msg);
        let mut rng = sm_field::RecordingRng::new(rng);
        let sig = s.sign(&mut rng);
        if rng.failed() {
            return Err(signature::Error::new());
        }
        Ok(sig)
    }
}

/// A signer's identity (hid = 0x01) under a master public key, as a RustCrypto
/// [`signature::Verifier`]; see [`IdentitySigner`] for an example. Failures carry no detail.
#[derive(Clone, Copy)]
pub struct IdentityVerifier<'a, B: Backend> {
    master: &'a PreparedSignMasterPublicKey<B>,
    id: &'a [u8],
}

impl<'a, B: Backend> IdentityVerifier<'a, B> {
    /// The verifier of signatures by `id` under `master`.
    pub fn new(master: &'a PreparedSignMasterPublicKey<B>, id: &'a [u8]) -> Self {
        Self { master, id }
    }
}

impl<B: Backend> signature::Verifier<Signature<B>> for IdentityVerifier<'_, B> {
    fn verify(&self, msg: &[u8], sig: &Signature<B>) -> core::result::Result<(), signature::Error> {
        verify(self.master, self.id, msg, sig).map_err(|_| signature::Error::new())
    }
}

/// Hashes the canonical encoding `h ‖ S` (consistent with `Eq`).
impl<B: Backend> core::hash::Hash for Signature<B> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.to_bytes().hash(state);
    }
}

impl<B: Backend> signature::SignatureEncoding for Signature<B> {
    type Repr = [u8; SIGNATURE_LEN];
}

impl<B: Backend> TryFrom<&[u8]> for Signature<B> {
    type Error = signature::Error;

    /// Decodes `h ‖ S` (97 bytes), as [`Signature::from_bytes`].
    fn try_from(bytes: &[u8]) -> core::result::Result<Self, signature::Error> {
        Self::from_bytes(bytes).map_err(|_| signature::Error::new())
    }
}

impl<B: Backend> From<Signature<B>> for [u8; SIGNATURE_LEN] {
    fn from(sig: Signature<B>) -> Self {
        sig.to_bytes()
    }
}
