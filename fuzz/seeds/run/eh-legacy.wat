;; Legacy exception handling (what clang -fwasm-exceptions emits): throw,
;; try with catch and catch_all, rethrow, delegate, and an exception that
;; leaves the export.
(module
  (tag $e (param i32))
  (tag $f (param i64 f32))
  (tag $empty)
  (func $thrower (param i32)
    (if (i32.and (local.get 0) (i32.const 1)) (then (throw $e (local.get 0))))
    (if (i32.and (local.get 0) (i32.const 2)) (then (throw $f (i64.const 5) (f32.const 1.5))))
    (if (i32.and (local.get 0) (i32.const 4)) (then (throw $empty))))
  (func (export "catch") (param i32) (result i32)
    (try (result i32)
      (do (call $thrower (local.get 0)) (i32.const 0))
      (catch $e (i32.add (i32.const 100)))
      (catch $f (drop) (i32.wrap_i64))
      (catch_all (i32.const -1))))
  (func (export "rethrow") (param i32) (result i32)
    (try (result i32)
      (do
        (try
          (do (call $thrower (local.get 0)))
          (catch_all (rethrow 0)))
        (i32.const 0))
      (catch $e)))
  (func (export "delegate") (param i32) (result i32)
    (try $outer (result i32)
      (do
        (try
          (do (try (do (call $thrower (local.get 0))) (delegate $outer)))
          (catch $e (drop) (unreachable)))
        (i32.const 0))
      (catch $e (drop) (i32.const 7))))
  (func (export "delegate-out") (param i32)
    (try (do (call $thrower (local.get 0))) (delegate 0)))
  (func (export "uncaught") (param i32) (call $thrower (i32.or (local.get 0) (i32.const 1))))
  (func (export "trap-not-caught") (result i32)
    (try (result i32) (do (unreachable)) (catch_all (i32.const 1)))))
