//! dudect-style timing test (Reparaz, Balasch, Verbauwhede, "Dude, is my code constant time?",
//! DATE 2017): measurements of one operation with a *fixed* secret and with *random* secrets,
//! interleaved in random order, compared with Welch's t-test. |t| above 4.5 rejects "the two
//! timing distributions are equal" with overwhelming confidence, i.e. flags a leak.
//!
//! As in dudect, besides the raw data the test runs on crops of the data (measurements below
//! the p-th percentile of a warm-up sample, for several p) because timing leaks often sit in
//! the body of the distribution and are hidden by the heavy right tail of interrupts; the
//! reported statistic is the largest |t| over all crops (and the raw data).
//!
//! Both classes use pools of separately prepared instances (the fixed class: the same secret
//! prepared [`POOL`] times) so that memory placement and cache warmth do not differ by class.

use std::hint::black_box;
use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use sm_catalogue::{Class, Op, Prepared, Secret};

/// Prepared instances per class.
const POOL: usize = 32;
/// Measurements between refreshes of the random-class pool.
const REFRESH: u64 = 8192;
/// Crop percentiles (besides the raw data).
const CROPS: [f64; 6] = [0.5, 0.7, 0.8, 0.9, 0.95, 0.99];

/// Welch accumulator (online mean and variance per class, Welford's update).
#[derive(Clone, Copy, Default)]
struct Welch {
    n: [f64; 2],
    mean: [f64; 2],
    m2: [f64; 2],
}

impl Welch {
    fn push(&mut self, class: usize, x: f64) {
        self.n[class] += 1.0;
        let d = x - self.mean[class];
        self.mean[class] += d / self.n[class];
        self.m2[class] += d * (x - self.mean[class]);
    }

    fn t(&self) -> f64 {
        if self.n[0] < 2.0 || self.n[1] < 2.0 {
            return 0.0;
        }
        let v0 = self.m2[0] / (self.n[0] - 1.0);
        let v1 = self.m2[1] / (self.n[1] - 1.0);
        let den = (v0 / self.n[0] + v1 / self.n[1]).sqrt();
        if den == 0.0 {
            return 0.0;
        }
        (self.mean[0] - self.mean[1]) / den
    }
}

/// The outcome for one operation.
pub struct Outcome {
    /// Measurements taken (both classes).
    pub measurements: u64,
    /// Mean time of the fixed and the random class, in ns.
    pub mean_ns: [f64; 2],
    /// |t| on all data.
    pub t_raw: f64,
    /// Largest |t| over the raw data and every crop.
    pub t_max: f64,
}

fn pool(op: &Op, class: Class, rng: &mut ChaCha8Rng) -> Vec<Prepared> {
    (0..POOL)
        .map(|_| (op.setup)(&Secret::new(class, rng)))
        .collect()
}

fn time(p: &mut Prepared) -> f64 {
    let start = Instant::now();
    let out = (p.run)();
    let ns = start.elapsed().as_nanos() as f64;
    black_box(out);
    ns
}

/// Runs `measurements` timings of `op` (half per class on average). With `null`, the second
/// class is the fixed secret too (an A/A control: any |t| ≥ 4.5 then comes from the harness or
/// the machine, not from the code).
pub fn run(op: &Op, measurements: u64, seed: u64, null: bool) -> Outcome {
    let second = if null { Class::Fixed } else { Class::Random };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pools = [pool(op, Class::Fixed, &mut rng), pool(op, second, &mut rng)];
    // Warm-up: sets the crop thresholds (percentiles of both classes together).
    let warm = (measurements / 100).clamp(200, 10_000);
    let mut sample: Vec<f64> = (0..warm)
        .map(|_| {
            let c = (rng.next_u32() & 1) as usize;
            let i = rng.next_u32() as usize % POOL;
            time(&mut pools[c][i])
        })
        .collect();
    sample.sort_by(|a, b| a.total_cmp(b));
    let thresholds: Vec<f64> = CROPS
        .iter()
        .map(|p| sample[((sample.len() as f64 - 1.0) * p) as usize])
        .collect();
    let mut raw = Welch::default();
    let mut cropped = vec![Welch::default(); thresholds.len()];
    for m in 0..measurements {
        if m > 0 && m % REFRESH == 0 {
            // Both classes get fresh allocations, so memory placement cannot differ by class
            // (refreshing only the random pool showed up as crop-only |t| of 5-14 in 10^6 runs).
            pools[0] = pool(op, Class::Fixed, &mut rng);
            pools[1] = pool(op, second, &mut rng);
        }
        let c = (rng.next_u32() & 1) as usize;
        let i = rng.next_u32() as usize % POOL;
        let x = time(&mut pools[c][i]);
        raw.push(c, x);
        for (w, &th) in cropped.iter_mut().zip(&thresholds) {
            if x <= th {
                w.push(c, x);
            }
        }
    }
    let t_max = cropped
        .iter()
        .map(|w| w.t().abs())
        .fold(raw.t().abs(), f64::max);
    Outcome {
        measurements,
        mean_ns: raw.mean,
        t_raw: raw.t().abs(),
        t_max,
    }
}

#[cfg(test)]
mod tests {
    use super::Welch;

    #[test]
    fn welch_detects_a_shift_and_not_equal_data() {
        let mut same = Welch::default();
        let mut shifted = Welch::default();
        for i in 0..10_000u32 {
            let x = f64::from((i / 2) % 100);
            same.push((i & 1) as usize, x);
            shifted.push((i & 1) as usize, x + if i & 1 == 1 { 5.0 } else { 0.0 });
        }
        assert!(same.t().abs() < 1.0, "{}", same.t());
        // Shift 5, σ ≈ 29, 5,000 per class: t ≈ 5 / (29·√(2/5000)) ≈ 8.6.
        assert!(shifted.t().abs() > 8.0, "{}", shifted.t());
    }
}
