#!/usr/bin/env bash
# Build and run the aarch64 tests of sm-field, and `xtask check`'s cross-backend field
# equivalence, on an x86_64 Debian 12 (bookworm) machine, under QEMU user-mode emulation.
#
# Route (all from Debian packages; nothing from rustup):
#   compiler  Debian's `rustc-web` + `cargo-web` (x86_64 binaries, the version pinned below) and
#             the aarch64 standard library of the same version from the multiarch package
#             `libstd-rust-web-dev:arm64`. They are downloaded with a private apt state (the
#             host's apt lists and dpkg architectures are left alone) and unpacked with `dpkg -x`
#             under target/cross-aarch64/toolchain-<version>: nothing is installed system-wide.
#   linker    `gcc-aarch64-linux-gnu` + `libc6-dev-arm64-cross`   (apt-get install, once)
#   runner    `qemu-user-static`: `qemu-aarch64-static -L /usr/aarch64-linux-gnu` (no binfmt)
# The real workspace manifests and Cargo.lock are used as they are (`--locked`); crates come
# from crates.io into a private CARGO_HOME under target/cross-aarch64.
#
# Usage:
#   scripts/cross-aarch64.sh              # setup + clippy + tests + xtask check --quick
#   scripts/cross-aarch64.sh setup        # only fetch/unpack the toolchain (idempotent)
#   scripts/cross-aarch64.sh test [ARGS]  # sm-field tests, then the Asm suites of sm-curve, sm2, sm-pairing
#                                         #   (with ARGS: only sm-field, ARGS go to `cargo test`)
#   scripts/cross-aarch64.sh check [ARGS] # xtask check (default ARGS: --quick)
#   scripts/cross-aarch64.sh clippy       # clippy -D warnings on sm-field for aarch64
#   scripts/cross-aarch64.sh cargo ARGS   # any cargo command, target aarch64, e.g.
#                                         #   scripts/cross-aarch64.sh cargo test -p sm-curve
#   scripts/cross-aarch64.sh env          # print the environment (to `eval` in a shell)
#
# Environment: SM_CROSS_CACHE (default <repo>/target/cross-aarch64),
#   SM_CROSS_RUST_VERSION (Debian version of rustc-web; default pinned below).
# Cost on the 2-core development machine: see README ("aarch64").
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=$(realpath -m "${SM_CROSS_CACHE:-$ROOT/target/cross-aarch64}")
# bookworm-security's rustc-web; 1.88+ is needed by the locked dev-dependencies (proptest).
PINNED_VERSION=1.96.0+dfsg1-1~deb12u2
MIN_UPSTREAM=1.88
TARGET=aarch64-unknown-linux-gnu
HOST_PACKAGES=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static)

LOG_TAG=cross-aarch64
APT_ARCHS=(amd64 arm64)
# shellcheck source=scripts/lib/debian-rust.sh
. "$ROOT/scripts/lib/debian-rust.sh"

# --- toolchain: the pinned debs (+ missing shared libraries), unpacked by unpack_debs ------------
toolchain() {
    choose_version "${SM_CROSS_RUST_VERSION:-$PINNED_VERSION}" rustc-web:amd64 libstd-rust-web-dev:arm64
    local series; series=$(echo "$VERSION" | sed -E 's/^([0-9]+\.[0-9]+).*/\1/')
    TC=$CACHE/toolchain-$VERSION
    local rust_pkgs=(rustc-web cargo-web "libstd-rust-web-$series" libstd-rust-web-dev rust-web-clippy)
    local stamp="${rust_pkgs[*]} libstd-rust-web-dev:arm64"
    local follow=() p
    for p in "${rust_pkgs[@]}"; do follow+=("$p:amd64=$VERSION"); done
    # Shared libraries the x86_64 rustc/cargo need that the host lacks (LLVM, libgit2, ...) are
    # followed; the aarch64 standard library is not.
    unpack_debs "$TC" "$stamp" "${follow[@]}" -- "libstd-rust-web-dev:arm64=$VERSION" || return 0
    [ -d "$TC/usr/lib/rustlib/$TARGET/lib" ] || die "no $TARGET standard library in $TC"
    tc_env
    tc_check
    stamp_done "$TC" "$stamp"
}

tc_env() {
    tc_env_common
    export CARGO_BUILD_TARGET=$TARGET
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64-static -L /usr/aarch64-linux-gnu"
}

setup() {
    command -v dpkg >/dev/null && command -v apt-get >/dev/null || die "needs Debian (dpkg/apt)"
    [ "$(uname -m)" = x86_64 ] || log "note: host is $(uname -m), not x86_64"
    host_packages "${HOST_PACKAGES[@]}"
    toolchain
    tc_env
    log "toolchain: $("$RUSTC" -V) / $("$CARGO" -V), target $TARGET, runner qemu-aarch64-static"
}

run_cargo() { (cd "$ROOT" && "$CARGO" "$@"); }

cmd_test() {
    # all-backends: the asm backend is checked against u64 and u32 in one binary.
    run_cargo test --locked -p sm-field --features all-backends "$@"
    # The suites above sm-field that run the Asm backend beside the portable ones: curve laws,
    # SM2 annex/GmSSL known answers, pairing known answers and laws.
    [ $# -gt 0 ] || {
        run_cargo test --locked -p sm-curve --features all-backends --test suite curve_laws::
        # (`-p sm2` would name RustCrypto's sm2, one of the dependencies.)
        run_cargo test --locked --manifest-path sm2/Cargo.toml --features all-backends --test suite kat::
        run_cargo test --locked -p sm-pairing --features all-backends --test suite -- kat:: laws::
    }
}

cmd_clippy() {
    # The aarch64 backend is only compiled (and linted) for aarch64.
    run_cargo clippy --locked -p sm-field --all-targets --features all-backends -- -D warnings
}

cmd_check() {
    [ $# -gt 0 ] || set -- --quick
    # Without the `peers` feature (OpenSSL and other implementations are bench-only).
    run_cargo run --locked -p xtask --no-default-features -- check "$@"
}

sub=${1:-all}
[ $# -gt 0 ] && shift
start=$(date +%s)
setup
case "$sub" in
    setup) ;;
    test) cmd_test "$@" ;;
    check) cmd_check "$@" ;;
    clippy) cmd_clippy ;;
    cargo) run_cargo "$@" ;;
    env)
        for v in LD_LIBRARY_PATH RUSTC RUSTDOC PATH CARGO CARGO_HOME CARGO_TARGET_DIR CARGO_BUILD_TARGET \
            CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER; do
            printf 'export %s=%q\n' "$v" "${!v}"
        done
        ;;
    all) cmd_clippy && cmd_test && cmd_check ;;
    *) die "unknown command '$sub' (setup | test | check | clippy | cargo | env)" ;;
esac
log "done in $(($(date +%s) - start)) s"
