#!/usr/bin/env bash
# weft run on components (docs/components.md, "Running a component"):
# a preview1 C program wrapped by `jco new --wasi-command` runs through
# WASI 0.2 with the same output as expected/cmd.out (written by hand from
# the program's source) and as the same program run as a module, and
# the outcomes a user meets: exit statuses, a trap, a missing import, a
# library component, options not supported for components yet.
# The programs: tests/component/programs (src/ and the built wasm/,
# rebuilt by `make -C tests components`, which needs jco).
set -u
BUILD=${1:-build}
cd "$(dirname "$0")/../.."
W="$BUILD/weft"
P=tests/component/programs
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect NAME STATUS STDERR-PATTERN -- weft ARGS...: the exit status and a
# line of stderr matching the pattern (grep -E).
expect() {
    local name=$1 status=$2 pat=$3; shift 4
    "$W" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    local rc=$?
    if [ "$rc" -ne "$status" ]; then bad "$name: exit $rc, expected $status: $(head -c 300 "$tmp/err")"; return; fi
    if [ -n "$pat" ] && ! grep -Eq -e "$pat" "$tmp/err"; then bad "$name: stderr lacks /$pat/: $(head -c 300 "$tmp/err")"; return; fi
    ok
}

# The command, as a component and as the module it was made from.
for kind in component module; do
    f=$P/wasm/cmd.wasm
    [ $kind = module ] && f=$P/wasm/cmd.p1.wasm
    mkdir -p "$tmp/d-$kind"
    echo "hi there" | "$W" run --dir "$tmp/d-$kind::/d" --env CMD_TEST=yes "$f" /d 7 >"$tmp/$kind.out" 2>"$tmp/$kind.err"
    rc=$?
    if cmp -s "$tmp/$kind.out" $P/expected/cmd.out; then ok; else bad "cmd ($kind): output differs from expected/cmd.out:"; diff $P/expected/cmd.out "$tmp/$kind.out" | head -20; fi
    if grep -qx "to stderr" "$tmp/$kind.err"; then ok; else bad "cmd ($kind): stderr lacks 'to stderr': $(head -c 300 "$tmp/$kind.err")"; fi
    # exit(7): a module's proc_exit code; the preview1 adapter's
    # wasi:cli/exit takes only ok/err, so the component ends with 1, as
    # under wasmtime.
    want=7
    [ $kind = component ] && want=1
    if [ "$rc" -eq $want ]; then ok; else bad "cmd ($kind): exit $rc, expected $want"; fi
    if [ -z "$(ls -A "$tmp/d-$kind")" ]; then ok; else bad "cmd ($kind): files left in the preopen: $(ls "$tmp/d-$kind")"; fi
done
# No arguments: no directory work, exit 0; `weft FILE` is `weft run FILE`.
expect "cmd, no args" 0 "to stderr" -- run $P/wasm/cmd.wasm
expect "weft FILE" 0 "to stderr" -- $P/wasm/cmd.wasm
expect "run returns err" 1 "" -- run $P/wasm/run-err.wasm
expect "trap" 134 "^error: trap: unreachable" -- run $P/wasm/trap.wasm
expect "missing import" 2 "import .weft:nope/missing@1.0.0.: no such interface" -- run $P/wasm/missing-import.wasm
expect "library component" 2 "not a command: it exports no wasi:cli/run" -- run $P/wasm/not-command.wasm
expect "--invoke" 2 "--invoke is not supported for components yet" -- run --invoke f $P/wasm/not-command.wasm
expect "--timeout" 2 "--timeout is not supported for components yet" -- run --timeout 5s $P/wasm/run-err.wasm
# A fuel budget too small for the program: the trap of a module's.
expect "fuel" 134 "all fuel consumed" -- run --fuel 1000 $P/wasm/cmd.wasm
# A preopen that does not exist: a clear error, exit 2.
expect "bad --dir" 2 "$tmp/nope" -- run --dir "$tmp/nope::/d" $P/wasm/cmd.wasm
# Not a component nor a module.
printf 'nothing' >"$tmp/x.wasm"
expect "garbage" 2 "" -- run "$tmp/x.wasm"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
