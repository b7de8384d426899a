//! SM2 public-key encryption (GB/T 32918.4-2016 §6–§7).
//!
//! Encryption (§6.1): A1 k ∈ [1, n−1]; A2 C1 = k·G; A3 h·P_B ≠ O (h = 1; P_B is validated);
//! A4 (x2, y2) = k·P_B; A5 t = KDF(x2 ‖ y2, klen), retry with a new k if t is all zero;
//! A6 C2 = M ⊕ t; A7 C3 = SM3(x2 ‖ M ‖ y2); A8 output C1 ‖ C3 ‖ C2 (or the older C1 ‖ C2 ‖ C3).
//!
//! Decryption (§7.1): B1 C1 on the curve; B2 h·C1 ≠ O; B3 (x2, y2) = d_B·C1; B4 t = KDF(…),
//! reject if all zero; B5 M′ = C2 ⊕ t; B6 u = SM3(x2 ‖ M′ ‖ y2), reject unless u = C3 (constant-time
//! comparison); B7 output M′. Every rejection is the same opaque [`Error::Decryption`].
//!
//! The GM/T 0009-2012 §7.2 DER form is `SEQUENCE { x INTEGER, y INTEGER, C3 OCTET STRING,
//! C2 OCTET STRING }` (what OpenSSL and GmSSL exchange).

use alloc::vec::Vec;

use der::asn1::{OctetStringRef, UintRef};
use der::{Decode, Encode};
use rand_core::CryptoRng;
use sm3::{Digest, Sm3};
use sm_curve::{Affine, CurveParams, Jacobian};
use sm_field::{Backend, Job, U64};
use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, Zeroizing};

use crate::keys::{
    decode_nonzero_scalar, decode_point, encode_point, random_nonzero_scalar, PublicKey, SecretKey,
};
use crate::{AffinePoint, Curve, Error, FieldElement, Scalar};

/// The most bytes the DER form adds to the message (the SEQUENCE header, x and y with a leading
/// zero each, C3, and the header of C2; lengths in at most 4 bytes):
/// capacity to reserve for [`PublicKey::encrypt_der_in_place`].
pub const DER_OVERHEAD: usize = 6 + 2 * 35 + 34 + 6;

/// Order of the ciphertext parts in the raw encodings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// `C1 ‖ C3 ‖ C2` (GB/T 32918.4-2016, the default).
    #[default]
    C1C3C2,
    /// `C1 ‖ C2 ‖ C3` (GM/T 0003-2010 draft order, still used by some libraries).
    C1C2C3,
}

/// A parsed SM2 ciphertext: `C1` (a SEC1 point, compressed or not), `C3` (32 bytes), `C2`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ciphertext {
    c1: Vec<u8>,
    c3: [u8; 32],
    c2: Vec<u8>,
}

#[derive(der::Sequence)]
struct CipherDer<'a> {
    x: UintRef<'a>,
    y: UintRef<'a>,
    hash: &'a OctetStringRef,
    cipher: &'a OctetStringRef,
}

impl Ciphertext {
    /// From parts (C1 as SEC1 bytes: 65 uncompressed or 33 compressed).
    pub fn from_parts(c1: &[u8], c3: &[u8; 32], c2: &[u8]) -> Result<Self, Error> {
        if !matches!((c1.first(), c1.len()), (Some(4), 65) | (Some(2 | 3), 33)) || c2.is_empty() {
            return Err(Error::Encoding);
        }
        Ok(Self {
            c1: c1.to_vec(),
            c3: *c3,
            c2: c2.to_vec(),
        })
    }

    /// `C1` as SEC1 bytes.
    pub fn c1(&self) -> &[u8] {
        &self.c1
    }
    /// `C3 = SM3(x2 ‖ M ‖ y2)`.
    pub fn c3(&self) -> &[u8; 32] {
        &self.c3
    }
    /// `C2 = M ⊕ t`.
    pub fn c2(&self) -> &[u8] {
        &self.c2
    }

    /// Parses the raw concatenation in `mode`; C1 may be compressed (`02|03`, 33 bytes) or
    /// uncompressed (`04`, 65 bytes). C2 must be at least one byte.
    pub fn from_bytes(bytes: &[u8], mode: Mode) -> Result<Self, Error> {
        let l = RawLayout::of(bytes, mode)?;
        Self::from_parts(&bytes[..l.c1_len], &l.c3(bytes), &bytes[l.c2.clone()])
    }

    /// Checks that `bytes` is a raw ciphertext in `mode` exactly as [`Ciphertext::from_bytes`]
    /// would accept it, without copying anything (C1 is not checked against the curve here, as
    /// in `from_bytes`).
    pub fn check_bytes(bytes: &[u8], mode: Mode) -> Result<(), Error> {
        RawLayout::of(bytes, mode).map(|_| ())
    }

    /// The raw concatenation in `mode` (C1 as stored).
    pub fn to_bytes(&self, mode: Mode) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.c1.len() + 32 + self.c2.len());
        out.extend_from_slice(&self.c1);
        match mode {
            Mode::C1C3C2 => {
                out.extend_from_slice(&self.c3);
                out.extend_from_slice(&self.c2);
            }
            Mode::C1C2C3 => {
                out.extend_from_slice(&self.c2);
                out.extend_from_slice(&self.c3);
            }
        }
        out
    }

    /// The same ciphertext with C1 compressed (`compress = true`) or uncompressed.
    pub fn with_c1_compressed(&self, compress: bool) -> Result<Self, Error> {
        let p = Affine::<Curve<U64>>::from_sec1(&self.c1).map_err(|_| Error::Encoding)?;
        let mut buf = [0u8; 65];
        let n = p
            .write_sec1(compress, &mut buf)
            .map_err(|_| Error::Encoding)?;
        Ok(Self {
            c1: buf[..n].to_vec(),
            c3: self.c3,
            c2: self.c2.clone(),
        })
    }

    /// GM/T 0009 DER: `SEQUENCE { x INTEGER, y INTEGER, C3 OCTET STRING, C2 OCTET STRING }`.
    pub fn to_der(&self) -> Result<Vec<u8>, Error> {
        let p = Affine::<Curve<U64>>::from_sec1(&self.c1).map_err(|_| Error::Encoding)?;
        let mut c1 = [0u8; 65];
        p.write_sec1(false, &mut c1).map_err(|_| Error::Encoding)?;
        let mut out = der_header(&c1, &self.c3, self.c2.len())?;
        out.extend_from_slice(&self.c2);
        Ok(out)
    }

    /// Parses GM/T 0009 DER (strict DER, no trailing data; x, y at most 32 bytes; C3 32 bytes).
    pub fn from_der(bytes: &[u8]) -> Result<Self, Error> {
        let (c1, c3, c2_len) = der_parts(bytes)?;
        Self::from_parts(&c1, &c3, &bytes[bytes.len() - c2_len..])
    }

    /// Checks that `bytes` is a ciphertext [`Ciphertext::from_der`] accepts, without copying
    /// anything.
    pub fn check_der(bytes: &[u8]) -> Result<(), Error> {
        der_parts(bytes).map(|_| ())
    }
}

/// Where the parts of a raw ciphertext lie.
struct RawLayout {
    c1_len: usize,
    c3_at: usize,
    c2: core::ops::Range<usize>,
}

impl RawLayout {
    /// The layout of `bytes` in `mode` (the checks of [`Ciphertext::from_bytes`]).
    fn of(bytes: &[u8], mode: Mode) -> Result<Self, Error> {
        let c1_len = match bytes.first() {
            Some(4) => 65,
            Some(2 | 3) => 33,
            _ => return Err(Error::Encoding),
        };
        let n = bytes.len();
        if n < c1_len + 32 + 1 {
            return Err(Error::Encoding);
        }
        Ok(match mode {
            Mode::C1C3C2 => Self {
                c1_len,
                c3_at: c1_len,
                c2: c1_len + 32..n,
            },
            Mode::C1C2C3 => Self {
                c1_len,
                c3_at: n - 32,
                c2: c1_len..n - 32,
            },
        })
    }

    fn c3(&self, bytes: &[u8]) -> [u8; 32] {
        bytes[self.c3_at..self.c3_at + 32]
            .try_into()
            .expect("32 bytes")
    }
}

/// C1 (uncompressed), C3 and the length of C2 of a GM/T 0009 DER ciphertext (the checks of
/// [`Ciphertext::from_der`]). C2 is the last field and nothing may follow the SEQUENCE, so C2
/// is the last `len` bytes of `bytes`.
fn der_parts(bytes: &[u8]) -> Result<([u8; 65], [u8; 32], usize), Error> {
    let d = CipherDer::from_der(bytes).map_err(|_| Error::Encoding)?;
    let (x, y) = (d.x.as_bytes(), d.y.as_bytes());
    if x.len() > 32 || y.len() > 32 || d.cipher.as_bytes().is_empty() {
        return Err(Error::Encoding);
    }
    let mut c1 = [0u8; 65];
    c1[0] = 4;
    c1[33 - x.len()..33].copy_from_slice(x);
    c1[65 - y.len()..].copy_from_slice(y);
    let c3: [u8; 32] = d.hash.as_bytes().try_into().map_err(|_| Error::Encoding)?;
    Ok((c1, c3, d.cipher.as_bytes().len()))
}

/// The DER of a ciphertext up to the content of its C2 OCTET STRING (which is `c2_len` bytes):
/// what [`Ciphertext::to_der`] writes before C2.
fn der_header(c1: &[u8; 65], c3: &[u8; 32], c2_len: usize) -> Result<Vec<u8>, Error> {
    use der::{Header, Length, Tag};
    let e = |_| Error::Encoding;
    let x = UintRef::new(&c1[1..33]).map_err(e)?;
    let y = UintRef::new(&c1[33..65]).map_err(e)?;
    let hash = OctetStringRef::new(c3).map_err(e)?;
    let c2_header = Header::new(Tag::OctetString, Length::try_from(c2_len).map_err(e)?);
    let mut fields = Vec::with_capacity(128);
    x.encode_to_vec(&mut fields).map_err(e)?;
    y.encode_to_vec(&mut fields).map_err(e)?;
    hash.encode_to_vec(&mut fields).map_err(e)?;
    c2_header.encode_to_vec(&mut fields).map_err(e)?;
    let body = Length::try_from(fields.len() + c2_len).map_err(e)?;
    let mut out = Vec::with_capacity(fields.len() + 8);
    Header::new(Tag::Sequence, body)
        .encode_to_vec(&mut out)
        .map_err(e)?;
    out.extend_from_slice(&fields);
    Ok(out)
}

/// Puts `head` before and `tail` after the bytes of `buf` (one move of the data; no
/// reallocation when the capacity suffices).
fn frame(buf: &mut Vec<u8>, head: &[u8], tail: &[u8]) {
    let n = buf.len();
    buf.resize(head.len() + n + tail.len(), 0);
    buf.copy_within(..n, head.len());
    buf[..head.len()].copy_from_slice(head);
    buf[head.len() + n..].copy_from_slice(tail);
}

/// Moves `range` of `buf` to the front and drops the rest (public ciphertext bytes only).
fn keep_only(buf: &mut Vec<u8>, range: core::ops::Range<usize>) {
    let n = range.len();
    buf.copy_within(range, 0);
    buf.truncate(n);
}

/// Which side of the XOR the hash C3 = SM3(x2 ‖ M ‖ y2) covers: its input (encryption, M) or
/// its output (decryption, M′).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Encrypt,
    Decrypt,
}

/// A5–A7 / B4–B6 in one pass over `data`: XORs `t = KDF(x2 ‖ y2, |data|)` into it and hashes
/// the plaintext side. Returns the hash and whether `t` was all zero (then `data` is unchanged).
fn xor_and_hash(x2: &[u8; 32], y2: &[u8; 32], data: &mut [u8], side: Side) -> ([u8; 32], Choice) {
    const STEP: usize = 512;
    let mut kdf = sm3::Kdf::new(&[x2, y2]);
    let mut h = Sm3::new();
    h.update(x2);
    let mut acc = 0u8;
    let mut buf = Zeroizing::new([0u8; STEP]);
    for chunk in data.chunks_mut(STEP) {
        let t = &mut buf[..chunk.len()];
        kdf.fill(t);
        if side == Side::Encrypt {
            h.update(&*chunk);
        }
        for (c, k) in chunk.iter_mut().zip(t.iter()) {
            acc |= *k;
            *c ^= *k;
        }
        if side == Side::Decrypt {
            h.update(&*chunk);
        }
    }
    h.update(y2);
    (h.finalize().into(), acc.ct_eq(&0))
}

/// The largest DER header any ciphertext with a C2 of `c2_len` bytes can have (x and y with a
/// leading zero byte each); checks up front that the length is encodable.
pub(crate) fn check_der_len(c2_len: usize) -> Result<(), Error> {
    der_header(&[0xff; 65], &[0; 32], c2_len).map(|_| ())
}

impl<B: Backend> PublicKey<B> {
    /// Encrypts `msg` (at least one byte) to this key; C1 uncompressed, parts ordered by `mode`.
    pub fn encrypt(
        &self,
        rng: &mut impl CryptoRng,
        msg: &[u8],
        mode: Mode,
    ) -> Result<Vec<u8>, Error> {
        let mut buf = Vec::with_capacity(msg.len() + 65 + 32);
        buf.extend_from_slice(msg);
        self.encrypt_in_place(rng, &mut buf, mode)?;
        Ok(buf)
    }

    /// Encrypts `msg` and returns the GM/T 0009 DER encoding (OpenSSL's and GmSSL's format).
    pub fn encrypt_der(&self, rng: &mut impl CryptoRng, msg: &[u8]) -> Result<Vec<u8>, Error> {
        let mut buf = Vec::with_capacity(msg.len() + DER_OVERHEAD);
        buf.extend_from_slice(msg);
        self.encrypt_der_in_place(rng, &mut buf)?;
        Ok(buf)
    }

    /// [`PublicKey::encrypt`] in place: `buf` holds the message (at least one byte) and is
    /// replaced by the ciphertext in `mode`, with C1 uncompressed; the message is encrypted
    /// where it lies, then moved up by the 97 bytes of C1 ‖ C3 (reserve them to avoid a
    /// reallocation). On error `buf` is unchanged.
    pub fn encrypt_in_place(
        &self,
        rng: &mut impl CryptoRng,
        buf: &mut Vec<u8>,
        mode: Mode,
    ) -> Result<(), Error> {
        let (c1, c3) = self.encrypt_slice(rng, buf)?;
        frame_raw(buf, mode, &c1, &c3);
        Ok(())
    }

    /// [`PublicKey::encrypt_der`] in place: `buf` holds the message and is replaced by the
    /// GM/T 0009 DER ciphertext (at most [`DER_OVERHEAD`] bytes longer). On error `buf` is
    /// unchanged.
    pub fn encrypt_der_in_place(
        &self,
        rng: &mut impl CryptoRng,
        buf: &mut Vec<u8>,
    ) -> Result<(), Error> {
        check_der_len(buf.len())?;
        let (c1, c3) = self.encrypt_slice(rng, buf)?;
        frame_der(buf, &c1, &c3)
    }

    /// Encrypts `msg` into a [`Ciphertext`].
    pub fn encrypt_to_ciphertext(
        &self,
        rng: &mut impl CryptoRng,
        msg: &[u8],
    ) -> Result<Ciphertext, Error> {
        let mut c2 = msg.to_vec();
        let (c1, c3) = self.encrypt_slice(rng, &mut c2)?;
        Ok(Ciphertext {
            c1: c1.to_vec(),
            c3,
            c2,
        })
    }

    /// Steps A1–A7 on `data` (M in, C2 out) with fresh `k` until the KDF output is not all
    /// zero; returns C1 (uncompressed) and C3.
    fn encrypt_slice(
        &self,
        rng: &mut impl CryptoRng,
        data: &mut [u8],
    ) -> Result<([u8; 65], [u8; 32]), Error> {
        if data.is_empty() {
            return Err(Error::EmptyPlaintext);
        }
        loop {
            let mut k = random_nonzero_scalar::<B>(rng);
            let r = self.encrypt_with_k(&k, data);
            k.zeroize();
            if let Some(c) = r {
                return Ok(c);
            }
        }
    }

    /// Encrypts with the caller's ephemeral `k` (for known-answer tests only: a repeated or
    /// leaked `k` reveals the plaintext). Fails if `k ∉ [1, n−1]` or the KDF output is all zero.
    pub fn encrypt_with_nonce(&self, k: &[u8; 32], msg: &[u8]) -> Result<Ciphertext, Error> {
        if msg.is_empty() {
            return Err(Error::EmptyPlaintext);
        }
        let k: Option<Scalar<B>> = decode_nonzero_scalar(k, false).into();
        let k = k.ok_or(Error::InvalidSecretKey)?;
        let mut c2 = msg.to_vec();
        let (c1, c3) = self
            .encrypt_with_k(&k, &mut c2)
            .ok_or(Error::InvalidSecretKey)?;
        Ok(Ciphertext {
            c1: c1.to_vec(),
            c3,
            c2,
        })
    }

    /// Steps A2–A7 on `data` (M in, C2 out); `None` if the KDF output is all zero (then `data`
    /// is unchanged: C2 = M ⊕ 0).
    fn encrypt_with_k(&self, k: &Scalar<B>, data: &mut [u8]) -> Option<([u8; 65], [u8; 32])> {
        let (c1, x2, y2) = B::dispatch(EncryptPoints {
            public: self.as_affine(),
            k,
        });
        seal_with_shared(&c1, &x2, &y2, data)
    }
}

/// Steps A2–A4 on the backend [`Backend::dispatch`] picks: C1 = k·G and the coordinates of
/// k·P_B.
struct EncryptPoints<'a, B: Backend> {
    public: &'a AffinePoint<B>,
    k: &'a Scalar<B>,
}

impl<B: Backend> Job for EncryptPoints<'_, B> {
    /// C1 uncompressed, and the shared point.
    type Output = ([u8; 65], Zeroizing<[u8; 32]>, Zeroizing<[u8; 32]>);
    fn run<B2: Backend>(self) -> Self::Output {
        let mut k = self.k.to_backend::<B2>();
        let c1 = Curve::<B2>::mul_generator(&k);
        let s = self.public.to_backend::<B2>().to_jacobian().mul(&k);
        k.zeroize();
        let mut aff = [Affine::<Curve<B2>>::IDENTITY; 2];
        Jacobian::batch_to_affine(&[c1, s], &mut aff);
        let (x2, y2) = shared_bytes(&aff[1].x(), &aff[1].y());
        aff[1].zeroize();
        (encode_point(&aff[0], false), x2, y2)
    }
}

/// [`shared_point`]'s arithmetic on the backend [`Backend::dispatch`] picks.
struct SharedPointJob<'a, B: Backend> {
    k: &'a Scalar<B>,
    p: &'a AffinePoint<B>,
}

impl<B: Backend> Job for SharedPointJob<'_, B> {
    type Output = SharedPoint;
    fn run<B2: Backend>(self) -> SharedPoint {
        let mut k = self.k.to_backend::<B2>();
        let mut s = self.p.to_backend::<B2>().to_jacobian().mul(&k).to_affine();
        k.zeroize();
        let xy = shared_bytes(&s.x(), &s.y());
        s.zeroize();
        xy
    }
}

/// A5–A7 on `data` (M in, C2 out) given C1 and the shared point `(x2, y2)`: C1 (uncompressed)
/// and C3, or `None` if the KDF output is all zero (then `data` is unchanged).
pub(crate) fn seal_with_shared(
    c1: &[u8; 65],
    x2: &[u8; 32],
    y2: &[u8; 32],
    data: &mut [u8],
) -> Option<([u8; 65], [u8; 32])> {
    let (c3, zero) = xor_and_hash(x2, y2, data, Side::Encrypt);
    if bool::from(zero) {
        return None;
    }
    Some((*c1, c3))
}

/// Frames C2 (in `buf`) with C1 and C3 into the raw ciphertext in `mode`.
pub(crate) fn frame_raw(buf: &mut Vec<u8>, mode: Mode, c1: &[u8; 65], c3: &[u8; 32]) {
    match mode {
        Mode::C1C3C2 => {
            let mut head = [0u8; 97];
            head[..65].copy_from_slice(c1);
            head[65..].copy_from_slice(c3);
            frame(buf, &head, &[]);
        }
        Mode::C1C2C3 => frame(buf, c1, c3),
    }
}

/// Frames C2 (in `buf`) with C1 and C3 into the GM/T 0009 DER ciphertext.
pub(crate) fn frame_der(buf: &mut Vec<u8>, c1: &[u8; 65], c3: &[u8; 32]) -> Result<(), Error> {
    let head = der_header(c1, c3, buf.len())?;
    frame(buf, &head, &[]);
    Ok(())
}

impl<B: Backend> SecretKey<B> {
    /// Decrypts a raw ciphertext in `mode` (C1 compressed or uncompressed).
    pub fn decrypt(&self, ciphertext: &[u8], mode: Mode) -> Result<Zeroizing<Vec<u8>>, Error> {
        let mut buf = Zeroizing::new(ciphertext.to_vec());
        self.decrypt_in_place(&mut buf, mode)?;
        Ok(buf)
    }

    /// Decrypts the GM/T 0009 DER form.
    pub fn decrypt_der(&self, der: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
        let mut buf = Zeroizing::new(der.to_vec());
        self.decrypt_der_in_place(&mut buf)?;
        Ok(buf)
    }

    /// Decrypts a parsed ciphertext (steps B1–B7). All failures are [`Error::Decryption`].
    pub fn decrypt_ciphertext(&self, c: &Ciphertext) -> Result<Zeroizing<Vec<u8>>, Error> {
        let mut m = Zeroizing::new(c.c2.clone());
        self.open_in_place(&c.c1, &c.c3, &mut m)?;
        Ok(m)
    }

    /// [`SecretKey::decrypt`] in place: `buf` holds the raw ciphertext in `mode` and, on
    /// success, is replaced by the plaintext (C2 is moved to the front and decrypted where it
    /// lies; nothing else is allocated). On any failure `buf` is wiped (its whole capacity) and
    /// emptied, and the error is the opaque [`Error::Decryption`].
    pub fn decrypt_in_place(&self, buf: &mut Vec<u8>, mode: Mode) -> Result<(), Error> {
        let parts = Parts::split_raw(buf, mode)?;
        self.open_in_place(parts.c1(), &parts.c3, buf)
    }

    /// [`SecretKey::decrypt_der`] in place, with the failure behaviour of
    /// [`SecretKey::decrypt_in_place`].
    pub fn decrypt_der_in_place(&self, buf: &mut Vec<u8>) -> Result<(), Error> {
        let parts = Parts::split_der(buf)?;
        self.open_in_place(parts.c1(), &parts.c3, buf)
    }

    /// Steps B1–B7 with C2 in `buf`, decrypted in place; `buf` keeps M′ only if u = C3 and t is
    /// not all zero, else it is wiped and emptied.
    fn open_in_place(&self, c1: &[u8], c3: &[u8; 32], buf: &mut Vec<u8>) -> Result<(), Error> {
        // B1–B2: on the curve and not the identity (cofactor 1).
        let Some(c1) = decode_point::<B>(c1) else {
            buf.zeroize();
            return Err(Error::Decryption);
        };
        // B3
        let (x2, y2) = shared_point(self.scalar(), &c1);
        open_with_shared(&x2, &y2, c3, buf)
    }
}

/// The coordinates of `k·P` as bytes, in constant time, on the backend [`Backend::dispatch`]
/// picks: B3 of decryption (`d_B·C1`), the scalar fallback of batch encryption (`k·P_B`).
pub(crate) fn shared_point<B: Backend>(k: &Scalar<B>, p: &AffinePoint<B>) -> SharedPoint {
    B::dispatch(SharedPointJob { k, p })
}

/// The coordinates `(x2, y2)` of the shared point of encryption and decryption, as bytes.
pub(crate) type SharedPoint = (Zeroizing<[u8; 32]>, Zeroizing<[u8; 32]>);

/// The bytes of the shared point `(x, y)`.
pub(crate) fn shared_bytes<B: Backend>(x: &FieldElement<B>, y: &FieldElement<B>) -> SharedPoint {
    (Zeroizing::new(x.to_bytes()), Zeroizing::new(y.to_bytes()))
}

/// B4–B7 with C2 in `buf`, decrypted in place given the shared point `(x2, y2)`: `buf` keeps M′
/// only if u = C3 and t is not all zero, else it is wiped and emptied and the error is the
/// opaque [`Error::Decryption`].
pub(crate) fn open_with_shared(
    x2: &[u8; 32],
    y2: &[u8; 32],
    c3: &[u8; 32],
    buf: &mut Vec<u8>,
) -> Result<(), Error> {
    let (u, zero) = xor_and_hash(x2, y2, buf, Side::Decrypt);
    let ok = u.ct_eq(c3) & !zero;
    if bool::from(ok) {
        Ok(())
    } else {
        buf.zeroize();
        Err(Error::Decryption)
    }
}

/// C1 (SEC1 bytes, not yet checked against the curve) and C3 of a ciphertext split off its C2.
pub(crate) struct Parts {
    c1: [u8; 65],
    c1_len: usize,
    pub(crate) c3: [u8; 32],
}

impl Parts {
    /// C1 as SEC1 bytes (65 uncompressed or 33 compressed).
    pub(crate) fn c1(&self) -> &[u8] {
        &self.c1[..self.c1_len]
    }

    /// Splits the raw ciphertext in `buf` (in `mode`): `buf` keeps C2 only. On a framing error
    /// `buf` is wiped and emptied, and the error is [`Error::Decryption`].
    pub(crate) fn split_raw(buf: &mut Vec<u8>, mode: Mode) -> Result<Self, Error> {
        let Ok(l) = RawLayout::of(buf, mode) else {
            buf.zeroize();
            return Err(Error::Decryption);
        };
        let mut c1 = [0u8; 65];
        c1[..l.c1_len].copy_from_slice(&buf[..l.c1_len]);
        let c3 = l.c3(buf);
        keep_only(buf, l.c2);
        Ok(Self {
            c1,
            c1_len: l.c1_len,
            c3,
        })
    }

    /// [`Parts::split_raw`] for the GM/T 0009 DER form.
    pub(crate) fn split_der(buf: &mut Vec<u8>) -> Result<Self, Error> {
        let Ok((c1, c3, c2_len)) = der_parts(buf) else {
            buf.zeroize();
            return Err(Error::Decryption);
        };
        keep_only(buf, buf.len() - c2_len..buf.len());
        Ok(Self { c1, c1_len: 65, c3 })
    }
}
