#!/bin/bash
# Runs wasi-libc's two sleep tests (test/src/usleep.c and
# clock_nanosleep.c: sleep 5 ms, fail at 15 ms or more) many times, under
# three kinds of load, with weft on wasm32-wasip1, with weft on
# wasm32-wasip1-threads in both scheduling modes, and built natively with
# gcc: the host's own answer to the same test under the same load.
#
# It uses the modules that tests/libc-suite/run.sh built in its work
# directory (run that first, --build-only is enough) and builds the native
# ones there too; like run.sh, it is run by hand, not by `make test`.
#
# Load (each a phase of its own; runs interleaved within a phase):
#   none     nothing added: the machine as it is
#   session  one `yes >/dev/null` per core, in this script's session
#   setsid   one `yes >/dev/null` per core, each in a session of its own
#            (with the kernel's autogroups, as another user's build would be)
#
# Prints, per phase, the failures of each test out of N runs per engine and
# the load average before and after; every run's outcome and wall time is
# in the log it names.

set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)

usage() {
    cat <<EOF
usage: $0 [--work DIR] [--weft PATH] [-n N] [--load none|session|setsid]...

  --work DIR   run.sh's work directory (env WEFT_LIBC_SUITE_WORK; default
               \${XDG_CACHE_HOME:-/tmp}/weft-libc-suite)
  --weft PATH  the weft to test (env WEFT; default build/weft)
  -n N         runs of each test per engine and load (default 100)
  --load L     a load phase (repeatable; default: session setsid none)
EOF
}

die() {
    echo "sleeps.sh: $*" >&2
    exit 2
}

work=${WEFT_LIBC_SUITE_WORK:-${XDG_CACHE_HOME:-/tmp}/weft-libc-suite}
weft=${WEFT:-$repo/build/weft}
runs=100
loads=()
while [ "$#" -gt 0 ]; do
    case $1 in
    --work) work=${2:?}; shift 2 ;;
    --weft) weft=${2:?}; shift 2 ;;
    -n) runs=${2:?}; shift 2 ;;
    --load) loads+=("${2:?}"); shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option '$1'" ;;
    esac
done
[ "${#loads[@]}" -gt 0 ] || loads=(session setsid none)
for l in "${loads[@]}"; do
    case $l in none | session | setsid) ;; *) die "unknown load '$l'" ;; esac
done
case $runs in '' | *[!0-9]* | 0) die "-n wants a positive number" ;; esac
[ -x "$weft" ] || die "no weft at '$weft' (run make, or give --weft)"
weft=$(realpath "$weft")

tests=(usleep clock_nanosleep)
engines=(native weft-p1 weft-threads-os weft-threads-pool)

# --- The programs --------------------------------------------------------

[ -f "$work/sources" ] || die "no $work/sources: run run.sh (--build-only) first"
{ read -r libc && read -r libc_test; } <"$work/sources" ||
    die "$work/sources should name the wasi-libc and libc-test copies"
for t in "${tests[@]}"; do
    for triple in wasm32-wasip1 wasm32-wasip1-threads; do
        [ -f "$work/test-$triple/$t.wasm" ] ||
            die "no $work/test-$triple/$t.wasm: run run.sh (--build-only) first"
    done
done

mkdir -p "$work/native"
for t in "${tests[@]}"; do
    gcc -O2 -w -I"$libc_test/src/common" -o "$work/native/$t" \
        "$libc/test/src/$t.c" "$libc_test/src/common/print.c"
done

# Prints the command line that runs test T on ENGINE.
command_for() {
    case $2 in
    native) echo "$work/native/$1" ;;
    weft-p1) echo "$weft run $work/test-wasm32-wasip1/$1.wasm" ;;
    weft-threads-os) echo "$weft run --sched os $work/test-wasm32-wasip1-threads/$1.wasm" ;;
    weft-threads-pool) echo "$weft run --sched pool $work/test-wasm32-wasip1-threads/$1.wasm" ;;
    esac
}

# --- Load ----------------------------------------------------------------

hogs=()

start_load() {
    local i pidfile
    hogs=()
    for ((i = 0; i < $(nproc); i++)); do
        case $1 in
        session)
            yes >/dev/null &
            hogs+=("$!")
            ;;
        setsid)
            pidfile=$(mktemp)
            # shellcheck disable=SC2016 # $$ and $1 are the new shell's
            setsid bash -c 'echo $$ >"$1"; exec yes >/dev/null' hog "$pidfile" &
            while [ ! -s "$pidfile" ]; do sleep 0.01; done
            hogs+=("$(cat "$pidfile")")
            rm -f "$pidfile"
            ;;
        esac
    done
    # Give the scheduler a moment to see them as CPU-bound.
    [ "${#hogs[@]}" -eq 0 ] || sleep 1
}

stop_load() {
    [ "${#hogs[@]}" -eq 0 ] || kill "${hogs[@]}" 2>/dev/null || true
    hogs=()
}
trap stop_load EXIT

# --- Runs ----------------------------------------------------------------

log=$work/sleeps-$(date -u +%Y%m%dT%H%M%S).log
echo "weft: $weft; $runs runs of each; log: $log"
: >"$log"

for load in "${loads[@]}"; do
    declare -A failed=()
    load_before=$(cut -d' ' -f1-3 /proc/loadavg)
    start_load "$load"
    for ((i = 1; i <= runs; i++)); do
        for t in "${tests[@]}"; do
            for e in "${engines[@]}"; do
                read -r -a cmd <<<"$(command_for "$t" "$e")"
                t0=$(date +%s%N)
                if out=$("${cmd[@]}" 2>&1); then result=ok; else result=FAIL; fi
                t1=$(date +%s%N)
                echo "$load $t $e $i $result $(((t1 - t0) / 1000)) us ${out//$'\n'/ | }" >>"$log"
                [ "$result" = ok ] || failed[$t,$e]=$((${failed[$t,$e]:-0} + 1))
            done
        done
    done
    stop_load
    case $load in
    none) what="nothing added" ;;
    session) what="$(nproc) CPU-bound processes in this session" ;;
    setsid) what="$(nproc) CPU-bound processes in sessions of their own" ;;
    esac
    echo "load '$load' ($what): failed runs; load average before $load_before," \
        "after $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '  %-16s' test
    printf '%-18s' "${engines[@]}"
    echo
    for t in "${tests[@]}"; do
        printf '  %-16s' "$t"
        for e in "${engines[@]}"; do
            printf '%-18s' "${failed[$t,$e]:-0}/$runs"
        done
        echo
    done
    unset failed
done
