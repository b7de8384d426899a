//! Curve parameters: what distinguishes SM2 from SM9 G1 and G2.

use core::fmt::Debug;

use sm_field::Field;

use crate::Jacobian;

/// How the curve coefficient `a` is special-cased in the doubling formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AKind {
    /// `a = 0` (SM9 G1 over GF(p), SM9 G2 over GF(p²)): EFD "dbl-2009-l".
    Zero,
    /// `a = −3` (SM2): EFD "dbl-2001-b".
    MinusThree,
    /// Any other `a`: EFD "dbl-2007-bl".
    General,
}

/// A short-Weierstrass curve `y² = x³ + a·x + b` over `Base` with a generator of prime order
/// `n > 2^255` whose scalars are `Scalar` (the integers mod n).
///
/// Implementors are zero-sized marker types, usually generic over the limb backend
/// (e.g. `Sm2Curve<B = DefaultBackend>`).
pub trait CurveParams: 'static + Copy + Clone + Default + Debug + Send + Sync + Eq {
    /// The field of coordinates.
    type Base: Field;
    /// The integers modulo the group order n; `Scalar::ENCODED_LEN` must be 32.
    type Scalar: Field;

    /// Short curve name.
    const NAME: &'static str;
    /// Which doubling formula applies.
    const A_KIND: AKind;
    /// The coefficient `a` (must agree with `A_KIND`).
    const A: Self::Base;
    /// The coefficient `b`.
    const B: Self::Base;
    /// Affine coordinates of the generator.
    const GENERATOR: (Self::Base, Self::Base);
    /// The group order n as little-endian limbs (n > 2^255; used by the scalar-multiplication
    /// exception analysis and by tests).
    const ORDER: [u64; 4];

    /// `k·G` for a secret scalar, in constant time. The default is the variable-base fixed-window
    /// ladder; curves with a precomputed generator table override it with a comb.
    fn mul_generator(k: &Self::Scalar) -> Jacobian<Self> {
        Jacobian::<Self>::generator().mul(k)
    }

    /// `k·G` for a public scalar (variable time).
    fn mul_generator_vartime(k: &Self::Scalar) -> Jacobian<Self> {
        Jacobian::<Self>::generator().mul_vartime(k)
    }
}

/// A curve defined over every limb backend (its parameters are generic over `B`), so that its
/// points move between backends by copying limbs ([`Affine::to_backend`](crate::Affine::to_backend)):
/// limbs are bit-identical on every backend. Entry points that dispatch once per call
/// (`sm_field::Backend::dispatch`) move their inputs this way.
pub trait ChangeBackend: CurveParams {
    /// The same curve over backend `B2`.
    type On<B2: sm_field::Backend>: CurveParams;
    /// A base-field element, its limbs copied to `B2`.
    fn base_to<B2: sm_field::Backend>(x: &Self::Base) -> <Self::On<B2> as CurveParams>::Base;
}
