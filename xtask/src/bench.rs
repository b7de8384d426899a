//! `cargo xtask bench`: same-process benchmarks. Variants of one operation (backends, peers) run
//! interleaved — A B C A B C … — so that machine noise hits all of them alike; each variant's
//! output is checked for agreement before it is timed.

mod field;

use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// One timed variant of one operation.
pub struct Case {
    /// Group (`field`, `sm3`, …).
    pub group: &'static str,
    /// Operation label, e.g. `sm9-p mul`.
    pub op: String,
    /// Variant: a backend name or a peer.
    pub variant: String,
    /// Output of a fixed computation, compared across variants of the same operation.
    pub output: Vec<u8>,
    /// Runs the operation `n` times.
    pub run: Box<dyn FnMut(u64)>,
}

struct Opts {
    quick: bool,
    backends: Vec<String>,
    markdown: Option<String>,
    groups: Vec<String>,
}

const GROUPS: &[&str] = &["field"];

fn parse(args: &[String]) -> Result<Opts, String> {
    let default_backend = <sm_field::DefaultBackend as sm_field::Backend>::NAME.to_string();
    let mut o = Opts { quick: false, backends: vec![default_backend], markdown: None, groups: vec![] };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--quick" => o.quick = true,
            "--backends" => {
                let list = it.next().ok_or("--backends needs a list, e.g. u32,u64,asm")?;
                o.backends = list.split(',').map(str::to_string).collect();
                for b in &o.backends {
                    if !crate::check::BACKEND_NAMES.contains(&b.as_str()) {
                        return Err(format!("unknown backend {b}"));
                    }
                }
            }
            "--markdown" => o.markdown = Some(it.next().ok_or("--markdown needs a file")?.clone()),
            g if GROUPS.contains(&g) => o.groups.push(g.to_string()),
            other => return Err(format!("unknown argument {other} (groups: {})", GROUPS.join(", "))),
        }
    }
    if o.groups.is_empty() {
        o.groups = GROUPS.iter().map(|s| s.to_string()).collect();
    }
    Ok(o)
}

pub fn run(args: &[String]) -> Result<(), String> {
    let o = parse(args)?;
    crate::sysinfo::print_header();
    println!("mode:     {}; backends: {}", if o.quick { "quick" } else { "full" }, o.backends.join(","));
    let mut rows = Vec::new();
    for g in &o.groups {
        let cases = match g.as_str() {
            "field" => field::cases(&o.backends),
            _ => unreachable!("validated group"),
        };
        eprintln!("[{g}] {} cases", cases.len());
        rows.extend(run_group(cases, o.quick)?);
    }
    print_table(&rows);
    if let Some(path) = &o.markdown {
        std::fs::write(path, markdown(&rows)).map_err(|e| format!("{path}: {e}"))?;
        println!("markdown table written to {path}");
    }
    Ok(())
}

/// Timing result for one variant.
pub struct Row {
    group: &'static str,
    op: String,
    variant: String,
    min: f64,
    median: f64,
    /// Median of the first variant of this operation divided by this median (> 1: faster).
    ratio: f64,
}

fn run_group(cases: Vec<Case>, quick: bool) -> Result<Vec<Row>, String> {
    // Keep the order in which operations first appear.
    let mut ops: Vec<String> = Vec::new();
    for c in &cases {
        if !ops.contains(&c.op) {
            ops.push(c.op.clone());
        }
    }
    let mut cases: Vec<Option<Case>> = cases.into_iter().map(Some).collect();
    let mut rows = Vec::new();
    let (batch_target, rounds) =
        if quick { (Duration::from_micros(300), 11) } else { (Duration::from_millis(2), 41) };
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
                    hex::encode(&c.output),
                    hex::encode(&reference)
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
        let mut samples: Vec<Vec<f64>> = vec![Vec::new(); group.len()];
        for _ in 0..rounds {
            for (i, c) in group.iter_mut().enumerate() {
                let t = Instant::now();
                (c.run)(iters[i]);
                samples[i].push(t.elapsed().as_secs_f64() * 1e9 / iters[i] as f64);
            }
        }
        let mut base = 0.0;
        for (i, c) in group.iter().enumerate() {
            let s = &mut samples[i];
            s.sort_by(f64::total_cmp);
            let (min, median) = (s[0], s[s.len() / 2]);
            if i == 0 {
                base = median;
            }
            rows.push(Row {
                group: c.group,
                op: op.clone(),
                variant: c.variant.clone(),
                min,
                median,
                ratio: base / median,
            });
        }
        eprint!("\r  {}/{} {op:<40}", k + 1, ops.len());
    }
    eprintln!();
    Ok(rows)
}

fn fmt_ns(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{:.2} ms", ns / 1e6)
    }
}

fn print_table(rows: &[Row]) {
    println!();
    println!(
        "{:<8} {:<32} {:<10} {:>11} {:>11} {:>13} {:>7}",
        "group", "operation", "variant", "min", "median", "ops/s", "ratio"
    );
    for r in rows {
        println!(
            "{:<8} {:<32} {:<10} {:>11} {:>11} {:>13.0} {:>6.2}x",
            r.group,
            r.op,
            r.variant,
            fmt_ns(r.min),
            fmt_ns(r.median),
            1e9 / r.median,
            r.ratio
        );
    }
    println!("(ratio: median of the first variant of the operation / this median; > 1 is faster)");
}

fn markdown(rows: &[Row]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "| group | operation | variant | min | median | ops/s | ratio |");
    let _ = writeln!(s, "|---|---|---|---:|---:|---:|---:|");
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {:.0} | {:.2}× |",
            r.group,
            r.op,
            r.variant,
            fmt_ns(r.min),
            fmt_ns(r.median),
            1e9 / r.median,
            r.ratio
        );
    }
    s
}
