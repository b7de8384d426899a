#!/usr/bin/env bash
# Build, test and benchmark the WebAssembly/npm package (sm-wasm/) on a Debian 12 machine.
# `cargo xtask wasm [setup|build|test|bench ARGS|pack|env]` runs this script.
#
# Route (idempotent, everything cached under target/wasm):
#   compiler  where `rustup target list --installed` has wasm32-unknown-unknown, the rustup
#             toolchain; otherwise Debian's `rustc-web` + `cargo-web` + `rust-web-src` (the version
#             pinned below) and `lld-22` (wasm-ld), downloaded with a private apt state and
#             unpacked with `dpkg -x` (scripts/lib/debian-rust.sh, shared with cross-aarch64.sh);
#             the standard library is then built from source:
#             RUSTC_BOOTSTRAP=1 cargo -Zbuild-std=std,panic_abort --target wasm32-unknown-unknown
#   bindgen   `cargo install wasm-bindgen-cli --version` = the `wasm-bindgen` crate's version
#   node      Node >= 18 from the machine (Debian's `nodejs` + `npm` when missing); npm dev
#             dependencies (sm-crypto, sm-crypto-v2, playwright-core) from sm-wasm/js/dev's
#             package-lock.json via `npm ci` into target/wasm/node
#   browser   Debian's `chromium` (apt-get install when missing), driven by playwright-core
#
# Usage:
#   scripts/wasm.sh build        # wasm32 build + wasm-bindgen -> target/wasm/pkg (the npm package)
#   scripts/wasm.sh build --no-tables
#                                # the same without the generators' comb tables (computed on
#                                # first use: feature runtime-tables) -> target/wasm/pkg-no-tables
#   scripts/wasm.sh test         # build both, then Node tests, interop, npm pack + install, browser
#                                # page; the known-answer tests also against the --no-tables build
#   scripts/wasm.sh bench [ARGS] # build both, then the Node benchmark (ARGS: --quick, --markdown
#                                # FILE); the --no-tables build's size and key/sign costs beside
#   scripts/wasm.sh pack         # build, then `npm pack` into target/wasm/dist
#   scripts/wasm.sh setup        # only the toolchain, wasm-bindgen and npm/chromium set-up
#   scripts/wasm.sh env          # print the build environment (to `eval` in a shell)
# Environment: SM_WASM_CACHE (default <repo>/target/wasm), SM_WASM_RUST_VERSION (Debian version of
#   rustc-web), SM_WASM_DEBIAN=1 (use the Debian route even when rustup has the target).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=$(realpath -m "${SM_WASM_CACHE:-$ROOT/target/wasm}")
LOG_TAG=wasm
APT_ARCHS=(amd64)
PINNED_VERSION=1.96.0+dfsg1-1~deb12u2
MIN_UPSTREAM=1.88
LLD_VERSION=1:22.1.8-1~deb12u1
TARGET=wasm32-unknown-unknown
# shellcheck source=scripts/lib/debian-rust.sh
. "$ROOT/scripts/lib/debian-rust.sh"

PKG=$CACHE/pkg
PKG_NO_TABLES=$CACHE/pkg-no-tables
NODE_DIR=$CACHE/node
JS_SRC=$ROOT/sm-wasm/js

# --- 1. compiler ----------------------------------------------------------------------------------
rust_toolchain() {
    BUILD_STD=()
    if [ "${SM_WASM_DEBIAN:-0}" != 1 ] && command -v rustup >/dev/null &&
        rustup target list --installed 2>/dev/null | grep -qx "$TARGET"; then
        log "rustup has $TARGET: using $(rustc -V)"
        CARGO=$(command -v cargo)
        export CARGO_TARGET_DIR="$CACHE/build-rustup"
        return
    fi
    src_toolchain "$PINNED_VERSION" "lld-22:amd64=$LLD_VERSION"
    # rustc links wasm with `rust-lld -flavor wasm`; Debian's lld is wasm-ld-22.
    local wasm_ld=$TC/usr/lib/llvm-22/bin/wasm-ld
    [ -x "$wasm_ld" ] || die "no wasm-ld in $TC"
    export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=$wasm_ld
    BUILD_STD=(-Zbuild-std=std,panic_abort)
}

# --- 2. wasm-bindgen-cli of the crate's version ---------------------------------------------------
bindgen_version() {
    awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock"
}

wasm_bindgen_cli() {
    local v; v=$(bindgen_version)
    [ -n "$v" ] || die "no wasm-bindgen in Cargo.lock"
    local root=$CACHE/wasm-bindgen-$v
    WASM_BINDGEN=$root/bin/wasm-bindgen
    if [ -x "$WASM_BINDGEN" ] && [ "$("$WASM_BINDGEN" --version)" = "wasm-bindgen $v" ]; then return; fi
    log "cargo install wasm-bindgen-cli --version $v (once, a few minutes)"
    # Not --locked: the CLI's own lock file names a yanked crate. A debug build without debug
    # info (`--debug`, CARGO_PROFILE_DEV_DEBUG=0) skips the optimiser: it is a build-time tool
    # that post-processes one module per variant.
    (unset RUSTC_BOOTSTRAP CARGO_BUILD_TARGET
        CARGO_TARGET_DIR=$CACHE/wasm-bindgen-build CARGO_PROFILE_DEV_DEBUG=0 \
            "$CARGO" install --quiet --debug wasm-bindgen-cli --version "$v" --root "$root") ||
        die "cargo install wasm-bindgen-cli failed"
    rm -rf "$CACHE/wasm-bindgen-build"
}

# --- 3. Node, npm dev dependencies, chromium ------------------------------------------------------
node_ok() { command -v node >/dev/null && [ "$(node -p 'process.versions.node.split(".")[0]')" -ge 18 ]; }

node_setup() {
    node_ok || host_packages nodejs npm
    node_ok || die "Node >= 18 is needed ($(node -v 2>/dev/null || echo none))"
    command -v npm >/dev/null || host_packages npm
    local lock=$JS_SRC/dev/package-lock.json
    if ! cmp -s "$lock" "$NODE_DIR/package-lock.json" || [ ! -d "$NODE_DIR/node_modules" ]; then
        log "npm ci (dev dependencies into $NODE_DIR)"
        rm -rf "$NODE_DIR" && mkdir -p "$NODE_DIR"
        cp "$JS_SRC/dev/package.json" "$lock" "$NODE_DIR/"
        (cd "$NODE_DIR" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci failed"
    fi
    # CommonJS peers are found through NODE_PATH by the tests' createRequire.
    export NODE_PATH=$NODE_DIR/node_modules
}

browser_setup() {
    [ -x /usr/bin/chromium ] || host_packages chromium
    [ -x /usr/bin/chromium ] || die "no /usr/bin/chromium"
}

setup_all() {
    command -v dpkg >/dev/null && command -v apt-get >/dev/null || die "needs Debian (dpkg/apt)"
    rust_toolchain
    wasm_bindgen_cli
}

# --- 4. build ---------------------------------------------------------------------------------
# build_variant OUT [CARGO FEATURES...]: the module, post-processed by wasm-bindgen into OUT.
build_variant() {
    local out=$1; shift
    log "cargo build -p sm-wasm --target $TARGET (release) $*"
    # The workspace's release profile keeps line tables for native profiling; the module ships
    # without them (its own target directory, so native builds are unaffected).
    (cd "$ROOT" && CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_LTO=fat \
        "$CARGO" build --locked --release -p sm-wasm --target "$TARGET" "${BUILD_STD[@]}" "$@")
    local wasm=$CARGO_TARGET_DIR/$TARGET/release/sm_wasm.wasm
    # Both variants link to the same file: the stamp names the module's hash and the JS sources'.
    local stamp; stamp="$(sha256sum <"$wasm") $(cd "$JS_SRC/pkg" && cat -- * | sha256sum)"
    if [ "$(cat "$out/.built" 2>/dev/null)" = "$stamp" ]; then return; fi
    rm -rf "$out" && mkdir -p "$out"
    "$WASM_BINDGEN" --target web --out-dir "$out" --out-name sm_wasm "$wasm"
    cp -r "$JS_SRC/pkg/." "$out/"
    echo "$stamp" >"$out/.built"
    log "package in $out ($(stat -c %s "$out/sm_wasm_bg.wasm") bytes of wasm)"
}

build() {
    setup_all
    build_variant "$PKG"
}

build_no_tables() {
    setup_all
    build_variant "$PKG_NO_TABLES" --features runtime-tables
}

pack() {
    mkdir -p "$CACHE/dist"
    rm -f "$CACHE/dist"/*.tgz
    (cd "$CACHE/dist" && npm pack --silent "$PKG" >/dev/null)
    TARBALL=$(ls "$CACHE/dist"/*.tgz)
    log "npm pack: $TARBALL"
}

run_tests() {
    node_setup
    browser_setup
    pack
    export SM_WASM_PKG=$PKG SM_WASM_TARBALL=$TARBALL SM_WASM_SCRATCH=$CACHE/scratch
    [ -f "${SM_WASM_VECTORS:-}" ] || die "SM_WASM_VECTORS unset: run this through \`cargo xtask wasm test\` (it exports the vectors)"
    log "node --test sm-wasm/js/tests"
    (cd "$ROOT" && node --test --test-reporter=spec sm-wasm/js/tests/)
    log "node --test sm-wasm/js/tests/kat.test.mjs against the --no-tables build"
    (cd "$ROOT" && SM_WASM_PKG=$PKG_NO_TABLES node --test --test-reporter=spec sm-wasm/js/tests/kat.test.mjs)
}

# Benchmarks run pinned to one core where taskset exists (the machines are shared and noisy).
taskset_() { if command -v taskset >/dev/null; then taskset -c "${SM_WASM_BENCH_CPU:-1}" "$@"; else "$@"; fi; }

sub=${1:-build}
[ $# -gt 0 ] && shift
start=$(date +%s)
case "$sub" in
    setup) setup_all; node_setup; browser_setup ;;
    build)
        case "${1:-}" in
            --no-tables) build_no_tables ;;
            "") build ;;
            *) die "build: unknown option '$1' (--no-tables)" ;;
        esac
        ;;
    pack) build; pack ;;
    test) build; build_no_tables; run_tests ;;
    bench)
        build; build_no_tables; node_setup
        (cd "$ROOT" && taskset_ node sm-wasm/js/bench.mjs "$PKG" "$PKG_NO_TABLES" "$@")
        ;;
    env)
        setup_all
        for v in LD_LIBRARY_PATH RUSTC RUSTDOC PATH CARGO CARGO_HOME CARGO_TARGET_DIR RUSTC_BOOTSTRAP \
            CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER; do
            [ -n "${!v:-}" ] && printf 'export %s=%q\n' "$v" "${!v}"
        done
        ;;
    *) die "unknown command '$sub' (setup | build | test | bench | pack | env)" ;;
esac
log "done in $(($(date +%s) - start)) s"
