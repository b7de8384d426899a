//! `smtool sm4`: SM4 (GB/T 32907) file encryption in CBC (PKCS#7 padding), CTR or GCM, streamed:
//! the data are never held whole (GCM decryption to standard output excepted: nothing is
//! released before the tag is checked).
//!
//! The output is the bare ciphertext, as `openssl enc -sm4-cbc|-sm4-ctr -K … -iv …` writes it
//! (no salt or header); GCM appends its 16-byte tag (ciphertext ‖ tag, as GmSSL and RFC 5116).

use std::io::Write;

use cbc::cipher::{
    BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, InnerIvInit, KeyInit, KeyIvInit,
    StreamCipher,
};
use ghash::universal_hash::UniversalHash;
use sm4_ct::Sm4;
use subtle::{ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroizing;

use crate::cli::{parse_hex, Sm4Args, Sm4Mode};
use crate::error::{quote, Error, Result};
use crate::io;

const BLOCK: usize = 16;
/// The GCM tag length.
const TAG: usize = 16;

/// Runs `smtool sm4`.
pub fn run(a: &Sm4Args) -> Result<()> {
    io::check_single_stdin(&[
        ("--in", Some(&a.input.input)),
        ("--key-file", a.key_file.as_deref()),
    ])?;
    if a.aad.is_some() && a.mode != Sm4Mode::Gcm {
        return Err(Error::Usage("--aad is for --mode gcm only".into()));
    }
    let key = key(a)?;
    let iv = parse_hex(&a.iv, "--iv")?;
    let iv_len = if a.mode == Sm4Mode::Gcm { 12 } else { BLOCK };
    if iv.len() != iv_len {
        return Err(Error::Usage(format!(
            "--iv must be {iv_len} bytes ({} hexadecimal digits) for --mode {}, not {}",
            2 * iv_len,
            mode_name(a.mode),
            iv.len()
        )));
    }
    let aad = a
        .aad
        .as_deref()
        .map(|h| parse_hex(h, "--aad"))
        .transpose()?
        .unwrap_or_default();
    let outs = io::Outputs::plan(&[("--out", &a.out, a.decrypt)])?;
    let mut engine = Engine::new(a.mode, a.decrypt, &key, &iv, &aad);
    let hold = a.decrypt && a.mode == Sm4Mode::Gcm;
    outs.stream_one(hold, |w| {
        let mut out = Zeroizing::new(Vec::new());
        io::try_stream(&a.input.input, |chunk| {
            out.clear();
            engine.update(chunk, &mut out);
            put(w, &out)
        })?;
        out.clear();
        engine.finish(&mut out)?;
        put(w, &out)
    })
}

fn put(w: &mut dyn Write, data: &[u8]) -> Result<()> {
    w.write_all(data)
        .map_err(|e| Error::Input(format!("cannot write the output: {e}")))
}

fn mode_name(m: Sm4Mode) -> &'static str {
    match m {
        Sm4Mode::Cbc => "cbc",
        Sm4Mode::Ctr => "ctr",
        Sm4Mode::Gcm => "gcm",
    }
}

/// The 16-byte key from `--key` or `--key-file` (hexadecimal either way).
fn key(a: &Sm4Args) -> Result<Zeroizing<[u8; 16]>> {
    let (hex, what) = match (&a.key, &a.key_file) {
        (Some(h), _) => (Zeroizing::new(h.as_bytes().to_vec()), "--key".to_string()),
        (None, Some(f)) => (
            Zeroizing::new(io::read_bounded(f, 4096, "key file")?),
            quote(f),
        ),
        (None, None) => {
            return Err(Error::Usage(
                "a key is required: give --key-file FILE or --key HEX".into(),
            ))
        }
    };
    let digits: Zeroizing<Vec<u8>> = Zeroizing::new(
        hex.iter()
            .copied()
            .filter(|b| !b.is_ascii_whitespace())
            .collect(),
    );
    let mut key = Zeroizing::new([0u8; 16]);
    if digits.len() != 32 || hex::decode_to_slice(&digits[..], &mut key[..]).is_err() {
        return Err(Error::Usage(format!(
            "{what}: an SM4 key is 32 hexadecimal digits"
        )));
    }
    Ok(key)
}

/// One direction of one mode, fed chunk by chunk (also timed by `smtool speed`).
pub enum Engine {
    CbcEnc(Box<cbc::Encryptor<Sm4>>, Zeroizing<Vec<u8>>),
    CbcDec(Box<cbc::Decryptor<Sm4>>, Zeroizing<Vec<u8>>),
    Ctr(Box<ctr::Ctr128BE<Sm4>>),
    Gcm(Box<Gcm>),
}

/// GCM (NIST SP 800-38D §7) with a 96-bit IV: `J0 = IV ‖ 0^31 ‖ 1`, the data under CTR from
/// `inc32(J0)`, tag `E(J0) ⊕ GHASH_H(A ‖ 0* ‖ C ‖ 0* ‖ len(A) ‖ len(C))`, `H = E(0^128)`.
pub struct Gcm {
    ctr: ctr::Ctr32BE<Sm4>,
    ghash: ghash::GHash,
    /// `E(J0)`.
    mask: Zeroizing<[u8; 16]>,
    decrypt: bool,
    /// Ciphertext not yet hashed (less than a block), and when decrypting the last 16 bytes
    /// seen, which may be the tag.
    pending: Zeroizing<Vec<u8>>,
    aad_len: u64,
    ct_len: u64,
}

impl Engine {
    pub fn new(mode: Sm4Mode, decrypt: bool, key: &[u8; 16], iv: &[u8], aad: &[u8]) -> Self {
        let pending = || Zeroizing::new(Vec::with_capacity(2 * BLOCK));
        // The caller checked the length: 16 bytes (12 for GCM).
        let iv16 = || <&[u8; 16]>::try_from(iv).expect("a 16-byte IV");
        match (mode, decrypt) {
            (Sm4Mode::Cbc, false) => Engine::CbcEnc(
                Box::new(cbc::Encryptor::new(key.into(), iv16().into())),
                pending(),
            ),
            (Sm4Mode::Cbc, true) => Engine::CbcDec(
                Box::new(cbc::Decryptor::new(key.into(), iv16().into())),
                pending(),
            ),
            (Sm4Mode::Ctr, _) => {
                Engine::Ctr(Box::new(ctr::Ctr128BE::new(key.into(), iv16().into())))
            }
            (Sm4Mode::Gcm, _) => {
                let cipher = Sm4::new(key.into());
                let mut h = Zeroizing::new([0u8; 16]);
                cipher.encrypt_block((&mut *h).into());
                let mut j0 = [0u8; 16];
                j0[..12].copy_from_slice(iv);
                j0[15] = 1;
                let mut mask = Zeroizing::new(j0);
                cipher.encrypt_block((&mut *mask).into());
                j0[15] = 2;
                let mut ghash = ghash::GHash::new((&*h).into());
                ghash.update_padded(aad);
                Engine::Gcm(Box::new(Gcm {
                    ctr: ctr::Ctr32BE::from_core(ctr::CtrCore::inner_iv_init(cipher, (&j0).into())),
                    ghash,
                    mask,
                    decrypt,
                    pending: pending(),
                    aad_len: aad.len() as u64,
                    ct_len: 0,
                }))
            }
        }
    }

    /// Appends the output of `input` to `out`.
    pub fn update(&mut self, input: &[u8], out: &mut Vec<u8>) {
        match self {
            Engine::CbcEnc(c, pending) => {
                pending.extend_from_slice(input);
                let n = pending.len() / BLOCK * BLOCK;
                for b in pending[..n].chunks_exact(BLOCK) {
                    let mut block = *<&[u8; 16]>::try_from(b).expect("a block");
                    c.encrypt_block((&mut block).into());
                    out.extend_from_slice(&block);
                }
                pending.drain(..n);
            }
            Engine::CbcDec(c, pending) => {
                pending.extend_from_slice(input);
                // The last full block may carry the padding: kept until the end.
                let n = pending.len().saturating_sub(1) / BLOCK * BLOCK;
                for b in pending[..n].chunks_exact(BLOCK) {
                    let mut block = Zeroizing::new(*<&[u8; 16]>::try_from(b).expect("a block"));
                    c.decrypt_block((&mut *block).into());
                    out.extend_from_slice(&*block);
                }
                pending.drain(..n);
            }
            Engine::Ctr(c) => {
                let start = out.len();
                out.extend_from_slice(input);
                c.apply_keystream(&mut out[start..]);
            }
            Engine::Gcm(g) => g.update(input, out),
        }
    }

    /// Appends the end of the output to `out`; checks the padding (CBC) or the tag (GCM).
    pub fn finish(self, out: &mut Vec<u8>) -> Result<()> {
        match self {
            Engine::CbcEnc(mut c, pending) => {
                // PKCS#7: 1 to 16 bytes of value n.
                let pad = BLOCK - pending.len();
                let mut block = [pad as u8; 16];
                block[..pending.len()].copy_from_slice(&pending);
                c.encrypt_block((&mut block).into());
                out.extend_from_slice(&block);
                Ok(())
            }
            Engine::CbcDec(mut c, pending) => {
                let bad = || {
                    Error::Failed(
                        "decryption failed (wrong key or IV, or not SM4-CBC with PKCS#7 padding)"
                            .into(),
                    )
                };
                if pending.len() != BLOCK {
                    return Err(bad());
                }
                let mut block = Zeroizing::new([0u8; 16]);
                block.copy_from_slice(&pending);
                c.decrypt_block((&mut *block).into());
                let n = unpad(&block).ok_or_else(bad)?;
                out.extend_from_slice(&block[..BLOCK - n]);
                Ok(())
            }
            Engine::Ctr(_) => Ok(()),
            Engine::Gcm(g) => g.finish(out),
        }
    }
}

/// The PKCS#7 padding length of the last block (1..=16), checked without branching on its
/// bytes.
fn unpad(block: &[u8; 16]) -> Option<usize> {
    let n = block[15];
    let mut ok = !(n.ct_eq(&0)) & (n.ct_eq(&16) | subtle::Choice::from((n < 16) as u8));
    for (i, &b) in block.iter().enumerate() {
        // Bytes from index 16 - n on must equal n.
        let in_pad = subtle::Choice::from(((i as u8).wrapping_add(n) >= 16) as u8);
        ok &= !in_pad | b.ct_eq(&n);
    }
    let len = u8::conditional_select(&0, &n, ok);
    bool::from(ok).then_some(usize::from(len))
}

impl Gcm {
    /// Hashes the whole blocks of `pending` (keeping `keep` bytes back) and returns how many
    /// bytes were hashed.
    fn hash_blocks(&mut self, keep: usize) {
        let n = self.pending.len().saturating_sub(keep) / BLOCK * BLOCK;
        for b in self.pending[..n].chunks_exact(BLOCK) {
            self.ghash
                .update(&[ghash::Block::try_from(b).expect("a block")]);
        }
        self.pending.drain(..n);
    }

    fn update(&mut self, input: &[u8], out: &mut Vec<u8>) {
        let start = out.len();
        if self.decrypt {
            // The last TAG bytes seen may be the tag: the ciphertext is what precedes them.
            self.pending.extend_from_slice(input);
            let ready = self.pending.len().saturating_sub(TAG + BLOCK - 1) / BLOCK * BLOCK;
            out.extend_from_slice(&self.pending[..ready]);
            self.hash_blocks(self.pending.len() - ready);
            self.ctr.apply_keystream(&mut out[start..]);
        } else {
            out.extend_from_slice(input);
            self.ctr.apply_keystream(&mut out[start..]);
            self.pending.extend_from_slice(&out[start..]);
            self.hash_blocks(0);
        }
        self.ct_len += (out.len() - start) as u64;
    }

    fn finish(mut self, out: &mut Vec<u8>) -> Result<()> {
        let tag_in = if self.decrypt {
            if self.pending.len() < TAG {
                return Err(Error::Failed(
                    "decryption failed: the input is shorter than a GCM tag".into(),
                ));
            }
            let split = self.pending.len() - TAG;
            let tag: [u8; TAG] = self.pending[split..].try_into().expect("TAG bytes");
            self.pending.truncate(split);
            let start = out.len();
            out.extend_from_slice(&self.pending);
            self.ctr.apply_keystream(&mut out[start..]);
            self.ct_len += split as u64;
            Some(tag)
        } else {
            None
        };
        // The last partial block of C, zero-padded, then the lengths in bits.
        self.ghash.update_padded(&self.pending);
        let mut lens = [0u8; 16];
        lens[..8].copy_from_slice(&(self.aad_len * 8).to_be_bytes());
        lens[8..].copy_from_slice(&(self.ct_len * 8).to_be_bytes());
        self.ghash.update(&[lens.into()]);
        let mut tag: [u8; TAG] = self.ghash.finalize().into();
        for (t, m) in tag.iter_mut().zip(self.mask.iter()) {
            *t ^= m;
        }
        match tag_in {
            None => {
                out.extend_from_slice(&tag);
                Ok(())
            }
            Some(t) if bool::from(t.ct_eq(&tag)) => Ok(()),
            Some(_) => {
                out.clear();
                Err(Error::Failed(
                    "decryption failed (wrong key, IV or --aad, or a corrupted ciphertext or tag)"
                        .into(),
                ))
            }
        }
    }
}
