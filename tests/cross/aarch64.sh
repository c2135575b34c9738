#!/usr/bin/env bash
# weft on aarch64 Linux, under qemu-user: cross-builds the command and the
# spec runner with Debian's gcc-aarch64-linux-gnu into build-aarch64 (the
# interpreter alone: the compiler tier is x86-64 only, src/jit), then runs
# under qemu-aarch64 the spec groups make test runs (core, threads, simd,
# and the Wasm 3.0 scripts with the proposal groups) and the thread
# scenarios (tests/threads/run.sh), so nothing x86-only slips into the
# portable paths. CI runs it (.ci/run); `make test` does not (it needs the
# cross compiler and qemu).
#
# Usage: tests/cross/aarch64.sh [--install]
#   --install   apt-get install what is missing (root): gcc-aarch64-linux-gnu,
#               libc6-dev-arm64-cross, qemu-user
#   SCHED=...   the thread scenarios' modes (tests/threads/run.sh; default
#               "os pool det:1": an OS thread each, the pool, and one
#               deterministic seed, the scheduler's three kinds; make test
#               runs all six on x86-64)
#   CASES=...   the thread scenarios run (default below)
#
# The thread scenarios are a chosen subset: those whose outcome is the
# program's own (exact output, exit status, trap message, limits, the
# deterministic replay). Left out are those that hold the host's clock or
# memory to a limit, which an emulator on a shared machine does not keep:
# proc_exit's latency (exit, trap_parked: 3 s), the deadlock report
# within 5 s, sleep_precision, the peak RSS under --max-memory (budget:
# qemu's own memory counts), 10,000 parked threads within 120 s (many), the
# SIGQUIT dumps within 10 s, --explore's 1000 runs within 120 s; and tiers,
# as aarch64 has one tier. All 6 modes with every scenario took 47 min
# under qemu on the 2-core machine at a load of 20-30, with 18 of 156
# failing on those limits.
#   BUILD=...   the build directory (default build-aarch64)
# Prints each group's closing line and "N passed, N failed" last; exits
# non-zero on any failure (2 when a tool is missing).
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build-aarch64}
SYSROOT=/usr/aarch64-linux-gnu
QEMU=(qemu-aarch64 -L "$SYSROOT")
export SCHED=${SCHED:-os pool det:1}
export CASES=${CASES:-mutex_counter condvar barrier join timed_wait spin_flag short_lived trap one_runner limit load race}

missing=()
command -v aarch64-linux-gnu-gcc >/dev/null || missing+=(gcc-aarch64-linux-gnu)
[ -f "$SYSROOT/include/stdio.h" ] || missing+=(libc6-dev-arm64-cross)
command -v qemu-aarch64 >/dev/null || missing+=(qemu-user)
if [ ${#missing[@]} -gt 0 ] && [ "${1:-}" = --install ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" &&
        missing=()
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "aarch64.sh: missing Debian packages: ${missing[*]} (apt-get install them, or --install as root)" >&2
    echo "0 passed, 1 failed"
    exit 2
fi

t0=$SECONDS
if ! make -s CC=aarch64-linux-gnu-gcc BUILD="$BUILD" WERROR=1 "$BUILD/weft" "$BUILD/weft-spectest"; then
    echo "aarch64.sh: the cross build failed"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "== cross build: $((SECONDS - t0)) s"
# The built command must really be an aarch64 program with the interpreter
# alone (no compiler tier), or the run below would test the wrong thing.
file_arch=$(readelf -h "$BUILD/weft" | sed -n 's/ *Machine: *//p')
if [ "$file_arch" != AArch64 ]; then
    echo "aarch64.sh: $BUILD/weft is for '$file_arch', not AArch64"
    echo "0 passed, 1 failed"
    exit 1
fi

# tests/threads/run.sh runs $BUILD/weft; it gets this one, which starts the
# aarch64 weft under qemu.
Q=$(mktemp -d "${TMPDIR:-/tmp}/weft-aarch64.XXXXXX")
trap 'rm -rf "$Q"' EXIT
printf '#!/bin/sh\nexec qemu-aarch64 -L "%s" "%s" "$@"\n' "$SYSROOT" "$(cd "$BUILD" && pwd)/weft" >"$Q/weft"
chmod +x "$Q/weft"
"$Q/weft" --version | grep -q '^not built in: .*jit' || {
    echo "aarch64.sh: $BUILD/weft under qemu: $("$Q/weft" --version 2>&1 | head -n 3)"
    echo "0 passed, 1 failed"
    exit 1
}

spec_root=$(dirname "${WEFT_SPEC_DIR:-../shared/spec/core}")
total_pass=0 total_fail=0 status=0
# group NAME CMD...: runs one suite, adds up its closing line.
group() {
    local name=$1 t=$SECONDS out line p f
    shift
    out=$("$@" 2>&1)
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' <<<"$out" | tail -n 1)
    if [ -z "$line" ]; then
        echo "== $name: no closing line"; tail -n 20 <<<"$out"
        total_fail=$((total_fail + 1)); status=1; return
    fi
    p=${line%% passed*}; f=${line#* passed, }; f=${f%% failed*}
    total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
    if [ "$f" -ne 0 ]; then status=1; grep -E '^FAIL|failed' <<<"$out" | grep -v ' 0 failed' | head -n 20; fi
    echo "== $name: $line ($((SECONDS - t)) s)"
}
wasm3_dirs=()
for d in "$spec_root/wasm-3.0" "$spec_root"/proposals-* tests/spectest/wasm-3.0; do
    [ -d "$d" ] && wasm3_dirs+=("$d")
done
group spec "${QEMU[@]}" "$BUILD/weft-spectest" "$spec_root/core"
group spec-threads "${QEMU[@]}" "$BUILD/weft-spectest" "$spec_root/threads"
group spec-simd "${QEMU[@]}" "$BUILD/weft-spectest" "$spec_root/simd"
group spec-wasm3 "${QEMU[@]}" "$BUILD/weft-spectest" "${wasm3_dirs[@]}"
group "threads ($SCHED)" bash tests/threads/run.sh "$Q"
echo "== aarch64 under qemu: $((SECONDS - t0)) s in all"
echo "$total_pass passed, $total_fail failed"
exit $status
