;; Refused at load: no wasi_thread_start export.
(module
  (import "wasi" "thread-spawn" (func $spawn (param i32) (result i32)))
  (import "env" "memory" (memory 1 1 shared))
  (func (export "_start") (drop (call $spawn (i32.const 0)))))
