;; fuzz/corpus/diff/exceptions-v128.wasm: what fuzz/diff/exec.c prints for
;; exceptions and v128 at the JS boundary, as V8 does (exec.c's comment):
;; an exception leaving an export, one caught by tag and by catch_all,
;; rethrow and delegate, the TypeError of a log-v128 call (caught by
;; catch_all, not by a tag's catch) and of an export with a v128 in its
;; type, and return_call.
(module
  (import "fuzzing-support" "log-i32" (func $log (param i32)))
  (import "fuzzing-support" "log-v128" (func $logv (param v128)))
  (tag $e (param i32))
  (tag $f)
  (memory (export "memory") 1)
  (func $thrower (param i32)
    (if (i32.eqz (local.get 0)) (then (throw $e (i32.const 42))))
    (throw $f))
  (func (export "uncaught") (call $thrower (i32.const 0)))
  (func (export "caught") (result i32)
    (try (result i32)
      (do (call $thrower (i32.const 0)) (i32.const 0))
      (catch $e (i32.add (i32.const 1)))))
  (func (export "catch-all") (result i32)
    (try (result i32)
      (do (call $thrower (i32.const 1)) (i32.const 0))
      (catch $e)
      (catch_all (i32.const 7))))
  (func (export "rethrown")
    (try
      (do (call $thrower (i32.const 0)))
      (catch_all (call $log (i32.const 3)) (rethrow 0))))
  (func (export "delegated") (result i32)
    (try $outer (result i32)
      (do
        (try
          (do (try (do (call $thrower (i32.const 1))) (delegate $outer)))
          (catch_all (call $log (i32.const -1))))
        (i32.const 0))
      (catch $f (i32.const 9))))
  (func (export "v128-caught") (result i32)
    (try (result i32)
      (do (call $logv (v128.const i32x4 1 2 3 4)) (i32.const 0))
      (catch_all (i32.const 5))))
  (func (export "v128-tag-only") (result i32)
    (try (result i32)
      (do (call $logv (v128.const i32x4 1 2 3 4)) (i32.const 0))
      (catch $e)))
  (func (export "v128-param") (param v128) (result i32) (i32.const 1))
  (func (export "v128-result") (result v128) (v128.const i64x2 0 0))
  (func $count (param i32) (result i32)
    (if (result i32) (i32.eqz (local.get 0))
      (then (i32.const 100))
      (else (return_call $count (i32.sub (local.get 0) (i32.const 1))))))
  (func (export "tail") (result i32)
    (i32.store (i32.const 0) (call $count (i32.const 100000)))
    (i32.load (i32.const 0))))
