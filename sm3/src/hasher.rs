//! The streaming hasher [`Sm3`], its `digest` core [`Sm3Core`] and the padding of §5.2.

use core::fmt;

use digest::block_api::{
    AlgorithmName, Block, BlockSizeUser, Buffer, BufferKindUser, Eager, FixedOutputCore,
    OutputSizeUser, Reset, UpdateCore,
};
use digest::typenum::{U32, U64};
use digest::{HashMarker, Output};
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::compress::compress;
use crate::consts::{BLOCK_LEN, DIGEST_LEN, IV};

/// Pads the last `tail.len() < 64` bytes of a message of `total_len` bytes (§5.2): a 1 bit,
/// zeros up to 448 mod 512 bits, then the 64-bit big-endian bit length. Writes one or two blocks
/// into `out` and returns how many.
#[inline]
pub(crate) fn pad(tail: &[u8], total_len: u64, out: &mut [[u8; 64]; 2]) -> usize {
    debug_assert!(tail.len() < BLOCK_LEN);
    let n = if tail.len() < BLOCK_LEN - 8 { 1 } else { 2 };
    let flat = out.as_flattened_mut();
    flat.fill(0);
    flat[..tail.len()].copy_from_slice(tail);
    flat[tail.len()] = 0x80;
    let bits = total_len.wrapping_mul(8).to_be_bytes();
    flat[n * BLOCK_LEN - 8..n * BLOCK_LEN].copy_from_slice(&bits);
    n
}

/// Writes the chaining value as the digest (§5.4: ABCDEFGH, big-endian words).
#[inline]
pub(crate) fn state_to_bytes(state: &[u32; 8]) -> [u8; DIGEST_LEN] {
    let mut out = [0u8; DIGEST_LEN];
    for (chunk, word) in out.chunks_exact_mut(4).zip(state) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// Block-level SM3 state for the RustCrypto `digest` core API (`hmac::Hmac<Sm3>` runs on it).
///
/// It holds the chaining value and the number of blocks compressed; buffering is the caller's.
#[derive(Clone)]
pub struct Sm3Core {
    state: [u32; 8],
    blocks: u64,
}

impl Sm3Core {
    /// Core state at the initial value IV (§4.1).
    pub const fn new() -> Self {
        Self {
            state: IV,
            blocks: 0,
        }
    }

    #[inline]
    pub(crate) fn compress_blocks(&mut self, blocks: &[[u8; 64]]) {
        self.blocks = self.blocks.wrapping_add(blocks.len() as u64);
        compress(&mut self.state, blocks);
    }

    /// Chaining value and number of bytes absorbed so far (a multiple of 64).
    pub(crate) fn midstate(&self) -> ([u32; 8], u64) {
        (self.state, self.blocks.wrapping_mul(BLOCK_LEN as u64))
    }

    /// Pads `tail` (the bytes after the last full block) and returns the digest; leaves `self`
    /// in an unspecified state.
    pub(crate) fn finish(&mut self, tail: &[u8]) -> [u8; DIGEST_LEN] {
        let total = self
            .blocks
            .wrapping_mul(BLOCK_LEN as u64)
            .wrapping_add(tail.len() as u64);
        let mut last = [[0u8; 64]; 2];
        let n = pad(tail, total, &mut last);
        compress(&mut self.state, &last[..n]);
        last.zeroize();
        state_to_bytes(&self.state)
    }
}

impl Default for Sm3Core {
    fn default() -> Self {
        Self::new()
    }
}

impl HashMarker for Sm3Core {}

impl BlockSizeUser for Sm3Core {
    type BlockSize = U64;
}

impl BufferKindUser for Sm3Core {
    type BufferKind = Eager;
}

impl OutputSizeUser for Sm3Core {
    type OutputSize = U32;
}

impl UpdateCore for Sm3Core {
    #[inline]
    fn update_blocks(&mut self, blocks: &[Block<Self>]) {
        for block in blocks {
            let block: &[u8; 64] = &block.0;
            self.compress_blocks(core::slice::from_ref(block));
        }
    }
}

impl FixedOutputCore for Sm3Core {
    fn finalize_fixed_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
        let digest = self.finish(buffer.get_data());
        out.copy_from_slice(&digest);
    }
}

impl Reset for Sm3Core {
    fn reset(&mut self) {
        *self = Self::new();
    }
}

impl AlgorithmName for Sm3Core {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sm3")
    }
}

impl fmt::Debug for Sm3Core {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sm3Core { .. }")
    }
}

impl Drop for Sm3Core {
    fn drop(&mut self) {
        self.state.zeroize();
        self.blocks.zeroize();
    }
}

impl ZeroizeOnDrop for Sm3Core {}

#[cfg(feature = "oid")]
impl digest::const_oid::AssociatedOid for Sm3Core {
    const OID: digest::const_oid::ObjectIdentifier =
        digest::const_oid::ObjectIdentifier::new_unwrap(crate::SM3_OID);
}

digest::buffer_fixed!(
    /// Streaming SM3 hasher (GB/T 32905-2016 §5): the RustCrypto `digest` 0.11 buffered wrapper
    /// around [`Sm3Core`].
    ///
    /// Use it through [`digest::Digest`] (re-exported as [`crate::Digest`]): `Sm3::new()`,
    /// `update`, `finalize`, `finalize_reset`, `reset`; `Clone` copies the intermediate state. It
    /// works as `hmac::Hmac<Sm3>` and in code generic over `D: Digest`. The chaining value is
    /// zeroized on drop (the wrapper's block buffer is not: prefer [`crate::hmac_sm3`] /
    /// [`crate::Kdf`] for secret data, which zeroize everything).
    pub struct Sm3(Sm3Core);
    oid: "1.2.156.10197.1.401";
    impl: BaseFixedTraits AlgorithmName Default Clone HashMarker Reset FixedOutputReset;
);

/// Internal streaming state with a flat-slice fast path (whole runs of blocks go to one
/// `compress` call) and full zeroization on drop.
#[derive(Clone)]
pub(crate) struct Hasher {
    core: Sm3Core,
    buffer: [u8; BLOCK_LEN],
    pos: usize,
}

impl Hasher {
    pub(crate) const fn new() -> Self {
        Self {
            core: Sm3Core::new(),
            buffer: [0; BLOCK_LEN],
            pos: 0,
        }
    }

    pub(crate) fn update(&mut self, mut data: &[u8]) {
        if self.pos > 0 {
            let take = (BLOCK_LEN - self.pos).min(data.len());
            self.buffer[self.pos..self.pos + take].copy_from_slice(&data[..take]);
            self.pos += take;
            data = &data[take..];
            if self.pos < BLOCK_LEN {
                return;
            }
            self.core
                .compress_blocks(core::slice::from_ref(&self.buffer));
            self.pos = 0;
        }
        let (blocks, rest) = data.as_chunks::<BLOCK_LEN>();
        if !blocks.is_empty() {
            self.core.compress_blocks(blocks);
        }
        self.buffer[..rest.len()].copy_from_slice(rest);
        self.pos = rest.len();
    }

    pub(crate) fn finalize(mut self) -> [u8; DIGEST_LEN] {
        self.core.finish(&self.buffer[..self.pos])
    }

    /// The chaining value after the full blocks absorbed so far, the pending bytes, and the
    /// number of bytes absorbed in full blocks (for midstate reuse in the KDF).
    pub(crate) fn split_state(&self) -> ([u32; 8], &[u8], u64) {
        let (state, absorbed) = self.core.midstate();
        (state, &self.buffer[..self.pos], absorbed)
    }
}

impl Drop for Hasher {
    fn drop(&mut self) {
        self.buffer.zeroize();
        self.pos.zeroize();
    }
}
