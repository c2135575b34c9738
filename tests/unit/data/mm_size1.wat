;; memory.size of memory 1: not compiled yet (issue 24).
(module
  (memory 1) (memory 1)
  (func (export "f") (result i32) (memory.size 1)))
