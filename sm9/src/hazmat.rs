//! Operations with caller-chosen nonces, for known-answer tests and interoperability checks
//! only. A nonce must be uniformly random, secret and never reused: a repeated or predictable
//! `r` reveals the signing key (from two signatures) or the plaintext.

use alloc::vec::Vec;

use sm_field::Backend;
use zeroize::Zeroizing;

use crate::encrypt::{encapsulate_dispatched, encrypt_dispatched, Ciphertext, EncapsulatedKey};
use crate::exchange::{EphemeralPoint, ExchangeKey, Initiator, Responder};
use crate::generic::{PreparedEncMasterPublicKey, PreparedSignMasterPublicKey, SignUserKey};
use crate::keys::FixedNonce;
use crate::sign::{Signature, Signer};
use crate::{EncryptionMode, MacMode, Result};

/// Signs with the nonce `r` (32 bytes big-endian in `[1, n − 1]`); [`Error::InvalidScalar`]
/// also when `l = r − h ≡ 0`.
pub fn sign_with_nonce<B: Backend>(
    key: &SignUserKey<B>,
    master: &PreparedSignMasterPublicKey<B>,
    message: &[u8],
    r: &[u8; 32],
) -> Result<Signature<B>> {
    let mut s = Signer::new(key, master)?;
    s.update(message);
    s.sign_with_nonces(FixedNonce { r, iv: [0; 16] })
}

/// Encrypts with the nonce `r` and CBC IV `iv` (ignored by other modes); [`Error::Decryption`]
/// if K1 is all zero for this `r`.
pub fn encrypt_with_nonce<B: Backend>(
    master: &PreparedEncMasterPublicKey<B>,
    id: &[u8],
    plaintext: &[u8],
    mode: EncryptionMode,
    mac: MacMode,
    r: &[u8; 32],
    iv: &[u8; 16],
) -> Result<Ciphertext<B>> {
    let mut c2 = Vec::with_capacity(mode.c2_len(plaintext.len()));
    c2.extend_from_slice(plaintext);
    let nonce = FixedNonce { r, iv: *iv };
    let (c1, c3) = encrypt_dispatched(master, id, &mut c2, mode, mac, nonce)?;
    Ok(Ciphertext::from_encrypted(mode, c1, c3, c2))
}

/// Encapsulates with the nonce `r`; [`Error::Decryption`] if K is all zero for this `r`.
pub fn encapsulate_with_nonce<B: Backend>(
    master: &PreparedEncMasterPublicKey<B>,
    id: &[u8],
    key_len: usize,
    r: &[u8; 32],
) -> Result<(Zeroizing<Vec<u8>>, EncapsulatedKey<B>)> {
    encapsulate_dispatched(master, id, key_len, FixedNonce { r, iv: [0; 16] })
}

/// [`Initiator::start`] with the nonce `rA`.
pub fn initiator_start_with_nonce<'a, B: Backend>(
    key: &'a ExchangeKey<B>,
    master: &'a PreparedEncMasterPublicKey<B>,
    own_id: &[u8],
    peer_id: &[u8],
    r: &[u8; 32],
) -> Result<(Initiator<'a, B>, EphemeralPoint<B>)> {
    Initiator::start_with_nonces(key, master, own_id, peer_id, FixedNonce { r, iv: [0; 16] })
}

/// [`Responder::respond`] with the nonce `rB`.
pub fn responder_respond_with_nonce<B: Backend>(
    key: &ExchangeKey<B>,
    master: &PreparedEncMasterPublicKey<B>,
    own_id: &[u8],
    peer_id: &[u8],
    ra: &EphemeralPoint<B>,
    r: &[u8; 32],
) -> Result<(Responder, EphemeralPoint<B>, [u8; 32])> {
    let nonce = FixedNonce { r, iv: [0; 16] };
    Responder::respond_with_nonces(key, master, own_id, peer_id, ra, nonce)
}
