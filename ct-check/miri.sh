#!/usr/bin/env bash
# `cargo miri test` on a short selection of the portable backends' (u32, u64) field tests
# (issue 9). Needs the nightly toolchain with the `miri` and `rust-src` components
# (`rustup +nightly component add miri rust-src`). Miri ignores opt-level: expect minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
# Miri builds its sysroot in a temporary crate; keep it away from any stray Cargo.toml above
# $TMPDIR and out of this workspace.
export TMPDIR="${MIRI_TMPDIR:-/var/tmp/sm-miri}"
mkdir -p "$TMPDIR"
export PROPTEST_CASES="${PROPTEST_CASES:-2}"
exec cargo +nightly miri test -p sm-field --no-default-features --features u64,u32 \
    --test fp_reference --test tower_fp2 -- \
    range_checks debug_is_hex batch_inversion_matches_single fp2_edge_cases fp2_backends_agree \
    edges_all_moduli "$@"
