#!/usr/bin/env python3
"""jit_atomic.py: writes jit_atomic.wat, the atomic memory operations for
jit_test part 11: every load, store and read-modify-write of the threads
proposal on memory 0, each an export (i64 address, i64 value) -> i64 that
runs the operation at the address's low 32 bits (cmpxchg: expected the
value, replacement the value rotated), with the offsets 0 and 4.

    python3 jit_atomic.py > jit_atomic.wat
    wat2wasm --enable-threads --debug-names jit_atomic.wat -o jit_atomic.wasm
"""

ADDR = "(i32.wrap_i64 (local.get 0))"

def val(t):
    return "(i32.wrap_i64 (local.get 1))" if t == "i32" else "(local.get 1)"

def rot(t):
    return ("(i32.wrap_i64 (i64.rotl (local.get 1) (i64.const 13)))" if t == "i32"
            else "(i64.rotl (local.get 1) (i64.const 13))")

def ret(t, expr):
    return f"(i64.extend_i32_u {expr})" if t == "i32" else expr

out = [";; jit_test part 11: the atomic operations on both tiers (written by",
       ";; jit_atomic.py; see there).",
       "(module",
       "  (memory (export \"mem\") 1 1 shared)"]
widths = {"i32": ["", "8_u", "16_u"], "i64": ["", "8_u", "16_u", "32_u"]}
for t, ws in widths.items():
    for w in ws:
        for off in (0, 4):
            o = f" offset={off}" if off else ""
            sfx = f".o{off}"
            ld = f"{t}.atomic.load{w.replace('_u', '')}{'_u' if w else ''}"
            out.append(f"  (func (export \"{ld}{sfx}\") (param i64 i64) (result i64) {ret(t, f'({ld}{o} {ADDR})')})")
            st = f"{t}.atomic.store{w.replace('_u', '')}"
            out.append(f"  (func (export \"{st}{sfx}\") (param i64 i64) (result i64) ({st}{o} {ADDR} {val(t)}) (i64.const 0))")
            for rmw in ("add", "sub", "and", "or", "xor", "xchg"):
                name = f"{t}.atomic.rmw{w.replace('_u', '')}.{rmw}{'_u' if w else ''}"
                out.append(f"  (func (export \"{name}{sfx}\") (param i64 i64) (result i64) {ret(t, f'({name}{o} {ADDR} {val(t)})')})")
            name = f"{t}.atomic.rmw{w.replace('_u', '')}.cmpxchg{'_u' if w else ''}"
            out.append(f"  (func (export \"{name}{sfx}\") (param i64 i64) (result i64) {ret(t, f'({name}{o} {ADDR} {val(t)} {rot(t)})')})")
out.append(")")
print("\n".join(out))
