#!/usr/bin/env bash
# no_std build check of the library crates for `thumbv6m-none-eabi` (Cortex-M0: 32-bit, no atomic
# compare-and-swap, so no `alloc::sync::Arc`) on a Debian 12 (bookworm) x86_64 machine.
# `cargo xtask cross-thumbv6m [setup|build|env]` runs this script.
#
# Route (nothing from rustup, nothing installed system-wide; cached under target/cross-thumbv6m):
#   compiler  Debian's `rustc-web` + `cargo-web` + `rust-web-src` (the version pinned below),
#             unpacked with `dpkg -x` by scripts/lib/debian-rust.sh (shared with
#             cross-aarch64.sh and wasm.sh); Debian ships no thumbv6m standard library, so
#             `core` and `alloc` are built from the sources:
#             RUSTC_BOOTSTRAP=1 cargo build -Zbuild-std=core,alloc --target thumbv6m-none-eabi
#   linker    none: only libraries (rlibs) are built.
#
# Usage:
#   scripts/cross-thumbv6m.sh          # setup + build
#   scripts/cross-thumbv6m.sh setup    # only fetch/unpack the toolchain (idempotent)
#   scripts/cross-thumbv6m.sh build    # the builds listed in cmd_build
#   scripts/cross-thumbv6m.sh env      # print the build environment (to `eval` in a shell)
# Environment: SM_THUMB_CACHE (default <repo>/target/cross-thumbv6m), SM_THUMB_RUST_VERSION
#   (Debian version of rustc-web).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=$(realpath -m "${SM_THUMB_CACHE:-$ROOT/target/cross-thumbv6m}")
LOG_TAG=cross-thumbv6m
APT_ARCHS=(amd64)
PINNED_VERSION=1.96.0+dfsg1-1~deb12u2
MIN_UPSTREAM=1.88
TARGET=thumbv6m-none-eabi
# shellcheck source=scripts/lib/debian-rust.sh
. "$ROOT/scripts/lib/debian-rust.sh"

setup() {
    command -v dpkg >/dev/null && command -v apt-get >/dev/null || die "needs Debian (dpkg/apt)"
    src_toolchain "${SM_THUMB_RUST_VERSION:-$PINNED_VERSION}"
    export CARGO_BUILD_TARGET=$TARGET
    log "toolchain: $("$RUSTC" -V) / $("$CARGO" -V), target $TARGET (-Zbuild-std=core,alloc)"
}

build() { (cd "$ROOT" && "$CARGO" build --locked -Zbuild-std=core,alloc "$@"); }

# Every library crate without its default features (no `std`, no x86_64 assembly), then the
# heap-using features (`sm-curve/alloc`). sm-cli, the bindings, xtask and the test-vector crate are
# std-only and not built.
cmd_build() {
    local p
    for p in sm-field sm-curve sm-pairing shangmi-sm3 shangmi-sm2 shangmi-sm9 sm4-ct sm-pbes2; do
        log "build -p $p --no-default-features"
        build -p "$p" --no-default-features
    done
    log "build -p sm-curve --no-default-features --features alloc"
    build -p sm-curve --no-default-features --features alloc
}

sub=${1:-all}
[ $# -gt 0 ] && shift
start=$(date +%s)
setup
case "$sub" in
    setup) ;;
    build | all) cmd_build ;;
    env)
        for v in LD_LIBRARY_PATH RUSTC RUSTDOC PATH CARGO CARGO_HOME CARGO_TARGET_DIR CARGO_BUILD_TARGET \
            RUSTC_BOOTSTRAP; do
            printf 'export %s=%q\n' "$v" "${!v}"
        done
        ;;
    *) die "unknown command '$sub' (setup | build | env)" ;;
esac
log "done in $(($(date +%s) - start)) s"
