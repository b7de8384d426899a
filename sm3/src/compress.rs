//! The SM3 compression function CF (GB/T 32905-2016 §5.3) and its dispatch.
//!
//! [`compress`] processes any number of consecutive 64-byte blocks, picking once per call the
//! fastest single-stream implementation this CPU supports; [`compress_portable`] is the plain-Rust
//! reference every other path is tested against.

pub(crate) mod portable;

pub(crate) use portable::compress_portable;

/// Iterates CF over `blocks` (§5.3.1: `V(i+1) = CF(V(i), B(i))`), using the fastest available path.
#[inline]
pub(crate) fn compress(state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    #[cfg(target_arch = "x86_64")]
    {
        crate::x86::compress(state, blocks)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        compress_portable(state, blocks)
    }
}
