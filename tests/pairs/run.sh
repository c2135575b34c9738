#!/usr/bin/env bash
# Super-instructions (CMP_PAIR_OPS in src/compile/ops.h, src/compile/pairs.c):
# the CPU benchmarks' programs, built small (tests/Makefile, PAIRS_DEFS_*),
# must print what their native builds print; and every pair of the table
# must occur in them or in the full-size benchmark builds (bench/wasm/,
# made with another wasi-libc, whose code differs a little), so no pair is
# dead weight and nearly every one runs here on real code. Then
# tests/cli/src/pairs.wat: a trap in a pair's second operation names that
# operation's byte offset, and a branch to a pair's second operation runs
# it alone.
#
# Usage: tests/pairs/run.sh [BUILD]. Ends with "N passed, N failed".
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/tests/pairs
case $BUILD in /*) B=$BUILD ;; *) B=$ROOT/$BUILD ;; esac
WEFT=$B/weft DISASM=$B/weft-disasm
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/weft-pairs.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

for w in "$HERE"/wasm/*.wasm; do
    name=$(basename "$w" .wasm)
    if timeout 120 "$WEFT" run "$w" >"$TMP/$name.out" 2>"$TMP/$name.err" &&
        cmp -s "$TMP/$name.out" "$HERE/expected/$name.txt"; then
        ok
    else
        bad "$name: output differs from the native build's ($(head -c 200 "$TMP/$name.err"))"
    fi
    "$DISASM" "$w" >>"$TMP/all.dis" 2>/dev/null || bad "$name: weft-disasm failed"
done

# The everyday build has no pairs (Makefile, PAIRS=0): the programs above
# must still run right; what follows checks the pairs themselves.
if "$WEFT" --version | grep -q "no super-instructions"; then
    echo "this build has no super-instructions (make release, or PAIRS=1): pair checks skipped"
    echo "$pass passed, $fail failed, 1 skipped"
    [ "$fail" -eq 0 ]
    exit
fi

for name in coremark fib matmul sha256 nbody sieve hashtable vm calls; do
    "$DISASM" "$ROOT/bench/wasm/$name.wasm" >>"$TMP/all.dis" 2>/dev/null || bad "bench $name: weft-disasm failed"
done

# Every pair of the table, as the disassembler names it (FIRST+SECOND).
sed -n '/^#define CMP_PAIR_OPS/,/^$/p' "$ROOT/src/compile/ops.h" |
    sed -nE 's/.*X\(([A-Z0-9_]+), ([A-Z0-9_]+), [A-Z]+\).*/\1+\2/p' >"$TMP/pairs"
npairs=$(wc -l <"$TMP/pairs")
[ "$npairs" -gt 0 ] || bad "no pairs read from ops.h"
# (A dependent form, A+B:1 or A+B:2, counts as its pair.)
awk '{print $3}' "$TMP/all.dis" | grep -F + | sed 's/:[12]$//' | sort -u >"$TMP/seen"
while read -r p; do
    if grep -qxF "$p" "$TMP/seen"; then ok; else bad "pair $p occurs in none of the programs"; fi
done <"$TMP/pairs"

# tests/cli/src/pairs.wat (0x51 is its i32.load's offset, as wasm-objdump -d
# prints it).
M=$ROOT/tests/cli/wasm/pairs.wasm
c() { # NAME WANT_RC WANT_STDOUT STDERR_REGEX -- ARGS
    local name=$1 want_rc=$2 want_out=$3 want_err=$4 rc
    shift 5
    timeout 60 "$WEFT" "$@" </dev/null >"$TMP/out" 2>"$TMP/err"
    rc=$?
    local why=""
    [ "$rc" = "$want_rc" ] || why+=" exit $rc (want $want_rc);"
    [ "$(cat "$TMP/out")" = "$want_out" ] || why+=" stdout [$(head -c 200 "$TMP/out")] (want [$want_out]);"
    if [ -n "$want_err" ]; then
        grep -qE "$want_err" "$TMP/err" || why+=" stderr [$(head -c 300 "$TMP/err")] !~ /$want_err/;"
    fi
    if [ -n "$why" ]; then bad "$name:$why"; else ok; fi
}
"$DISASM" "$M" >"$TMP/wat.dis" 2>&1
grep -q "I32_ADD_IMM+LOAD32" "$TMP/wat.dis" && ok || bad "pairs.wat: no I32_ADD_IMM+LOAD32 formed"
grep -q "^      0 .*I32_ADD_IMM+I32_ADD_IMM" "$TMP/wat.dis" && ok || bad "pairs.wat: no I32_ADD_IMM+I32_ADD_IMM before the loop"
c load-ok 0 "12" "" -- run --invoke add_then_load "$M" 0 4
c load-trap 134 "" "out of bounds memory access" -- run --invoke add_then_load "$M" 65536 4
c load-trap-offset 134 "" "func 0 at 0x51$" -- run --invoke add_then_load "$M" 65536 4
c loop-into-second 0 "66" "" -- run --invoke loop_into_second "$M" 10 0

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
