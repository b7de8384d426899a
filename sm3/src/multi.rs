//! Multi-buffer hashing: independent messages share the SIMD lanes of one compression call.
//!
//! A small scheduler keeps every lane busy: each lane walks its message's full blocks and then
//! its one or two padding blocks (§5.2, built per lane), and a lane whose message is done takes
//! the next message with a fresh IV. Messages of equal length therefore run in lock-step; mixed
//! lengths finish at different block counts. When only a few messages are left and no new ones
//! wait, the stragglers are finished on the single-stream path, which is cheaper than a mostly
//! idle vector.

use crate::backend_info::Backend;
use crate::compress::compress;
use crate::consts::{DIGEST_LEN, IV};
use crate::hasher::{pad, state_to_bytes};
use crate::Error;

/// One message in flight in a lane.
// Lanes and the scheduler serve the x86_64 SIMD kernels only.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[derive(Clone, Copy)]
struct Lane<'a> {
    msg: &'a [u8],
    /// Index of the message in the caller's list (and of its digest slot).
    index: usize,
    /// Number of full 64-byte blocks of the message.
    full: usize,
    /// `full` plus the one or two padding blocks.
    total: usize,
    /// Next block to compress.
    next: usize,
    tail: [[u8; 64]; 2],
}

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
impl<'a> Lane<'a> {
    fn new(msg: &'a [u8], index: usize) -> Self {
        let (blocks, rest) = msg.as_chunks::<64>();
        let mut tail = [[0u8; 64]; 2];
        let n = pad(rest, msg.len() as u64, &mut tail);
        Self {
            msg,
            index,
            full: blocks.len(),
            total: blocks.len() + n,
            next: 0,
            tail,
        }
    }

    /// The message's full blocks.
    #[inline]
    fn full_blocks(&self) -> &'a [[u8; 64]] {
        self.msg.as_chunks::<64>().0
    }

    /// The next `run` blocks (all full) when `run > 0`, else the next block alone (full or
    /// padding).
    #[inline]
    fn next_blocks(&self, run: usize) -> &[[u8; 64]] {
        if run > 0 {
            &self.full_blocks()[self.next..self.next + run]
        } else if self.next < self.full {
            core::slice::from_ref(&self.full_blocks()[self.next])
        } else {
            core::slice::from_ref(&self.tail[self.next - self.full])
        }
    }

    /// Finishes the lane on the single-stream path from chaining value `state`.
    fn finish_scalar(&self, mut state: [u32; 8]) -> [u8; DIGEST_LEN] {
        if self.next < self.full {
            compress(&mut state, &self.full_blocks()[self.next..]);
        }
        let first_tail = self.next.max(self.full) - self.full;
        compress(&mut state, &self.tail[first_tail..self.total - self.full]);
        state_to_bytes(&state)
    }
}

/// Runs `msgs` through an `N`-lane compression function, writing `out[i] = SM3(msgs[i])`.
/// When at most `stragglers` lanes are busy and no message waits, they finish single-stream.
///
/// `compress_lanes(state, blocks)` compresses `blocks[i]` (all of one length) into lane i of
/// `state`. While every busy lane has full blocks left, one call takes as many of them as the
/// shortest run allows, so the kernel keeps the chaining values in registers between blocks;
/// idle lanes then repeat a busy lane's blocks (their result is never read).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn schedule<const N: usize>(
    msgs: &[&[u8]],
    out: &mut [[u8; DIGEST_LEN]],
    stragglers: usize,
    mut compress_lanes: impl FnMut(&mut [[u32; N]; 8], &[&[[u8; 64]]; N]),
) {
    let mut lanes: [Option<Lane<'_>>; N] = [None; N];
    let mut state = [[0u32; N]; 8];
    let mut waiting = msgs.iter().enumerate();
    loop {
        let mut active = 0;
        for (i, slot) in lanes.iter_mut().enumerate() {
            if slot.is_none() {
                if let Some((index, msg)) = waiting.next() {
                    *slot = Some(Lane::new(msg, index));
                    for (row, iv) in state.iter_mut().zip(IV) {
                        row[i] = iv;
                    }
                }
            }
            active += usize::from(slot.is_some());
        }
        let Some(first) = lanes.iter().flatten().next() else {
            return;
        };
        if active <= stragglers && waiting.len() == 0 {
            for (i, lane) in lanes.iter().enumerate() {
                if let Some(lane) = lane {
                    let lane_state = core::array::from_fn(|k| state[k][i]);
                    out[lane.index] = lane.finish_scalar(lane_state);
                }
            }
            return;
        }
        // Full blocks that every busy lane still has (0: some lane is in its padding).
        let run = lanes
            .iter()
            .flatten()
            .map(|lane| lane.full.saturating_sub(lane.next))
            .min()
            .unwrap_or(0);
        let filler = first.next_blocks(run);
        let blocks: [&[[u8; 64]]; N] = core::array::from_fn(|i| match &lanes[i] {
            Some(lane) => lane.next_blocks(run),
            None => filler,
        });
        compress_lanes(&mut state, &blocks);
        let step = run.max(1);
        for (i, slot) in lanes.iter_mut().enumerate() {
            if let Some(lane) = slot {
                lane.next += step;
                if lane.next == lane.total {
                    let words = core::array::from_fn(|k| state[k][i]);
                    out[lane.index] = state_to_bytes(&words);
                    *slot = None;
                }
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
    match backend {
        Backend::Portable => {
            for (msg, digest) in msgs.iter().zip(out.iter_mut()) {
                *digest = crate::hash_portable(msg);
            }
            Ok(())
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => {
            let token = crate::x86::Avx2Token::get().ok_or(Error::BackendUnavailable)?;
            schedule::<8>(msgs, out, AVX2_STRAGGLERS, |s, b| token.compress_x8(s, b));
            Ok(())
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => {
            let token = crate::x86::Avx512Token::get().ok_or(Error::BackendUnavailable)?;
            schedule::<16>(msgs, out, AVX512_STRAGGLERS, |s, b| {
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
