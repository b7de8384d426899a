//! Master keys, master public keys and user private keys (GM/T 0044.2 §6.1, .3 §6.1,
//! .4 §6.1), with their GM/T 0080 DER, GmSSL PEM and PKCS#8 (plain and password-encrypted)
//! encodings.
//!
//! * Signature system: master secret `ks ∈ [1, n − 1]`, `Ppub-s = [ks]P2 ∈ G2`; the user key
//!   for `ID` is `ds = [ks · (H1(ID ‖ hid, n) + ks)⁻¹]P1 ∈ G1` with `hid = 0x01`.
//! * Encryption / key-exchange system: `ke`, `Ppub-e = [ke]P1 ∈ G1`; user keys
//!   `de = [ke · (H1(ID ‖ hid, n) + ke)⁻¹]P2 ∈ G2` with `hid = 0x03` (encryption) or `0x02`
//!   (key exchange).
//!
//! If `t1 = H1(ID ‖ hid, n) + k ≡ 0 (mod n)` the standard asks the KGC to pick a new master key;
//! extraction returns [`Error::DegenerateIdentity`].

use alloc::string::String;
use alloc::vec::Vec;

use der::{Decode, Encode};
use rand_core::CryptoRng;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::asn1::{
    bit_string, bit_string_bytes, pem_decode, pem_encode, uint_to_32, MasterKeyAsn1,
    MasterPublicKeyAsn1, UserKeyAsn1, PEM_ENCRYPTED_PRIVATE_KEY, PEM_ENC_MASTER_PUBLIC_KEY,
    PEM_PRIVATE_KEY, PEM_SIGN_MASTER_PUBLIC_KEY,
};
use crate::groups::{
    g1_from_bytes, g1_to_bytes, g2_from_bytes, g2_to_bytes, mul_p1, mul_p2, G1Affine, G2Affine,
};
use crate::pkcs8::{KeyKind, DEFAULT_PBKDF2_ITERATIONS};
use crate::{h1, Error, Result, Scalar};

/// `hid` of signature keys (GM/T 0044.5 §A: 0x01).
pub const HID_SIGN: u8 = 0x01;
/// `hid` of key-exchange keys (0x02).
pub const HID_EXCHANGE: u8 = 0x02;
/// `hid` of encryption keys (0x03).
pub const HID_ENCRYPT: u8 = 0x03;

/// A uniformly random scalar in `[1, n − 1]`.
pub(crate) fn random_nonzero_scalar(rng: &mut impl CryptoRng) -> Scalar {
    loop {
        let k = Scalar::random(rng);
        if !bool::from(k.is_zero()) {
            return k;
        }
    }
}

/// A scalar in `[1, n − 1]` from 32 big-endian bytes.
pub(crate) fn scalar_from_bytes(bytes: &[u8; 32]) -> Result<Scalar> {
    let k: Option<Scalar> = Scalar::from_bytes(bytes).into();
    match k {
        Some(k) if !bool::from(k.is_zero()) => Ok(k),
        _ => Err(Error::InvalidScalar),
    }
}

/// `k · (H1(ID ‖ hid, n) + k)⁻¹ mod n` (GM/T 0044.2 §6.1 A1–A3), constant time in `k`.
fn extraction_scalar(k: &Scalar, id: &[u8], hid: u8) -> Result<Scalar> {
    let t1 = h1(id, hid) + k;
    let inv: Option<Scalar> = t1.invert().into();
    let inv = inv.ok_or(Error::DegenerateIdentity)?;
    Ok(*k * inv)
}

macro_rules! impl_pkcs8 {
    ($ty:ty, $kind:expr) => {
        impl $ty {
            /// PKCS#8 `PrivateKeyInfo` DER (as GmSSL wraps this key).
            pub fn to_pkcs8_der(&self) -> Result<Zeroizing<Vec<u8>>> {
                crate::pkcs8::wrap($kind, &self.to_der()?)
            }

            /// Decodes a PKCS#8 `PrivateKeyInfo` DER.
            pub fn from_pkcs8_der(der: &[u8]) -> Result<Self> {
                Self::from_der(&crate::pkcs8::unwrap($kind, der)?)
            }

            /// PKCS#8 PEM (`PRIVATE KEY`).
            pub fn to_pkcs8_pem(&self) -> Result<Zeroizing<String>> {
                Ok(Zeroizing::new(pem_encode(
                    PEM_PRIVATE_KEY,
                    &self.to_pkcs8_der()?,
                )?))
            }

            /// Decodes a PKCS#8 PEM (`PRIVATE KEY`).
            pub fn from_pkcs8_pem(pem: &str) -> Result<Self> {
                let der = Zeroizing::new(pem_decode(pem, PEM_PRIVATE_KEY)?);
                Self::from_pkcs8_der(&der)
            }

            /// Password-encrypted PKCS#8 `EncryptedPrivateKeyInfo` DER: PBES2 with
            /// PBKDF2-HMAC-SM3 (65536 iterations, random 16-byte salt) and SM4-CBC (random IV),
            /// as GmSSL writes it.
            pub fn to_encrypted_pkcs8_der(
                &self,
                password: &[u8],
                rng: &mut impl CryptoRng,
            ) -> Result<Vec<u8>> {
                let mut salt = [0u8; 16];
                let mut iv = [0u8; 16];
                rng.try_fill_bytes(&mut salt).map_err(|_| Error::Rng)?;
                rng.try_fill_bytes(&mut iv).map_err(|_| Error::Rng)?;
                self.to_encrypted_pkcs8_der_with(password, &salt, &iv, DEFAULT_PBKDF2_ITERATIONS)
            }

            /// [`to_encrypted_pkcs8_der`](Self::to_encrypted_pkcs8_der) with an explicit salt,
            /// IV and iteration count (for reproducible output; the salt and IV must be fresh
            /// random values in real use). The count must be in
            /// `1..=`[`MAX_PBKDF2_ITERATIONS`](crate::MAX_PBKDF2_ITERATIONS), what decryption
            /// accepts ([`Error::InvalidLength`] otherwise).
            pub fn to_encrypted_pkcs8_der_with(
                &self,
                password: &[u8],
                salt: &[u8],
                iv: &[u8; 16],
                iterations: u32,
            ) -> Result<Vec<u8>> {
                crate::pkcs8::encrypt(&self.to_pkcs8_der()?, password, salt, iv, iterations)
            }

            /// Decrypts an `EncryptedPrivateKeyInfo` DER; a wrong password is the opaque
            /// [`Error::Decryption`]. An iteration count above
            /// [`MAX_PBKDF2_ITERATIONS`](crate::MAX_PBKDF2_ITERATIONS) is rejected before any
            /// work ([`Error::InvalidLength`]).
            pub fn from_encrypted_pkcs8_der(der: &[u8], password: &[u8]) -> Result<Self> {
                Self::from_decrypted_pkcs8(crate::pkcs8::decrypt(der, password)?)
            }

            /// Parses (and then wipes) the decrypted document of
            /// [`from_encrypted_pkcs8_der`](Self::from_encrypted_pkcs8_der). Kept out of line:
            /// the constant-time harness recognises this frame (`ct-check/declassified.txt`).
            #[inline(never)]
            fn from_decrypted_pkcs8(plain: Zeroizing<Vec<u8>>) -> Result<Self> {
                // Not a tail call (the documents are dropped after `from_der`), so the frame
                // stays visible.
                let key_der = crate::pkcs8::unwrap($kind, &plain)?;
                Self::from_der(&key_der)
            }

            /// Encrypted PKCS#8 PEM (`ENCRYPTED PRIVATE KEY`).
            pub fn to_encrypted_pem(
                &self,
                password: &[u8],
                rng: &mut impl CryptoRng,
            ) -> Result<String> {
                pem_encode(
                    PEM_ENCRYPTED_PRIVATE_KEY,
                    &self.to_encrypted_pkcs8_der(password, rng)?,
                )
            }

            /// Decodes an encrypted PKCS#8 PEM (`ENCRYPTED PRIVATE KEY`).
            pub fn from_encrypted_pem(pem: &str, password: &[u8]) -> Result<Self> {
                let der = pem_decode(pem, PEM_ENCRYPTED_PRIVATE_KEY)?;
                Self::from_encrypted_pkcs8_der(&der, password)
            }
        }
    };
}

// ---------------------------------------------------------------------------------------------
// Signature system.

/// The public key of a signature KGC: `Ppub-s = [ks]P2 ∈ G2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SignMasterPublicKey {
    pub(crate) ppub_s: G2Affine,
}

impl SignMasterPublicKey {
    /// The point `Ppub-s`.
    pub fn point(&self) -> &G2Affine {
        &self.ppub_s
    }

    /// `04 ‖ x ‖ y` (129 bytes, u-coefficients first).
    pub fn to_bytes(&self) -> [u8; 129] {
        g2_to_bytes(&self.ppub_s)
    }

    /// Decodes `04 ‖ x ‖ y`, checking that the point lies in G2.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        Ok(Self {
            ppub_s: g2_from_bytes(bytes)?,
        })
    }

    /// `SM9SignMasterPublicKey ::= SEQUENCE { BIT STRING Ppub-s }`.
    pub fn to_der(&self) -> Result<Vec<u8>> {
        let p = self.to_bytes();
        Ok(MasterPublicKeyAsn1 {
            ppub: bit_string(&p)?,
        }
        .to_der()?)
    }

    /// Decodes [`to_der`](Self::to_der)'s format.
    pub fn from_der(der: &[u8]) -> Result<Self> {
        let a = MasterPublicKeyAsn1::from_der(der)?;
        Self::from_bytes(bit_string_bytes(&a.ppub)?)
    }

    /// PEM with GmSSL's label `SM9 SIGN MASTER PUBLIC KEY`.
    pub fn to_pem(&self) -> Result<String> {
        pem_encode(PEM_SIGN_MASTER_PUBLIC_KEY, &self.to_der()?)
    }

    /// Decodes a `SM9 SIGN MASTER PUBLIC KEY` PEM.
    pub fn from_pem(pem: &str) -> Result<Self> {
        Self::from_der(&pem_decode(pem, PEM_SIGN_MASTER_PUBLIC_KEY)?)
    }
}

/// A signature master key pair: `ks` and `Ppub-s = [ks]P2`. The secret is zeroized on drop.
#[derive(Clone)]
pub struct SignMasterKey {
    ks: Scalar,
    public: SignMasterPublicKey,
}

impl core::fmt::Debug for SignMasterKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SignMasterKey")
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

impl Drop for SignMasterKey {
    fn drop(&mut self) {
        self.ks.zeroize();
    }
}
impl ZeroizeOnDrop for SignMasterKey {}

impl SignMasterKey {
    /// A fresh master key with `ks` uniform in `[1, n − 1]`.
    pub fn generate(rng: &mut impl CryptoRng) -> Self {
        Self::from_scalar(random_nonzero_scalar(rng))
    }

    fn from_scalar(ks: Scalar) -> Self {
        let ppub_s = mul_p2(&ks).to_affine();
        Self {
            ks,
            public: SignMasterPublicKey { ppub_s },
        }
    }

    /// Imports `ks` (32 bytes big-endian, in `[1, n − 1]`).
    pub fn from_bytes(ks: &[u8; 32]) -> Result<Self> {
        Ok(Self::from_scalar(scalar_from_bytes(ks)?))
    }

    /// `ks` as 32 bytes big-endian.
    pub fn to_bytes(&self) -> Zeroizing<[u8; 32]> {
        Zeroizing::new(self.ks.to_bytes())
    }

    /// The master public key.
    pub fn public_key(&self) -> &SignMasterPublicKey {
        &self.public
    }

    /// The signing key of `id` (hid = 0x01).
    pub fn extract(&self, id: &[u8]) -> Result<SignUserKey> {
        self.extract_with_hid(id, HID_SIGN)
    }

    /// The signing key of `id` for another `hid` byte.
    pub fn extract_with_hid(&self, id: &[u8], hid: u8) -> Result<SignUserKey> {
        let mut t2 = extraction_scalar(&self.ks, id, hid)?;
        let ds = mul_p1(&t2).to_affine();
        t2.zeroize();
        Ok(SignUserKey {
            ds,
            ppub_s: self.public.ppub_s,
        })
    }

    /// `SM9SignMasterKey ::= SEQUENCE { INTEGER ks, BIT STRING Ppub-s }`.
    pub fn to_der(&self) -> Result<Zeroizing<Vec<u8>>> {
        master_key_der(&self.ks, &self.public.to_bytes())
    }

    /// Decodes [`to_der`](Self::to_der)'s format, checking that `Ppub-s = [ks]P2`.
    pub fn from_der(der: &[u8]) -> Result<Self> {
        let a = MasterKeyAsn1::from_der(der)?;
        let ks = Zeroizing::new(uint_to_32(&a.k)?);
        let key = Self::from_bytes(&ks)?;
        let ppub = bit_string_bytes(&a.ppub)?;
        if !bool::from(ppub.ct_eq(&key.public.to_bytes()[..])) {
            return Err(Error::InvalidPoint);
        }
        Ok(key)
    }
}

fn master_key_der(k: &Scalar, ppub: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    let kb = Zeroizing::new(k.to_bytes());
    let a = MasterKeyAsn1 {
        k: der::asn1::UintRef::new(&kb[..])?,
        ppub: bit_string(ppub)?,
    };
    Ok(Zeroizing::new(a.to_der()?))
}

impl_pkcs8!(SignMasterKey, KeyKind::SignMaster);

/// A user's signing key `ds ∈ G1`, stored with the master public key it belongs to (GmSSL's
/// `SM9SignPrivateKey`). `ds` is zeroized on drop.
#[derive(Clone)]
pub struct SignUserKey {
    pub(crate) ds: G1Affine,
    pub(crate) ppub_s: G2Affine,
}

impl core::fmt::Debug for SignUserKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SignUserKey").finish_non_exhaustive()
    }
}

impl Drop for SignUserKey {
    fn drop(&mut self) {
        self.ds.zeroize();
    }
}
impl ZeroizeOnDrop for SignUserKey {}

impl SignUserKey {
    /// Builds the key from `ds` (`04 ‖ x ‖ y`, 65 bytes) and the master public key.
    pub fn from_parts(ds: &[u8], master: &SignMasterPublicKey) -> Result<Self> {
        Ok(Self {
            ds: g1_from_bytes(ds)?,
            ppub_s: master.ppub_s,
        })
    }

    /// `ds` as `04 ‖ x ‖ y`.
    pub fn ds_bytes(&self) -> Zeroizing<[u8; 65]> {
        Zeroizing::new(g1_to_bytes(&self.ds))
    }

    /// The master public key stored with the key.
    pub fn master_public_key(&self) -> SignMasterPublicKey {
        SignMasterPublicKey {
            ppub_s: self.ppub_s,
        }
    }

    /// `SM9SignPrivateKey ::= SEQUENCE { BIT STRING ds, BIT STRING Ppub-s }`.
    pub fn to_der(&self) -> Result<Zeroizing<Vec<u8>>> {
        let d = self.ds_bytes();
        let p = g2_to_bytes(&self.ppub_s);
        Ok(Zeroizing::new(
            UserKeyAsn1 {
                d: bit_string(&d[..])?,
                ppub: bit_string(&p)?,
            }
            .to_der()?,
        ))
    }

    /// Decodes [`to_der`](Self::to_der)'s format.
    pub fn from_der(der: &[u8]) -> Result<Self> {
        let a = UserKeyAsn1::from_der(der)?;
        let master = SignMasterPublicKey::from_bytes(bit_string_bytes(&a.ppub)?)?;
        Self::from_parts(bit_string_bytes(&a.d)?, &master)
    }
}

impl_pkcs8!(SignUserKey, KeyKind::SignUser);

// ---------------------------------------------------------------------------------------------
// Encryption / key-exchange system.

/// The public key of an encryption (and key-exchange) KGC: `Ppub-e = [ke]P1 ∈ G1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncMasterPublicKey {
    pub(crate) ppub_e: G1Affine,
}

impl EncMasterPublicKey {
    /// The point `Ppub-e`.
    pub fn point(&self) -> &G1Affine {
        &self.ppub_e
    }

    /// `04 ‖ x ‖ y` (65 bytes).
    pub fn to_bytes(&self) -> [u8; 65] {
        g1_to_bytes(&self.ppub_e)
    }

    /// Decodes `04 ‖ x ‖ y`, checking that the point lies in G1.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        Ok(Self {
            ppub_e: g1_from_bytes(bytes)?,
        })
    }

    /// `SM9EncMasterPublicKey ::= SEQUENCE { BIT STRING Ppub-e }`.
    pub fn to_der(&self) -> Result<Vec<u8>> {
        let p = self.to_bytes();
        Ok(MasterPublicKeyAsn1 {
            ppub: bit_string(&p)?,
        }
        .to_der()?)
    }

    /// Decodes [`to_der`](Self::to_der)'s format.
    pub fn from_der(der: &[u8]) -> Result<Self> {
        let a = MasterPublicKeyAsn1::from_der(der)?;
        Self::from_bytes(bit_string_bytes(&a.ppub)?)
    }

    /// PEM with GmSSL's label `SM9 ENC MASTER PUBLIC KEY`.
    pub fn to_pem(&self) -> Result<String> {
        pem_encode(PEM_ENC_MASTER_PUBLIC_KEY, &self.to_der()?)
    }

    /// Decodes a `SM9 ENC MASTER PUBLIC KEY` PEM.
    pub fn from_pem(pem: &str) -> Result<Self> {
        Self::from_der(&pem_decode(pem, PEM_ENC_MASTER_PUBLIC_KEY)?)
    }
}

/// An encryption / key-exchange master key pair: `ke` and `Ppub-e = [ke]P1`. The secret is
/// zeroized on drop.
#[derive(Clone)]
pub struct EncMasterKey {
    ke: Scalar,
    public: EncMasterPublicKey,
}

impl core::fmt::Debug for EncMasterKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("EncMasterKey")
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

impl Drop for EncMasterKey {
    fn drop(&mut self) {
        self.ke.zeroize();
    }
}
impl ZeroizeOnDrop for EncMasterKey {}

impl EncMasterKey {
    /// A fresh master key with `ke` uniform in `[1, n − 1]`.
    pub fn generate(rng: &mut impl CryptoRng) -> Self {
        Self::from_scalar(random_nonzero_scalar(rng))
    }

    fn from_scalar(ke: Scalar) -> Self {
        let ppub_e = mul_p1(&ke).to_affine();
        Self {
            ke,
            public: EncMasterPublicKey { ppub_e },
        }
    }

    /// Imports `ke` (32 bytes big-endian, in `[1, n − 1]`).
    pub fn from_bytes(ke: &[u8; 32]) -> Result<Self> {
        Ok(Self::from_scalar(scalar_from_bytes(ke)?))
    }

    /// `ke` as 32 bytes big-endian.
    pub fn to_bytes(&self) -> Zeroizing<[u8; 32]> {
        Zeroizing::new(self.ke.to_bytes())
    }

    /// The master public key.
    pub fn public_key(&self) -> &EncMasterPublicKey {
        &self.public
    }

    fn extract_de(&self, id: &[u8], hid: u8) -> Result<G2Affine> {
        let mut t2 = extraction_scalar(&self.ke, id, hid)?;
        let de = mul_p2(&t2).to_affine();
        t2.zeroize();
        Ok(de)
    }

    /// The decryption key of `id` (hid = 0x03).
    pub fn extract(&self, id: &[u8]) -> Result<EncUserKey> {
        self.extract_with_hid(id, HID_ENCRYPT)
    }

    /// The decryption key of `id` for another `hid` byte.
    pub fn extract_with_hid(&self, id: &[u8], hid: u8) -> Result<EncUserKey> {
        Ok(EncUserKey {
            de: self.extract_de(id, hid)?,
            ppub_e: self.public.ppub_e,
        })
    }

    /// The key-exchange key of `id` (hid = 0x02).
    pub fn extract_exchange(&self, id: &[u8]) -> Result<ExchangeUserKey> {
        Ok(ExchangeUserKey(EncUserKey {
            de: self.extract_de(id, HID_EXCHANGE)?,
            ppub_e: self.public.ppub_e,
        }))
    }

    /// `SM9EncMasterKey ::= SEQUENCE { INTEGER ke, BIT STRING Ppub-e }`.
    pub fn to_der(&self) -> Result<Zeroizing<Vec<u8>>> {
        master_key_der(&self.ke, &self.public.to_bytes())
    }

    /// Decodes [`to_der`](Self::to_der)'s format, checking that `Ppub-e = [ke]P1`.
    pub fn from_der(der: &[u8]) -> Result<Self> {
        let a = MasterKeyAsn1::from_der(der)?;
        let ke = Zeroizing::new(uint_to_32(&a.k)?);
        let key = Self::from_bytes(&ke)?;
        let ppub = bit_string_bytes(&a.ppub)?;
        if !bool::from(ppub.ct_eq(&key.public.to_bytes()[..])) {
            return Err(Error::InvalidPoint);
        }
        Ok(key)
    }
}

impl_pkcs8!(EncMasterKey, KeyKind::EncMaster);

/// A user's decryption key `de ∈ G2` (hid = 0x03), stored with the master public key it
/// belongs to (GmSSL's `SM9EncPrivateKey`). `de` is zeroized on drop.
#[derive(Clone)]
pub struct EncUserKey {
    pub(crate) de: G2Affine,
    pub(crate) ppub_e: G1Affine,
}

impl core::fmt::Debug for EncUserKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("EncUserKey").finish_non_exhaustive()
    }
}

impl Drop for EncUserKey {
    fn drop(&mut self) {
        self.de.zeroize();
    }
}
impl ZeroizeOnDrop for EncUserKey {}

impl EncUserKey {
    /// Builds the key from `de` (`04 ‖ x ‖ y`, 129 bytes) and the master public key.
    pub fn from_parts(de: &[u8], master: &EncMasterPublicKey) -> Result<Self> {
        Ok(Self {
            de: g2_from_bytes(de)?,
            ppub_e: master.ppub_e,
        })
    }

    /// `de` as `04 ‖ x ‖ y`.
    pub fn de_bytes(&self) -> Zeroizing<[u8; 129]> {
        Zeroizing::new(g2_to_bytes(&self.de))
    }

    /// The master public key stored with the key.
    pub fn master_public_key(&self) -> EncMasterPublicKey {
        EncMasterPublicKey {
            ppub_e: self.ppub_e,
        }
    }

    /// `SM9EncPrivateKey ::= SEQUENCE { BIT STRING de, BIT STRING Ppub-e }`.
    pub fn to_der(&self) -> Result<Zeroizing<Vec<u8>>> {
        let d = self.de_bytes();
        let p = g1_to_bytes(&self.ppub_e);
        Ok(Zeroizing::new(
            UserKeyAsn1 {
                d: bit_string(&d[..])?,
                ppub: bit_string(&p)?,
            }
            .to_der()?,
        ))
    }

    /// Decodes [`to_der`](Self::to_der)'s format.
    pub fn from_der(der: &[u8]) -> Result<Self> {
        let a = UserKeyAsn1::from_der(der)?;
        let master = EncMasterPublicKey::from_bytes(bit_string_bytes(&a.ppub)?)?;
        Self::from_parts(bit_string_bytes(&a.d)?, &master)
    }
}

impl_pkcs8!(EncUserKey, KeyKind::EncUser);

/// A user's key-exchange key `de ∈ G2` (hid = 0x02). Same DER as [`EncUserKey`]; its PKCS#8
/// algorithm is `sm9keyagreement` (1.2.156.10197.1.302.2).
#[derive(Clone, Debug)]
pub struct ExchangeUserKey(pub(crate) EncUserKey);

impl ExchangeUserKey {
    /// Builds the key from `de` (`04 ‖ x ‖ y`, 129 bytes) and the master public key.
    pub fn from_parts(de: &[u8], master: &EncMasterPublicKey) -> Result<Self> {
        EncUserKey::from_parts(de, master).map(Self)
    }

    /// `de` as `04 ‖ x ‖ y`.
    pub fn de_bytes(&self) -> Zeroizing<[u8; 129]> {
        self.0.de_bytes()
    }

    /// The master public key stored with the key.
    pub fn master_public_key(&self) -> EncMasterPublicKey {
        self.0.master_public_key()
    }

    /// `SEQUENCE { BIT STRING de, BIT STRING Ppub-e }`.
    pub fn to_der(&self) -> Result<Zeroizing<Vec<u8>>> {
        self.0.to_der()
    }

    /// Decodes [`to_der`](Self::to_der)'s format.
    pub fn from_der(der: &[u8]) -> Result<Self> {
        EncUserKey::from_der(der).map(Self)
    }
}

impl_pkcs8!(ExchangeUserKey, KeyKind::ExchangeUser);
