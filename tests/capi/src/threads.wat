;; tests/capi/threads_test.c: one module shared by 4 threads. Each thread
;; imports a host callback of its store and the one shared memory.
(module
  (import "env" "cb" (func $cb (param i32) (result i32)))
  (import "env" "mem" (memory 1 1 shared))
  (func (export "run") (param i32) (result i32)
    (i32.add (call $cb (local.get 0)) (i32.const 1)))
  (func (export "bump") (param i32)
    (drop (i32.atomic.rmw.add (i32.const 0) (local.get 0)))))
