//! `cargo xtask cross-aarch64 [setup | test | check | clippy | cargo ARGS | env]`: runs
//! `scripts/cross-aarch64.sh`, which builds the workspace for aarch64 with Debian's `rustc-web`
//! and aarch64 standard library and runs the sm-field tests and `xtask check` under QEMU.

pub fn run(args: &[String]) -> Result<(), String> {
    crate::run_script("cross-aarch64.sh", args, &[])
}
