;; Imports something no one provides.
(module
  (import "env" "missing" (func $missing (param i32)))
  (func (export "_start") (call $missing (i32.const 1))))
