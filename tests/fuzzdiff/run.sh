#!/usr/bin/env bash
# The differential fuzzer's regression test (fuzz/README.md, target diff/):
# runs BUILD/fuzz/diff-exec on each module of fuzz/corpus/diff/ and
# compares its output with NAME.expected beside it, which node's V8 wrote
# (fuzz/diff/exec.mjs), never weft. One test per module; node is not
# needed. The modules are small `wasm-opt -ttf` outputs made with --denan
# (so no NaN payload, which the spec leaves open, reaches their output),
# eh-binaryen119 by binaryen 119 with exception handling (an exception
# leaves an export), and exceptions-v128, written by hand (its .wat is
# beside it) for what the drivers print for exceptions and for V8's v128
# TypeError, with the rethrow and delegate binaryen does not make;
# exnref-table and atomic-unaligned-oob, written by hand after findings in
# binaryen 132's modules (their .wat beside them, assembled by binaryen
# 132's wasm-as; their .expected from node 24); multi-memory, a --denan
# module of the multi-memory mix (binaryen 132 from the first 400 bytes of
# an input, --initial-fuzz=fuzz/diff/multi-memory.wat), whose output hashes
# two exported memories;
# each mismatch fuzz/diff/run finds belongs here too, minimized. To add one:
#   cp MODULE.wasm fuzz/corpus/diff/NAME.wasm
#   cd fuzz/corpus/diff && node ../../diff/exec.mjs NAME.wasm > NAME.expected
#
# Each module runs on both of weft's tiers (the interpreter, and the
# compiler tier with --tier jit: docs/jit.md), each against V8's output.
#
# Then, if node and wasm-opt are installed, a short fresh differential
# batch (fuzz/diff/run -n 30 -s 1) whose modules count as tests too;
# without them that part is skipped (one skip) with the reason.
set -u
BUILD=${1:-build}
cd "$(dirname "$0")/../.."
bin=$(cd "$BUILD" 2>/dev/null && pwd)/fuzz/diff-exec
pass=0 fail=0 skip=0
if [ ! -x "$bin" ]; then
    echo "FAIL: $BUILD/fuzz/diff-exec not built"
    echo "0 passed, 1 failed"
    exit 1
fi

for m in fuzz/corpus/diff/*.wasm; do
    name=$(basename "$m" .wasm)
    if [ ! -f "fuzz/corpus/diff/$name.expected" ]; then
        echo "FAIL $name: no $name.expected"; fail=$((fail + 1)); continue
    fi
    for tier in interp jit; do
        if out=$(cd fuzz/corpus/diff && "$bin" --tier $tier "$name.wasm" 2>&1) &&
            [ "$out" = "$(cat "fuzz/corpus/diff/$name.expected")" ]; then
            pass=$((pass + 1))
        else
            echo "FAIL $name ($tier): weft's output differs from V8's (< weft > V8):"
            diff <(printf '%s\n' "$out") "fuzz/corpus/diff/$name.expected" | head -n 10
            fail=$((fail + 1))
        fi
    done
done
echo "corpus: $pass passed, $fail failed"

missing=""
for tool in node wasm-opt; do command -v $tool >/dev/null || missing+=" $tool"; done
if [ -n "$missing" ]; then
    echo "skip fresh differential batch:$missing not installed"
    skip=1
else
    out=$(bash fuzz/diff/run -n 30 -s 1 "$BUILD" 2>&1)
    printf '%s\n' "$out" | grep -v -E '^[0-9]+ passed, [0-9]+ failed$'
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
    if [ -n "$line" ]; then
        pass=$((pass + ${line%% passed*}))
        f=${line#*passed, }
        fail=$((fail + ${f%% failed*}))
    else
        echo "FAIL fresh batch: fuzz/diff/run ended without a summary"
        fail=$((fail + 1))
    fi
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
