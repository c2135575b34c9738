;; Refused at load: the imported memory is not shared.
(module
  (import "wasi" "thread-spawn" (func $spawn (param i32) (result i32)))
  (import "env" "memory" (memory 1 1))
  (func (export "wasi_thread_start") (param i32 i32))
  (func (export "_start") (drop (call $spawn (i32.const 0)))))
