;; A body that loads from memory 1: not compiled yet (issue 24).
(module
  (memory 1) (memory 1)
  (func (export "f") (result i32) (i32.load 1 (i32.const 0))))
