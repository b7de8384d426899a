//! `cargo xtask test`: prepares what interop tests need, then runs the whole test suite.
//!
//! Interop peers from PyPI (`gmalg`, `gmssl-pyx`) go into a virtual environment under
//! `target/peers-venv`; tests find its interpreter through `SM_PEERS_PYTHON`. OpenSSL's CLI is on
//! every machine. A failed peer install is an error: tests must not silently skip their peers.
//! After the Rust tests, the `smcrypto` wheel is built and its pytest suite run (`xtask py`).

use std::process::Command;

/// `SM_EXPECT_MULX`, `SM_EXPECT_IFMA`, `SM_EXPECT_AVX512` and `SM_EXPECT_GFNI` ("1" or "0") from
/// the flags of /proc/cpuinfo, unless already set: the SIMD tests fail when a kernel expected here
/// did not run.
fn kernel_expectations() -> Vec<(&'static str, &'static str)> {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let flags: Vec<&str> = cpuinfo
        .lines()
        .find(|l| l.starts_with("flags"))
        .map(|l| l.split_whitespace().collect())
        .unwrap_or_default();
    let has = |f: &str| flags.contains(&f);
    let all = [
        ("SM_EXPECT_MULX", has("bmi2") && has("adx")),
        ("SM_EXPECT_IFMA", has("avx512f") && has("avx512ifma")),
        ("SM_EXPECT_AVX512", has("avx512f")),
        ("SM_EXPECT_GFNI", has("gfni")),
    ];
    let set: Vec<_> = all
        .into_iter()
        .filter(|(k, _)| std::env::var_os(k).is_none())
        .map(|(k, v)| (k, if v { "1" } else { "0" }))
        .collect();
    println!("xtask test: kernel expectations {set:?}");
    set
}

/// The crates whose tests run one suite per limb backend, with the feature that compiles them all.
const ALL_BACKENDS_FEATURES: &str =
    "sm-field/all-backends,sm-curve/all-backends,sm-pairing/all-backends,shangmi-sm2/all-backends,\
     shangmi-sm9/all-backends";

/// Optional library features whose tests compile only with them, switched on in the same
/// workspace run (one feature set, so the stack compiles once): `serde` (`sm2/tests/serde.rs`,
/// `sm9/tests/serde.rs`), the `op-count` suites (`sm2/tests/op_count.rs`,
/// `sm-pairing/tests/op_count.rs`; one asserts equal operation counts for different secrets) and
/// sm-pairing's `research` suites (step diagnostics against the num-bigint textbook loop, the
/// optimization ledger's variants against the production pairing).
const OPTIONAL_FEATURES: &str = "shangmi-sm2/serde,shangmi-sm9/serde,shangmi-sm2/op-count,\
     sm-pairing/op-count,sm-pairing/research";

pub fn run(args: &[String]) -> Result<(), String> {
    let mut phases = Phases::start();
    println!(
        "xtask test: Python peers in {}",
        sm_testvectors::peers::venv_dir().display()
    );
    let python = sm_testvectors::peers::ensure_venv()?;
    phases.done("Python peers (venv)");
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(crate::workspace_root())
        .env("SM_PEERS_PYTHON", &python)
        .envs(kernel_expectations())
        // Every limb backend's suite, asked for by name (not left to feature unification with
        // xtask's own dependencies); the suites fail if one was not compiled.
        .env("SM_EXPECT_ALL_BACKENDS", "1")
        // The test profile is opt-level 3 with debug assertions and overflow checks kept on, so
        // heavy property tests run fast and arithmetic overflow still fails loudly.
        .args(["test", "--workspace", "--features"])
        .arg(format!("{ALL_BACKENDS_FEATURES},{OPTIONAL_FEATURES}"))
        .args(args);
    crate::run_cmd(&mut cmd)?;
    phases.done("cargo test --workspace");
    interop_rustcrypto_generic()?;
    phases.done("interop/rustcrypto-generic");
    // The Python wheel: built with maturin, tested with pytest in the same venv.
    crate::py::test()?;
    phases.done("Python wheel");
    // The WebAssembly/npm package: wasm32 build, Node tests, interop with npm SM2 libraries,
    // npm pack + install, headless Chromium (everything cached under target/wasm).
    crate::wasm::run(&["test".to_string()])?;
    phases.done("WebAssembly package");
    phases.print();
    Ok(())
}

/// Wall time of each phase, printed at the end (CI's time budget is tracked from these).
struct Phases {
    last: std::time::Instant,
    times: Vec<(&'static str, u64)>,
}

impl Phases {
    fn start() -> Self {
        Self {
            last: std::time::Instant::now(),
            times: Vec::new(),
        }
    }

    fn done(&mut self, name: &'static str) {
        let now = std::time::Instant::now();
        self.times
            .push((name, now.duration_since(self.last).as_secs()));
        self.last = now;
    }

    fn print(&self) {
        println!("xtask test: phase times");
        for (name, s) in &self.times {
            println!("  {s:>5} s  {name}");
        }
    }
}

/// The crate outside the workspace (its own lock file and target directory, as a user's crate
/// would be): our SM2 types through the same generic RustCrypto code as `p256`/`ecdsa`, and an
/// SM2 certificate built with `x509-cert` and checked by the `openssl` CLI.
fn interop_rustcrypto_generic() -> Result<(), String> {
    crate::run_cmd(
        Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .current_dir(crate::workspace_root().join("interop/rustcrypto-generic"))
            .args(["test", "--locked"]),
    )
}
