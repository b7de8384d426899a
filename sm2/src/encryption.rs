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
use rand_core::CryptoRngCore;
use sm3::{Digest, Sm3};
use sm_curve::{Affine, CurveParams, Jacobian};
use sm_field::{Backend, Fp, U64};
use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, Zeroizing};

use crate::keys::{PublicKey, SecretKey};
use crate::{Curve, Error, Scalar};

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
    hash: OctetStringRef<'a>,
    cipher: OctetStringRef<'a>,
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
        let c1_len = match bytes.first() {
            Some(4) => 65,
            Some(2 | 3) => 33,
            _ => return Err(Error::Encoding),
        };
        if bytes.len() < c1_len + 32 + 1 {
            return Err(Error::Encoding);
        }
        let (c1, rest) = bytes.split_at(c1_len);
        let (c3, c2) = match mode {
            Mode::C1C3C2 => (&rest[..32], &rest[32..]),
            Mode::C1C2C3 => (&rest[rest.len() - 32..], &rest[..rest.len() - 32]),
        };
        Self::from_parts(c1, c3.try_into().expect("32"), c2)
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
        let u = self.with_c1_compressed(false)?;
        let enc = CipherDer {
            x: UintRef::new(&u.c1[1..33]).map_err(|_| Error::Encoding)?,
            y: UintRef::new(&u.c1[33..65]).map_err(|_| Error::Encoding)?,
            hash: OctetStringRef::new(&self.c3).map_err(|_| Error::Encoding)?,
            cipher: OctetStringRef::new(&self.c2).map_err(|_| Error::Encoding)?,
        };
        enc.to_der().map_err(|_| Error::Encoding)
    }

    /// Parses GM/T 0009 DER (strict DER, no trailing data; x, y at most 32 bytes; C3 32 bytes).
    pub fn from_der(bytes: &[u8]) -> Result<Self, Error> {
        let d = CipherDer::from_der(bytes).map_err(|_| Error::Encoding)?;
        let (x, y) = (d.x.as_bytes(), d.y.as_bytes());
        if x.len() > 32 || y.len() > 32 {
            return Err(Error::Encoding);
        }
        let mut c1 = [0u8; 65];
        c1[0] = 4;
        c1[33 - x.len()..33].copy_from_slice(x);
        c1[65 - y.len()..].copy_from_slice(y);
        let c3: &[u8; 32] = d.hash.as_bytes().try_into().map_err(|_| Error::Encoding)?;
        Self::from_parts(&c1, c3, d.cipher.as_bytes())
    }
}

/// `t = KDF(x2 ‖ y2, len)` XORed into `data`; returns whether `t` was all zero.
fn kdf_xor(x2: &[u8; 32], y2: &[u8; 32], data: &mut [u8]) -> Choice {
    let mut kdf = sm3::Kdf::new(&[x2, y2]);
    let mut acc = 0u8;
    let mut buf = Zeroizing::new([0u8; 64]);
    for chunk in data.chunks_mut(64) {
        let t = &mut buf[..chunk.len()];
        kdf.fill(t);
        for (c, k) in chunk.iter_mut().zip(t.iter()) {
            acc |= *k;
            *c ^= *k;
        }
    }
    acc.ct_eq(&0)
}

fn c3_hash(x2: &[u8; 32], m: &[u8], y2: &[u8; 32]) -> [u8; 32] {
    let mut h = Sm3::new();
    h.update(x2);
    h.update(m);
    h.update(y2);
    h.finalize().into()
}

impl<B: Backend> PublicKey<B> {
    /// Encrypts `msg` (at least one byte) to this key; C1 uncompressed, parts ordered by `mode`.
    pub fn encrypt(
        &self,
        rng: &mut impl CryptoRngCore,
        msg: &[u8],
        mode: Mode,
    ) -> Result<Vec<u8>, Error> {
        Ok(self.encrypt_to_ciphertext(rng, msg)?.to_bytes(mode))
    }

    /// Encrypts `msg` and returns the GM/T 0009 DER encoding (OpenSSL's and GmSSL's format).
    pub fn encrypt_der(&self, rng: &mut impl CryptoRngCore, msg: &[u8]) -> Result<Vec<u8>, Error> {
        self.encrypt_to_ciphertext(rng, msg)?.to_der()
    }

    /// Encrypts `msg` into a [`Ciphertext`].
    pub fn encrypt_to_ciphertext(
        &self,
        rng: &mut impl CryptoRngCore,
        msg: &[u8],
    ) -> Result<Ciphertext, Error> {
        if msg.is_empty() {
            return Err(Error::EmptyPlaintext);
        }
        loop {
            let mut k = Scalar::<B>::random(rng);
            if bool::from(k.is_zero()) {
                continue;
            }
            let r = self.encrypt_with_k(&k, msg);
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
        let k: Option<Scalar<B>> = Fp::from_bytes(k).into();
        let k = k
            .filter(|k| !bool::from(k.is_zero()))
            .ok_or(Error::InvalidSecretKey)?;
        self.encrypt_with_k(&k, msg).ok_or(Error::InvalidSecretKey)
    }

    /// Steps A2–A8; `None` if the KDF output is all zero.
    fn encrypt_with_k(&self, k: &Scalar<B>, msg: &[u8]) -> Option<Ciphertext> {
        let c1 = Curve::<B>::mul_generator(k);
        let s = self.as_affine().to_jacobian().mul(k);
        let mut aff = [Affine::<Curve<B>>::IDENTITY; 2];
        Jacobian::batch_to_affine(&[c1, s], &mut aff);
        let x2 = Zeroizing::new(aff[1].x().to_bytes());
        let y2 = Zeroizing::new(aff[1].y().to_bytes());
        let mut c2 = msg.to_vec();
        let zero = kdf_xor(&x2, &y2, &mut c2);
        aff[1].zeroize();
        if bool::from(zero) {
            c2.zeroize();
            return None;
        }
        let c3 = c3_hash(&x2, msg, &y2);
        let mut c1b = [0u8; 65];
        aff[0].write_sec1(false, &mut c1b).expect("65 bytes");
        Some(Ciphertext {
            c1: c1b.to_vec(),
            c3,
            c2,
        })
    }
}

impl<B: Backend> SecretKey<B> {
    /// Decrypts a raw ciphertext in `mode` (C1 compressed or uncompressed).
    pub fn decrypt(&self, ciphertext: &[u8], mode: Mode) -> Result<Zeroizing<Vec<u8>>, Error> {
        let c = Ciphertext::from_bytes(ciphertext, mode).map_err(|_| Error::Decryption)?;
        self.decrypt_ciphertext(&c)
    }

    /// Decrypts the GM/T 0009 DER form.
    pub fn decrypt_der(&self, der: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
        let c = Ciphertext::from_der(der).map_err(|_| Error::Decryption)?;
        self.decrypt_ciphertext(&c)
    }

    /// Decrypts a parsed ciphertext (steps B1–B7). All failures are [`Error::Decryption`].
    pub fn decrypt_ciphertext(&self, c: &Ciphertext) -> Result<Zeroizing<Vec<u8>>, Error> {
        // B1–B2: on the curve and not the identity (cofactor 1).
        let c1 = Affine::<Curve<B>>::from_sec1(&c.c1).map_err(|_| Error::Decryption)?;
        // B3
        let mut s = c1.to_jacobian().mul(self.scalar()).to_affine();
        let x2 = Zeroizing::new(s.x().to_bytes());
        let y2 = Zeroizing::new(s.y().to_bytes());
        s.zeroize();
        // B4–B5
        let mut m = Zeroizing::new(c.c2.clone());
        let zero = kdf_xor(&x2, &y2, &mut m);
        // B6
        let u = c3_hash(&x2, &m, &y2);
        let ok = u.ct_eq(&c.c3) & !zero;
        if bool::from(ok) {
            Ok(m)
        } else {
            Err(Error::Decryption)
        }
    }
}
