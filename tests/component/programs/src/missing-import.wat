;; A command that imports an interface weft does not have: weft run must
;; name it and exit 2 (tests/component-run/run.sh).
(component
  (import "weft:nope/missing@1.0.0" (instance $m (export "f" (func))))
  (core module $M (func (export "run") (result i32) i32.const 0))
  (core instance $i (instantiate $M))
  (func $run (result (result)) (canon lift (core func $i "run")))
  (instance $r (export "run" (func $run)))
  (export "wasi:cli/run@0.2.12" (instance $r))
)
