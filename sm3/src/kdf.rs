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
/// shangmi_sm3::kdf(b"shared secret Z", &mut key);
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
/// use shangmi_sm3::Kdf;
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
/// shangmi_sm3::kdf(&z, &mut all);
/// assert_eq!(&all[..10], &first);
/// assert_eq!(&all[10..], &rest);
/// ```
pub struct Kdf {
    /// Chaining value after the full 64-byte blocks of Z.
    mid: [u32; 8],
    /// The last one or two blocks: rest of Z ‖ counter ‖ padding (§5.2). The counter bytes at
    /// `off..off + 4` are rewritten for each output block.
    template: [[u8; 64]; 2],
    /// Number of template blocks (1, or 2 when |Z| mod 64 ≥ 52).
    nblocks: usize,
    /// Offset of the counter in the flattened template (|Z| mod 64).
    off: usize,
    /// Next counter value; at most 2³² (then the output is exhausted).
    counter: u64,
    /// Output blocks produced but not yet read.
    buf: [u8; DIGEST_LEN * MAX_LANES],
    buf_pos: usize,
    buf_len: usize,
    /// Largest `buf_len` so far: the prefix of `buf` that has held output.
    buf_dirty: usize,
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
        let (mid, rest, absorbed) = h.split_state();
        let off = rest.len();
        // Hash input after the midstate: rest of Z ‖ ct (4 bytes), total |Z| + 4 bytes.
        let total = absorbed + off as u64 + 4;
        let mut template = [[0u8; 64]; 2];
        let nblocks = if off + 4 < 64 {
            let mut tail = [0u8; 63];
            tail[..off].copy_from_slice(rest);
            let n = pad(&tail[..off + 4], total, &mut template);
            tail.zeroize();
            n
        } else {
            // The counter reaches into (or starts) a second block: pad its 0..=3 spilled bytes.
            let mut last = [[0u8; 64]; 2];
            pad(&[0u8; 3][..off + 4 - 64], total, &mut last);
            template[1] = last[0];
            template[0][..off].copy_from_slice(rest);
            2
        };
        Self {
            mid,
            template,
            nblocks,
            off,
            counter: 1,
            buf: [0; DIGEST_LEN * MAX_LANES],
            buf_pos: 0,
            buf_len: 0,
            buf_dirty: 0,
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

    /// Writes counter `ct` (big-endian) into the template.
    fn set_counter(&mut self, ct: u32) {
        self.template.as_flattened_mut()[self.off..self.off + 4].copy_from_slice(&ct.to_be_bytes());
    }

    /// Produces at least one new output block into `buf`; `want` is how many the caller still
    /// needs, which decides whether a SIMD batch pays off.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    fn refill(&mut self, want: usize) {
        let left = (1u64 << 32) - self.counter;
        assert!(left > 0, "KDF output limit of (2^32 - 1) blocks reached");
        let produced = match self.backend {
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 if want >= AVX512_MIN_BLOCKS && left >= 16 => {
                match crate::x86::Avx512Token::get() {
                    Some(t) => {
                        self.refill_lanes::<16>(|m, tp, n, o, c, s| t.kdf_x16(m, tp, n, o, c, s))
                    }
                    None => self.refill_one(compress),
                }
            }
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 | Backend::Avx2 if want >= AVX2_MIN_BLOCKS && left >= 8 => {
                match crate::x86::Avx2Token::get() {
                    Some(t) => {
                        self.refill_lanes::<8>(|m, tp, n, o, c, s| t.kdf_x8(m, tp, n, o, c, s))
                    }
                    None => self.refill_one(compress),
                }
            }
            Backend::Portable => self.refill_one(crate::compress::compress_portable),
            _ => self.refill_one(compress),
        };
        self.counter += produced as u64;
        self.buf_pos = 0;
        self.buf_len = produced * DIGEST_LEN;
        self.buf_dirty = self.buf_dirty.max(self.buf_len);
    }

    /// One block with the single-stream compression function `cf`.
    fn refill_one(&mut self, cf: fn(&mut [u32; 8], &[[u8; 64]])) -> usize {
        self.set_counter(self.counter as u32);
        let mut state = self.mid;
        cf(&mut state, &self.template[..self.nblocks]);
        for (chunk, word) in self.buf.chunks_exact_mut(4).zip(&state) {
            chunk.copy_from_slice(&word.to_be_bytes());
        }
        state.zeroize();
        1
    }

    /// `N` consecutive counters at once, one per SIMD lane, all starting from the midstate.
    #[cfg(target_arch = "x86_64")]
    fn refill_lanes<const N: usize>(
        &mut self,
        kdf_lanes: impl FnOnce(&[u32; 8], &[[u32; 16]; 2], usize, usize, u32, &mut [[u32; N]; 8]),
    ) -> usize {
        // Template as big-endian words with the counter bytes zero; lanes OR in their counter.
        self.set_counter(0);
        let mut words = [[0u32; 16]; 2];
        for (wb, tb) in words.iter_mut().zip(&self.template) {
            for (w, bytes) in wb.iter_mut().zip(tb.as_chunks::<4>().0) {
                *w = u32::from_be_bytes(*bytes);
            }
        }
        let mut state = [[0u32; N]; 8];
        kdf_lanes(
            &self.mid,
            &words,
            self.nblocks,
            self.off,
            self.counter as u32,
            &mut state,
        );
        for (i, out) in self.buf.chunks_exact_mut(DIGEST_LEN).take(N).enumerate() {
            for (chunk, row) in out.chunks_exact_mut(4).zip(&state) {
                chunk.copy_from_slice(&row[i].to_be_bytes());
            }
        }
        words.zeroize();
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
        self.template.zeroize();
        self.buf[..self.buf_dirty].zeroize();
    }
}

impl ZeroizeOnDrop for Kdf {}

impl core::fmt::Debug for Kdf {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Kdf { .. }")
    }
}
