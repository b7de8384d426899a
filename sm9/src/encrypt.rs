//! Public-key encryption (GM/T 0044.4 §7; GB/T 38635.2 §8) and key encapsulation
//! (GM/T 0044.4 §6; GB/T 38635.2 §7).
//!
//! Encryption (A1–A8), with `g = e(Ppub-e, P2)` and the comb tables precomputed in a
//! [`PreparedEncMasterPublicKey`]:
//!
//! * A1 `QB = [H1(IDB ‖ hid, n)]P1 + Ppub-e`; A2 `r` uniform in `[1, n − 1]`; A3 `C1 = [r]QB`;
//! * A4–A5 `w = g^r`; A6 `K = KDF(C1 ‖ w ‖ IDB, klen)`, `K1 ‖ K2 = K`, back to A2 if `K1` is all
//!   zero, `C2 = Enc(K1, M)` ([`EncryptionMode`]);
//! * A7 `C3 = MAC(K2, C2)` ([`MacMode`]); A8 `C = C1 ‖ C3 ‖ C2`.
//!
//! Decryption (B1–B5): `C1 ∈ G1` (checked when decoding), `w' = e(C1, deB)` with the user key's
//! prepared lines ([`DecryptionKey`]), `K' = KDF(C1 ‖ w' ‖ IDB, klen)` (error if `K1'` is all
//! zero), `u = MAC(K2', C2)` compared with `C3` in constant time, then `M' = Dec(K1', C2)`.
//!
//! Encapsulation is A1–A6 without the data part: `C = [r]QB`, `K = KDF(C ‖ w ‖ IDB, klen)`
//! (back to A2 if K is all zero).

use alloc::vec::Vec;

use der::{Decode, Encode};
use rand_core::CryptoRngCore;
use sm_pairing::G2Prepared;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

use crate::asn1::{bit_string, bit_string_bytes, octet_string, CipherAsn1};
use crate::groups::{g1_for_pairing, g1_from_bytes, g1_to_bytes, g2_for_pairing, G1Affine, Gt};
use crate::keys::{random_nonzero_scalar, EncUserKey, HID_ENCRYPT};
use crate::prepared::PreparedEncMasterPublicKey;
use crate::symmetric::{
    is_all_zero, open, seal, EncryptionMode, MacMode, MAC_KEY_LEN, MAC_LEN, SM4_BLOCK_LEN,
};
use crate::{Error, Result, Scalar};

/// Largest KDF output (GM/T 0044.2 §5.4.3: `klen < (2^32 − 1) · 256` bits).
const MAX_KDF_LEN: u64 = (u32::MAX as u64) * 32;

/// `KDF(C ‖ w ‖ ID, klen)` with `C` as `x ‖ y`.
fn kdf(c: &G1Affine, w: &Gt, id: &[u8], out: &mut [u8]) {
    let cb = g1_to_bytes(c);
    let mut wb = w.to_bytes();
    sm3::Kdf::new(&[&cb[1..], &wb, id]).fill(out);
    wb.zeroize();
}

fn check_kdf_len(len: usize) -> Result<()> {
    if len == 0 || len as u64 > MAX_KDF_LEN {
        Err(Error::InvalidLength)
    } else {
        Ok(())
    }
}

/// A user decryption key (hid = 0x03) with the Miller-loop lines of `de` precomputed
/// (`G2Prepared`, zeroized on drop). Owned by the key object; nothing goes into a global cache.
#[derive(Clone)]
pub struct DecryptionKey {
    key: EncUserKey,
    prepared: G2Prepared<sm_field::DefaultBackend>,
}

impl core::fmt::Debug for DecryptionKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DecryptionKey").finish_non_exhaustive()
    }
}

impl DecryptionKey {
    /// Precomputes the lines of `de`.
    pub fn new(key: &EncUserKey) -> Self {
        Self {
            key: key.clone(),
            prepared: G2Prepared::new(&g2_for_pairing(&key.de)),
        }
    }

    /// The user key.
    pub fn user_key(&self) -> &EncUserKey {
        &self.key
    }

    /// `e(C, de)`.
    pub(crate) fn pair(&self, c: &G1Affine) -> Gt {
        sm_pairing::pairing_prepared(&g1_for_pairing(c), &self.prepared)
    }
}

impl EncUserKey {
    /// Precomputes the pairing lines of `de` for fast decryption and decapsulation.
    pub fn prepare(&self) -> DecryptionKey {
        DecryptionKey::new(self)
    }
}

/// An SM9 ciphertext `(C1, C3, C2)` and its encryption mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ciphertext {
    mode: EncryptionMode,
    c1: G1Affine,
    c3: [u8; MAC_LEN],
    c2: Vec<u8>,
}

impl Ciphertext {
    /// The encryption mode (`EnType`).
    pub fn mode(&self) -> EncryptionMode {
        self.mode
    }

    /// `C1` as `04 ‖ x ‖ y`.
    pub fn c1_bytes(&self) -> [u8; 65] {
        g1_to_bytes(&self.c1)
    }

    /// `C3` (the MAC).
    pub fn c3(&self) -> &[u8; MAC_LEN] {
        &self.c3
    }

    /// `C2` (the encrypted message; in CBC mode `IV ‖ ciphertext`).
    pub fn c2(&self) -> &[u8] {
        &self.c2
    }

    /// Builds a ciphertext from its parts, checking `C1 ∈ G1` and the length of `C2`.
    pub fn from_parts(mode: EncryptionMode, c1: &[u8], c3: &[u8], c2: &[u8]) -> Result<Self> {
        let c1 = g1_from_bytes(c1)?;
        let c3: [u8; MAC_LEN] = c3.try_into().map_err(|_| Error::Encoding)?;
        if !mode.c2_len_ok(c2.len()) {
            return Err(Error::Encoding);
        }
        Ok(Self {
            mode,
            c1,
            c3,
            c2: c2.to_vec(),
        })
    }

    /// The raw form `C1 ‖ C3 ‖ C2` (GM/T 0044.4 §7.2 A8) with `C1` as `04 ‖ x ‖ y`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(65 + MAC_LEN + self.c2.len());
        out.extend_from_slice(&self.c1_bytes());
        out.extend_from_slice(&self.c3);
        out.extend_from_slice(&self.c2);
        out
    }

    /// Decodes `C1 ‖ C3 ‖ C2`; the mode is not part of the raw form.
    pub fn from_bytes(mode: EncryptionMode, bytes: &[u8]) -> Result<Self> {
        if bytes.len() < 65 + MAC_LEN {
            return Err(Error::Encoding);
        }
        Self::from_parts(
            mode,
            &bytes[..65],
            &bytes[65..65 + MAC_LEN],
            &bytes[65 + MAC_LEN..],
        )
    }

    /// GM/T 0080 `SM9Cipher ::= SEQUENCE { EnType INTEGER, C1 BIT STRING, C3 OCTET STRING,
    /// CipherText OCTET STRING }` (GmSSL's and gmsm's form).
    pub fn to_der(&self) -> Result<Vec<u8>> {
        let c1 = self.c1_bytes();
        Ok(CipherAsn1 {
            en_type: self.mode.en_type(),
            c1: bit_string(&c1)?,
            c3: octet_string(&self.c3)?,
            c2: octet_string(&self.c2)?,
        }
        .to_der()?)
    }

    /// Decodes [`to_der`](Self::to_der)'s format (strict DER, no trailing bytes).
    pub fn from_der(der: &[u8]) -> Result<Self> {
        let a = CipherAsn1::from_der(der)?;
        let mode = EncryptionMode::from_en_type(a.en_type)?;
        Self::from_parts(
            mode,
            bit_string_bytes(&a.c1)?,
            a.c3.as_bytes(),
            a.c2.as_bytes(),
        )
    }
}

/// Encrypts `plaintext` to `id` (hid = 0x03).
///
/// The MAC mode must match the receiver's: [`MacMode::Sm3`] for the standard,
/// [`MacMode::HmacSm3`] for GmSSL.
///
/// ```
/// # use rand_core::OsRng;
/// use sm9::{EncryptionMode, MacMode};
/// let kgc = sm9::EncMasterKey::generate(&mut OsRng);
/// let master = kgc.public_key().prepare();
/// let bob = kgc.extract(b"Bob").unwrap().prepare();
/// let ct = sm9::encrypt(&master, b"Bob", b"hello", EncryptionMode::Sm4Cbc, MacMode::Sm3, &mut OsRng)
///     .unwrap();
/// let der = ct.to_der().unwrap();
/// let ct = sm9::Ciphertext::from_der(&der).unwrap();
/// assert_eq!(&sm9::decrypt(&bob, b"Bob", &ct, MacMode::Sm3).unwrap()[..], b"hello");
/// assert!(sm9::decrypt(&bob, b"Bob", &ct, MacMode::HmacSm3).is_err());
/// ```
pub fn encrypt(
    master: &PreparedEncMasterPublicKey,
    id: &[u8],
    plaintext: &[u8],
    mode: EncryptionMode,
    mac: MacMode,
    rng: &mut impl CryptoRngCore,
) -> Result<Ciphertext> {
    if plaintext.is_empty() {
        return Err(Error::EmptyPlaintext);
    }
    let h1 = crate::h1(id, HID_ENCRYPT);
    loop {
        let mut r = random_nonzero_scalar(rng);
        let mut iv = [0u8; SM4_BLOCK_LEN];
        if mode == EncryptionMode::Sm4Cbc {
            rng.try_fill_bytes(&mut iv).map_err(|_| Error::Rng)?;
        }
        let res = encrypt_with(master, &h1, id, plaintext, mode, mac, &r, &iv);
        r.zeroize();
        match res {
            Err(Error::Decryption) => continue, // K1 all zero: A2 again.
            other => return other,
        }
    }
}

/// A1–A8 with a given nonce `r` and CBC IV; [`Error::Decryption`] when K1 is all zero.
#[allow(clippy::too_many_arguments)]
pub(crate) fn encrypt_with(
    master: &PreparedEncMasterPublicKey,
    h1: &Scalar,
    id: &[u8],
    plaintext: &[u8],
    mode: EncryptionMode,
    mac: MacMode,
    r: &Scalar,
    iv: &[u8; SM4_BLOCK_LEN],
) -> Result<Ciphertext> {
    if plaintext.is_empty() {
        return Err(Error::EmptyPlaintext);
    }
    let k1_len = mode.k1_len_for_plaintext(plaintext.len());
    check_kdf_len(k1_len.saturating_add(MAC_KEY_LEN))?;
    // A3: C1 = [r]QB.
    let c1 = master.mul_q(h1, r).to_affine();
    // A4–A5: w = g^r.
    let w = master.g_pow(r);
    // A6: K = KDF(C1 ‖ w ‖ IDB, klen).
    let mut k = Zeroizing::new(alloc::vec![0u8; k1_len + MAC_KEY_LEN]);
    kdf(&c1, &w, id, &mut k);
    let (k1, k2) = k.split_at(k1_len);
    if bool::from(is_all_zero(k1)) {
        return Err(Error::Decryption);
    }
    let c2 = seal(mode, k1, plaintext, iv);
    // A7: C3 = MAC(K2, C2).
    let c3 = mac.mac(k2, &c2);
    Ok(Ciphertext { mode, c1, c3, c2 })
}

/// Decrypts `ciphertext` addressed to `id` with the MAC mode the sender used. Every failure
/// (wrong key or ID, tampered C1/C2/C3, wrong MAC mode, bad padding) is the opaque
/// [`Error::Decryption`].
pub fn decrypt(
    key: &DecryptionKey,
    id: &[u8],
    ciphertext: &Ciphertext,
    mac: MacMode,
) -> Result<Zeroizing<Vec<u8>>> {
    let mode = ciphertext.mode;
    let c2 = &ciphertext.c2;
    if !mode.c2_len_ok(c2.len()) {
        return Err(Error::Decryption);
    }
    let k1_len = mode.k1_len_for_c2(c2.len());
    check_kdf_len(k1_len + MAC_KEY_LEN).map_err(|_| Error::Decryption)?;
    // B2: w' = e(C1, deB).
    let w = key.pair(&ciphertext.c1);
    // B3: K' = KDF(C1 ‖ w' ‖ IDB, klen).
    let mut k = Zeroizing::new(alloc::vec![0u8; k1_len + MAC_KEY_LEN]);
    kdf(&ciphertext.c1, &w, id, &mut k);
    let (k1, k2) = k.split_at(k1_len);
    // B4: u = MAC(K2', C2) = C3?
    let u = mac.mac(k2, c2);
    let ok = u.ct_eq(&ciphertext.c3) & !is_all_zero(k1);
    if !bool::from(ok) {
        return Err(Error::Decryption);
    }
    // B5: M' = Dec(K1', C2).
    open(mode, k1, c2).map(Zeroizing::new)
}

/// The encapsulation `C ∈ G1` of a KEM key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncapsulatedKey {
    c: G1Affine,
}

impl EncapsulatedKey {
    /// `04 ‖ x ‖ y` (65 bytes).
    pub fn to_bytes(&self) -> [u8; 65] {
        g1_to_bytes(&self.c)
    }

    /// Decodes `04 ‖ x ‖ y`, checking `C ∈ G1`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        Ok(Self {
            c: g1_from_bytes(bytes)?,
        })
    }

    /// DER `BIT STRING` of `04 ‖ x ‖ y` (gmsm's form).
    pub fn to_der(&self) -> Result<Vec<u8>> {
        let b = self.to_bytes();
        Ok(bit_string(&b)?.to_der()?)
    }

    /// Decodes [`to_der`](Self::to_der)'s format.
    pub fn from_der(der: &[u8]) -> Result<Self> {
        let b = der::asn1::BitStringRef::from_der(der)?;
        Self::from_bytes(bit_string_bytes(&b)?)
    }
}

/// Generates a `key_len`-byte key for `id` (hid = 0x03) and its encapsulation
/// (GM/T 0044.4 §6.1).
///
/// ```
/// # use rand_core::OsRng;
/// let kgc = sm9::EncMasterKey::generate(&mut OsRng);
/// let master = kgc.public_key().prepare();
/// let bob = kgc.extract(b"Bob").unwrap().prepare();
/// let (key, c) = sm9::encapsulate(&master, b"Bob", 48, &mut OsRng).unwrap();
/// assert_eq!(sm9::decapsulate(&bob, b"Bob", &c, 48).unwrap(), key);
/// ```
pub fn encapsulate(
    master: &PreparedEncMasterPublicKey,
    id: &[u8],
    key_len: usize,
    rng: &mut impl CryptoRngCore,
) -> Result<(Zeroizing<Vec<u8>>, EncapsulatedKey)> {
    check_kdf_len(key_len)?;
    let h1 = crate::h1(id, HID_ENCRYPT);
    loop {
        let mut r = random_nonzero_scalar(rng);
        let res = encapsulate_with(master, &h1, id, key_len, &r);
        r.zeroize();
        match res {
            Err(Error::Decryption) => continue, // K all zero: A2 again.
            other => return other,
        }
    }
}

/// A1–A6 of the KEM with a given nonce; [`Error::Decryption`] when K is all zero.
pub(crate) fn encapsulate_with(
    master: &PreparedEncMasterPublicKey,
    h1: &Scalar,
    id: &[u8],
    key_len: usize,
    r: &Scalar,
) -> Result<(Zeroizing<Vec<u8>>, EncapsulatedKey)> {
    check_kdf_len(key_len)?;
    let c = master.mul_q(h1, r).to_affine();
    let w = master.g_pow(r);
    let mut k = Zeroizing::new(alloc::vec![0u8; key_len]);
    kdf(&c, &w, id, &mut k);
    if bool::from(is_all_zero(&k)) {
        return Err(Error::Decryption);
    }
    Ok((k, EncapsulatedKey { c }))
}

/// Recovers the `key_len`-byte key from its encapsulation (GM/T 0044.4 §6.2); an all-zero
/// result is [`Error::Decryption`].
pub fn decapsulate(
    key: &DecryptionKey,
    id: &[u8],
    encapsulated: &EncapsulatedKey,
    key_len: usize,
) -> Result<Zeroizing<Vec<u8>>> {
    check_kdf_len(key_len)?;
    let w = key.pair(&encapsulated.c);
    let mut k = Zeroizing::new(alloc::vec![0u8; key_len]);
    kdf(&encapsulated.c, &w, id, &mut k);
    if bool::from(is_all_zero(&k)) {
        return Err(Error::Decryption);
    }
    Ok(k)
}
