#!/usr/bin/env bash
# Replays the committed fuzz corpus (fuzz/corpus/TARGET) through each
# harness built as a plain program ($BUILD/fuzz/TARGET, fuzz/main.c): every
# input that ever crashed weft, and the seeds, must now pass. Under the
# ASan+UBSan build this is the regression test of every fuzz finding.
# One test per target.
set -u
BUILD=${1:-build}
cd "$(dirname "$0")/../.."
pass=0 fail=0
for src in fuzz/*.c; do
    t=$(basename "$src" .c)
    [ "$t" = main ] && continue
    bin=$BUILD/fuzz/$t
    if [ ! -x "$bin" ]; then echo "FAIL $t: $bin not built"; fail=$((fail + 1)); continue; fi
    if [ ! -d "fuzz/corpus/$t" ] || [ -z "$(ls -A "fuzz/corpus/$t")" ]; then
        echo "FAIL $t: no corpus in fuzz/corpus/$t"; fail=$((fail + 1)); continue
    fi
    if out=$("$bin" "fuzz/corpus/$t" 2>&1); then
        echo "ok $t: $(printf '%s\n' "$out" | grep -E 'inputs$' | sed 's/.*: //')"
        pass=$((pass + 1))
    else
        printf '%s\n' "$out" | tail -n 30
        echo "FAIL $t"; fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
