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
expect "--timeout" 2 "--timeout is not supported for components yet" -- run --timeout 5s $P/wasm/run-err.wasm
# A fuel budget too small for the program: the trap of a module's.
expect "fuel" 134 "all fuel consumed" -- run --fuel 1000 $P/wasm/cmd.wasm
# --invoke 'name(args)' (docs/components.md "WAVE"): WAVE in, WAVE out on
# stdout. The expected text is written by hand from the WAVE README
# (wasm-tools crates/wasm-wave) and the form wasm-wave's writer gives,
# which wasmtime prints: options some(..)/none, a record without its none
# fields, flags in declaration order, `%` before a case that is a keyword,
# floats as Rust displays them, escapes \' \" \\ \t \n \r and \u{..}.
V=$P/wasm/values.wasm
inv() {
    local call=$1 want=$2
    local got
    got=$("$W" run --invoke "$call" "$V" 2>"$tmp/err" </dev/null)
    local rc=$?
    if [ "$rc" -ne 0 ]; then bad "invoke $call: exit $rc: $(head -c 300 "$tmp/err")"; return; fi
    if [ "$got" = "$want" ]; then ok; else bad "invoke $call: printed [$got], expected [$want]"; fi
}
inv 'add(1, 2)' '3'
inv 'add(-5, 2,)' '-3'
inv 'echo-bool(true)' 'true'
inv 'echo-bool( false )' 'false'
inv 'echo-s8(-128)' '-128'
inv 'echo-u8(255)' '255'
inv 'echo-s16(-32768)' '-32768'
inv 'echo-u16(65535)' '65535'
inv 'echo-s32(-2147483648)' '-2147483648'
inv 'echo-u32(4294967295)' '4294967295'
inv 'echo-s64(-9223372036854775808)' '-9223372036854775808'
inv 'echo-u64(18446744073709551615)' '18446744073709551615'
inv 'echo-f32(3.14)' '3.14'
inv 'echo-f32(1.0)' '1'
inv 'echo-f32(nan)' 'nan'
inv 'echo-f32(16777217)' '16777216'
inv 'echo-f64(1.1)' '1.1'
inv 'echo-f64(6.022e+23)' '602200000000000000000000'
inv 'echo-f64(1e-7)' '0.0000001'
inv 'echo-f64(-0)' '-0'
inv 'echo-f64(-inf)' '-inf'
inv 'echo-f64(inf)' 'inf'
inv 'echo-f64(1e400)' 'inf'
inv "echo-char('x')" "'x'"
inv "echo-char('☃')" "'☃'"
inv "echo-char('\\u{1F44B}')" "'👋'"
inv "echo-char('\\'')" "'\\''"
inv "echo-char('\"')" "'\\\"'"
inv "echo-char('\\u{0}')" "'\\u{0}'"
inv "echo-char('\\u{7f}')" "'\\u{7f}'"
inv 'echo-string("abc\t123")' '"abc\t123"'
inv 'echo-string("q\"b\\s'"'"'")' '"q\"b\\s\'"'"'"'
inv 'echo-string("")' '""'
inv 'echo-string("👋 Hello, world! 👋")' '"👋 Hello, world! 👋"'
inv 'echo-string("\u{41}\u{1b}")' '"A\u{1b}"'
inv "$(printf 'echo-string("""\n    Indentation determined\n      by ending delimiter\n  """)')" '"  Indentation determined\n    by ending delimiter"'
inv "$(printf 'echo-string("""\n  A single line\n  """) // a comment')" '"A single line"'
inv 'echo-color(green)' 'green'
inv 'echo-color(%ok)' '%ok'
inv 'echo-perms({exec, read})' '{read, exec}'
inv 'echo-perms({write,})' '{write}'
inv 'echo-perms({})' '{}'
inv 'echo-list-u32([])' '[]'
inv 'echo-list-u32([1, 2, 3,])' '[1, 2, 3]'
inv 'echo-list-string(["a", "", "ü"])' '["a", "", "ü"]'
inv 'echo-list-char(['"'"'a'"'"', '"'"'\n'"'"'])' "['a', '\\n']"
inv 'echo-list-f32([-3.1415, 0, inf, nan, -inf])' '[-3.1415, 0, inf, nan, -inf]'
inv 'echo-list-color([red, blue, %ok])' '[red, blue, %ok]'
inv 'echo-list-perms([{}, {read, write, exec}])' '[{}, {read, write, exec}]'
inv 'echo-list-shape([circle(1.5), point, label("x")])' '[circle(1.5), point, label("x")]'
inv 'echo-list-point([{x: 1, y: -2}, {label: "l", y: 0, x: 5}, {x: 0, y: 0, label: none}])' '[{x: 1, y: -2}, {x: 5, y: 0, label: some("l")}, {x: 0, y: 0}]'
inv 'echo-list-maybe([%none, %some(3), other])' '[%none, %some(3), other]'
inv 'echo-list-option([none, some(none), some(some(5))])' '[none, some(none), some(some(5))]'
inv 'echo-list-result([ok("a"), "b", err(3)])' '[ok("a"), ok("b"), err(3)]'
inv 'echo-list-results([ok, err])' '[ok, err]'
inv 'echo-list-tuple([("x", [1, 2]), ("", [])])' '[("x", [1, 2]), ("", [])]'
inv 'echo-list-list([[], [-1, 2]])' '[[], [-1, 2]]'
inv 'echo-option(5)' 'some(5)'
inv 'echo-option(some(0))' 'some(0)'
inv 'echo-option(none)' 'none'
inv 'echo-result(7)' 'ok(7)'
inv 'echo-result(err("bad"))' 'err("bad")'
inv 'echo-shape(label("hi"))' 'label("hi")'
inv 'echo-shape(circle(2))' 'circle(2)'
inv 'echo-shape(point)' 'point'
inv 'echo-tuple((1, "s", false))' '(1, "s", false)'
inv 'echo-point({x: 1, y: 2, label: some("p")})' '{x: 1, y: 2, label: some("p")}'
inv 'echo-point({x: 1, y: 2, label: "flat"})' '{x: 1, y: 2, label: some("flat")}'
inv 'echo-point({y: 2, x: 1})' '{x: 1, y: 2}'
inv 'greet("world")' '"hello, world"'
inv 'opt-args(1)' '100'
inv 'opt-args(2, 5)' '210'
inv 'opt-args(3, none, "c")' '301'
inv 'nothing()' '()'
inv 'sum([1, 2, 3])' '6'
inv 'total-len(["ab", "c"])' '3'
inv 'example:demo/math.sum@0.1.0([4])' '4'
inv 'example:demo/math.sum@0.1.9([4, 5])' '9'
inv 'example:demo/math@0.1.0#mul(3, 3)' '9'
inv 'example:demo/other.mul(3, 3)' '10'
# A command's run through --invoke: its result, as wasmtime prints it.
if [ "$("$W" run --invoke 'run()' $P/wasm/run-err.wasm 2>/dev/null)" = err ]; then ok; else bad "invoke run() of run-err.wasm"; fi
# Errors: exit 2 with the place shown; a trap 134.
expect "invoke: unknown export" 2 "no exported function named .nope." -- run --invoke 'nope()' $V
expect "invoke: ambiguous" 2 "several exported instances have a function named .mul.; name one: .example:demo/math.mul@0.1.0., .example:demo/other.mul." -- run --invoke 'mul(1, 2)' $V
expect "invoke: wrong version" 2 "no exported function named" -- run --invoke 'example:demo/math.sum@0.2.0([])' $V
expect "invoke: too few" 2 "takes 2 arguments, 1 given: .b: s32. is missing" -- run --invoke 'add(1)' $V
expect "invoke: too many" 2 "more arguments than the function's 2 parameters" -- run --invoke 'add(1, 2, 3)' $V
expect "invoke: type" 2 "WAVE at byte 7: expected a value of type s32, found a string" -- run --invoke 'add(1, "x")' $V
expect "invoke: not an int" 2 "WAVE at byte 4: .1.5. is not an integer" -- run --invoke 'add(1.5, 2)' $V
expect "invoke: range" 2 "WAVE at byte 8: .256. is out of range for u8" -- run --invoke 'echo-u8(256)' $V
expect "invoke: unsigned minus" 2 "out of range for u32" -- run --invoke 'echo-u32(-1)' $V
expect "invoke: no parens" 2 "expected .\(.: a call is written name\(arguments\)" -- run --invoke 'add' $V
expect "invoke: caret" 2 "^  +\^$" -- run --invoke 'add(1, "x")' $V
expect "invoke: keyword case" 2 "keyword: write the enum case as .%ok." -- run --invoke 'echo-color(ok)' $V
expect "invoke: unknown case" 2 "the enum has no case .purple." -- run --invoke 'echo-color(purple)' $V
expect "invoke: payload missing" 2 ".label. needs a payload" -- run --invoke 'echo-shape(label)' $V
expect "invoke: payload extra" 2 ".point. takes no payload" -- run --invoke 'echo-shape(point(1))' $V
expect "invoke: missing field" 2 "missing field .x." -- run --invoke 'echo-point({y: 1})' $V
expect "invoke: unknown field" 2 "the record has no field .z." -- run --invoke 'echo-point({x: 1, y: 1, z: 1})' $V
expect "invoke: duplicate field" 2 "duplicate field .x." -- run --invoke 'echo-point({x: 1, x: 1, y: 1})' $V
expect "invoke: empty record" 2 "is empty flags; a record with every field none is written .\{:\}." -- run --invoke 'echo-point({})' $V
expect "invoke: unknown flag" 2 "no flag .run. in the flags type" -- run --invoke 'echo-perms({run})' $V
expect "invoke: duplicate flag" 2 "duplicate flag .read." -- run --invoke 'echo-perms({read, read})' $V
expect "invoke: nested option" 2 "an option of an option or result is not flattened" -- run --invoke 'echo-list-option([5])' $V
expect "invoke: tuple arity" 2 "a tuple of 3 members, 2 given" -- run --invoke 'echo-tuple((1, "s"))' $V
expect "invoke: empty tuple" 2 "empty tuple" -- run --invoke 'echo-tuple(())' $V
expect "invoke: bad escape" 2 "invalid escape in a string" -- run --invoke 'echo-string("\q")' $V
expect "invoke: surrogate escape" 2 "invalid escape in a char" -- run --invoke "echo-char('\\u{d800}')" $V
expect "invoke: two chars" 2 "a char is one character" -- run --invoke "echo-char('ab')" $V
expect "invoke: unterminated" 2 "unterminated string" -- run --invoke 'echo-string("abc)' $V
expect "invoke: newline in string" 2 "a newline in a string must be written" -- run --invoke "$(printf 'echo-string("a\nb")')" $V
expect "invoke: multiline indent" 2 "lines must be indented at least as much as the closing" -- run --invoke "$(printf 'echo-string("""\nx\n  """)')" $V
expect "invoke: trailing" 2 "trailing characters" -- run --invoke 'add(1, 2) x' $V
expect "invoke: not UTF-8" 2 "not UTF-8" -- run --invoke "$(printf 'echo-string("\xff")')" $V
# Parsing follows the type, so a text nested deeper than its type stops there.
expect "invoke: deeper than the type" 2 "WAVE at byte 15: expected a value of type u32, found .\[." -- run --invoke "echo-list-u32($(printf '[%.0s' $(seq 120)))" $V
expect "invoke: resource" 2 "a value of type own<.*> has no WAVE form" -- run --invoke 'take-res(1)' $V
expect "invoke: trap" 134 "^error: trap: unreachable" -- run --invoke 'boom()' $V
# A preopen that does not exist: a clear error, exit 2.
expect "bad --dir" 2 "$tmp/nope" -- run --dir "$tmp/nope::/d" $P/wasm/cmd.wasm
# Not a component nor a module.
printf 'nothing' >"$tmp/x.wasm"
expect "garbage" 2 "" -- run "$tmp/x.wasm"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
