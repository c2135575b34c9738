;; simd_test.c: v128 through the C API (host functions, globals, calls).
(module
  (import "host" "swap" (func $swap (param i32 v128) (result v128 i32)))
  (import "host" "g" (global $g (mut v128)))
  ;; Calls the host with (7, x), adds its results' lanes: the host swaps
  ;; the i32x4 lanes and returns 7 + 1.
  (func (export "via_host") (param v128) (result v128 i32)
    (call $swap (i32.const 7) (local.get 0)))
  ;; global.get / global.set of an imported v128 global.
  (func (export "bump") (result v128)
    (global.set $g (i8x16.add (global.get $g) (i8x16.splat (i32.const 1))))
    (global.get $g))
  ;; A v128 local between scalars: slots must not overlap.
  (func (export "locals") (param f64 v128 i64) (result i64 v128 f64)
    (local $t v128)
    (local.set $t (f64x2.splat (local.get 0)))
    (local.get 2) (i64x2.add (local.get 1) (local.get $t)) (local.get 0)))
