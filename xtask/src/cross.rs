//! `cargo xtask cross-aarch64 [setup | test | check | clippy | cargo ARGS | env]`: runs
//! `scripts/cross-aarch64.sh`, which builds the workspace for aarch64 with Debian's `rustc-web`
//! and aarch64 standard library and runs the sm-field tests and `xtask check` under QEMU.

use std::path::Path;
use std::process::Command;

pub fn run(args: &[String]) -> Result<(), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("no workspace root")?;
    let script = root.join("scripts").join("cross-aarch64.sh");
    let status = Command::new("bash")
        .arg(&script)
        .args(args)
        .current_dir(root)
        // The script runs its own (Debian) cargo and rustc; do not leak this cargo's choices.
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTUP_TOOLCHAIN")
        .status()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{} failed with {status}", script.display()))
    }
}
