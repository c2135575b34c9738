#!/usr/bin/env bash
# bench/corpus/setup.sh — installs and builds the pair corpus's programs
# (bench/corpus/list) into a cache outside git: WEFT_CORPUS, default
# bench/corpus/cache. Other projects' binaries are never committed; this
# script fetches them by pinned version from the package registries:
#
#   Debian  golang-1.22-go (bookworm-backports: GOOS=wasip1), wabt
#   npm     @yowasp/yosys 0.55.944 (Yosys 0.55), @ruby/3.3-wasm-wasi 2.10.1
#           (Ruby 3.3), binaryen 132.0.0 (its wasm-merge, run by node)
#
# and builds from our own sources (src/): gzip.wasm and gojson.wasm with
# that Go, the Yosys run's design (src/design.py), and ruby.wasm: the
# package's ruby+stdlib.wasm is a reactor driven from JavaScript, so it is
# merged with stubs of its JavaScript-bridge imports (src/stub_imports.py)
# and a driver whose _start runs src/bench.rb (src/ruby_driver.py) into a
# WASI command (about 30 s of CPU for wasm-merge). Installing Debian
# packages needs root (it runs apt-get when one is missing); the rest is
# incremental, so running it again is cheap. Prints the versions at the
# end; exits non-zero if anything could not be made.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CORPUS=${WEFT_CORPUS:-$HERE/cache}
mkdir -p "$CORPUS"
CORPUS=$(cd "$CORPUS" && pwd)

YOSYS_NPM=@yowasp/yosys@0.55.944
RUBY_NPM=@ruby/3.3-wasm-wasi@2.10.1
BINARYEN_NPM=binaryen@132.0.0
GO_PKG=golang-1.22-go
GO=/usr/lib/go-1.22/bin/go

need_deb() { # PACKAGE...
    local missing=()
    for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "setup: installing ${missing[*]} (apt-get)"
    [ "$(id -u)" = 0 ] || { echo "setup: need root for apt-get install ${missing[*]}" >&2; exit 1; }
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}"
}
need_deb "$GO_PKG" wabt

# npm packages, pinned, in their own prefix (no lifecycle scripts).
mkdir -p "$CORPUS/npm"
[ -f "$CORPUS/npm/package.json" ] || echo '{"private": true}' >"$CORPUS/npm/package.json"
for spec in "$YOSYS_NPM" "$RUBY_NPM" "$BINARYEN_NPM"; do
    pkg=${spec%@*} ver=${spec##*@}
    if ! grep -qs "\"version\": \"$ver\"" "$CORPUS/npm/node_modules/$pkg/package.json"; then
        echo "setup: npm install $spec"
        (cd "$CORPUS/npm" && npm install --no-audit --no-fund --ignore-scripts "$spec")
    fi
done

# Go programs for wasip1.
mkdir -p "$CORPUS/go"
for p in gzip gojson; do
    if [ ! -f "$CORPUS/go/$p.wasm" ] || [ "$HERE/src/$p.go" -nt "$CORPUS/go/$p.wasm" ]; then
        echo "setup: go build $p.wasm"
        (cd "$HERE/src" && GOCACHE="$CORPUS/go/cache" GOPATH="$CORPUS/go/path" GO111MODULE=off \
            GOOS=wasip1 GOARCH=wasm "$GO" build -trimpath -o "$CORPUS/go/$p.wasm" "$p.go")
    fi
done

# Ruby as a WASI command running src/bench.rb.
mkdir -p "$CORPUS/ruby"
RUBY_SRC=$CORPUS/npm/node_modules/@ruby/3.3-wasm-wasi/dist/ruby+stdlib.wasm
if [ ! -f "$CORPUS/ruby/ruby.wasm" ] || [ "$HERE/src/bench.rb" -nt "$CORPUS/ruby/ruby.wasm" ] ||
    [ "$RUBY_SRC" -nt "$CORPUS/ruby/ruby.wasm" ]; then
    echo "setup: ruby.wasm (wasm-merge)"
    (
        cd "$CORPUS/ruby"
        python3 "$HERE/src/stub_imports.py" "$RUBY_SRC" rb-js-abi-host >stub-js.wat
        python3 "$HERE/src/stub_imports.py" --identity "$RUBY_SRC" canonical_abi >stub-abi.wat
        python3 "$HERE/src/ruby_driver.py" "$HERE/src/bench.rb" >driver.wat
        for m in stub-js stub-abi driver; do wat2wasm "$m.wat" -o "$m.wasm"; done
        node "$CORPUS/npm/node_modules/binaryen/bin/wasm-merge" --enable-bulk-memory --enable-sign-ext \
            --enable-nontrapping-float-to-int --enable-mutable-globals \
            "$RUBY_SRC" ruby stub-js.wasm rb-js-abi-host stub-abi.wasm canonical_abi driver.wasm driver \
            -o ruby.wasm.tmp
        mv ruby.wasm.tmp ruby.wasm
    )
fi

# Every program's working directory (preopened as "/").
while IFS='|' read -r name _; do
    name=$(echo "$name" | tr -d ' ')
    case $name in '' | '#'*) continue ;; esac
    mkdir -p "$CORPUS/data/$name"
done <"$HERE/list"
python3 "$HERE/src/design.py" 30 >"$CORPUS/data/yosys/design.v"

echo "setup: corpus in $CORPUS"
echo "  $("$GO" version)"
echo "  @ruby/3.3-wasm-wasi $(sed -n 's/.*"version": "\(.*\)".*/\1/p' "$CORPUS/npm/node_modules/@ruby/3.3-wasm-wasi/package.json" | head -1)"
echo "  @yowasp/yosys $(sed -n 's/.*"version": "\(.*\)".*/\1/p' "$CORPUS/npm/node_modules/@yowasp/yosys/package.json" | head -1)"
