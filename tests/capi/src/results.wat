;; The guest of tests/capi/strict_test.c: a function of two results that
;; counts its calls (a refused call must not run), one whose result is a
;; reference (the general call path), and the count.
(module
  (global $n (mut i32) (i32.const 0))
  (func (export "two") (result i32 i64)
    (global.set $n (i32.add (global.get $n) (i32.const 1)))
    (i32.const 7) (i64.const 8))
  (func (export "ref") (result externref)
    (global.set $n (i32.add (global.get $n) (i32.const 1)))
    (ref.null extern))
  (func (export "count") (result i32) (global.get $n)))
