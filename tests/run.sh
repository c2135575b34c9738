#!/usr/bin/env bash
# Runs every test suite against the build directory $1 (default build).
# Each suite prints a closing line "N passed, N failed[, N skipped]"; this
# script adds them up and prints the total last. Exits non-zero on any
# failure, or if a suite crashed without its closing line.
#
# The suites run WEFT_TEST_JOBS at a time (default: the number of CPUs;
# 1 runs them one after another), each with its output in a file of its
# own; each suite's output is printed whole, in the order below, as soon
# as it and the suites before it have ended.
set -u
BUILD=${1:-build}
cd "$(dirname "$0")/.."
jobs=${WEFT_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
total_pass=0 total_fail=0 total_skip=0 status=0

# One slot per suite, numbered in order: $slots/N.out is its output,
# $slots/N.rc appears when it has ended ("rc seconds"), $slots/N.name is
# its name; pids[N] is the shell that runs it.
slots=$(mktemp -d "${TMPDIR:-/tmp}/weft-run.XXXXXX")
nslots=0 nprinted=0 pids=()
# Each suite runs in a process group of its own (set -m), which an
# interrupt takes down whole, test programs included.
set -m
stop_all() {
    local p
    for p in $(jobs -p); do kill -TERM -- "-$p" 2>/dev/null; done
    wait
}
trap 'stop_all; rm -rf "$slots"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Prints the ended suites whose turn it is, and adds up their closing lines.
print_ended() {
    local i
    while [ "$nprinted" -lt "$nslots" ]; do
        # A shell that died without its .rc (killed) ended its suite with
        # a failure.
        if [ ! -f "$slots/$nprinted.rc" ] && ! kill -0 "${pids[$nprinted]}" 2>/dev/null; then
            sleep 0.1
            [ -f "$slots/$nprinted.rc" ] || echo "-1 ?" >"$slots/$nprinted.rc"
        fi
        [ -f "$slots/$nprinted.rc" ] || break
        i=$nprinted; nprinted=$((nprinted + 1))
        local name rc secs
        name=$(cat "$slots/$i.name")
        read -r rc secs <"$slots/$i.rc"
        if [ "$rc" = note ]; then cat "$slots/$i.out"; continue; fi
        if [ "$rc" = fail ]; then
            cat "$slots/$i.out"; total_fail=$((total_fail + 1)); status=1; continue
        fi
        echo "== $name"
        tail -n 40 "$slots/$i.out"
        echo "($name took $secs s)"
        local line
        line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$slots/$i.out" | tail -n 1)
        if [ -z "$line" ]; then
            echo "suite $name ended without a summary (exit $rc)"
            total_fail=$((total_fail + 1)); status=1; continue
        fi
        local p f s
        p=$(sed -E 's/^([0-9]+) passed.*/\1/' <<<"$line")
        f=$(sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/' <<<"$line")
        s=$(sed -nE 's/.* ([0-9]+) skipped.*/\1/p' <<<"$line"); s=${s:-0}
        total_pass=$((total_pass + p)); total_fail=$((total_fail + f)); total_skip=$((total_skip + s))
        if [ "$rc" -ne 0 ] || [ "$f" -ne 0 ]; then status=1; fi
    done
}

# Suites started and not ended.
running() {
    local n=0 i
    for ((i = nprinted; i < nslots; i++)); do [ -f "$slots/$i.rc" ] || n=$((n + 1)); done
    echo "$n"
}

# run_suite NAME CMD...: starts CMD once fewer than $jobs suites run.
run_suite() {
    local name=$1; shift
    while [ "$(running)" -ge "$jobs" ]; do
        sleep 0.1
        print_ended
    done
    local i=$nslots
    printf '%s\n' "$name" >"$slots/$i.name"
    nslots=$((nslots + 1))
    (
        t0=$SECONDS
        "$@" >"$slots/$i.out" 2>&1 </dev/null
        rc=$?
        echo "$rc $((SECONDS - t0))" >"$slots/$i.rc.tmp"
        mv "$slots/$i.rc.tmp" "$slots/$i.rc"
    ) &
    pids[i]=$!
    print_ended
}

# note TEXT: a line printed in its place among the suites; fail_note TEXT:
# the same, counted as one failure.
note() { printf '%s\n' "$1" >"$slots/$nslots.out"; echo "note 0" >"$slots/$nslots.rc"; pids[nslots]=0; nslots=$((nslots + 1)); }
fail_note() { printf '%s\n' "$1" >"$slots/$nslots.out"; echo "fail 0" >"$slots/$nslots.rc"; pids[nslots]=0; nslots=$((nslots + 1)); }

# Unit tests: each program is one test; exit 0 means pass.
# A failing test's first lines (a sanitizer's report starts there) are
# printed again at the end, next to the summary that run_suite shows.
unit() {
    local p=0 f=0 out reports=""
    out=$(mktemp)
    for t in "$BUILD"/tests/*; do
        [ -x "$t" ] || continue
        if "$t" >"$out" 2>&1; then
            p=$((p + 1))
            cat "$out"
        else
            cat "$out"
            echo "FAIL $t"
            reports+="== FAIL $t, its first lines:"$'\n'"$(grep -v '^  ' "$out" | head -n 12)"$'\n'
            f=$((f + 1))
        fi
    done
    rm -f "$out"
    printf '%s' "$reports"
    echo "$p passed, $f failed"
    [ "$f" -eq 0 ]
}

run_suite unit unit
run_suite spec "$BUILD/weft-spectest"
# The core suite again on the compiler tier (docs/jit.md), where the build
# has it: every function compiled on its first call (those with an
# operation it does not handle stay interpreted); the closing "jit:" line
# says how many were compiled, and none is a failure.
if "$BUILD/weft" --version | grep -q '^tiers: .*jit'; then
    run_suite spec-jit env WEFT_TIER=jit WEFT_JIT_STATS=1 "$BUILD/weft-spectest"
else
    note "== spec-jit: this build has no compiler tier"
fi
# The threads proposal's spec group, beside core (same spec root).
spec_root=$(dirname "${WEFT_SPEC_DIR:-../shared/spec/core}")
if [ -d "$spec_root/threads" ]; then
    run_suite spec-threads "$BUILD/weft-spectest" "$spec_root/threads"
else
    fail_note "spec-threads: $spec_root/threads not found"
fi
# SIMD, with the vector unit and with the portable C lanes.
if [ -d "$spec_root/simd" ]; then
    run_suite spec-simd "$BUILD/weft-spectest" "$spec_root/simd"
    # Built by `make release` and CI, or PORTABLE=1; the everyday build
    # leaves it out (a second compile of the interpreter).
    if [ -x "$BUILD/weft-spectest-portable" ]; then
        # and relaxed SIMD's scripts: the same results on both paths
        # (docs/simd.md); tests/spectest/wasm-3.0 pins weft's choices.
        relaxed=("$spec_root"/proposals-relaxed-simd "$spec_root"/wasm-3.0/*relaxed*.json tests/spectest/wasm-3.0)
        run_suite spec-simd-portable "$BUILD/weft-spectest-portable" "$spec_root/simd" "${relaxed[@]}"
    else
        note "== spec-simd-portable: not in this build (make release, or PORTABLE=1, builds it)"
    fi
else
    fail_note "spec-simd: $spec_root/simd not found"
fi
# The Wasm 3.0 groups (issue 24): wasm-3.0 and every proposals-* group,
# on an engine with the 3.0 features weft has, and weft's own 3.0
# scripts (tests/spectest/wasm-3.0). Scripts waiting for a
# feature weft lacks are skipped whole with that reason
# (tests/spectest/pending-wasm3.txt), GC ones and outdated proposal
# checks too (skip-wasm3.txt); bash tests/spectest/wasm3-status.sh reports
# every script without the pending list.
wasm3_dirs=()
for d in "$spec_root/wasm-3.0" "$spec_root"/proposals-* tests/spectest/wasm-3.0; do
    [ -d "$d" ] && wasm3_dirs+=("$d")
done
if [ ${#wasm3_dirs[@]} -gt 0 ]; then
    run_suite spec-wasm3 "$BUILD/weft-spectest" "${wasm3_dirs[@]}"
else
    fail_note "spec-wasm3: no wasm-3.0 or proposals-* group under $spec_root"
fi
# Every tests/*/run.sh is a suite but tests/libc-suite/run.sh, which runs
# wasi-libc's own suite from sources fetched by hand and needs a wasm
# toolchain (tests/libc-suite/RESULTS.md): make test and CI do without it.
for s in tests/*/run.sh; do
    [ -f "$s" ] || continue
    [ "$s" = tests/libc-suite/run.sh ] && continue
    run_suite "$(basename "$(dirname "$s")")" bash "$s" "$BUILD"
done

while [ "$nprinted" -lt "$nslots" ]; do
    sleep 0.1
    print_ended
done
wait
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
exit $status
