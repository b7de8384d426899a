//! `cargo xtask test`: prepares what interop tests need, then runs the whole test suite.
//!
//! Interop peers from PyPI (`gmalg`, `gmssl-pyx`) go into a virtual environment under
//! `target/peers-venv`; tests find its interpreter through `SM_PEERS_PYTHON`. OpenSSL's CLI is on
//! every machine. A failed peer install is an error: tests must not silently skip their peers.

use std::path::{Path, PathBuf};
use std::process::Command;

const PY_PEERS: &[&str] = &["gmalg==1.1.2", "gmssl-pyx==2.1.0"];

fn run_cmd(cmd: &mut Command) -> Result<(), String> {
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed with {status}"))
    }
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// Creates (once) the peers' virtual environment and returns its Python.
pub fn peers_python() -> Result<PathBuf, String> {
    let venv = workspace_root().join("target").join("peers-venv");
    let python = venv.join("bin").join("python");
    let stamp = venv.join(".installed");
    let want = PY_PEERS.join(" ");
    if std::fs::read_to_string(&stamp).ok().as_deref() == Some(want.as_str()) {
        return Ok(python);
    }
    println!("xtask test: creating {} with {want}", venv.display());
    run_cmd(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
    run_cmd(
        Command::new(&python)
            .args(["-m", "pip", "install", "--quiet"])
            .args(PY_PEERS),
    )?;
    std::fs::write(&stamp, want).map_err(|e| e.to_string())?;
    Ok(python)
}

pub fn run(args: &[String]) -> Result<(), String> {
    let python = peers_python()?;
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(workspace_root())
        .env("SM_PEERS_PYTHON", &python)
        // The test profile is opt-level 3 with debug assertions and overflow checks kept on, so
        // heavy property tests run fast and arithmetic overflow still fails loudly.
        .args(["test", "--workspace"])
        .args(args);
    run_cmd(&mut cmd)
}
