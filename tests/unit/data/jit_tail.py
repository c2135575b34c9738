#!/usr/bin/env python3
"""Writes jit_tail.wat (jit_test part 14) to standard output: the module
below, whose $big has BIG_LOCALS i64 locals (a frame past a small stack),
which the text format can only spell one by one. Rebuilt by tests/Makefile."""
BIG_LOCALS = 20000
print(""";; jit_test part 14: tail calls in machine code (src/jit/jit.c,
;; tail_compiled): return_call to another function and to itself,
;; return_call_indirect through a table (and its traps), a tail call into
;; a frame bigger than the stack, a trap after a chain of tail calls.
;; Every export is (i64) -> i64.
(module
  (type $i2i (func (param i64) (result i64)))
  (type $ii2i (func (param i64 i64) (result i64)))
  (table $t 5 funcref)
  (elem (table $t) (i32.const 0) func $even $odd $big)
  (elem (table $t) (i32.const 4) func $sum)

  (func $even (export "even") (type $i2i)
    (if (result i64) (i64.eqz (local.get 0)) (then (i64.const 1))
      (else (return_call $odd (i64.sub (local.get 0) (i64.const 1))))))
  (func $odd (export "odd") (type $i2i)
    (if (result i64) (i64.eqz (local.get 0)) (then (i64.const 0))
      (else (return_call $even (i64.sub (local.get 0) (i64.const 1))))))

  ;; Itself, two arguments moving down from the frame base.
  (func $sum (type $ii2i)
    (if (result i64) (i64.eqz (local.get 0)) (then (local.get 1))
      (else (return_call $sum (i64.sub (local.get 0) (i64.const 1))
                              (i64.add (local.get 1) (local.get 0))))))
  (func (export "sum") (type $i2i) (call $sum (local.get 0) (i64.const 0)))

  ;; Through the table, even and odd by the low bit of n.
  (func (export "ind") (type $i2i)
    (if (result i64) (i64.eqz (local.get 0)) (then (i64.const 7))
      (else (return_call_indirect $t (type $i2i) (i64.sub (local.get 0) (i64.const 1))
                                  (i32.wrap_i64 (i64.and (local.get 0) (i64.const 1)))))))
  ;; Element n: 0-2 callable, 3 null, 4 of another type, past 4 outside the table.
  (func (export "bad") (type $i2i)
    (return_call_indirect $t (type $i2i) (i64.const 6) (i32.wrap_i64 (local.get 0))))

  ;; A frame of 20,000 slots: past a small stack.
  (func $big (type $i2i) (local""" + " i64" * BIG_LOCALS + """)
    (local.set 20000 (i64.mul (local.get 0) (i64.const 3)))
    (i64.add (local.get 20000) (local.get 19999)))
  (func (export "to_big") (type $i2i) (return_call $big (i64.add (local.get 0) (i64.const 1))))

  ;; A chain of tail calls that ends in a trap: the backtrace has the last
  ;; callee only, above the export's caller.
  (func $boom (type $i2i)
    (if (i64.eqz (local.get 0)) (then unreachable))
    (return_call $boom (i64.sub (local.get 0) (i64.const 1))))
  (func (export "boom") (type $i2i) (i64.add (call $boom (local.get 0)) (i64.const 1))))
""")
