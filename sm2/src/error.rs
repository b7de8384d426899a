//! The crate's error type.

use core::fmt;

/// Errors of SM2 operations. Verification and decryption failures are deliberately opaque
/// ([`Error::Verification`], [`Error::Decryption`]): they carry no detail about which check failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A public key (or peer point) that is malformed, not on the curve, or the point at infinity.
    InvalidPublicKey,
    /// A secret key outside `[1, n − 2]` or of the wrong length.
    InvalidSecretKey,
    /// A signature encoding that is malformed, non-minimal (strict DER), has trailing data, or
    /// has `r` or `s` outside `[1, n − 1]`.
    InvalidSignature,
    /// A malformed key or ciphertext encoding (DER, PEM, PKCS#8, SPKI, SEC1, framing, length).
    Encoding,
    /// A distinguishing ID longer than 8191 bytes (its bit length must fit the 16-bit ENTL).
    IdTooLong,
    /// An empty plaintext (SM2 encryption needs at least one byte: the KDF output would be empty).
    EmptyPlaintext,
    /// The signature does not verify.
    Verification,
    /// Decryption failed (bad C1, tampered C2/C3, all-zero KDF output, wrong password).
    Decryption,
    /// Key exchange failed (invalid peer ephemeral point, shared point at infinity, or a
    /// confirmation hash mismatch).
    KeyExchange,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Error::InvalidPublicKey => "invalid SM2 public key",
            Error::InvalidSecretKey => "invalid SM2 secret key",
            Error::InvalidSignature => "invalid SM2 signature encoding",
            Error::Encoding => "malformed encoding",
            Error::IdTooLong => "distinguishing ID longer than 8191 bytes",
            Error::EmptyPlaintext => "empty plaintext",
            Error::Verification => "signature verification failed",
            Error::Decryption => "decryption failed",
            Error::KeyExchange => "key exchange failed",
        })
    }
}

impl core::error::Error for Error {}

impl From<Error> for signature::Error {
    fn from(e: Error) -> Self {
        // `signature::Error` is opaque without `std`; keep it that way.
        let _ = e;
        signature::Error::new()
    }
}
