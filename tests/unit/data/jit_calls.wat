;; jit_test part 10: compiled calls on the machine stack (src/jit/jit.c,
;; call_compiled and emit_return). Built with
;;   wat2wasm --debug-names jit_calls.wat -o jit_calls.wasm
(module
  (memory 1)
  (table funcref (elem $tri $walk $leaf))
  (type $i64_i64 (func (param i64) (result i64)))

  ;; deep(n) = n + deep(n - 1): a self call, deeper than one run's machine
  ;; stack allows (JIT_NATIVE_STACK), so calls leave to the interpreter and
  ;; returns meet records of earlier runs.
  (func $deep (export "deep") (param $n i64) (result i64)
    (if (result i64) (i64.eqz (local.get $n))
      (then (i64.const 0))
      (else (i64.add (local.get $n) (call $deep (i64.sub (local.get $n) (i64.const 1)))))))

  ;; walk(n): a chain of calls between two functions (not self calls),
  ;; some through the table, with a step exit (memory.fill) on the way
  ;; back up every 5th level: the code is entered again there, and the
  ;; returns above it meet records pushed before that.
  (func $walk (export "walk") (param $n i64) (result i64)
    (local $r i64)
    (if (i64.eqz (local.get $n)) (then (return (i64.const 1))))
    (local.set $r (call $tri (i64.sub (local.get $n) (i64.const 1))))
    (if (i64.eqz (i64.rem_u (local.get $n) (i64.const 5)))
      (then (memory.fill (i32.const 0) (i32.wrap_i64 (local.get $n)) (i32.const 16))))
    (i64.add
      (i64.mul (local.get $r) (i64.const 3))
      (call_indirect (type $i64_i64) (local.get $n) (i32.const 2))))
  (func $tri (param $n i64) (result i64)
    (if (result i64) (i64.eqz (local.get $n))
      (then (i64.const 7))
      (else (i64.xor
        (call_indirect (type $i64_i64) (i64.sub (local.get $n) (i64.const 1)) (i32.const 1))
        (i64.load8_u (i32.wrap_i64 (i64.rem_u (local.get $n) (i64.const 64))))))))
  (func $leaf (param $n i64) (result i64)
    (i64.add (local.get $n) (call $leaf2 (local.get $n))))
  (func $leaf2 (param $n i64) (result i64)
    (i64.mul (local.get $n) (i64.const 11)))
)
