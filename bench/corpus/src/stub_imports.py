#!/usr/bin/env python3
"""stub_imports.py — a WebAssembly text module that provides, as functions
that trap, every import of MODULE.wasm from the modules named (used for
ruby.wasm from @ruby/3.3-wasm-wasi, whose JavaScript-bridge imports,
rb-js-abi-host and canonical_abi, a plain WASI run never calls).
bench/corpus/setup.sh turns it into a .wasm and merges it into the
program with binaryen's wasm-merge, so any WASI runtime can run it.

Usage: stub_imports.py [--identity] MODULE.wasm IMPORT_MODULE... > stub.wat
With --identity, each function returns its first argument (or zero), the
stand-in for canonical_abi's resource handles, instead of trapping.
Reads the types and imports with wabt's wasm-objdump.
"""
import re
import subprocess
import sys


def main():
    args = sys.argv[1:]
    identity = bool(args) and args[0] == "--identity"
    if identity:
        args = args[1:]
    wasm, mods = args[0], set(args[1:])
    dump = "".join(subprocess.run(["wasm-objdump", "-x", "-j", sec, wasm], check=True,
                                  stdout=subprocess.PIPE, text=True).stdout
                   for sec in ("Type", "Import"))
    types = {}
    for m in re.finditer(r"^ - type\[(\d+)\] \((.*?)\) -> (.*)$", dump, re.M):
        params = [p.strip() for p in m.group(2).split(",") if p.strip()]
        res = m.group(3).strip()
        results = [] if res == "nil" else [r.strip() for r in res.strip("()").split(",") if r.strip()]
        types[int(m.group(1))] = (params, results)
    out = ["(module"]
    n = 0
    for m in re.finditer(r"^ - func\[\d+\] sig=(\d+) <.*?> <- ([^.\s]+)\.(.*)$", dump, re.M):
        sig, mod, name = int(m.group(1)), m.group(2), m.group(3).strip()
        if mod not in mods:
            continue
        params, results = types[sig]
        if not identity:
            body = "unreachable"
        elif not results:
            body = "nop"
        elif params and params[0] == results[0] and len(results) == 1:
            body = "local.get 0"
        else:
            body = " ".join("%s.const 0" % r for r in results)
        out.append('  (func (export "%s")%s%s %s)' % (
            name.replace("\\", "\\\\").replace('"', '\\"'),
            "".join(" (param %s)" % p for p in params),
            "".join(" (result %s)" % r for r in results), body))
        n += 1
    out.append(")")
    if n == 0:
        sys.exit("stub_imports.py: no imports from %s in %s" % (" ".join(sorted(mods)), wasm))
    print("\n".join(out))


if __name__ == "__main__":
    main()
