#!/bin/bash
# Runs wasi-libc's own test suite (its test/ directory: a subset of
# libc-test and wasi-libc's C tests, built by CMake, run by ctest) with
# weft as the engine, on wasm32-wasip1 and wasm32-wasip1-threads.
#
# Neither source is in this repository and nothing this script builds is
# committed: it takes a wasi-libc and a libc-test that you fetched, builds
# wasi-libc's sysroots with wasi-libc's own Makefile and the suite with its
# own CMakeLists.txt in a work directory outside the repository, and runs
# ctest there. `make test` and CI do not run it; tests/libc-suite/RESULTS.md
# says what it gave.
#
# Each source is a git repository (bare or not: the pinned commit is
# extracted with git archive) or a source tree already at that commit.
# wasi-libc's is tag wasi-sdk-29 unless --wasi-libc-rev says otherwise;
# libc-test's is the commit wasi-libc's test/CMakeLists.txt pins, handed to
# FetchContent as a local source, so nothing is downloaded.
#
# Exit status: 0 when every test passed on every target, 1 when one
# failed, 2 for a usage or set-up error.

set -euo pipefail

readonly WASI_LIBC_DEFAULT_REV=wasi-sdk-29
readonly ALL_TARGETS="wasm32-wasip1 wasm32-wasip1-threads"
# The tests' own limit (`TIMEOUT 10` in test/CMakeLists.txt); also given to
# ctest for the steps without one (the FS tests' setup and cleanup).
readonly SUITE_TIMEOUT=10

repo=$(cd "$(dirname "$0")/../.." && pwd)

usage() {
    cat <<EOF
usage: $0 --wasi-libc SRC --libc-test SRC [OPTIONS]

Builds wasi-libc's sysroots and test suite outside the repository and runs
the suite with weft as its engine, one target after the other.

  --wasi-libc SRC      wasi-libc: a git repository or a source tree
                       (env WASI_LIBC_SRC)
  --libc-test SRC      bytecodealliance/libc-test: a git repository or a
                       source tree (env LIBC_TEST_SRC)
  --wasi-libc-rev REV  wasi-libc commit or tag to extract from a git SRC
                       (default $WASI_LIBC_DEFAULT_REV)
  --weft PATH          the weft to test (env WEFT; default build/weft)
  --engine-arg ARG     pass ARG to weft before the suite's own options,
                       e.g. --engine-arg --sched --engine-arg os (repeatable)
  --target TRIPLE      wasm32-wasip1 or wasm32-wasip1-threads (repeatable;
                       default both)
  --work DIR           work directory, reused when present (env
                       WEFT_LIBC_SUITE_WORK; default
                       \${XDG_CACHE_HOME:-/tmp}/weft-libc-suite)
  -j N                 ctest runs N tests at once (default 1: the suite's
                       10 s limit is meant for a test that has the machine)
  -R REGEX             run only the tests whose name matches (ctest -R)
  --build-only         build the sysroots and the tests, run nothing
  --install            apt-get install the missing Debian packages (root)
  --llvm N             LLVM major version of clang-N, lld-N, llvm-N
                       (default 19)

Debian packages: clang-N lld-N llvm-N libclang-rt-N-dev-wasm32 make git,
and cmake >= 3.26 (on Debian 12 from bookworm-backports).
EOF
}

die() {
    echo "run.sh: $*" >&2
    exit 2
}

# --- Options -------------------------------------------------------------

wasi_libc_src=${WASI_LIBC_SRC:-}
libc_test_src=${LIBC_TEST_SRC:-}
wasi_libc_rev=$WASI_LIBC_DEFAULT_REV
weft=${WEFT:-$repo/build/weft}
engine_args=()
targets=()
work=${WEFT_LIBC_SUITE_WORK:-${XDG_CACHE_HOME:-/tmp}/weft-libc-suite}
jobs=1
regex=
build_only=0
install=0
llvm=19

need_arg() {
    [ "$#" -ge 2 ] || die "$1 needs a value (--help)"
}

while [ "$#" -gt 0 ]; do
    case $1 in
    --wasi-libc) need_arg "$@"; wasi_libc_src=$2; shift 2 ;;
    --libc-test) need_arg "$@"; libc_test_src=$2; shift 2 ;;
    --wasi-libc-rev) need_arg "$@"; wasi_libc_rev=$2; shift 2 ;;
    --weft) need_arg "$@"; weft=$2; shift 2 ;;
    --engine-arg) need_arg "$@"; engine_args+=("$2"); shift 2 ;;
    --target) need_arg "$@"; targets+=("$2"); shift 2 ;;
    --work) need_arg "$@"; work=$2; shift 2 ;;
    -j) need_arg "$@"; jobs=$2; shift 2 ;;
    -j[0-9]*) jobs=${1#-j}; shift ;;
    -R) need_arg "$@"; regex=$2; shift 2 ;;
    --build-only) build_only=1; shift ;;
    --install) install=1; shift ;;
    --llvm) need_arg "$@"; llvm=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option '$1'" ;;
    esac
done

if [ -z "$wasi_libc_src" ] || [ -z "$libc_test_src" ]; then
    usage >&2
    exit 2
fi
[ "${#targets[@]}" -gt 0 ] || read -r -a targets <<<"$ALL_TARGETS"
for t in "${targets[@]}"; do
    case " $ALL_TARGETS " in
    *" $t "*) ;;
    *) die "unknown target '$t' (one of: $ALL_TARGETS)" ;;
    esac
done
case $jobs in
'' | *[!0-9]* | 0) die "-j wants a positive number, not '$jobs'" ;;
esac

# --- Prerequisites -------------------------------------------------------

clang=clang-$llvm

# Prints the Debian packages whose commands are missing, one a line.
missing_packages() {
    local cmd
    for cmd in "$clang:clang-$llvm" "wasm-ld-$llvm:lld-$llvm" \
        "llvm-ar-$llvm:llvm-$llvm" "llvm-nm-$llvm:llvm-$llvm" \
        "llvm-ranlib-$llvm:llvm-$llvm" make:make git:git tar:tar; do
        command -v "${cmd%%:*}" >/dev/null || echo "${cmd#*:}"
    done
    if ! command -v "$clang" >/dev/null || [ -z "$(builtins_lib)" ]; then
        echo "libclang-rt-$llvm-dev-wasm32"
    fi
    cmake_is_new_enough || echo cmake
}

# The compiler-rt builtins for wasm32 that clang-N brings
# (libclang-rt-N-dev-wasm32), or nothing. wasi-libc's Makefile would
# download a copy without it.
builtins_lib() {
    local dir f
    dir=$("$clang" -print-resource-dir)
    for f in "$dir/lib/wasi/libclang_rt.builtins-wasm32.a" \
        "$dir/lib/wasm32-unknown-wasip1/libclang_rt.builtins.a"; do
        if [ -f "$f" ]; then
            echo "$f"
            return
        fi
    done
}

# The suite needs CMake 3.26 (cmake_minimum_required in its CMakeLists.txt).
cmake_is_new_enough() {
    local major minor
    command -v cmake >/dev/null && command -v ctest >/dev/null || return 1
    read -r major minor < <(cmake --version |
        sed -n '1s/^cmake version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
    [ -n "$minor" ] && { [ "$major" -gt 3 ] || { [ "$major" -eq 3 ] && [ "$minor" -ge 26 ]; }; }
}

install_packages() {
    local plain=() codename p
    # shellcheck source=/dev/null
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    for p in "$@"; do
        [ "$p" = cmake ] && [ "$codename" = bookworm ] && continue
        plain+=("$p")
    done
    if [ "${#plain[@]}" -gt 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y "${plain[@]}"
    fi
    if [ "${#plain[@]}" -ne "$#" ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -t bookworm-backports cmake
    fi
}

mapfile -t missing < <(missing_packages | sort -u)
if [ "${#missing[@]}" -gt 0 ]; then
    [ "$install" = 0 ] || [ "$(id -u)" = 0 ] || echo "run.sh: --install needs root" >&2
    if [ "$install" = 1 ] && [ "$(id -u)" = 0 ]; then
        echo "== installing: ${missing[*]}"
        apt-get update
        install_packages "${missing[@]}"
        mapfile -t missing < <(missing_packages | sort -u)
    fi
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "run.sh: missing Debian packages: ${missing[*]}" >&2
        others=$(printf '%s\n' "${missing[@]}" | grep -vx cmake | tr '\n' ' ' || true)
        [ -z "$others" ] || echo "  apt-get install $others" >&2
        if printf '%s\n' "${missing[@]}" | grep -qx cmake; then
            echo "  apt-get install -t bookworm-backports cmake   # >= 3.26; Debian 12's own is 3.25" >&2
        fi
        echo "  (or run this script as root with --install)" >&2
        exit 2
    fi
fi

[ -x "$weft" ] || die "no weft at '$weft' (run make, or give --weft)"
weft=$(realpath "$weft")

# --- Sources -------------------------------------------------------------

mkdir -p "$work"
work=$(realpath "$work")

# Prints the commit that REV names in git repository DIR, or nothing when
# DIR is not a git repository.
git_commit() {
    git -C "$1" rev-parse --git-dir >/dev/null 2>&1 || return 0
    git -C "$1" rev-parse --verify --quiet "$2^{commit}" ||
        die "'$1' has no commit '$2'"
}

# Makes a copy of source SRC at REV under the work directory and prints its
# path. A git repository gives the tree of REV; a plain tree is copied
# as it is (wasi-libc's build writes into its source).
source_copy() {
    local name=$1 src=$2 rev=$3 commit dest
    [ -d "$src" ] || die "no directory '$src' for $name"
    commit=$(git_commit "$src" "$rev")
    if [ -n "$commit" ]; then
        dest=$work/src/$name-$commit
        if [ ! -d "$dest" ]; then
            mkdir -p "$dest.part"
            git -C "$src" archive "$commit" | tar -x -C "$dest.part"
            mv "$dest.part" "$dest"
        fi
    else
        # One copy per source path, made once: remove it to take changes.
        dest=$work/src/$name-tree-$(realpath "$src" | cksum | cut -d' ' -f1)
        if [ ! -d "$dest" ]; then
            echo "run.sh: '$src' is not a git repository; copying it as the $name" \
                "tree (its commit cannot be checked)" >&2
            mkdir -p "$dest.part"
            cp -a "$src/." "$dest.part"
            mv "$dest.part" "$dest"
        else
            echo "run.sh: using $dest, the copy of '$src' made before" >&2
        fi
    fi
    echo "$dest"
}

libc=$(source_copy wasi-libc "$wasi_libc_src" "$wasi_libc_rev")
[ -f "$libc/test/CMakeLists.txt" ] || die "'$libc' has no test/CMakeLists.txt: not wasi-libc?"
libc_test_rev=$(sed -n '/FetchContent_Declare(/,/)/s/^ *GIT_TAG *\([0-9a-f]*\).*/\1/p' \
    "$libc/test/CMakeLists.txt")
[ -n "$libc_test_rev" ] || die "cannot find libc-test's GIT_TAG in $libc/test/CMakeLists.txt"
libc_test=$(source_copy libc-test "$libc_test_src" "$libc_test_rev")
[ -f "$libc_test/src/common/test.h" ] || die "'$libc_test' has no src/common/test.h: not libc-test?"
# For sleeps.sh: the sources the suite in $work/test-* is built from.
printf '%s\n' "$libc" "$libc_test" >"$work/sources"

# --- Sysroots ------------------------------------------------------------

# Builds wasi-libc for TRIPLE into $libc/sysroot, where the suite looks for
# it, unless an earlier run did. Both targets share that sysroot (lib/ and
# include/ have a directory per triple).
build_sysroot() {
    local triple=$1 model=single stamp=$libc/sysroot/.weft-built-$1
    [ -f "$stamp" ] && return
    [ "$triple" = wasm32-wasip1-threads ] && model=posix
    echo "== building the $triple sysroot (log: $work/sysroot-$triple.log)"
    if ! make -C "$libc" -j"$(nproc)" CC="$clang" AR="llvm-ar-$llvm" NM="llvm-nm-$llvm" \
        TARGET_TRIPLE="$triple" THREAD_MODEL=$model BUILTINS_LIB="$(builtins_lib)" \
        >"$work/sysroot-$triple.log" 2>&1; then
        tail -20 "$work/sysroot-$triple.log" >&2
        die "the $triple sysroot did not build"
    fi
    touch "$stamp"
}

# --- The suite -----------------------------------------------------------

# Configures and builds the suite for TRIPLE in $work/test-TRIPLE with weft
# (and the --engine-arg's) as its engine.
build_suite() {
    local triple=$1 dir=$work/test-$1 engine
    engine=$(IFS=';' && echo "$weft${engine_args[*]:+;${engine_args[*]}}")
    echo "== building the suite for $triple (log: $dir.log)"
    if [ -f "$dir/CMakeCache.txt" ] &&
        ! grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$libc/test" "$dir/CMakeCache.txt"; then
        rm -rf "$dir" # configured from another copy of the sources
    fi
    if ! { cmake -S "$libc/test" -B "$dir" \
        -DCMAKE_C_COMPILER="$clang" -DCMAKE_AR="$(command -v "llvm-ar-$llvm")" \
        -DCMAKE_RANLIB="$(command -v "llvm-ranlib-$llvm")" \
        -DCMAKE_NM="$(command -v "llvm-nm-$llvm")" \
        -DTARGET_TRIPLE="$triple" -DENGINE="$engine" \
        -DFETCHCONTENT_SOURCE_DIR_LIBC-TEST="$libc_test" \
        -DFETCHCONTENT_FULLY_DISCONNECTED=ON &&
        cmake --build "$dir" -j"$(nproc)"; } >"$dir.log" 2>&1; then
        tail -20 "$dir.log" >&2
        die "the suite did not build for $triple"
    fi
}

# Runs the suite for TRIPLE, prints "TRIPLE: N passed, N failed" and the
# failing tests, each with ctest's reason and time; returns 1 when a test
# failed. The FS tests' setup_ and cleanup_ steps are not counted: a failed
# setup shows as its test not run, which counts as failed, and so does a
# test that ctest did not report at all.
run_suite() {
    local triple=$1 dir=$work/test-$1 log defined select=()
    [ -n "$regex" ] && select=(-R "$regex")
    defined=$(ctest --test-dir "$dir" -N "${select[@]}" |
        grep -E '^ *Test +#[0-9]+: ' | grep -cvE ': (setup|cleanup)_' || true)
    log=$work/ctest-$triple-$(date -u +%Y%m%dT%H%M%S).log
    echo "== $triple: ctest -j$jobs, $defined tests (log: $log; load average:" \
        "$(cut -d' ' -f1-3 /proc/loadavg))"
    ctest --test-dir "$dir" -j"$jobs" --timeout "$SUITE_TIMEOUT" --output-on-failure \
        "${select[@]}" >"$log" 2>&1 || true
    # Result lines: " 3/166 Test   #3: NAME ....   Passed    0.58 sec"; the
    # closing list: "  97 - NAME (Failed)" under "The following tests FAILED:".
    awk -v triple="$triple" -v defined="$defined" '
        / Test +#[0-9]+: / {
            name = $0; sub(/.* Test +#[0-9]+: /, "", name); sub(/ .*/, "", name)
            pending = name
            if ($0 ~ /[ .]Passed +[0-9.]+ sec/ && name !~ /^(setup|cleanup)_/) pass++
        }
        pending != "" && match($0, /[0-9.]+ sec$/) {
            # the time ends the result line, or the next one after a regex
            time[pending] = substr($0, RSTART, RLENGTH - 4); pending = ""
        }
        /^The following tests FAILED:/ { in_list = 1; next }
        in_list && /^[ \t]+[0-9]+ - / {
            name = $3
            if (name ~ /^(setup|cleanup)_/) next
            reason = $0; sub(/^[^(]*\(/, "", reason); sub(/\).*/, "", reason)
            listed = listed sprintf("  FAILED %s (%s, %s s)\n", name, reason,
                                    name in time ? time[name] : "?")
        }
        END {
            printf "%s: %d passed, %d failed\n", triple, pass, defined - pass
            printf "%s", listed
            exit (pass != defined || pass == 0)
        }' "$log"
}

echo "weft: $weft${engine_args[*]:+ ${engine_args[*]}}"
echo "wasi-libc: $libc"
echo "libc-test: $libc_test"
echo "work: $work"

status=0
for t in "${targets[@]}"; do
    build_sysroot "$t"
    build_suite "$t"
done
[ "$build_only" = 1 ] && exit 0
for t in "${targets[@]}"; do
    run_suite "$t" || status=1
done
exit "$status"
