#!/usr/bin/env python3
"""Writes jit_simd.wat (beside this file): jit_test's part 7, the v128
operations the compiler tier translates (src/jit/simd.c).

Every export has the same type, (i64 a0, i64 a1, i64 b0, i64 b1) ->
(i64, i64): $a and $b are the v128s (a0, a1) and (b0, b1), $c is (b1, a0);
a scalar operand is b0 (wrapped for i32, reinterpreted for floats), an
address too; the result is a v128's two halves, or a scalar and 0.
jit_test calls each export with every pair of its list of vectors (NaN
lanes, lane bounds, shift counts at and past the lane width, addresses
at the end of memory and past it) on both tiers and needs the same bits,
or the same trap and message, and the same memory after each store.

    python3 tests/unit/data/jit_simd.py && wat2wasm --enable-relaxed-simd \\
        tests/unit/data/jit_simd.wat -o tests/unit/data/jit_simd.wasm
"""
import os

A, B, C = "(local.get $a)", "(local.get $b)", "(local.get $c)"
I32, I64 = "(i32.wrap_i64 (local.get 2))", "(local.get 2)"
F32, F64 = f"(f32.reinterpret_i32 {I32})", f"(f64.reinterpret_i64 {I64})"
ADDR = I32

funcs = []


def vec(name, expr):
    funcs.append((name, f"(local.set $r {expr})"))


def scalar(name, expr, ty="i32"):
    ext = {"i32": lambda e: f"(i64.extend_i32_u {e})", "i64": lambda e: e,
           "f32": lambda e: f"(i64.extend_i32_u (i32.reinterpret_f32 {e}))",
           "f64": lambda e: f"(i64.reinterpret_f64 {e})"}[ty]
    funcs.append((name, f"(local.set $r (i64x2.replace_lane 0 (v128.const i64x2 0 0) {ext(expr)}))"))


# Lane-wise binary operations.
binops = []
for s in ["i8x16", "i16x8", "i32x4"]:
    binops += [f"{s}.{o}" for o in ["eq", "ne", "lt_s", "lt_u", "gt_s", "gt_u", "le_s", "le_u", "ge_s", "ge_u",
                                      "add", "sub", "min_s", "min_u", "max_s", "max_u"]]
binops += ["i8x16.add_sat_s", "i8x16.add_sat_u", "i8x16.sub_sat_s", "i8x16.sub_sat_u", "i8x16.avgr_u",
           "i8x16.narrow_i16x8_s", "i8x16.narrow_i16x8_u", "i8x16.swizzle",
           "i16x8.add_sat_s", "i16x8.add_sat_u", "i16x8.sub_sat_s", "i16x8.sub_sat_u", "i16x8.avgr_u",
           "i16x8.mul", "i16x8.narrow_i32x4_s", "i16x8.narrow_i32x4_u", "i16x8.q15mulr_sat_s",
           "i16x8.extmul_low_i8x16_s", "i16x8.extmul_high_i8x16_s", "i16x8.extmul_low_i8x16_u",
           "i16x8.extmul_high_i8x16_u",
           "i32x4.mul", "i32x4.dot_i16x8_s", "i32x4.extmul_low_i16x8_s", "i32x4.extmul_high_i16x8_s",
           "i32x4.extmul_low_i16x8_u", "i32x4.extmul_high_i16x8_u",
           "i64x2.add", "i64x2.sub", "i64x2.mul", "i64x2.eq", "i64x2.ne", "i64x2.lt_s", "i64x2.gt_s",
           "i64x2.le_s", "i64x2.ge_s", "i64x2.extmul_low_i32x4_s", "i64x2.extmul_high_i32x4_s",
           "i64x2.extmul_low_i32x4_u", "i64x2.extmul_high_i32x4_u",
           "v128.and", "v128.or", "v128.xor", "v128.andnot",
           "i8x16.relaxed_swizzle", "i16x8.relaxed_q15mulr_s",
           "f32x4.min", "f32x4.max", "f64x2.min", "f64x2.max", "f32x4.relaxed_min", "f32x4.relaxed_max",
           "f64x2.relaxed_min", "f64x2.relaxed_max"]
for s in ["f32x4", "f64x2"]:
    binops += [f"{s}.{o}" for o in ["add", "sub", "mul", "div", "pmin", "pmax", "eq", "ne", "lt", "gt", "le", "ge"]]
for op in binops:
    vec(op, f"({op} {A} {B})")

unops = ["i8x16.popcnt", "v128.not", "i8x16.neg", "i16x8.neg", "i32x4.neg", "i64x2.neg", "i8x16.abs", "i16x8.abs", "i32x4.abs",
         "i64x2.abs", "f32x4.abs", "f32x4.neg", "f64x2.abs", "f64x2.neg", "f32x4.sqrt", "f64x2.sqrt",
         "f32x4.ceil", "f32x4.floor", "f32x4.trunc", "f32x4.nearest",
         "f64x2.ceil", "f64x2.floor", "f64x2.trunc", "f64x2.nearest",
         "f32x4.convert_i32x4_s", "f64x2.convert_low_i32x4_s", "f64x2.promote_low_f32x4",
         "f32x4.convert_i32x4_u", "f64x2.convert_low_i32x4_u", "i32x4.trunc_sat_f32x4_s",
         "i32x4.relaxed_trunc_f32x4_s",
         "f32x4.demote_f64x2_zero",
         "i16x8.extadd_pairwise_i8x16_s", "i16x8.extadd_pairwise_i8x16_u",
         "i32x4.extadd_pairwise_i16x8_s", "i32x4.extadd_pairwise_i16x8_u"]
for w, n in [("i16x8", "i8x16"), ("i32x4", "i16x8"), ("i64x2", "i32x4")]:
    unops += [f"{w}.extend_{h}_{n}_{s}" for h in ["low", "high"] for s in ["s", "u"]]
for op in unops:
    vec(op, f"({op} {A})")

for op in ["v128.bitselect", "i8x16.relaxed_laneselect", "i16x8.relaxed_laneselect",
           "i32x4.relaxed_laneselect", "i64x2.relaxed_laneselect"]:
    vec(op, f"({op} {A} {B} {C})")

for s in ["i8x16", "i16x8", "i32x4", "i64x2"]:
    for o in ["shl", "shr_s", "shr_u"]:
        vec(f"{s}.{o}", f"({s}.{o} {A} {I32})")
for op in ["v128.any_true", "i8x16.all_true", "i16x8.all_true", "i32x4.all_true", "i64x2.all_true",
           "i8x16.bitmask", "i16x8.bitmask", "i32x4.bitmask", "i64x2.bitmask"]:
    scalar(op, f"({op} {A})")

# Lanes: splat, extract and replace at the first, a middle and the last lane.
for s, arg in [("i8x16", I32), ("i16x8", I32), ("i32x4", I32), ("i64x2", I64), ("f32x4", F32), ("f64x2", F64)]:
    vec(f"{s}.splat", f"({s}.splat {arg})")
lanes = {"i8x16": 16, "i16x8": 8, "i32x4": 4, "i64x2": 2, "f32x4": 4, "f64x2": 2}
for s, n in lanes.items():
    for lane in sorted({0, n // 2 - 1, n - 1}):
        arg = {"i8x16": I32, "i16x8": I32, "i32x4": I32, "i64x2": I64, "f32x4": F32, "f64x2": F64}[s]
        vec(f"{s}.replace_lane {lane}", f"({s}.replace_lane {lane} {A} {arg})")
        ty = {"i64x2": "i64", "f32x4": "f32", "f64x2": "f64"}.get(s, "i32")
        for sfx in (["_s", "_u"] if n > 4 else [""]):
            scalar(f"{s}.extract_lane{sfx} {lane}", f"({s}.extract_lane{sfx} {lane} {A})", ty)

shuffles = {
    "reverse": list(range(15, -1, -1)),
    "interleave": [i // 2 + (16 if i % 2 else 0) for i in range(16)],
    "b only": [31 - i for i in range(16)],
    "broadcast": [15] * 8 + [16] * 8,
}
for name, m in shuffles.items():
    vec(f"i8x16.shuffle {name}", f"(i8x16.shuffle {' '.join(map(str, m))} {A} {B})")
# one operand (I8X16_SHUFFLE1): with itself, and against zeros
vec("i8x16.shuffle self", f"(i8x16.shuffle {' '.join(str((5 * i + 3) % 32) for i in range(16))} {A} {A})")
vec("i8x16.shuffle zext", f"(i8x16.shuffle {' '.join(str(i // 2 if i % 2 == 0 else 16) for i in range(16))} "
                          f"{A} (v128.const i64x2 0 0))")

# Memory 0 (one page, a pattern at both ends): every load form at the
# address b0 and with an offset, stores read back, lane loads and stores.
loads = ["v128.load", "v128.load8x8_s", "v128.load8x8_u", "v128.load16x4_s", "v128.load16x4_u",
         "v128.load32x2_s", "v128.load32x2_u", "v128.load8_splat", "v128.load16_splat", "v128.load32_splat",
         "v128.load64_splat", "v128.load32_zero", "v128.load64_zero"]
for op in loads:
    vec(op, f"({op} {ADDR})")
    vec(f"{op} offset=9", f"({op} offset=9 {ADDR})")
for op, n in [("v128.load8_lane", 16), ("v128.load16_lane", 8), ("v128.load32_lane", 4), ("v128.load64_lane", 2)]:
    for lane in (0, n - 1):
        vec(f"{op} {lane}", f"({op} offset=3 {lane} {ADDR} {A})")
vec("v128.load add imm", f"(v128.load offset=4 (i32.add {ADDR} (i32.const 12)))")
vec("v128.load add", f"(v128.load (i32.add {ADDR} (i32.wrap_i64 (local.get 3))))")
for op in ["f32x4.add", "f32x4.sub", "f32x4.mul", "f64x2.add", "f64x2.sub", "f64x2.mul", "i32x4.add",
           "i16x8.add", "i8x16.add"]:
    vec(f"{op} load", f"({op} {A} (v128.load offset=2 {ADDR}))")
# y += a * x with both addresses in locals, so that the multiply and the
# second load are adjacent (F32X4_MUL_ADD_LD, src/compile/simd.c fuse_axpy)
for s in ["f32x4", "f64x2"]:
    funcs.append((f"{s} mul add load", f"(local.set $x {ADDR}) (local.set $y (i32.wrap_i64 (local.get 3))) "
                                       f"(local.set $r ({s}.add ({s}.mul {A} (v128.load (local.get $x))) "
                                       f"(v128.load offset=7 (local.get $y))))"))
funcs.append(("v128.store", f"(v128.store offset=5 {ADDR} {A}) (local.set $r (v128.load offset=5 {ADDR}))"))
for op, n in [("v128.store8_lane", 16), ("v128.store16_lane", 8), ("v128.store32_lane", 4), ("v128.store64_lane", 2)]:
    for lane in (0, n - 1):
        funcs.append((f"{op} {lane}", f"({op} offset=1 {lane} {ADDR} {A}) "
                                      f"(local.set $r (v128.load (i32.and {ADDR} (i32.const 0xFFF0))))"))

# Moves: select, globals, constants.
vec("select", f"(select {A} {B} {I32})")
funcs.append(("global", f"(global.set $g (i32x4.add {A} (global.get $g))) (local.set $r (global.get $g))"))
# The register cache (emit.h): a constant stored through a cache
# register, then a vector operation over the same slots; the global.set
# after it reads both slots as scalars and must not get the constant.
funcs.append(("cache v128", f"(local.set $r (v128.const i64x2 0x1111 0x2222)) "
                            f"(local.set $r (i64x2.add (local.get $r) {A})) "
                            f"(global.set $g (local.get $r)) (local.set $r (global.get $g))"))
# A v128's slots read as scalars (global.set: cached), overwritten by a
# vector operation, read again.
funcs.append(("cache global", f"(global.set $g {A}) (local.set $a (i64x2.add {A} {B})) "
                              f"(global.set $g {A}) (local.set $r (global.get $g))"))
# More distinct constants than a function's constant slots hold (256,
# CMP_MAX_VCONSTS): the last ones in their order (the largest high
# halves) are V128_CONST operations, written with 64-bit stores through
# the register cache; one of them then overwritten by a vector operation.
many = " ".join(f"(local.set $r (i64x2.add (local.get $r) (v128.const i64x2 {k * 7919} {k})))" for k in range(1, 300))
funcs.append(("v128.const many", f"(local.set $r {A}) {many} "
                                 f"(local.set $r (i64x2.add (local.get $r) (v128.const i64x2 3 0x7FFFFFFFFFFFFFFF))) "
                                 f"(local.set $c (v128.const i64x2 0x1111 0x7FFFFFFFFFFFFFF0)) "
                                 f"(local.set $c (i64x2.add (local.get $c) {B})) "
                                 f"(global.set $g (local.get $c)) "
                                 f"(local.set $r (i64x2.add (local.get $r) (global.get $g)))"))
# A v128 held in a register, one of its lanes then written in the frame
# (replace_lane, load_lane) and the whole read by a vector operation;
# select's operands in registers.
vec("replace then add", f"(i32x4.add (i8x16.replace_lane 5 (i32x4.add {A} {B}) {I32}) {B})")
vec("replace64 then add", f"(i64x2.add (i64x2.replace_lane 1 (i64x2.add {A} {B}) {I64}) {A})")
vec("load lane then add", f"(i16x8.add (v128.load16_lane 7 (i32.and {ADDR} (i32.const 0xFFF)) (i16x8.add {A} {B})) {B})")
vec("select then add", f"(i8x16.add (select (i8x16.add {A} {B}) (i8x16.sub {A} {B}) {I32}) {A})")
vec("select locals then add", f"(i8x16.add (select {A} {B} {I32}) (i8x16.add {B} {A}))")
# Round robin over the cache registers: $r stays cached while operations
# taking scratch registers (vtmp) go round them, then is read again.
chain = " ".join(f"(local.set $c ({'i8x16.lt_u' if k % 2 else 'i64x2.mul'} (local.get $c) {B}))" for k in range(16))
funcs.append(("cache rotation", f"(local.set $r (i32x4.add {A} {B})) {chain} "
                                f"(local.set $r (i32x4.add (local.get $r) (local.get $c)))"))
# A v128's first slot read as an f64 and an i64 from its register.
scalar("v128 as f64", f"(f64.add (f64x2.extract_lane 0 (f64x2.add {A} {B})) (f64.const 0.5))", "f64")
# An f64 and an i64 in cache registers, their slots overwritten by a
# v128 (the local's) and read again as scalars.
funcs.append(("cache f64", f"(local.set $d (f64.add {F64} (f64.const 1))) (local.set $i (i64.add {I64} (i64.const 1))) "
                           f"(local.set $r (i64x2.replace_lane 1 (i64x2.splat (i64.reinterpret_f64 (local.get $d))) (local.get $i))) "
                           f"(local.set $r (i32x4.add (local.get $r) {A})) "
                           f"(local.set $r (i64x2.replace_lane 0 (local.get $r) "
                           f"(i64.add (i64x2.extract_lane 0 (local.get $r)) (i64x2.extract_lane 1 (local.get $r)))))"))

out = [";; jit_test part 7: the v128 operations of the compiler tier (src/jit/simd.c).",
       ";; Written by jit_simd.py (the list of operations and why); do not edit.",
       "(module",
       "  (memory (export \"mem\") 1)",
       "  (data (i32.const 0) \"\\00\\01\\02\\03\\04\\05\\06\\07\\08\\09\\0a\\0b\\0c\\0d\\0e\\0f\\80\\ff\\7f\\fe\\81\\01\\00\\80\")",
       "  (data (i32.const 65512) \"\\f0\\f1\\f2\\f3\\f4\\f5\\f6\\f7\\f8\\f9\\fa\\fb\\fc\\fd\\fe\\ff\\00\\80\\ff\\7f\\01\\c0\\ff\\7f\")",
       "  (global $g (mut v128) (v128.const i64x2 0x0102030405060708 -1))"]
for name, body in funcs:
    out.append(f"  (func (export \"{name}\") (param i64 i64 i64 i64) (result i64 i64)")
    out.append("    (local $a v128) (local $b v128) (local $c v128) (local $r v128) (local $d f64) (local $i i64) (local $x i32) (local $y i32)")
    out.append("    (local.set $a (i64x2.replace_lane 1 (i64x2.splat (local.get 0)) (local.get 1)))")
    out.append("    (local.set $b (i64x2.replace_lane 1 (i64x2.splat (local.get 2)) (local.get 3)))")
    out.append("    (local.set $c (i64x2.replace_lane 1 (i64x2.splat (local.get 3)) (local.get 0)))")
    out.append(f"    {body}")
    out.append("    (i64x2.extract_lane 0 (local.get $r)) (i64x2.extract_lane 1 (local.get $r)))")
out.append(")")
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "jit_simd.wat"), "w") as f:
    f.write("\n".join(out) + "\n")
