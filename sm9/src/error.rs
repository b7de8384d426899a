//! The crate's error type.

use core::fmt;

/// Errors of the SM9 crate.
///
/// Decoding and usage errors say what was wrong with the input; failed verifications,
/// decryptions and key confirmations are deliberately opaque (one variant each, no detail).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// Malformed encoding: wrong length, bad DER/PEM, trailing data, unknown point format.
    Encoding,
    /// An object identifier, PEM label or algorithm that is not the expected SM9 one.
    UnknownAlgorithm,
    /// A point that is not on the curve, not in the order-n subgroup, or the point at infinity.
    InvalidPoint,
    /// A scalar outside `[1, n − 1]` (master secret, signature `h`, nonce).
    InvalidScalar,
    /// `t1 = H1(ID ‖ hid, n) + ks ≡ 0 (mod n)` (GM/T 0044.3 §6.1 A2 / .5 §6.1): the KGC must
    /// generate a new master key; no private key exists for this identity.
    DegenerateIdentity,
    /// A user key was used with a master public key it does not belong to.
    KeyMismatch,
    /// A requested length is zero or too large (KEM key length, KDF output).
    InvalidLength,
    /// Signature verification failed.
    Verification,
    /// Decryption or decapsulation failed (MAC mismatch, bad padding, KDF output all zero,
    /// wrong key or password).
    Decryption,
    /// Key-exchange confirmation (SA or SB) did not match.
    KeyConfirmation,
    /// The random number generator failed.
    Rng,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Error::Encoding => "malformed SM9 encoding",
            Error::UnknownAlgorithm => "unknown or unexpected algorithm identifier",
            Error::InvalidPoint => "point not on the curve or not in the subgroup",
            Error::InvalidScalar => "scalar out of range [1, n-1]",
            Error::DegenerateIdentity => {
                "t1 = H1(ID||hid) + ks is zero mod n: new master key needed"
            }
            Error::KeyMismatch => "user key does not belong to this master public key",
            Error::InvalidLength => "invalid length",
            Error::Verification => "signature verification failed",
            Error::Decryption => "decryption failed",
            Error::KeyConfirmation => "key confirmation failed",
            Error::Rng => "random number generator failure",
        })
    }
}

impl core::error::Error for Error {}

impl From<der::Error> for Error {
    fn from(_: der::Error) -> Self {
        Error::Encoding
    }
}

/// Result alias of this crate.
pub type Result<T> = core::result::Result<T, Error>;
