;; Extended constant expressions (Wasm 3.0): i32/i64 add, sub and mul and
;; global.get of an imported global in global initializers and segment
;; offsets.
(module
  (import "env" "base" (global $base i32))
  (global $g i32 (i32.add (global.get $base) (i32.mul (i32.const 3) (i32.const 5))))
  (global $h i64 (i64.sub (i64.const 100) (i64.mul (i64.const 7) (i64.const 9))))
  (memory 1)
  (table 4 funcref)
  (data (i32.add (global.get $base) (i32.const 8)) "ext")
  (elem (i32.sub (i32.const 3) (global.get $base)) $f)
  (func $f (result i32) (global.get $g))
  (func (export "sum") (result i64)
    (i64.add (global.get $h) (i64.extend_i32_u (global.get $g)))))
