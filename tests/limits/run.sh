#!/usr/bin/env bash
# Tests of `weft run --timeout` and `--fuel` (and their wasmtime spellings
# -W timeout=, -W fuel=): a timeout stops an infinite loop, a blocking WASI
# call (a sleep, a read of stdin), and a threaded program whose threads are
# parked (futex, read, sleep, timed wait) or spinning, on OS threads and on
# the scheduler, with exit 124 and "error: timeout: ..."; a program that
# ends in time is not disturbed. Fuel is exact (one unit per safe point:
# (loop_n N) costs N-1, (calls_n N) 2N-1, _start of count.wasm 1000), the
# same on every run, and running out is the trap "all fuel consumed"
# (exit 134), single-threaded and with threads.
#
# No test here measures speed: the time bounds only check that a 1 s limit
# neither fires early nor is missed (generous upper bound).
#
# Usage: tests/limits/run.sh [BUILD]. Ends with "N passed, N failed".
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case $BUILD in /*) WEFT=$BUILD/weft ;; *) WEFT=$ROOT/$BUILD/weft ;; esac
L=$ROOT/tests/limits/wasm
T=$ROOT/tests/threads/wasm
C=$ROOT/tests/cli/wasm
pass=0 fail=0
if [ ! -x "$WEFT" ]; then
    echo "no $WEFT: build first"
    echo "0 passed, 1 failed"
    exit 1
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/weft-limits.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

# r NAME WANT_RC WANT_STDOUT STDERR_REGEX -- ARGS...: runs weft with stdin
# a pipe nobody writes to (a read blocks), records the time taken.
r() {
    local name=$1 want_rc=$2 want_out=$3 want_err=$4
    shift 5
    local t0 t1 rc why=""
    t0=$(date +%s%N)
    timeout 60 "$WEFT" "$@" >"$TMP/out" 2>"$TMP/err" < <(sleep 30)
    rc=$?
    t1=$(date +%s%N)
    elapsed_ms=$(((t1 - t0) / 1000000))
    [ "$rc" = "$want_rc" ] || why+=" exit $rc (want $want_rc);"
    if [ "$want_out" != "*" ] && [ "$(cat "$TMP/out")" != "$want_out" ]; then
        why+=" stdout [$(head -c 200 "$TMP/out")] (want [$want_out]);"
    fi
    if [ -z "$want_err" ]; then
        [ -s "$TMP/err" ] && why+=" unexpected stderr [$(head -n 2 "$TMP/err")];"
    else
        [[ $(head -n 1 "$TMP/err") =~ $want_err ]] || why+=" stderr [$(head -n 1 "$TMP/err")] !~ /$want_err/;"
    fi
    if [ -n "$why" ]; then bad "$name:$why"; else ok; fi
}

# The time a timed-out run took: at least the limit, well under a minute.
took() {
    local name=$1 min_ms=$2
    if [ "$elapsed_ms" -ge "$min_ms" ] && [ "$elapsed_ms" -lt 20000 ]; then ok; else
        bad "$name: took $elapsed_ms ms (want >= $min_ms and < 20000)"
    fi
}

TO='^error: timeout: the program ran past its time limit \(1s\) and was stopped$'

# ---- --timeout ----
r timeout-loop 124 "" "$TO" -- run --timeout 1s "$L/spin.wasm"
took timeout-loop-time 950
r timeout-loop-wasmtime 124 "" '^error: timeout: .*\(500ms\)' -- run -W timeout=500ms "$L/spin.wasm"
took timeout-loop-wasmtime-time 450
r timeout-sleep 124 "" "$TO" -- run --timeout 1s "$L/sleep.wasm"
took timeout-sleep-time 950
# The auto tier's ticker (src/exec/tier.c) samples running executions
# each ms, but backs off to 64 ms while every one waits: during 1 s of a
# sleep it wakes a few dozen times (16 here), not about 1,000 (928). With
# --sched os: in the pool a sleeping program runs no execution at all. (With --sched os: in
# the pool, a sleeping program has no running execution at all.)
tier_wakeups() { # PID -> context switches of its thread named weft-tier
    local d
    for d in /proc/"$1"/task/*; do
        if [ "$(cat "$d/comm" 2>/dev/null)" = weft-tier ]; then
            awk '/ctxt_switches/ {n += $2} END {print n}' "$d/status"
            return
        fi
    done
}
if "$WEFT" --version | grep -q '^tiers: auto'; then
    "$WEFT" run --tier auto --sched os --timeout 20s "$L/sleep.wasm" >/dev/null 2>&1 &
    pid=$!
    # The thread starts with the run; a loaded machine (a sanitizer
    # build beside other work) may take a while to get there.
    for _ in $(seq 100); do
        w0=$(tier_wakeups $pid)
        [ -n "$w0" ] && break
        sleep 0.1
    done
    sleep 0.3 # past the first ticks, while the back-off doubles
    w0=$(tier_wakeups $pid)
    sleep 1
    w1=$(tier_wakeups $pid)
    kill $pid 2>/dev/null
    wait $pid 2>/dev/null
    if [ -z "$w0" ] || [ -z "$w1" ]; then bad "tier-ticker-idle: no thread named weft-tier in the auto run"
    elif [ $((w1 - w0)) -lt 100 ]; then ok
    else bad "tier-ticker-idle: the ticker woke $((w1 - w0)) times in 1 s of a sleep (want < 100)"
    fi
else
    echo "== tier-ticker-idle: not run: this build has no auto tier"
fi
r timeout-read-stdin 124 "" "$TO" -- run --timeout 1s "$ROOT/tests/wasi/wasm/cat.wasm"
took timeout-read-stdin-time 950
r timeout-invoke-loop 124 "" "$TO" -- run --timeout 1s --invoke _start "$L/spin.wasm"
took timeout-invoke-loop-time 950
for mode in os pool; do
    r "timeout-parked-$mode" 124 ready "$TO" -- run --sched $mode --timeout 1s "$T/parked_forever.wasm"
    took "timeout-parked-$mode-time" 950
    r "timeout-spinners-$mode" 124 "" "$TO" -- run --sched $mode --runners 1 --timeout 1s "$T/spinners.wasm" 3
    took "timeout-spinners-$mode-time" 950
done
# In time: nothing changes (output, status, stderr).
r timeout-not-reached 0 "hello from wat" "" -- run --timeout 30s "$C/hello.wasm"
r timeout-not-reached-exit 3 "" "" -- run --timeout 30s "$C/exit_in_start.wasm"
r timeout-not-reached-threads 0 "*" "" -- run --timeout 30s "$T/join.wasm"
r timeout-not-reached-trap 134 "" "^error: trap: unreachable$" -- run --timeout 30s "$C/start_trap.wasm"
r timeout-bare-seconds 124 "" '^error: timeout: .*\(1\)' -- run --timeout 1 "$L/spin.wasm"
r timeout-fraction 124 "" '^error: timeout: .*\(0.3s\)' -- run --timeout=0.3s "$L/spin.wasm"
r timeout-bad-unit 2 "" "^error: bad --timeout '5q': expected a duration" -- run --timeout 5q "$L/spin.wasm"
r timeout-bad-zero 2 "" "^error: bad --timeout '0s'" -- run --timeout 0s "$L/spin.wasm"
r timeout-bad-negative 2 "" "^error: bad --timeout '-1s'" -- run --timeout -1s "$L/spin.wasm"
r timeout-bad-wasmtime 2 "" "^error: bad -W timeout 'x'" -- run -W timeout=x "$L/spin.wasm"

# ---- --fuel: exact, deterministic ----
for n in 10 100 5000; do
    for spelling in "--fuel" "-W fuel="; do
        f() { if [ "$spelling" = "--fuel" ]; then echo "--fuel $1"; else echo "-W fuel=$1"; fi; }
        # shellcheck disable=SC2046
        r "fuel-loop-$n-enough ($spelling)" 0 "$n" "" -- run $(f $((n - 1))) --invoke loop_n "$L/count.wasm" "$n"
        # shellcheck disable=SC2046
        r "fuel-loop-$n-short ($spelling)" 134 "" "^error: trap: all fuel consumed$" -- \
            run $(f $((n - 2))) --invoke loop_n "$L/count.wasm" "$n"
    done
    r "fuel-calls-$n-enough" 0 "$n" "" -- run --fuel $((2 * n - 1)) --invoke calls_n "$L/count.wasm" "$n"
    r "fuel-calls-$n-short" 134 "" "^error: trap: all fuel consumed$" -- \
        run --fuel $((2 * n - 2)) --invoke calls_n "$L/count.wasm" "$n"
done
# The same trap, at the same place, on every run.
for i in 1 2 3; do
    "$WEFT" run --fuel 4321 --invoke calls_n "$L/count.wasm" 100000 2>"$TMP/trap.$i" >/dev/null
done
if [ -s "$TMP/trap.1" ] && cmp -s "$TMP/trap.1" "$TMP/trap.2" && cmp -s "$TMP/trap.1" "$TMP/trap.3"; then ok; else
    bad "fuel-deterministic: the traps differ: $(head -n 3 "$TMP/trap.1" "$TMP/trap.2" | tr '\n' ' ')"
fi
# _start (the command runs as a process with a budget): 1 call + 999 back-edges.
r fuel-start-enough 0 "" "" -- run --fuel 1000 "$L/count.wasm"
r fuel-start-short 134 "" "^error: trap: all fuel consumed$" -- run --fuel 999 "$L/count.wasm"
r fuel-infinite-loop 134 "" "^error: trap: all fuel consumed$" -- run --fuel 1M "$L/spin.wasm"
for mode in os pool; do
    r "fuel-spinning-threads-$mode" 134 "" "^error: thread [0-9]+: all fuel consumed$" -- \
        run --sched $mode --fuel 1M "$T/spinners.wasm" 3
done
# The fuel running out anywhere, in a spawn too (a new thread's instance
# runs the shared memory's init, which takes fuel): always the fuel trap,
# never a failed spawn. Deterministic runs put the end at every point.
sweep_bad=""
for n in $(seq 50 53 4000); do
    timeout 60 "$WEFT" run --deterministic 1 --fuel "$n" "$T/spinners.wasm" 3 >"$TMP/out" 2>"$TMP/err" </dev/null
    rc=$?
    if [ "$rc" -ne 134 ] || ! grep -q "^error: thread [0-9]*: all fuel consumed$" "$TMP/err"; then
        sweep_bad+=" fuel $n: exit $rc, $(head -n 1 "$TMP/err");"
    fi
done
if [ -z "$sweep_bad" ]; then ok; else bad "fuel-sweep-spawn:$sweep_bad"; fi
# A threaded program with enough fuel: the same output as without.
"$WEFT" run "$T/join.wasm" >"$TMP/join.plain" 2>&1
r fuel-threads-enough 0 "$(cat "$TMP/join.plain")" "" -- run --fuel 10G "$T/join.wasm"
# Both limits: whichever comes first.
r fuel-and-timeout 124 "" '^error: timeout: ' -- run --fuel 1000G --timeout 500ms "$L/spin.wasm"
r fuel-bad 2 "" "^error: bad --fuel 'lots'" -- run --fuel lots "$L/spin.wasm"
r fuel-bad-zero 2 "" "^error: bad --fuel '0'" -- run --fuel 0 "$L/spin.wasm"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
