//! Constant-time checks over the public APIs (issue 9), driven by `cargo xtask ct`.
//!
//! ```text
//! ct-check list                       # the operations and what is secret in each
//! ct-check memcheck [--iterations N] [--only PREFIX,..]
//!                                     # run under `valgrind --tool=memcheck`: secrets undefined
//! ct-check dudect [--measurements N] [--all] [--only PREFIX,..] [--seed S] [--threshold T]
//!                 [--null]            # Welch t-test, fixed vs random secrets; |t| per operation
//!                                     # (--null: fixed vs fixed, an A/A control of the harness)
//! ct-check selftest                   # every operation once natively, outputs checked
//! ```
//!
//! The binary is built once per limb backend (features `u32`, `u64`, `asm`; the whole stack then
//! runs on that backend). The `asm` build on x86_64 runs the pure `sm_field::Mulx` backend
//! (sm-field feature `mulx`): valgrind's emulated CPUID hides ADX (although it executes it), so
//! `Auto` would probe "no BMI2/ADX" and run the portable kernels; naming `Mulx` checks the MULX/ADX
//! kernels themselves (`cargo xtask ct` builds the asm harness only on CPUs that have them). `memcheck` only marks and runs: valgrind reports, `cargo xtask ct`
//! attributes each report to the operation running at the time (the `BEGIN`/`END` client
//! messages in valgrind's XML log) and to the documented declassification points.

mod dudect;
mod ops;
mod valgrind;

use std::process::ExitCode;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use ops::{Class, Op, Secret};

fn backend_name() -> &'static str {
    let full = std::any::type_name::<sm_field::DefaultBackend>();
    match full.rsplit("::").next() {
        Some("U32") => "u32",
        Some("U64") => "u64",
        Some("Mulx" | "Auto" | "Aarch64") => "asm",
        _ => full,
    }
}

fn selected<'a>(all: &'a [Op], only: &Option<Vec<String>>, include_slow: bool) -> Vec<&'a Op> {
    all.iter()
        .filter(|op| match only {
            Some(prefixes) => prefixes.iter().any(|p| op.name.starts_with(p.as_str())),
            None => include_slow || op.dudect_default,
        })
        .collect()
}

struct Args {
    iterations: u64,
    measurements: u64,
    only: Option<Vec<String>>,
    all: bool,
    null: bool,
    seed: u64,
    threshold: f64,
}

fn parse(rest: &[String]) -> Result<Args, String> {
    let mut a = Args {
        iterations: 2,
        measurements: 10_000,
        only: None,
        all: false,
        null: false,
        seed: 1,
        threshold: 4.5,
    };
    let mut it = rest.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--iterations" => a.iterations = value()?.parse().map_err(|e| format!("{e}"))?,
            "--measurements" => a.measurements = value()?.parse().map_err(|e| format!("{e}"))?,
            "--seed" => a.seed = value()?.parse().map_err(|e| format!("{e}"))?,
            "--only" => a.only = Some(value()?.split(',').map(str::to_string).collect()),
            "--threshold" => a.threshold = value()?.parse().map_err(|e| format!("{e}"))?,
            "--all" => a.all = true,
            "--null" => a.null = true,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(a)
}

/// Runs every selected operation with classified secrets; returns the failed output checks.
fn memcheck(ops: &[&Op], iterations: u64, seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut failures = 0;
    for op in ops {
        let errors_before = valgrind::error_count();
        for _ in 0..iterations {
            let secret = Secret::new(Class::Random, &mut rng);
            valgrind::log(&format!("BEGIN {}", op.name));
            valgrind::classify(&secret);
            let mut prepared = (op.setup)(&secret);
            let out = (prepared.run)();
            // The operation's output (signature, plaintext, shared key, ...) leaves the checked
            // region here: the caller may print or compare it.
            valgrind::declassify(&out[..]);
            valgrind::log(&format!("END {}", op.name));
            valgrind::declassify(&secret);
            if let Err(e) = (prepared.check)(&secret, &out) {
                println!("FAILED output check {}: {e}", op.name);
                failures += 1;
            }
        }
        let errors = valgrind::error_count() - errors_before;
        println!("ran {} (valgrind errors: {errors})", op.name);
    }
    failures
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((cmd, rest)) = args.split_first() else {
        eprintln!("usage: ct-check <list | memcheck | dudect | selftest> [flags]");
        return ExitCode::from(2);
    };
    let a = match parse(rest) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("ct-check: {e}");
            return ExitCode::from(2);
        }
    };
    let all = ops::all();
    match cmd.as_str() {
        "list" => {
            for op in &all {
                println!("{:<36} {}", op.name, op.what);
            }
            ExitCode::SUCCESS
        }
        "memcheck" | "selftest" => {
            let on_valgrind = valgrind::running_on_valgrind();
            println!(
                "backend {} ({}), valgrind: {on_valgrind}",
                backend_name(),
                std::any::type_name::<sm_field::DefaultBackend>()
            );
            let iterations = if cmd == "selftest" { 1 } else { a.iterations };
            let failures = memcheck(&selected(&all, &a.only, true), iterations, a.seed);
            if failures == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        "dudect" => {
            println!(
                "backend {}: dudect{}, {} measurements per operation (pass: |t| < {})",
                backend_name(),
                if a.null {
                    " A/A control (fixed vs fixed)"
                } else {
                    ""
                },
                a.measurements,
                a.threshold
            );
            println!(
                "{:<36} {:>10} {:>12} {:>12} {:>8} {:>8}  verdict",
                "operation", "n", "fixed ns", "random ns", "|t| raw", "|t| max"
            );
            let mut leaks = 0;
            for op in selected(&all, &a.only, a.all) {
                let o = dudect::run(op, a.measurements, a.seed, a.null);
                let ok = o.t_max < a.threshold;
                leaks += usize::from(!ok);
                println!(
                    "{:<36} {:>10} {:>12.0} {:>12.0} {:>8.2} {:>8.2}  {}",
                    op.name,
                    o.measurements,
                    o.mean_ns[0],
                    o.mean_ns[1],
                    o.t_raw,
                    o.t_max,
                    if ok { "ok" } else { "LEAK?" }
                );
            }
            if leaks == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        _ => {
            eprintln!("ct-check: unknown command {cmd}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every operation runs natively and produces a correct output (the same code the
    /// memcheck run executes; the client requests are no-ops outside valgrind).
    #[test]
    fn every_operation_passes_its_output_check() {
        let all = ops::all();
        assert_eq!(memcheck(&selected(&all, &None, true), 1, 7), 0);
    }

    #[test]
    fn fixed_secrets_work_too() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for op in ops::all() {
            let s = Secret::new(Class::Fixed, &mut rng);
            let mut p = (op.setup)(&s);
            let out = (p.run)();
            assert_eq!((p.check)(&s, &out), Ok(()), "{}", op.name);
        }
    }

    #[test]
    fn operation_names_are_unique() {
        let all = ops::all();
        let mut names: Vec<_> = all.iter().map(|o| o.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len());
    }
}
