;; Refused at load: a shared memory without a maximum (the decoder already
;; refuses it; weft adds the build flags that fix it).
(module
  (import "wasi" "thread-spawn" (func $spawn (param i32) (result i32)))
  (import "env" "memory" (memory 1 shared))
  (func (export "wasi_thread_start") (param i32 i32))
  (func (export "_start") (drop (call $spawn (i32.const 0)))))
