//! Public-key encryption (GM/T 0044.4 §7; GB/T 38635.2 §8) and key encapsulation
//! (GM/T 0044.4 §6; GB/T 38635.2 §7).
//!
//! Encryption (A1–A8), with `g = e(Ppub-e, P2)` and the comb tables precomputed in a
//! [`PreparedEncMasterPublicKey`](crate::PreparedEncMasterPublicKey):
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
//! **Empty messages** are encrypted (as GmSSL does). The standard's M is a bit string of
//! length `mlen` with no lower bound; for the KDF stream `klen = mlen + K2_len` is then just
//! `K2_len`, K1 is empty and `C2` is empty, and the "K1 all zero → back to A2" (A6) and
//! "K1' all zero → error" (B3) rules, whose purpose is to keep `C2 = M ⊕ K1` from equalling M,
//! do not apply to an empty K1 (read literally, the vacuous "all zero" of an empty string would
//! make encryption loop for ever and decryption always fail). C3 = MAC(K2, ε) still
//! authenticates C1 and the empty C2. In the SM4 modes K1 has its 128 bits whatever the message
//! and the all-zero rule applies as usual; PKCS#7 pads the empty message to one block (C2 is 16
//! bytes in ECB mode, 32 with the CBC IV).
//!
//! Encapsulation is A1–A6 without the data part: `C = [r]QB`, `K = KDF(C ‖ w ‖ IDB, klen)`
//! (back to A2 if K is all zero).

use alloc::vec::Vec;

use der::{Decode, Encode};
use rand_core::CryptoRng;
use sm_field::{Backend, Job};
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

use crate::asn1::{bit_string, bit_string_bytes, octet_string, CipherAsn1};
use crate::generic::{EncUserKey, PreparedEncMasterPublicKey, Scalar};
use crate::groups::{g1_from_bytes, g1_to_bytes, G1Affine, G2Prepared, Gt};
use crate::hash::h1_in;
use crate::keys::{Nonces, RandomNonces, HID_ENCRYPT};
use crate::symmetric::{
    is_all_zero, open_in_place, seal_in_place, EncryptionMode, MacMode, MAC_KEY_LEN, MAC_LEN,
    SM4_BLOCK_LEN,
};
use crate::{Error, Result};

/// Largest KDF output (GM/T 0044.2 §5.4.3: `klen < (2^32 − 1) · 256` bits).
const MAX_KDF_LEN: u64 = (u32::MAX as u64) * 32;

/// `Z = C ‖ w ‖ ID` of `K = KDF(Z, klen)` (`C` as `x ‖ y`), for reading K as a stream and
/// for computing single blocks of it at their counter.
struct KdfInput<'a> {
    c: [u8; 65],
    w: Zeroizing<[u8; 384]>,
    id: &'a [u8],
}

impl<'a> KdfInput<'a> {
    fn new<B: Backend>(c: &G1Affine<B>, w: &Gt<B>, id: &'a [u8]) -> Self {
        Self {
            c: g1_to_bytes(c),
            w: Zeroizing::new(w.to_bytes()),
            id,
        }
    }

    /// K from its first byte.
    fn reader(&self) -> sm3::Kdf {
        sm3::Kdf::new(&[&self.c[1..], &self.w[..], self.id])
    }

    /// `K[offset .. offset + 32]` (K2 after a K1 of `offset` bytes), from the one or two output
    /// blocks `SM3(Z ‖ ct)` that hold it, without producing the blocks before them.
    fn k2(&self, offset: usize) -> Zeroizing<[u8; MAC_KEY_LEN]> {
        use sm3::Digest;
        let first = offset / 32 + 1;
        let skip = offset % 32;
        let mut blocks = Zeroizing::new([0u8; 64]);
        let n = if skip == 0 { 1 } else { 2 };
        for (i, block) in blocks.chunks_exact_mut(32).take(n).enumerate() {
            // check_kdf_len bounds offset + 32 by the standard's limit: the counter fits.
            let ct = u32::try_from(first + i).expect("KDF counter within the checked length");
            let mut h = sm3::Sm3::new();
            h.update(&self.c[1..]);
            h.update(&self.w[..]);
            h.update(self.id);
            h.update(ct.to_be_bytes());
            block.copy_from_slice(&h.finalize());
        }
        let mut k2 = Zeroizing::new([0u8; MAC_KEY_LEN]);
        k2.copy_from_slice(&blocks[skip..skip + MAC_KEY_LEN]);
        k2
    }
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
pub struct DecryptionKey<B: Backend> {
    key: EncUserKey<B>,
    prepared: G2Prepared<B>,
}

impl<B: Backend> core::fmt::Debug for DecryptionKey<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DecryptionKey").finish_non_exhaustive()
    }
}

impl<B: Backend> DecryptionKey<B> {
    /// Precomputes the lines of `de`.
    pub fn new(key: &EncUserKey<B>) -> Self {
        Self {
            key: key.clone(),
            prepared: G2Prepared::new(&key.d),
        }
    }

    /// The user key.
    pub fn user_key(&self) -> &EncUserKey<B> {
        &self.key
    }

    /// `Z = C ‖ e(C, de) ‖ ID` of the KDF, as one dispatched job ([`Backend::dispatch`]; the
    /// lines of `de` are read in place, the secret `e(C, de)` is wiped inside it).
    fn kdf_input<'a>(&self, c: &G1Affine<B>, id: &'a [u8]) -> KdfInput<'a> {
        struct Pair<'k, 'a, B: Backend> {
            lines: &'k G2Prepared<B>,
            c: &'k G1Affine<B>,
            id: &'a [u8],
        }
        impl<'a, B: Backend> Job for Pair<'_, 'a, B> {
            type Output = KdfInput<'a>;
            fn run<B2: Backend>(self) -> KdfInput<'a> {
                let c = self.c.to_backend::<B2>();
                let mut w = self.lines.on_backend::<B2>().pairing(&c);
                let z = KdfInput::new(&c, &w, self.id);
                w.zeroize();
                z
            }
        }
        B::dispatch(Pair {
            lines: &self.prepared,
            c,
            id,
        })
    }
}

impl<B: Backend> EncUserKey<B> {
    /// Precomputes the pairing lines of `de` for fast decryption and decapsulation.
    pub fn prepare(&self) -> DecryptionKey<B> {
        DecryptionKey::new(self)
    }
}

/// An SM9 ciphertext `(C1, C3, C2)` and its encryption mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ciphertext<B: Backend> {
    mode: EncryptionMode,
    c1: G1Affine<B>,
    c3: [u8; MAC_LEN],
    c2: Vec<u8>,
}

impl<B: Backend> Ciphertext<B> {
    /// A fresh ciphertext from [`encrypt_with`]'s parts.
    pub(crate) fn from_encrypted(
        mode: EncryptionMode,
        c1: G1Affine<B>,
        c3: [u8; MAC_LEN],
        c2: Vec<u8>,
    ) -> Self {
        Self { mode, c1, c3, c2 }
    }

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
        let (c1, c3) = check_parts(mode, c1, c3, c2.len())?;
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
        let (c1, c3) = raw_parts(mode, bytes)?;
        Ok(Self {
            mode,
            c1,
            c3,
            c2: bytes[RAW_HEADER_LEN..].to_vec(),
        })
    }

    /// Checks `bytes` exactly as [`Ciphertext::from_bytes`] does (same errors), without copying
    /// C2.
    pub fn check_bytes(mode: EncryptionMode, bytes: &[u8]) -> Result<()> {
        raw_parts::<B>(mode, bytes).map(|_| ())
    }

    /// GM/T 0080 `SM9Cipher ::= SEQUENCE { EnType INTEGER, C1 BIT STRING, C3 OCTET STRING,
    /// CipherText OCTET STRING }` (GmSSL's and gmsm's form).
    pub fn to_der(&self) -> Result<Vec<u8>> {
        let mut out = der_header(self.mode, &self.c1, &self.c3, self.c2.len())?;
        out.extend_from_slice(&self.c2);
        Ok(out)
    }

    /// Decodes [`to_der`](Self::to_der)'s format (strict DER, no trailing bytes).
    pub fn from_der(der: &[u8]) -> Result<Self> {
        let (mode, c1, c3, c2_len) = der_parts(der)?;
        Ok(Self {
            mode,
            c1,
            c3,
            c2: der[der.len() - c2_len..].to_vec(),
        })
    }

    /// Checks `der` exactly as [`Ciphertext::from_der`] does (same errors), without copying C2;
    /// returns the encryption mode it names.
    pub fn check_der(der: &[u8]) -> Result<EncryptionMode> {
        der_parts::<B>(der).map(|(mode, ..)| mode)
    }
}

/// Length of `C1 ‖ C3` in the raw form.
const RAW_HEADER_LEN: usize = 65 + MAC_LEN;

/// The most bytes the DER form adds to C2 (SEQUENCE header, EnType, C1, C3, C2's header; lengths
/// in at most 4 bytes): capacity to reserve for [`encrypt_der_in_place`].
pub const DER_OVERHEAD: usize = 6 + 3 + 68 + 34 + 6;

/// The checks of [`Ciphertext::from_parts`]: `C1 ∈ G1`, `C3` of 32 bytes, a possible C2 length.
fn check_parts<B: Backend>(
    mode: EncryptionMode,
    c1: &[u8],
    c3: &[u8],
    c2_len: usize,
) -> Result<(G1Affine<B>, [u8; MAC_LEN])> {
    let c1 = g1_from_bytes(c1)?;
    let c3: [u8; MAC_LEN] = c3.try_into().map_err(|_| Error::Encoding)?;
    if !mode.c2_len_ok(c2_len) {
        return Err(Error::Encoding);
    }
    Ok((c1, c3))
}

/// C1 and C3 of a raw ciphertext (C2 is `bytes[RAW_HEADER_LEN..]`).
fn raw_parts<B: Backend>(
    mode: EncryptionMode,
    bytes: &[u8],
) -> Result<(G1Affine<B>, [u8; MAC_LEN])> {
    if bytes.len() < RAW_HEADER_LEN {
        return Err(Error::Encoding);
    }
    check_parts(
        mode,
        &bytes[..65],
        &bytes[65..RAW_HEADER_LEN],
        bytes.len() - RAW_HEADER_LEN,
    )
}

/// Mode, C1, C3 and the length of C2 of a DER ciphertext. C2 is the last field and nothing may
/// follow the SEQUENCE, so C2 is the last `len` bytes of `der`.
fn der_parts<B: Backend>(
    der: &[u8],
) -> Result<(EncryptionMode, G1Affine<B>, [u8; MAC_LEN], usize)> {
    let a = CipherAsn1::from_der(der)?;
    let mode = EncryptionMode::from_en_type(a.en_type)?;
    let c2_len = a.c2.as_bytes().len();
    let (c1, c3) = check_parts(mode, bit_string_bytes(&a.c1)?, a.c3.as_bytes(), c2_len)?;
    Ok((mode, c1, c3, c2_len))
}

/// The DER of a ciphertext up to the content of its C2 OCTET STRING (`c2_len` bytes): what
/// [`Ciphertext::to_der`] writes before C2.
fn der_header<B: Backend>(
    mode: EncryptionMode,
    c1: &G1Affine<B>,
    c3: &[u8; MAC_LEN],
    c2_len: usize,
) -> Result<Vec<u8>> {
    use der::{Header, Length, Tag};
    let c1 = g1_to_bytes(c1);
    let mut fields = Vec::with_capacity(DER_OVERHEAD);
    mode.en_type().encode_to_vec(&mut fields)?;
    bit_string(&c1)?.encode_to_vec(&mut fields)?;
    octet_string(c3)?.encode_to_vec(&mut fields)?;
    Header::new(Tag::OctetString, Length::try_from(c2_len)?).encode_to_vec(&mut fields)?;
    let body = Length::try_from(fields.len() + c2_len)?;
    let mut out = Vec::with_capacity(fields.len() + 6);
    Header::new(Tag::Sequence, body).encode_to_vec(&mut out)?;
    out.extend_from_slice(&fields);
    Ok(out)
}

/// Puts `head` before the bytes of `buf` (one move of the data; no reallocation when the
/// capacity suffices).
fn prepend(buf: &mut Vec<u8>, head: &[u8]) {
    let n = buf.len();
    buf.resize(head.len() + n, 0);
    buf.copy_within(..n, head.len());
    buf[..head.len()].copy_from_slice(head);
}

/// Moves `bytes[from..]` (public C2) to the front and drops the rest.
fn keep_tail(buf: &mut Vec<u8>, from: usize) {
    buf.copy_within(from.., 0);
    buf.truncate(buf.len() - from);
}

/// Encrypts `plaintext` to `id` (hid = 0x03).
///
/// The MAC mode must match the receiver's: [`MacMode::Sm3`] for the standard,
/// [`MacMode::HmacSm3`] for GmSSL.
///
/// ```
/// let mut rng = rand_core::UnwrapErr(getrandom::SysRng); // the OS RNG
/// use shangmi_sm9::{EncryptionMode, MacMode};
/// let kgc = shangmi_sm9::EncMasterKey::generate(&mut rng);
/// let master = kgc.public_key().prepare();
/// let bob = kgc.extract(b"Bob").unwrap().prepare();
/// let ct = shangmi_sm9::encrypt(&master, b"Bob", b"hello", EncryptionMode::Sm4Cbc, MacMode::Sm3, &mut rng)
///     .unwrap();
/// let der = ct.to_der().unwrap();
/// let ct = shangmi_sm9::Ciphertext::from_der(&der).unwrap();
/// assert_eq!(&shangmi_sm9::decrypt(&bob, b"Bob", &ct, MacMode::Sm3).unwrap()[..], b"hello");
/// assert!(shangmi_sm9::decrypt(&bob, b"Bob", &ct, MacMode::HmacSm3).is_err());
/// ```
pub fn encrypt<B: Backend>(
    master: &PreparedEncMasterPublicKey<B>,
    id: &[u8],
    plaintext: &[u8],
    mode: EncryptionMode,
    mac: MacMode,
    rng: &mut impl CryptoRng,
) -> Result<Ciphertext<B>> {
    let mut c2 = Vec::with_capacity(mode.c2_len(plaintext.len()));
    c2.extend_from_slice(plaintext);
    let (c1, c3) = encrypt_c2(master, id, &mut c2, mode, mac, rng)?;
    Ok(Ciphertext::from_encrypted(mode, c1, c3, c2))
}

/// [`encrypt`] in place: `buf` holds the plaintext and is replaced by the raw ciphertext
/// `C1 ‖ C3 ‖ C2` ([`Ciphertext::to_bytes`]'s form). The message is encrypted where it lies
/// (the KDF stream is produced in small pieces), then moved up by C1 ‖ C3 (and, in CBC mode,
/// the IV): reserve `mode.c2_len(len) + 97` bytes ([`EncryptionMode::c2_len`]) to avoid a
/// reallocation. On error `buf` is unchanged.
///
/// ```
/// let mut rng = rand_core::UnwrapErr(getrandom::SysRng); // the OS RNG
/// use shangmi_sm9::{EncryptionMode, MacMode};
/// let kgc = shangmi_sm9::EncMasterKey::generate(&mut rng);
/// let master = kgc.public_key().prepare();
/// let bob = kgc.extract(b"Bob").unwrap().prepare();
/// let mut buf = b"hello".to_vec();
/// shangmi_sm9::encrypt_in_place(&master, b"Bob", &mut buf, EncryptionMode::KdfStream, MacMode::Sm3, &mut rng)
///     .unwrap();
/// shangmi_sm9::decrypt_in_place(&bob, b"Bob", &mut buf, EncryptionMode::KdfStream, MacMode::Sm3).unwrap();
/// assert_eq!(buf, b"hello");
/// ```
pub fn encrypt_in_place<B: Backend>(
    master: &PreparedEncMasterPublicKey<B>,
    id: &[u8],
    buf: &mut Vec<u8>,
    mode: EncryptionMode,
    mac: MacMode,
    rng: &mut impl CryptoRng,
) -> Result<()> {
    let (c1, c3) = encrypt_c2(master, id, buf, mode, mac, rng)?;
    let mut head = [0u8; RAW_HEADER_LEN];
    head[..65].copy_from_slice(&g1_to_bytes(&c1));
    head[65..].copy_from_slice(&c3);
    prepend(buf, &head);
    Ok(())
}

/// [`encrypt_in_place`] with the DER result of [`Ciphertext::to_der`] (at most
/// [`DER_OVERHEAD`] bytes longer than C2: reserve `mode.c2_len(len) + DER_OVERHEAD`). On error
/// `buf` is unchanged.
pub fn encrypt_der_in_place<B: Backend>(
    master: &PreparedEncMasterPublicKey<B>,
    id: &[u8],
    buf: &mut Vec<u8>,
    mode: EncryptionMode,
    mac: MacMode,
    rng: &mut impl CryptoRng,
) -> Result<()> {
    // The encoding's length limit, checked before the message is overwritten.
    der::Length::try_from(mode.c2_len(buf.len()).saturating_add(DER_OVERHEAD))?;
    let (c1, c3) = encrypt_c2(master, id, buf, mode, mac, rng)?;
    let head = der_header(mode, &c1, &c3, buf.len())?;
    prepend(buf, &head);
    Ok(())
}

/// A1–A8 on `buf` (M in, C2 out) with fresh nonces until K1 is not all zero; C1 and C3.
fn encrypt_c2<B: Backend>(
    master: &PreparedEncMasterPublicKey<B>,
    id: &[u8],
    buf: &mut Vec<u8>,
    mode: EncryptionMode,
    mac: MacMode,
    rng: &mut impl CryptoRng,
) -> Result<(G1Affine<B>, [u8; MAC_LEN])> {
    encrypt_dispatched(master, id, buf, mode, mac, RandomNonces(rng))
}

/// A1–A8 on `buf` (M in, C2 out) as one dispatched job ([`Backend::dispatch`]): nonces (and
/// the CBC IV) drawn inside it until K1 is not all zero, or [`Error::Decryption`] when a fixed
/// nonce gives an all-zero K1 (then `buf` is unchanged); returns C1 and C3.
pub(crate) fn encrypt_dispatched<B: Backend>(
    master: &PreparedEncMasterPublicKey<B>,
    id: &[u8],
    buf: &mut Vec<u8>,
    mode: EncryptionMode,
    mac: MacMode,
    nonces: impl Nonces,
) -> Result<(G1Affine<B>, [u8; MAC_LEN])> {
    B::dispatch(EncryptJob {
        master,
        id,
        buf,
        mode,
        mac,
        nonces,
    })
}

/// [`encrypt_dispatched`]'s job.
struct EncryptJob<'a, B: Backend, N> {
    master: &'a PreparedEncMasterPublicKey<B>,
    id: &'a [u8],
    buf: &'a mut Vec<u8>,
    mode: EncryptionMode,
    mac: MacMode,
    nonces: N,
}

impl<B: Backend, N: Nonces> Job for EncryptJob<'_, B, N> {
    type Output = Result<(G1Affine<B>, [u8; MAC_LEN])>;
    fn run<B2: Backend>(mut self) -> Self::Output {
        // A1: h1 of QB = [h1]P1 + Ppub-e.
        let h1 = h1_in::<B2>(self.id, HID_ENCRYPT);
        loop {
            // A2.
            let mut r = self.nonces.draw::<B2>()?;
            let mut iv = [0u8; SM4_BLOCK_LEN];
            if self.mode == EncryptionMode::Sm4Cbc {
                iv = self.nonces.iv()?;
            }
            let res = encrypt_on(
                self.master,
                &h1,
                self.id,
                self.buf,
                self.mode,
                self.mac,
                &r,
                &iv,
            );
            r.zeroize();
            match res {
                // K1 all zero (buf unchanged): A2 again.
                Err(Error::Decryption) if N::RETRY => continue,
                other => return other,
            }
        }
    }
}

/// A3–A7 on backend `B2` with a given nonce `r` and CBC IV on `buf` (M in, C2 out); returns C1
/// and C3, or [`Error::Decryption`] when K1 is all zero (then `buf` is unchanged).
#[allow(clippy::too_many_arguments)]
fn encrypt_on<B: Backend, B2: Backend>(
    master: &PreparedEncMasterPublicKey<B>,
    h1: &Scalar<B2>,
    id: &[u8],
    buf: &mut Vec<u8>,
    mode: EncryptionMode,
    mac: MacMode,
    r: &Scalar<B2>,
    iv: &[u8; SM4_BLOCK_LEN],
) -> Result<(G1Affine<B>, [u8; MAC_LEN])> {
    let k1_len = mode.k1_len_for_plaintext(buf.len());
    check_kdf_len(k1_len.saturating_add(MAC_KEY_LEN))?;
    // A3: C1 = [r]QB.
    let c1 = master.mul_q(h1, r).to_affine();
    // A4–A5: w = g^r.
    let mut w = master.g_pow(r);
    // A6: K = KDF(C1 ‖ w ‖ IDB, klen) = K1 ‖ K2; C2 = Enc(K1, M), K1 read as a stream.
    let z = KdfInput::new(&c1, &w, id);
    w.zeroize();
    let mut k = z.reader();
    let k1_zero = seal_in_place(mode, &mut |t| k.fill(t), buf, iv);
    if bool::from(k1_zero) {
        return Err(Error::Decryption);
    }
    // A7: C3 = MAC(K2, C2).
    let c3 = mac.mac(&z.k2(k1_len)[..], buf);
    Ok((c1.to_backend(), c3))
}

/// Decrypts `ciphertext` addressed to `id` with the MAC mode the sender used. Every failure
/// (wrong key or ID, tampered C1/C2/C3, wrong MAC mode, bad padding) is the opaque
/// [`Error::Decryption`].
pub fn decrypt<B: Backend>(
    key: &DecryptionKey<B>,
    id: &[u8],
    ciphertext: &Ciphertext<B>,
    mac: MacMode,
) -> Result<Zeroizing<Vec<u8>>> {
    let mut m = Zeroizing::new(ciphertext.c2.clone());
    open_c2(
        key,
        id,
        ciphertext.mode,
        &ciphertext.c1,
        &ciphertext.c3,
        &mut m,
        mac,
    )?;
    Ok(m)
}

/// [`decrypt`] in place: `buf` holds the raw ciphertext `C1 ‖ C3 ‖ C2` of `mode` and, on
/// success, is replaced by the plaintext. C2 is moved to the front, its MAC checked, and only
/// then decrypted where it lies (the KDF stream in small pieces; nothing message-sized is
/// allocated). On any failure (malformed ciphertext too) `buf` is wiped (its whole capacity)
/// and emptied, and the error is the opaque [`Error::Decryption`].
pub fn decrypt_in_place<B: Backend>(
    key: &DecryptionKey<B>,
    id: &[u8],
    buf: &mut Vec<u8>,
    mode: EncryptionMode,
    mac: MacMode,
) -> Result<()> {
    let Ok((c1, c3)) = raw_parts::<B>(mode, buf) else {
        buf.zeroize();
        return Err(Error::Decryption);
    };
    keep_tail(buf, RAW_HEADER_LEN);
    open_c2(key, id, mode, &c1, &c3, buf, mac)
}

/// [`decrypt_in_place`] for the DER form ([`Ciphertext::from_der`]; the mode is the one it
/// names), with the same failure behaviour.
pub fn decrypt_der_in_place<B: Backend>(
    key: &DecryptionKey<B>,
    id: &[u8],
    buf: &mut Vec<u8>,
    mac: MacMode,
) -> Result<()> {
    let Ok((mode, c1, c3, c2_len)) = der_parts::<B>(buf) else {
        buf.zeroize();
        return Err(Error::Decryption);
    };
    keep_tail(buf, buf.len() - c2_len);
    open_c2(key, id, mode, &c1, &c3, buf, mac)
}

/// B1–B5 with C2 in `buf`, decrypted in place after the MAC check; on any failure `buf` is
/// wiped and emptied.
fn open_c2<B: Backend>(
    key: &DecryptionKey<B>,
    id: &[u8],
    mode: EncryptionMode,
    c1: &G1Affine<B>,
    c3: &[u8; MAC_LEN],
    buf: &mut Vec<u8>,
    mac: MacMode,
) -> Result<()> {
    let res = open_c2_checked(key, id, mode, c1, c3, buf, mac);
    if res.is_err() {
        buf.zeroize();
    }
    res
}

fn open_c2_checked<B: Backend>(
    key: &DecryptionKey<B>,
    id: &[u8],
    mode: EncryptionMode,
    c1: &G1Affine<B>,
    c3: &[u8; MAC_LEN],
    buf: &mut Vec<u8>,
    mac: MacMode,
) -> Result<()> {
    if !mode.c2_len_ok(buf.len()) {
        return Err(Error::Decryption);
    }
    let k1_len = mode.k1_len_for_c2(buf.len());
    check_kdf_len(k1_len + MAC_KEY_LEN).map_err(|_| Error::Decryption)?;
    // B2–B3: w' = e(C1, deB), K' = KDF(C1 ‖ w' ‖ IDB, klen) = K1' ‖ K2': K2' straight from
    // its counter blocks.
    let z = key.kdf_input(c1, id);
    // B4: u = MAC(K2', C2) = C3? Checked before anything is decrypted.
    let u = mac.mac(&z.k2(k1_len)[..], buf);
    let ok = u.ct_eq(c3);
    if !bool::from(ok) {
        return Err(Error::Decryption);
    }
    // B5: M' = Dec(K1', C2) in place, K1' read as a stream; K1' all zero is an error.
    let mut k = z.reader();
    let k1_zero = open_in_place(mode, &mut |t| k.fill(t), buf)?;
    let ok = ok & !k1_zero;
    if !bool::from(ok) {
        return Err(Error::Decryption);
    }
    Ok(())
}

/// The encapsulation `C ∈ G1` of a KEM key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncapsulatedKey<B: Backend> {
    c: G1Affine<B>,
}

impl<B: Backend> EncapsulatedKey<B> {
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
/// let mut rng = rand_core::UnwrapErr(getrandom::SysRng); // the OS RNG
/// let kgc = shangmi_sm9::EncMasterKey::generate(&mut rng);
/// let master = kgc.public_key().prepare();
/// let bob = kgc.extract(b"Bob").unwrap().prepare();
/// let (key, c) = shangmi_sm9::encapsulate(&master, b"Bob", 48, &mut rng).unwrap();
/// assert_eq!(shangmi_sm9::decapsulate(&bob, b"Bob", &c, 48).unwrap(), key);
/// ```
pub fn encapsulate<B: Backend>(
    master: &PreparedEncMasterPublicKey<B>,
    id: &[u8],
    key_len: usize,
    rng: &mut impl CryptoRng,
) -> Result<(Zeroizing<Vec<u8>>, EncapsulatedKey<B>)> {
    encapsulate_dispatched(master, id, key_len, RandomNonces(rng))
}

/// A1–A6 of the KEM as one dispatched job ([`Backend::dispatch`]), nonces drawn inside it until
/// K is not all zero, or [`Error::Decryption`] when a fixed nonce gives an all-zero K.
pub(crate) fn encapsulate_dispatched<B: Backend>(
    master: &PreparedEncMasterPublicKey<B>,
    id: &[u8],
    key_len: usize,
    nonces: impl Nonces,
) -> Result<(Zeroizing<Vec<u8>>, EncapsulatedKey<B>)> {
    check_kdf_len(key_len)?;
    B::dispatch(EncapsulateJob {
        master,
        id,
        key_len,
        nonces,
    })
}

/// [`encapsulate_dispatched`]'s job.
struct EncapsulateJob<'a, B: Backend, N> {
    master: &'a PreparedEncMasterPublicKey<B>,
    id: &'a [u8],
    key_len: usize,
    nonces: N,
}

impl<B: Backend, N: Nonces> Job for EncapsulateJob<'_, B, N> {
    type Output = Result<(Zeroizing<Vec<u8>>, EncapsulatedKey<B>)>;
    fn run<B2: Backend>(mut self) -> Self::Output {
        let h1 = h1_in::<B2>(self.id, HID_ENCRYPT);
        loop {
            let mut r = self.nonces.draw::<B2>()?;
            let c = self.master.mul_q(&h1, &r).to_affine();
            let mut w = self.master.g_pow(&r);
            r.zeroize();
            let mut k = Zeroizing::new(alloc::vec![0u8; self.key_len]);
            KdfInput::new(&c, &w, self.id).reader().fill(&mut k);
            w.zeroize();
            if !bool::from(is_all_zero(&k)) {
                let c = c.to_backend();
                return Ok((k, EncapsulatedKey { c }));
            }
            if !N::RETRY {
                return Err(Error::Decryption);
            }
            // K all zero: A2 again.
        }
    }
}

/// Recovers the `key_len`-byte key from its encapsulation (GM/T 0044.4 §6.2); an all-zero
/// result is [`Error::Decryption`].
pub fn decapsulate<B: Backend>(
    key: &DecryptionKey<B>,
    id: &[u8],
    encapsulated: &EncapsulatedKey<B>,
    key_len: usize,
) -> Result<Zeroizing<Vec<u8>>> {
    check_kdf_len(key_len)?;
    let mut k = Zeroizing::new(alloc::vec![0u8; key_len]);
    key.kdf_input(&encapsulated.c, id).reader().fill(&mut k);
    if bool::from(is_all_zero(&k)) {
        return Err(Error::Decryption);
    }
    Ok(k)
}
