#!/usr/bin/env bash
# The wasm.h suite: runs the test programs of tests/capi (built by `make`
# into BUILD/tests-capi: types_test, calls_test, threads_test) and the
# example host of docs/capi.md (examples/capi_host.c), then checks
# the header as a whole: every function include/wasm.h declares is
# exported by libweft.so and called by at least one test program (read
# from the preprocessed sources, so calls made through the tests' macros
# count). tests/capi/upstream.sh runs wasm-c-api's own examples (not part
# of this suite: they are not ours to commit).
#
# Usage: tests/capi/run.sh [BUILD]. Ends with "N passed, N failed".
set -u
BUILD=${1:-build}
cd "$(dirname "$0")/../.." || exit 1
pass=0 fail=0

for t in tests/capi/*_test.c; do
    name=$(basename "$t" .c)
    bin=$BUILD/tests-capi/$name
    if [ ! -x "$bin" ]; then
        echo "FAIL $name: $bin not built"
        fail=$((fail + 1))
        continue
    fi
    out=$("$bin" 2>&1)
    rc=$?
    printf '%s\n' "$out" | grep -v -E '^[0-9]+ passed, [0-9]+ failed$'
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
    if [ -z "$line" ]; then
        echo "FAIL $name ended without a summary (exit $rc)"
        fail=$((fail + 1))
        continue
    fi
    p=${line%% passed*}
    f=${line#*passed, }
    f=${f%% failed*}
    pass=$((pass + p))
    fail=$((fail + f))
    [ "$rc" -eq 0 ] || [ "$f" -ne 0 ] || { echo "FAIL $name: exit $rc"; fail=$((fail + 1)); }
    echo "$name: $line"
done

# The whole host of docs/capi.md (examples/capi_host.c): runs its guest,
# names a missing import, refuses a file that is no module.
host=$BUILD/examples/capi_host
if [ -x "$host" ]; then
    out=$("$host" examples/capi_guest.wasm 2>&1); rc=$?
    want=$'[log] hello from the guest\nand a line through WASI'
    if [ "$rc" -eq 0 ] && [ "$out" = "$want" ]; then pass=$((pass + 1)); else
        echo "FAIL capi_host capi_guest.wasm: exit $rc, printed [$out]"; fail=$((fail + 1))
    fi
    out=$("$host" tests/capi/wasm/wasi.wasm 2>&1); rc=$?
    if [ "$rc" -eq 1 ] && grep -q 'import 1 (env.note): missing' <<<"$out"; then pass=$((pass + 1)); else
        echo "FAIL capi_host wasi.wasm: exit $rc, printed [$out]"; fail=$((fail + 1))
    fi
    out=$("$host" README.md 2>&1); rc=$?
    if [ "$rc" -eq 2 ] && grep -q 'README.md: ' <<<"$out"; then pass=$((pass + 1)); else
        echo "FAIL capi_host README.md: exit $rc, printed [$out]"; fail=$((fail + 1))
    fi
else
    echo "FAIL $host not built"; fail=$((fail + 1))
fi

# The component host of docs/components.md (examples/component_host.c):
# its functions and resource served to examples/component_guest.wasm,
# results in WAVE on stdout, the host's log and destructor on stderr.
chost=$BUILD/examples/component_host
if [ -x "$chost" ]; then
    out=$("$chost" examples/component_guest.wasm 'greet("world")' 'count(10, 3)' 'sum-host([1, 2, 3])' 2>"$BUILD/chost.err"); rc=$?
    want=$'"WORLD"\n13\n6'
    werr=$'[log] world\n[counter 0 dropped at 13]'
    if [ "$rc" -eq 0 ] && [ "$out" = "$want" ] && [ "$(cat "$BUILD/chost.err")" = "$werr" ]; then pass=$((pass + 1)); else
        echo "FAIL component_host: exit $rc, printed [$out] [$(cat "$BUILD/chost.err")]"; fail=$((fail + 1))
    fi
    out=$("$chost" examples/component_guest.wasm 'take(1)' 2>&1); rc=$?
    if [ "$rc" -eq 1 ] && grep -q 'own<counter> has no WAVE form' <<<"$out"; then pass=$((pass + 1)); else
        echo "FAIL component_host take(1): exit $rc, printed [$out]"; fail=$((fail + 1))
    fi
    rm -f "$BUILD/chost.err"
else
    echo "FAIL $chost not built"; fail=$((fail + 1))
fi

# docs/capi.md shows that host whole: the block is the file.
if diff -q <(awk '/^<!-- capi_host.c:/ {on = 1; next} on && /^```c$/ {inside = 1; next}
        inside && /^```$/ {exit} inside' docs/capi.md) examples/capi_host.c >/dev/null; then
    pass=$((pass + 1))
else
    echo "FAIL docs/capi.md's host is not examples/capi_host.c"; fail=$((fail + 1))
fi

# The header's functions (its static inline shorthands aside).
declared=$(cc -E -P -Iinclude include/wasm.h | tr ';' '\n' | grep 'visibility("default")' |
    grep -oE '\bwasm_[a-z0-9_]+[[:space:]]*\(' | tr -d '( ' | sort -u)
ndecl=$(wc -l <<<"$declared")
if [ "$ndecl" -lt 250 ]; then
    echo "FAIL only $ndecl functions found in include/wasm.h"
    fail=$((fail + 1))
fi
if [ -f "$BUILD/libweft.so" ]; then
    exported=$(nm -D --defined-only "$BUILD/libweft.so" | awk '{print $3}' | sort -u)
    missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
    if [ -z "$missing" ]; then pass=$((pass + 1)); else
        echo "FAIL declared in wasm.h but not exported by libweft.so: $(echo $missing)"
        fail=$((fail + 1))
    fi
else
    echo "FAIL no $BUILD/libweft.so"
    fail=$((fail + 1))
fi
used=$(for t in tests/capi/*_test.c; do
    cc -E -Iinclude -D_GNU_SOURCE "$t" | awk '/^# [0-9]+ "/ { keep = ($3 ~ /tests\/capi\//); next } keep'
done | grep -oE '\bwasm_[a-z0-9_]+\b' | sort -u)
untested=$(comm -23 <(echo "$declared") <(echo "$used"))
if [ -z "$untested" ]; then
    pass=$((pass + 1))
    echo "all $ndecl functions of wasm.h are exported and called by the tests"
else
    echo "FAIL functions of wasm.h no test calls: $(echo $untested)"
    fail=$((fail + 1))
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
