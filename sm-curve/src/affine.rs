//! Affine points `(x, y)` with an explicit point-at-infinity flag.

use core::fmt;

use sm_field::Field;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};
use zeroize::Zeroize;

use crate::{ChangeBackend, CurveParams, Jacobian};

/// A point in affine coordinates, or the point at infinity (the group identity).
pub struct Affine<C: CurveParams> {
    pub(crate) x: C::Base,
    pub(crate) y: C::Base,
    /// 1 for the identity, 0 otherwise (a `u8` so the type has `const` values).
    pub(crate) infinity: u8,
}

impl<C: CurveParams> Clone for Affine<C> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<C: CurveParams> Copy for Affine<C> {}

impl<C: ChangeBackend> Affine<C> {
    /// The same point over backend `B2` (a limb copy: limbs are bit-identical on every backend).
    #[inline]
    pub fn to_backend<B2: sm_field::Backend>(&self) -> Affine<C::On<B2>> {
        Affine {
            x: C::base_to::<B2>(&self.x),
            y: C::base_to::<B2>(&self.y),
            infinity: self.infinity,
        }
    }
}

impl<C: CurveParams> Affine<C> {
    /// The point at infinity.
    pub const IDENTITY: Self = Self {
        x: C::Base::ZERO,
        y: C::Base::ZERO,
        infinity: 1,
    };
    /// The generator.
    pub const GENERATOR: Self = Self {
        x: C::GENERATOR.0,
        y: C::GENERATOR.1,
        infinity: 0,
    };

    /// The point `(x, y)`; none unless it satisfies the curve equation.
    pub fn from_coordinates(x: C::Base, y: C::Base) -> CtOption<Self> {
        let p = Self { x, y, infinity: 0 };
        CtOption::new(p, p.is_on_curve())
    }

    /// `(x, y)` without checking the curve equation (for values already known to be on the curve).
    pub const fn from_coordinates_unchecked(x: C::Base, y: C::Base) -> Self {
        Self { x, y, infinity: 0 }
    }

    /// The x-coordinate (zero for the identity).
    pub fn x(&self) -> C::Base {
        self.x
    }

    /// The y-coordinate (zero for the identity).
    pub fn y(&self) -> C::Base {
        self.y
    }

    /// Both coordinates; none for the identity.
    pub fn coordinates(&self) -> CtOption<(C::Base, C::Base)> {
        CtOption::new((self.x, self.y), !self.is_identity())
    }

    /// Whether this is the point at infinity.
    #[inline]
    pub fn is_identity(&self) -> Choice {
        Choice::from(self.infinity)
    }

    /// Whether `y² = x³ + a·x + b` holds (the identity counts as on the curve).
    pub fn is_on_curve(&self) -> Choice {
        let rhs = curve_rhs::<C>(&self.x);
        self.y.square().ct_eq(&rhs) | self.is_identity()
    }

    /// `−P`.
    pub fn neg(&self) -> Self {
        Self {
            x: self.x,
            y: -self.y,
            infinity: self.infinity,
        }
    }

    /// The same point in Jacobian coordinates.
    #[inline]
    pub fn to_jacobian(&self) -> Jacobian<C> {
        Jacobian::from_affine(self)
    }
}

/// `x³ + a·x + b`.
pub(crate) fn curve_rhs<C: CurveParams>(x: &C::Base) -> C::Base {
    let x3 = x.square() * x;
    let ax = match C::A_KIND {
        crate::AKind::Zero => C::Base::ZERO,
        crate::AKind::MinusThree => -(x.double() + x),
        crate::AKind::General => C::A * x,
    };
    x3 + ax + C::B
}

impl<C: CurveParams> Default for Affine<C> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<C: CurveParams> ConstantTimeEq for Affine<C> {
    fn ct_eq(&self, other: &Self) -> Choice {
        let both_inf = self.is_identity() & other.is_identity();
        let neither = !self.is_identity() & !other.is_identity();
        both_inf | (neither & self.x.ct_eq(&other.x) & self.y.ct_eq(&other.y))
    }
}

impl<C: CurveParams> ConditionallySelectable for Affine<C> {
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        Self {
            x: C::Base::conditional_select(&a.x, &b.x, choice),
            y: C::Base::conditional_select(&a.y, &b.y, choice),
            infinity: u8::conditional_select(&a.infinity, &b.infinity, choice),
        }
    }
}

impl<C: CurveParams> PartialEq for Affine<C> {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}
impl<C: CurveParams> Eq for Affine<C> {}

impl<C: CurveParams> Zeroize for Affine<C> {
    fn zeroize(&mut self) {
        self.x.zeroize();
        self.y.zeroize();
        self.infinity = 1;
    }
}

impl<C: CurveParams> fmt::Debug for Affine<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if bool::from(self.is_identity()) {
            write!(f, "Affine<{}>(identity)", C::NAME)
        } else {
            f.debug_struct("Affine")
                .field("x", &self.x)
                .field("y", &self.y)
                .finish()
        }
    }
}

impl<C: CurveParams> From<Jacobian<C>> for Affine<C> {
    fn from(p: Jacobian<C>) -> Self {
        p.to_affine()
    }
}

impl<C: CurveParams> core::ops::Neg for Affine<C> {
    type Output = Self;
    fn neg(self) -> Self {
        Affine::neg(&self)
    }
}
