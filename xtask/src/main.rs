//! Workspace automation.
//!
//! ```text
//! cargo xtask test                 # prepare interop peers, then run the whole test suite
//! cargo xtask check [--quick]      # num-bigint reference + cross-backend equivalence
//! cargo xtask ct [--quick] [--dudect]  # constant-time checks: valgrind/memcheck, dudect t-test
//! cargo xtask cross-aarch64        # aarch64 build + sm-field tests + check under QEMU
//! cargo xtask cross-thumbv6m       # no_std build of the library crates for thumbv6m-none-eabi
//! cargo xtask py [build|test|bench] # the `smcrypto` Python wheel (sm-python/)
//! cargo xtask wasm [build|test|bench|pack] # the WebAssembly/npm package (sm-wasm/)
//! cargo xtask bench [OPTIONS] [GROUP...]
//!     --backends u32,u64,asm       # A/B the limb backends in one process (default: all)
//!     --quick                      # short run (well under a minute)
//!     --markdown FILE              # also write the table as Markdown
//! cargo xtask ledger [--quick] [--markdown docs/LEDGER.md]  # pairing-optimization ledger
//! ```

mod bench;
mod check;
mod cross;
mod ct;
mod ledger;
mod py;
mod sysinfo;
mod test_cmd;
mod wasm;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The workspace root (xtask's parent directory).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// Runs `cmd`; a failure names the command and its exit status.
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

/// Runs `scripts/NAME` with bash in the workspace root, with `env` added. The scripts choose
/// their own cargo and rustc (Debian's rustc-web, or rustup's targets): this cargo's choices
/// are not passed on.
fn run_script(name: &str, args: &[String], env: &[(&str, &OsStr)]) -> Result<(), String> {
    let root = workspace_root();
    let mut cmd = Command::new("bash");
    cmd.arg(root.join("scripts").join(name))
        .args(args)
        .current_dir(&root)
        .envs(env.iter().copied());
    for var in ["CARGO_TARGET_DIR", "RUSTUP_TOOLCHAIN", "RUSTC", "RUSTFLAGS"] {
        cmd.env_remove(var);
    }
    run_cmd(&mut cmd)
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: cargo xtask <test | check [--quick] [--seed N] | ct [--quick] [--dudect] | bench [--quick] [--backends LIST] [--markdown FILE] [GROUP...] | ledger [--quick] [--markdown FILE] | cross-aarch64 [setup|test|check|clippy|cargo ARGS] | cross-thumbv6m [setup|build|env] | py [build|test|bench] | wasm [build|test|bench|pack]>"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((cmd, rest)) = args.split_first() else {
        return usage();
    };
    let result = match cmd.as_str() {
        "check" => check::run(rest),
        "ct" => ct::run(rest),
        "bench" => bench::run(rest),
        "ledger" => ledger::run(rest),
        "test" => test_cmd::run(rest),
        "cross-aarch64" => cross::run(rest),
        "cross-thumbv6m" => cross::thumbv6m(rest),
        "py" => py::cmd(rest),
        "wasm" => wasm::run(rest),
        _ => return usage(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("xtask {cmd}: {msg}");
            ExitCode::FAILURE
        }
    }
}
