#!/usr/bin/env bash
# Tests of the `weft` command line: malformed, invalid and unlinkable
# modules given to `weft validate` and `weft run` (a one-line reason and
# the documented exit status, never a crash), --invoke, traps, limits, bad
# arguments, --help's list of WASI functions.
#
# Usage: tests/cli/run.sh [BUILD]. Ends with "N passed, N failed".
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/tests/cli
case $BUILD in /*) WEFT=$BUILD/weft ;; *) WEFT=$ROOT/$BUILD/weft ;; esac
M=$HERE/wasm
pass=0 fail=0
if [ ! -x "$WEFT" ]; then
    echo "no $WEFT: build first"
    echo "0 passed, 1 failed"
    exit 1
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/weft-cli.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# Malformed inputs made on the fly.
printf '\0asm\1\0\0\0\1\5' >"$TMP/truncated.wasm"    # a section cut short
printf 'BADMAGIC' >"$TMP/badmagic.wasm"
printf '\0asm\2\0\0\0' >"$TMP/badversion.wasm"
: >"$TMP/empty.wasm"
printf 'not a module at all, just text\n' >"$TMP/text.wasm"

# c NAME WANT_RC WANT_STDOUT STDERR_REGEX -- ARGS...
#   WANT_STDOUT: exact stdout ("" = must be empty, "*" = not checked)
#   STDERR_REGEX: "" = stderr must be empty; "1:REGEX" = exactly one line
#   matching REGEX; "REGEX" = the first line matches.
c() {
    local name=$1 want_rc=$2 want_out=$3 want_err=$4
    shift 5
    local rc why=""
    (cd "$TMP" && timeout 60 "$WEFT" "$@" </dev/null >"$TMP/out" 2>"$TMP/err")
    rc=$?
    [ "$rc" = "$want_rc" ] || why+=" exit $rc (want $want_rc);"
    if [ "$want_out" != "*" ] && [ "$(cat "$TMP/out")" != "$want_out" ]; then
        why+=" stdout [$(head -c 300 "$TMP/out")] (want [$want_out]);"
    fi
    if [ -z "$want_err" ]; then
        [ -s "$TMP/err" ] && why+=" unexpected stderr [$(head -n 3 "$TMP/err")];"
    elif [[ $want_err == 1:* ]]; then
        local lines
        lines=$(wc -l <"$TMP/err")
        [ "$lines" = 1 ] || why+=" stderr has $lines lines (want 1);"
        [[ $(head -n 1 "$TMP/err") =~ ${want_err#1:} ]] || why+=" stderr [$(head -n 1 "$TMP/err")] !~ /${want_err#1:}/;"
    else
        [[ $(head -n 1 "$TMP/err") =~ $want_err ]] || why+=" stderr [$(head -n 1 "$TMP/err")] !~ /$want_err/;"
    fi
    if [ -n "$why" ]; then
        echo "FAIL $name:$why"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}

# ---- weft validate ----
c validate-valid 0 valid "" -- validate "$M/calc.wasm"
c validate-invalid 1 "" "1:^error: .*invalid_type.wasm: invalid module: type mismatch" -- validate "$M/invalid_type.wasm"
c validate-truncated 1 "" "1:^error: .*truncated.wasm: malformed module: " -- validate truncated.wasm
c validate-badmagic 1 "" "1:^error: .*malformed module: magic header not detected" -- validate badmagic.wasm
c validate-badversion 1 "" "1:^error: .*malformed module: unknown binary version" -- validate badversion.wasm
c validate-empty 1 "" "1:^error: .*malformed module" -- validate empty.wasm
c validate-text 1 "" "1:^error: .*malformed module" -- validate text.wasm
c validate-unlinkable-is-valid 0 valid "" -- validate "$M/unlinkable.wasm"
c validate-missing-file 1 "" "1:^error: nope.wasm: .*No such file" -- validate nope.wasm
c validate-no-file 2 "" "^error: 'weft validate' needs a FILE" -- validate
c validate-two-files 2 "" "^error: 'weft validate' takes one file" -- validate a.wasm b.wasm
c validate-bad-option 2 "" "^error: unknown option '--x'" -- validate --x a.wasm

# ---- weft run: modules that cannot be loaded or linked: exit 2 ----
c run-invalid 2 "" "1:^error: .*invalid module: type mismatch" -- run "$M/invalid_type.wasm"
c run-truncated 2 "" "1:^error: .*malformed module" -- run truncated.wasm
c run-badmagic 2 "" "1:^error: .*malformed module: magic header not detected" -- run badmagic.wasm
c run-empty 2 "" "1:^error: .*malformed module" -- run empty.wasm
c run-unlinkable 2 "" '1:^error: .*link error: unknown import: "env"."missing"' -- run "$M/unlinkable.wasm"
c run-unlinkable-wasi 2 "" '1:^error: .*unknown import: "wasi_snapshot_preview1"."no_such_function"' -- run "$M/unlinkable_wasi.wasm"
c run-missing-file 2 "" "1:^error: nope.wasm: .*No such file" -- run nope.wasm
c run-no-start 2 "" "1:^error: .*exports no _start function.*--invoke" -- run "$M/no_start.wasm"
c run-shorthand 2 "" "1:^error: .*exports no _start" -- "$M/no_start.wasm"

# ---- weft run: outcomes ----
c run-hello 0 "hello from wat" "" -- run "$M/hello.wasm"
c run-hello-shorthand 0 "hello from wat" "" -- "$M/hello.wasm" extra args
c run-start-traps 134 "" "^error: trap: unreachable$" -- run "$M/start_trap.wasm"
c run-exit-in-start 3 "" "" -- run "$M/exit_in_start.wasm"
c run-dashdash 0 "hello from wat" "" -- run -- "$M/hello.wasm" --not-an-option
# --tier (docs/jit.md): the same program on either tier; a build without
# the compiler runs jit as interp.
c run-tier-interp 0 "hello from wat" "" -- run --tier interp "$M/hello.wasm"
c run-tier-jit 0 "hello from wat" "" -- run --tier jit "$M/hello.wasm"
c bad-tier 2 "" "^error: bad --tier 'fast': expected interp, jit or auto" -- run --tier fast "$M/hello.wasm"
# WEFT_JIT_STATS=1: the compiler tier's counts and sizes on stderr at exit.
if "$WEFT" --version | grep -q '^tiers: .*jit'; then
    WEFT_JIT_STATS=1 c jit-stats 0 "hello from wat" \
        "^jit: [1-9][0-9]* functions compiled, 0 left to the interpreter; [0-9.]+ KiB of wasm code in [0-9.]+ ms \([0-9.]+ MB/s\), [0-9.]+ KiB of machine code \([0-9.]+ bytes per wasm byte\)$" \
        -- run --tier jit "$M/hello.wasm"
fi
# WEFT_TIER sets the default tier (forced-jit suites); a bad one is a usage error.
WEFT_TIER=fast c bad-env-tier 2 "" "^error: bad WEFT_TIER 'fast': expected interp, jit or auto" -- run "$M/hello.wasm"

# ---- --invoke (calc.wasm has no WASI imports; WASI is linked anyway) ----
c invoke-add 0 5 "" -- run --invoke add "$M/calc.wasm" 2 3
c invoke-add-negative 0 -7 "" -- run --invoke add "$M/calc.wasm" -10 3
c invoke-add-wraps 0 -2147483648 "" -- run --invoke add "$M/calc.wasm" 2147483647 1
c invoke-add-unsigned-arg 0 -1 "" -- run --invoke add "$M/calc.wasm" 4294967295 0
c invoke-mul64 0 -12000000000 "" -- run --invoke mul64 "$M/calc.wasm" -4000000000 3
# i32.eqz of a comparison, folded into the inverse comparison (eqz_fold.wat)
c eqz-fold-ne0-64-0 0 0 "" -- run --invoke ne0_64 "$M/eqz_fold.wasm" 0
c eqz-fold-ne0-64-m9223372036854775808 0 1 "" -- run --invoke ne0_64 "$M/eqz_fold.wasm" -9223372036854775808
c eqz-fold-ne0-64-1 0 1 "" -- run --invoke ne0_64 "$M/eqz_fold.wasm" 1
c eqz-fold-br-ne0-64-0 0 7 "" -- run --invoke br_ne0_64 "$M/eqz_fold.wasm" 0
c eqz-fold-br-ne0-64-4294967296 0 9 "" -- run --invoke br_ne0_64 "$M/eqz_fold.wasm" 4294967296
c eqz-fold-not-eqz32-0 0 0 "" -- run --invoke not_eqz32 "$M/eqz_fold.wasm" 0
c eqz-fold-not-eqz32-m1 0 1 "" -- run --invoke not_eqz32 "$M/eqz_fold.wasm" -1
c eqz-fold-not-lt-s-m1-0 0 0 "" -- run --invoke not_lt_s "$M/eqz_fold.wasm" -1 0
c eqz-fold-not-lt-s-0-m1 0 1 "" -- run --invoke not_lt_s "$M/eqz_fold.wasm" 0 -1
c eqz-fold-not-lt-s-5-5 0 1 "" -- run --invoke not_lt_s "$M/eqz_fold.wasm" 5 5
c eqz-fold-br-not-lt-u64-m1-0 0 9 "" -- run --invoke br_not_lt_u64 "$M/eqz_fold.wasm" -1 0
c eqz-fold-br-not-lt-u64-0-m1 0 7 "" -- run --invoke br_not_lt_u64 "$M/eqz_fold.wasm" 0 -1
c eqz-fold-br-not-lt-u64-7-7 0 9 "" -- run --invoke br_not_lt_u64 "$M/eqz_fold.wasm" 7 7
c eqz-fold-not-gt-u-imm-10 0 1 "" -- run --invoke not_gt_u_imm "$M/eqz_fold.wasm" 10
c eqz-fold-not-gt-u-imm-11 0 0 "" -- run --invoke not_gt_u_imm "$M/eqz_fold.wasm" 11
c eqz-fold-not-gt-u-imm-m1 0 0 "" -- run --invoke not_gt_u_imm "$M/eqz_fold.wasm" -1
c eqz-fold-not-ge-s64-imm-m5 0 0 "" -- run --invoke not_ge_s64_imm "$M/eqz_fold.wasm" -5
c eqz-fold-not-ge-s64-imm-m6 0 1 "" -- run --invoke not_ge_s64_imm "$M/eqz_fold.wasm" -6
c eqz-fold-not-ge-s64-imm-4294967291 0 0 "" -- run --invoke not_ge_s64_imm "$M/eqz_fold.wasm" 4294967291
c eqz-fold-not-f64-lt-nan-1 0 1 "" -- run --invoke not_f64_lt "$M/eqz_fold.wasm" nan 1
c eqz-fold-not-f64-lt-1-2 0 0 "" -- run --invoke not_f64_lt "$M/eqz_fold.wasm" 1 2
c eqz-fold-not-f64-lt-2-1 0 1 "" -- run --invoke not_f64_lt "$M/eqz_fold.wasm" 2 1
c eqz-fold-tee-lt-s-1-2 0 10 "" -- run --invoke tee_lt_s "$M/eqz_fold.wasm" 1 2
c eqz-fold-tee-lt-s-2-1 0 1 "" -- run --invoke tee_lt_s "$M/eqz_fold.wasm" 2 1
# super-instructions: rotl by a constant (i32, i64), xor of a rotl, three-way add (fused_ops.wat)
c fused-rotl0-m2023406815 0 -2023406815 "" -- run --invoke rotl0 "$M/fused_ops.wasm" -2023406815
c fused-rotl1-m2023406815 0 248153667 "" -- run --invoke rotl1 "$M/fused_ops.wasm" -2023406815
c fused-rotl1-m1 0 -1 "" -- run --invoke rotl1 "$M/fused_ops.wasm" -1
c fused-rotl31-1 0 -2147483648 "" -- run --invoke rotl31 "$M/fused_ops.wasm" 1
c fused-rotl31-m2147483648 0 1073741824 "" -- run --invoke rotl31 "$M/fused_ops.wasm" -2147483648
c fused-rotl32-305419896 0 305419896 "" -- run --invoke rotl32 "$M/fused_ops.wasm" 305419896
c fused-rotl33-m2147483647 0 3 "" -- run --invoke rotl33 "$M/fused_ops.wasm" -2147483647
c fused-rotlm1-3 0 -2147483647 "" -- run --invoke rotlm1 "$M/fused_ops.wasm" 3
c fused-rotl64-0 0 -8526495041237530387 "" -- run --invoke rotl64_0 "$M/fused_ops.wasm" -8526495041237530387
c fused-rotl64-1 0 1393753991234490843 "" -- run --invoke rotl64_1 "$M/fused_ops.wasm" -8526495041237530387
c fused-rotl64-63 0 -4263247520618765194 "" -- run --invoke rotl64_63 "$M/fused_ops.wasm" -8526495041237530387
c fused-rotl64-65 0 1393753991234490843 "" -- run --invoke rotl64_65 "$M/fused_ops.wasm" -8526495041237530387
c fused-rotl64-m8 0 -1330343313937536952 "" -- run --invoke rotl64_m8 "$M/fused_ops.wasm" -8526495041237530387
c fused-rotl64-63-1 0 -9223372036854775808 "" -- run --invoke rotl64_63 "$M/fused_ops.wasm" 1
c fused-sigma0-1779033703 0 -836717442 "" -- run --invoke sigma0 "$M/fused_ops.wasm" 1779033703
c fused-sigma0-0 0 0 "" -- run --invoke sigma0 "$M/fused_ops.wasm" 0
c fused-xor-rotl-left-305419896-m1 0 -878082067 "" -- run --invoke xor_rotl_left "$M/fused_ops.wasm" 305419896 -1
c fused-xor-rotl-right-305419896-1431655765 0 1627598151 "" -- run --invoke xor_rotl_right "$M/fused_ops.wasm" 305419896 1431655765
c fused-xor-rotl-tee-305419896-7 0 1183502087 "" -- run --invoke xor_rotl_tee "$M/fused_ops.wasm" 305419896 7
c fused-add3-left 0 -2147483643 "" -- run --invoke add3_left "$M/fused_ops.wasm" 2147483647 1 5
c fused-add3-right 0 1 "" -- run --invoke add3_right "$M/fused_ops.wasm" -1 -1 3
c fused-add3-tee 0 18 "" -- run --invoke add3_tee "$M/fused_ops.wasm" 1 2 3
# v128 as wasmtime writes it: one 0x-hex number, lane 0 in the lowest digits
c invoke-v128 0 0x00000004000000030000000200000011 "" -- run --invoke add "$M/simd.wasm" \
    0x00000004000000030000000200000001 0x10
c invoke-v128-mixed 0 "$(printf '2.5\n0x3fc000003fc000003fc000003fc00000\n12')" "" -- \
    run --invoke mix "$M/simd.wasm" 5 0x00000007000000000000000000000000 2.5
c invoke-v128-bad 2 "" "1:^error: " -- run --invoke add "$M/simd.wasm" 0xg 1
c simd-off 2 "" "1:SIMD is turned off" -- run -W simd=n --invoke add "$M/simd.wasm" 1 2
c invoke-f64 0 0.5 "" -- run --invoke half "$M/calc.wasm" 1
# Wasm 3.0 features (issue 24): extended constant expressions are on by
# default and -W extended-const=n turns them off; a feature weft lacks is
# refused with =y and accepted with =n.
c extconst 0 42 "" -- run --invoke get "$M/extconst.wasm"
c extconst-data 0 42 "" -- run --invoke byte "$M/extconst.wasm"
c extconst-y 0 42 "" -- run -W extended-const=y --invoke get "$M/extconst.wasm"
c extconst-off 2 "" "1:invalid module: unknown global 0" -- \
    run -W extended-const=n --invoke get "$M/extconst.wasm"
c validate-extconst 0 valid "" -- validate "$M/extconst.wasm"
# Tail calls (Wasm 3.0, on by default): a million mutual return_calls run
# in a 1 MiB stack, where the same chain of plain calls exhausts it; one
# through a table; one to a host function, whose result is the caller's.
c tailcall-even 0 1 "" -- run --max-stack 1M --invoke even "$M/tailcall.wasm" 1000000
c tailcall-odd 0 1 "" -- run --max-stack 1M --invoke odd "$M/tailcall.wasm" 1000001
c tailcall-indirect 0 1 "" -- run --max-stack 1M --invoke even_indirect "$M/tailcall.wasm" 1000000
c tailcall-plain-calls 134 "" "^error: trap: call stack exhausted" -- \
    run --max-stack 1M --invoke even_call "$M/tailcall.wasm" 1000000
c tailcall-host 0 28 "" -- run --invoke host_tail "$M/tailcall.wasm"
c tailcall-y 0 1 "" -- run -W tail-call=y --invoke even "$M/tailcall.wasm" 10
c tailcall-off 2 "" "1:malformed module: illegal opcode 0x12" -- run -W tail-call=n --invoke even "$M/tailcall.wasm" 10
# A C program built with clang -mtail-call (tests/cli/src/tailcall_c.c):
# a bytecode loop threaded with musttail through a handler table
# (return_call_indirect) and mutual recursion (return_call), millions of
# calls deep in a 1 MiB stack; node (V8) prints the same. Refused whole
# with tail calls off.
c tailcall-c 0 "vm: 4000002 steps, acc 555548
even(3000001) = 0" "" -- run --max-stack 1M "$M/tailcall_c.wasm" 3000001
c tailcall-c-off 2 "" "malformed module: illegal opcode 0x1[23]" -- run -W tail-call=n "$M/tailcall_c.wasm"
# Every Wasm 3.0 feature but GC is built in: =y, =n and the bare key are
# accepted.
for key in tail-call function-references exceptions multi-memory memory64 relaxed-simd; do
    c "feature-$key=y" 0 42 "" -- run -W "$key=y" --invoke get "$M/extconst.wasm"
    c "feature-$key=n" 0 42 "" -- run -W "$key=n" --invoke get "$M/extconst.wasm"
    c "feature-$key" 0 42 "" -- run -W "$key" --invoke get "$M/extconst.wasm"
done
# Relaxed SIMD: on by default (weft's fused madd: 2^-37, docs/simd.md);
# -W relaxed-simd=n makes its opcodes illegal.
c relaxed 0 754974720 "" -- run --invoke madd_lane "$M/relaxed.wasm"
c relaxed-y 0 754974720 "" -- run -W relaxed-simd=y --invoke madd_lane "$M/relaxed.wasm"
c relaxed-off 2 "" "1:illegal opcode 0xfd 261" -- run -W relaxed-simd=n --invoke madd_lane "$M/relaxed.wasm"
# A memory64 guest (tests/cli/src/mem64.c, clang --target=wasm64): 64-bit
# pointers, a hash table of 100,000 entries in memory grown with an i64
# page count, pointer arithmetic past 4 GiB and back, and a load past
# 4 GiB trapping (weft gives a 64-bit memory at most 4 GiB - 64 KiB).
c mem64-ptr-size 0 8 "" -- run --invoke ptr_size "$M/mem64.wasm"
c mem64-table 0 4999950000 "" -- run --invoke table "$M/mem64.wasm" 100000
c mem64-pages 0 2 "" -- run --invoke pages "$M/mem64.wasm"
c mem64-round-trip 0 90 "" -- run --invoke round_trip "$M/mem64.wasm"
c mem64-peek 0 0 "" -- run --invoke peek "$M/mem64.wasm" 100
c mem64-peek-4g 134 "" "^error: trap: out of bounds memory access" -- run --invoke peek "$M/mem64.wasm" 4294967296
c mem64-peek-top 134 "" "^error: trap: out of bounds memory access" -- run --invoke peek "$M/mem64.wasm" -1
c mem64-off 2 "" "1:malformed module: integer too large" -- run -W memory64=n --invoke ptr_size "$M/mem64.wasm"
# WASI on a 64-bit memory 0 is refused at the call.
c wasi-mem64 134 "" "^error: trap: WASI needs a 32-bit memory 0 \(fd_write called with a 64-bit memory 0\)" -- \
    run "$M/wasi_mem64.wasm"
c feature-bad-value 2 "" "^error: bad value 'maybe' for '-W tail-call': expected y or n" -- run -W tail-call=maybe x.wasm
c invoke-f64-big 0 50000000000000000000 "" -- run --invoke half "$M/calc.wasm" 1e20
c invoke-f64-small 0 0.00000005 "" -- run --invoke half "$M/calc.wasm" 1e-7
c invoke-f64-negzero 0 -0 "" -- run --invoke half "$M/calc.wasm" -0
c invoke-f64-nan 0 NaN "" -- run --invoke half "$M/calc.wasm" nan
c invoke-f64-inf 0 -inf "" -- run --invoke half "$M/calc.wasm" -inf
c invoke-f32 0 0.33333334 "" -- run --invoke third32 "$M/calc.wasm" 1
c invoke-multi 0 "$(printf '3\n2')" "" -- run --invoke divmod "$M/calc.wasm" 17 5
c invoke-no-results 0 "" "" -- run --invoke nothing "$M/calc.wasm"
c invoke-plain-module 0 7 "" -- run --invoke f "$M/no_start.wasm"
c invoke-missing-export 2 "" "1:^error: .*no exported function named 'nope'" -- run --invoke nope "$M/calc.wasm"
c invoke-too-few 2 "" "1:^error: 'add' takes 2 arguments, 1 given" -- run --invoke add "$M/calc.wasm" 2
c invoke-bad-value 2 "" "1:^error: argument 2 of 'add': 'x' is not a valid i32" -- run --invoke add "$M/calc.wasm" 2 x
c invoke-i32-out-of-range 2 "" "1:not a valid i32" -- run --invoke add "$M/calc.wasm" 4294967296 0
c invoke-trap 134 "" "^error: trap: integer divide by zero$" -- run --invoke crash "$M/calc.wasm" 0
# Exceptions (Wasm 3.0, the legacy form C++ toolchains emit): caught by
# tag through three frames, a cleanup that rethrows, then an uncaught one
# ends the run like a trap, naming its tag, with the throw's backtrace
# (_start, function 5, threw it).
c exceptions-uncaught 134 "caught int_error 42 through three frames
cleanup, rethrow
caught the rethrown int_error
throwing str_error, nobody catches it" '^error: uncaught exception: tag \$str_error$' -- run "$M/exceptions.wasm"
if [ "$(sed -n 2p "$TMP/err")" = "  0: func 5 at 0x111" ] && [ "$(wc -l <"$TMP/err")" -eq 2 ]; then
    pass=$((pass + 1))
else
    echo "FAIL exceptions-uncaught-backtrace: stderr [$(cat "$TMP/err")]"
    fail=$((fail + 1))
fi
c exceptions-off 2 "" "malformed module: malformed section id 13" -- run -W exceptions=n "$M/exceptions.wasm"
c invoke-stack-exhausted 134 "" "^error: trap: call stack exhausted$" -- run --invoke recurse "$M/calc.wasm" 0
c invoke-small-stack 134 "" "^error: trap: call stack exhausted$" -- run --max-stack 64K --invoke recurse "$M/calc.wasm" 0
c max-memory-unlimited 0 1 "" -- run --invoke grow "$M/calc.wasm" 10
c max-memory-capped 0 -1 "" -- run --max-memory 192K --invoke grow "$M/calc.wasm" 10
c max-memory-room 0 1 "" -- run --max-memory=1M --invoke grow "$M/calc.wasm" 2

# The backtrace: one line per frame, innermost first, with names.
(cd "$TMP" && "$WEFT" run --invoke crash "$M/calc.wasm" 0 >/dev/null 2>"$TMP/bt")
if sed -n 2p "$TMP/bt" | grep -Eq '^  0: func [0-9]+ <inner> at 0x[0-9a-f]+$' &&
    sed -n 3p "$TMP/bt" | grep -Eq '^  1: func [0-9]+ <outer> at 0x[0-9a-f]+$' &&
    sed -n 4p "$TMP/bt" | grep -Eq '^  2: func [0-9]+( <[^>]*>)? at 0x[0-9a-f]+$'; then
    pass=$((pass + 1))
else
    echo "FAIL backtrace:"; sed 's/^/    /' "$TMP/bt"; fail=$((fail + 1))
fi

# ---- tail duplication (src/compile/taildup.c; taildup.wat) ----
TD=$M/taildup.wasm
# A switch loop whose cases end in copies of the dispatch.
c taildup-run-1 0 86 "" -- run --invoke run "$TD" 0 1
c taildup-run-1000 0 1559268672 "" -- run --invoke run "$TD" 0 1000
# Fuel counts the wasm back-edges taken, whatever the pass did: one per
# VM instruction but the halt (its `br $top`, a SAFE_POINT in its case's
# copy of the dispatch), 4n for n loops; the br_table and the brs to the
# end of the switch go forward and count nothing, with or without the
# pass.
c taildup-fuel-enough 0 1559268672 "" -- run --fuel 4000 --invoke run "$TD" 0 1000
c taildup-fuel-short 134 "" "^error: trap: all fuel consumed$" -- run --fuel 3999 --invoke run "$TD" 0 1000
# A trap in a copy names the instruction copied: the dispatch's
# i32.load8_u at 0x73, reached through a case's copy (program at 16) and
# in the original dispatch (a first pc outside memory) alike.
for start in 16 70000; do
    (cd "$TMP" && "$WEFT" run --invoke run "$TD" "$start" 1 >/dev/null 2>"$TMP/bt")
    if [ "$(cat "$TMP/bt")" = "$(printf 'error: trap: out of bounds memory access\n  0: func 0 <run> at 0x73')" ]; then
        pass=$((pass + 1))
    else
        echo "FAIL taildup-trap-offset-$start:"; sed 's/^/    /' "$TMP/bt"; fail=$((fail + 1))
    fi
done
# br_table entries through stubs whose brs became copies.
c taildup-pick-0 0 1042 "" -- run --invoke pick "$TD" 0 21
c taildup-pick-1 0 35 "" -- run --invoke pick "$TD" 1 21
c taildup-pick-2 0 1042 "" -- run --invoke pick "$TD" 2 21
c taildup-pick-default 0 1042 "" -- run --invoke pick "$TD" 9 21
# A br to an unreachable: the copy traps at the unreachable (0xfb), not
# at the br (0xf8).
c taildup-fail-no 0 5 "" -- run --invoke fail "$TD" 0
(cd "$TMP" && "$WEFT" run --invoke fail "$TD" 1 >/dev/null 2>"$TMP/bt")
if [ "$(cat "$TMP/bt")" = "$(printf 'error: trap: unreachable\n  0: func 2 <fail> at 0xfb')" ]; then
    pass=$((pass + 1))
else
    echo "FAIL taildup-fail-offset:"; sed 's/^/    /' "$TMP/bt"; fail=$((fail + 1))
fi
# Cycles of brs still stop: fuel and a timeout, at their taken branches.
c taildup-spin-fuel 134 "" "^error: trap: all fuel consumed$" -- run --fuel 1000 --invoke spin "$TD"
c taildup-spin-timeout 124 "" "^error: timeout: " -- run --timeout 300ms --invoke spin "$TD"
c taildup-spin2-fuel 134 "" "^error: trap: all fuel consumed$" -- run --fuel 1000 --invoke spin2 "$TD"
c taildup-spin2-timeout 124 "" "^error: timeout: " -- run --timeout 300ms --invoke spin2 "$TD"
# The pass ran: every case of run ends in its own br_table and no br is
# left (weft-disasm, beside weft, when the build has it).
DISASM=$(dirname "$WEFT")/weft-disasm
if [ -x "$DISASM" ]; then
    "$DISASM" "$TD" 0 >"$TMP/dis"
    if [ "$(grep -c ' BR_TABLE ' "$TMP/dis")" = 7 ] && ! grep -q ' BR ' "$TMP/dis"; then
        pass=$((pass + 1))
    else
        echo "FAIL taildup-disasm:"; sed 's/^/    /' "$TMP/dis"; fail=$((fail + 1))
    fi
fi

# ---- bad arguments: exit 2 with a clear message ----
c no-arguments 2 "" "weft .* a WebAssembly runtime" --
c unknown-command 2 "" "^error: unknown command 'frob'" -- frob
c unknown-option 2 "" "^error: unknown option '--bogus' for 'weft run'" -- run --bogus x.wasm
c dir-needs-value 2 "" "^error: option '--dir' needs a value" -- run --dir
c run-needs-file 2 "" "^error: 'weft run' needs a FILE.wasm" -- run
c bad-max-stack 2 "" "^error: bad --max-stack '12q'" -- run --max-stack 12q x.wasm
c bad-max-memory 2 "" "^error: bad --max-memory '0'" -- run --max-memory 0 x.wasm
c bad-env 2 "" "^error: bad --env '=x'" -- run --env =x x.wasm
c bad-listen 2 "" "^error: bad --listen 'nope'" -- run --listen nope x.wasm
c bad-sched 2 "" "^error: bad --sched 'fast': expected os or pool" -- run --sched fast x.wasm
c bad-seed 2 "" "^error: bad --deterministic 'x1': expected a seed" -- run --deterministic x1 x.wasm
c bad-explore 2 "" "^error: bad --explore '0': expected a number of runs" -- run --explore 0 x.wasm
c det-and-os 2 "" "^error: --deterministic runs on a scheduler of its own" -- run --deterministic 1 --sched os "$ROOT/tests/threads/wasm/mutex_counter.wasm"
c bad-runners 2 "" "^error: bad --runners '0'" -- run --runners 0 x.wasm
c bad-max-threads 2 "" "^error: bad --max-threads '100001'" -- run --max-threads 100001 x.wasm
c bad-dir-spec 2 "" "1:^error: bad --dir '::guest'" -- run --dir ::guest "$M/hello.wasm"
c missing-dir 2 "" "1:^error: cannot open directory '/nonexistent-weft-dir'" -- run --dir /nonexistent-weft-dir "$M/hello.wasm"
c version 0 "*" "" -- --version
# --version: the version first, then the features compiled in.
ver=$(sed -n 's/^#define WEFT_VERSION "\(.*\)"/\1/p' "$ROOT/include/weft.h")
"$WEFT" --version >"$TMP/ver"
if [ "$(head -n 1 "$TMP/ver")" = "weft $ver" ] && grep -q '^features: .*threads.*wasm-3.0 (extended-const, multi-memory, memory64, tail-call, exceptions, function-references, relaxed-simd).*wasi-preview1.*fuel timeout' "$TMP/ver" &&
    grep -q '^not built in: gc, ' "$TMP/ver"; then
    pass=$((pass + 1))
else
    echo "FAIL version-features: $(tr '\n' '|' <"$TMP/ver")"; fail=$((fail + 1))
fi
c run-help 0 "*" "" -- run --help
c help 0 "*" "" -- --help

# ---- --help lists exactly the WASI functions of the table ----
expected_funcs="args_get args_sizes_get clock_res_get clock_time_get environ_get
environ_sizes_get fd_advise fd_allocate fd_close fd_datasync fd_fdstat_get
fd_fdstat_set_flags fd_fdstat_set_rights fd_filestat_get fd_filestat_set_size
fd_filestat_set_times fd_pread fd_prestat_dir_name fd_prestat_get fd_pwrite
fd_read fd_readdir fd_renumber fd_seek fd_sync fd_tell fd_write
path_create_directory path_filestat_get path_filestat_set_times path_link
path_open path_readlink path_remove_directory path_rename path_symlink
path_unlink_file poll_oneoff proc_exit proc_raise random_get sched_yield
sock_accept sock_recv sock_send sock_shutdown"
listed=$("$WEFT" --help | sed -n '/^WASI functions implemented/,/^$/p' | tail -n +3 | tr ' ' '\n' |
    sed 's/\*$//' | grep -v '^$' | LC_ALL=C sort)
want=$(tr ' ' '\n' <<<"$expected_funcs" | grep -v '^$' | LC_ALL=C sort)
if [ "$listed" = "$want" ]; then
    pass=$((pass + 1))
else
    echo "FAIL help-wasi-list: differs from the preview1 list (< missing from --help, > extra):"
    diff <(echo "$want") <(echo "$listed") | grep '^[<>]' | sed 's/^/    /'
    fail=$((fail + 1))
fi
# ... and each listed function is really registered (the list and the
# registration share one table): a module importing it with a wrong type
# gets a type mismatch, never "unknown import".
if command -v wat2wasm >/dev/null; then
    missing=0
    for f in $listed; do
        printf '(module (import "wasi_snapshot_preview1" "%s" (func (param i32 i32 i32 i32 i32 i32 i32 i32 i32 i32))))' "$f" >"$TMP/probe.wat"
        wat2wasm -o "$TMP/probe.wasm" "$TMP/probe.wat" 2>/dev/null || continue
        "$WEFT" run --invoke x "$TMP/probe.wasm" 2>"$TMP/perr" >/dev/null
        if grep -q 'unknown import' "$TMP/perr"; then echo "    $f: not registered"; missing=1; fi
    done
    if [ "$missing" = 0 ]; then pass=$((pass + 1)); else echo "FAIL help-wasi-registered"; fail=$((fail + 1)); fi
fi

# ---- never a crash: every prefix of a valid module (prefixes that end on
# a section boundary are valid modules themselves; none has a _start) ----
size=$(wc -c <"$M/calc.wasm")
bad=0
for n in $(seq 0 $((size - 1))); do
    head -c "$n" "$M/calc.wasm" >"$TMP/prefix.wasm"
    "$WEFT" validate "$TMP/prefix.wasm" >"$TMP/pout" 2>"$TMP/perr"
    rc=$?
    if ! { [ "$rc" = 1 ] && [ "$(wc -l <"$TMP/perr")" = 1 ]; } &&
        ! { [ "$rc" = 0 ] && [ "$(cat "$TMP/pout")" = valid ]; }; then
        echo "    prefix $n: validate exit $rc: $(head -n 2 "$TMP/perr")"; bad=1
    fi
    "$WEFT" run "$TMP/prefix.wasm" >/dev/null 2>"$TMP/perr"
    rc=$?
    if [ "$rc" != 2 ]; then echo "    prefix $n: run exit $rc"; bad=1; fi
done
if [ "$bad" = 0 ]; then pass=$((pass + 1)); else echo "FAIL prefixes"; fail=$((fail + 1)); fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
