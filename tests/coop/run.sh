#!/usr/bin/env bash
# tests/coop/run.sh BUILD — the libuv host (examples/uv_host.c): workers
# playing ping-pong through the host, two wasi-threads programs, an async
# host import answered by uv timers and a WASI read woken through uv_poll,
# all in one uv loop on one OS thread (cooperative mode, docs/coop.md).
# The API's own tests are tests/unit/coop_test.c.
set -u
BUILD=${1:-build}
cd "$(dirname "$0")/../.."
pass=0 fail=0
check() { # name, condition result
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else echo "FAIL $1"; fail=$((fail + 1)); fi
}
UV=$BUILD/examples/uv_host
if [ ! -x "$UV" ]; then
    if pkg-config --exists libuv 2>/dev/null || [ -f /usr/include/uv.h ]; then
        echo "FAIL $UV was not built, though libuv is installed"
        echo "0 passed, 1 failed"
        exit 1
    fi
    echo "skipped: libuv's headers are not installed (Debian: apt-get install libuv1-dev), so $UV was not built"
    echo "0 passed, 0 failed, 1 skipped"
    exit 0
fi
out=$(timeout -k 5 60 "$UV" 2>&1); rc=$?
check "uv_host exits 0 (got $rc: $out)" $rc
want() { grep -qxF -- "$2" <<<"$out"; check "$1" $?; }
want "ping-pong" "uv_host: ping-pong: 1000 rounds, both workers done"
want "async host import" "uv_host: async fetch_sum(10, 3) = 66 (3 calls answered by uv timers)"
want "fd through uv_poll" "uv_host: fd: the reader's stdin woke it through uv_poll (polled, sent 1 byte)"
want "threads program" "uv_host: process mutex_counter: end 0, exit code 0, 5 threads"
want "its output" "counter 80000"
want "timed waits" "uv_host: process timed_wait: end 0, exit code 0, 2 threads"
want "their results" "wait32 2"
want "deadlines as uv timers" "uv_host: deadlines handed to uv timers: yes"
want "one OS thread" "uv_host: OS threads: 1"
want "clean end" "uv_host: done"
# The fairness wall: a drain per slice of ping-pong, so the loop ran
# between every two (more drains than rounds).
drains=$(sed -n 's/^uv_host: drains \([0-9]*\) .*/\1/p' <<<"$out")
[ -n "$drains" ] && [ "$drains" -ge 1000 ]
check "the loop got control back between rounds (drains: ${drains:-none})" $?
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
