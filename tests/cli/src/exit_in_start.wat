;; proc_exit from a start function (during instantiation).
(module
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (func $s (call $exit (i32.const 3)))
  (start $s)
  (memory (export "memory") 1)
  (func (export "_start")))
