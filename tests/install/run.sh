#!/usr/bin/env bash
# Packaging: `make install` into a temporary PREFIX (and with DESTDIR)
# puts the command, libweft.a, libweft.so.VERSION with its soname and
# links, weft.h, wasm.h, weft_wasm.h, weft.pc and weft.1 in place; a host
# program (host.c) builds against the installed library with nothing but
# pkg-config, shared (run with LD_LIBRARY_PATH, or linked with an rpath) and
# static, and runs, and so does a wasm.h host
# (examples/capi_host.c); the man page renders with `man -l` without troff
# warnings, documents every option `weft run --help` lists, and is what the
# options table generates (docs/weft.1 is not stale); `make uninstall`
# removes every file.
#
# Usage: tests/install/run.sh [BUILD]. Ends with "N passed, N failed".
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/tests/install
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
if [ ! -x "$BUILD/weft" ]; then
    echo "no $BUILD/weft: build first"
    echo "0 passed, 1 failed"
    exit 1
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/weft-install.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
P=$TMP/prefix
VERSION=$(sed -n 's/^#define WEFT_VERSION "\(.*\)"/\1/p' "$ROOT/include/weft.h")
MAJOR=${VERSION%%.*}
# A sanitizer build's libraries need the sanitizer at link time too.
SANFLAGS=""
if nm "$BUILD/libweft.a" 2>/dev/null | grep -q __asan_; then SANFLAGS="-fsanitize=address,undefined"
elif nm "$BUILD/libweft.a" 2>/dev/null | grep -q __tsan_; then SANFLAGS="-fsanitize=thread"; fi

# ---- make install PREFIX=... ----
if make -s -C "$ROOT" BUILD="$BUILD" PREFIX="$P" install >"$TMP/install.log" 2>&1; then ok; else
    bad "make install: $(tail -n 3 "$TMP/install.log")"
fi
for f in bin/weft lib/libweft.a "lib/libweft.so.$VERSION" include/weft.h include/wasm.h include/weft_wasm.h \
    lib/pkgconfig/weft.pc \
    share/man/man1/weft.1; do
    if [ -f "$P/$f" ]; then ok; else bad "installed: no $f"; fi
done
[ -x "$P/bin/weft" ] && ok || bad "bin/weft is not executable"
if [ "$(readlink "$P/lib/libweft.so.$MAJOR")" = "libweft.so.$VERSION" ] &&
    [ "$(readlink "$P/lib/libweft.so")" = "libweft.so.$MAJOR" ]; then ok; else
    bad "links: libweft.so.$MAJOR -> $(readlink "$P/lib/libweft.so.$MAJOR"), libweft.so -> $(readlink "$P/lib/libweft.so")"
fi
soname=$(readelf -d "$P/lib/libweft.so.$VERSION" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = "libweft.so.$MAJOR" ] && ok || bad "soname '$soname' (want libweft.so.$MAJOR)"
# Only the public APIs are exported: weft.h's weft_* and wasm.h's wasm_*.
if nm -D --defined-only "$P/lib/libweft.so.$VERSION" | awk '$2 == "T" {print $3}' | grep -v '^weft_' |
    grep -v '^wasm_' | grep -v '^_' | grep -q .; then
    bad "libweft.so exports functions of neither API: $(nm -D --defined-only "$P/lib/libweft.so.$VERSION" |
        awk '$2 == "T" {print $3}' | grep -v '^weft_' | grep -v '^wasm_' | grep -v '^_' | head -n 5 | tr '\n' ' ')"
else ok; fi
"$P/bin/weft" --version >"$TMP/v" 2>&1 && [ "$(head -n 1 "$TMP/v")" = "weft $VERSION" ] && ok ||
    bad "installed weft --version: $(head -n 1 "$TMP/v")"

# ---- pkg-config alone ----
export PKG_CONFIG_PATH=$P/lib/pkgconfig
export PKG_CONFIG_LIBDIR=$P/lib/pkgconfig
[ "$(pkg-config --modversion weft)" = "$VERSION" ] && ok || bad "pkg-config --modversion: $(pkg-config --modversion weft 2>&1)"
want="libweft $VERSION (header $VERSION)
add(2, 3) = 5
loop_n(100) with 98 units: trap: all fuel consumed"
M1=$ROOT/tests/cli/wasm/calc.wasm
M2=$ROOT/tests/limits/wasm/count.wasm
# shellcheck disable=SC2046
if cc $SANFLAGS -o "$TMP/host-shared" "$HERE/host.c" $(pkg-config --cflags --libs weft) 2>"$TMP/cc.err"; then
    ok
    got=$(LD_LIBRARY_PATH=$P/lib "$TMP/host-shared" "$M1" "$M2" 2>&1)
    [ "$got" = "$want" ] && ok || bad "host (shared) printed [$got]"
    LD_LIBRARY_PATH=$P/lib ldd "$TMP/host-shared" | grep -q "libweft.so.$MAJOR => $P/lib/libweft.so.$MAJOR" && ok ||
        bad "host (shared) does not load $P/lib/libweft.so.$MAJOR: $(LD_LIBRARY_PATH=$P/lib ldd "$TMP/host-shared" | grep weft)"
else
    bad "cc host.c \$(pkg-config --cflags --libs weft): $(head -n 3 "$TMP/cc.err")"
fi
# The README's two ways for a prefix outside the loader's path: without
# LD_LIBRARY_PATH the host above does not start (the loader's message), and
# linked with an rpath to PREFIX/lib it starts and loads libweft from there.
if [ -x "$TMP/host-shared" ]; then
    got=$(env -u LD_LIBRARY_PATH "$TMP/host-shared" "$M1" "$M2" 2>&1)
    grep -q "libweft.so.$MAJOR: cannot open shared object file" <<<"$got" && ok ||
        bad "host (shared) without LD_LIBRARY_PATH printed [$got]"
fi
# shellcheck disable=SC2046
if cc $SANFLAGS -o "$TMP/host-rpath" "$HERE/host.c" $(pkg-config --cflags --libs weft) \
    -Wl,-rpath,"$P/lib" 2>"$TMP/cc.err"; then
    ok
    got=$(env -u LD_LIBRARY_PATH "$TMP/host-rpath" "$M1" "$M2" 2>&1)
    [ "$got" = "$want" ] && ok || bad "host (rpath) printed [$got]"
    env -u LD_LIBRARY_PATH ldd "$TMP/host-rpath" | grep -q "libweft.so.$MAJOR => $P/lib/libweft.so.$MAJOR" && ok ||
        bad "host (rpath) does not load $P/lib/libweft.so.$MAJOR: $(env -u LD_LIBRARY_PATH ldd "$TMP/host-rpath" | grep weft)"
else
    bad "cc host.c \$(pkg-config --cflags --libs weft) -Wl,-rpath,PREFIX/lib: $(head -n 3 "$TMP/cc.err")"
fi
# A wasm.h host (examples/capi_host.c, docs/capi.md) builds with the same
# pkg-config line and runs against the installed library.
# shellcheck disable=SC2046
if cc $SANFLAGS -o "$TMP/capi-host" "$ROOT/examples/capi_host.c" $(pkg-config --cflags --libs weft) \
    2>"$TMP/cc.err"; then
    ok
    got=$(LD_LIBRARY_PATH=$P/lib "$TMP/capi-host" "$ROOT/examples/capi_guest.wasm" 2>&1)
    [ "$got" = $'[log] hello from the guest\nand a line through WASI' ] && ok ||
        bad "wasm.h host printed [$got]"
else
    bad "cc capi_host.c \$(pkg-config --cflags --libs weft): $(head -n 3 "$TMP/cc.err")"
fi
# Static: everything from the archives (pkg-config --static adds the
# private libraries). A sanitizer runtime cannot be linked statically, so
# such a build links libweft.a alone statically.
# shellcheck disable=SC2046
if [ -z "$SANFLAGS" ]; then
    static=(-static $(pkg-config --static --libs weft))
else
    static=($(pkg-config --libs-only-L weft) -Wl,-Bstatic -lweft -Wl,-Bdynamic
        $(pkg-config --static --libs-only-l weft | sed 's/-lweft//'))
fi
# shellcheck disable=SC2046
if cc $SANFLAGS -o "$TMP/host-static" "$HERE/host.c" $(pkg-config --cflags weft) "${static[@]}" \
    2>"$TMP/cc.err"; then
    ok
    got=$("$TMP/host-static" "$M1" "$M2" 2>&1)
    [ "$got" = "$want" ] && ok || bad "host (static) printed [$got]"
    if ldd "$TMP/host-static" 2>&1 | grep -q libweft; then bad "host (static) loads libweft.so"; else ok; fi
else
    bad "cc -static host.c \$(pkg-config --static --libs weft): $(grep -v 'statically linked' "$TMP/cc.err" | head -n 3)"
fi

# ---- the man page ----
man_txt=$(MANWIDTH=80 man -l "$P/share/man/man1/weft.1" 2>"$TMP/man.err" | col -bx)
if [ -n "$man_txt" ] && grep -q '^NAME' <<<"$man_txt" && grep -q 'weft - a WebAssembly runtime' <<<"$man_txt"; then ok; else
    bad "man -l: no page rendered ($(head -n 2 "$TMP/man.err"))"
fi
warn=$(groff -man -ww -z "$P/share/man/man1/weft.1" 2>&1)
[ -z "$warn" ] && ok || bad "groff warnings: $(head -n 3 <<<"$warn")"
# Every option --help lists is in the page, and the reverse.
help_opts=$("$BUILD/weft" run --help | sed -n '/^Options of/,/^  --  /p' | grep -E '^  -' |
    awk '{print $1}' | LC_ALL=C sort -u)
man_opts=$(sed -n '/^OPTIONS/,/^WASMTIME/p' <<<"$man_txt" | grep -E '^       -' | awk '{print $1}' |
    grep -v '^--$' | LC_ALL=C sort -u)
help_opts=$(grep -v '^--$' <<<"$help_opts")
if [ -n "$help_opts" ] && [ "$help_opts" = "$man_opts" ]; then ok; else
    bad "options of --help and man weft differ (< help, > man):"
    diff <(echo "$help_opts") <(echo "$man_opts") | grep '^[<>]' | sed 's/^/    /'
fi
# Each option's help paragraph is the same text in both.
para_ok=1
for o in --timeout --fuel --dir; do
    h=$("$BUILD/weft" run --help | awk -v o="  $o " 'index($0, o) == 1 {on = 1; sub(/^  [^ ]+ [^ ]+ */, ""); print; next}
        on && /^                          / {sub(/^ +/, ""); print; next} on {exit}' | tr -s ' \n' '  ')
    m=$(sed -n "/^       $o /,/^$/p" <<<"$man_txt" | tail -n +2 | tr -s ' \n' '  ')
    [ "$(tr -d ' ' <<<"$h")" = "$(tr -d ' ' <<<"$m")" ] || { para_ok=0; echo "    $o: help [$h] man [$m]"; }
done
[ "$para_ok" = 1 ] && ok || bad "option paragraphs of --help and man weft differ"
# man weft finds the installed page.
MANPATH=$P/share/man MANWIDTH=80 man weft 2>/dev/null | col -b | grep -q 'WASMTIME SPELLINGS' && ok ||
    bad "MANPATH=$P/share/man man weft: not found"
# The committed page is what the options table makes (make man).
if "$BUILD/weft" --help-man | cmp -s - "$ROOT/docs/weft.1"; then ok; else
    bad "docs/weft.1 is stale: run 'make man'"
fi

# ---- DESTDIR: staged, with the final paths inside ----
if make -s -C "$ROOT" BUILD="$BUILD" PREFIX=/opt/weft DESTDIR="$TMP/stage" install >"$TMP/stage.log" 2>&1 &&
    [ -x "$TMP/stage/opt/weft/bin/weft" ] && [ -f "$TMP/stage/opt/weft/lib/libweft.so.$VERSION" ] &&
    grep -qx 'prefix=/opt/weft' "$TMP/stage/opt/weft/lib/pkgconfig/weft.pc" &&
    grep -qx 'libdir=/opt/weft/lib' "$TMP/stage/opt/weft/lib/pkgconfig/weft.pc"; then ok; else
    bad "make install DESTDIR=: $(tail -n 2 "$TMP/stage.log"); $(find "$TMP/stage" -type f | head -n 3)"
fi

# ---- make uninstall ----
make -s -C "$ROOT" BUILD="$BUILD" PREFIX="$P" uninstall >"$TMP/un.log" 2>&1
left=$(find "$P" -type f -o -type l)
[ -z "$left" ] && ok || bad "make uninstall left: $(head -n 5 <<<"$left" | tr '\n' ' ')"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
