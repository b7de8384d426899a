//! Constant-time SM4 block cipher (GB/T 32907-2016, GM/T 0002-2012).
//!
//! [`Sm4`] implements the RustCrypto `cipher` 0.5 block-cipher traits, so it plugs into the
//! `cbc`, `ecb`, `ctr`, … mode crates:
//!
//! ```
//! use cipher::{BlockModeDecrypt, BlockModeEncrypt, KeyIvInit, block_padding::Pkcs7};
//! let key = [0x42u8; 16];
//! let iv = [0x24u8; 16];
//! let ct = cbc::Encryptor::<sm4_ct::Sm4>::new(&key.into(), &iv.into())
//!     .encrypt_padded_vec::<Pkcs7>(b"hello");
//! let pt = cbc::Decryptor::<sm4_ct::Sm4>::new(&key.into(), &iv.into())
//!     .decrypt_padded_vec::<Pkcs7>(&ct)
//!     .unwrap();
//! assert_eq!(pt, b"hello");
//! ```
//!
//! # Constant time
//!
//! No table is indexed and no branch is taken on key or data, in the key schedule too: the
//! S-box is computed, not looked up.
//!
//! * Portable code: a bitsliced circuit for S(x) = A·I(A·x ⊕ C) ⊕ C (inversion in GF(2^8)
//!   through the tower field GF((2^4)^2)), on one word (key schedule, single blocks) or on 16
//!   blocks at once (the `ParBlocks` of the `cipher` traits).
//! * x86_64 with GFNI (detected at run time, cached): one `GF2P8AFFINEQB` and one
//!   `GF2P8AFFINEINVQB` per vector of bytes, 4/8/16 blocks per pass (SSE/AVX2/AVX-512).
//!
//! Every matrix is derived at compile time from the S-box's algebraic form (`algebra.rs`), and
//! the tests rebuild the standard's S-box table from it byte for byte.
//!
//! Round keys are zeroized on drop; `Debug` does not print them.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![cfg_attr(not(target_arch = "x86_64"), forbid(unsafe_code))]
#![cfg_attr(not(test), warn(missing_docs))]

#[cfg(feature = "std")]
extern crate std;

pub use cipher;

use cipher::consts::U16;
use cipher::inout::{InOut, InOutBuf};
use cipher::{
    AlgorithmName, Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherDecrypt,
    BlockCipherEncBackend, BlockCipherEncClosure, BlockCipherEncrypt, BlockSizeUser, Key, KeyInit,
    KeySizeUser, ParBlocks, ParBlocksSizeUser,
};
use core::fmt;
use zeroize::{Zeroize, ZeroizeOnDrop};

mod algebra;
mod portable;
#[cfg(target_arch = "x86_64")]
mod x86;

/// The implementation an [`Sm4`] instance runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Implementation {
    /// Bitsliced portable code (any CPU).
    Portable,
    /// x86_64 GFNI with SSE registers, 4 blocks per pass.
    GfniSse,
    /// x86_64 GFNI with AVX2 registers, 8 blocks per pass.
    GfniAvx2,
    /// x86_64 GFNI with AVX-512 registers, 16 blocks per pass.
    GfniAvx512,
}

impl Implementation {
    /// A short name (`portable`, `gfni-sse`, `gfni-avx2`, `gfni-avx512`).
    pub fn name(self) -> &'static str {
        match self {
            Implementation::Portable => "portable",
            Implementation::GfniSse => "gfni-sse",
            Implementation::GfniAvx2 => "gfni-avx2",
            Implementation::GfniAvx512 => "gfni-avx512",
        }
    }

    /// The implementation [`Sm4::new`] picks on this CPU.
    pub fn detected() -> Self {
        Imp::best().public()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Imp {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Gfni(x86::Level),
}

impl Imp {
    fn best() -> Self {
        #[cfg(target_arch = "x86_64")]
        if let Some(level) = x86::Level::best() {
            return Imp::Gfni(level);
        }
        Imp::Portable
    }

    fn from_public(i: Implementation) -> Option<Self> {
        match i {
            Implementation::Portable => Some(Imp::Portable),
            #[cfg(target_arch = "x86_64")]
            Implementation::GfniSse => x86::Level::check(x86::Level::Sse).map(Imp::Gfni),
            #[cfg(target_arch = "x86_64")]
            Implementation::GfniAvx2 => x86::Level::check(x86::Level::Avx2).map(Imp::Gfni),
            #[cfg(target_arch = "x86_64")]
            Implementation::GfniAvx512 => x86::Level::check(x86::Level::Avx512).map(Imp::Gfni),
            #[cfg(not(target_arch = "x86_64"))]
            _ => None,
        }
    }

    fn public(self) -> Implementation {
        match self {
            Imp::Portable => Implementation::Portable,
            #[cfg(target_arch = "x86_64")]
            Imp::Gfni(x86::Level::Sse) => Implementation::GfniSse,
            #[cfg(target_arch = "x86_64")]
            Imp::Gfni(x86::Level::Avx2) => Implementation::GfniAvx2,
            #[cfg(target_arch = "x86_64")]
            Imp::Gfni(x86::Level::Avx512) => Implementation::GfniAvx512,
        }
    }

    #[inline]
    fn tau(self, w: u32) -> u32 {
        match self {
            Imp::Portable => portable::tau(w),
            #[cfg(target_arch = "x86_64")]
            Imp::Gfni(level) => level.tau(w),
        }
    }
}

/// FK of the key schedule (GB/T 32907-2016 §7.3).
const FK: [u32; 4] = [0xa3b1_bac6, 0x56aa_3350, 0x677d_9197, 0xb270_22dc];

/// CKᵢ: byte j is (4i + j)·7 mod 256 (GB/T 32907-2016 §7.3).
const CK: [u32; 32] = {
    let mut ck = [0u32; 32];
    let mut i = 0;
    while i < 32 {
        let mut j = 0;
        while j < 4 {
            ck[i] |= ((((4 * i + j) * 7) % 256) as u32) << (24 - 8 * j);
            j += 1;
        }
        i += 1;
    }
    ck
};

/// The 4 big-endian words of a block.
#[inline(always)]
fn load_words(b: &[u8; 16]) -> [u32; 4] {
    let w = |i: usize| u32::from_be_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
    [w(0), w(1), w(2), w(3)]
}

/// Writes (x3, x2, x1, x0) big-endian: the reverse transform R of GB/T 32907-2016 §7.1.
#[inline(always)]
fn store_words_reversed(x: &[u32; 4], b: &mut [u8; 16]) {
    for i in 0..4 {
        b[4 * i..4 * i + 4].copy_from_slice(&x[3 - i].to_be_bytes());
    }
}

/// The SM4 block cipher with a constant-time implementation (see the crate docs), chosen once
/// at key setup.
#[derive(Clone)]
pub struct Sm4 {
    /// rk₀..rk₃₁ (GB/T 32907-2016 §7.3).
    rk: [u32; 32],
    /// The round keys bitsliced for the portable 16-block kernel (zero for GFNI instances).
    bs_rk: [[u64; 8]; 32],
    imp: Imp,
}

impl Sm4 {
    /// Key schedule with the implementation picked for this CPU.
    pub fn from_key(key: &[u8; 16]) -> Self {
        Self::build(key, Imp::best())
    }

    /// Key schedule running on `implementation`; `None` when this CPU does not support it.
    /// (Tests, benchmarks and the constant-time harness use it to force a path.)
    pub fn with_implementation(key: &[u8; 16], implementation: Implementation) -> Option<Self> {
        Imp::from_public(implementation).map(|imp| Self::build(key, imp))
    }

    /// The implementation this instance runs on.
    pub fn implementation(&self) -> Implementation {
        self.imp.public()
    }

    fn build(key: &[u8; 16], imp: Imp) -> Self {
        let mk = load_words(key);
        let mut k = [mk[0] ^ FK[0], mk[1] ^ FK[1], mk[2] ^ FK[2], mk[3] ^ FK[3]];
        let mut rk = [0u32; 32];
        for (i, r) in rk.iter_mut().enumerate() {
            // T' = L'∘τ, L'(B) = B ⊕ (B<<<13) ⊕ (B<<<23).
            let b = imp.tau(k[1] ^ k[2] ^ k[3] ^ CK[i]);
            let n = k[0] ^ b ^ b.rotate_left(13) ^ b.rotate_left(23);
            *r = n;
            k = [k[1], k[2], k[3], n];
        }
        k.zeroize();
        let bs_rk = if imp == Imp::Portable {
            portable::bitslice_round_keys(&rk)
        } else {
            [[0; 8]; 32]
        };
        Sm4 { rk, bs_rk, imp }
    }

    /// Encrypts or decrypts one block.
    #[inline]
    fn crypt1(&self, decrypt: bool, block: &mut [u8; 16]) {
        match self.imp {
            Imp::Portable => portable::crypt_block(&self.rk, decrypt, block),
            #[cfg(target_arch = "x86_64")]
            Imp::Gfni(level) => level.crypt1(&self.rk, decrypt, block),
        }
    }

    /// Encrypts or decrypts the first `n` (1..=16) of `blocks`; the others are scratch.
    #[inline]
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    fn crypt16(&self, decrypt: bool, blocks: &mut [[u8; 16]; 16], n: usize) {
        match self.imp {
            Imp::Portable => portable::crypt_16(&self.bs_rk, decrypt, blocks),
            #[cfg(target_arch = "x86_64")]
            Imp::Gfni(level) => level.crypt(&self.rk, decrypt, blocks, n),
        }
    }
}

impl KeySizeUser for Sm4 {
    type KeySize = U16;
}

impl BlockSizeUser for Sm4 {
    type BlockSize = U16;
}

impl KeyInit for Sm4 {
    #[inline]
    fn new(key: &Key<Self>) -> Self {
        Self::from_key(&(*key).into())
    }
}

impl BlockCipherEncrypt for Sm4 {
    #[inline]
    fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = Self::BlockSize>) {
        f.call(&Backend {
            key: self,
            decrypt: false,
        })
    }
}

impl BlockCipherDecrypt for Sm4 {
    #[inline]
    fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = Self::BlockSize>) {
        f.call(&Backend {
            key: self,
            decrypt: true,
        })
    }
}

impl AlgorithmName for Sm4 {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SM4")
    }
}

impl fmt::Debug for Sm4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sm4")
            .field("implementation", &self.implementation())
            .finish_non_exhaustive()
    }
}

impl Drop for Sm4 {
    fn drop(&mut self) {
        self.rk.zeroize();
        self.bs_rk.zeroize();
    }
}

impl ZeroizeOnDrop for Sm4 {}

/// The `cipher` backend: 16 blocks per parallel call.
struct Backend<'a> {
    key: &'a Sm4,
    decrypt: bool,
}

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U16;
}

impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U16;
}

impl Backend<'_> {
    #[inline]
    fn proc_block(&self, mut block: InOut<'_, '_, Block<Self>>) {
        let mut b: [u8; 16] = (*block.get_in()).into();
        self.key.crypt1(self.decrypt, &mut b);
        *block.get_out() = b.into();
    }

    #[inline]
    fn proc_par_blocks(&self, mut blocks: InOut<'_, '_, ParBlocks<Self>>) {
        let mut buf = [[0u8; 16]; 16];
        for (d, s) in buf.iter_mut().zip(blocks.get_in().iter()) {
            d.copy_from_slice(s);
        }
        self.key.crypt16(self.decrypt, &mut buf, 16);
        for (d, s) in blocks.get_out().iter_mut().zip(&buf) {
            d.copy_from_slice(s);
        }
        buf.zeroize();
    }

    #[inline]
    fn proc_tail_blocks(&self, mut blocks: InOutBuf<'_, '_, Block<Self>>) {
        let mut buf = [[0u8; 16]; 16];
        let n = blocks.len();
        for (d, s) in buf.iter_mut().zip(blocks.get_in()) {
            d.copy_from_slice(s);
        }
        if n == 1 {
            self.key.crypt1(self.decrypt, &mut buf[0]);
        } else if n > 1 {
            self.key.crypt16(self.decrypt, &mut buf, n);
        }
        for (d, s) in blocks.get_out().iter_mut().zip(&buf) {
            d.copy_from_slice(s);
        }
        buf.zeroize();
    }
}

// One backend value serves both directions (`decrypt` is fixed when the closure is called).
impl BlockCipherEncBackend for Backend<'_> {
    #[inline]
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        self.proc_block(block)
    }

    #[inline]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        self.proc_par_blocks(blocks)
    }

    #[inline]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        self.proc_tail_blocks(blocks)
    }
}

impl BlockCipherDecBackend for Backend<'_> {
    #[inline]
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        self.proc_block(block)
    }

    #[inline]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        self.proc_par_blocks(blocks)
    }

    #[inline]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        self.proc_tail_blocks(blocks)
    }
}

#[cfg(test)]
mod tests;
