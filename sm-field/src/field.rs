//! The [`Field`] trait: what curve and pairing code needs from any field of the tower.

use core::fmt::Debug;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use rand_core::CryptoRng;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};
use zeroize::Zeroize;

use crate::{Backend, Fp, Modulus};

/// A finite field element type (GF(p) or an extension of the SM9 tower).
///
/// Implemented by [`Fp`] and by the tower types, so point arithmetic in `sm-curve` can be written
/// once for SM2 (over GF(p)), SM9 G1 (over GF(p)) and SM9 G2 (over GF(p²)).
pub trait Field:
    'static
    + Copy
    + Clone
    + Default
    + Debug
    + Eq
    + Send
    + Sync
    + ConstantTimeEq
    + ConditionallySelectable
    + Zeroize
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
    + for<'a> Add<&'a Self, Output = Self>
    + for<'a> Sub<&'a Self, Output = Self>
    + for<'a> Mul<&'a Self, Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
{
    /// Additive identity.
    const ZERO: Self;
    /// Multiplicative identity.
    const ONE: Self;
    /// Length of the fixed-size big-endian encoding in bytes.
    const ENCODED_LEN: usize;

    /// Whether the element is zero.
    fn is_zero(&self) -> Choice;
    /// Whether the element is zero, with a branch (public values only: no `subtle` barrier,
    /// for the checks of variable-time point arithmetic). By default from `is_zero`.
    fn is_zero_vartime(&self) -> bool {
        self.is_zero().into()
    }
    /// `self²`.
    fn square(&self) -> Self;
    /// `2·self`.
    fn double(&self) -> Self;
    /// Inverse in constant time; none for zero.
    fn invert(&self) -> CtOption<Self>;
    /// A square root in constant time, if one exists.
    fn sqrt(&self) -> CtOption<Self>;
    /// A uniformly random element.
    fn random(rng: &mut impl CryptoRng) -> Self;
    /// Writes the big-endian encoding into `out` (`out.len() == ENCODED_LEN`).
    fn write_bytes(&self, out: &mut [u8]);
    /// Reads the big-endian encoding (`bytes.len() == ENCODED_LEN`); none if out of range.
    fn read_bytes(bytes: &[u8]) -> CtOption<Self>;
    /// The "sign" used for point compression: the parity of the canonical value (for extension
    /// fields, defined by the implementation and documented there).
    fn is_odd(&self) -> Choice;
}

impl<M: Modulus, B: Backend> Field for Fp<M, B> {
    const ZERO: Self = Fp::ZERO;
    const ONE: Self = Fp::ONE;
    const ENCODED_LEN: usize = 32;

    #[inline(always)]
    fn is_zero(&self) -> Choice {
        Fp::is_zero(self)
    }
    #[inline(always)]
    fn is_zero_vartime(&self) -> bool {
        Fp::is_zero_vartime(self)
    }
    #[inline(always)]
    fn square(&self) -> Self {
        Fp::square(self)
    }
    #[inline(always)]
    fn double(&self) -> Self {
        Fp::double(self)
    }
    fn invert(&self) -> CtOption<Self> {
        Fp::invert(self)
    }
    fn sqrt(&self) -> CtOption<Self> {
        Fp::sqrt(self)
    }
    fn random(rng: &mut impl CryptoRng) -> Self {
        Fp::random(rng)
    }
    fn write_bytes(&self, out: &mut [u8]) {
        out.copy_from_slice(&self.to_bytes());
    }
    fn read_bytes(bytes: &[u8]) -> CtOption<Self> {
        match <&[u8; 32]>::try_from(bytes) {
            Ok(b) => Fp::from_bytes(b),
            Err(_) => CtOption::new(Fp::ZERO, Choice::from(0)),
        }
    }
    fn is_odd(&self) -> Choice {
        Fp::is_odd(self)
    }
}
