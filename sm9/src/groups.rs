//! The groups G1, G2, GT as this crate uses them: type aliases over `sm-curve` / `sm-pairing`,
//! the GM/T 0044 point encodings (`04 ‖ x ‖ y`, GF(p²) u-coefficient first) with on-curve and
//! subgroup checks (G2: sm-curve's ψ-based test), conversions to the pairing's point types, and
//! fixed-base multiplication by the generators (sm-curve's build-time comb tables).

use sm_curve::sm9::{Sm9G1Curve, Sm9G2Curve};
use sm_curve::{Affine, CurveParams, Jacobian};
use subtle::Choice;

use crate::{Error, Result, Scalar};

/// A point of G1 (affine).
pub type G1Affine = Affine<Sm9G1Curve>;
/// A point of G2 (affine).
pub type G2Affine = Affine<Sm9G2Curve>;
/// A point of G1 (Jacobian).
pub(crate) type G1Jacobian = Jacobian<Sm9G1Curve>;
/// A point of G2 (Jacobian).
pub(crate) type G2Jacobian = Jacobian<Sm9G2Curve>;
/// Precomputed Miller-loop lines of a G2 point.
pub(crate) type G2Prepared = sm_pairing::G2Prepared<sm_field::DefaultBackend>;
/// An element of GT.
pub type Gt = sm_pairing::Gt;

/// Length of an encoded G1 point (`04 ‖ x ‖ y`).
pub const G1_LEN: usize = 65;
/// Length of an encoded G2 point (`04 ‖ x.u ‖ x.1 ‖ y.u ‖ y.1`).
pub const G2_LEN: usize = 129;

/// `04 ‖ x ‖ y` of a G1 point that is not the identity.
pub(crate) fn g1_to_bytes(p: &G1Affine) -> [u8; G1_LEN] {
    let mut out = [0u8; G1_LEN];
    out[0] = 0x04;
    out[1..33].copy_from_slice(&p.x().to_bytes());
    out[33..].copy_from_slice(&p.y().to_bytes());
    out
}

/// `04 ‖ x ‖ y` of a G2 point that is not the identity.
pub(crate) fn g2_to_bytes(p: &G2Affine) -> [u8; G2_LEN] {
    let mut out = [0u8; G2_LEN];
    out[0] = 0x04;
    out[1..65].copy_from_slice(&p.x().to_bytes());
    out[65..].copy_from_slice(&p.y().to_bytes());
    out
}

/// Decodes `04 ‖ x ‖ y` into a G1 point: coordinates below p, on the curve, not the identity
/// (G1 has cofactor 1, so that is the subgroup check).
pub(crate) fn g1_from_bytes(bytes: &[u8]) -> Result<G1Affine> {
    if bytes.len() != G1_LEN {
        return Err(Error::Encoding);
    }
    if bytes[0] != 0x04 {
        return Err(Error::Encoding);
    }
    let x = sm_field::Fp::from_bytes(bytes[1..33].try_into().map_err(|_| Error::Encoding)?);
    let y = sm_field::Fp::from_bytes(bytes[33..].try_into().map_err(|_| Error::Encoding)?);
    let (x, y) = match (Option::from(x), Option::from(y)) {
        (Some(x), Some(y)) => (x, y),
        _ => return Err(Error::InvalidPoint),
    };
    Option::from(G1Affine::from_coordinates(x, y)).ok_or(Error::InvalidPoint)
}

/// Decodes `04 ‖ x ‖ y` into a G2 point: coordinates below p, on the twist, in the order-n
/// subgroup (n·Q = O), not the identity.
pub(crate) fn g2_from_bytes(bytes: &[u8]) -> Result<G2Affine> {
    if bytes.len() != G2_LEN {
        return Err(Error::Encoding);
    }
    if bytes[0] != 0x04 {
        return Err(Error::Encoding);
    }
    let x = sm_field::Fp2::from_bytes(bytes[1..65].try_into().map_err(|_| Error::Encoding)?);
    let y = sm_field::Fp2::from_bytes(bytes[65..].try_into().map_err(|_| Error::Encoding)?);
    let (x, y) = match (Option::from(x), Option::from(y)) {
        (Some(x), Some(y)) => (x, y),
        _ => return Err(Error::InvalidPoint),
    };
    let q: G2Affine = Option::from(G2Affine::from_coordinates(x, y)).ok_or(Error::InvalidPoint)?;
    if !bool::from(g2_in_subgroup(&q)) {
        return Err(Error::InvalidPoint);
    }
    Ok(q)
}

/// `Q ∈ G2` by sm-curve's endomorphism test (ψ-based, one 63-bit multiplication, constant
/// time).
pub(crate) fn g2_in_subgroup(q: &G2Affine) -> Choice {
    q.is_in_subgroup()
}

/// The pairing's view of a G1 point.
pub(crate) fn g1_for_pairing(p: &G1Affine) -> sm_pairing::G1Affine {
    (*p).into()
}

/// The pairing's view of a G2 point.
pub(crate) fn g2_for_pairing(q: &G2Affine) -> sm_pairing::G2Affine {
    (*q).into()
}

/// `e(P, Q)`.
pub(crate) fn pairing(p: &G1Affine, q: &G2Affine) -> Gt {
    sm_pairing::pairing(&g1_for_pairing(p), &g2_for_pairing(q))
}

/// `k·P1` for a secret `k` (constant time; sm-curve's build-time comb table of P1).
pub(crate) fn mul_p1(k: &Scalar) -> G1Jacobian {
    Sm9G1Curve::mul_generator(k)
}

/// `k·P1` for a public `k`.
pub(crate) fn mul_p1_vartime(k: &Scalar) -> G1Jacobian {
    Sm9G1Curve::mul_generator_vartime(k)
}

/// The Miller-loop lines of P2 (public; built once with `std`, per call without).
pub(crate) fn with_p2_prepared<R>(f: impl FnOnce(&G2Prepared) -> R) -> R {
    #[cfg(feature = "std")]
    {
        static T: std::sync::OnceLock<G2Prepared> = std::sync::OnceLock::new();
        f(T.get_or_init(|| G2Prepared::new(&g2_for_pairing(&p2()))))
    }
    #[cfg(not(feature = "std"))]
    {
        f(&G2Prepared::new(&g2_for_pairing(&p2())))
    }
}

/// `k·P2` for a secret `k` (constant time; sm-curve's build-time comb table of P2).
pub(crate) fn mul_p2(k: &Scalar) -> G2Jacobian {
    Sm9G2Curve::mul_generator(k)
}

/// The generators P1 and P2.
pub(crate) fn p1() -> G1Affine {
    G1Affine::GENERATOR
}

/// P2.
pub(crate) fn p2() -> G2Affine {
    G2Affine::GENERATOR
}
