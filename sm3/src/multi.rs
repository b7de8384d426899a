//! Multi-buffer hashing: independent messages share the SIMD lanes of one compression call.
//!
//! A small scheduler keeps every lane busy: each lane walks its message's blocks and then its one
//! or two padding blocks (§5.2, built per lane), and a lane whose message is done takes the next
//! message with a fresh IV. Messages of equal length therefore run in lock-step; mixed lengths
//! finish at different block counts. When only a few messages are left and no new ones wait,
//! the stragglers are finished on the single-stream path, which is cheaper than a mostly idle
//! vector.
//!
//! A message may come in two parts (a prefix and a body, as in SM2's e = SM3(Z_A ‖ M)): its
//! blocks are read in place from either part, and only the one block that straddles the seam
//! and the padded tail are copied into the lane.

use crate::backend_info::Backend;
use crate::compress::{compress, compress_portable};
use crate::consts::{DIGEST_LEN, IV};
use crate::hasher::{pad, state_to_bytes};
use crate::Error;

/// One message `head ‖ body` in flight in a lane, as four runs of blocks: the full blocks of
/// `head`, the block across the seam (if any), the full blocks of `body` after it, and the one
/// or two padding blocks.
#[derive(Clone, Copy)]
struct Lane<'a> {
    /// Index of the message in the caller's list (and of its digest slot).
    index: usize,
    head: &'a [[u8; 64]],
    body: &'a [[u8; 64]],
    /// The seam block (if any) followed by the padding blocks.
    staged: [[u8; 64]; 3],
    /// Number of seam blocks (0 or 1) at the start of `staged`.
    seam: usize,
    /// Number of padding blocks (1 or 2) after the seam in `staged`.
    tail: usize,
    /// The run in progress (0..4; 4 when done) and the next block within it.
    run: usize,
    next: usize,
}

impl<'a> Lane<'a> {
    /// A lane with no message.
    const IDLE: Self = Self {
        index: 0,
        head: &[],
        body: &[],
        staged: [[0; 64]; 3],
        seam: 0,
        tail: 0,
        run: 4,
        next: 0,
    };

    /// Whether the lane holds a message that is not finished.
    #[inline]
    fn is_busy(&self) -> bool {
        self.run < 4
    }

    /// Starts message `index`, `head ‖ body`, in this lane (built in place: the lane is large).
    fn start(&mut self, head: &'a [u8], body: &'a [u8], index: usize) {
        let total_len = head.len() as u64 + body.len() as u64;
        let (head_blocks, head_rest) = head.as_chunks::<64>();
        let mut short = [0u8; 64];
        let (seam, body_blocks, rest) = if head_rest.is_empty() {
            let (blocks, rest) = body.as_chunks::<64>();
            (0, blocks, rest)
        } else if let Some((fill, after)) = body.split_at_checked(64 - head_rest.len()) {
            let (start, end) = self.staged[0].split_at_mut(head_rest.len());
            start.copy_from_slice(head_rest);
            end.copy_from_slice(fill);
            let (blocks, rest) = after.as_chunks::<64>();
            (1, blocks, rest)
        } else {
            // The head's remainder and all of the body fit in less than one block.
            let len = head_rest.len() + body.len();
            short[..head_rest.len()].copy_from_slice(head_rest);
            short[head_rest.len()..len].copy_from_slice(body);
            (0, &[][..], &short[..len])
        };
        let padded: &mut [[u8; 64]; 2] = (&mut self.staged[seam..seam + 2])
            .try_into()
            .expect("two blocks after the seam");
        self.tail = pad(rest, total_len, padded);
        self.index = index;
        self.head = head_blocks;
        self.body = body_blocks;
        self.seam = seam;
        self.run = 0;
        self.next = 0;
        self.skip_empty_runs();
    }

    /// Run `k` of the message's blocks (see the type's description).
    #[inline]
    fn blocks(&self, k: usize) -> &[[u8; 64]] {
        match k {
            0 => self.head,
            1 => &self.staged[..self.seam],
            2 => self.body,
            3 => &self.staged[self.seam..self.seam + self.tail],
            _ => &[],
        }
    }

    #[inline]
    fn skip_empty_runs(&mut self) {
        while self.run < 4 && self.next == self.blocks(self.run).len() {
            self.run += 1;
            self.next = 0;
        }
    }

    /// Blocks left in the run in progress (0 when the message is done).
    #[inline]
    fn left_in_run(&self) -> usize {
        self.blocks(self.run).len() - self.next
    }

    /// The next `n` blocks, `1 ≤ n ≤ self.left_in_run()`.
    #[inline]
    fn next_blocks(&self, n: usize) -> &[[u8; 64]] {
        &self.blocks(self.run)[self.next..self.next + n]
    }

    /// Marks `n` blocks done; returns whether the message is finished.
    #[inline]
    fn advance(&mut self, n: usize) -> bool {
        self.next += n;
        self.skip_empty_runs();
        self.run == 4
    }

    /// Finishes the lane from chaining value `state` on a single-stream compression function.
    fn finish_with(
        &self,
        mut state: [u32; 8],
        compress: fn(&mut [u32; 8], &[[u8; 64]]),
    ) -> [u8; DIGEST_LEN] {
        compress(&mut state, &self.blocks(self.run)[self.next..]);
        for k in self.run + 1..4 {
            compress(&mut state, self.blocks(k));
        }
        state_to_bytes(&state)
    }
}

/// Runs message `i` = `head ‖ body` = `parts(i)`, `i < out.len()`, through an `N`-lane
/// compression function, writing `out[i] = SM3(head ‖ body)`. When at most `stragglers` lanes are
/// busy and no message waits, they finish single-stream.
///
/// `compress_lanes(state, blocks)` compresses `blocks[i]` (all of one length) into lane i of
/// `state`. Each call takes as many blocks as every busy lane has left in its current run of
/// blocks, so the kernel keeps the chaining values in registers between blocks; idle lanes then
/// repeat a busy lane's blocks (their result is never read).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn schedule<'a, const N: usize>(
    parts: impl Fn(usize) -> (&'a [u8], &'a [u8]),
    out: &mut [[u8; DIGEST_LEN]],
    stragglers: usize,
    mut compress_lanes: impl FnMut(&mut [[u32; N]; 8], &[&[[u8; 64]]; N]),
) {
    let mut lanes: [Lane<'a>; N] = [Lane::IDLE; N];
    let mut state = [[0u32; N]; 8];
    let mut waiting = 0..out.len();
    loop {
        let mut active = 0;
        for (i, lane) in lanes.iter_mut().enumerate() {
            if !lane.is_busy() {
                if let Some(index) = waiting.next() {
                    let (head, body) = parts(index);
                    lane.start(head, body, index);
                    for (row, iv) in state.iter_mut().zip(IV) {
                        row[i] = iv;
                    }
                }
            }
            active += usize::from(lane.is_busy());
        }
        let Some(first) = lanes.iter().find(|lane| lane.is_busy()) else {
            return;
        };
        if active <= stragglers && waiting.is_empty() {
            for (i, lane) in lanes.iter().enumerate() {
                if lane.is_busy() {
                    let lane_state = core::array::from_fn(|k| state[k][i]);
                    out[lane.index] = lane.finish_with(lane_state, compress);
                }
            }
            return;
        }
        let mut step = usize::MAX;
        for lane in lanes.iter().filter(|lane| lane.is_busy()) {
            step = step.min(lane.left_in_run());
        }
        let filler = first.next_blocks(step);
        let blocks: [&[[u8; 64]]; N] = core::array::from_fn(|i| {
            if lanes[i].is_busy() {
                lanes[i].next_blocks(step)
            } else {
                filler
            }
        });
        compress_lanes(&mut state, &blocks);
        for (i, lane) in lanes.iter_mut().enumerate() {
            if lane.is_busy() && lane.advance(step) {
                let words = core::array::from_fn(|k| state[k][i]);
                out[lane.index] = state_to_bytes(&words);
            }
        }
    }
}

/// Hashes many independent messages at once: `out[i] = SM3(msgs[i])`, using the widest SIMD
/// backend this CPU has (AVX-512: 16 lanes, AVX2: 8 lanes), else one message after another.
///
/// Messages may have any lengths; equal lengths run in lock-step.
///
/// # Panics
/// If `msgs.len() != out.len()`.
///
/// ```
/// let msgs: [&[u8]; 3] = [b"abc", b"", &[0x61; 1000]];
/// let mut out = [[0u8; 32]; 3];
/// shangmi_sm3::hash_many(&msgs, &mut out);
/// for (m, d) in msgs.iter().zip(&out) {
///     assert_eq!(*d, shangmi_sm3::hash(m));
/// }
/// ```
pub fn hash_many(msgs: &[&[u8]], out: &mut [[u8; DIGEST_LEN]]) {
    let done = hash_many_with(Backend::best(), msgs, out);
    debug_assert!(done.is_ok());
}

/// [`hash_many`] on a chosen backend, for tests and benchmarks that compare the paths.
///
/// [`Backend::Portable`] hashes the messages one by one with the portable compression function.
///
/// # Errors
/// [`Error::BackendUnavailable`] if this CPU (or target) lacks the backend; `out` is untouched.
///
/// # Panics
/// If `msgs.len() != out.len()`.
pub fn hash_many_with(
    backend: Backend,
    msgs: &[&[u8]],
    out: &mut [[u8; DIGEST_LEN]],
) -> Result<(), Error> {
    assert_eq!(msgs.len(), out.len(), "one digest slot per message");
    run(backend, |i| (msgs[i], &[]), out)
}

/// Hashes many two-part messages at once: `out[i] = SM3(prefix ‖ body)` for
/// `msgs[i] = (prefix, body)`, reading both parts in place (no concatenated copy), on the same
/// lanes as [`hash_many`].
///
/// Made for SM2, where every signature hashes e = SM3(Z_A ‖ M) (GB/T 32918.2 §6.1 A2) with a
/// 32-byte Z_A per signer: a batch passes `(&za, msg)` pairs. Parts may have any lengths
/// (either may be empty); the digest equals [`hash`](crate::hash) of the concatenation.
///
/// # Panics
/// If `msgs.len() != out.len()`.
///
/// ```
/// let za = [7u8; 32];
/// let msgs: [(&[u8], &[u8]); 2] = [(&za, b"message one"), (&za, b"")];
/// let mut out = [[0u8; 32]; 2];
/// shangmi_sm3::hash_many_prefixed(&msgs, &mut out);
/// for ((prefix, body), d) in msgs.iter().zip(&out) {
///     assert_eq!(*d, shangmi_sm3::hash(&[*prefix, *body].concat()));
/// }
/// ```
pub fn hash_many_prefixed(msgs: &[(&[u8], &[u8])], out: &mut [[u8; DIGEST_LEN]]) {
    let done = hash_many_prefixed_with(Backend::best(), msgs, out);
    debug_assert!(done.is_ok());
}

/// [`hash_many_prefixed`] on a chosen backend, for tests and benchmarks that compare the paths.
///
/// # Errors
/// [`Error::BackendUnavailable`] if this CPU (or target) lacks the backend; `out` is untouched.
///
/// # Panics
/// If `msgs.len() != out.len()`.
pub fn hash_many_prefixed_with(
    backend: Backend,
    msgs: &[(&[u8], &[u8])],
    out: &mut [[u8; DIGEST_LEN]],
) -> Result<(), Error> {
    assert_eq!(msgs.len(), out.len(), "one digest slot per message");
    run(backend, |i| msgs[i], out)
}

/// `out[i] = SM3(head ‖ body)` for `(head, body) = parts(i)` on `backend`.
fn run<'a>(
    backend: Backend,
    parts: impl Fn(usize) -> (&'a [u8], &'a [u8]),
    out: &mut [[u8; DIGEST_LEN]],
) -> Result<(), Error> {
    match backend {
        Backend::Portable => {
            for (i, digest) in out.iter_mut().enumerate() {
                let (head, body) = parts(i);
                let mut lane = Lane::IDLE;
                lane.start(head, body, i);
                *digest = lane.finish_with(IV, compress_portable);
            }
            Ok(())
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => {
            let token = crate::x86::Avx2Token::get().ok_or(Error::BackendUnavailable)?;
            schedule::<8>(parts, out, AVX2_STRAGGLERS, |s, b| token.compress_x8(s, b));
            Ok(())
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => {
            let token = crate::x86::Avx512Token::get().ok_or(Error::BackendUnavailable)?;
            schedule::<16>(parts, out, AVX512_STRAGGLERS, |s, b| {
                token.compress_x16(s, b)
            });
            Ok(())
        }
        #[cfg(not(target_arch = "x86_64"))]
        _ => Err(Error::BackendUnavailable),
    }
}

/// With this many busy lanes or fewer (and nothing waiting), AVX2 hands over to single-stream.
#[cfg(target_arch = "x86_64")]
const AVX2_STRAGGLERS: usize = 2;
/// With this many busy lanes or fewer (and nothing waiting), AVX-512 hands over to single-stream.
#[cfg(target_arch = "x86_64")]
const AVX512_STRAGGLERS: usize = 1;
