#!/usr/bin/env bash
# wasmtime's option spellings (docs/cli.md, "wasmtime's spellings"): each
# one is run against weft's own spelling of the same option and must give
# the same result (probe.wasm prints argv, the environment and the fds it
# was given); the wasmtime options weft lacks are refused by name with
# what to use instead (exit 2); and the table in docs/cli.md, `weft
# --help` and this test list the same spellings.
#
# Usage: tests/compat/run.sh [BUILD]. Ends with "N passed, N failed".
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case $BUILD in /*) WEFT=$BUILD/weft ;; *) WEFT=$ROOT/$BUILD/weft ;; esac
P=$ROOT/tests/compat/wasm/probe.wasm
C=$ROOT/tests/cli/wasm
L=$ROOT/tests/limits/wasm
T=$ROOT/tests/threads/wasm
pass=0 fail=0
if [ ! -x "$WEFT" ]; then
    echo "no $WEFT: build first"
    echo "0 passed, 1 failed"
    exit 1
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/weft-compat.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/data"

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

# run OUTFILE ARGS...: weft in an empty environment (plus what the caller
# puts before it with env), in $TMP; the exit status goes on the last line.
run() {
    local out=$1
    shift
    local pre=()
    while [[ $1 =~ ^[A-Z_]+= ]]; do pre+=("$1"); shift; done
    [ "$1" = "$WEFT" ] || set -- "$WEFT" "$@"
    (cd "$TMP" && timeout 60 env -i WEFT_T=1 "${pre[@]}" "$@" </dev/null >"$out" 2>"$out.err"; echo "exit $?" >>"$out")
}

# same NAME WANT_REGEX -- WASMTIME_ARGS... -- WEFT_ARGS...: both spellings
# give the same stdout and status, and it matches WANT_REGEX (grep -E,
# every line of it must be found).
same() {
    local name=$1 want=$2
    shift 3
    local a=() b=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do a+=("$1"); shift; done
    shift
    b=("$@")
    run "$TMP/a" "${a[@]}"
    run "$TMP/b" "${b[@]}"
    tested+=("$name")
    if ! cmp -s "$TMP/a" "$TMP/b"; then
        bad "$name: '${a[*]}' and '${b[*]}' differ:"
        diff "$TMP/a" "$TMP/b" | head -n 6 | sed 's/^/    /'
        return
    fi
    local line miss=""
    while IFS= read -r line; do
        grep -Eq -- "$line" "$TMP/a" || miss+=" [$line]"
    done <<<"$want"
    if [ -n "$miss" ]; then
        bad "$name: output lacks$miss: $(tr '\n' '|' <"$TMP/a" | head -c 300) $(head -n 2 "$TMP/a.err")"
    else
        ok
    fi
}

# refused NAME STDERR_REGEX ARGS...: exit 2, one line naming the option.
refused() {
    local name=$1 want=$2
    shift 2
    (cd "$TMP" && "$WEFT" "$@" </dev/null >"$TMP/r.out" 2>"$TMP/r.err")
    local rc=$?
    if [ "$rc" = 2 ] && [[ $(head -n 1 "$TMP/r.err") =~ $want ]] && [ ! -s "$TMP/r.out" ]; then ok; else
        bad "refused $name: exit $rc, stderr [$(head -n 1 "$TMP/r.err")] (want 2 and /$want/)"
    fi
}

tested=()

# ---- spelled the same as weft's ----
same "--dir HOST::GUEST" '^fd 3: preopen /data$' -- run --dir data::/data "$P" -- run --dir=data::/data "$P"
same "--env NAME=VAL" '^env A=1$
^env B=x=y$' -- run --env A=1 --env B=x=y "$P" -- run --env=A=1 --env=B=x=y "$P"
same "--env NAME" '^env FROM_HOST=h$' -- FROM_HOST=h "$WEFT" run --env FROM_HOST "$P" -- \
    FROM_HOST=h "$WEFT" run --env FROM_HOST=h "$P"
same "--invoke NAME" '^5$
^exit 0$' -- run --invoke add "$C/calc.wasm" 2 3 -- run --invoke=add "$C/calc.wasm" 2 3
same "--argv0 NAME" '^argv\[0\]=myname$
^argv\[1\]=x$' -- run --argv0 myname "$P" x -- run --argv0=myname "$P" x

# ---- -S ----
same "-S inherit-env" '^env WEFT_T=1$
^env K=v$
^env E=2$' -- K=v "$WEFT" run -S inherit-env --env E=2 "$P" -- K=v "$WEFT" run --inherit-env --env E=2 "$P"
# (=n and the other spellings of the flag)
same "-S inherit-env=n" '^exit 0$' -- K=v "$WEFT" run -S inherit-env=n "$P" -- K=v "$WEFT" run "$P"
same "--wasi inherit-env=yes" '^env K=v$' -- K=v "$WEFT" run --wasi inherit-env=yes "$P" -- \
    K=v "$WEFT" run -Sinherit-env "$P"
if grep -q '^env K=v' "$TMP/a" && ! grep -q 'env K=v' <(K=v "$WEFT" run -S inherit-env=n "$P"); then ok; else
    bad "-S inherit-env=n still passes the environment"
fi
same "-S tcplisten=ADDR" '^fd 4: filetype 6$' -- run --dir data -S tcplisten=127.0.0.1:0 "$P" -- \
    run --dir data --listen 127.0.0.1:0 "$P"
same "-S threads" '^exit 0$' -- run -S threads "$T/join.wasm" -- run "$T/join.wasm"
same "-S cli" '^hello from wat$' -- run -S cli "$C/hello.wasm" -- run "$C/hello.wasm"
same "-S preview2" '^hello from wat$' -- run -S preview2 "$C/hello.wasm" -- run "$C/hello.wasm"
# wasi:sockets' keys: a module has no use for them and runs as without
same "-S inherit-network" '^hello from wat$' -- run -S inherit-network "$C/hello.wasm" -- run "$C/hello.wasm"
same "-S allow-ip-name-lookup" '^hello from wat$' -- run -S allow-ip-name-lookup=y "$C/hello.wasm" -- run "$C/hello.wasm"
same "-S tcp" '^hello from wat$' -- run -S tcp=n "$C/hello.wasm" -- run "$C/hello.wasm"
same "-S udp" '^hello from wat$' -- run -S udp=n,udp "$C/hello.wasm" -- run "$C/hello.wasm"
same "-S list" '^env K=v$
^fd 3: filetype 6$' -- K=v "$WEFT" run -S inherit-env,tcplisten=127.0.0.1:0,cli "$P" -- \
    K=v "$WEFT" run --inherit-env --listen 127.0.0.1:0 "$P"

# ---- -W ----
same "-W max-memory-size=N" '^-1$' -- run -W max-memory-size=196608 --invoke grow "$C/calc.wasm" 10 -- \
    run --max-memory 192K --invoke grow "$C/calc.wasm" 10
same "-W max-memory-size=N (room)" '^1$' -- run -W max-memory-size=1048576 --invoke grow "$C/calc.wasm" 2 -- \
    run --max-memory 1M --invoke grow "$C/calc.wasm" 2
same "-W max-wasm-stack=N" '^exit 134$' -- run -W max-wasm-stack=65536 --invoke recurse "$C/calc.wasm" 0 -- \
    run --max-stack 64K --invoke recurse "$C/calc.wasm" 0
grep -q 'call stack exhausted' "$TMP/a.err" && ok || bad "-W max-wasm-stack: no 'call stack exhausted'"
same "-W timeout=DURATION" '^exit 124$' -- run -W timeout=300ms "$L/spin.wasm" -- run --timeout 300ms "$L/spin.wasm"
same "-W fuel=N" '^exit 134$' -- run -W fuel=98 --invoke loop_n "$L/count.wasm" 100 -- \
    run --fuel 98 --invoke loop_n "$L/count.wasm" 100
same "-W fuel=N (enough)" '^100$' -- run -W fuel=99 --invoke loop_n "$L/count.wasm" 100 -- \
    run --fuel 99 --invoke loop_n "$L/count.wasm" 100
same "-W list" '^exit 134$' -- run -W timeout=30s,fuel=98 --invoke loop_n "$L/count.wasm" 100 -- \
    run --timeout 30s --fuel 98 --invoke loop_n "$L/count.wasm" 100
same "--wasm fuel=N" '^exit 134$' -- run --wasm=fuel=98 --invoke loop_n "$L/count.wasm" 100 -- \
    run -Wfuel=98 --invoke loop_n "$L/count.wasm" 100
same "-W threads" '^exit 0$' -- run -W threads "$T/join.wasm" -- run "$T/join.wasm"
# -W threads=n: the threads proposal is off, a shared memory is malformed.
run "$TMP/n" "$WEFT" run -W threads=n "$T/join.wasm"
if grep -q '^exit 2$' "$TMP/n" && grep -q 'malformed' "$TMP/n.err"; then ok; else
    bad "-W threads=n: $(tail -n 1 "$TMP/n") $(head -n 1 "$TMP/n.err")"
fi
same "-W simd" '^hello from wat$' -- run -W simd "$C/hello.wasm" -- run "$C/hello.wasm"
same "-W bulk-memory" '^hello from wat$' -- run -W bulk-memory "$C/hello.wasm" -- run "$C/hello.wasm"
same "-W multi-value" '^hello from wat$' -- run -W multi-value=y "$C/hello.wasm" -- run "$C/hello.wasm"
same "-W reference-types" '^hello from wat$' -- run -W reference-types "$C/hello.wasm" -- run "$C/hello.wasm"
same "-W component-model" '^hello from wat$' -- run -W component-model "$C/hello.wasm" -- run "$C/hello.wasm"
# Wasm 3.0 features (issue 24), on by default as in wasmtime: each runs
# the same spelled or not (GC, which weft lacks, is refused below).
X=$C/extconst.wasm
same "-W extended-const" '^42$' -- run -W extended-const --invoke get "$X" -- run --invoke get "$X"
same "-W tail-call" '^42$' -- run -W tail-call --invoke get "$X" -- run --invoke get "$X"
same "-W tail-call=n" '^42$' -- run -W tail-call=n --invoke get "$X" -- run --invoke get "$X"
same "-W exceptions" '^42$' -- run -W exceptions=n --invoke get "$X" -- run --invoke get "$X"
same "-W multi-memory" '^42$' -- run -W multi-memory --invoke get "$X" -- run --invoke get "$X"
same "-W multi-memory=n" '^42$' -- run -W multi-memory=n --invoke get "$X" -- run --invoke get "$X"
same "-W memory64" '^42$' -- run -W memory64 --invoke get "$X" -- run --invoke get "$X"
same "-W memory64=n" '^42$' -- run -W memory64=n --invoke get "$X" -- run --invoke get "$X"
same "-W exceptions" '^42$' -- run -W exceptions=y --invoke get "$X" -- run --invoke get "$X"
same "-W function-references" '^42$' -- run -W function-references --invoke get "$X" -- run --invoke get "$X"
same "-W function-references=n" '^42$' -- run -W function-references=n --invoke get "$X" -- run --invoke get "$X"
same "-W relaxed-simd" '^42$' -- run -W relaxed-simd --invoke get "$X" -- run --invoke get "$X"
same "-W relaxed-simd=n" '^42$' -- run -W relaxed-simd=n --invoke get "$X" -- run --invoke get "$X"
# -W extended-const=n: Wasm 2.0 constant expressions, the module is invalid.
run "$TMP/n" "$WEFT" run -W extended-const=n --invoke get "$X"
if [ "$(tail -n 1 "$TMP/n")" = "exit 2" ] && grep -q 'invalid module: unknown global 0' "$TMP/n.err"; then ok; else
    bad "-W extended-const=n: $(tail -n 1 "$TMP/n") $(head -n 1 "$TMP/n.err")"
fi

# ---- refused, by name, with what to use ----
refused --mapdir "^error: wasmtime's option '--mapdir' is not supported: use --dir HOST::GUEST$" \
    run --mapdir /data::. "$P"
refused --tcplisten "'--tcplisten' is not supported: use --listen" run --tcplisten 127.0.0.1:0 "$P"
refused --preload "'--preload' is not supported" run --preload a=b.wasm "$P"
refused --profile "'--profile' is not supported: .*perf" run --profile=perfmap "$P"
refused --allow-precompiled "'--allow-precompiled' is not supported" run --allow-precompiled "$P"
refused -O "'-O' is not supported: weft has no optimisation levels" run -O opt-level=2 "$P"
refused --optimize "'--optimize' is not supported" run --optimize opt-level=2 "$P"
refused -C "'-C' is not supported" run -C cache=n "$P"
refused -D "'-D' is not supported" run -D debug-info "$P"
refused "-S http" "'-S http' is not supported: weft has no wasi-http" run -S http "$P"
refused "-S preview2=n" "'-S preview2=n' is not supported: WASI 0.2 is always on" run -S preview2=n "$P"
refused "-S p3" "'-S p3' is not supported: weft does not implement WASI 0.3 yet" run -S p3 "$P"
refused "-W component-model=n" "'-W component-model=n' is not supported" run -W component-model=n "$P"
refused "-W component-model-async" "'-W component-model-async' is not supported: .*async" \
    run -W component-model-async "$P"
refused "-S network" "'-S network' is not supported: use -S inherit-network" run -S network "$P"
refused "-S tcp=maybe" "bad value 'maybe' for -S tcp" run -S tcp=maybe "$P"
refused "-S threads=n" "'-S threads=n' is not supported" run -S threads=n "$P"
refused "-W gc" "'-W gc' is not supported: weft does not implement wasm GC" run -W gc=n "$P"
refused "-W epoch-interruption" "'-W epoch-interruption' is not supported: .*timeout" run -W epoch-interruption "$P"
refused "-W bulk-memory=n" "'-W bulk-memory=n' is not supported" run -W bulk-memory=n "$P"
refused "-W in a list" "'-W gc' is not supported: weft does not implement wasm GC" run -W fuel=10,gc "$P"
refused "-S unknown" "^error: unknown option '-S frobnicate': weft has no such WASI option" run -S frobnicate "$P"
refused "-W unknown" "^error: unknown option '-W frobnicate': weft has no such wasm option" run -W frobnicate=1 "$P"
refused "-W fuel without N" "^error: option '-W fuel' needs a value" run -W fuel "$P"
refused "-S inherit-env=maybe" "^error: bad value 'maybe' for -S inherit-env" run -S inherit-env=maybe "$P"
refused "-W needs a key" "^error: option '-W' needs a value" run -W

# ---- the table in docs/cli.md, --help and this test agree ----
doc=$(sed -n '/<!-- wasmtime-table/,/^$/p' "$ROOT/docs/cli.md" | grep '^| `' |
    sed -E 's/^\| `([^`]*)`.*/\1/' | sed -E 's/=(N|ADDR|DURATION|VAL)$//; s/ (NAME|HOST::GUEST)$//' |
    LC_ALL=C sort -u)
# The spellings this test ran, reduced the same way (variants dropped).
ran=$(printf '%s\n' "${tested[@]}" | grep -Ev '\(|=n$|=yes$|list$|^--wasi|^--wasm' |
    sed -E 's/=(N|ADDR|DURATION|VAL)$//; s/ (NAME|HOST::GUEST)$//; s/ NAME=VAL$//' | LC_ALL=C sort -u)
helped=$("$WEFT" --help | sed -n '/^wasmtime.s spellings/,/^  Any other/p' | grep -E '^  -[SW] ' |
    awk '{print $1" "$2}' | sed -E 's/(\[=[^]]*\]|=.*)$//' | LC_ALL=C sort -u)
docsw=$(grep -E '^-[SW] ' <<<"$doc")
if [ "$doc" = "$ran" ]; then ok; else
    bad "docs/cli.md's table and the spellings tested differ (< table, > test):"
    diff <(echo "$doc") <(echo "$ran") | grep '^[<>]' | sed 's/^/    /'
fi
if [ "$docsw" = "$helped" ]; then ok; else
    bad "docs/cli.md's -S/-W rows and weft --help differ (< table, > help):"
    diff <(echo "$docsw") <(echo "$helped") | grep '^[<>]' | sed 's/^/    /'
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
