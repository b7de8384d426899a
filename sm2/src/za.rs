//! The user hash `Z_A = SM3(ENTL_A ‖ ID_A ‖ a ‖ b ‖ x_G ‖ y_G ‖ x_A ‖ y_A)` (GB/T 32918.2 §5.5).

use sm3::{Digest, Sm3};
use sm_curve::CurveParams;
use sm_field::Backend;

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
    let entl = ((id.len() * 8) as u16).to_be_bytes();
    let mut h = Sm3::new();
    h.update(entl);
    h.update(id);
    h.update(Curve::<B>::A.to_bytes());
    h.update(Curve::<B>::B.to_bytes());
    h.update(Curve::<B>::GENERATOR.0.to_bytes());
    h.update(Curve::<B>::GENERATOR.1.to_bytes());
    let p = pk.to_uncompressed();
    h.update(&p[1..]);
    Ok(h.finalize().into())
}

/// `e = SM3(Z_A ‖ M)` (GB/T 32918.2 §6.1 steps A1–A2).
pub fn message_digest(za: &[u8; 32], msg: &[u8]) -> [u8; 32] {
    let mut h = Sm3::new();
    h.update(za);
    h.update(msg);
    h.finalize().into()
}
