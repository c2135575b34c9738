#!/usr/bin/env bash
# bench/component/run.sh [BUILD] — the component benchmarks (README.md
# here): weft (weft_bench.c on BUILD/libweft.a, the public API) and jco's
# transpiled JavaScript on node (node_bench.mjs), the same component
# (bench.wasm, from bench.wat by `jco parse`) and the same cases, in one
# run; a side-by-side table on stdout, saved under
# bench/results/DATE-components.txt with --save.
set -eu
BUILD=build
SAVE=
for a in "$@"; do case $a in --save) SAVE=1 ;; *) BUILD=$a ;; esac; done
cd "$(dirname "$0")/../.."
JCO=${JCO:-/work/tools/jco/node_modules/.bin/jco}
NODE=${NODE:-node}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude bench/component/weft_bench.c "$BUILD/libweft.a" \
    -lpthread -lm -o "$tmp/weft_bench"
"$JCO" transpile bench/component/bench.wasm -o "$tmp/jco" --instantiation async -q >/dev/null
"$tmp/weft_bench" bench/component/bench.wasm >"$tmp/weft.txt"
"$NODE" bench/component/node_bench.mjs "$tmp/jco" >"$tmp/node.txt"
# the checksums must agree
if ! diff <(grep check "$tmp/weft.txt") <(grep check "$tmp/node.txt") >/dev/null; then
    echo "FAIL: weft and jco disagree:"; diff <(grep check "$tmp/weft.txt") <(grep check "$tmp/node.txt"); exit 1
fi
{
    echo "# component benchmarks, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(uname -m)"
    echo "# weft $(git rev-parse --short HEAD) ($BUILD), node $("$NODE" --version), jco $("$JCO" --version 2>/dev/null | head -1)"
    printf '%-24s %14s %14s %9s\n' case "weft (us)" "jco+node (us)" "jco/weft"
    paste <(grep ' us$' "$tmp/weft.txt") <(grep ' us$' "$tmp/node.txt") |
        awk -F'\t' '{ n = split($1, a, "  +"); split($2, b, "  +");
                      w = a[2]; sub(/ us/, "", w); j = b[2]; sub(/ us/, "", j);
                      printf "%-24s %14.3f %14.3f %9.2f\n", a[1], w, j, j / w }'
} | tee "$tmp/table.txt"
if [ -n "$SAVE" ]; then
    out=bench/results/$(date -u +%Y-%m-%d-%H%M)-components.txt
    cp "$tmp/table.txt" "$out"
    echo "saved $out"
fi
