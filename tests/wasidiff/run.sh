#!/usr/bin/env bash
# The differential test of the WASI file layer against the kernel
# (tests/wasidiff/src/wasidiff.c, docs/wasi.md "Differential test"): the
# same cases run natively (built here with cc) and as a wasm32-wasi guest
# under BUILD/weft, each on its own copy of identical scratch trees; every
# case's errno, results and resulting tree must match, but for the
# sandbox's own differences listed in the source's allowed[] table.
#
# Usage: tests/wasidiff/run.sh [BUILD]   (BUILD defaults to build)
# WASIDIFF_VERBOSE=1 also lists each allowed difference; WEFT_KEEP=1 keeps
# the scratch directory. Ends with "N passed, N failed".
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/tests/wasidiff
case $BUILD in /*) WEFT=$BUILD/weft ;; *) WEFT=$ROOT/$BUILD/weft ;; esac
CC=${CC:-cc}

if [ ! -x "$WEFT" ]; then
    echo "no $WEFT: build first (make BUILD=$BUILD)"
    echo "0 passed, 1 failed"
    exit 1
fi
# Three copies of a few thousand small trees: on tmpfs (/dev/shm) their
# setup takes a fraction of a second, on a disk it can take many;
# WASIDIFF_TMP chooses another place.
if [ -z "${WASIDIFF_TMP:-}" ]; then
    if [ -d /dev/shm ] && [ -w /dev/shm ]; then WASIDIFF_TMP=/dev/shm; else WASIDIFF_TMP=${TMPDIR:-/tmp}; fi
fi
T=$(mktemp -d "$WASIDIFF_TMP/weft-wasidiff.XXXXXX")
cleanup() { if [ -z "${WEFT_KEEP:-}" ]; then rm -rf "$T"; else echo "kept $T"; fi; }
trap cleanup EXIT

fail() { echo "$1"; echo "0 passed, 1 failed"; exit 1; }

# The native twin: plain cc, no weft code.
"$CC" -std=c11 -D_GNU_SOURCE -O1 -Wall -Wextra -o "$T/native" "$HERE/src/wasidiff.c" ||
    fail "cannot build the native twin"

# The rights table of the test, proven on this kernel first.
mkdir "$T/self"
self=$("$T/native" selfcheck "$T/self") || { printf '%s\n' "$self"; fail "the rights table does not hold on this kernel"; }
self_pass=$(sed -nE 's/^([0-9]+) passed.*/\1/p' <<<"$self")

for tree in kernel weft pristine; do
    "$T/native" setup "$T/$tree" || fail "cannot set up $T/$tree"
done
"$T/native" run "$T/kernel" >"$T/kernel.out" || fail "the native run failed"
(cd "$T" && timeout 300 "$WEFT" run --dir "$T/weft::/scratch" "$HERE/wasm/wasidiff.wasm" run \
    </dev/null >"$T/weft.out" 2>"$T/weft.err")
rc=$?
if [ "$rc" -ne 0 ]; then
    head -n 20 "$T/weft.err"
    fail "the guest exited with $rc"
fi
out=$("$T/native" compare "$T/kernel.out" "$T/weft.out" "$T/kernel" "$T/weft" "$T/pristine")
rc=$?
printf '%s\n' "$out" | sed '$d'
last=$(printf '%s\n' "$out" | tail -n 1)
p=$(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed.*/\1/p' <<<"$last")
f=$(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed.*/\2/p' <<<"$last")
[ -n "$p" ] || fail "compare ended without a summary (exit $rc)"
echo "(and $self_pass rights-table checks on the kernel)"
echo "$((p + self_pass)) passed, $f failed"
[ "$rc" -eq 0 ] && [ "$f" -eq 0 ]
