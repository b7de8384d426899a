//! The key derivation function of GM/T 0003.4 §5.4.3 (SM2) and GM/T 0044.4 (SM9):
//! `K = Ha1 ‖ Ha2 ‖ …` with `Hai = SM3(Z ‖ ct)`, `ct` a 32-bit big-endian counter from 1,
//! truncated to the requested length.
//!
//! Steps (GB/T 32918.4 §5.4.3): a) ct = 0x00000001; b) for i = 1..⌈klen/v⌉: Hai = Hv(Z ‖ ct),
//! ct += 1; c)–d) K = Ha1 ‖ … ‖ Ha⌈klen/v⌉ truncated to klen bits.
//!
//! Every counter block shares the prefix Z, so [`Kdf`] compresses Z's full blocks once and keeps
//! that chaining value (the midstate); each output block then costs only the one or two blocks
//! holding the rest of Z, the counter and the padding. Those are independent across counters, so
//! long outputs hash 8 or 16 counters per SIMD call.

use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::backend_info::Backend;
use crate::compress::compress;
use crate::consts::DIGEST_LEN;
use crate::hasher::pad;
use crate::hasher::Hasher;
use crate::Error;

/// Most output blocks one refill produces (the widest SIMD lane count).
const MAX_LANES: usize = 16;

/// One-shot KDF: fills `out` with the first `out.len()` bytes of `SM3(z ‖ 1) ‖ SM3(z ‖ 2) ‖ …`.
///
/// # Panics
/// If `out` is longer than (2³² − 1) · 32 bytes, the standard's limit.
///
/// ```
/// let mut key = [0u8; 16];
/// sm3::kdf(b"shared secret Z", &mut key);
/// assert_ne!(key, [0u8; 16]);
/// ```
pub fn kdf(z: &[u8], out: &mut [u8]) {
    Kdf::new(&[z]).fill(out);
}

/// Incremental KDF reader: successive [`fill`](Self::fill) calls continue one output stream.
///
/// `Z` is given as parts that are concatenated (e.g. `&[x2, y2]`), so callers need not allocate.
/// The midstate, the unprocessed end of `Z` and any buffered output are secret and are zeroized
/// on drop.
///
/// ```
/// use sm3::Kdf;
/// let (x2, y2) = ([1u8; 32], [2u8; 32]);
/// let mut reader = Kdf::new(&[&x2, &y2]);
/// let mut first = [0u8; 10];
/// let mut rest = [0u8; 90];
/// reader.fill(&mut first);
/// reader.fill(&mut rest);
///
/// let mut z = [0u8; 64];
/// z[..32].copy_from_slice(&x2);
/// z[32..].copy_from_slice(&y2);
/// let mut all = [0u8; 100];
/// sm3::kdf(&z, &mut all);
/// assert_eq!(&all[..10], &first);
/// assert_eq!(&all[10..], &rest);
/// ```
pub struct Kdf {
    /// Chaining value after the full 64-byte blocks of Z.
    mid: [u32; 8],
    /// The bytes of Z after its last full block.
    z_tail: [u8; 64],
    z_tail_len: usize,
    /// Total length of Z in bytes.
    z_len: u64,
    /// Next counter value; at most 2³² (then the output is exhausted).
    counter: u64,
    /// Output blocks produced but not yet read.
    buf: [u8; DIGEST_LEN * MAX_LANES],
    buf_pos: usize,
    buf_len: usize,
    backend: Backend,
}

impl Kdf {
    /// Starts the KDF for `Z = z_parts[0] ‖ z_parts[1] ‖ …`, on the fastest available backend.
    pub fn new(z_parts: &[&[u8]]) -> Self {
        Self::build(Backend::best(), z_parts)
    }

    /// [`Kdf::new`] on a chosen backend, for tests and benchmarks that compare the paths
    /// (the output is the same on every backend).
    ///
    /// # Errors
    /// [`Error::BackendUnavailable`] if this CPU (or target) lacks the backend.
    pub fn with_backend(backend: Backend, z_parts: &[&[u8]]) -> Result<Self, Error> {
        if backend.is_available() {
            Ok(Self::build(backend, z_parts))
        } else {
            Err(Error::BackendUnavailable)
        }
    }

    fn build(backend: Backend, z_parts: &[&[u8]]) -> Self {
        let mut h = Hasher::new();
        for part in z_parts {
            h.update(part);
        }
        let (mid, tail, absorbed) = h.split_state();
        let mut z_tail = [0u8; 64];
        z_tail[..tail.len()].copy_from_slice(tail);
        Self {
            mid,
            z_tail,
            z_tail_len: tail.len(),
            z_len: absorbed + tail.len() as u64,
            counter: 1,
            buf: [0; DIGEST_LEN * MAX_LANES],
            buf_pos: 0,
            buf_len: 0,
            backend,
        }
    }

    /// Writes the next `out.len()` bytes of the output stream.
    ///
    /// # Panics
    /// If the stream would pass (2³² − 1) blocks of 32 bytes (the standard's limit on klen).
    pub fn fill(&mut self, mut out: &mut [u8]) {
        while !out.is_empty() {
            if self.buf_pos == self.buf_len {
                self.refill(out.len().div_ceil(DIGEST_LEN));
            }
            let n = out.len().min(self.buf_len - self.buf_pos);
            let (head, rest) = out.split_at_mut(n);
            head.copy_from_slice(&self.buf[self.buf_pos..self.buf_pos + n]);
            self.buf_pos += n;
            out = rest;
        }
    }

    /// The last block(s) hashed for counter `ct`: rest of Z ‖ ct ‖ padding (§5.2). Their count
    /// (1 or 2) depends only on the length of Z.
    fn counter_blocks(&self, ct: u32, blocks: &mut [[u8; 64]; 2]) -> usize {
        let total = self.z_len.wrapping_add(4);
        let mut tail = [0u8; 68];
        let len = self.z_tail_len + 4;
        tail[..self.z_tail_len].copy_from_slice(&self.z_tail[..self.z_tail_len]);
        tail[self.z_tail_len..len].copy_from_slice(&ct.to_be_bytes());
        let n = if len < 64 {
            pad(&tail[..len], total, blocks)
        } else {
            let mut last = [[0u8; 64]; 2];
            pad(&tail[64..len], total, &mut last);
            blocks[0].copy_from_slice(&tail[..64]);
            blocks[1] = last[0];
            last.zeroize();
            2
        };
        tail.zeroize();
        n
    }

    /// Produces at least one new output block into `buf`; `want` is how many the caller still
    /// needs, which decides whether a SIMD batch pays off.
    fn refill(&mut self, want: usize) {
        let left = (1u64 << 32) - self.counter;
        assert!(left > 0, "KDF output limit of (2^32 - 1) blocks reached");
        let produced = match self.backend {
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 if want >= AVX512_MIN_BLOCKS && left >= 16 => {
                match crate::x86::Avx512Token::get() {
                    Some(t) => self.refill_lanes::<16>(|s, b| t.compress_x16(s, b)),
                    None => self.refill_one(),
                }
            }
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 | Backend::Avx2 if want >= AVX2_MIN_BLOCKS && left >= 8 => {
                match crate::x86::Avx2Token::get() {
                    Some(t) => self.refill_lanes::<8>(|s, b| t.compress_x8(s, b)),
                    None => self.refill_one(),
                }
            }
            Backend::Portable => self.refill_portable(),
            _ => self.refill_one(),
        };
        self.counter += produced as u64;
        self.buf_pos = 0;
        self.buf_len = produced * DIGEST_LEN;
    }

    /// One block on the single-stream path.
    fn refill_one(&mut self) -> usize {
        self.refill_scalar(compress)
    }

    /// One block on the portable path.
    fn refill_portable(&mut self) -> usize {
        self.refill_scalar(crate::compress::compress_portable)
    }

    fn refill_scalar(&mut self, cf: fn(&mut [u32; 8], &[[u8; 64]])) -> usize {
        let mut blocks = [[0u8; 64]; 2];
        let n = self.counter_blocks(self.counter as u32, &mut blocks);
        let mut state = self.mid;
        cf(&mut state, &blocks[..n]);
        for (chunk, word) in self.buf.chunks_exact_mut(4).zip(&state) {
            chunk.copy_from_slice(&word.to_be_bytes());
        }
        blocks.zeroize();
        state.zeroize();
        1
    }

    /// `N` consecutive counters at once, one per SIMD lane, all starting from the midstate.
    #[cfg(target_arch = "x86_64")]
    fn refill_lanes<const N: usize>(
        &mut self,
        mut compress_lanes: impl FnMut(&mut [[u32; N]; 8], &[&[u8; 64]; N]),
    ) -> usize {
        let mut tails = [[[0u8; 64]; 2]; N];
        let mut n = 0;
        for (i, tail) in tails.iter_mut().enumerate() {
            n = self.counter_blocks((self.counter + i as u64) as u32, tail);
        }
        let mut state: [[u32; N]; 8] = core::array::from_fn(|k| [self.mid[k]; N]);
        for b in 0..n {
            let blocks: [&[u8; 64]; N] = core::array::from_fn(|i| &tails[i][b]);
            compress_lanes(&mut state, &blocks);
        }
        for (i, out) in self.buf.chunks_exact_mut(DIGEST_LEN).take(N).enumerate() {
            for (chunk, row) in out.chunks_exact_mut(4).zip(&state) {
                chunk.copy_from_slice(&row[i].to_be_bytes());
            }
        }
        tails.zeroize();
        state.zeroize();
        N
    }
}

/// Output blocks still wanted from which a 16-lane AVX-512 batch beats single blocks.
#[cfg(target_arch = "x86_64")]
const AVX512_MIN_BLOCKS: usize = 3;
/// Output blocks still wanted from which an 8-lane AVX2 batch beats single blocks.
#[cfg(target_arch = "x86_64")]
const AVX2_MIN_BLOCKS: usize = 3;

impl Drop for Kdf {
    fn drop(&mut self) {
        self.mid.zeroize();
        self.z_tail.zeroize();
        self.z_tail_len.zeroize();
        self.z_len.zeroize();
        self.buf.zeroize();
        self.buf_pos.zeroize();
        self.buf_len.zeroize();
    }
}

impl ZeroizeOnDrop for Kdf {}

impl core::fmt::Debug for Kdf {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Kdf { .. }")
    }
}
