#!/usr/bin/env bash
# Reports where weft stands on the Wasm 3.0 spec groups (issue 24): runs
# weft-spectest over ../shared/spec/wasm-3.0 and every ../shared/spec/
# proposals-* group with the permanent skip lists only (skip.txt,
# skip-wasm3.txt), not pending-wasm3.txt, so each script shows what it
# really does today. Prints a markdown table per group and a total line
# per group; never fails on test failures (it reports, `make test` checks).
#   bash tests/spectest/wasm3-status.sh [BUILD] > status.md
set -u
BUILD=${1:-build}
cd "$(dirname "$0")/../.."
spec_root=$(dirname "${WEFT_SPEC_DIR:-../shared/spec/core}")
groups="wasm-3.0 $(cd "$spec_root" && ls -d proposals-* 2>/dev/null | tr '\n' ' ')"
for g in $groups; do
    [ -d "$spec_root/$g" ] || { echo "$g: not found under $spec_root"; continue; }
    out=$("$BUILD/weft-spectest" --skip tests/spectest/skip.txt \
          --skip tests/spectest/skip-wasm3.txt "$spec_root/$g" 2>&1)
    echo "### $g"
    echo
    echo "| script | passed | failed | skipped |"
    echo "|---|---:|---:|---:|"
    printf '%s\n' "$out" | sed -nE 's/^([^ ]+\.json): ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$/| \1 | \2 | \3 | \4 |/p'
    echo
    echo "$g total: $(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)"
    echo
done
