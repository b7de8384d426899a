//! Key pairs: [`SecretKey`] (1 ≤ d ≤ n − 2, zeroized on drop) and [`PublicKey`] (a validated point).

use core::fmt;

use rand_core::CryptoRng;
use sm_curve::{Affine, CurveParams};
use sm_field::{Backend, DefaultBackend, Fp, Job, Sm2N};
use subtle::{ConstantTimeEq, CtOption};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::{AffinePoint, Curve, Error, Scalar};

/// `k·G` in affine coordinates for a secret `k` (constant time), as one dispatched job
/// ([`Backend::dispatch`]): key generation and the ephemeral points of the key exchange.
pub(crate) struct GeneratorMultiple<'a, B: Backend>(pub(crate) &'a Scalar<B>);

impl<B: Backend> Job for GeneratorMultiple<'_, B> {
    type Output = AffinePoint<B>;
    fn run<B2: Backend>(self) -> AffinePoint<B> {
        let mut k = self.0.to_backend::<B2>();
        let p = Curve::<B2>::mul_generator(&k).to_affine().to_backend();
        k.zeroize();
        p
    }
}

// Codecs: conversions between bytes and Montgomery limbs (a multiplication each), one
// dispatched job per call so that no entry point asks the CPU per operation for them; the bytes
// are the same on every backend.

/// `p` (not the identity) in SEC1 form: with `compress` the first 33 bytes (`02|03‖x`), else all
/// 65 (`04‖x‖y`).
pub(crate) fn encode_point<B: Backend>(p: &AffinePoint<B>, compress: bool) -> [u8; 65] {
    struct Encode<'a, B: Backend>(&'a AffinePoint<B>, bool);
    impl<B: Backend> Job for Encode<'_, B> {
        type Output = [u8; 65];
        fn run<B2: Backend>(self) -> [u8; 65] {
            let mut out = [0u8; 65];
            let p = self.0.to_backend::<B2>();
            p.write_sec1(self.1, &mut out)
                .expect("65 bytes hold every encoding");
            out
        }
    }
    B::dispatch(Encode(p, compress))
}

/// A SEC1 encoding decoded and validated: on the curve and not the identity (the cofactor is
/// 1, so every such point has order n).
pub(crate) fn decode_point<B: Backend>(bytes: &[u8]) -> Option<AffinePoint<B>> {
    struct Decode<'a, B>(&'a [u8], core::marker::PhantomData<B>);
    impl<B: Backend> Job for Decode<'_, B> {
        type Output = Option<AffinePoint<B>>;
        fn run<B2: Backend>(self) -> Self::Output {
            let p = Affine::<Curve<B2>>::from_sec1(self.0).ok()?;
            Some(p.to_backend())
        }
    }
    B::dispatch(Decode(bytes, core::marker::PhantomData))
}

/// A scalar in [1, n − 1] (with `key`: in [1, n − 2], a private key) from 32 big-endian
/// bytes, `None` otherwise (constant time in the bytes; the result is secret when they are).
pub(crate) fn decode_nonzero_scalar<B: Backend>(
    bytes: &[u8; 32],
    key: bool,
) -> CtOption<Scalar<B>> {
    struct Decode<'a, B>(&'a [u8; 32], bool, core::marker::PhantomData<B>);
    impl<B: Backend> Job for Decode<'_, B> {
        type Output = CtOption<Scalar<B>>;
        fn run<B2: Backend>(self) -> Self::Output {
            let d = Fp::<Sm2N, B2>::from_bytes(self.0);
            let not_key = subtle::Choice::from(u8::from(!self.1));
            let ok = d.map(|d| !d.is_zero() & (not_key | !(d + Fp::ONE).is_zero()));
            let ok = ok.unwrap_or(subtle::Choice::from(0));
            CtOption::new(d.unwrap_or(Fp::ZERO).to_backend(), ok)
        }
    }
    B::dispatch(Decode(bytes, key, core::marker::PhantomData))
}

/// A uniformly random scalar in [1, n − 1] (secret).
pub(crate) fn random_nonzero_scalar<B: Backend>(rng: &mut impl CryptoRng) -> Scalar<B> {
    struct Draw<'a, R, B>(&'a mut R, core::marker::PhantomData<B>);
    impl<R: CryptoRng, B: Backend> Job for Draw<'_, R, B> {
        type Output = Scalar<B>;
        fn run<B2: Backend>(self) -> Scalar<B> {
            loop {
                let mut k = Scalar::<B2>::random(self.0);
                if !bool::from(k.is_zero()) {
                    let out = k.to_backend();
                    k.zeroize();
                    return out;
                }
            }
        }
    }
    B::dispatch(Draw(rng, core::marker::PhantomData))
}

/// An SM2 private key `d` with `1 ≤ d ≤ n − 2` (GB/T 32918.1 §6.1), and its public key.
///
/// `d = n − 1` is excluded because signing needs `(1 + d)⁻¹`. The scalar is zeroized on drop.
pub struct SecretKey<B: Backend = DefaultBackend> {
    d: Scalar<B>,
    public: PublicKey<B>,
}

impl<B: Backend> SecretKey<B> {
    /// A uniformly random key (rejection sampling of 32-byte strings).
    pub fn random(rng: &mut impl CryptoRng) -> Self {
        loop {
            let mut b = Zeroizing::new([0u8; 32]);
            rng.fill_bytes(&mut *b);
            if let Ok(k) = Self::from_bytes(&b) {
                return k;
            }
        }
    }

    /// From the 32-byte big-endian encoding of `d`; fails unless `1 ≤ d ≤ n − 2`.
    pub fn from_bytes(bytes: &[u8; 32]) -> Result<Self, Error> {
        let d: Option<Scalar<B>> = decode_nonzero_scalar::<B>(bytes, true).into();
        let d = d.ok_or(Error::InvalidSecretKey)?;
        Ok(Self::from_scalar_unchecked(d))
    }

    /// From a big-endian byte slice of length 32.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        let b: &[u8; 32] = bytes.try_into().map_err(|_| Error::InvalidSecretKey)?;
        Self::from_bytes(b)
    }

    pub(crate) fn from_scalar_unchecked(d: Scalar<B>) -> Self {
        let p = B::dispatch(GeneratorMultiple(&d));
        Self {
            d,
            public: PublicKey { point: p },
        }
    }

    /// The 32-byte big-endian encoding of `d` (zeroized when dropped).
    pub fn to_bytes(&self) -> Zeroizing<[u8; 32]> {
        Zeroizing::new(self.d.to_bytes())
    }

    /// The public key `P = d·G`.
    pub fn public_key(&self) -> &PublicKey<B> {
        &self.public
    }

    /// The scalar `d`.
    pub(crate) fn scalar(&self) -> &Scalar<B> {
        &self.d
    }
}

impl<B: Backend> Clone for SecretKey<B> {
    fn clone(&self) -> Self {
        Self {
            d: self.d,
            public: self.public,
        }
    }
}

impl<B: Backend> Drop for SecretKey<B> {
    fn drop(&mut self) {
        self.d.zeroize();
    }
}
impl<B: Backend> ZeroizeOnDrop for SecretKey<B> {}

impl<B: Backend> ConstantTimeEq for SecretKey<B> {
    fn ct_eq(&self, other: &Self) -> subtle::Choice {
        self.d.ct_eq(&other.d)
    }
}

impl<B: Backend> fmt::Debug for SecretKey<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SecretKey")
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

/// An SM2 public key: a point on the curve other than the identity (checked on construction;
/// the cofactor is 1, so every such point has order n).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PublicKey<B: Backend = DefaultBackend> {
    point: AffinePoint<B>,
}

impl<B: Backend> PublicKey<B> {
    /// From a SEC1 encoding (`04‖x‖y` or compressed `02|03‖x`), validated.
    pub fn from_sec1_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let point = decode_point(bytes).ok_or(Error::InvalidPublicKey)?;
        Ok(Self { point })
    }

    /// From an affine point; fails for the identity or a point off the curve.
    pub fn from_affine(point: AffinePoint<B>) -> Result<Self, Error> {
        if bool::from(point.is_identity() | !point.is_on_curve()) {
            return Err(Error::InvalidPublicKey);
        }
        Ok(Self { point })
    }

    /// The point.
    pub fn as_affine(&self) -> &AffinePoint<B> {
        &self.point
    }

    /// `04‖x‖y` (65 bytes).
    pub fn to_uncompressed(&self) -> [u8; 65] {
        encode_point(&self.point, false)
    }

    /// `02|03‖x` (33 bytes).
    pub fn to_compressed(&self) -> [u8; 33] {
        encode_point(&self.point, true)[..33]
            .try_into()
            .expect("33 bytes")
    }

    /// A point known to be valid (`k·G` with `k ∈ [1, n − 1]`).
    pub(crate) fn from_valid(point: AffinePoint<B>) -> Self {
        Self { point }
    }
}

impl<B: Backend> fmt::Debug for PublicKey<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey(")?;
        for b in self.to_uncompressed() {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

impl<B: Backend> From<&SecretKey<B>> for PublicKey<B> {
    fn from(sk: &SecretKey<B>) -> Self {
        sk.public
    }
}
