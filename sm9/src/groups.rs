//! The groups G1, G2, GT as this crate uses them: sm-curve's SM9 points (the same types the
//! pairing takes, no conversions), the GM/T 0044 point encodings (`04 ‖ x ‖ y`, GF(p²)
//! u-coefficient first: sm-curve's SEC1 codec restricted to the uncompressed form, with the G2
//! subgroup check), and fixed-base multiplication by the generators (sm-curve's build-time comb
//! tables).

use sm_curve::sm9::{Sm9G1Curve, Sm9G2Curve};
use sm_curve::{Affine, CurveParams, Jacobian};
use sm_field::{Backend, Job};
use zeroize::Zeroize;

use crate::generic::Scalar;
use crate::{Error, Result};

pub use sm_curve::sm9::{G1Affine, G2Affine};
/// A point of G1 (Jacobian).
pub(crate) type G1Jacobian<B> = Jacobian<Sm9G1Curve<B>>;
/// A point of G2 (Jacobian).
pub(crate) type G2Jacobian<B> = Jacobian<Sm9G2Curve<B>>;
/// Precomputed Miller-loop lines of a G2 point.
pub(crate) type G2Prepared<B> = sm_pairing::G2Prepared<B>;
/// An element of GT.
pub(crate) type Gt<B> = sm_pairing::Gt<B>;

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
pub(crate) fn g1_to_bytes<B: Backend>(p: &G1Affine<B>) -> [u8; G1_LEN] {
    to_bytes(p)
}

/// `04 ‖ x ‖ y` of a G2 point that is not the identity.
pub(crate) fn g2_to_bytes<B: Backend>(p: &G2Affine<B>) -> [u8; G2_LEN] {
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
pub(crate) fn g1_from_bytes<B: Backend>(bytes: &[u8]) -> Result<G1Affine<B>> {
    check_uncompressed(bytes, G1_LEN)?;
    G1Affine::from_sec1(bytes).map_err(|_| Error::InvalidPoint)
}

mod sealed {
    use sm_field::Backend;

    pub trait Sealed {}
    impl<B: Backend> Sealed for super::G1Affine<B> {}
    impl<B: Backend> Sealed for super::G2Affine<B> {}
}

/// G1 or G2 over the limb backend [`Backend`](GroupPoint::Backend) as the key types use them
/// (sealed): the GM/T 0044 encoding `04 ‖ x ‖ y` with its checks, and multiplication of the
/// generator by a secret scalar.
pub trait GroupPoint:
    sealed::Sealed + Copy + Eq + core::fmt::Debug + zeroize::Zeroize + Send + Sync + 'static
{
    /// The limb backend of the coordinates.
    type Backend: Backend;
    /// The encoding: `[u8; 65]` for G1, `[u8; 129]` for G2.
    type Bytes: AsRef<[u8]> + Copy + zeroize::Zeroize;
    /// `04 ‖ x ‖ y` of a point that is not the identity.
    fn to_gmt_bytes(&self) -> Self::Bytes;
    /// Decodes `04 ‖ x ‖ y`: canonical coordinates, on the curve, in the group.
    fn from_gmt_bytes(bytes: &[u8]) -> Result<Self>;
    /// `[k]` times the group's generator (P1 or P2), constant time in `k`; one dispatched job
    /// ([`Backend::dispatch`]).
    fn mul_generator(k: &Scalar<Self::Backend>) -> Self {
        Self::Backend::dispatch(MulGenerator::<Self>(k))
    }
    /// [`mul_generator`](Self::mul_generator) computed on backend `B2` itself (no dispatch:
    /// for code already running inside a job), the result on this point's backend.
    fn mul_generator_on<B2: Backend>(k: &Scalar<B2>) -> Self;
}

/// [`GroupPoint::mul_generator`] as a job; the copy of the secret `k` is wiped inside it.
struct MulGenerator<'a, P: GroupPoint>(&'a Scalar<P::Backend>);

impl<P: GroupPoint> Job for MulGenerator<'_, P> {
    type Output = P;
    fn run<B2: Backend>(self) -> P {
        let mut k = self.0.to_backend::<B2>();
        let p = P::mul_generator_on(&k);
        k.zeroize();
        p
    }
}

impl<B: Backend> GroupPoint for G1Affine<B> {
    type Backend = B;
    type Bytes = [u8; G1_LEN];
    fn to_gmt_bytes(&self) -> Self::Bytes {
        g1_to_bytes(self)
    }
    fn from_gmt_bytes(bytes: &[u8]) -> Result<Self> {
        g1_from_bytes(bytes)
    }
    fn mul_generator_on<B2: Backend>(k: &Scalar<B2>) -> Self {
        mul_p1(k).to_affine().to_backend()
    }
}

impl<B: Backend> GroupPoint for G2Affine<B> {
    type Backend = B;
    type Bytes = [u8; G2_LEN];
    fn to_gmt_bytes(&self) -> Self::Bytes {
        g2_to_bytes(self)
    }
    fn from_gmt_bytes(bytes: &[u8]) -> Result<Self> {
        g2_from_bytes(bytes)
    }
    fn mul_generator_on<B2: Backend>(k: &Scalar<B2>) -> Self {
        mul_p2(k).to_affine().to_backend()
    }
}

/// Decodes `04 ‖ x ‖ y` into a G2 point: coordinates below p, on the twist, in the order-n
/// subgroup (sm-curve's ψ-based test, constant time), not the identity.
pub(crate) fn g2_from_bytes<B: Backend>(bytes: &[u8]) -> Result<G2Affine<B>> {
    check_uncompressed(bytes, G2_LEN)?;
    sm_curve::sm9::g2_from_sec1(bytes).map_err(|_| Error::InvalidPoint)
}

/// `e(P, Q)`.
pub(crate) fn pairing<B: Backend>(p: &G1Affine<B>, q: &G2Affine<B>) -> Gt<B> {
    sm_pairing::pairing(p, q)
}

/// `k·P1` for a secret `k` (constant time; sm-curve's build-time comb table of P1).
pub(crate) fn mul_p1<B: Backend>(k: &Scalar<B>) -> G1Jacobian<B> {
    Sm9G1Curve::<B>::mul_generator(k)
}

/// `k·P1` for a public `k`.
pub(crate) fn mul_p1_vartime<B: Backend>(k: &Scalar<B>) -> G1Jacobian<B> {
    Sm9G1Curve::<B>::mul_generator_vartime(k)
}

/// The Miller-loop lines of P2 (public). With `std` they are built once per backend and kept
/// for the life of the process (a static cannot be generic, so one small registry keyed by the
/// backend's `TypeId`; a read lock per call); without `std`, once per call.
pub(crate) fn with_p2_prepared<B: Backend, R>(f: impl FnOnce(&G2Prepared<B>) -> R) -> R {
    #[cfg(feature = "std")]
    {
        use std::any::{Any, TypeId};
        use std::sync::{PoisonError, RwLock};
        type Entry = (TypeId, &'static (dyn Any + Send + Sync));
        static TABLES: RwLock<alloc::vec::Vec<Entry>> = RwLock::new(alloc::vec::Vec::new());
        let id = TypeId::of::<B>();
        let find = |entries: &[Entry]| -> Option<&'static G2Prepared<B>> {
            let any: &'static (dyn Any + Send + Sync) = entries.iter().find(|e| e.0 == id)?.1;
            any.downcast_ref()
        };
        let hit = find(&TABLES.read().unwrap_or_else(PoisonError::into_inner));
        let lines = hit.unwrap_or_else(|| {
            let mut entries = TABLES.write().unwrap_or_else(PoisonError::into_inner);
            find(&entries).unwrap_or_else(|| {
                let lines: &'static G2Prepared<B> =
                    alloc::boxed::Box::leak(alloc::boxed::Box::new(G2Prepared::new(&p2())));
                entries.push((id, lines));
                lines
            })
        });
        f(lines)
    }
    #[cfg(not(feature = "std"))]
    {
        f(&G2Prepared::new(&p2()))
    }
}

/// `k·P2` for a secret `k` (constant time; sm-curve's build-time comb table of P2).
pub(crate) fn mul_p2<B: Backend>(k: &Scalar<B>) -> G2Jacobian<B> {
    Sm9G2Curve::<B>::mul_generator(k)
}

/// The generator P1.
pub(crate) fn p1<B: Backend>() -> G1Affine<B> {
    G1Affine::GENERATOR
}

/// The generator P2.
pub(crate) fn p2<B: Backend>() -> G2Affine<B> {
    G2Affine::GENERATOR
}
