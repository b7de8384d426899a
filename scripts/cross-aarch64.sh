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
#   scripts/cross-aarch64.sh              # setup + clippy + sm-field tests + xtask check --quick
#   scripts/cross-aarch64.sh setup        # only fetch/unpack the toolchain (idempotent)
#   scripts/cross-aarch64.sh test [ARGS]  # sm-field tests (extra ARGS go to `cargo test`)
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

log() { printf '[cross-aarch64] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        die "need root (or sudo) to run: $*"
    fi
}

installed() { [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]; }

# --- 1. linker and emulator: ordinary Debian packages on the host -------------------------------
host_packages() {
    local missing=() p
    for p in "${HOST_PACKAGES[@]}"; do installed "$p" || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] && return
    log "apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    local apt=(apt-get -o DPkg::Lock::Timeout=600 -y --no-install-recommends)
    as_root "${apt[@]}" install "${missing[@]}" || {
        as_root apt-get -o DPkg::Lock::Timeout=600 update
        as_root "${apt[@]}" install "${missing[@]}"
    }
}

# --- 2. private apt state with arm64 indices (the host's dpkg/apt configuration is untouched) ---
APT_DIR=$CACHE/apt
APT_OPTS=(
    -o "Dir::State::Lists=$APT_DIR/lists" -o "Dir::Cache=$APT_DIR/cache"
    -o "APT::Architectures::=amd64" -o "APT::Architectures::=arm64"
    -o "APT::Sandbox::User=root" -o "Acquire::Retries=3"
)

apt_update_private() {
    mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
    log "apt-get update (private lists in $APT_DIR)"
    apt-get "${APT_OPTS[@]}" -q update >"$APT_DIR/update.log" 2>&1 ||
        { cat "$APT_DIR/update.log" >&2; die "apt-get update failed"; }
    touch "$APT_DIR/updated"
}

has_version() { # package:arch version
    apt-cache "${APT_OPTS[@]}" madison "$1" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}' |
        grep -qxF "$2"
}

choose_version() {
    local want=${SM_CROSS_RUST_VERSION:-$PINNED_VERSION}
    if [ ! -e "$APT_DIR/updated" ] || ! has_version rustc-web:amd64 "$want"; then
        apt_update_private
    fi
    if has_version rustc-web:amd64 "$want" && has_version libstd-rust-web-dev:arm64 "$want"; then
        VERSION=$want
        return
    fi
    # The pinned version left the mirror (superseded by a Debian update): take the newest one.
    VERSION=$(apt-cache "${APT_OPTS[@]}" madison rustc-web:amd64 | awk -F'|' '{gsub(/ /,"",$2); print $2}' |
        sort -V | tail -n1)
    [ -n "$VERSION" ] || die "no rustc-web in the Debian lists"
    dpkg --compare-versions "$VERSION" ge "$MIN_UPSTREAM" || die "rustc-web $VERSION < $MIN_UPSTREAM"
    log "warning: rustc-web $want is not on the mirror; using $VERSION (update PINNED_VERSION)"
}

# Non-alternative `Depends` of one package (version-pinned when given as name=version).
depends_of() {
    apt-cache "${APT_OPTS[@]}" depends --no-recommends --no-suggests --no-conflicts --no-breaks \
        --no-replaces --no-enhances "$1" 2>/dev/null | awk '
        /^ \|Depends:/ { alt = 1; next }
        /^  Depends:/  { if (!alt && $2 !~ /^</) { sub(/:any$/, "", $2); print $2 }; alt = 0; next }
        /^[^ ]/        { alt = 0 }'
}

# --- 3. toolchain: download the pinned debs (+ missing shared libraries) and unpack them --------
toolchain() {
    choose_version
    local series; series=$(echo "$VERSION" | sed -E 's/^([0-9]+\.[0-9]+).*/\1/')
    TC=$CACHE/toolchain-$VERSION
    local rust_pkgs=(rustc-web cargo-web "libstd-rust-web-$series" libstd-rust-web-dev rust-web-clippy)
    local stamp="${rust_pkgs[*]} libstd-rust-web-dev:arm64"
    if [ "$(cat "$TC/.complete" 2>/dev/null)" = "$stamp" ]; then return; fi
    local debs=$CACHE/debs/$VERSION
    rm -rf "$TC" "$debs" && mkdir -p "$TC" "$debs"
    local want=() p
    for p in "${rust_pkgs[@]}"; do want+=("$p:amd64=$VERSION"); done
    want+=("libstd-rust-web-dev:arm64=$VERSION")
    # Shared libraries the x86_64 rustc/cargo need that the host lacks (LLVM, libgit2, ...),
    # followed through their own dependencies; unpacked next to the compiler, not installed.
    local queue=("${want[@]:0:${#rust_pkgs[@]}}") seen=" ${rust_pkgs[*]} " extra=() d
    while [ ${#queue[@]} -gt 0 ]; do
        p=${queue[0]}; queue=("${queue[@]:1}")
        for d in $(depends_of "$p"); do
            case "$seen" in *" $d "*) continue ;; esac
            seen+="$d "
            installed "$d" && continue
            extra+=("$d:amd64"); queue+=("$d:amd64")
        done
    done
    log "downloading ${want[*]} ${extra[*]}"
    (cd "$debs" && apt-get "${APT_OPTS[@]}" -q download "${want[@]}" "${extra[@]}") >&2 ||
        die "apt-get download failed"
    for p in "$debs"/*.deb; do dpkg -x "$p" "$TC"; done
    [ -d "$TC/usr/lib/rustlib/$TARGET/lib" ] || die "no $TARGET standard library in $TC"
    tc_env
    "$RUSTC" -vV >&2 || die "the unpacked rustc does not run (missing shared library?)"
    "$TC/usr/bin/cargo" -V >&2 || die "the unpacked cargo does not run"
    echo "$stamp" >"$TC/.complete"
    rm -rf "$debs" # ~140 MB; the stamp says what was unpacked
}

tc_env() {
    export LD_LIBRARY_PATH="$TC/usr/lib/x86_64-linux-gnu:$TC/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export RUSTC="$TC/usr/bin/rustc" RUSTDOC="$TC/usr/bin/rustdoc"
    export PATH="$TC/usr/bin:$PATH"
    export CARGO="$TC/usr/bin/cargo"
    # Toolchain-specific caches (crates.io downloads, build output); rustup's are not shared.
    export CARGO_HOME="$CACHE/cargo-home"
    export CARGO_TARGET_DIR="$CACHE/build"
    export CARGO_BUILD_TARGET=$TARGET
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64-static -L /usr/aarch64-linux-gnu"
    # Flags for the host-side build scripts are not needed; keep the developer's out of it.
    unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS RUSTC_WRAPPER
    export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
}

setup() {
    command -v dpkg >/dev/null && command -v apt-get >/dev/null || die "needs Debian (dpkg/apt)"
    [ "$(uname -m)" = x86_64 ] || log "note: host is $(uname -m), not x86_64"
    host_packages
    toolchain
    tc_env
    log "toolchain: $("$RUSTC" -V) / $("$CARGO" -V), target $TARGET, runner qemu-aarch64-static"
}

run_cargo() { (cd "$ROOT" && "$CARGO" "$@"); }

cmd_test() {
    # all-backends: the asm backend is checked against u64 and u32 in one binary.
    run_cargo test --locked -p sm-field --features all-backends "$@"
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
