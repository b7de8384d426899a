//! HMAC-SM3 (RFC 2104 / GB/T 15852.2 with SM3: block 64 bytes, tag 32 bytes).

use zeroize::Zeroize;

use crate::consts::{BLOCK_LEN, DIGEST_LEN};
use crate::hasher::Hasher;
use crate::Sm3;

/// HMAC-SM3 as a RustCrypto [`hmac::Mac`]: keyed, streaming, with constant-time `verify_slice`.
pub type HmacSm3 = hmac::Hmac<Sm3>;

/// One-shot HMAC-SM3 of `msg` under `key` (any length; keys longer than 64 bytes are hashed).
///
/// The padded key blocks are zeroized before returning.
pub fn hmac_sm3(key: &[u8], msg: &[u8]) -> [u8; DIGEST_LEN] {
    let mut k0 = [0u8; BLOCK_LEN];
    if key.len() > BLOCK_LEN {
        k0[..DIGEST_LEN].copy_from_slice(&crate::hash(key));
    } else {
        k0[..key.len()].copy_from_slice(key);
    }
    let mut pad = [0u8; BLOCK_LEN];
    for (p, k) in pad.iter_mut().zip(&k0) {
        *p = k ^ 0x36;
    }
    let mut inner = Hasher::new();
    inner.update(&pad);
    inner.update(msg);
    let mut inner_digest = inner.finalize();
    for (p, k) in pad.iter_mut().zip(&k0) {
        *p = k ^ 0x5c;
    }
    let mut outer = Hasher::new();
    outer.update(&pad);
    outer.update(&inner_digest);
    k0.zeroize();
    pad.zeroize();
    inner_digest.zeroize();
    outer.finalize()
}
