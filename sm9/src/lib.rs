//! SM9 identity-based cryptography (GM/T 0044-2016, GB/T 38635-2020): master and user keys,
//! signatures, public-key encryption, key encapsulation and key exchange, with GM/T 0080 DER,
//! GmSSL-compatible PEM / PKCS#8 encodings and per-key precomputation.
//!
//! # Overview
//!
//! | operation | functions | standard |
//! |---|---|---|
//! | master keys, user key extraction | [`SignMasterKey`], [`EncMasterKey`] | GM/T 0044.2–.4 §6.1 |
//! | sign / verify (streaming) | [`sign`], [`sign_prepared`], [`verify`], [`Signer`], [`Verifier`], [`BatchVerifier`] | GM/T 0044.2 §6 |
//! | encrypt / decrypt | [`encrypt`], [`decrypt`], [`Ciphertext`]; in place: [`encrypt_in_place`], [`decrypt_in_place`] and their `_der_` forms | GM/T 0044.4 §7 |
//! | key encapsulation | [`encapsulate`], [`decapsulate`] | GM/T 0044.4 §6 |
//! | key exchange | [`Initiator`], [`Responder`] | GM/T 0044.3 §7 |
//! | H1, H2 | [`h1`], [`h2`] | GM/T 0044.2 §5.3.2 |
//!
//! Master public keys are used through their *prepared* forms
//! ([`SignMasterPublicKey::prepare`], [`EncMasterPublicKey::prepare`]), which hold the pairing
//! value `g` as a fixed-base GT table; user decryption and exchange keys through
//! [`EncUserKey::prepare`] / [`ExchangeUserKey::prepare`], which hold the Miller-loop lines of
//! `de`. Build them once per key and reuse them.
//!
//! # Keys and encodings
//!
//! ```
//! let mut rng = rand_core::UnwrapErr(getrandom::SysRng); // the OS RNG
//! let kgc = shangmi_sm9::SignMasterKey::generate(&mut rng);
//! let pem = kgc.public_key().to_pem().unwrap(); // "SM9 SIGN MASTER PUBLIC KEY"
//! assert_eq!(&shangmi_sm9::SignMasterPublicKey::from_pem(&pem).unwrap(), kgc.public_key());
//!
//! let alice = kgc.extract(b"alice@example.com").unwrap();
//! let der = alice.to_der().unwrap(); // SM9SignPrivateKey
//! let back = shangmi_sm9::SignUserKey::from_der(&der).unwrap();
//! assert_eq!(back.ds_bytes(), alice.ds_bytes());
//! // Password-encrypted PKCS#8 (PBKDF2-HMAC-SM3 + SM4-CBC), as GmSSL writes it. (A low
//! // iteration count keeps this example fast; the default is GmSSL's 65536.)
//! let enc = alice.to_encrypted_pkcs8_der_with(b"pw", &[1; 16], &[2; 16], 1000).unwrap();
//! let back = shangmi_sm9::SignUserKey::from_encrypted_pkcs8_der(&enc, b"pw").unwrap();
//! assert_eq!(back.ds_bytes(), alice.ds_bytes());
//! assert_eq!(
//!     shangmi_sm9::SignUserKey::from_encrypted_pkcs8_der(&enc, b"wrong").unwrap_err(),
//!     shangmi_sm9::Error::Decryption
//! );
//! ```
//!
//! # Signatures (streamed message)
//!
//! ```
//! let mut rng = rand_core::UnwrapErr(getrandom::SysRng); // the OS RNG
//! let kgc = shangmi_sm9::SignMasterKey::generate(&mut rng);
//! let master = kgc.public_key().prepare();
//! let alice = kgc.extract(b"Alice").unwrap();
//!
//! let mut signer = shangmi_sm9::Signer::new(&alice, &master).unwrap();
//! signer.update(b"Chinese IBS ").update(b"standard");
//! let sig = signer.sign(&mut rng);
//! let der = sig.to_der().unwrap(); // SEQUENCE { h OCTET STRING, S BIT STRING }
//!
//! let sig = shangmi_sm9::Signature::from_der(&der).unwrap();
//! let mut verifier = shangmi_sm9::Verifier::new(&master, b"Alice", &sig);
//! verifier.update(b"Chinese IBS standard");
//! assert!(verifier.verify().is_ok());
//! ```
//!
//! # Encryption, KEM, key exchange
//!
//! See [`encrypt`], [`encapsulate`] and [`Initiator::start`]. The encryption MAC is an explicit
//! choice: [`MacMode::Sm3`] is the standard's `SM3(C2 ‖ K2)`, [`MacMode::HmacSm3`] GmSSL's
//! `HMAC-SM3(K2, C2)`. The empty message is accepted (see the [`encrypt`] module notes).
//!
//! # RustCrypto `pkcs8` / `spki` traits and `serde`
//!
//! Master and user keys implement `pkcs8::EncodePrivateKey`/`DecodePrivateKey` (the bytes of
//! the inherent `to_pkcs8_der`, GmSSL's layout); master public keys implement
//! `spki::EncodePublicKey`/`DecodePublicKey` (`SubjectPublicKeyInfo` with algorithm `sm9` and
//! parameter `sm9sign`/`sm9encrypt`, the point as the subject public key):
//!
//! ```
//! use pkcs8::{DecodePrivateKey, EncodePrivateKey};
//! use pkcs8::spki::{DecodePublicKey, EncodePublicKey};
//! fn reload<K: EncodePrivateKey + DecodePrivateKey>(k: &K) -> K {
//!     K::from_pkcs8_der(EncodePrivateKey::to_pkcs8_der(k).unwrap().as_bytes()).unwrap()
//! }
//! let kgc = shangmi_sm9::EncMasterKey::generate(&mut rand_core::UnwrapErr(getrandom::SysRng));
//! assert_eq!(reload(&kgc).public_key(), kgc.public_key());
//! let spki = kgc.public_key().to_public_key_der().unwrap();
//! let mpk = shangmi_sm9::EncMasterPublicKey::from_public_key_der(spki.as_bytes()).unwrap();
//! assert_eq!(&mpk, kgc.public_key());
//! ```
//!
//! With the feature `serde`, the public values (master public keys, [`Signature`],
//! [`Ciphertext`] as its DER, [`EncapsulatedKey`]) serialize as hex strings in human-readable
//! formats and as bytes in binary ones (RustCrypto's `serdect` convention); deserializing
//! validates as the byte decoders do. Secret keys have no serde impls: use (encrypted) PKCS#8.
//!
//! # Security notes
//!
//! Secret scalars (master secrets, nonces) and user keys are handled in constant time
//! (fixed-window / comb scalar multiplication with constant-time table lookups, constant-time
//! GT exponentiation, constant-time MAC and confirmation comparisons) and zeroized on drop.
//! Decoders check ranges, curve membership and subgroup membership and return typed errors;
//! verification and decryption failures are opaque.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

mod asn1;
mod batch;
mod encrypt;
mod error;
mod exchange;
mod groups;
mod hash;
pub mod hazmat;
mod keys;
mod pkcs8;
mod pkcs8_traits;
mod prepared;
#[cfg(feature = "serde")]
mod serde_impls;
mod sign;
mod signing_key;
mod symmetric;

pub use asn1::{
    OID_SM9, OID_SM9_ENCRYPT, OID_SM9_KEY_AGREEMENT, OID_SM9_SIGN, PEM_ENC_MASTER_PUBLIC_KEY,
    PEM_SIGN_MASTER_PUBLIC_KEY,
};
pub use batch::{verify_batch, BatchResult};
pub use encrypt::{
    decapsulate, decrypt, decrypt_der_in_place, decrypt_in_place, encapsulate, encrypt,
    encrypt_der_in_place, encrypt_in_place, DER_OVERHEAD,
};
pub use error::{Error, Result};
pub use exchange::Responder;
pub use groups::{G1Affine, G2Affine, GroupPoint};
pub use hash::{h1, h2};
pub use keys::{Enc, Scheme, Sign, HID_ENCRYPT, HID_EXCHANGE, HID_SIGN};
pub use pkcs8::{DEFAULT_PBKDF2_ITERATIONS, MAX_PBKDF2_ITERATIONS};
pub use sign::{sign, sign_prepared, verify};
pub use sm_field::{Backend, DefaultBackend};
pub use symmetric::{EncryptionMode, MacMode};

/// The SM9 types generic over the limb backend `B` (`sm_field::U64`, `U32`, `Asm`, …); the
/// top-level names fix `B = DefaultBackend`. The functions ([`sign`], [`verify`],
/// [`encrypt`], …) are generic already and take either. For cross-backend tests and
/// benchmarks: every backend computes the same bytes.
pub mod generic {
    use sm_field::{Fp, Sm9N};

    pub use crate::batch::{BatchItem, BatchVerifier};
    pub use crate::encrypt::{Ciphertext, DecryptionKey, EncapsulatedKey};
    pub use crate::exchange::{EphemeralPoint, ExchangeKey, Initiator};
    pub use crate::keys::{ExchangeUserKey, MasterKey, MasterPublicKey, UserKey};
    pub use crate::prepared::PreparedMasterPublicKey;
    pub use crate::sign::{IdentitySigner, IdentityVerifier, Signature, Signer, Verifier};
    pub use crate::signing_key::SigningKey;
    use crate::{Enc, Sign};

    /// An integer modulo the group order n over the backend `B`.
    pub type Scalar<B> = Fp<Sm9N, B>;
    /// An element of GT over the backend `B`.
    pub type Gt<B> = sm_pairing::Gt<B>;
    /// [`MasterPublicKey`] of the signature system.
    pub type SignMasterPublicKey<B> = MasterPublicKey<Sign, B>;
    /// [`MasterKey`] of the signature system.
    pub type SignMasterKey<B> = MasterKey<Sign, B>;
    /// [`UserKey`] of the signature system.
    pub type SignUserKey<B> = UserKey<Sign, B>;
    /// [`PreparedMasterPublicKey`] of the signature system.
    pub type PreparedSignMasterPublicKey<B> = PreparedMasterPublicKey<Sign, B>;
    /// [`MasterPublicKey`] of the encryption system.
    pub type EncMasterPublicKey<B> = MasterPublicKey<Enc, B>;
    /// [`MasterKey`] of the encryption system.
    pub type EncMasterKey<B> = MasterKey<Enc, B>;
    /// [`UserKey`] of the encryption system.
    pub type EncUserKey<B> = UserKey<Enc, B>;
    /// [`PreparedMasterPublicKey`] of the encryption system.
    pub type PreparedEncMasterPublicKey<B> = PreparedMasterPublicKey<Enc, B>;
}

/// An integer modulo the group order n (scalars, `h`, master secrets).
pub type Scalar = sm_field::Fp<sm_field::Sm9N>;
/// An element of GT.
pub type Gt = sm_pairing::Gt;

/// The public key of a KGC over the default backend (see [`generic::MasterPublicKey`]).
pub type MasterPublicKey<S> = generic::MasterPublicKey<S, DefaultBackend>;
/// A master key pair over the default backend (see [`generic::MasterKey`]).
pub type MasterKey<S> = generic::MasterKey<S, DefaultBackend>;
/// A user's private key over the default backend (see [`generic::UserKey`]).
pub type UserKey<S> = generic::UserKey<S, DefaultBackend>;
/// A prepared master public key over the default backend (see
/// [`generic::PreparedMasterPublicKey`]).
pub type PreparedMasterPublicKey<S> = generic::PreparedMasterPublicKey<S, DefaultBackend>;

/// The public key of a signature KGC: `Ppub-s = [ks]P2 ∈ G2`.
pub type SignMasterPublicKey = MasterPublicKey<Sign>;
/// A signature master key pair: `ks` and `Ppub-s = [ks]P2`.
pub type SignMasterKey = MasterKey<Sign>;
/// A user's signing key `ds ∈ G1`, stored with the master public key it belongs to (GmSSL's
/// `SM9SignPrivateKey`).
pub type SignUserKey = UserKey<Sign>;
/// The public key of an encryption (and key-exchange) KGC: `Ppub-e = [ke]P1 ∈ G1`.
pub type EncMasterPublicKey = MasterPublicKey<Enc>;
/// An encryption / key-exchange master key pair: `ke` and `Ppub-e = [ke]P1`.
pub type EncMasterKey = MasterKey<Enc>;
/// A user's decryption key `de ∈ G2` (hid = 0x03), stored with the master public key it
/// belongs to (GmSSL's `SM9EncPrivateKey`).
pub type EncUserKey = UserKey<Enc>;
/// A user's key-exchange key `de ∈ G2` (hid = 0x02; see [`generic::ExchangeUserKey`]).
pub type ExchangeUserKey = generic::ExchangeUserKey<DefaultBackend>;
/// A signature master public key with `g = e(P1, Ppub-s)` as a fixed-base table and the
/// Miller-loop lines of `Ppub-s` (see [`generic::PreparedMasterPublicKey`]).
pub type PreparedSignMasterPublicKey = PreparedMasterPublicKey<Sign>;
/// An encryption / key-exchange master public key with `g = e(Ppub-e, P2)` as a fixed-base
/// table and a comb table of `Ppub-e` (see [`generic::PreparedMasterPublicKey`]).
pub type PreparedEncMasterPublicKey = PreparedMasterPublicKey<Enc>;

/// An SM9 signature `(h, S)` (see [`generic::Signature`]).
pub type Signature = generic::Signature<DefaultBackend>;
/// Incremental signer (see [`generic::Signer`]).
pub type Signer<'a> = generic::Signer<'a, DefaultBackend>;
/// Incremental verifier (see [`generic::Verifier`]).
pub type Verifier<'a> = generic::Verifier<'a, DefaultBackend>;
/// A RustCrypto `RandomizedSigner` (see [`generic::IdentitySigner`]).
pub type IdentitySigner<'a> = generic::IdentitySigner<'a, DefaultBackend>;
/// A RustCrypto `Verifier` (see [`generic::IdentityVerifier`]).
pub type IdentityVerifier<'a> = generic::IdentityVerifier<'a, DefaultBackend>;
/// A signing key with a comb table of `ds` (see [`generic::SigningKey`]).
pub type SigningKey = generic::SigningKey<DefaultBackend>;
/// One signature of a batch (see [`generic::BatchItem`]).
pub type BatchItem<'a> = generic::BatchItem<'a, DefaultBackend>;
/// A batch verifier (see [`generic::BatchVerifier`]).
pub type BatchVerifier = generic::BatchVerifier<DefaultBackend>;
/// An SM9 ciphertext (see [`generic::Ciphertext`]).
pub type Ciphertext = generic::Ciphertext<DefaultBackend>;
/// A user decryption key with the lines of `de` (see [`generic::DecryptionKey`]).
pub type DecryptionKey = generic::DecryptionKey<DefaultBackend>;
/// A KEM encapsulation (see [`generic::EncapsulatedKey`]).
pub type EncapsulatedKey = generic::EncapsulatedKey<DefaultBackend>;
/// A key-exchange ephemeral point (see [`generic::EphemeralPoint`]).
pub type EphemeralPoint = generic::EphemeralPoint<DefaultBackend>;
/// A user key-exchange key with the lines of `de` (see [`generic::ExchangeKey`]).
pub type ExchangeKey = generic::ExchangeKey<DefaultBackend>;
/// The initiator of a key exchange (see [`generic::Initiator`]).
pub type Initiator<'a> = generic::Initiator<'a, DefaultBackend>;
