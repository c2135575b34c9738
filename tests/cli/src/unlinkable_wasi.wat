;; Imports a WASI name that does not exist, and fd_write with a wrong type.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $w (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "no_such_function" (func $n))
  (memory (export "memory") 1)
  (func (export "_start") (call $n)))
