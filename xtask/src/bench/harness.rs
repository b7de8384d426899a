//! Interleaved timing of variants of the same operation, agreement checks and result tables.
//!
//! This file has no dependencies beyond `std` (`with_backend!` names `sm_field` only where it is
//! expanded): `cargo xtask bench --against` compiles it a second time into a generated binary
//! that links two revisions of the workspace.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// Runs `$body` with the type alias `$B` set to the backend named `$name`, one of
/// `check::BACKEND_NAMES` (validated where the names are parsed; panics on another): the one
/// name-to-type table of `check` and of every benchmark group. The `sm_field::…` paths resolve
/// where the macro is used, so under `bench --against` each revision's copy of the group code
/// names its own `sm_field`.
macro_rules! with_backend {
    ($name:expr, $B:ident => $body:expr) => {
        match $name {
            "u64" => {
                type $B = sm_field::U64;
                $body
            }
            "u32" => {
                type $B = sm_field::U32;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            "mulx" => {
                type $B = sm_field::Mulx;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            "mulx-ifma" => {
                type $B = sm_field::MulxIfma;
                $body
            }
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            "asm" => {
                type $B = sm_field::Asm;
                $body
            }
            other => panic!("backend {other} is not in BACKEND_NAMES"),
        }
    };
}
pub(crate) use with_backend;

/// One timed variant of one operation.
pub struct Case {
    /// Group (`field`, `sm3`, …).
    pub group: &'static str,
    /// Operation label, e.g. `sm9-p mul`.
    pub op: String,
    /// Variant: a backend name, a revision or a peer.
    pub variant: String,
    /// Output of a fixed computation, compared across variants of the same operation.
    pub output: Vec<u8>,
    /// Bytes processed per operation (0: not a throughput operation).
    pub bytes: u64,
    /// Operations per call of the operation: `run(n)` does `n·per_run` operations, and the
    /// times are reported per operation (a batch of 8 signatures with `per_run = 8` reports the
    /// time per signature).
    pub per_run: u64,
    /// Runs the operation `n` times.
    pub run: Box<dyn FnMut(u64)>,
}

impl Case {
    /// A case of `group` that processes `bytes` per operation (0: not a throughput operation),
    /// one operation per run.
    pub fn new(
        group: &'static str,
        op: &str,
        variant: &str,
        bytes: u64,
        output: Vec<u8>,
        run: Box<dyn FnMut(u64)>,
    ) -> Self {
        Case {
            group,
            op: op.to_string(),
            variant: variant.to_string(),
            output,
            bytes,
            per_run: 1,
            run,
        }
    }
}

/// Timing result for one variant.
pub struct Row {
    /// Group.
    pub group: &'static str,
    /// Operation label.
    pub op: String,
    /// Variant label.
    pub variant: String,
    /// Fastest batch, ns per operation.
    pub min: f64,
    /// Median batch, ns per operation.
    pub median: f64,
    /// Interquartile range relative to the median (the noise estimate).
    pub spread: f64,
    /// Median of the first variant of this operation divided by this median (> 1: faster).
    pub ratio: f64,
    /// Bytes per operation (0: none).
    pub bytes: u64,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs every operation's variants interleaved, after checking that they agree.
pub fn run_group(cases: Vec<Case>, quick: bool) -> Result<Vec<Row>, String> {
    let mut ops: Vec<String> = Vec::new();
    for c in &cases {
        if !ops.contains(&c.op) {
            ops.push(c.op.clone());
        }
    }
    let mut cases: Vec<Option<Case>> = cases.into_iter().map(Some).collect();
    let mut rows = Vec::new();
    let progress = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let (batch_target, rounds) = if quick {
        (Duration::from_micros(300), 11)
    } else {
        (Duration::from_millis(2), 41)
    };
    for (k, op) in ops.iter().enumerate() {
        let mut group: Vec<Case> = cases
            .iter_mut()
            .filter(|c| c.as_ref().is_some_and(|c| &c.op == op))
            .map(|c| c.take().expect("present"))
            .collect();
        let reference = group[0].output.clone();
        for c in &group[1..] {
            if c.output != reference {
                return Err(format!(
                    "{op}: variant {} disagrees with {}:\n  {}\n  {}",
                    c.variant,
                    group[0].variant,
                    hex(&c.output),
                    hex(&reference)
                ));
            }
        }
        // Calibrate: iterations per batch so that one batch takes about `batch_target`.
        let iters: Vec<u64> = group
            .iter_mut()
            .map(|c| {
                let mut n = 1u64;
                loop {
                    let t = Instant::now();
                    (c.run)(n);
                    let e = t.elapsed();
                    if e >= batch_target / 2 || n >= 1 << 30 {
                        let per = e.as_secs_f64() / n as f64;
                        return ((batch_target.as_secs_f64() / per).ceil() as u64).max(1);
                    }
                    n *= 2;
                }
            })
            .collect();
        // Warm-up round, then interleaved rounds: A B C A B C …
        for (i, c) in group.iter_mut().enumerate() {
            (c.run)(iters[i]);
        }
        let mut samples: Vec<Vec<f64>> = vec![Vec::new(); group.len()];
        for _ in 0..rounds {
            for (i, c) in group.iter_mut().enumerate() {
                let t = Instant::now();
                (c.run)(iters[i]);
                samples[i]
                    .push(t.elapsed().as_secs_f64() * 1e9 / (iters[i] * c.per_run.max(1)) as f64);
            }
        }
        let mut base = 0.0;
        for (i, c) in group.iter().enumerate() {
            let s = &mut samples[i];
            s.sort_by(f64::total_cmp);
            let n = s.len();
            let (min, median) = (s[0], s[n / 2]);
            if i == 0 {
                base = median;
            }
            rows.push(Row {
                group: c.group,
                op: op.clone(),
                variant: c.variant.clone(),
                min,
                median,
                spread: (s[3 * n / 4] - s[n / 4]) / median,
                ratio: base / median,
                bytes: c.bytes,
            });
        }
        if progress {
            eprint!("\r  [{}] {}/{} {op:<40}", group[0].group, k + 1, ops.len());
        }
    }
    if progress {
        eprintln!();
    }
    Ok(rows)
}

/// Formats nanoseconds with a readable unit.
pub fn fmt_ns(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{:.2} ms", ns / 1e6)
    }
}

/// Operations per second, or throughput for byte-oriented operations.
fn rate(r: &Row) -> String {
    if r.bytes > 0 {
        format!("{:.0} MB/s", r.bytes as f64 * 1e3 / r.median)
    } else {
        format!("{:.0}", 1e9 / r.median)
    }
}

/// Prints the table to stdout.
pub fn print_table(rows: &[Row]) {
    println!();
    println!(
        "{:<8} {:<34} {:<16} {:>11} {:>11} {:>13} {:>7}",
        "group", "operation", "variant", "min", "median", "ops/s", "ratio"
    );
    for r in rows {
        println!(
            "{:<8} {:<34} {:<16} {:>11} {:>11} {:>13} {:>6.2}x",
            r.group,
            r.op,
            r.variant,
            fmt_ns(r.min),
            fmt_ns(r.median),
            rate(r),
            r.ratio
        );
    }
    println!("(ratio: median of the operation's first variant / this median; > 1 is faster)");
}

/// The table as Markdown.
pub fn markdown(rows: &[Row]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| group | operation | variant | min | median | ops/s or MB/s | ratio |"
    );
    let _ = writeln!(s, "|---|---|---|---:|---:|---:|---:|");
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {:.2}× |",
            r.group,
            r.op,
            r.variant,
            fmt_ns(r.min),
            fmt_ns(r.median),
            rate(r),
            r.ratio
        );
    }
    s
}

/// For a two-variant comparison (baseline first), a plain-language verdict per operation: the
/// difference counts only if it exceeds twice the larger interquartile spread of the two.
#[allow(dead_code)] // used by the binary that `--against` generates
pub fn verdicts(rows: &[Row]) -> Vec<String> {
    let mut out = Vec::new();
    for pair in rows.chunks(2) {
        let [base, new] = pair else { continue };
        let noise = 2.0 * base.spread.max(new.spread).max(0.005);
        let change = base.median / new.median - 1.0;
        let verdict = if change > noise {
            "faster"
        } else if change < -noise {
            "slower"
        } else {
            "within noise"
        };
        out.push(format!(
            "{:<34} {} vs {}: {:+.1}% ({verdict}; noise ±{:.1}%)",
            new.op,
            new.variant,
            base.variant,
            100.0 * change,
            100.0 * noise
        ));
    }
    out
}
