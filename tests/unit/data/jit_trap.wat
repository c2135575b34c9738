;; jit_test: a trap three compiled calls deep, after a loop: the same
;; message and backtrace on both tiers, and the same point of running
;; out of fuel (at a branch or at a function entry).
(module
  (memory 1)
  (func $c (param i32) (result i32) (i32.load (i32.add (local.get 0) (i32.const 70000))))
  (func $b (param i32) (result i32) (call $c (i32.add (local.get 0) (i32.const 1))))
  (func $a (param i32) (result i32) (local i32)
    (loop $l (local.set 1 (i32.add (local.get 1) (i32.const 1))) (br_if $l (i32.lt_u (local.get 1) (i32.const 100))))
    (call $b (local.get 1)))
  (func (export "_start") (drop (call $a (i32.const 5)))))
