#!/usr/bin/env python3
"""ruby_driver.py — a WebAssembly text module that turns the ruby.wasm of
@ruby/3.3-wasm-wasi (a reactor driven from JavaScript) into a WASI command
that runs one Ruby script (bench/corpus/setup.sh merges it into the
program with binaryen's wasm-merge, with stub_imports.py's stubs).

Its _start does what the package's JavaScript does: _initialize, then
ruby-init with argv ["ruby", "-e_=0"], ruby-init-loadpath, then
rb-eval-string-protect of the script's text (each string written into
memory from cabi_realloc, the canonical ABI's allocator); an exception
exits 1 (proc_exit). The script's text is embedded, so no file is read.

Usage: ruby_driver.py SCRIPT.rb > driver.wat
"""
import sys

RB_INIT = "ruby-init: func(args: list<string>) -> ()"
RB_LOADPATH = "ruby-init-loadpath: func() -> ()"
RB_EVAL = "rb-eval-string-protect: func(str: string) -> tuple<handle<rb-abi-value>, s32>"


def put_string(data, local):
    """Instructions that allocate len(data) bytes into `local` and fill them."""
    # one byte more, a NUL after the text: the guest reads argv as C strings
    out = ["    (local.set %s (call $realloc (i32.const 0) (i32.const 0) (i32.const 1) (i32.const %d)))"
           % (local, len(data) + 1),
           "    (i32.store8 offset=%d (local.get %s) (i32.const 0))" % (len(data), local)]
    for i in range(0, len(data), 4):
        chunk = data[i:i + 4]
        if len(chunk) == 4:
            out.append("    (i32.store offset=%d (local.get %s) (i32.const %d))"
                       % (i, local, int.from_bytes(chunk, "little", signed=True)))
        else:
            for j, b in enumerate(chunk):
                out.append("    (i32.store8 offset=%d (local.get %s) (i32.const %d))" % (i + j, local, b))
    return out


def main():
    script = open(sys.argv[1], "rb").read() + b"\n$stdout.flush\n"
    args = [b"ruby", b"-e_=0"]
    body = []
    body.append("    (call $init)")
    # argv: a list of (ptr, len) records
    body.append("    (local.set $list (call $realloc (i32.const 0) (i32.const 0) (i32.const 4) (i32.const %d)))"
                % (8 * len(args)))
    for k, a in enumerate(args):
        body += put_string(a, "$s")
        body.append("    (i32.store offset=%d (local.get $list) (local.get $s))" % (8 * k))
        body.append("    (i32.store offset=%d (local.get $list) (i32.const %d))" % (8 * k + 4, len(a)))
    body.append("    (call $rinit (local.get $list) (i32.const %d))" % len(args))
    body.append("    (call $loadpath)")
    body += put_string(script, "$s")
    body.append("    (local.set $ret (call $eval (local.get $s) (i32.const %d)))" % len(script))
    body.append("    (if (i32.load offset=4 (local.get $ret)) (then (call $exit (i32.const 1))))")
    print("""(module
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (import "ruby" "memory" (memory 0))
  (import "ruby" "_initialize" (func $init))
  (import "ruby" "cabi_realloc" (func $realloc (param i32 i32 i32 i32) (result i32)))
  (import "ruby" "%s" (func $rinit (param i32 i32)))
  (import "ruby" "%s" (func $loadpath))
  (import "ruby" "%s" (func $eval (param i32 i32) (result i32)))
  (func (export "_start") (local $list i32) (local $s i32) (local $ret i32)
%s)
)""" % (RB_INIT, RB_LOADPATH, RB_EVAL, "\n".join(body)))


if __name__ == "__main__":
    main()
