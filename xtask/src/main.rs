//! Workspace automation.
//!
//! ```text
//! cargo xtask test                 # prepare interop peers, then run the whole test suite
//! cargo xtask check [--quick]      # num-bigint reference + cross-backend equivalence
//! cargo xtask ct [--quick] [--dudect]  # constant-time checks: valgrind/memcheck, dudect t-test
//! cargo xtask cross-aarch64        # aarch64 build + sm-field tests + check under QEMU
//! cargo xtask py [build|test|bench] # the `smcrypto` Python wheel (sm-python/)
//! cargo xtask wasm [build|test|bench|pack] # the WebAssembly/npm package (sm-wasm/)
//! cargo xtask bench [OPTIONS] [GROUP...]
//!     --backends u32,u64,asm       # A/B the limb backends in one process (default: all)
//!     --quick                      # short run (well under a minute)
//!     --markdown FILE              # also write the table as Markdown
//! ```

mod bench;
mod check;
mod cross;
mod ct;
mod py;
mod sysinfo;
mod test_cmd;
mod wasm;

use std::process::ExitCode;

fn usage() -> ExitCode {
    eprintln!(
        "usage: cargo xtask <test | check [--quick] [--seed N] | ct [--quick] [--dudect] | bench [--quick] [--backends LIST] [--markdown FILE] [GROUP...] | cross-aarch64 [setup|test|check|clippy|cargo ARGS] | py [build|test|bench] | wasm [build|test|bench|pack]>"
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
        "test" => test_cmd::run(rest),
        "cross-aarch64" => cross::run(rest),
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
