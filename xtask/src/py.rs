//! `cargo xtask py [build | test | bench [ARGS]]`: the `smcrypto` Python wheel (`sm-python/`).
//!
//! * `build`: `maturin build --release` into `target/wheels/`, then installs that wheel into the
//!   project's venv (`target/peers-venv`, created with the pinned packages of
//!   [`sm_testvectors::peers::PY_PEERS`]).
//! * `test` (also run by `cargo xtask test`): build, then pytest over `sm-python/tests`
//!   (known answers, round trips, bad input, interop with the Python peers, threads, pickling,
//!   a Dask cluster, and the README's examples as doctests).
//! * `bench`: build, then `sm-python/bench.py` (one process, interleaved; `--markdown FILE`
//!   writes its table between the `py-bench` markers of FILE).

use std::path::PathBuf;
use std::process::Command;

/// Builds the wheel and installs it into the venv; returns the venv's interpreter.
pub fn build() -> Result<PathBuf, String> {
    let python = sm_testvectors::peers::ensure_venv()?;
    let root = crate::workspace_root();
    let wheels = root.join("target").join("wheels");
    // Only this build's wheel may be left to install.
    if let Ok(entries) = std::fs::read_dir(&wheels) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with("smcrypto-") {
                std::fs::remove_file(e.path()).map_err(|e| e.to_string())?;
            }
        }
    }
    crate::run_cmd(
        Command::new(&python)
            .current_dir(&root)
            .args(["-m", "maturin", "build", "--release", "--strip", "--quiet"])
            .args(["--manifest-path", "sm-python/Cargo.toml", "--out"])
            .arg(&wheels)
            .arg("--interpreter")
            .arg(&python),
    )?;
    let wheel = std::fs::read_dir(&wheels)
        .map_err(|e| format!("{}: {e}", wheels.display()))?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("smcrypto-"))
        })
        .ok_or("maturin wrote no smcrypto wheel")?;
    println!("xtask py: built {}", wheel.display());
    crate::run_cmd(
        Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--no-deps",
                "--force-reinstall",
            ])
            .arg(&wheel),
    )?;
    Ok(python)
}

/// Builds the wheel and runs its pytest suite.
pub fn test() -> Result<(), String> {
    let python = build()?;
    crate::run_cmd(
        Command::new(&python)
            .current_dir(crate::workspace_root())
            .args([
                "-m",
                "pytest",
                "-p",
                "no:cacheprovider",
                "-q",
                "sm-python/tests",
            ]),
    )
}

pub fn cmd(args: &[String]) -> Result<(), String> {
    match args.split_first().map(|(c, rest)| (c.as_str(), rest)) {
        Some(("build", [])) => build().map(drop),
        Some(("test", [])) | None => test(),
        Some(("bench", rest)) => {
            let python = build()?;
            crate::run_cmd(
                Command::new(&python)
                    .current_dir(crate::workspace_root())
                    .arg("sm-python/bench.py")
                    .args(rest),
            )
        }
        _ => Err("usage: cargo xtask py [build | test | bench [--quick] [--markdown FILE]]".into()),
    }
}
