//! The user hash `Z_A = SM3(ENTL_A ‖ ID_A ‖ a ‖ b ‖ x_G ‖ y_G ‖ x_A ‖ y_A)` (GB/T 32918.2 §5.5).

use sm3::{Digest, Sm3};
use sm_curve::CurveParams;
use sm_field::{Backend, Job};

use crate::keys::PublicKey;
use crate::{Curve, Error};

/// The default distinguishing ID of GM/T 0009-2012 §10: `"1234567812345678"`.
///
/// Note that OpenSSL 3 uses the **empty** ID unless `-pkeyopt distid:…` is given.
pub const DEFAULT_ID: &[u8] = b"1234567812345678";

/// Longest ID whose bit length fits the 16-bit ENTL field.
pub const MAX_ID_LEN: usize = 8191;

/// `Z_A` for `id` and public key `pk`. Any bytes up to [`MAX_ID_LEN`] are accepted (including
/// the empty ID).
pub fn compute_za<B: Backend>(id: &[u8], pk: &PublicKey<B>) -> Result<[u8; 32], Error> {
    if id.len() > MAX_ID_LEN {
        return Err(Error::IdTooLong);
    }
    /// The hash, with the encodings of the curve constants and the key, on the pure backend.
    struct Za<'a, B: Backend>(&'a [u8], &'a PublicKey<B>);
    impl<B: Backend> Job for Za<'_, B> {
        type Output = [u8; 32];
        fn run<B2: Backend>(self) -> [u8; 32] {
            let entl = ((self.0.len() * 8) as u16).to_be_bytes();
            let mut h = Sm3::new();
            h.update(entl);
            h.update(self.0);
            h.update(Curve::<B2>::A.to_bytes());
            h.update(Curve::<B2>::B.to_bytes());
            h.update(Curve::<B2>::GENERATOR.0.to_bytes());
            h.update(Curve::<B2>::GENERATOR.1.to_bytes());
            let p = self.1.as_affine().to_backend::<B2>();
            h.update(p.x().to_bytes());
            h.update(p.y().to_bytes());
            h.finalize().into()
        }
    }
    Ok(B::dispatch(Za(id, pk)))
}

/// `e = SM3(Z_A ‖ M)` (GB/T 32918.2 §6.1 steps A1–A2).
pub fn message_digest(za: &[u8; 32], msg: &[u8]) -> [u8; 32] {
    let mut h = Sm3::new();
    h.update(za);
    h.update(msg);
    h.finalize().into()
}
