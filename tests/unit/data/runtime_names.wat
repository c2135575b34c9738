;; Names with NUL bytes (issue 8): an embedder must see them whole.
(module
  (import "env\00x" "f" (func $f))
  (func (export "a") (result i32) (i32.const 1))
  (func (export "a\00b") (result i32) (i32.const 2)))
