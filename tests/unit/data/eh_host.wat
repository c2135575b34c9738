;; eh_host.wat — exceptions across the host boundary (tests/unit/eh_test.c).
;; Assembled with wat2wasm --enable-exceptions (the legacy try form).
(module
  (import "env" "e" (tag $e (param i32)))            ;; a host-made tag
  (import "env" "host_throw" (func $host_throw (param i32)))
  (import "env" "host_call_back" (func $host_call_back (param i32)))
  (tag $local (export "local") (param i64 f64))

  ;; The host function throws $e (weft_caller_throw): caught here.
  (func (export "catch_host") (param i32) (result i32)
    (try (result i32)
      (do (call $host_throw (local.get 0)) (i32.const -1))
      (catch $e (i32.add (i32.const 1)))))

  ;; Leaves the call: weft_func_call reports it with its payload.
  (func $throw_out (export "throw_out") (param i32)
    (throw $e (local.get 0)))
  (func (export "throw_local") (param i64 f64)
    (throw $local (local.get 0) (local.get 1)))

  ;; The host calls throw_out back, gets WEFT_ERR_EXCEPTION and rethrows
  ;; it (weft_caller_rethrow): it arrives here through the host frame.
  (func (export "through_host") (param i32) (result i32)
    (try (result i32)
      (do (call $host_call_back (local.get 0)) (i32.const -1))
      (catch $e (i32.mul (i32.const 2)))))

  ;; A trap is not an exception: catch_all does not see it.
  (func (export "trap_not_caught") (result i32)
    (try (result i32)
      (do (unreachable))
      (catch_all (i32.const 5))))

  ;; Uncaught three frames deep, through a try whose handler does not
  ;; match: the error's backtrace is the throw's (throw_out, mid,
  ;; throw_deep), as a trap's would be.
  (func $mid (param i32)
    (try
      (do (call $throw_out (local.get 0)))
      (catch $local (drop) (drop))))
  (func (export "throw_deep") (param i32)
    (call $mid (local.get 0))))
