;; spin — a WASI command whose _start loops forever without a call: only a
;; stop at a loop back-edge (--timeout) or running out of --fuel ends it.
(module
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (memory (export "memory") 1)
  (func $_start (export "_start")
    (loop $forever (br $forever))
    (call $exit (i32.const 9))))
