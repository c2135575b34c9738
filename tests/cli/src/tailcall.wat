;; Tail calls (Wasm 3.0 -W tail-call, on by default): $even and $odd call
;; each other a million times with return_call, in constant wasm stack
;; (the same chain made of plain calls, $even_call, exhausts the call
;; stack long before); return_call_indirect through a table; and a tail
;; call to an imported host function (WASI's clock_res_get with an unknown
;; clock: errno 28, EINVAL), whose results become the caller's.
;; wat2wasm --enable-tail-call --debug-names (tests/Makefile)
(module
  (import "wasi_snapshot_preview1" "clock_res_get" (func $clock_res_get (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  (type $pred (func (param i32) (result i32)))
  (table 2 funcref)
  (elem (i32.const 0) $even $odd)
  (func $even (export "even") (param i32) (result i32)
    (if (result i32) (i32.eqz (local.get 0))
      (then (i32.const 1))
      (else (return_call $odd (i32.sub (local.get 0) (i32.const 1))))))
  (func $odd (export "odd") (param i32) (result i32)
    (if (result i32) (i32.eqz (local.get 0))
      (then (i32.const 0))
      (else (return_call $even (i32.sub (local.get 0) (i32.const 1))))))
  ;; The same through the table: element 0 is $even, 1 is $odd.
  (func $even_ind (export "even_indirect") (param i32) (result i32)
    (if (result i32) (i32.eqz (local.get 0))
      (then (i32.const 1))
      (else (return_call_indirect (type $pred)
              (i32.sub (local.get 0) (i32.const 1)) (i32.const 1)))))
  ;; Plain calls: each level keeps a frame.
  (func $even_call (export "even_call") (param i32) (result i32)
    (if (result i32) (i32.eqz (local.get 0))
      (then (i32.const 1))
      (else (i32.eqz (call $even_call (i32.sub (local.get 0) (i32.const 1))))))
  )
  ;; A tail call to a host function: its errno is the result.
  (func (export "host_tail") (result i32)
    (return_call $clock_res_get (i32.const 99) (i32.const 16)))
)
