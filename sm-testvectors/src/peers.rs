//! The Python interop peers (PyPI `gmalg`, `gmssl-pyx`, ...) and the tools of the `smcrypto`
//! wheel, shared by every test that drives them and by `cargo xtask test` / `cargo xtask py`:
//! one pinned list, one virtual environment at `target/peers-venv`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The pinned PyPI packages of the venv: the interop peers (`gmalg`, `gmssl-pyx`, and for the
/// `smcrypto` wheel's tests also `gmssl` and `snowland-smx`), and what the wheel is built and
/// tested with (`maturin`, `pytest`, `dask[distributed]`).
pub const PY_PEERS: &[&str] = &[
    "gmalg==1.1.2",
    "gmssl-pyx==2.1.0",
    "gmssl==3.2.2",
    "snowland-smx==1.1.0",
    "maturin==1.16.0",
    "pytest==9.2.0",
    "dask[distributed]==2026.8.0",
];

/// The workspace's `target/peers-venv`.
pub fn venv_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .join("target")
        .join("peers-venv")
}

/// Creates the virtual environment with [`PY_PEERS`] unless it is already there (a stamp file
/// records what was installed) and returns its interpreter.
pub fn ensure_venv() -> Result<PathBuf, String> {
    let venv = venv_dir();
    let python = venv.join("bin").join("python");
    let stamp = venv.join(".installed");
    let want = PY_PEERS.join(" ");
    if std::fs::read_to_string(&stamp).ok().as_deref() == Some(want.as_str()) {
        return Ok(python);
    }
    let run = |cmd: &mut Command| -> Result<(), String> {
        let status = cmd
            .status()
            .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("{cmd:?} failed with {status}"))
        }
    };
    run(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
    run(Command::new(&python)
        .args(["-m", "pip", "install", "--quiet"])
        .args(PY_PEERS))?;
    std::fs::write(&stamp, want).map_err(|e| e.to_string())?;
    Ok(python)
}

/// The peers' interpreter for tests: `$SM_PEERS_PYTHON` (set by `cargo xtask test`), otherwise
/// the venv, created on first use. Panics if it cannot be set up: peers are never skipped.
pub fn python() -> &'static Path {
    static PY: OnceLock<PathBuf> = OnceLock::new();
    PY.get_or_init(|| match std::env::var_os("SM_PEERS_PYTHON") {
        Some(p) => PathBuf::from(p),
        None => ensure_venv().unwrap_or_else(|e| panic!("setting up the Python peers: {e}")),
    })
}

/// Runs a Python script (`python -c`) with arguments and returns its standard output lines;
/// panics with the script's output if it fails.
pub fn run_python(script: &str, args: &[&str]) -> Vec<String> {
    let out = Command::new(python())
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .expect("run the peers' python");
    assert!(
        out.status.success(),
        "python failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf-8 output")
        .lines()
        .map(str::to_owned)
        .collect()
}
