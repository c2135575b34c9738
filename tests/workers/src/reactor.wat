;; reactor.wat — a reactor module (wasi-libc's shape: constructors in
;; _initialize): weft_worker_spawn runs _initialize before the entry
;; (issue 26). It stores 42 at address 0, which "run" sends back; with
;; input it traps instead, and the spawn fails.
(module
  (import "weft:worker" "input_size" (func $input_size (result i32)))
  (import "weft:worker" "send" (func $send (param i32 i32 i64) (result i32)))
  (memory 1 1)
  (func (export "_initialize")
    (if (i32.gt_s (call $input_size) (i32.const 0)) (then unreachable))
    (i32.store (i32.const 0) (i32.const 42)))
  (func (export "run") (result i32)
    (call $send (i32.const 0) (i32.const 4) (i64.const -1))))
