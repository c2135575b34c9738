;; A body that loads from a 64-bit memory 0: not compiled yet (issue 24).
(module
  (memory i64 1)
  (func (export "f") (result i64) (i64.load (i64.const 0))))
