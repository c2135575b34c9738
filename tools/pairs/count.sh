#!/usr/bin/env bash
# tools/pairs/count.sh — chooses the super-instructions from the pair
# corpus (issue 22; bench/README.md, "Choosing the pairs"):
#
#   1. builds weft with the profiling hook (-DWEFT_PROFILE_PAIRS=1,
#      src/exec/profile.c) into $PROF_BUILD, without pairs for a first
#      round, with the current src/compile/pairs_list.h for a later one;
#   2. runs every program of bench/corpus/list under it (pairs.py profile;
#      bench/corpus/setup.sh must have installed the corpus) and keeps the
#      counts in $OUT/NAME.txt;
#   3. chooses the pairs (pairs.py select) and writes
#      src/compile/pairs_list.h, and the report to $OUT/report.txt.
#
# Usage: tools/pairs/count.sh [--round2] [select options...]
#   --round2   profile with the current pairs in place and keep them
#              (--keep): the new rows are what is left to pair
#   select options: --max-pairs N (200), --max-compile-seconds S (90),
#              --cap C (0.02), --min-weight W (0.0005); see pairs.py --help
# Environment: PROF_BUILD (default build-prof or build-prof2), OUT
# (default build-prof*/profile), WEFT_CORPUS, SMALL=1 to profile the small
# builds of bench/'s programs (tests/pairs/wasm/) instead of the full-size
# ones: minutes instead of half an hour, but their code differs a little.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
round2=0
if [ "${1:-}" = --round2 ]; then round2=1; shift; fi
if [ $round2 = 1 ]; then
    PROF_BUILD=${PROF_BUILD:-build-prof2}
    flags="-DWEFT_PROFILE_PAIRS=1"
else
    PROF_BUILD=${PROF_BUILD:-build-prof}
    flags="-DWEFT_PROFILE_PAIRS=1 -DWEFT_NO_PAIRS=1"
fi
OUT=${OUT:-$PROF_BUILD/profile}
make -s BUILD="$PROF_BUILD" EXTRA_CFLAGS="$flags" "$PROF_BUILD/weft"
rm -rf "$OUT"
mkdir -p "$OUT"
small=--small
[ "${SMALL:-0}" = 0 ] && small=
python3 tools/pairs/pairs.py profile --weft "$PROF_BUILD/weft" --out "$OUT" $small
keep=
if [ $round2 = 1 ]; then
    cp src/compile/pairs_list.h "$OUT/kept_pair_list.h"
    keep="--keep $OUT/kept_pair_list.h"
fi
python3 tools/pairs/pairs.py select "$OUT" $keep --report "$OUT/report.txt" "$@"
cat "$OUT/report.txt"
