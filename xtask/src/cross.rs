//! `cargo xtask cross-aarch64 [setup | test | check | clippy | cargo ARGS | env]`: runs
//! `scripts/cross-aarch64.sh`, which builds the workspace for aarch64 with Debian's `rustc-web`
//! and aarch64 standard library and runs the sm-field tests and `xtask check` under QEMU.
//!
//! `cargo xtask cross-thumbv6m [setup | build | env]`: runs `scripts/cross-thumbv6m.sh`, the
//! no_std build of the library crates for `thumbv6m-none-eabi` (no atomic compare-and-swap) with
//! the same Debian toolchain and `-Zbuild-std=core,alloc`.

pub fn run(args: &[String]) -> Result<(), String> {
    crate::run_script("cross-aarch64.sh", args, &[])
}

pub fn thumbv6m(args: &[String]) -> Result<(), String> {
    crate::run_script("cross-thumbv6m.sh", args, &[])
}
