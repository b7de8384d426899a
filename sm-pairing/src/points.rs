//! Minimal affine point types at the pairing interface.
//!
//! `sm-curve` owns the full point arithmetic; these structs carry just the affine coordinates
//! (and an identity flag) that the pairing consumes. `From` conversions to and from
//! `sm_curve::Affine<Sm9G1Curve<B>>` / `Affine<Sm9G2Curve<B>>` are at the end of this file
//! (unchecked in both directions: they copy coordinates and the identity flag).

use sm_curve::sm9::{Sm9G1Curve, Sm9G2Curve};
use sm_curve::Affine;
use sm_field::{Backend, DefaultBackend, Fp, Fp2, Sm9P};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

/// A point of G1 = E(GF(p)), E: y² = x³ + 5, in affine coordinates.
#[derive(Clone, Copy, Debug)]
pub struct G1Affine<B: Backend = DefaultBackend> {
    /// x-coordinate.
    pub x: Fp<Sm9P, B>,
    /// y-coordinate.
    pub y: Fp<Sm9P, B>,
    /// Set for the point at infinity (then `x`, `y` are ignored). Never branched on: the
    /// pairing turns it into a `subtle::Choice`.
    pub infinity: bool,
}

/// A point of G2 ⊂ E'(GF(p²)), E': y² = x³ + 5u (sextic M-type twist), in affine coordinates.
#[derive(Clone, Copy, Debug)]
pub struct G2Affine<B: Backend = DefaultBackend> {
    /// x-coordinate.
    pub x: Fp2<B>,
    /// y-coordinate.
    pub y: Fp2<B>,
    /// Set for the point at infinity (then `x`, `y` are ignored). Never branched on: the
    /// pairing turns it into a `subtle::Choice`.
    pub infinity: bool,
}

impl<B: Backend> G1Affine<B> {
    /// The GM/T 0044.5 generator P1.
    pub const GENERATOR: Self = Self {
        x: Fp::from_be_hex_const(
            "93DE051D62BF718FF5ED0704487D01D6E1E4086909DC3280E8C4E4817C66DDDD",
        ),
        y: Fp::from_be_hex_const(
            "21FE8DDA4F21E607631065125C395BBC1C1C00CBFA6024350C464CD70A3EA616",
        ),
        infinity: false,
    };

    /// The affine point (x, y) (not checked to be on the curve; see [`is_on_curve`](Self::is_on_curve)).
    pub const fn new(x: Fp<Sm9P, B>, y: Fp<Sm9P, B>) -> Self {
        Self {
            x,
            y,
            infinity: false,
        }
    }

    /// The point at infinity.
    pub fn identity() -> Self {
        Self {
            x: Fp::ZERO,
            y: Fp::ONE,
            infinity: true,
        }
    }

    /// Whether y² = x³ + 5 (or the point is the identity).
    pub fn is_on_curve(&self) -> Choice {
        let rhs = self.x.square() * self.x + Fp::from_u64(5);
        self.y.square().ct_eq(&rhs) | Choice::from(self.infinity as u8)
    }

    /// `−self`.
    pub fn neg(&self) -> Self {
        Self {
            x: self.x,
            y: -self.y,
            infinity: self.infinity,
        }
    }

    /// From 64 bytes x ‖ y (big-endian, the GM/T 0044 G1 encoding without the 04 prefix); none
    /// if a coordinate is out of range or the point is not on the curve.
    pub fn from_xy_bytes(bytes: &[u8; 64]) -> Option<Self> {
        let x = Fp::from_bytes(bytes[..32].try_into().expect("32 bytes"));
        let y = Fp::from_bytes(bytes[32..].try_into().expect("32 bytes"));
        let ok = x.is_some() & y.is_some();
        let p = Self::new(
            x.unwrap_or(Default::default()),
            y.unwrap_or(Default::default()),
        );
        bool::from(ok & p.is_on_curve()).then_some(p)
    }
}

impl<B: Backend> G2Affine<B> {
    /// The GM/T 0044.5 generator P2.
    pub const GENERATOR: Self = Self {
        x: Fp2::from_be_hex_const(
            "85AEF3D078640C98597B6027B441A01FF1DD2C190F5E93C454806C11D8806141",
            "3722755292130B08D2AAB97FD34EC120EE265948D19C17ABF9B7213BAF82D65B",
        ),
        y: Fp2::from_be_hex_const(
            "17509B092E845C1266BA0D262CBEE6ED0736A96FA347C8BD856DC76B84EBEB96",
            "A7CF28D519BE3DA65F3170153D278FF247EFBA98A71A08116215BBA5C999A7C7",
        ),
        infinity: false,
    };

    /// The affine point (x, y) (not checked to be on the curve; see [`is_on_curve`](Self::is_on_curve)).
    pub const fn new(x: Fp2<B>, y: Fp2<B>) -> Self {
        Self {
            x,
            y,
            infinity: false,
        }
    }

    /// The point at infinity.
    pub fn identity() -> Self {
        Self {
            x: Fp2::ZERO,
            y: Fp2::ONE,
            infinity: true,
        }
    }

    /// Whether y² = x³ + 5u (or the point is the identity).
    pub fn is_on_curve(&self) -> Choice {
        let rhs = self.x.square() * self.x + Fp2::new(Fp::ZERO, Fp::from_u64(5));
        self.y.square().ct_eq(&rhs) | Choice::from(self.infinity as u8)
    }

    /// `−self`.
    pub fn neg(&self) -> Self {
        Self {
            x: self.x,
            y: -self.y,
            infinity: self.infinity,
        }
    }

    /// From 128 bytes x ‖ y, each GF(p²) value u-coefficient first (the GM/T 0044 G2 encoding
    /// without the 04 prefix); none if out of range or not on the curve.
    pub fn from_xy_bytes(bytes: &[u8; 128]) -> Option<Self> {
        let x = Fp2::from_bytes(bytes[..64].try_into().expect("64 bytes"));
        let y = Fp2::from_bytes(bytes[64..].try_into().expect("64 bytes"));
        let ok = x.is_some() & y.is_some();
        let p = Self::new(
            x.unwrap_or(Default::default()),
            y.unwrap_or(Default::default()),
        );
        bool::from(ok & p.is_on_curve()).then_some(p)
    }
}

impl<B: Backend> From<Affine<Sm9G1Curve<B>>> for G1Affine<B> {
    fn from(p: Affine<Sm9G1Curve<B>>) -> Self {
        Self {
            x: p.x(),
            y: p.y(),
            infinity: bool::from(p.is_identity()),
        }
    }
}

impl<B: Backend> From<G1Affine<B>> for Affine<Sm9G1Curve<B>> {
    fn from(p: G1Affine<B>) -> Self {
        let q = Affine::from_coordinates_unchecked(p.x, p.y);
        Affine::conditional_select(&q, &Affine::IDENTITY, Choice::from(p.infinity as u8))
    }
}

impl<B: Backend> From<Affine<Sm9G2Curve<B>>> for G2Affine<B> {
    fn from(p: Affine<Sm9G2Curve<B>>) -> Self {
        Self {
            x: p.x(),
            y: p.y(),
            infinity: bool::from(p.is_identity()),
        }
    }
}

impl<B: Backend> From<G2Affine<B>> for Affine<Sm9G2Curve<B>> {
    fn from(p: G2Affine<B>) -> Self {
        let q = Affine::from_coordinates_unchecked(p.x, p.y);
        Affine::conditional_select(&q, &Affine::IDENTITY, Choice::from(p.infinity as u8))
    }
}

#[cfg(test)]
mod conversion_tests {
    use super::*;
    use sm_curve::{CurveParams, Jacobian};
    use sm_field::U64;

    #[test]
    fn round_trips_with_sm_curve() {
        let k = Fp::<sm_field::Sm9N, U64>::from_u64(0x1234_5678);
        let p = Sm9G1Curve::<U64>::mul_generator(&k).to_affine();
        let q = Sm9G2Curve::<U64>::mul_generator(&k).to_affine();
        let (pp, qq): (G1Affine<U64>, G2Affine<U64>) = (p.into(), q.into());
        assert!(bool::from(pp.is_on_curve() & qq.is_on_curve()));
        assert!(!pp.infinity && !qq.infinity);
        assert_eq!(Affine::from(pp), p);
        assert_eq!(Affine::from(qq), q);
        assert_eq!(
            G1Affine::<U64>::from(Affine::GENERATOR).x,
            G1Affine::<U64>::GENERATOR.x
        );
        assert_eq!(
            G2Affine::<U64>::from(Affine::GENERATOR).y,
            G2Affine::<U64>::GENERATOR.y
        );
        let id1: G1Affine<U64> = Jacobian::<Sm9G1Curve<U64>>::IDENTITY.to_affine().into();
        let id2: G2Affine<U64> = Jacobian::<Sm9G2Curve<U64>>::IDENTITY.to_affine().into();
        assert!(id1.infinity && id2.infinity);
        assert!(bool::from(Affine::from(id1).is_identity()));
        assert!(bool::from(Affine::from(id2).is_identity()));
        assert!(bool::from(
            Affine::<Sm9G1Curve<U64>>::from(G1Affine::identity()).is_identity()
        ));
    }
}
