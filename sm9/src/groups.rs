//! The groups G1, G2, GT as this crate uses them: sm-curve's SM9 points (the same types the
//! pairing takes, no conversions), the GM/T 0044 point encodings (`04 ‖ x ‖ y`, GF(p²)
//! u-coefficient first: sm-curve's SEC1 codec restricted to the uncompressed form, with the G2
//! subgroup check), and fixed-base multiplication by the generators (sm-curve's build-time comb
//! tables).

use sm_curve::sm9::{Sm9G1Curve, Sm9G2Curve};
use sm_curve::{Affine, CurveParams, Jacobian};

use crate::{Error, Result, Scalar};

pub use sm_curve::sm9::{G1Affine, G2Affine};
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

/// `04 ‖ x ‖ y` of a point that is not the identity (sm-curve's SEC1 writer; `N` is the
/// uncompressed length).
fn to_bytes<C: CurveParams, const N: usize>(p: &Affine<C>) -> [u8; N] {
    let mut out = [0u8; N];
    let n = p
        .write_sec1(false, &mut out)
        .expect("buffer of the uncompressed length");
    debug_assert_eq!(n, N);
    out
}

/// `04 ‖ x ‖ y` of a G1 point that is not the identity.
pub(crate) fn g1_to_bytes(p: &G1Affine) -> [u8; G1_LEN] {
    to_bytes(p)
}

/// `04 ‖ x ‖ y` of a G2 point that is not the identity.
pub(crate) fn g2_to_bytes(p: &G2Affine) -> [u8; G2_LEN] {
    to_bytes(p)
}

/// GM/T 0044 accepts only the uncompressed form: `len` bytes starting with `04`.
fn check_uncompressed(bytes: &[u8], len: usize) -> Result<()> {
    if bytes.len() != len || bytes[0] != 0x04 {
        return Err(Error::Encoding);
    }
    Ok(())
}

/// Decodes `04 ‖ x ‖ y` into a G1 point: coordinates below p, on the curve, not the identity
/// (G1 has cofactor 1, so that is the subgroup check; sm-curve's SEC1 decoder).
pub(crate) fn g1_from_bytes(bytes: &[u8]) -> Result<G1Affine> {
    check_uncompressed(bytes, G1_LEN)?;
    G1Affine::from_sec1(bytes).map_err(|_| Error::InvalidPoint)
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::G1Affine {}
    impl Sealed for super::G2Affine {}
}

/// G1 or G2 as the key types use them (sealed): the GM/T 0044 encoding `04 ‖ x ‖ y` with its
/// checks, and multiplication of the generator by a secret scalar.
pub trait GroupPoint:
    sealed::Sealed + Copy + Eq + core::fmt::Debug + zeroize::Zeroize + 'static
{
    /// The encoding: `[u8; 65]` for G1, `[u8; 129]` for G2.
    type Bytes: AsRef<[u8]> + Copy + zeroize::Zeroize;
    /// `04 ‖ x ‖ y` of a point that is not the identity.
    fn to_gmt_bytes(&self) -> Self::Bytes;
    /// Decodes `04 ‖ x ‖ y`: canonical coordinates, on the curve, in the group.
    fn from_gmt_bytes(bytes: &[u8]) -> Result<Self>;
    /// `[k]` times the group's generator (P1 or P2), constant time in `k`.
    fn mul_generator(k: &Scalar) -> Self;
}

impl GroupPoint for G1Affine {
    type Bytes = [u8; G1_LEN];
    fn to_gmt_bytes(&self) -> Self::Bytes {
        g1_to_bytes(self)
    }
    fn from_gmt_bytes(bytes: &[u8]) -> Result<Self> {
        g1_from_bytes(bytes)
    }
    fn mul_generator(k: &Scalar) -> Self {
        mul_p1(k).to_affine()
    }
}

impl GroupPoint for G2Affine {
    type Bytes = [u8; G2_LEN];
    fn to_gmt_bytes(&self) -> Self::Bytes {
        g2_to_bytes(self)
    }
    fn from_gmt_bytes(bytes: &[u8]) -> Result<Self> {
        g2_from_bytes(bytes)
    }
    fn mul_generator(k: &Scalar) -> Self {
        mul_p2(k).to_affine()
    }
}

/// Decodes `04 ‖ x ‖ y` into a G2 point: coordinates below p, on the twist, in the order-n
/// subgroup (sm-curve's ψ-based test, constant time), not the identity.
pub(crate) fn g2_from_bytes(bytes: &[u8]) -> Result<G2Affine> {
    check_uncompressed(bytes, G2_LEN)?;
    sm_curve::sm9::g2_from_sec1(bytes).map_err(|_| Error::InvalidPoint)
}

/// `e(P, Q)`.
pub(crate) fn pairing(p: &G1Affine, q: &G2Affine) -> Gt {
    sm_pairing::pairing(p, q)
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
        f(T.get_or_init(|| G2Prepared::new(&p2())))
    }
    #[cfg(not(feature = "std"))]
    {
        f(&G2Prepared::new(&p2()))
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
