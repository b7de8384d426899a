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
//! use shangmi_sm2::{SecretKey, SigningKey, VerifyingKey};
//! let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
//! let sk = SecretKey::random(&mut rng);
//! let signer = SigningKey::new(&sk); // default ID "1234567812345678"
//! let sig = signer.sign_with_rng(&mut rng, b"message"); // random nonce
//! let verifier = VerifyingKey::new(sk.public_key());
//! assert!(verifier.verify(b"message", &sig).is_ok());
//! assert!(verifier.verify(b"other", &sig).is_err());
//! let der = sig.to_der();
//! assert_eq!(shangmi_sm2::Signature::from_der(&der).unwrap(), sig);
//! ```
//!
//! # Encryption
//! ```
//! use shangmi_sm2::{Mode, SecretKey};
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
//! use shangmi_sm2::exchange::{Initiator, Responder};
//! use shangmi_sm2::SecretKey;
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
//! use shangmi_sm2::SecretKey;
//! use shangmi_sm2::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
//! let sk = SecretKey::random(&mut rand_core::UnwrapErr(getrandom::SysRng));
//! let pem = sk.to_pkcs8_pem(LineEnding::LF).unwrap();
//! let back = SecretKey::from_pkcs8_pem(&pem).unwrap();
//! assert_eq!(back.to_bytes(), sk.to_bytes());
//! ```
//!
//! # Password-encrypted PKCS#8, SEC1 and SPKI
//! ```
//! use shangmi_sm2::pkcs8::LineEnding;
//! use shangmi_sm2::spki::{DecodePublicKey, EncodePublicKey};
//! use shangmi_sm2::{Pbes2, PublicKey, SecretKey};
//! let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
//! let sk = SecretKey::random(&mut rng);
//! // GmSSL's PBES2 (PBKDF2-HMAC-SM3 + SM4-CBC); `Pbes2::OpenSsl` writes what OpenSSL 3.0 reads.
//! let enc = sk.to_pkcs8_encrypted_pem(&mut rng, b"password", LineEnding::LF).unwrap();
//! assert!(enc.starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----"));
//! let back = SecretKey::from_pkcs8_encrypted_pem(&enc, b"password").unwrap();
//! assert_eq!(back.to_bytes(), sk.to_bytes());
//! assert!(SecretKey::from_pkcs8_encrypted_pem(&enc, b"wrong").is_err());
//! let ossl = sk.to_pkcs8_encrypted_pem_as(&mut rng, b"pw", Pbes2::OpenSsl, LineEnding::LF).unwrap();
//! assert_eq!(SecretKey::from_pkcs8_encrypted_pem(&ossl, b"pw").unwrap().to_bytes(), sk.to_bytes());
//! // SEC1 `EC PRIVATE KEY` (as `openssl ec` writes it) and the public key's SPKI.
//! let sec1 = sk.to_sec1_pem(LineEnding::LF).unwrap();
//! assert_eq!(SecretKey::from_sec1_pem(&sec1).unwrap().to_bytes(), sk.to_bytes());
//! let spki = sk.public_key().to_public_key_pem(LineEnding::LF).unwrap();
//! assert_eq!(&PublicKey::from_public_key_pem(&spki).unwrap(), sk.public_key());
//! ```
//!
//! # Prehashing: Z_A and e = SM3(Z_A ‖ M)
//! The digest signed is `e = SM3(Z_A ‖ M)`, where `Z_A` binds the signer's ID and public key
//! (GB/T 32918.2 §5.5). A caller that hashes the message elsewhere (streaming, another process)
//! signs `e` with the prehash methods, or feeds the message to the `Sm3` hasher that
//! [`DigestSigner`](signature_traits::DigestSigner) prepares with `Z_A`:
//! ```
//! use shangmi_sm2::signature_traits::{hazmat::PrehashSigner, DigestSigner, Signer};
//! use shangmi_sm2::{compute_za, message_digest, SecretKey, SigningKey, VerifyingKey};
//! use sm3::{digest::Update, Digest};
//! let sk = SecretKey::random(&mut rand_core::UnwrapErr(getrandom::SysRng));
//! let signer = SigningKey::with_id(&sk, b"alice@example.com").unwrap();
//! let za = compute_za(b"alice@example.com", sk.public_key()).unwrap();
//! assert_eq!(&za, signer.za());
//! // e computed by hand, in pieces:
//! let mut h = sm3::Sm3::new();
//! Digest::update(&mut h, za);
//! Digest::update(&mut h, b"part 1, ");
//! Digest::update(&mut h, b"part 2");
//! let e: [u8; 32] = h.finalize().into();
//! assert_eq!(e, message_digest(&za, b"part 1, part 2"));
//! let sig = signer.sign_prehash(&e).unwrap(); // deterministic nonce, as `Signer::sign`
//! assert_eq!(sig, signer.sign(b"part 1, part 2"));
//! assert_eq!(sig, signer.sign_digest(|d: &mut sm3::Sm3| Update::update(d, b"part 1, part 2")));
//! let vk = VerifyingKey::with_id(sk.public_key(), b"alice@example.com").unwrap();
//! assert!(vk.verify_prehash(&e, &sig).is_ok());
//! ```
//!
//! # Precomputed verifying keys
//! A verifying key used for many signatures can carry a comb table of its point (≈ 88 KB),
//! which makes each verification about twice as fast:
//! ```
//! use shangmi_sm2::{SecretKey, SigningKey, VerifyingKey};
//! let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
//! let sk = SecretKey::random(&mut rng);
//! let vk = VerifyingKey::new(sk.public_key()).with_precomputed_table();
//! let signer = SigningKey::new(&sk);
//! for msg in [&b"one"[..], b"two", b"three"] {
//!     assert!(vk.verify(msg, &signer.sign_with_rng(&mut rng, msg)).is_ok());
//! }
//! ```
//!
//! # `serde` (feature `serde`)
//!
//! [`PublicKey`], [`Signature`] and [`Ciphertext`] (`C1 ‖ C3 ‖ C2`) serialize as hex strings in
//! human-readable formats and as bytes in binary ones (RustCrypto's `serdect` convention);
//! deserializing validates as `from_sec1_bytes` / `from_bytes` do. Secret and signing keys have
//! no serde impls (use PKCS#8 or SEC1), nor has `VerifyingKey` (it carries the ID through
//! `Z_A`: serialize the public key and the ID).
//!
//! # Ciphertext layouts
//! GB/T 32918.4-2016 orders the ciphertext C1 ‖ C3 ‖ C2; the 2010 draft (and some old
//! libraries) C1 ‖ C2 ‖ C3. Both decrypt only in the mode they were written in:
//! ```
//! use shangmi_sm2::{Ciphertext, Mode, SecretKey};
//! let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
//! let sk = SecretKey::random(&mut rng);
//! let old = sk.public_key().encrypt(&mut rng, b"secret", Mode::C1C2C3).unwrap();
//! assert_eq!(sk.decrypt(&old, Mode::C1C2C3).unwrap().as_slice(), b"secret");
//! assert!(sk.decrypt(&old, Mode::C1C3C2).is_err());
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(test)]
extern crate std;

pub mod batch;
mod batch_encryption;
mod encoding;
mod encryption;
mod error;
pub mod exchange;
mod keys;
#[cfg(feature = "serde")]
mod serde_impls;
mod signature;
mod traits;
mod za;

pub use encoding::{
    decrypt_pkcs8_der, encrypt_pkcs8_der, is_pbes2_encrypted, Pbes2, EC_PUBLIC_KEY_OID,
    MAX_PBKDF2_ITERATIONS, SM2_OID,
};
pub use encryption::{Ciphertext, Mode, DER_OVERHEAD};
pub use error::Error;
pub use signature::Signature;
pub use traits::SM2_WITH_SM3_OID;

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
