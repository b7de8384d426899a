//! Jacobian points `(X : Y : Z)` representing `(X/Z², Y/Z³)`; the identity has `Z = 0`.
//!
//! Formulas (Bernstein–Lange, Explicit-Formulas Database, "g1p/shortw/jacobian-*"):
//! * doubling: "dbl-2001-b" for a = −3 (3M + 5S), "dbl-2009-l" for a = 0 (2M + 5S),
//!   "dbl-2007-bl" for general a (1M + 8S + 1·a);
//! * addition: "add-2007-bl" (11M + 5S); mixed addition (Z2 = 1): "madd-2007-bl" (7M + 4S).
//!
//! The addition formulas are not complete: they fail when both inputs are the same point (the
//! doubling case) and need the identity handled separately. [`Jacobian::add`] and
//! [`Jacobian::add_affine`] handle every case in constant time (they also compute the doubling and
//! select); the `*_assume_distinct` variants handle the identity on either side and `P + (−P)` but
//! **not** `P + P`, and are used only where that case is proven impossible (see `scalar_mul.rs`).

use core::fmt;
use core::ops::{Add, AddAssign, Neg, Sub, SubAssign};

use sm_field::Field;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroize;

use crate::{AKind, Affine, CurveParams};

/// A point in Jacobian coordinates.
pub struct Jacobian<C: CurveParams> {
    pub(crate) x: C::Base,
    pub(crate) y: C::Base,
    pub(crate) z: C::Base,
}

impl<C: CurveParams> Clone for Jacobian<C> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<C: CurveParams> Copy for Jacobian<C> {}

impl<C: CurveParams> Jacobian<C> {
    /// The point at infinity `(1 : 1 : 0)`.
    pub const IDENTITY: Self = Self {
        x: C::Base::ONE,
        y: C::Base::ONE,
        z: C::Base::ZERO,
    };

    /// The generator.
    pub fn generator() -> Self {
        Self {
            x: C::GENERATOR.0,
            y: C::GENERATOR.1,
            z: C::Base::ONE,
        }
    }

    /// From raw Jacobian coordinates (not checked).
    pub const fn from_raw_unchecked(x: C::Base, y: C::Base, z: C::Base) -> Self {
        Self { x, y, z }
    }

    /// The raw Jacobian coordinates `(X, Y, Z)`.
    pub fn raw_coordinates(&self) -> (C::Base, C::Base, C::Base) {
        (self.x, self.y, self.z)
    }

    /// From an affine point (identity preserved).
    #[inline]
    pub fn from_affine(p: &Affine<C>) -> Self {
        let q = Self {
            x: p.x,
            y: p.y,
            z: C::Base::ONE,
        };
        Self::conditional_select(&q, &Self::IDENTITY, p.is_identity())
    }

    /// Whether this is the identity.
    #[inline]
    pub fn is_identity(&self) -> Choice {
        self.z.is_zero()
    }

    /// Whether the point satisfies the Jacobian curve equation `Y² = X³ + a·X·Z⁴ + b·Z⁶`
    /// (the identity counts as on the curve).
    pub fn is_on_curve(&self) -> Choice {
        let z2 = self.z.square();
        let z4 = z2.square();
        let z6 = z4 * z2;
        let ax = match C::A_KIND {
            AKind::Zero => C::Base::ZERO,
            AKind::MinusThree => -(self.x.double() + self.x) * z4,
            AKind::General => C::A * self.x * z4,
        };
        let rhs = self.x.square() * self.x + ax + C::B * z6;
        self.y.square().ct_eq(&rhs) | self.is_identity()
    }

    /// Affine form (one constant-time inversion).
    pub fn to_affine(&self) -> Affine<C> {
        let zinv = self.z.invert().unwrap_or(C::Base::ZERO);
        let zinv2 = zinv.square();
        let p = Affine {
            x: self.x * zinv2,
            y: self.y * zinv2 * zinv,
            infinity: 0,
        };
        Affine::conditional_select(&p, &Affine::IDENTITY, self.is_identity())
    }

    /// Normalises many points with one inversion (Montgomery's trick); `out.len()` must equal
    /// `points.len()`. Constant time; identities map to the affine identity.
    pub fn batch_to_affine(points: &[Self], out: &mut [Affine<C>]) {
        assert_eq!(points.len(), out.len(), "batch_to_affine: length mismatch");
        // out[i].x temporarily holds the prefix product z_0 ⋯ z_{i−1} (identities counted as 1).
        let mut acc = C::Base::ONE;
        for (p, o) in points.iter().zip(out.iter_mut()) {
            o.x = acc;
            let z = C::Base::conditional_select(&p.z, &C::Base::ONE, p.is_identity());
            acc *= z;
        }
        let mut inv = acc.invert().unwrap_or(C::Base::ZERO);
        for (p, o) in points.iter().zip(out.iter_mut()).rev() {
            let id = p.is_identity();
            let z = C::Base::conditional_select(&p.z, &C::Base::ONE, id);
            let zinv = inv * o.x;
            inv *= z;
            let zinv2 = zinv.square();
            let a = Affine {
                x: p.x * zinv2,
                y: p.y * zinv2 * zinv,
                infinity: 0,
            };
            *o = Affine::conditional_select(&a, &Affine::IDENTITY, id);
        }
    }

    /// `2P` (never fails: the identity and points of order 2 map to the identity).
    #[inline]
    pub fn double(&self) -> Self {
        let (x1, y1, z1) = (&self.x, &self.y, &self.z);
        match C::A_KIND {
            AKind::MinusThree => {
                // EFD dbl-2001-b
                let delta = z1.square();
                let gamma = y1.square();
                let beta = *x1 * gamma;
                let t = (*x1 - delta) * (*x1 + delta);
                let alpha = t.double() + t;
                let beta4 = beta.double().double();
                let x3 = alpha.square() - beta4.double();
                let z3 = (*y1 + z1).square() - gamma - delta;
                let g2 = gamma.square().double();
                let y3 = alpha * (beta4 - x3) - g2.double().double();
                Self {
                    x: x3,
                    y: y3,
                    z: z3,
                }
            }
            AKind::Zero => {
                // EFD dbl-2009-l
                let a = x1.square();
                let b = y1.square();
                let c = b.square();
                let d = ((*x1 + b).square() - a - c).double();
                let e = a.double() + a;
                let f = e.square();
                let x3 = f - d.double();
                let c8 = c.double().double().double();
                let y3 = e * (d - x3) - c8;
                let z3 = (*y1 * z1).double();
                Self {
                    x: x3,
                    y: y3,
                    z: z3,
                }
            }
            AKind::General => {
                // EFD dbl-2007-bl
                let xx = x1.square();
                let yy = y1.square();
                let yyyy = yy.square();
                let zz = z1.square();
                let s = ((*x1 + yy).square() - xx - yyyy).double();
                let m = xx.double() + xx + C::A * zz.square();
                let t = m.square() - s.double();
                let y3 = m * (s - t) - yyyy.double().double().double();
                let z3 = (*y1 + z1).square() - yy - zz;
                Self { x: t, y: y3, z: z3 }
            }
        }
    }

    /// EFD add-2007-bl. Returns the sum (correct unless `self == other` or either is the
    /// identity) and `H`, `r`: the doubling case is `H = 0 ∧ r = 0` (the callers test it in
    /// constant or variable time).
    #[inline(always)]
    fn add_core(&self, other: &Self) -> (Self, C::Base, C::Base) {
        let z1z1 = self.z.square();
        let z2z2 = other.z.square();
        let u1 = self.x * z2z2;
        let u2 = other.x * z1z1;
        let s1 = self.y * other.z * z2z2;
        let s2 = other.y * self.z * z1z1;
        let h = u2 - u1;
        let i = h.double().square();
        let j = h * i;
        let r = (s2 - s1).double();
        let v = u1 * i;
        let x3 = r.square() - j - v.double();
        let y3 = r * (v - x3) - (s1 * j).double();
        let z3 = ((self.z + other.z).square() - z1z1 - z2z2) * h;
        (
            Self {
                x: x3,
                y: y3,
                z: z3,
            },
            h,
            r,
        )
    }

    /// EFD madd-2007-bl (`other` affine, not the identity). Same contract as `add_core`.
    #[inline(always)]
    pub(crate) fn add_affine_core(&self, ox: &C::Base, oy: &C::Base) -> (Self, C::Base, C::Base) {
        let z1z1 = self.z.square();
        let u2 = *ox * z1z1;
        let s2 = *oy * self.z * z1z1;
        let h = u2 - self.x;
        let hh = h.square();
        let i = hh.double().double();
        let j = h * i;
        let r = (s2 - self.y).double();
        let v = self.x * i;
        let x3 = r.square() - j - v.double();
        let y3 = r * (v - x3) - (self.y * j).double();
        let z3 = (self.z + h).square() - z1z1 - hh;
        (
            Self {
                x: x3,
                y: y3,
                z: z3,
            },
            h,
            r,
        )
    }

    /// `P + Q` for all inputs, in constant time.
    pub fn add(&self, other: &Self) -> Self {
        let (sum, h, r) = self.add_core(other);
        let dbl = h.is_zero() & r.is_zero();
        let d = self.double();
        let mut r = Self::conditional_select(&sum, &d, dbl);
        r.conditional_assign(other, self.is_identity());
        r.conditional_assign(self, other.is_identity());
        r
    }

    /// `P + Q` in constant time, correct whenever `P ≠ Q` or either is the identity
    /// (the caller guarantees `P ≠ Q` for non-identity inputs).
    #[inline]
    pub fn add_assume_distinct(&self, other: &Self) -> Self {
        let (sum, _, _) = self.add_core(other);
        let mut r = sum;
        r.conditional_assign(other, self.is_identity());
        r.conditional_assign(self, other.is_identity());
        r
    }

    /// `P + Q` for an affine `Q`, all inputs, in constant time.
    pub fn add_affine(&self, other: &Affine<C>) -> Self {
        let (sum, h, r) = self.add_affine_core(&other.x, &other.y);
        let dbl = h.is_zero() & r.is_zero();
        let d = self.double();
        let mut r = Self::conditional_select(&sum, &d, dbl);
        r.conditional_assign(&Self::from_affine(other), self.is_identity());
        r.conditional_assign(self, other.is_identity());
        r
    }

    /// `P + Q` for an affine `Q` in constant time, assuming `P ≠ Q` unless either is the identity.
    #[inline]
    pub fn add_affine_assume_distinct(&self, other: &Affine<C>) -> Self {
        let (sum, _, _) = self.add_affine_core(&other.x, &other.y);
        let mut r = sum;
        r.conditional_assign(&Self::from_affine(other), self.is_identity());
        r.conditional_assign(self, other.is_identity());
        r
    }

    /// `P + Q` with branches (public points only).
    pub fn add_vartime(&self, other: &Self) -> Self {
        if self.z.is_zero_vartime() {
            return *other;
        }
        if other.z.is_zero_vartime() {
            return *self;
        }
        let (sum, h, r) = self.add_core(other);
        if h.is_zero_vartime() && r.is_zero_vartime() {
            return self.double();
        }
        sum
    }

    /// `P + Q` for an affine `Q`, with branches (public points only).
    pub fn add_affine_vartime(&self, other: &Affine<C>) -> Self {
        if other.infinity == 1 {
            return *self;
        }
        if self.z.is_zero_vartime() {
            return Self::from_affine(other);
        }
        let (sum, h, r) = self.add_affine_core(&other.x, &other.y);
        if h.is_zero_vartime() && r.is_zero_vartime() {
            return self.double();
        }
        sum
    }

    /// `−P`.
    #[inline]
    pub fn neg(&self) -> Self {
        Self {
            x: self.x,
            y: -self.y,
            z: self.z,
        }
    }

    /// Negates in place when `choice` is set (constant time).
    #[inline]
    pub fn conditional_negate(&mut self, choice: Choice) {
        let ny = -self.y;
        self.y.conditional_assign(&ny, choice);
    }
}

impl<C: CurveParams> Default for Jacobian<C> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<C: CurveParams> ConstantTimeEq for Jacobian<C> {
    /// Projective equality: `X1·Z2² = X2·Z1²` and `Y1·Z2³ = Y2·Z1³`.
    fn ct_eq(&self, other: &Self) -> Choice {
        let z1z1 = self.z.square();
        let z2z2 = other.z.square();
        let xe = (self.x * z2z2).ct_eq(&(other.x * z1z1));
        let ye = (self.y * z2z2 * other.z).ct_eq(&(other.y * z1z1 * self.z));
        let (i1, i2) = (self.is_identity(), other.is_identity());
        (i1 & i2) | (!i1 & !i2 & xe & ye)
    }
}

impl<C: CurveParams> ConditionallySelectable for Jacobian<C> {
    #[inline]
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        Self {
            x: C::Base::conditional_select(&a.x, &b.x, choice),
            y: C::Base::conditional_select(&a.y, &b.y, choice),
            z: C::Base::conditional_select(&a.z, &b.z, choice),
        }
    }
}

impl<C: CurveParams> PartialEq for Jacobian<C> {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}
impl<C: CurveParams> Eq for Jacobian<C> {}

impl<C: CurveParams> Zeroize for Jacobian<C> {
    fn zeroize(&mut self) {
        self.x.zeroize();
        self.y.zeroize();
        self.z.zeroize();
    }
}

impl<C: CurveParams> fmt::Debug for Jacobian<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Jacobian({:?})", self.to_affine())
    }
}

impl<C: CurveParams> From<Affine<C>> for Jacobian<C> {
    fn from(p: Affine<C>) -> Self {
        Self::from_affine(&p)
    }
}

impl<C: CurveParams> Add for Jacobian<C> {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        Jacobian::add(&self, &rhs)
    }
}
impl<C: CurveParams> Add<&Jacobian<C>> for &Jacobian<C> {
    type Output = Jacobian<C>;
    fn add(self, rhs: &Jacobian<C>) -> Jacobian<C> {
        Jacobian::add(self, rhs)
    }
}
impl<C: CurveParams> Add<&Affine<C>> for &Jacobian<C> {
    type Output = Jacobian<C>;
    fn add(self, rhs: &Affine<C>) -> Jacobian<C> {
        Jacobian::add_affine(self, rhs)
    }
}
impl<C: CurveParams> Add<Affine<C>> for Jacobian<C> {
    type Output = Jacobian<C>;
    fn add(self, rhs: Affine<C>) -> Jacobian<C> {
        Jacobian::add_affine(&self, &rhs)
    }
}
impl<C: CurveParams> AddAssign for Jacobian<C> {
    fn add_assign(&mut self, rhs: Self) {
        *self = Jacobian::add(self, &rhs);
    }
}
impl<C: CurveParams> Sub for Jacobian<C> {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        Jacobian::add(&self, &rhs.neg())
    }
}
impl<C: CurveParams> SubAssign for Jacobian<C> {
    fn sub_assign(&mut self, rhs: Self) {
        *self = Jacobian::add(self, &rhs.neg());
    }
}
impl<C: CurveParams> Neg for Jacobian<C> {
    type Output = Self;
    fn neg(self) -> Self {
        Jacobian::neg(&self)
    }
}
