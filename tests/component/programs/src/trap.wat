;; A command whose run traps (unreachable): weft run prints the trap and
;; exits 134.
(component
  (core module $M (func (export "run") (result i32) unreachable))
  (core instance $i (instantiate $M))
  (func $run (result (result)) (canon lift (core func $i "run")))
  (instance $r (export "run" (func $run)))
  (export "wasi:cli/run@0.2.12" (instance $r))
)
