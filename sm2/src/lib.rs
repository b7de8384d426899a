//! SM2 public-key cryptography (GB/T 32918-2016 / GM/T 0003-2012) on the recommended curve:
//! digital signatures (part 2), key exchange (part 3) and public-key encryption (part 4), with
//! SEC1, PKCS#8 (also password-encrypted, as GmSSL writes it) and SPKI encodings in DER and PEM.
//!
//! All work on secrets (signing, decryption, key exchange) is constant time; functions named
//! `*_vartime` and verification handle public data only. Every type is generic over the limb
//! backend `B` with [`DefaultBackend`] as the default, so plain `SigningKey` etc. pick the best
//! backend the build enables.
//!
//! # Signatures
//! ```
//! use sm2::{SecretKey, SigningKey, VerifyingKey};
//! let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
//! let sk = SecretKey::random(&mut rng);
//! let signer = SigningKey::new(&sk); // default ID "1234567812345678"
//! let sig = signer.sign_with_rng(&mut rng, b"message"); // random nonce
//! let verifier = VerifyingKey::new(sk.public_key());
//! assert!(verifier.verify(b"message", &sig).is_ok());
//! assert!(verifier.verify(b"other", &sig).is_err());
//! let der = sig.to_der();
//! assert_eq!(sm2::Signature::from_der(&der).unwrap(), sig);
//! ```
//!
//! # Encryption
//! ```
//! use sm2::{Mode, SecretKey};
//! let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
//! let sk = SecretKey::random(&mut rng);
//! let ct = sk.public_key().encrypt(&mut rng, b"secret", Mode::C1C3C2).unwrap();
//! assert_eq!(sk.decrypt(&ct, Mode::C1C3C2).unwrap().as_slice(), b"secret");
//! let der = sk.public_key().encrypt_der(&mut rng, b"secret").unwrap();
//! assert_eq!(sk.decrypt_der(&der).unwrap().as_slice(), b"secret");
//! ```
//!
//! # Key exchange
//! ```
//! use sm2::exchange::{Initiator, Responder};
//! use sm2::SecretKey;
//! let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
//! let (a, b) = (SecretKey::random(&mut rng), SecretKey::random(&mut rng));
//! let alice = Initiator::new(&a, b"alice", b.public_key(), b"bob").unwrap();
//! let bob = Responder::new(&b, b"bob", a.public_key(), b"alice").unwrap();
//! let (alice, ra) = alice.start(&mut rng);
//! let (bob, rb, sb) = bob.respond(&mut rng, &ra, 16).unwrap();
//! let (key_a, sa) = alice.finish(&rb, &sb, 16).unwrap();
//! let key_b = bob.confirm(&sa).unwrap();
//! assert_eq!(key_a.as_slice(), key_b.as_slice());
//! ```
//!
//! # PEM keys
//! ```
//! use sm2::SecretKey;
//! use sm2::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
//! let sk = SecretKey::random(&mut rand_core::UnwrapErr(getrandom::SysRng));
//! let pem = sk.to_pkcs8_pem(LineEnding::LF).unwrap();
//! let back = SecretKey::from_pkcs8_pem(&pem).unwrap();
//! assert_eq!(back.to_bytes(), sk.to_bytes());
//! ```
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(test)]
extern crate std;

mod encoding;
mod encryption;
mod error;
pub mod exchange;
mod keys;
mod signature;
mod za;

pub use encoding::{
    decrypt_pkcs8_der, encrypt_pkcs8_der, is_pbes2_encrypted, Pbes2, EC_PUBLIC_KEY_OID,
    MAX_PBKDF2_ITERATIONS, SM2_OID,
};
pub use encryption::{Ciphertext, Mode, DER_OVERHEAD};
pub use error::Error;
pub use signature::Signature;

/// The key types generic over the limb backend `B` (the top-level names fix
/// `B = DefaultBackend`): for cross-backend tests and benchmarks.
pub mod generic {
    pub use crate::keys::{PublicKey, SecretKey};
    pub use crate::signature::{SigningKey, VerifyingKey};
}

/// An SM2 private key on the default backend (see [`generic::SecretKey`]).
pub type SecretKey = generic::SecretKey<DefaultBackend>;
/// An SM2 public key on the default backend (see [`generic::PublicKey`]).
pub type PublicKey = generic::PublicKey<DefaultBackend>;
/// A signing key on the default backend (see [`generic::SigningKey`]).
pub type SigningKey = generic::SigningKey<DefaultBackend>;
/// A verifying key on the default backend (see [`generic::VerifyingKey`]).
pub type VerifyingKey = generic::VerifyingKey<DefaultBackend>;
pub use za::{compute_za, message_digest, DEFAULT_ID, MAX_ID_LEN};

pub use ::signature as signature_traits;
pub use pkcs8;
pub use sec1;
pub use sm_curve;
pub use sm_field::{Backend, DefaultBackend};
pub use spki;

/// The SM2 curve over backend `B`.
pub type Curve<B = DefaultBackend> = sm_curve::Sm2Curve<B>;
/// Integers modulo the group order n.
pub type Scalar<B = DefaultBackend> = sm_field::Fp<sm_field::Sm2N, B>;
/// Elements of the base field GF(p).
pub type FieldElement<B = DefaultBackend> = sm_field::Fp<sm_field::Sm2P, B>;
/// Affine points of the SM2 curve.
pub type AffinePoint<B = DefaultBackend> = sm_curve::Affine<Curve<B>>;
/// Jacobian points of the SM2 curve.
pub type ProjectivePoint<B = DefaultBackend> = sm_curve::Jacobian<Curve<B>>;
