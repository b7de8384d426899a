//! Constant-time checks over the public APIs (issue 9), driven by `cargo xtask ct`.
//!
//! ```text
//! ct-check list                       # the backends, the operations and what is secret in each
//! ct-check memcheck --backend NAME [--iterations N] [--only PREFIX,..]
//!                                     # run under `valgrind --tool=memcheck`: secrets undefined
//! ct-check dudect --backend NAME [--measurements N] [--all] [--only PREFIX,..] [--seed S]
//!                 [--threshold T] [--null]
//!                                     # Welch t-test, fixed vs random secrets; |t| per operation
//!                                     # (--null: fixed vs fixed, an A/A control of the harness;
//!                                     # a flagged operation is measured again with another seed
//!                                     # and fails only if the rerun flags it too)
//! ct-check selftest --backend NAME    # every operation once natively, outputs checked
//! ```
//!
//! The operations are the workspace's catalogue (`sm_catalogue::all::<B>`, those with a secret)
//! and this crate's two deliberate leaks (`canary`). One binary holds every backend: the
//! operation table (`ops::<B>`) is instantiated per
//! limb backend type and `--backend` picks one, `u32` ([`sm_field::U32`]), `u64`
//! ([`sm_field::U64`]) or `asm` (the target's assembly backend, see `backends()`). Every
//! operation names its backend through the generic types (`sm2::generic`, `sm9::generic`,
//! `Fp<M, B>`, `Sm2Curve<B>`, `Gt<B>`, ...), so the whole protocol stack under it runs on that
//! backend; the build's `DefaultBackend` is never used by an operation. `asm` on x86_64 is the
//! pure `sm_field::Mulx`, not `Auto`: valgrind's emulated CPUID hides ADX (although it executes
//! it), so `Auto` would probe "no BMI2/ADX" and run the portable kernels; naming `Mulx` checks
//! the MULX/ADX kernels themselves (`cargo xtask ct` runs the asm row only on CPUs that have
//! them; elsewhere it dies with SIGILL). On aarch64 `asm` is `sm_field::Aarch64`.
//!
//! `memcheck` only marks and runs: valgrind reports, `cargo xtask ct` attributes each report to
//! the operation running at the time (the `BEGIN`/`END` client messages in valgrind's XML log)
//! and to the documented declassification points.

mod canary;
mod dudect;
mod valgrind;

use std::process::ExitCode;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use sm_catalogue::marks::{classify, declassify};
use sm_catalogue::{Class, Op, Secret};

/// A limb backend the operations can run on.
struct BackendRow {
    /// Its name on the command line and in `cargo xtask ct`'s report: `u32`, `u64` or `asm`.
    name: &'static str,
    /// The backend's type.
    type_name: &'static str,
    /// Every operation, instantiated on this backend.
    ops: fn() -> Vec<Op>,
}

/// The checked operations on `B`: the canaries, then every catalogue operation with a secret.
fn ops<B: sm_field::Backend>() -> Vec<Op> {
    let mut v = canary::ops::<B>();
    v.extend(
        sm_catalogue::all::<B>()
            .into_iter()
            .filter(|op| op.secret.is_some()),
    );
    v
}

fn row<B: sm_field::Backend>(name: &'static str) -> BackendRow {
    BackendRow {
        name,
        type_name: std::any::type_name::<B>(),
        ops: ops::<B>,
    }
}

/// The backends this binary runs, in report order: the portable `U32` and `U64`, and `asm`,
/// the target's assembly backend as a pure type (`Mulx` on x86_64, `Aarch64` on aarch64).
fn backends() -> Vec<BackendRow> {
    let mut v = vec![row::<sm_field::U32>("u32"), row::<sm_field::U64>("u64")];
    #[cfg(target_arch = "x86_64")]
    v.push(row::<sm_field::Mulx>("asm"));
    #[cfg(target_arch = "aarch64")]
    v.push(row::<sm_field::Aarch64>("asm"));
    v
}

fn backend(name: &str) -> Result<BackendRow, String> {
    let mut all = backends();
    let names: Vec<_> = all.iter().map(|b| b.name).collect();
    let at = all.iter().position(|b| b.name == name).ok_or_else(|| {
        format!(
            "unknown backend {name} (this binary has {})",
            names.join(", ")
        )
    })?;
    Ok(all.swap_remove(at))
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
    backend: Option<BackendRow>,
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
        backend: None,
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
            "--backend" => a.backend = Some(backend(&value()?)?),
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
            classify(&secret);
            let mut prepared = (op.setup)(&secret);
            let out = (prepared.run)();
            // The operation's output (signature, plaintext, shared key, ...) leaves the checked
            // region here: the caller may print or compare it.
            declassify(&out[..]);
            valgrind::log(&format!("END {}", op.name));
            declassify(&secret);
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
    sm_catalogue::marks::install(valgrind::MARKER);
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
    if cmd == "list" {
        for b in backends() {
            println!("backend {:<31} {}", b.name, b.type_name);
        }
        // The same operations on every backend (`operation_tables_agree`).
        for op in ops::<sm_field::U64>() {
            println!("{:<36} {}", op.name, op.secret.unwrap_or_default());
        }
        return ExitCode::SUCCESS;
    }
    let Some(b) = a.backend else {
        let names: Vec<_> = backends().iter().map(|b| b.name).collect();
        eprintln!("ct-check: {cmd} needs --backend {}", names.join("|"));
        return ExitCode::from(2);
    };
    let all = (b.ops)();
    match cmd.as_str() {
        "memcheck" | "selftest" => {
            let on_valgrind = valgrind::running_on_valgrind();
            println!(
                "backend {} ({}), valgrind: {on_valgrind}",
                b.name, b.type_name
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
                b.name,
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
                let row = |o: &dudect::Outcome, verdict: &str| {
                    println!(
                        "{:<36} {:>10} {:>12.0} {:>12.0} {:>8.2} {:>8.2}  {verdict}",
                        op.name, o.measurements, o.mean_ns[0], o.mean_ns[1], o.t_raw, o.t_max,
                    );
                };
                let o = dudect::run(op, a.measurements, a.seed, a.null);
                if o.t_max < a.threshold {
                    row(&o, "ok");
                    continue;
                }
                // A flag is confirmed by a second, independent run (other seed, fresh pools):
                // a leak reproduces, while the placement of the 2 x 32 pooled instances can
                // shift one run's crops by chance (seen as crop-only |t| of 5-17 on shared
                // machines, in fixed-vs-random and A/A runs alike). Both runs are printed.
                row(&o, "flagged, rerun:");
                let again = dudect::run(op, a.measurements, a.seed ^ 0x5eed, a.null);
                let leak = again.t_max >= a.threshold;
                leaks += usize::from(leak);
                row(&again, if leak { "LEAK" } else { "ok (not reproduced)" });
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

    /// The backends the tests run: every backend of the binary, the assembly one where this
    /// CPU has its instructions (on x86_64 an absence must be declared, `SM_EXPECT_MULX=0`).
    fn runnable() -> Vec<BackendRow> {
        backends()
            .into_iter()
            .filter(|b| {
                #[cfg(target_arch = "x86_64")]
                if b.name == "asm" {
                    return sm_testvectors::backend_runs_here(
                        b.type_name,
                        sm_field::backend::cpu::has_mulx_adx(),
                        "SM_EXPECT_MULX",
                    );
                }
                true
            })
            .collect()
    }

    /// The memcheck loop runs every operation (the catalogue's and the canaries) natively on
    /// every backend and every output passes its check (the client requests are no-ops outside
    /// valgrind; the catalogue's own tests cover fixed secrets and the other readers).
    #[test]
    fn every_operation_passes_its_output_check() {
        for b in runnable() {
            let all = (b.ops)();
            assert_eq!(
                memcheck(&selected(&all, &None, true), 1, 7),
                0,
                "{}",
                b.name
            );
        }
    }

    /// The table is the canaries and exactly the catalogue's operations that have a secret.
    #[test]
    fn table_is_the_catalogues_secret_operations() {
        let names: Vec<_> = ops::<sm_field::U64>().iter().map(|o| o.name).collect();
        let catalogue = sm_catalogue::all::<sm_field::U64>();
        let secret: Vec<_> = catalogue
            .iter()
            .filter(|o| o.secret.is_some())
            .map(|o| o.name)
            .collect();
        assert_eq!(
            names,
            [&["canary.secret_branch", "canary.field_mul"][..], &secret].concat()
        );
        assert!(secret.len() > 60 && secret.len() < catalogue.len());
    }

    /// Every backend has the same operations in the same order (one report row per operation),
    /// and the `asm` row is the pure assembly type, never the CPU-probing `Auto`.
    #[test]
    fn operation_tables_agree() {
        let want: Vec<_> = ops::<sm_field::U64>()
            .iter()
            .map(|o| (o.name, o.secret, o.dudect_default))
            .collect();
        let rows = backends();
        let names: Vec<_> = rows.iter().map(|b| b.name).collect();
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        assert_eq!(names, ["u32", "u64", "asm"]);
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        assert_eq!(names, ["u32", "u64"]);
        for b in rows {
            let got: Vec<_> = (b.ops)()
                .iter()
                .map(|o| (o.name, o.secret, o.dudect_default))
                .collect();
            assert_eq!(got, want, "{}", b.name);
            let ty = b.type_name.rsplit("::").next();
            let expected = match b.name {
                "u32" => "U32",
                "u64" => "U64",
                _ if cfg!(target_arch = "x86_64") => "Mulx",
                _ => "Aarch64",
            };
            assert_eq!(ty, Some(expected), "{}", b.type_name);
        }
    }

    #[test]
    fn unknown_backend_is_refused() {
        assert!(backend("auto").is_err());
        assert_eq!(backend("u64").map(|b| b.name), Ok("u64"));
    }
}
