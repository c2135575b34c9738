;; The guest of tests/capi/reentry_test.c: run(n) calls the host with n,
;; whose host function calls run(n + 1) again through wasm_func_call or
;; weft_func_call, deeper and deeper until weft refuses an entry with
;; "call stack exhausted" (issue 39). run(-1) does not recurse: the host
;; answers 42 (the store still works after the trap).
(module
  (import "env" "host" (func $host (param i32) (result i32)))
  (func (export "run") (param i32) (result i32)
    (i32.add (call $host (local.get 0)) (i32.const 0))))
