;; Imports of every kind, for import matching tests (runtime_test.c).
(module
  (import "env" "f" (func $f (param i32) (result i32)))
  (import "env" "t" (table 2 10 funcref))
  (import "env" "m" (memory 1 4))
  (import "env" "g" (global $g (mut i32)))
  (import "env" "c" (global $c i64))
  (import "env" "x" (table 0 externref))
  (func (export "own") (param i32) (result i32) (local.get 0))
  (export "f" (func $f))
)
