//! The data-encapsulation half of SM9 encryption (GM/T 0044.4 §7.1–7.3): the symmetric
//! encryption of M under K1 and the MAC of C2 under K2.
//!
//! * [`EncryptionMode`]: the KDF stream cipher (`C2 = M ⊕ K1`, `K1` as long as M) or SM4 in
//!   ECB / CBC mode with PKCS#7 padding (`K1` = 128 bits; in CBC mode a random IV is prepended
//!   to C2). The numbers are the `EnType` values of GM/T 0080 `SM9Cipher`.
//! * [`MacMode`]: the standard's `MAC(K2, Z) = SM3(Z ‖ K2)` (GM/T 0044.4 §5.4.5) or GmSSL 3.x's
//!   `HMAC-SM3(K2, Z)`. The two are incompatible; the caller always picks one explicitly.

use alloc::vec::Vec;

use cbc::cipher::array::Array;
use cbc::cipher::block_padding::{Padding, Pkcs7};
use cbc::cipher::{
    BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit, KeyIvInit,
};
use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, Zeroizing};

use crate::{Error, Result};

/// Length of the MAC key K2 in bytes (GM/T 0044.4 §7.1: K2_len = 256 bits).
pub const MAC_KEY_LEN: usize = 32;
/// Length of the SM4 key K1 in bytes.
pub const SM4_KEY_LEN: usize = 16;
/// SM4 block (and CBC IV) length in bytes.
pub const SM4_BLOCK_LEN: usize = 16;
/// Length of C3 in bytes.
pub const MAC_LEN: usize = 32;

/// How the message is encrypted under K1 (GM/T 0044.4 §7.2 A6/A7; `EnType` of GM/T 0080).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncryptionMode {
    /// The sequence cipher based on the KDF: `C2 = M ⊕ K1` with `|K1| = |M|` (`EnType` 0).
    KdfStream,
    /// SM4-ECB with PKCS#7 padding, `K1` = 16 bytes (`EnType` 1).
    Sm4Ecb,
    /// SM4-CBC with PKCS#7 padding, `K1` = 16 bytes, `C2 = IV ‖ ciphertext` with a random
    /// 16-byte IV (`EnType` 2).
    Sm4Cbc,
}

impl EncryptionMode {
    /// The `EnType` INTEGER of GM/T 0080 `SM9Cipher`.
    pub const fn en_type(self) -> u8 {
        match self {
            EncryptionMode::KdfStream => 0,
            EncryptionMode::Sm4Ecb => 1,
            EncryptionMode::Sm4Cbc => 2,
        }
    }

    /// The mode of an `EnType` value.
    pub fn from_en_type(en_type: u8) -> Result<Self> {
        match en_type {
            0 => Ok(EncryptionMode::KdfStream),
            1 => Ok(EncryptionMode::Sm4Ecb),
            2 => Ok(EncryptionMode::Sm4Cbc),
            _ => Err(Error::UnknownAlgorithm),
        }
    }

    /// Length of K1 for a plaintext of `mlen` bytes (encryption side).
    pub(crate) const fn k1_len_for_plaintext(self, mlen: usize) -> usize {
        match self {
            EncryptionMode::KdfStream => mlen,
            _ => SM4_KEY_LEN,
        }
    }

    /// Length of K1 for a C2 of `c2_len` bytes (decryption side).
    pub(crate) const fn k1_len_for_c2(self, c2_len: usize) -> usize {
        match self {
            EncryptionMode::KdfStream => c2_len,
            _ => SM4_KEY_LEN,
        }
    }

    /// Length of C2 for a plaintext of `mlen` bytes.
    pub const fn c2_len(self, mlen: usize) -> usize {
        match self {
            EncryptionMode::KdfStream => mlen,
            EncryptionMode::Sm4Ecb => (mlen / SM4_BLOCK_LEN + 1) * SM4_BLOCK_LEN,
            EncryptionMode::Sm4Cbc => (mlen / SM4_BLOCK_LEN + 2) * SM4_BLOCK_LEN,
        }
    }

    /// Whether a C2 of this length can be valid: any length for the KDF stream (an empty
    /// message gives an empty C2), whole blocks for SM4 (the PKCS#7 padding of an empty message
    /// is one block; CBC adds the IV).
    pub(crate) const fn c2_len_ok(self, c2_len: usize) -> bool {
        match self {
            EncryptionMode::KdfStream => true,
            EncryptionMode::Sm4Ecb => c2_len > 0 && c2_len.is_multiple_of(SM4_BLOCK_LEN),
            EncryptionMode::Sm4Cbc => {
                c2_len >= 2 * SM4_BLOCK_LEN && c2_len.is_multiple_of(SM4_BLOCK_LEN)
            }
        }
    }
}

/// How C3 is computed from K2 and C2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MacMode {
    /// GM/T 0044.4 §5.4.5 / GB/T 38635.2: `C3 = SM3(C2 ‖ K2)`. Interoperates with the standard's
    /// examples, `gmalg`, gmsm.
    Sm3,
    /// GmSSL 3.x: `C3 = HMAC-SM3(K2, C2)`. Interoperates with GmSSL, `gmssl-pyx`, the `sm9` crate.
    HmacSm3,
}

impl MacMode {
    /// `MAC(K2, C2)`.
    pub(crate) fn mac(self, k2: &[u8], c2: &[u8]) -> [u8; MAC_LEN] {
        match self {
            MacMode::Sm3 => {
                use sm3::Digest;
                let mut h = sm3::Sm3::new();
                h.update(c2);
                h.update(k2);
                h.finalize().into()
            }
            MacMode::HmacSm3 => sm3::hmac_sm3(k2, c2),
        }
    }
}

/// `1` iff every byte of `k` is zero (constant time in the contents).
pub(crate) fn is_all_zero(k: &[u8]) -> Choice {
    let acc = k.iter().fold(0u8, |acc, b| acc | b);
    acc.ct_eq(&0)
}

/// A source of K1: writes the next bytes of the KDF output (K1 is its first `k1_len` bytes).
pub(crate) type K1Reader<'a> = dyn FnMut(&mut [u8]) + 'a;

/// Bytes of the KDF stream XORed per step (16 SM3 blocks, one AVX-512 KDF batch).
const STREAM_STEP: usize = 512;

/// XORs the next `data.len()` bytes of `k1` into `data` (the KDF stream cipher, both ways);
/// whether they were all zero (then `data` is unchanged).
///
/// An empty message has an empty K1, which is never "all zero": the rule (GM/T 0044.4 §7,
/// steps A6 and B3) keeps `C2 = M ⊕ K1` from leaving M in the clear, and an empty C2
/// shows nothing whatever K1 is. Read literally, the vacuous "all zero" of an empty string would
/// make encryption of length 0 loop for ever and its decryption always fail; GmSSL applies the
/// check to the whole KDF output and encrypts the empty message (`sm9_do_encrypt`), and so does
/// this crate. The message length is public, so the branch on it is too.
fn xor_stream(k1: &mut K1Reader<'_>, data: &mut [u8]) -> Choice {
    if data.is_empty() {
        return Choice::from(0);
    }
    let mut acc = 0u8;
    let mut buf = Zeroizing::new([0u8; STREAM_STEP]);
    for chunk in data.chunks_mut(STREAM_STEP) {
        let t = &mut buf[..chunk.len()];
        k1(t);
        for (c, k) in chunk.iter_mut().zip(t.iter()) {
            acc |= *k;
            *c ^= *k;
        }
    }
    acc.ct_eq(&0)
}

/// Encrypts the message in `buf` in place into C2 (growing it by the padding and, in CBC mode,
/// the IV `iv` in front), K1 read from `k1`. Returns whether K1 was all zero; then `buf` is
/// unchanged (the caller retries with a new nonce).
pub(crate) fn seal_in_place(
    mode: EncryptionMode,
    k1: &mut K1Reader<'_>,
    buf: &mut Vec<u8>,
    iv: &[u8; SM4_BLOCK_LEN],
) -> Choice {
    if mode == EncryptionMode::KdfStream {
        return xor_stream(k1, buf);
    }
    let mut key = Zeroizing::new([0u8; SM4_KEY_LEN]);
    k1(&mut key[..]);
    let zero = is_all_zero(&key[..]);
    if bool::from(zero) {
        return zero;
    }
    let n = buf.len();
    buf.resize(mode.c2_len(n), 0);
    if mode == EncryptionMode::Sm4Ecb {
        // ECB straight on the block cipher: its 16-block kernel (the `ecb` crate's encryptor
        // hands blocks over one at a time).
        let pad = buf.len() - n; // 1..=16 (`c2_len`)
        buf[n..].fill(pad as u8);
        let (blocks, _) = Array::slice_as_chunks_mut(&mut buf[..]);
        sm4_ct::Sm4::new(&(*key).into()).encrypt_blocks(blocks);
    } else {
        buf.copy_within(..n, SM4_BLOCK_LEN);
        buf[..SM4_BLOCK_LEN].copy_from_slice(iv);
        cbc::Encryptor::<sm4_ct::Sm4>::new(&(*key).into(), &(*iv).into())
            .encrypt_padded::<Pkcs7>(&mut buf[SM4_BLOCK_LEN..], n)
            .expect("room for the padding");
    }
    zero
}

/// Decrypts C2 in `buf` in place (called only after the MAC has been checked), K1 read from
/// `k1`; `buf` then holds M′. Returns whether K1 was all zero; a padding error is
/// [`Error::Decryption`] (the caller wipes `buf` on either failure).
pub(crate) fn open_in_place(
    mode: EncryptionMode,
    k1: &mut K1Reader<'_>,
    buf: &mut Vec<u8>,
) -> Result<Choice> {
    if !mode.c2_len_ok(buf.len()) {
        return Err(Error::Decryption);
    }
    if mode == EncryptionMode::KdfStream {
        return Ok(xor_stream(k1, buf));
    }
    let mut key = Zeroizing::new([0u8; SM4_KEY_LEN]);
    k1(&mut key[..]);
    let zero = is_all_zero(&key[..]);
    let (start, len) = if mode == EncryptionMode::Sm4Ecb {
        let (blocks, _) = Array::slice_as_chunks_mut(&mut buf[..]);
        sm4_ct::Sm4::new(&(*key).into()).decrypt_blocks(blocks);
        let last = buf.len() - SM4_BLOCK_LEN;
        let tail = Pkcs7::raw_unpad(&buf[last..])
            .map_err(|_| Error::Decryption)?
            .len();
        (0, last + tail)
    } else {
        let (iv, body) = buf.split_at_mut(SM4_BLOCK_LEN);
        let m = cbc::Decryptor::<sm4_ct::Sm4>::new(
            &(*key).into(),
            &(*iv).try_into().expect("16 bytes"),
        )
        .decrypt_padded::<Pkcs7>(body)
        .map_err(|_| Error::Decryption)?;
        (SM4_BLOCK_LEN, m.len())
    };
    keep_plaintext(buf, start, len);
    Ok(zero)
}

/// Moves the unpadded plaintext `buf[start..start + len]` to the front, wipes the rest and
/// drops it. `len` is the plaintext length, which decryption publishes (the constant-time
/// harness declassifies this function: `ct-check/declassified.txt`).
#[inline(never)]
fn keep_plaintext(buf: &mut Vec<u8>, start: usize, len: usize) {
    buf.copy_within(start..start + len, 0);
    buf[len..].zeroize();
    buf.truncate(len);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::{format, vec};

    /// K1 read from a given byte string.
    fn key_reader(k: &[u8]) -> impl FnMut(&mut [u8]) + '_ {
        let mut rest = k;
        move |out: &mut [u8]| {
            let (head, tail) = rest.split_at(out.len());
            out.copy_from_slice(head);
            rest = tail;
        }
    }

    fn seal(mode: EncryptionMode, k1: &[u8], m: &[u8], iv: &[u8; 16]) -> Vec<u8> {
        let mut buf = m.to_vec();
        assert!(!bool::from(seal_in_place(
            mode,
            &mut key_reader(k1),
            &mut buf,
            iv
        )));
        buf
    }

    fn open(mode: EncryptionMode, k1: &[u8], c2: &[u8]) -> Result<Vec<u8>> {
        let mut buf = c2.to_vec();
        let zero = open_in_place(mode, &mut key_reader(k1), &mut buf)?;
        assert!(!bool::from(zero));
        Ok(buf)
    }

    #[test]
    fn annex_d_symmetric_parts() {
        let v = sm_testvectors::sm9();
        let h = |p: &str| sm_testvectors::hex_at(&v, &format!("/encrypt_annexD/{p}"));
        let m = h("M_hex");
        // KDF stream mode.
        let c2 = seal(EncryptionMode::KdfStream, &h("xor_mode/K1"), &m, &[0; 16]);
        assert_eq!(c2, h("xor_mode/C2"));
        assert_eq!(
            MacMode::Sm3.mac(&h("xor_mode/K2"), &c2).to_vec(),
            h("xor_mode/C3=SM3(C2||K2)")
        );
        assert_eq!(
            MacMode::HmacSm3.mac(&h("xor_mode/K2"), &c2).to_vec(),
            h("xor_mode/GmSSL_v3_C3=HMAC-SM3(K2,C2)_NONSTANDARD (derived)")
        );
        assert_eq!(
            open(EncryptionMode::KdfStream, &h("xor_mode/K1"), &c2).unwrap(),
            m
        );
        // SM4-ECB mode.
        let k1 = h("sm4_ecb_pkcs7_mode/K1_sm4_key");
        let c2 = seal(EncryptionMode::Sm4Ecb, &k1, &m, &[0; 16]);
        assert_eq!(c2, h("sm4_ecb_pkcs7_mode/C2"));
        assert_eq!(
            MacMode::Sm3.mac(&h("sm4_ecb_pkcs7_mode/K2"), &c2).to_vec(),
            h("sm4_ecb_pkcs7_mode/C3=SM3(C2||K2)")
        );
        assert_eq!(open(EncryptionMode::Sm4Ecb, &k1, &c2).unwrap(), m);
    }

    #[test]
    fn all_zero_k1_leaves_the_message_unchanged() {
        for mode in [
            EncryptionMode::KdfStream,
            EncryptionMode::Sm4Ecb,
            EncryptionMode::Sm4Cbc,
        ] {
            let mut buf = vec![0x5Au8; 40];
            let k = vec![0u8; mode.k1_len_for_plaintext(40)];
            let zero = seal_in_place(mode, &mut key_reader(&k), &mut buf, &[1; 16]);
            assert!(bool::from(zero));
            assert_eq!(buf, vec![0x5Au8; 40]);
        }
        // The empty message: an empty K1 (KDF stream) is not "all zero"; the SM4 modes' 16-byte
        // K1 still is when its bits are.
        let mut buf = Vec::new();
        assert!(!bool::from(seal_in_place(
            EncryptionMode::KdfStream,
            &mut key_reader(&[]),
            &mut buf,
            &[1; 16]
        )));
        assert!(buf.is_empty());
        for mode in [EncryptionMode::Sm4Ecb, EncryptionMode::Sm4Cbc] {
            let mut buf = Vec::new();
            let zero = seal_in_place(mode, &mut key_reader(&[0; 16]), &mut buf, &[1; 16]);
            assert!(bool::from(zero));
            assert!(buf.is_empty());
        }
    }

    #[test]
    fn cbc_round_trip_and_lengths() {
        let k1 = [7u8; 16];
        let iv = [9u8; 16];
        for len in [0usize, 1, 15, 16, 17, 100] {
            let m = vec![0xA5u8; len];
            for mode in [
                EncryptionMode::KdfStream,
                EncryptionMode::Sm4Ecb,
                EncryptionMode::Sm4Cbc,
            ] {
                let k = vec![3u8; mode.k1_len_for_plaintext(len)];
                let c2 = seal(mode, &k, &m, &iv);
                assert_eq!(c2.len(), mode.c2_len(len));
                assert!(mode.c2_len_ok(c2.len()));
                assert_eq!(k.len(), mode.k1_len_for_c2(c2.len()));
                assert_eq!(open(mode, &k, &c2).unwrap(), m);
            }
            let c2 = seal(EncryptionMode::Sm4Cbc, &k1, &m, &iv);
            assert_eq!(&c2[..16], &iv);
        }
        assert_eq!(
            open(EncryptionMode::Sm4Ecb, &k1, &[0u8; 15]),
            Err(Error::Decryption)
        );
        assert_eq!(
            open(EncryptionMode::Sm4Cbc, &k1, &[0u8; 16]),
            Err(Error::Decryption)
        );
        // Wrong key: for these fixed inputs the PKCS#7 padding check fails (a random wrong key
        // passes it with probability about 2^-8, giving garbage, never the plaintext).
        for mode in [EncryptionMode::Sm4Ecb, EncryptionMode::Sm4Cbc] {
            let c2 = seal(mode, &k1, b"hello", &iv);
            assert_eq!(open(mode, &k1, &c2).unwrap(), b"hello");
            assert_eq!(
                open(mode, &[8u8; 16], &c2),
                Err(Error::Decryption),
                "{mode:?}"
            );
        }
        for t in 0..=255u8 {
            assert_eq!(
                EncryptionMode::from_en_type(t)
                    .map(|m| m.en_type())
                    .unwrap_or(t),
                t
            );
        }
    }

    #[test]
    fn all_zero() {
        assert!(bool::from(is_all_zero(&[0; 5])));
        assert!(!bool::from(is_all_zero(&[0, 0, 1])));
    }
}
