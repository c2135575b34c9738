;; weft's one result for each relaxed SIMD operation (docs/simd.md): the
;; spec's relaxed scripts accept any of several results; this script accepts
;; only the one weft documents, so a change of choice, or a path (SSE2 or
;; portable lanes) computing another, fails here. Built with
;; `wast2json --enable-relaxed-simd` (wabt 1.0.32, which spells the dot
;; products by their old names, i16x8.dot_i8x16_i7x16_s and
;; i32x4.dot_i8x16_i7x16_add_s; the opcodes are the same).

(module
  (func (export "f32x4.madd") (param v128 v128 v128) (result v128)
    (f32x4.relaxed_madd (local.get 0) (local.get 1) (local.get 2)))
  (func (export "f32x4.nmadd") (param v128 v128 v128) (result v128)
    (f32x4.relaxed_nmadd (local.get 0) (local.get 1) (local.get 2)))
  (func (export "f64x2.madd") (param v128 v128 v128) (result v128)
    (f64x2.relaxed_madd (local.get 0) (local.get 1) (local.get 2)))
  (func (export "f64x2.nmadd") (param v128 v128 v128) (result v128)
    (f64x2.relaxed_nmadd (local.get 0) (local.get 1) (local.get 2)))
  (func (export "i8x16.laneselect") (param v128 v128 v128) (result v128)
    (i8x16.relaxed_laneselect (local.get 0) (local.get 1) (local.get 2)))
  (func (export "i16x8.laneselect") (param v128 v128 v128) (result v128)
    (i16x8.relaxed_laneselect (local.get 0) (local.get 1) (local.get 2)))
  (func (export "i32x4.laneselect") (param v128 v128 v128) (result v128)
    (i32x4.relaxed_laneselect (local.get 0) (local.get 1) (local.get 2)))
  (func (export "i64x2.laneselect") (param v128 v128 v128) (result v128)
    (i64x2.relaxed_laneselect (local.get 0) (local.get 1) (local.get 2)))
  (func (export "swizzle") (param v128 v128) (result v128)
    (i8x16.relaxed_swizzle (local.get 0) (local.get 1)))
  (func (export "trunc_f32x4_s") (param v128) (result v128)
    (i32x4.relaxed_trunc_f32x4_s (local.get 0)))
  (func (export "trunc_f32x4_u") (param v128) (result v128)
    (i32x4.relaxed_trunc_f32x4_u (local.get 0)))
  (func (export "trunc_f64x2_s_zero") (param v128) (result v128)
    (i32x4.relaxed_trunc_f64x2_s_zero (local.get 0)))
  (func (export "trunc_f64x2_u_zero") (param v128) (result v128)
    (i32x4.relaxed_trunc_f64x2_u_zero (local.get 0)))
  (func (export "f32x4.min") (param v128 v128) (result v128)
    (f32x4.relaxed_min (local.get 0) (local.get 1)))
  (func (export "f32x4.max") (param v128 v128) (result v128)
    (f32x4.relaxed_max (local.get 0) (local.get 1)))
  (func (export "f64x2.min") (param v128 v128) (result v128)
    (f64x2.relaxed_min (local.get 0) (local.get 1)))
  (func (export "f64x2.max") (param v128 v128) (result v128)
    (f64x2.relaxed_max (local.get 0) (local.get 1)))
  (func (export "q15mulr") (param v128 v128) (result v128)
    (i16x8.relaxed_q15mulr_s (local.get 0) (local.get 1)))
  (func (export "dot") (param v128 v128) (result v128)
    (i16x8.dot_i8x16_i7x16_s (local.get 0) (local.get 1)))
  (func (export "dot_add") (param v128 v128 v128) (result v128)
    (i32x4.dot_i8x16_i7x16_add_s (local.get 0) (local.get 1) (local.get 2)))
)

;; madd is fused (one rounding): (1 + 2^-22)(1 + 2^-15) - (1 + 2^-15 + 2^-22)
;; is 2^-37 exactly; unfused, the product rounds to 1 + 2^-15 + 2^-22 and
;; the result is 0.
(assert_return (invoke "f32x4.madd"
    (v128.const f32x4 0x1.000004p0 0x1.000004p0 1.0 2.0)
    (v128.const f32x4 0x1.0002p0 0x1.0002p0 1.0 3.0)
    (v128.const f32x4 -0x1.000204p0 -0x1.000204p0 0.5 1.0))
  (v128.const f32x4 0x1p-37 0x1p-37 1.5 7.0))
(assert_return (invoke "f32x4.nmadd"
    (v128.const f32x4 -0x1.000004p0 -0x1.000004p0 1.0 2.0)
    (v128.const f32x4 0x1.0002p0 0x1.0002p0 1.0 3.0)
    (v128.const f32x4 -0x1.000204p0 -0x1.000204p0 0.5 1.0))
  (v128.const f32x4 0x1p-37 0x1p-37 -0.5 -5.0))
;; the largest finite float times 2, minus it: fused gives the largest
;; finite float back; unfused overflows to infinity first.
(assert_return (invoke "f32x4.madd"
    (v128.const f32x4 0x1.fffffep127 0x1.fffffep127 0x1.fffffep127 0x1.fffffep127)
    (v128.const f32x4 2.0 2.0 2.0 2.0)
    (v128.const f32x4 -0x1.fffffep127 -0x1.fffffep127 -0x1.fffffep127 -0x1.fffffep127))
  (v128.const f32x4 0x1.fffffep127 0x1.fffffep127 0x1.fffffep127 0x1.fffffep127))
(assert_return (invoke "f64x2.madd"
    (v128.const f64x2 0x1.00000001p0 1.0)
    (v128.const f64x2 0x1.0000000000001p0 1.0)
    (v128.const f64x2 -0x1.0000000100001p0 0.25))
  (v128.const f64x2 0x1p-84 1.25))
(assert_return (invoke "f64x2.nmadd"
    (v128.const f64x2 -0x1.00000001p0 1.0)
    (v128.const f64x2 0x1.0000000000001p0 1.0)
    (v128.const f64x2 -0x1.0000000100001p0 0.25))
  (v128.const f64x2 0x1p-84 -0.75))
(assert_return (invoke "f64x2.madd"
    (v128.const f64x2 0x1.fffffffffffffp1023 0x1.fffffffffffffp1023)
    (v128.const f64x2 2.0 2.0)
    (v128.const f64x2 -0x1.fffffffffffffp1023 -0x1.fffffffffffffp1023))
  (v128.const f64x2 0x1.fffffffffffffp1023 0x1.fffffffffffffp1023))

;; laneselect is bitselect at every width: a mask lane that is neither all
;; ones nor all zeros selects bit by bit, not by its top bit.
(assert_return (invoke "i8x16.laneselect"
    (v128.const i8x16 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1)
    (v128.const i8x16 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0)
    (v128.const i8x16 0x80 0x0f 0xff 0 0x80 0x0f 0xff 0 0x80 0x0f 0xff 0 0x80 0x0f 0xff 0))
  (v128.const i8x16 0x80 0x0f 0xff 0 0x80 0x0f 0xff 0 0x80 0x0f 0xff 0 0x80 0x0f 0xff 0))
(assert_return (invoke "i16x8.laneselect"
    (v128.const i16x8 0x1234 0x1234 0x1234 0x1234 0x1234 0x1234 0x1234 0x1234)
    (v128.const i16x8 0x5678 0x5678 0x5678 0x5678 0x5678 0x5678 0x5678 0x5678)
    (v128.const i16x8 0x8000 0xff00 0xffff 0 0x8000 0xff00 0xffff 0))
  (v128.const i16x8 0x5678 0x1278 0x1234 0x5678 0x5678 0x1278 0x1234 0x5678))
(assert_return (invoke "i32x4.laneselect"
    (v128.const i32x4 -1 -1 -1 -1)
    (v128.const i32x4 0 0 0 0)
    (v128.const i32x4 0x80000000 0x0000ffff -1 0))
  (v128.const i32x4 0x80000000 0x0000ffff -1 0))
(assert_return (invoke "i64x2.laneselect"
    (v128.const i64x2 -1 -1)
    (v128.const i64x2 0 0)
    (v128.const i64x2 0x8000000000000000 0x00000000ffffffff))
  (v128.const i64x2 0x8000000000000000 0x00000000ffffffff))

;; swizzle: an index of 16 or more gives 0, whatever its high bits.
(assert_return (invoke "swizzle"
    (v128.const i8x16 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
    (v128.const i8x16 0 15 16 17 31 32 0x70 0x7f 0x80 0x8f 0xf0 0xff 1 2 3 4))
  (v128.const i8x16 1 16 0 0 0 0 0 0 0 0 0 0 2 3 4 5))

;; trunc saturates: NaN is 0, out of range is the nearest bound.
(assert_return (invoke "trunc_f32x4_s" (v128.const f32x4 nan -nan 3e9 -3e9))
  (v128.const i32x4 0 0 0x7fffffff 0x80000000))
(assert_return (invoke "trunc_f32x4_u" (v128.const f32x4 nan -1.5 5e9 -0.5))
  (v128.const i32x4 0 0 0xffffffff 0))
(assert_return (invoke "trunc_f64x2_s_zero" (v128.const f64x2 nan -3e9))
  (v128.const i32x4 0 0x80000000 0 0))
(assert_return (invoke "trunc_f64x2_u_zero" (v128.const f64x2 -1.0 5e9))
  (v128.const i32x4 0 0xffffffff 0 0))

;; min and max are the non-relaxed ones: NaN in, NaN out; -0 < +0.
(assert_return (invoke "f32x4.min"
    (v128.const f32x4 nan 1.0 -0.0 0.0) (v128.const f32x4 1.0 nan 0.0 -0.0))
  (v128.const f32x4 nan:canonical nan:canonical -0.0 -0.0))
(assert_return (invoke "f32x4.max"
    (v128.const f32x4 nan 1.0 -0.0 0.0) (v128.const f32x4 1.0 nan 0.0 -0.0))
  (v128.const f32x4 nan:canonical nan:canonical 0.0 0.0))
(assert_return (invoke "f64x2.min" (v128.const f64x2 -0.0 nan) (v128.const f64x2 0.0 1.0))
  (v128.const f64x2 -0.0 nan:canonical))
(assert_return (invoke "f64x2.max" (v128.const f64x2 -0.0 1.0) (v128.const f64x2 0.0 nan))
  (v128.const f64x2 0.0 nan:canonical))

;; q15mulr saturates: -1 * -1 in Q15 is 0x7fff.
(assert_return (invoke "q15mulr"
    (v128.const i16x8 -32768 -32768 16384 -16384 1 0 32767 -32768)
    (v128.const i16x8 -32768 32767 16384 16384 1 5 32767 1))
  (v128.const i16x8 32767 -32767 8192 -8192 0 0 32766 -1))

;; dot: b's lanes are signed too (129 is -127), and each pair of products
;; is summed with signed saturation: (-128)(-128) twice is 32767.
(assert_return (invoke "dot"
    (v128.const i8x16 -128 -128 -128 -128 127 127 -128 127 1 2 3 4 5 6 7 8)
    (v128.const i8x16 -128 -128 129 129 127 127 127 -128 1 1 1 1 1 1 1 1))
  (v128.const i16x8 32767 32512 32258 -32512 3 7 11 15))
(assert_return (invoke "dot_add"
    (v128.const i8x16 -128 -128 -128 -128 -128 -128 -128 -128 1 2 3 4 -1 -1 -1 -1)
    (v128.const i8x16 -128 -128 -128 -128 129 129 129 129 1 1 1 1 1 1 1 1)
    (v128.const i32x4 1 2 3 -4))
  (v128.const i32x4 65535 65026 13 -8))
