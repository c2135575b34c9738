;; Refused at load: spawns threads but defines its own memory.
(module
  (import "wasi" "thread-spawn" (func $spawn (param i32) (result i32)))
  (memory 1 1 shared)
  (func (export "wasi_thread_start") (param i32 i32))
  (func (export "_start") (drop (call $spawn (i32.const 0)))))
