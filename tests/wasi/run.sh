#!/usr/bin/env bash
# WASI tests: runs each guest program of tests/wasi/wasm with BUILD/weft in
# a fresh temporary directory and compares, against hand-written
# expectations in tests/wasi/expected/:
#   NAME.out    stdout, byte for byte (required)
#   NAME.err    stderr, byte for byte (optional)
#   NAME.errpat stderr, line by line against extended regexps; the last
#               pattern also covers any further lines (optional)
#   NAME.tree   the sandbox directory afterwards: one line per entry,
#               "path/" for directories, "path -> target" for symlinks,
#               "path [size] first bytes" for files (optional)
# plus the exit status given in the case table below. Every case also
# checks that the directory beside the sandbox ("outside", holding
# secret.txt) is untouched.
#
# Usage: tests/wasi/run.sh [BUILD] [CASE...]   (BUILD defaults to build)
# Prints one line per failure and ends with "N passed, N failed".
set -u
BUILD=${1:-build}
shift || true
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/tests/wasi
case $BUILD in /*) WEFT=$BUILD/weft ;; *) WEFT=$ROOT/$BUILD/weft ;; esac
ONLY=("$@")
pass=0 fail=0

if [ ! -x "$WEFT" ]; then
    echo "no $WEFT: build first (make BUILD=$BUILD)"
    echo "0 passed, 1 failed"
    exit 1
fi

# A listing of directory $1 with symlink targets and file contents;
# $2 is replaced by "$T" in symlink targets.
listing() {
    (cd "$1" && find . -mindepth 1 | LC_ALL=C sort | while IFS= read -r p; do
        if [ -L "$p" ]; then
            printf '%s -> %s\n' "${p#./}" "$(readlink "$p" | sed "s|$2|\$T|g")"
        elif [ -d "$p" ]; then
            printf '%s/\n' "${p#./}"
        else
            printf '%s [%s] %s\n' "${p#./}" "$(wc -c <"$p" | tr -d ' ')" \
                "$(head -c 40 "$p" | tr '\n\0' '~@')"
        fi
    done)
}

# ---- per-case setup (run inside the temp dir; the sandbox is ./sandbox) ----
std_files() { printf 'hello world\n' >sandbox/data.txt; mkdir sandbox/sub; }
setup_fd_advise() { std_files; }
setup_fd_allocate() { :; }
setup_fd_close() { std_files; }
setup_fd_sync() { std_files; }
setup_fd_fdstat_get() { std_files; }
setup_fd_fdstat_set_flags() { printf 'hello' >sandbox/data.txt; }
setup_fd_fdstat_set_rights() { printf '' >sandbox/data.txt; mkdir sandbox/sub; printf 'x' >sandbox/sub/f.txt; }
setup_fd_filestat_get() { printf '12345' >sandbox/data.txt; }
setup_fd_filestat_set_size() { printf '0123456789' >sandbox/data.txt; }
setup_fd_filestat_set_times() { std_files; }
setup_fd_pread_pwrite() { printf 'abcdefgh' >sandbox/data.txt; }
setup_fd_prestat() { mkdir other; std_files; }
setup_fd_read() { printf 'abcdefghij' >sandbox/data.txt; }
setup_fd_readdir() {
    mkdir -p sandbox/dir/sub
    printf 'a' >sandbox/dir/a.txt; printf 'bb' >sandbox/dir/bb.txt
    printf 'ccc' >sandbox/dir/a-much-longer-file-name.txt
    ln -s a.txt sandbox/dir/link
}
setup_fd_renumber() { printf 'AAA' >sandbox/a.txt; printf 'BBB' >sandbox/b.txt; }
setup_fd_seek() { printf '0123456789' >sandbox/data.txt; }
stdin_fd_seek() { printf 'piped'; }
setup_fd_write() { :; }
setup_path_create_directory() { printf 'f' >sandbox/file.txt; }
setup_path_filestat() {
    printf 'abc' >sandbox/file.txt; mkdir sandbox/dir
    ln -s file.txt sandbox/link; ln -s nowhere sandbox/dangling
}
setup_path_link() { printf 'abc' >sandbox/file.txt; mkdir sandbox/dir; ln -s file.txt sandbox/link; }
setup_path_open() {
    printf 'original' >sandbox/file.txt; printf 'to be truncated' >sandbox/trunc.txt
    printf 'start' >sandbox/app.txt; mkdir sandbox/dir; printf 'in' >sandbox/dir/inner.txt
    ln -s file.txt sandbox/link; ln -s created.txt sandbox/dangling
}
setup_path_readlink() {
    printf 'f' >sandbox/file.txt; mkdir sandbox/dir
    ln -s file.txt sandbox/link; ln -s ../file.txt sandbox/dir/uplink
}
setup_path_remove_directory() {
    mkdir -p sandbox/empty sandbox/full/sub; printf 'f' >sandbox/file.txt
    printf 'x' >sandbox/full/x; ln -s full sandbox/dirlink
}
setup_path_rename() {
    printf 'A' >sandbox/a.txt; printf 'C' >sandbox/c.txt
    mkdir -p sandbox/d1 sandbox/d2 sandbox/d3/inner; printf '1' >sandbox/d1/one
    ln -s c.txt sandbox/link
}
setup_path_symlink() { printf 'target' >sandbox/file.txt; mkdir sandbox/dir; }
setup_path_unlink_file() {
    printf 'A' >sandbox/a.txt; printf 'B' >sandbox/b.txt; mkdir sandbox/dir
    printf 'i' >sandbox/dir/inner.txt; ln -s b.txt sandbox/link
}
setup_poll_oneoff() { printf 'file data' >sandbox/data.txt; }
stdin_poll_oneoff() { printf 'ping'; sleep 1; } # no hangup until the reads are done
setup_unstable() { printf '0123456789' >sandbox/data.txt; }
setup_walk() {
    mkdir -p sandbox/a/b/c sandbox/empty
    printf 'one' >sandbox/a/1.txt; printf 'twenty-two' >sandbox/a/b/22.txt
    printf '' >sandbox/a/b/c/zero; printf 'top' >sandbox/top.txt
    ln -s a/1.txt sandbox/link
}
setup_copy() { head -c 10000 /dev/zero | tr '\0' 'q' >sandbox/src.bin; printf 'end' >>sandbox/src.bin; }
setup_copy_missing() { :; }
stdin_cat() { printf 'first line\nsecond line\n\nlast line without newline'; }
stdin_sleep() { sleep 1; }
setup_escape() {
    printf 'inside' >sandbox/file.txt
    mkdir sandbox/sub
    ln -s "$PWD/outside" sandbox/abs_dir_link
    ln -s "$PWD/outside/secret.txt" sandbox/abs_file_link
    ln -s ../outside sandbox/rel_dir_link
    ln -s ../../outside/secret.txt sandbox/sub/rel_file_link
    ln -s ../sub/../../outside/secret.txt sandbox/sub/deep_link
    ln -s ../file.txt sandbox/sub/inside_up
    ln -s sub sandbox/in_link
    ln -s loop_b sandbox/loop_a; ln -s loop_a sandbox/loop_b
    ln -s self sandbox/self
    ln -s ../outside/new-file sandbox/dangling_out
    # c0 -> c1 -> ... -> c40 -> file.txt: opening c0 follows 41 links.
    for i in $(seq 0 39); do ln -s "c$((i + 1))" "sandbox/c$i"; done
    ln -s file.txt sandbox/c40
}

# ---- running one case ----
# t NAME WASM EXIT [WEFT OPTIONS...] [-- GUEST ARGS...]
t() {
    local name=$1 wasm=$2 want_rc=$3
    shift 3
    if [ ${#ONLY[@]} -gt 0 ] && [[ ! " ${ONLY[*]} " == *" $name "* ]]; then return; fi
    local opts=() args=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    args=("$@")
    local T
    T=$(mktemp -d "${TMPDIR:-/tmp}/weft-wasi.XXXXXX")
    mkdir "$T/sandbox" "$T/outside"
    printf 'secret' >"$T/outside/secret.txt"
    cp "$HERE/wasm/$wasm.wasm" "$T/prog.wasm"
    if declare -F "setup_$name" >/dev/null; then (cd "$T" && "setup_$name"); fi
    local before rc
    before=$(listing "$T/outside" "$T")
    if declare -F "stdin_$name" >/dev/null; then
        (cd "$T" && "stdin_$name" | timeout 60 "$WEFT" run --dir sandbox::/sandbox "${opts[@]}" \
            prog.wasm "${args[@]}" >"$T/.stdout" 2>"$T/.stderr")
        rc=$?
    else
        (cd "$T" && timeout 60 "$WEFT" run --dir sandbox::/sandbox "${opts[@]}" prog.wasm \
            "${args[@]}" </dev/null >"$T/.stdout" 2>"$T/.stderr")
        rc=$?
    fi
    check_case "$name" "$T" "$rc" "$want_rc" "$before"
}

# Each line of file $1 must match the pattern on the same line of $2 (the
# last pattern repeats); at least as many lines as patterns but one.
match_lines() {
    local pats=() line i=0 n
    mapfile -t pats <"$2"
    n=${#pats[@]}
    while IFS= read -r line; do
        local p=${pats[$((i < n ? i : n - 1))]}
        [[ $line =~ $p ]] || return 1
        i=$((i + 1))
    done <"$1"
    [ "$i" -ge $((n - 1)) ]
}

# Compares what a case left in $2 with the expectations.
check_case() {
    local name=$1 T=$2 rc=$3 want_rc=$4 before=$5 why=""
    if [ -n "${WEFT_ACCEPT:-}" ]; then
        # Bootstrapping only: record what ran, to be read and corrected by hand.
        cp "$T/.stdout" "$HERE/expected/$name.out"
        [[ " $WEFT_ACCEPT " == *" $name "* ]] && listing "$T/sandbox" "$T" >"$HERE/expected/$name.tree"
        echo "recorded $name (exit $rc)"
    fi
    if [ "$rc" != "$want_rc" ]; then why+=" exit $rc (want $want_rc);"; fi
    if ! cmp -s "$T/.stdout" "$HERE/expected/$name.out"; then
        why+=" stdout differs;"
        diff "$HERE/expected/$name.out" "$T/.stdout" | head -n 20 | sed 's/^/    /'
    fi
    if [ -f "$HERE/expected/$name.err" ] && ! cmp -s "$T/.stderr" "$HERE/expected/$name.err"; then
        why+=" stderr differs;"
        diff "$HERE/expected/$name.err" "$T/.stderr" | head -n 20 | sed 's/^/    /'
    fi
    if [ -f "$HERE/expected/$name.errpat" ] && ! match_lines "$T/.stderr" "$HERE/expected/$name.errpat"; then
        why+=" stderr does not match $name.errpat;"
        head -n 10 "$T/.stderr" | sed 's/^/    /'
    fi
    if [ -f "$HERE/expected/$name.tree" ]; then
        listing "$T/sandbox" "$T" >"$T/.tree"
        if ! cmp -s "$T/.tree" "$HERE/expected/$name.tree"; then
            why+=" files differ;"
            diff "$HERE/expected/$name.tree" "$T/.tree" | head -n 20 | sed 's/^/    /'
        fi
    fi
    if [ "$(listing "$T/outside" "$T")" != "$before" ]; then
        why+=" OUTSIDE THE SANDBOX CHANGED;"
        listing "$T/outside" "$T" | sed 's/^/    /'
    fi
    if [ -n "$why" ]; then
        echo "FAIL $name:$why"
        [ -s "$T/.stderr" ] && head -n 5 "$T/.stderr" | sed 's/^/    stderr: /'
        fail=$((fail + 1))
        [ -n "${WEFT_KEEP:-}" ] && echo "    kept $T" && return
    else
        pass=$((pass + 1))
    fi
    rm -rf "$T"
}

# ---- the cases: one or more per WASI function ----
t args args 0 -- one "two words" ""
t environ environ 0 --env A=1 --env B=two=2 --env EMPTY=
t clock clock 0
t random random 0
t fd_advise fd_advise 0
t fd_allocate fd_allocate 0
t fd_close fd_close 0
t fd_sync fd_sync 0
t fd_fdstat_get fd_fdstat_get 0
t fd_fdstat_set_flags fd_fdstat_set_flags 0
t fd_fdstat_set_rights fd_fdstat_set_rights 0
# wasi-testsuite's fd_fdstat_set_rights, call for call (issue 39).
t set_rights_shown set_rights_shown 0
t fd_filestat_get fd_filestat_get 0
t fd_filestat_set_size fd_filestat_set_size 0
t fd_filestat_set_times fd_filestat_set_times 0
t fd_pread_pwrite fd_pread_pwrite 0
t fd_prestat fd_prestat 0 --dir other::data
t fd_read fd_read 0
t fd_readdir fd_readdir 0
t fd_renumber fd_renumber 0
t fd_seek fd_seek 0
t fd_write fd_write 0
t path_create_directory path_create_directory 0
t path_filestat path_filestat 0
t path_link path_link 0
t path_open path_open 0
t path_readlink path_readlink 0
t path_remove_directory path_remove_directory 0
t path_rename path_rename 0
t path_symlink path_symlink 0
t path_unlink_file path_unlink_file 0
t poll_oneoff poll_oneoff 0
# The answers wasi-libc's own test suite checks, through libc (issue 27).
t libc_calls libc_calls 0
t proc_exit proc_exit 42
t proc_raise proc_raise 143
t sched_yield sched_yield 0
t unstable unstable 0
# Whole programs.
t walk walk 0
t copy copy 0 -- /sandbox/src.bin /sandbox/dst.bin
t copy_missing copy 1 -- /sandbox/nope.bin /sandbox/dst.bin
t cat cat 0
t timing timing 0
t sleep sleep 0
t nested_exit nested_exit 7 -- 5
t trap trap 134
t escape escape 0

# Sockets: the guest serves one client on a --listen socket.
sock_case() {
    local name=sock
    if [ ${#ONLY[@]} -gt 0 ] && [[ ! " ${ONLY[*]} " == *" $name "* ]]; then return; fi
    local T port rc before
    T=$(mktemp -d "${TMPDIR:-/tmp}/weft-wasi.XXXXXX")
    mkdir "$T/sandbox" "$T/outside"; printf 'secret' >"$T/outside/secret.txt"
    before=$(listing "$T/outside" "$T")
    cp "$HERE/wasm/sock.wasm" "$T/prog.wasm"
    local attempt pid i
    for attempt in 1 2 3 4 5; do # another program may hold a random port
        port=$((20000 + RANDOM % 20000))
        rm -f "$T/.rc" "$T/.stdout" "$T/.reply"
        (cd "$T" && timeout 60 "$WEFT" run --dir sandbox::/sandbox --listen "127.0.0.1:$port" prog.wasm \
            </dev/null >"$T/.stdout" 2>"$T/.stderr"; echo $? >"$T/.rc") &
        pid=$!
        for i in $(seq 1 100); do
            grep -q '^ready' "$T/.stdout" 2>/dev/null && break
            [ -f "$T/.rc" ] && break
            sleep 0.1
        done
        if [ -f "$T/.rc" ] && grep -q 'cannot listen' "$T/.stderr"; then wait "$pid"; continue; fi
        if exec 5<>"/dev/tcp/127.0.0.1/$port"; then
            printf 'hello socket\n' >&5
            IFS= read -r -t 10 reply <&5
            exec 5>&-
            echo "$reply" >"$T/.reply"
        fi
        wait "$pid"
        break
    done
    rc=$(cat "$T/.rc" 2>/dev/null || echo none)
    if [ "$(cat "$T/.reply" 2>/dev/null)" != "HELLO SOCKET" ]; then
        echo "FAIL sock: client got '$(cat "$T/.reply" 2>/dev/null)'"
        fail=$((fail + 1))
    fi
    check_case sock "$T" "$rc" 0 "$before"
}
sock_case

# A symlink swapped in and out during resolution: the host flips
# sandbox/swap between a directory and symlinks to the outside (absolute
# and relative) as fast as it can while the guest opens swap/f.txt for a
# second; nothing may appear outside. The swapper is perl (always there on
# Debian) so that it swaps thousands of times during the run.
swap_case() {
    local name=swap
    if [ ${#ONLY[@]} -gt 0 ] && [[ ! " ${ONLY[*]} " == *" $name "* ]]; then return; fi
    local T rc before swaps
    T=$(mktemp -d "${TMPDIR:-/tmp}/weft-wasi.XXXXXX")
    mkdir "$T/sandbox" "$T/outside" "$T/sandbox/swap"; printf 'secret' >"$T/outside/secret.txt"
    before=$(listing "$T/outside" "$T")
    cp "$HERE/wasm/swap.wasm" "$T/prog.wasm"
    (cd "$T/sandbox" && exec perl -e '
        my ($abs, $stop) = @ARGV; my $n = 0;
        until (-e $stop) {
            mkdir "real"; rename "real", "swap"; rename "swap", "real";
            symlink $abs, "swap"; unlink "swap";
            symlink "../outside", "swap"; unlink "swap";
            $n++;
        }
        print "$n\n";' "$T/outside" "$T/.stop" >"$T/.swaps" 2>/dev/null) &
    local swapper=$!
    (cd "$T" && timeout 120 "$WEFT" run --dir sandbox::/sandbox prog.wasm </dev/null \
        >"$T/.stdout" 2>"$T/.stderr")
    rc=$?
    touch "$T/.stop"
    wait "$swapper"
    swaps=$(cat "$T/.swaps" 2>/dev/null || echo 0)
    [ -n "${WEFT_VERBOSE:-}" ] && echo "swap: $swaps swaps"
    if [ "${swaps:-0}" -lt 100 ]; then
        echo "FAIL swap: the swapper only managed ${swaps:-0} swaps"
        fail=$((fail + 1))
    fi
    check_case swap "$T" "$rc" 0 "$before"
}
swap_case

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
