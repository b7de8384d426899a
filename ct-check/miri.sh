#!/usr/bin/env bash
# `cargo miri test` on the portable backends (u32, u64): sm-field/tests/miri_smoke.rs runs the
# limb-level Fp primitives (range-checked decoding, add/sub/mul/square, invert, sqrt, pow with a
# full-width exponent) of all four moduli on edge and pseudo-random inputs against num-bigint,
# under Miri's undefined-behaviour and overflow checks (issue 9). Needs the nightly toolchain
# with the `miri` and `rust-src` components; they are added here if missing. Miri ignores
# opt-level and is slow: the big field suites (fp_reference, tower_*) are not run under it.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! rustup +nightly component list --installed 2>/dev/null | grep -q '^miri'; then
    rustup +nightly component add miri rust-src
fi
# Miri builds its sysroot in a temporary crate; keep it away from any stray Cargo.toml above
# $TMPDIR and out of this workspace.
export TMPDIR="${MIRI_TMPDIR:-/var/tmp/sm-miri}"
mkdir -p "$TMPDIR"
# The u32/u64 backends are safe code (`unsafe` is only in the asm backend, not built here), so
# Stacked Borrows has nothing to check; switching it off makes the run several times faster.
# Miri still checks arithmetic overflow (debug assertions), bounds and every other UB class.
export MIRIFLAGS="${MIRIFLAGS:--Zmiri-disable-stacked-borrows}"
exec cargo +nightly miri test -p sm-field --no-default-features --features u64,u32 \
    --test miri_smoke "$@"
