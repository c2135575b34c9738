#!/usr/bin/env python3
# eh_table.py — writes eh_table.wasm (tests/unit/eh_test.c): try_table,
# which wabt 1.0.32's wat2wasm cannot assemble, written byte by byte.
# The module, in the text format:
#
#   (module
#     (tag $e (param i32))
#     ;; loops n times (every back-edge a safe point), then throws n + 7
#     (func $inner (param $n i32)
#       (loop $l (br_if $l (local.tee $n (i32.sub (local.get $n) (i32.const 1)))))
#       (throw $e (i32.add (local.get $n) (i32.const 7))))
#     ;; try_table catching $e from inner into block $h: returns 107
#     (func (export "run") (param i32) (result i32)
#       (block $h (result i32)
#         (try_table (catch $e $h) (call $inner (local.get 0)))
#         (unreachable))
#       (i32.add (i32.const 100)))
#     ;; catch_all_ref, then throw_ref of the caught exnref to an outer
#     ;; try_table's catch: returns the payload 7
#     (func (export "rethrow_ref") (result i32)
#       (block $outer (result i32)
#         (try_table (catch $e $outer)
#           (block $inner (result exnref)
#             (try_table (catch_all_ref $inner) (call $inner (i32.const 1)))
#             (unreachable))
#           (throw_ref))
#         (unreachable))))
#
# Usage: python3 tests/unit/data/eh_table.py > tests/unit/data/eh_table.wasm
import sys

def leb(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)

def section(sid, payload):
    return bytes([sid]) + leb(len(payload)) + payload

def vec(items):
    return leb(len(items)) + b"".join(items)

def body(code):
    code = b"\x00" + code  # no locals
    return leb(len(code)) + code

types = vec([
    b"\x60\x01\x7f\x00",       # 0: (i32) -> ()
    b"\x60\x01\x7f\x01\x7f",   # 1: (i32) -> (i32)
    b"\x60\x00\x01\x7f",       # 2: () -> (i32)
])
funcs = vec([b"\x00", b"\x01", b"\x02"])
tags = vec([b"\x00\x00"])  # attribute 0, type 0
exports = vec([b"\x03run\x00\x01", b"\x0brethrow_ref\x00\x02"])
inner = (b"\x03\x40\x20\x00\x41\x01\x6b\x22\x00\x0d\x00\x0b"  # loop ... br_if 0 end
         b"\x20\x00\x41\x07\x6a\x08\x00\x0b")                   # throw 0 (n + 7)
run = (b"\x02\x7f"                      # block $h (result i32)
       b"\x1f\x40\x01\x00\x00\x00"       # try_table (catch 0 -> label 0)
       b"\x20\x00\x10\x00\x0b"           # call $inner (local.get 0) end
       b"\x00\x0b"                       # unreachable end
       b"\x41\xe4\x00\x6a\x0b")          # i32.add 100
rethrow_ref = (b"\x02\x7f"                      # block $outer (result i32)
               b"\x1f\x40\x01\x00\x00\x00"       # try_table (catch 0 -> $outer)
               b"\x02\x69"                       # block $inner (result exnref)
               b"\x1f\x40\x01\x03\x00"           # try_table (catch_all_ref -> $inner)
               b"\x41\x01\x10\x00\x0b"           # call $inner (i32.const 1) end
               b"\x00\x0b"                       # unreachable end
               b"\x0a\x0b"                       # throw_ref end
               b"\x00\x0b\x0b")                  # unreachable end end
code = vec([body(inner), body(run), body(rethrow_ref)])
module = (b"\x00asm\x01\x00\x00\x00" + section(1, types) + section(3, funcs) +
          section(13, tags) + section(7, exports) + section(10, code))
sys.stdout.buffer.write(module)
