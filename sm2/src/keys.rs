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
        let d: Option<Scalar<B>> = Self::scalar_in_range(bytes).into();
        let d = d.ok_or(Error::InvalidSecretKey)?;
        Ok(Self::from_scalar_unchecked(d))
    }

    /// From a big-endian byte slice of length 32.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        let b: &[u8; 32] = bytes.try_into().map_err(|_| Error::InvalidSecretKey)?;
        Self::from_bytes(b)
    }

    fn scalar_in_range(bytes: &[u8; 32]) -> CtOption<Scalar<B>> {
        let d = Fp::<Sm2N, B>::from_bytes(bytes);
        let ok = d.map(|d| !d.is_zero() & !(d + Fp::ONE).is_zero());
        let ok = ok.unwrap_or(subtle::Choice::from(0));
        CtOption::new(d.unwrap_or(Fp::ZERO), ok)
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
        let p = Affine::<Curve<B>>::from_sec1(bytes).map_err(|_| Error::InvalidPublicKey)?;
        Ok(Self { point: p })
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
        let mut out = [0u8; 65];
        self.point.write_sec1(false, &mut out).expect("65 bytes");
        out
    }

    /// `02|03‖x` (33 bytes).
    pub fn to_compressed(&self) -> [u8; 33] {
        let mut out = [0u8; 33];
        self.point.write_sec1(true, &mut out).expect("33 bytes");
        out
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
