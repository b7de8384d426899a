//! An adapter from the fallible RNGs of the `signature` 3 traits to the infallible
//! [`CryptoRng`] the arithmetic draws from.

use core::convert::Infallible;

use rand_core::{TryCryptoRng, TryRng};

/// Wraps a [`TryCryptoRng`] so that code taking `&mut impl CryptoRng` can run on it, and reports
/// afterwards whether any draw failed ([`RecordingRng::failed`]).
///
/// After the first failure the wrapper stops calling the RNG and fills requests from a public
/// counter (so that rejection-sampling loops still terminate); everything computed from such
/// output is worthless and the caller must discard it and return an error. The `signature`
/// traits' `try_sign_with_rng` implementations of the SM2 and SM9 crates do exactly that.
///
/// ```
/// use rand_core::{Rng, TryRng, TryCryptoRng};
/// use sm_field::RecordingRng;
///
/// struct Broken;
/// impl TryRng for Broken {
///     type Error = core::fmt::Error;
///     fn try_next_u32(&mut self) -> Result<u32, Self::Error> { Err(core::fmt::Error) }
///     fn try_next_u64(&mut self) -> Result<u64, Self::Error> { Err(core::fmt::Error) }
///     fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Self::Error> { Err(core::fmt::Error) }
/// }
/// impl TryCryptoRng for Broken {}
///
/// let mut broken = Broken;
/// let mut rng = RecordingRng::new(&mut broken);
/// let mut buf = [0u8; 4];
/// rng.fill_bytes(&mut buf);
/// assert!(rng.failed());
/// ```
pub struct RecordingRng<'a, R: TryCryptoRng + ?Sized> {
    rng: &'a mut R,
    failed: bool,
    counter: u64,
}

impl<'a, R: TryCryptoRng + ?Sized> RecordingRng<'a, R> {
    /// Wraps `rng`.
    pub fn new(rng: &'a mut R) -> Self {
        Self {
            rng,
            failed: false,
            counter: 0,
        }
    }

    /// Whether any draw failed (then every output since is not random).
    pub fn failed(&self) -> bool {
        self.failed
    }

    fn fallback(&mut self, dst: &mut [u8]) {
        for b in dst {
            self.counter = self.counter.wrapping_add(0x9e37_79b9_7f4a_7c15);
            *b = (self.counter >> 56) as u8;
        }
    }
}

impl<R: TryCryptoRng + ?Sized> TryRng for RecordingRng<'_, R> {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        if !self.failed && self.rng.try_fill_bytes(dst).is_err() {
            self.failed = true;
        }
        if self.failed {
            self.fallback(dst);
        }
        Ok(())
    }
}

impl<R: TryCryptoRng + ?Sized> TryCryptoRng for RecordingRng<'_, R> {}
