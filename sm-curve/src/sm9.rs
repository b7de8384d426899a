//! The SM9 groups (GM/T 0044.5 §A.1 / GB/T 38635.2): G1 = E(GF(p)), E: y² = x³ + 5, and
//! G2 ⊂ E'(GF(p²)), E': y² = x³ + 5u (sextic M-type twist over `Fp2 = Fp[u]/(u² + 2)`), both of
//! prime order n; p and n are the BN polynomials at t = 0x600000000058F98A.
//!
//! * Points: [`G1Affine`], [`G2Affine`] (aliases of [`Affine`] over the two curves; the
//!   pairing and the SM9 protocols use these types, there is no other SM9 point type).
//! * Curves: [`Sm9G1Curve`], [`Sm9G2Curve`] ([`CurveParams`]: generators P1, P2; SEC1 / GM/T
//!   encodings through [`Affine::to_sec1_vec`](crate::Affine::to_sec1_vec) and
//!   [`Affine::from_sec1`](crate::Affine::from_sec1); for G2 the GF(p²) coordinates are written
//!   u-coefficient first, and [`g2_from_sec1`] adds the subgroup check).
//! * Endomorphisms: φ on G1 (`Affine`/`Jacobian::endomorphism`, `= [λ]`) and ψ, ψ², ψ³ on G2
//!   (`psi`, `psi2`, `psi3`, `= [p] = [6t²]`) — see `sm9/endo.rs`.
//! * Variable-base scalar multiplication, constant time: `Jacobian::mul_endo` (GLV on G1,
//!   4-dimensional GLS on G2); public scalars: `Jacobian::mul_endo_vartime`.
//! * Fixed base: [`CurveParams::mul_generator`] (constant time) and
//!   [`CurveParams::mul_generator_vartime`] use comb tables of P1 and P2 built at compile time
//!   ([`Sm9P1Table`], [`Sm9P2Table`]).
//! * Subgroup membership: G1 has cofactor 1 (on the curve suffices); G2 by the endomorphism
//!   test `Affine::is_in_subgroup` (one 63-bit multiplication, constant time).
use core::marker::PhantomData;

use sm_field::{Backend, DefaultBackend, Fp, Fp2, Modulus, Sm9N, Sm9P};

use crate::comb::CombTable;
use crate::{AKind, Affine, ChangeBackend, CurveParams, Error, Jacobian};

mod decompose;
mod endo;
mod gls;
mod glv;
mod multiples;
mod tables;

pub use tables::{Sm9P1Table, Sm9P2Table};

/// A point of G1 in affine coordinates: the one G1 point type of the workspace (the pairing in
/// `sm-pairing`, the `sm9` protocols and the bindings all take it).
pub type G1Affine<B = DefaultBackend> = Affine<Sm9G1Curve<B>>;
/// A point of G2 in affine coordinates: the one G2 point type of the workspace.
pub type G2Affine<B = DefaultBackend> = Affine<Sm9G2Curve<B>>;

/// SM9 G1: `y² = x³ + 5` over GF(p) with generator P1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sm9G1Curve<B: Backend = DefaultBackend>(PhantomData<B>);

/// SM9 G2: the twist `y² = x³ + 5u` over GF(p²) with generator P2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sm9G2Curve<B: Backend = DefaultBackend>(PhantomData<B>);

impl<B: Backend> ChangeBackend for Sm9G1Curve<B> {
    type On<B2: Backend> = Sm9G1Curve<B2>;
    #[inline(always)]
    fn base_to<B2: Backend>(x: &Fp<Sm9P, B>) -> Fp<Sm9P, B2> {
        x.to_backend()
    }
}

impl<B: Backend> ChangeBackend for Sm9G2Curve<B> {
    type On<B2: Backend> = Sm9G2Curve<B2>;
    #[inline(always)]
    fn base_to<B2: Backend>(x: &Fp2<B>) -> Fp2<B2> {
        x.to_backend()
    }
}

impl<B: Backend> CurveParams for Sm9G1Curve<B> {
    type Base = Fp<Sm9P, B>;
    type Scalar = Fp<Sm9N, B>;
    const NAME: &'static str = "sm9-g1";
    const A_KIND: AKind = AKind::Zero;
    const A: Fp<Sm9P, B> = Fp::ZERO;
    const B: Fp<Sm9P, B> =
        Fp::from_be_hex_const("0000000000000000000000000000000000000000000000000000000000000005");
    const GENERATOR: (Fp<Sm9P, B>, Fp<Sm9P, B>) = (
        Fp::from_be_hex_const("93DE051D62BF718FF5ED0704487D01D6E1E4086909DC3280E8C4E4817C66DDDD"),
        Fp::from_be_hex_const("21FE8DDA4F21E607631065125C395BBC1C1C00CBFA6024350C464CD70A3EA616"),
    );
    const ORDER: [u64; 4] = Sm9N::P;

    fn mul_generator(k: &Self::Scalar) -> Jacobian<Self> {
        Sm9P1Table.mul(k)
    }

    fn mul_generator_vartime(k: &Self::Scalar) -> Jacobian<Self> {
        Sm9P1Table.mul_vartime(k)
    }
}

impl<B: Backend> CurveParams for Sm9G2Curve<B> {
    type Base = Fp2<B>;
    type Scalar = Fp<Sm9N, B>;
    const NAME: &'static str = "sm9-g2";
    const A_KIND: AKind = AKind::Zero;
    const A: Fp2<B> = Fp2::from_be_hex_const(
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0000000000000000000000000000000000000000000000000000000000000000",
    );
    // b' = 5u (u-coefficient first in from_be_hex_const).
    const B: Fp2<B> = Fp2::from_be_hex_const(
        "0000000000000000000000000000000000000000000000000000000000000005",
        "0000000000000000000000000000000000000000000000000000000000000000",
    );
    const GENERATOR: (Fp2<B>, Fp2<B>) = (
        Fp2::from_be_hex_const(
            "85AEF3D078640C98597B6027B441A01FF1DD2C190F5E93C454806C11D8806141",
            "3722755292130B08D2AAB97FD34EC120EE265948D19C17ABF9B7213BAF82D65B",
        ),
        Fp2::from_be_hex_const(
            "17509B092E845C1266BA0D262CBEE6ED0736A96FA347C8BD856DC76B84EBEB96",
            "A7CF28D519BE3DA65F3170153D278FF247EFBA98A71A08116215BBA5C999A7C7",
        ),
    );
    const ORDER: [u64; 4] = Sm9N::P;

    fn mul_generator(k: &Self::Scalar) -> Jacobian<Self> {
        Sm9P2Table.mul(k)
    }

    fn mul_generator_vartime(k: &Self::Scalar) -> Jacobian<Self> {
        Sm9P2Table.mul_vartime(k)
    }
}

/// Decodes a SEC1 / GM/T 0044 encoding (`04‖x‖y` or `02|03‖x`, coordinates u-coefficient
/// first) into a point of G2: canonical coordinates, on the twist, not the identity, and in the
/// order-n subgroup ([`Error::NotOnCurve`] covers both the curve and the subgroup check).
pub fn g2_from_sec1<B: Backend>(bytes: &[u8]) -> Result<Affine<Sm9G2Curve<B>>, Error> {
    let q = Affine::<Sm9G2Curve<B>>::from_sec1(bytes)?;
    if bool::from(q.is_in_subgroup()) {
        Ok(q)
    } else {
        Err(Error::NotOnCurve)
    }
}

#[cfg(test)]
mod tests;
