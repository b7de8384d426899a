//! SM2 digital signatures (GB/T 32918.2-2016 §6–§7).
//!
//! Signing (§6.1): A1 M̄ = Z_A ‖ M; A2 e = H(M̄); A3 k ∈ [1, n−1]; A4 (x1, y1) = k·G;
//! A5 r = (e + x1) mod n, retry if r = 0 or r + k = n; A6 s = (1 + d)⁻¹·(k − r·d) mod n,
//! retry if s = 0; A7 the signature is (r, s).
//!
//! Verification (§7.1): B1–B2 r, s ∈ [1, n−1]; B3–B4 e = H(Z_A ‖ M′); B5 t = (r + s) mod n ≠ 0;
//! B6 (x1, y1) = s·G + t·P_A; B7 accept iff (e + x1) mod n = r.

/// How verifying keys share their precomputed table: reference counted where the target has
/// pointer-sized atomics; elsewhere (e.g. `thumbv6m-none-eabi`, which has no `alloc::sync`) a
/// box, so that cloning such a key copies its table.
#[cfg(target_has_atomic = "ptr")]
type Shared<T> = alloc::sync::Arc<T>;
#[cfg(not(target_has_atomic = "ptr"))]
type Shared<T> = alloc::boxed::Box<T>;
use alloc::vec::Vec;
use core::fmt;

use rand_core::{CryptoRng, TryCryptoRng};
use sm3::hmac::Mac;
use sm3::HmacSm3;
use sm_curve::{CombTable, CurveParams, PrecomputedTable};
use sm_field::{Backend, DefaultBackend, Fp, Job, Modulus, RecordingRng, Sm2N, Sm2P, U64};
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

use crate::keys::{PublicKey, SecretKey};
use crate::za::{compute_za, message_digest, DEFAULT_ID};
use crate::{AffinePoint, Curve, Error, Scalar};

/// An SM2 signature `(r, s)` with `r, s ∈ [1, n − 1]` (checked on construction).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Signature {
    r: [u8; 32],
    s: [u8; 32],
}

fn scalar_in_1_nm1(b: &[u8; 32]) -> bool {
    let v: Option<Fp<Sm2N, U64>> = Fp::from_bytes(b).into();
    matches!(v, Some(v) if !bool::from(v.is_zero()))
}

impl Signature {
    /// Raw length `r ‖ s`.
    pub const BYTE_SIZE: usize = 64;

    /// From 32-byte big-endian `r` and `s`; fails unless both are in `[1, n − 1]`.
    pub fn from_scalars(r: &[u8; 32], s: &[u8; 32]) -> Result<Self, Error> {
        if scalar_in_1_nm1(r) && scalar_in_1_nm1(s) {
            Ok(Self { r: *r, s: *s })
        } else {
            Err(Error::InvalidSignature)
        }
    }

    /// From the raw 64-byte `r ‖ s`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        if bytes.len() != 64 {
            return Err(Error::InvalidSignature);
        }
        let r: &[u8; 32] = bytes[..32].try_into().expect("32");
        let s: &[u8; 32] = bytes[32..].try_into().expect("32");
        Self::from_scalars(r, s)
    }

    /// `r ‖ s`.
    pub fn to_bytes(&self) -> [u8; 64] {
        let mut out = [0u8; 64];
        out[..32].copy_from_slice(&self.r);
        out[32..].copy_from_slice(&self.s);
        out
    }

    /// `r` (32 bytes, big-endian).
    pub fn r(&self) -> &[u8; 32] {
        &self.r
    }

    /// `s` (32 bytes, big-endian).
    pub fn s(&self) -> &[u8; 32] {
        &self.s
    }

    /// `SEQUENCE { r INTEGER, s INTEGER }` in DER (GM/T 0009 §7.3; minimal INTEGERs).
    pub fn to_der(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(72);
        let ri = der_integer(&self.r);
        let si = der_integer(&self.s);
        out.push(0x30);
        out.push((ri.len() + si.len()) as u8);
        out.extend_from_slice(&ri);
        out.extend_from_slice(&si);
        out
    }

    /// Strict DER: minimal lengths, minimal non-negative INTEGERs, nothing after the SEQUENCE.
    pub fn from_der(bytes: &[u8]) -> Result<Self, Error> {
        Self::parse_der(bytes, true)
    }

    /// Lenient BER-style decoding as some old encoders produce: accepts non-minimal (long-form)
    /// lengths and redundant leading zero bytes in the INTEGERs. Still rejects negative values,
    /// values of more than 32 significant bytes, trailing data, and out-of-range `r`, `s`.
    pub fn from_der_lenient(bytes: &[u8]) -> Result<Self, Error> {
        Self::parse_der(bytes, false)
    }

    fn parse_der(bytes: &[u8], strict: bool) -> Result<Self, Error> {
        let e = Error::InvalidSignature;
        let (body, rest) = der_tlv(bytes, 0x30, strict).ok_or(e)?;
        if !rest.is_empty() {
            return Err(e);
        }
        let (ri, body) = der_tlv(body, 0x02, strict).ok_or(e)?;
        let (si, body) = der_tlv(body, 0x02, strict).ok_or(e)?;
        if !body.is_empty() {
            return Err(e);
        }
        let r = der_uint32(ri, strict).ok_or(e)?;
        let s = der_uint32(si, strict).ok_or(e)?;
        Self::from_scalars(&r, &s)
    }
}

/// DER INTEGER encoding of a 32-byte unsigned big-endian value.
fn der_integer(v: &[u8; 32]) -> Vec<u8> {
    let start = v.iter().position(|&b| b != 0).unwrap_or(31);
    let body = &v[start..];
    let pad = body[0] & 0x80 != 0;
    let mut out = Vec::with_capacity(35);
    out.push(0x02);
    out.push((body.len() + pad as usize) as u8);
    if pad {
        out.push(0);
    }
    out.extend_from_slice(body);
    out
}

/// One TLV with the given tag; returns (value, rest). Strict mode demands minimal lengths.
pub(crate) fn der_tlv(bytes: &[u8], tag: u8, strict: bool) -> Option<(&[u8], &[u8])> {
    let (&t, rest) = bytes.split_first()?;
    if t != tag {
        return None;
    }
    let (&l0, mut rest) = rest.split_first()?;
    let len = if l0 < 0x80 {
        l0 as usize
    } else {
        let n = (l0 & 0x7f) as usize;
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let mut len = 0usize;
        for &b in &rest[..n] {
            len = (len << 8) | b as usize;
        }
        if strict && (len < 0x80 || rest[0] == 0) {
            return None;
        }
        rest = &rest[n..];
        len
    };
    if rest.len() < len {
        return None;
    }
    Some(rest.split_at(len))
}

/// A non-negative INTEGER body as 32 big-endian bytes.
fn der_uint32(body: &[u8], strict: bool) -> Option<[u8; 32]> {
    if body.is_empty() || body[0] & 0x80 != 0 {
        return None;
    }
    if strict && body.len() > 1 && body[0] == 0 && body[1] & 0x80 == 0 {
        return None;
    }
    let start = body.iter().position(|&b| b != 0).unwrap_or(body.len());
    let sig = &body[start..];
    if sig.len() > 32 {
        return None;
    }
    let mut out = [0u8; 32];
    out[32 - sig.len()..].copy_from_slice(sig);
    Some(out)
}

impl fmt::Debug for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Signature(")?;
        for b in self.to_bytes() {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

impl TryFrom<&[u8]> for Signature {
    type Error = signature::Error;
    fn try_from(b: &[u8]) -> Result<Self, signature::Error> {
        Self::from_bytes(b).map_err(Into::into)
    }
}

impl From<Signature> for [u8; 64] {
    fn from(s: Signature) -> [u8; 64] {
        s.to_bytes()
    }
}

impl signature::SignatureEncoding for Signature {
    type Repr = [u8; 64];
}

/// Where the per-signature nonce comes from.
enum Nonce<'a> {
    /// Uniformly random from the RNG.
    Random(&'a mut dyn CryptoRng),
    /// HMAC-SM3 DRBG over (d, e) plus 32 fresh bytes from the RNG (hedged).
    Hedged(&'a mut dyn CryptoRng),
    /// HMAC-SM3 DRBG over (d, e) only (deterministic).
    Deterministic,
    /// The caller's (known-answer tests): no second draw.
    Fixed(&'a [u8; 32]),
}

/// A signing key: the secret key with `Z_A` and `(1 + d)⁻¹` cached.
#[derive(Clone)]
pub struct SigningKey<B: Backend = DefaultBackend> {
    secret: SecretKey<B>,
    /// (1 + d)⁻¹ mod n
    dinv1: Scalar<B>,
    /// d·(1 + d)⁻¹ mod n, so s = k·(1 + d)⁻¹ − r·d·(1 + d)⁻¹
    d_dinv1: Scalar<B>,
    verifying_key: VerifyingKey<B>,
}

impl<B: Backend> SigningKey<B> {
    /// With the default ID `1234567812345678`.
    pub fn new(secret: &SecretKey<B>) -> Self {
        Self::with_id(secret, DEFAULT_ID).expect("default ID is short")
    }

    /// With a distinguishing ID (any bytes up to 8191; empty is allowed).
    pub fn with_id(secret: &SecretKey<B>, id: &[u8]) -> Result<Self, Error> {
        /// `(1 + d)⁻¹` and `d·(1 + d)⁻¹` on the pure backend.
        struct Inverse<'a, B: Backend>(&'a Scalar<B>);
        impl<B: Backend> Job for Inverse<'_, B> {
            type Output = (Scalar<B>, Scalar<B>);
            fn run<B2: Backend>(self) -> Self::Output {
                let mut d = self.0.to_backend::<B2>();
                // 1 + d ≠ 0 since d ≤ n − 2.
                let dinv1 = (d + Fp::ONE).invert().unwrap();
                let out = (dinv1.to_backend(), (d * dinv1).to_backend());
                d.zeroize();
                out
            }
        }
        let verifying_key = VerifyingKey::with_id(secret.public_key(), id)?;
        let (dinv1, d_dinv1) = B::dispatch(Inverse(secret.scalar()));
        Ok(Self {
            secret: secret.clone(),
            dinv1,
            d_dinv1,
            verifying_key,
        })
    }

    /// A fresh random key with the default ID.
    pub fn random(rng: &mut impl CryptoRng) -> Self {
        Self::new(&SecretKey::random(rng))
    }

    /// The secret key.
    pub fn secret_key(&self) -> &SecretKey<B> {
        &self.secret
    }

    /// The matching verifying key (same ID).
    pub fn verifying_key(&self) -> &VerifyingKey<B> {
        &self.verifying_key
    }

    /// `Z_A` of this key and ID.
    pub fn za(&self) -> &[u8; 32] {
        &self.verifying_key.za
    }

    /// Signs `msg` with a uniformly random nonce (GB/T 32918.2 §6.1 A3), as
    /// [`signature::RandomizedSigner::sign_with_rng`] does. (Named apart from
    /// [`signature::Signer::sign`], which takes no RNG and is deterministic.)
    pub fn sign_with_rng(&self, rng: &mut impl CryptoRng, msg: &[u8]) -> Signature {
        let e = message_digest(&self.verifying_key.za, msg);
        self.sign_prehash_inner(&e, Nonce::Random(rng))
    }

    /// Signs `msg` with a hedged nonce: HMAC-SM3 DRBG (RFC 6979 §3.2 construction) keyed by
    /// `d` and `e`, with 32 fresh random bytes as additional input. Safe even with a weak RNG
    /// (never repeats a nonce for different messages) and resists fault attacks better than a
    /// purely deterministic nonce.
    pub fn sign_hedged(&self, rng: &mut impl CryptoRng, msg: &[u8]) -> Signature {
        let e = message_digest(&self.verifying_key.za, msg);
        self.sign_prehash_inner(&e, Nonce::Hedged(rng))
    }

    /// Signs `msg` with a deterministic nonce (RFC 6979 §3.2 with HMAC-SM3, no randomness).
    pub fn sign_deterministic(&self, msg: &[u8]) -> Signature {
        let e = message_digest(&self.verifying_key.za, msg);
        self.sign_prehash_inner(&e, Nonce::Deterministic)
    }

    /// Signs a caller-computed `e = SM3(Z_A ‖ M)` with a random nonce.
    pub fn sign_prehash_with_rng(&self, rng: &mut impl CryptoRng, e: &[u8; 32]) -> Signature {
        self.sign_prehash_inner(e, Nonce::Random(rng))
    }

    /// Signs `e` with the caller's nonce `k` (for known-answer tests; reusing or leaking `k`
    /// reveals the private key). Fails if `k ∉ [1, n−1]` or it yields `r = 0`, `r + k = n`,
    /// or `s = 0`.
    pub fn sign_prehash_with_nonce(&self, e: &[u8; 32], k: &[u8; 32]) -> Result<Signature, Error> {
        B::dispatch(SignJob {
            key: self,
            e,
            nonce: Nonce::Fixed(k),
        })
        .ok_or(Error::InvalidSecretKey)
    }

    /// Steps A3–A6 as one dispatched job: with a drawn nonce the signature (the job draws again
    /// until one succeeds); with [`Nonce::Fixed`], `None` if the nonce is not in [1, n − 1] or
    /// yields r = 0, r + k = n or s = 0.
    fn sign_prehash_inner(&self, e: &[u8; 32], nonce: Nonce<'_>) -> Signature {
        B::dispatch(SignJob {
            key: self,
            e,
            nonce,
        })
        .expect("a drawn nonce is drawn again until it signs")
    }

    /// Steps A4–A6 on `B2`, inside a job: `x1` of `k·G` if the caller has it (the multi-buffer
    /// signer computes it in lanes), else computed here; `None` when r = 0, r + k = n or s = 0.
    pub(crate) fn finish_on<B2: Backend>(
        &self,
        e: &Scalar<B2>,
        k: &Scalar<B2>,
        x1: Option<&Fp<Sm2P, B2>>,
    ) -> Option<Signature> {
        let mut dinv1 = self.dinv1.to_backend::<B2>();
        let mut d_dinv1 = self.d_dinv1.to_backend::<B2>();
        let x1 = x1
            .copied()
            .unwrap_or_else(|| Curve::<B2>::mul_generator(k).to_affine().x());
        let sig = finish_signature(e, k, &x1, &dinv1, &d_dinv1);
        dinv1.zeroize();
        d_dinv1.zeroize();
        sig
    }
}

/// Steps A5–A6 given `x1` and the key's `(1 + d)⁻¹` and `d·(1 + d)⁻¹`; `None` when r = 0,
/// r + k = n or s = 0.
fn finish_signature<B: Backend>(
    e: &Scalar<B>,
    k: &Scalar<B>,
    x1: &Fp<Sm2P, B>,
    dinv1: &Scalar<B>,
    d_dinv1: &Scalar<B>,
) -> Option<Signature> {
    let r = *e + Scalar::<B>::from_bytes_reduced(&x1.to_bytes());
    let s = *dinv1 * k - r * d_dinv1;
    // These checks leak only that a (negligibly likely) retry happened.
    let bad = r.is_zero() | (r + k).is_zero() | s.is_zero();
    if bool::from(bad) {
        return None;
    }
    Some(Signature {
        r: r.to_bytes(),
        s: s.to_bytes(),
    })
}

/// Steps A3–A6 of [`SigningKey::sign_prehash_inner`] on the backend [`Backend::dispatch`] picks.
struct SignJob<'a, 'n, B: Backend> {
    key: &'a SigningKey<B>,
    e: &'a [u8; 32],
    nonce: Nonce<'n>,
}

impl<B: Backend> Job for SignJob<'_, '_, B> {
    type Output = Option<Signature>;
    fn run<B2: Backend>(self) -> Option<Signature> {
        let e = self.e;
        let e_scalar = Scalar::<B2>::from_bytes_reduced(e);
        let mut d = self.key.secret.scalar().to_backend::<B2>();
        let mut nonce = self.nonce;
        let mut counter = 0u32;
        let sig = loop {
            let mut k = match &mut nonce {
                Nonce::Random(rng) => Scalar::<B2>::random(rng),
                Nonce::Hedged(rng) => {
                    let mut extra = Zeroizing::new([0u8; 36]);
                    rng.fill_bytes(&mut extra[..32]);
                    extra[32..].copy_from_slice(&counter.to_be_bytes());
                    drbg_nonce(&d, e, &extra[..])
                }
                Nonce::Deterministic => {
                    drbg_nonce(&d, e, &counter.to_be_bytes()[..counter.min(1) as usize * 4])
                }
                Nonce::Fixed(k) => Fp::from_bytes(k).unwrap_or(Scalar::ZERO),
            };
            counter += 1;
            let fixed = matches!(nonce, Nonce::Fixed(_));
            if bool::from(k.is_zero()) {
                if fixed {
                    break None;
                }
                continue;
            }
            let sig = self.key.finish_on(&e_scalar, &k, None);
            k.zeroize();
            if let Some(sig) = sig {
                break Some(sig);
            }
            if fixed {
                break None;
            }
        };
        d.zeroize();
        sig
    }
}

/// RFC 6979 §3.2 HMAC-DRBG instantiated with HMAC-SM3: seed = int2octets(d) ‖ bits2octets(e)
/// ‖ `extra`; returns the first candidate in `[1, n − 1]`.
fn drbg_nonce<B: Backend>(d: &Scalar<B>, e: &[u8; 32], extra: &[u8]) -> Scalar<B> {
    let x = Zeroizing::new(d.to_bytes());
    let h = Scalar::<B>::from_bytes_reduced(e).to_bytes();
    let mut k = Zeroizing::new([0u8; 32]);
    let mut v = Zeroizing::new([1u8; 32]);
    let hmac = |key: &[u8; 32], parts: &[&[u8]]| -> [u8; 32] {
        let mut m = <HmacSm3 as sm3::hmac::KeyInit>::new_from_slice(key).expect("any key length");
        for p in parts {
            m.update(p);
        }
        m.finalize().into_bytes().into()
    };
    for sep in [0u8, 1] {
        *k = hmac(&k, &[&v[..], &[sep], &x[..], &h, extra]);
        *v = hmac(&k, &[&v[..]]);
    }
    loop {
        *v = hmac(&k, &[&v[..]]);
        let cand: Option<Scalar<B>> = Fp::from_bytes(&v).into();
        if let Some(c) = cand {
            if !bool::from(c.is_zero()) {
                return c;
            }
        }
        *k = hmac(&k, &[&v[..], &[0u8]]);
        *v = hmac(&k, &[&v[..]]);
    }
}

/// A verifying key: the public key with `Z_A` cached, and optionally a precomputed comb table of
/// the public point (≈ 88 KB; makes verification about twice as fast).
#[derive(Clone)]
pub struct VerifyingKey<B: Backend = DefaultBackend> {
    public: PublicKey<B>,
    za: [u8; 32],
    table: Option<Shared<PrecomputedTable<Curve<B>>>>,
}

impl<B: Backend> VerifyingKey<B> {
    /// With the default ID `1234567812345678`.
    pub fn new(public: &PublicKey<B>) -> Self {
        Self::with_id(public, DEFAULT_ID).expect("default ID is short")
    }

    /// With a distinguishing ID (any bytes up to 8191; empty is allowed).
    pub fn with_id(public: &PublicKey<B>, id: &[u8]) -> Result<Self, Error> {
        Ok(Self {
            public: *public,
            za: compute_za(id, public)?,
            table: None,
        })
    }

    /// Builds the precomputed table of the public point (opt-in, for keys that verify often).
    pub fn with_precomputed_table(mut self) -> Self {
        /// The table built on the pure backend (limbs are the same on every backend).
        struct Build<'a, B: Backend>(&'a AffinePoint<B>);
        impl<B: Backend> Job for Build<'_, B> {
            type Output = PrecomputedTable<Curve<B>>;
            fn run<B2: Backend>(self) -> Self::Output {
                PrecomputedTable::new(&self.0.to_backend::<B2>()).to_backend()
            }
        }
        self.table = Some(Shared::new(B::dispatch(Build(self.public.as_affine()))));
        self
    }

    /// The public key.
    pub fn public_key(&self) -> &PublicKey<B> {
        &self.public
    }

    /// `Z_A` of this key and ID.
    pub fn za(&self) -> &[u8; 32] {
        &self.za
    }

    /// Verifies `sig` over `msg`.
    pub fn verify(&self, msg: &[u8], sig: &Signature) -> Result<(), Error> {
        self.verify_prehash(&message_digest(&self.za, msg), sig)
    }

    /// Verifies `sig` over a caller-computed `e = SM3(Z_A ‖ M)`.
    pub fn verify_prehash(&self, e: &[u8; 32], sig: &Signature) -> Result<(), Error> {
        B::dispatch(VerifyJob {
            public: self.public.as_affine(),
            table: self.table.as_deref(),
            e,
            sig,
        })
    }
}

/// Steps B1–B7 of [`VerifyingKey::verify_prehash`] on the backend [`Backend::dispatch`] picks.
struct VerifyJob<'a, B: Backend> {
    public: &'a AffinePoint<B>,
    table: Option<&'a PrecomputedTable<Curve<B>>>,
    e: &'a [u8; 32],
    sig: &'a Signature,
}

impl<B: Backend> Job for VerifyJob<'_, B> {
    type Output = Result<(), Error>;
    fn run<B2: Backend>(self) -> Result<(), Error> {
        let sig = self.sig;
        // B1–B2 hold by construction of `Signature`.
        let r: Scalar<B2> = Option::from(Fp::from_bytes(&sig.r)).ok_or(Error::Verification)?;
        let s: Scalar<B2> = Option::from(Fp::from_bytes(&sig.s)).ok_or(Error::Verification)?;
        let e = Scalar::<B2>::from_bytes_reduced(self.e);
        // B5
        let t = r + s;
        if bool::from(t.is_zero()) {
            return Err(Error::Verification);
        }
        // B6 (public data: variable time)
        let sg = Curve::<B2>::mul_generator_vartime(&s);
        let tp = match self.table {
            Some(tab) => tab.on_backend::<B2>().mul_vartime(&t),
            None => self.public.to_backend::<B2>().to_jacobian().mul_vartime(&t),
        };
        let p = sg.add_vartime(&tp);
        if bool::from(p.is_identity()) {
            return Err(Error::Verification);
        }
        // B7 without an inversion: x1 ≡ r − e (mod n) with x1 = X/Z² < p, so x1 ∈ {c, c + n}
        // for c = (r − e) mod n (c + n only if below p).
        let c = (r - e).to_bytes();
        let (x, _, z) = p.raw_coordinates();
        let z2 = z.square();
        let cf: Fp<Sm2P, B2> = Option::from(Fp::from_bytes(&c)).ok_or(Error::Verification)?;
        if bool::from(x.ct_eq(&(cf * z2))) {
            return Ok(());
        }
        if below_p_minus_n(&c) {
            let nf = Fp::<Sm2P, B2>::from_canonical_limbs_const(Sm2N::P);
            if bool::from(x.ct_eq(&((cf + nf) * z2))) {
                return Ok(());
            }
        }
        Err(Error::Verification)
    }
}

/// Whether the big-endian value `c` satisfies `c + n < p`.
pub(crate) fn below_p_minus_n(c: &[u8; 32]) -> bool {
    // p − n as little-endian limbs
    let (p, n) = (Sm2P::P, Sm2N::P);
    let mut d = [0u64; 4];
    let mut borrow = 0u64;
    for i in 0..4 {
        let (v, b1) = p[i].overflowing_sub(n[i]);
        let (v, b2) = v.overflowing_sub(borrow);
        d[i] = v;
        borrow = (b1 | b2) as u64;
    }
    let mut cl = [0u64; 4];
    for (i, l) in cl.iter_mut().enumerate() {
        *l = u64::from_be_bytes(c[24 - 8 * i..32 - 8 * i].try_into().expect("8"));
    }
    for i in (0..4).rev() {
        if cl[i] != d[i] {
            return cl[i] < d[i];
        }
    }
    false
}

impl<B: Backend> fmt::Debug for VerifyingKey<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VerifyingKey")
            .field("public", &self.public)
            .field("precomputed", &self.table.is_some())
            .finish()
    }
}

impl<B: Backend> fmt::Debug for SigningKey<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningKey")
            .field("verifying_key", &self.verifying_key)
            .finish_non_exhaustive()
    }
}

impl<B: Backend> Drop for SigningKey<B> {
    fn drop(&mut self) {
        self.dinv1.zeroize();
        self.d_dinv1.zeroize();
    }
}
impl<B: Backend> zeroize::ZeroizeOnDrop for SigningKey<B> {}

/// [`signature::Signer::sign`] is deterministic: the nonce is [`SigningKey::sign_deterministic`]'s
/// (RFC 6979 §3.2 construction with HMAC-SM3 over `d` and `e`), so signing the same message twice
/// gives the same signature. [`signature::RandomizedSigner::sign_with_rng`] draws a uniformly
/// random nonce, as [`SigningKey::sign_with_rng`] does.
impl<B: Backend> signature::Signer<Signature> for SigningKey<B> {
    fn try_sign(&self, msg: &[u8]) -> Result<Signature, signature::Error> {
        Ok(self.sign_deterministic(msg))
    }
}

/// Runs `f` on `rng` adapted to an infallible RNG; an RNG failure discards the result.
fn with_try_rng<R: TryCryptoRng + ?Sized, T>(
    rng: &mut R,
    f: impl FnOnce(&mut RecordingRng<'_, R>) -> T,
) -> Result<T, signature::Error> {
    let mut rng = RecordingRng::new(rng);
    let out = f(&mut rng);
    if rng.failed() {
        return Err(signature::Error::new());
    }
    Ok(out)
}

impl<B: Backend> signature::RandomizedSigner<Signature> for SigningKey<B> {
    /// Uniformly random nonce (same as [`SigningKey::sign_with_rng`]); an RNG failure is an
    /// error, never a signature.
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Signature, signature::Error> {
        with_try_rng(rng, |rng| SigningKey::sign_with_rng(self, rng, msg))
    }
}

impl<B: Backend> signature::hazmat::PrehashSigner<Signature> for SigningKey<B> {
    /// `prehash` is `e = SM3(Z_A ‖ M)` (exactly 32 bytes); deterministic nonce.
    fn sign_prehash(&self, prehash: &[u8]) -> Result<Signature, signature::Error> {
        let e: &[u8; 32] = prehash.try_into().map_err(|_| signature::Error::new())?;
        Ok(self.sign_prehash_inner(e, Nonce::Deterministic))
    }
}

impl<B: Backend> signature::hazmat::RandomizedPrehashSigner<Signature> for SigningKey<B> {
    /// `prehash` is `e = SM3(Z_A ‖ M)` (exactly 32 bytes); uniformly random nonce, as
    /// [`SigningKey::sign_prehash_with_rng`].
    fn sign_prehash_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        prehash: &[u8],
    ) -> Result<Signature, signature::Error> {
        let e: &[u8; 32] = prehash.try_into().map_err(|_| signature::Error::new())?;
        with_try_rng(rng, |rng| SigningKey::sign_prehash_with_rng(self, rng, e))
    }
}

impl<B: Backend> signature::Verifier<Signature> for VerifyingKey<B> {
    fn verify(&self, msg: &[u8], sig: &Signature) -> Result<(), signature::Error> {
        VerifyingKey::verify(self, msg, sig).map_err(Into::into)
    }
}

impl<B: Backend> signature::hazmat::PrehashVerifier<Signature> for VerifyingKey<B> {
    fn verify_prehash(&self, prehash: &[u8], sig: &Signature) -> Result<(), signature::Error> {
        let e: &[u8; 32] = prehash.try_into().map_err(|_| signature::Error::new())?;
        VerifyingKey::verify_prehash(self, e, sig).map_err(Into::into)
    }
}

impl<B: Backend> signature::Keypair for SigningKey<B> {
    type VerifyingKey = VerifyingKey<B>;
    fn verifying_key(&self) -> VerifyingKey<B> {
        self.verifying_key.clone()
    }
}
