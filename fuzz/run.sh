#!/usr/bin/env bash
# Runs fuzz harnesses under libFuzzer: fuzz/run.sh BUILD SECONDS [TARGET...]
# (what `make fuzz` calls after building BUILD/fuzz/libfuzzer/* with
# LIBFUZZER=1).
# Each target runs SECONDS on one core, starting from its committed corpus
# fuzz/corpus/TARGET (read-only here) plus its seeds (the spec modules for
# the module targets); new inputs go to BUILD/corpus/TARGET and findings to
# BUILD/crashes/. FUZZ_SPEC_SEEDS=0 skips the spec seeds (CI's short runs).
# Targets run FUZZ_JOBS at a time (default: the number of CPUs), each with
# its output printed whole once it ends. Exits non-zero if any target found
# something.
set -u
BUILD=${1:?build dir}
SECS=${2:-60}
shift 2 || shift $#
cd "$(dirname "$0")/.."
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for f in fuzz/*.c; do
        n=$(basename "$f" .c)
        [ "$n" = main ] || targets+=("$n")
    done
fi
spec=${WEFT_SPEC_DIR:-../shared/spec/core}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
outs=$(mktemp -d "${TMPDIR:-/tmp}/weft-fuzz.XXXXXX")
trap 'rm -rf "$outs"' EXIT
status=0
# One target: its output on stdout, exit 1 on a finding.
fuzz_one() {
    local t=$1 bin=$BUILD/fuzz/libfuzzer/$1
    [ -x "$bin" ] || { echo "no $bin (build with make fuzz)"; return 1; }
    mkdir -p "$BUILD/corpus/$t" "$BUILD/crashes" fuzz/corpus/"$t"
    seeds=(fuzz/corpus/"$t")
    # Module targets also start from every spec module.
    if [ -f "fuzz/seeds/$t.spec" ] && [ "${FUZZ_SPEC_SEEDS:-1}" != 0 ] && [ -d "$spec" ]; then
        seeds+=("$BUILD/seeds-spec")
    fi
    # The component target also starts from every converted spec component.
    [ "$t" = component ] && seeds+=(tests/component/data/*/)
    dict=()
    [ -f "fuzz/$t.dict" ] && dict=(-dict="fuzz/$t.dict")
    echo "== fuzz $t for ${SECS}s"
    "$bin" -max_total_time="$SECS" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="$BUILD/crashes/$t-" "${dict[@]}" "$BUILD/corpus/$t" "${seeds[@]}" \
        2>&1 | grep -vE '^#[0-9]+.*(NEW|REDUCE|pulse)' | tail -n 25
    local rc=${PIPESTATUS[0]}
    if [ "$rc" -ne 0 ]; then echo "fuzz $t: finding (exit $rc), see $BUILD/crashes/"; return 1; fi
}
# The spec seeds are copied once, before any target runs.
if [ "${FUZZ_SPEC_SEEDS:-1}" != 0 ] && [ -d "$spec" ] && [ ! -d "$BUILD/seeds-spec" ] &&
    ls fuzz/seeds/*.spec >/dev/null 2>&1; then
    mkdir -p "$BUILD/seeds-spec"
    find "$(dirname "$spec")" -name '*.wasm' -size -64k | while read -r f; do
        cp "$f" "$BUILD/seeds-spec/$(basename "$(dirname "$f")")-$(basename "$f")"
    done
fi
pids=()
for i in "${!targets[@]}"; do
    # At most $jobs at once: target i starts when target i - jobs has ended.
    if [ "$i" -ge "$jobs" ]; then
        wait "${pids[i - jobs]}" || status=1
        cat "$outs/$((i - jobs))"
    fi
    fuzz_one "${targets[i]}" >"$outs/$i" 2>&1 &
    pids[i]=$!
done
for i in "${!targets[@]}"; do
    [ "$i" -lt $(( ${#targets[@]} - jobs )) ] && continue
    wait "${pids[i]}" || status=1
    cat "$outs/$i"
done
exit $status
