#!/usr/bin/env bash
# Builds and runs the cargo-fuzz (libFuzzer + AddressSanitizer/LeakSanitizer) targets.
#
#   fuzz/run.sh [-t SECONDS_PER_TARGET] [-n RUNS_PER_TARGET] [-j JOBS] [-C] [TARGET...]
#
# Defaults: every target, 30 s each. `-n 10000000` runs ten million executions per target; with
# `-j JOBS` the executions are shared out over JOBS parallel workers (one campaign, one corpus).
# `-C` builds without libFuzzer's compare tracing (into target-ntc/): for long runs of the
# differential target, whose RustCrypto peer spends ~40 % of its time in the compare hooks.
# Needs a nightly toolchain (`-Zsanitizer`); installs cargo-fuzz from crates.io when missing and
# seeds the corpora from the vector files (fuzz/seed.py) on first use. Prints the executions
# per target and fails on any crash, panic, timeout, leak or out-of-memory.
set -euo pipefail
cd "$(dirname "$0")"

secs=30
runs=0
jobs=1
build_args=(-O --debug-assertions)
while getopts "t:n:j:C" opt; do
    case $opt in
        t) secs=$OPTARG ;;
        n) runs=$OPTARG; secs=0 ;;
        j) jobs=$OPTARG ;;
        C) build_args+=(--no-trace-compares --target-dir target-ntc) ;;
        *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))

if ! rustup toolchain list | grep -q '^nightly'; then
    echo "fuzz/run.sh: a nightly toolchain is needed (rustup toolchain install nightly)" >&2
    exit 1
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
[ -d corpus ] || python3 seed.py

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi

# Not every target dir is the default: keep fuzz builds out of the main target dirs.
unset CARGO_TARGET_DIR
cargo +nightly fuzz build "${build_args[@]}"

mkdir -p logs
status=0
printf '%-22s %14s %10s  %s\n' target executions exec/s result
for t in "${targets[@]}"; do
    args=(-rss_limit_mb=4096 -timeout=20 -print_final_stats=1)
    if [ "$runs" -gt 0 ]; then
        args+=(-runs=$(((runs + jobs - 1) / jobs)))
    else
        args+=(-max_total_time="$secs")
    fi
    if [ "$jobs" -gt 1 ]; then args+=(-jobs="$jobs" -workers="$jobs"); fi
    log=logs/$t.log
    if cargo +nightly fuzz run "${build_args[@]}" "$t" "corpus/$t" -- "${args[@]}" >"$log" 2>&1; then
        result=ok
    else
        result="FAILED (see fuzz/$log)"
        status=1
    fi
    extra=$(ls fuzz-*.log 2>/dev/null || true)
    # shellcheck disable=SC2086
    execs=$(awk '/stat::number_of_executed_units/ {s += $2} END {print s + 0}' "$log" $extra)
    # shellcheck disable=SC2086
    rate=$(awk '/stat::average_exec_per_sec/ {s += $2} END {print s + 0}' "$log" $extra)
    rm -f fuzz-*.log
    printf '%-22s %14s %10s  %s\n' "$t" "$execs" "$rate" "$result"
done
exit $status
