;; A command whose run returns err: exit status 1, as wasmtime.
(component
  (core module $M (func (export "run") (result i32) i32.const 1))
  (core instance $i (instantiate $M))
  (func $run (result (result)) (canon lift (core func $i "run")))
  (instance $r (export "run" (func $run)))
  (export "wasi:cli/run@0.2.12" (instance $r))
)
