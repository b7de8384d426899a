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
//!
//! The two systems are one body of code: [`MasterPublicKey`], [`MasterKey`] and [`UserKey`] take
//! a [`Scheme`] ([`Sign`] or [`Enc`]) that fixes the groups (master public key in G2 and user
//! keys in G1 for signatures, the other way round for encryption), the default `hid` and the
//! encodings' labels (the model is blst's `min_pk` / `min_sig`), and a limb backend `B` (every
//! backend computes the same bytes). The public names (`SignMasterKey`, `EncUserKey`, …) are
//! aliases of the instantiations over `DefaultBackend`; `crate::generic` has them over any `B`.

use alloc::string::String;
use alloc::vec::Vec;

use der::{Decode, Encode};
use rand_core::CryptoRng;
use sm_field::{Backend, Job};
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::asn1::{
    bit_string, bit_string_bytes, pem_decode, pem_encode, uint_to_32, MasterKeyAsn1,
    MasterPublicKeyAsn1, UserKeyAsn1, PEM_ENCRYPTED_PRIVATE_KEY, PEM_ENC_MASTER_PUBLIC_KEY,
    PEM_PRIVATE_KEY, PEM_SIGN_MASTER_PUBLIC_KEY,
};
use crate::generic::Scalar;
use crate::groups::{G1Affine, G2Affine, GroupPoint};
use crate::hash::h1_in;
use crate::pkcs8::{KeyKind, DEFAULT_PBKDF2_ITERATIONS};
use crate::{Error, Result};

/// `hid` of signature keys (GM/T 0044.5 §A: 0x01).
pub const HID_SIGN: u8 = 0x01;
/// `hid` of key-exchange keys (0x02).
pub const HID_EXCHANGE: u8 = 0x02;
/// `hid` of encryption keys (0x03).
pub const HID_ENCRYPT: u8 = 0x03;

/// A uniformly random scalar in `[1, n − 1]`.
pub(crate) fn random_nonzero_scalar<B: Backend>(rng: &mut impl CryptoRng) -> Scalar<B> {
    loop {
        let k = Scalar::random(rng);
        if !bool::from(k.is_zero()) {
            return k;
        }
    }
}

/// The nonces (or a generated secret key) of one protocol call, drawn inside its job on the
/// backend the job runs on, so that no scalar arithmetic happens before the dispatch.
pub(crate) trait Nonces {
    /// Whether a rejected nonce is replaced by a fresh one (the standard's "back to A2"); a
    /// caller-chosen nonce is not.
    const RETRY: bool;
    /// The next nonce, in `[1, n − 1]`.
    fn draw<B: Backend>(&mut self) -> Result<Scalar<B>>;
    /// The SM4-CBC IV of an encryption.
    fn iv(&mut self) -> Result<[u8; 16]>;
}

/// Nonces from an RNG.
pub(crate) struct RandomNonces<'a, R>(pub(crate) &'a mut R);

impl<R: CryptoRng> Nonces for RandomNonces<'_, R> {
    const RETRY: bool = true;
    fn draw<B: Backend>(&mut self) -> Result<Scalar<B>> {
        Ok(random_nonzero_scalar(self.0))
    }
    fn iv(&mut self) -> Result<[u8; 16]> {
        let mut iv = [0u8; 16];
        self.0.try_fill_bytes(&mut iv).map_err(|_| Error::Rng)?;
        Ok(iv)
    }
}

/// One caller-chosen nonce (32 bytes big-endian; [`Error::InvalidScalar`] unless in
/// `[1, n − 1]`) and IV.
pub(crate) struct FixedNonce<'a> {
    pub(crate) r: &'a [u8; 32],
    pub(crate) iv: [u8; 16],
}

impl Nonces for FixedNonce<'_> {
    const RETRY: bool = false;
    fn draw<B: Backend>(&mut self) -> Result<Scalar<B>> {
        scalar_from_bytes(self.r)
    }
    fn iv(&mut self) -> Result<[u8; 16]> {
        Ok(self.iv)
    }
}

/// A scalar in `[1, n − 1]` from 32 big-endian bytes.
pub(crate) fn scalar_from_bytes<B: Backend>(bytes: &[u8; 32]) -> Result<Scalar<B>> {
    let k: Option<Scalar<B>> = Scalar::from_bytes(bytes).into();
    match k {
        Some(k) if !bool::from(k.is_zero()) => Ok(k),
        _ => Err(Error::InvalidScalar),
    }
}

/// `k · (H1(ID ‖ hid, n) + k)⁻¹ mod n` (GM/T 0044.2 §6.1 A1–A3), constant time in `k`.
fn extraction_scalar<B: Backend>(k: &Scalar<B>, id: &[u8], hid: u8) -> Result<Scalar<B>> {
    let mut t1 = h1_in::<B>(id, hid) + k;
    let inv: Option<Scalar<B>> = t1.invert().into();
    t1.zeroize();
    let mut inv = inv.ok_or(Error::DegenerateIdentity)?;
    let t2 = *k * inv;
    inv.zeroize();
    Ok(t2)
}

macro_rules! impl_pkcs8 {
    ([$($g:tt)*] $ty:ty, $kind:expr) => {
        impl<$($g)*> $ty {
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
// The two systems.

mod sealed {
    use sm_field::Backend;

    use crate::pkcs8::KeyKind;

    /// What distinguishes the two systems besides their groups (crate-private).
    pub trait Sealed {
        /// Type names for `Debug`: master key, user key, prepared master public key.
        const NAMES: [&'static str; 3];
        /// What a prepared master public key holds besides the GT table of `g`: the
        /// Miller-loop lines of `Ppub-s` (verification) or a comb table of `Ppub-e`
        /// (`[r]QB`).
        type Precomputed<B: Backend>: Clone + Send + Sync;
        /// PEM label of the master public key (GmSSL's).
        const MASTER_PUBLIC_PEM: &'static str;
        /// PKCS#8 kinds of the master key and of the user key.
        const KINDS: [KeyKind; 2];
    }
}

/// An SM9 key system: [`Sign`] or [`Enc`] (sealed). It fixes the group of the master public
/// key, the group of user keys and the `hid` of [`MasterKey::extract`].
pub trait Scheme:
    sealed::Sealed + Clone + Copy + core::fmt::Debug + PartialEq + Eq + 'static
{
    /// The group of the master public key (`Ppub`) over the limb backend `B`.
    type MasterPoint<B: Backend>: GroupPoint<Backend = B>;
    /// The group of user private keys (`ds` / `de`) over the limb backend `B`.
    type UserPoint<B: Backend>: GroupPoint<Backend = B>;
    /// The `hid` of [`MasterKey::extract`].
    const HID: u8;
}

/// The signature system: `Ppub-s ∈ G2`, user keys `ds ∈ G1`, hid = 0x01.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sign;

/// The encryption and key-exchange system: `Ppub-e ∈ G1`, user keys `de ∈ G2`, hid = 0x03
/// (0x02 for key-exchange keys, [`MasterKey::extract_exchange`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Enc;

impl sealed::Sealed for Sign {
    const NAMES: [&'static str; 3] = [
        "SignMasterKey",
        "SignUserKey",
        "PreparedSignMasterPublicKey",
    ];
    type Precomputed<B: Backend> = crate::groups::G2Prepared<B>;
    const MASTER_PUBLIC_PEM: &'static str = PEM_SIGN_MASTER_PUBLIC_KEY;
    const KINDS: [KeyKind; 2] = [KeyKind::SignMaster, KeyKind::SignUser];
}
impl Scheme for Sign {
    type MasterPoint<B: Backend> = G2Affine<B>;
    type UserPoint<B: Backend> = G1Affine<B>;
    const HID: u8 = HID_SIGN;
}

impl sealed::Sealed for Enc {
    const NAMES: [&'static str; 3] = ["EncMasterKey", "EncUserKey", "PreparedEncMasterPublicKey"];
    type Precomputed<B: Backend> = sm_curve::PrecomputedTable<sm_curve::sm9::Sm9G1Curve<B>>;
    const MASTER_PUBLIC_PEM: &'static str = PEM_ENC_MASTER_PUBLIC_KEY;
    const KINDS: [KeyKind; 2] = [KeyKind::EncMaster, KeyKind::EncUser];
}
impl Scheme for Enc {
    type MasterPoint<B: Backend> = G1Affine<B>;
    type UserPoint<B: Backend> = G2Affine<B>;
    const HID: u8 = HID_ENCRYPT;
}

/// The public key of a KGC: `Ppub = [k]·generator` of [`Scheme::MasterPoint`]'s group
/// (`Ppub-s = [ks]P2 ∈ G2` for [`Sign`], `Ppub-e = [ke]P1 ∈ G1` for [`Enc`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MasterPublicKey<S: Scheme, B: Backend> {
    pub(crate) ppub: S::MasterPoint<B>,
}

impl<S: Scheme, B: Backend> MasterPublicKey<S, B> {
    /// The point `Ppub`.
    pub fn point(&self) -> &S::MasterPoint<B> {
        &self.ppub
    }

    /// `04 ‖ x ‖ y` (129 bytes, u-coefficients first, for G2; 65 bytes for G1).
    pub fn to_bytes(&self) -> <S::MasterPoint<B> as GroupPoint>::Bytes {
        self.ppub.to_gmt_bytes()
    }

    /// Decodes `04 ‖ x ‖ y`, checking that the point lies in the group.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        Ok(Self {
            ppub: S::MasterPoint::<B>::from_gmt_bytes(bytes)?,
        })
    }

    /// `SM9SignMasterPublicKey` / `SM9EncMasterPublicKey ::= SEQUENCE { BIT STRING Ppub }`.
    pub fn to_der(&self) -> Result<Vec<u8>> {
        let p = self.to_bytes();
        Ok(MasterPublicKeyAsn1 {
            ppub: bit_string(p.as_ref())?,
        }
        .to_der()?)
    }

    /// Decodes [`to_der`](Self::to_der)'s format.
    pub fn from_der(der: &[u8]) -> Result<Self> {
        let a = MasterPublicKeyAsn1::from_der(der)?;
        Self::from_bytes(bit_string_bytes(&a.ppub)?)
    }

    /// PEM with GmSSL's label (`SM9 SIGN MASTER PUBLIC KEY` / `SM9 ENC MASTER PUBLIC KEY`).
    pub fn to_pem(&self) -> Result<String> {
        pem_encode(S::MASTER_PUBLIC_PEM, &self.to_der()?)
    }

    /// Decodes a PEM with the label of [`to_pem`](Self::to_pem).
    pub fn from_pem(pem: &str) -> Result<Self> {
        Self::from_der(&pem_decode(pem, S::MASTER_PUBLIC_PEM)?)
    }
}

/// A master key pair: the secret `k` (`ks` or `ke`) and `Ppub = [k]·generator`. The secret is
/// zeroized on drop.
#[derive(Clone)]
pub struct MasterKey<S: Scheme, B: Backend> {
    k: Scalar<B>,
    public: MasterPublicKey<S, B>,
}

impl<S: Scheme, B: Backend> core::fmt::Debug for MasterKey<S, B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct(S::NAMES[0])
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

impl<S: Scheme, B: Backend> Drop for MasterKey<S, B> {
    fn drop(&mut self) {
        self.k.zeroize();
    }
}
impl<S: Scheme, B: Backend> ZeroizeOnDrop for MasterKey<S, B> {}

impl<S: Scheme, B: Backend> MasterKey<S, B> {
    /// A fresh master key with `k` uniform in `[1, n − 1]`.
    pub fn generate(rng: &mut impl CryptoRng) -> Self {
        Self::from_nonce(RandomNonces(rng)).expect("random scalars are in range")
    }

    /// The master key drawn from `k` and its public point, as one dispatched job.
    fn from_nonce(k: impl Nonces) -> Result<Self> {
        struct Generate<N, S, B>(N, core::marker::PhantomData<(S, B)>);
        impl<N: Nonces, S: Scheme, B: Backend> Job for Generate<N, S, B> {
            type Output = Result<MasterKey<S, B>>;
            fn run<B2: Backend>(mut self) -> Self::Output {
                let mut k = self.0.draw::<B2>()?;
                let ppub = S::MasterPoint::<B>::mul_generator_on(&k);
                let key = MasterKey {
                    k: k.to_backend(),
                    public: MasterPublicKey { ppub },
                };
                k.zeroize();
                Ok(key)
            }
        }
        B::dispatch(Generate::<_, S, B>(k, core::marker::PhantomData))
    }

    /// Imports `k` (32 bytes big-endian, in `[1, n − 1]`).
    pub fn from_bytes(k: &[u8; 32]) -> Result<Self> {
        Self::from_nonce(FixedNonce { r: k, iv: [0; 16] })
    }

    /// `k` as 32 bytes big-endian.
    pub fn to_bytes(&self) -> Zeroizing<[u8; 32]> {
        Zeroizing::new(self.k.to_bytes())
    }

    /// The master public key.
    pub fn public_key(&self) -> &MasterPublicKey<S, B> {
        &self.public
    }

    /// `[k · (H1(ID ‖ hid, n) + k)⁻¹]·generator` of the user group.
    /// One dispatched job; the copies of the secrets are wiped inside it.
    fn extract_point(&self, id: &[u8], hid: u8) -> Result<S::UserPoint<B>> {
        struct Extract<'a, S: Scheme, B: Backend> {
            k: &'a Scalar<B>,
            id: &'a [u8],
            hid: u8,
            scheme: core::marker::PhantomData<S>,
        }
        impl<S: Scheme, B: Backend> Job for Extract<'_, S, B> {
            type Output = Result<S::UserPoint<B>>;
            fn run<B2: Backend>(self) -> Self::Output {
                let mut k = self.k.to_backend::<B2>();
                let t2 = extraction_scalar(&k, self.id, self.hid);
                k.zeroize();
                let mut t2 = t2?;
                let d = S::UserPoint::<B>::mul_generator_on(&t2);
                t2.zeroize();
                Ok(d)
            }
        }
        B::dispatch(Extract::<S, B> {
            k: &self.k,
            id,
            hid,
            scheme: core::marker::PhantomData,
        })
    }

    /// The user key of `id` (hid = [`Scheme::HID`]: 0x01 signing, 0x03 decryption).
    pub fn extract(&self, id: &[u8]) -> Result<UserKey<S, B>> {
        self.extract_with_hid(id, S::HID)
    }

    /// The user key of `id` for another `hid` byte.
    pub fn extract_with_hid(&self, id: &[u8], hid: u8) -> Result<UserKey<S, B>> {
        Ok(UserKey {
            d: self.extract_point(id, hid)?,
            ppub: self.public.ppub,
        })
    }

    /// `SM9SignMasterKey` / `SM9EncMasterKey ::= SEQUENCE { INTEGER k, BIT STRING Ppub }`.
    pub fn to_der(&self) -> Result<Zeroizing<Vec<u8>>> {
        let kb = Zeroizing::new(self.k.to_bytes());
        let ppub = self.public.to_bytes();
        let a = MasterKeyAsn1 {
            k: der::asn1::UintRef::new(&kb[..])?,
            ppub: bit_string(ppub.as_ref())?,
        };
        Ok(Zeroizing::new(a.to_der()?))
    }

    /// Decodes [`to_der`](Self::to_der)'s format, checking that `Ppub = [k]·generator`.
    pub fn from_der(der: &[u8]) -> Result<Self> {
        let a = MasterKeyAsn1::from_der(der)?;
        let k = Zeroizing::new(uint_to_32(&a.k)?);
        let key = Self::from_bytes(&k)?;
        let ppub = bit_string_bytes(&a.ppub)?;
        if !bool::from(ppub.ct_eq(key.public.to_bytes().as_ref())) {
            return Err(Error::InvalidPoint);
        }
        Ok(key)
    }
}

impl_pkcs8!([S: Scheme, B: Backend] MasterKey<S, B>, S::KINDS[0]);

impl<B: Backend> MasterKey<Enc, B> {
    /// The key-exchange key of `id` (hid = 0x02).
    pub fn extract_exchange(&self, id: &[u8]) -> Result<ExchangeUserKey<B>> {
        Ok(ExchangeUserKey(UserKey {
            d: self.extract_point(id, HID_EXCHANGE)?,
            ppub: self.public.ppub,
        }))
    }
}

/// A user's private key (`ds ∈ G1` for [`Sign`], `de ∈ G2` for [`Enc`]), stored with the master
/// public key it belongs to (GmSSL's `SM9SignPrivateKey` / `SM9EncPrivateKey`). The secret
/// point is zeroized on drop.
#[derive(Clone)]
pub struct UserKey<S: Scheme, B: Backend> {
    pub(crate) d: S::UserPoint<B>,
    pub(crate) ppub: S::MasterPoint<B>,
}

impl<S: Scheme, B: Backend> core::fmt::Debug for UserKey<S, B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct(S::NAMES[1]).finish_non_exhaustive()
    }
}

impl<S: Scheme, B: Backend> Drop for UserKey<S, B> {
    fn drop(&mut self) {
        self.d.zeroize();
    }
}
impl<S: Scheme, B: Backend> ZeroizeOnDrop for UserKey<S, B> {}

impl<S: Scheme, B: Backend> UserKey<S, B> {
    /// Builds the key from the secret point (`04 ‖ x ‖ y`: 65 bytes in G1, 129 in G2) and the
    /// master public key.
    pub fn from_parts(d: &[u8], master: &MasterPublicKey<S, B>) -> Result<Self> {
        Ok(Self {
            d: S::UserPoint::<B>::from_gmt_bytes(d)?,
            ppub: master.ppub,
        })
    }

    /// The secret point as `04 ‖ x ‖ y`.
    fn d_bytes(&self) -> Zeroizing<<S::UserPoint<B> as GroupPoint>::Bytes> {
        Zeroizing::new(self.d.to_gmt_bytes())
    }

    /// The master public key stored with the key.
    pub fn master_public_key(&self) -> MasterPublicKey<S, B> {
        MasterPublicKey { ppub: self.ppub }
    }

    /// `SM9SignPrivateKey` / `SM9EncPrivateKey ::= SEQUENCE { BIT STRING d, BIT STRING Ppub }`.
    pub fn to_der(&self) -> Result<Zeroizing<Vec<u8>>> {
        let d = self.d_bytes();
        let p = self.ppub.to_gmt_bytes();
        Ok(Zeroizing::new(
            UserKeyAsn1 {
                d: bit_string(d.as_ref())?,
                ppub: bit_string(p.as_ref())?,
            }
            .to_der()?,
        ))
    }

    /// Decodes [`to_der`](Self::to_der)'s format.
    pub fn from_der(der: &[u8]) -> Result<Self> {
        let a = UserKeyAsn1::from_der(der)?;
        let master = MasterPublicKey::from_bytes(bit_string_bytes(&a.ppub)?)?;
        Self::from_parts(bit_string_bytes(&a.d)?, &master)
    }
}

impl_pkcs8!([S: Scheme, B: Backend] UserKey<S, B>, S::KINDS[1]);

impl<B: Backend> UserKey<Sign, B> {
    /// `ds` as `04 ‖ x ‖ y`.
    pub fn ds_bytes(&self) -> Zeroizing<[u8; 65]> {
        self.d_bytes()
    }
}

impl<B: Backend> UserKey<Enc, B> {
    /// `de` as `04 ‖ x ‖ y`.
    pub fn de_bytes(&self) -> Zeroizing<[u8; 129]> {
        self.d_bytes()
    }
}

/// A user's key-exchange key `de ∈ G2` (hid = 0x02). Same DER as an encryption user key
/// ([`UserKey<Enc, B>`](UserKey)); its PKCS#8 algorithm is `sm9keyagreement`
/// (1.2.156.10197.1.302.2).
#[derive(Clone, Debug)]
pub struct ExchangeUserKey<B: Backend>(pub(crate) UserKey<Enc, B>);

impl<B: Backend> ExchangeUserKey<B> {
    /// Builds the key from `de` (`04 ‖ x ‖ y`, 129 bytes) and the master public key.
    pub fn from_parts(de: &[u8], master: &MasterPublicKey<Enc, B>) -> Result<Self> {
        UserKey::from_parts(de, master).map(Self)
    }

    /// `de` as `04 ‖ x ‖ y`.
    pub fn de_bytes(&self) -> Zeroizing<[u8; 129]> {
        self.0.de_bytes()
    }

    /// The master public key stored with the key.
    pub fn master_public_key(&self) -> MasterPublicKey<Enc, B> {
        self.0.master_public_key()
    }

    /// `SEQUENCE { BIT STRING de, BIT STRING Ppub-e }`.
    pub fn to_der(&self) -> Result<Zeroizing<Vec<u8>>> {
        self.0.to_der()
    }

    /// Decodes [`to_der`](Self::to_der)'s format.
    pub fn from_der(der: &[u8]) -> Result<Self> {
        UserKey::from_der(der).map(Self)
    }
}

impl_pkcs8!([B: Backend] ExchangeUserKey<B>, KeyKind::ExchangeUser);
