;; count — exports whose fuel is known from their shape:
;;   (loop_n N): one call from the host (free), then N-1 taken back-edges:
;;               N-1 units... plus nothing else (the exit falls through);
;;   (calls_n N): N calls of an empty function, each entry one unit, plus
;;               N-1 back-edges;
;;   _start: runs (loop_n 1000) and exits 0.
(module
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (memory (export "memory") 1)
  (func $loop_n (export "loop_n") (param $n i32) (result i32)
    (local $i i32)
    (loop $again
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $again (i32.lt_u (local.get $i) (local.get $n))))
    (local.get $i))
  (func $nothing)
  (func $calls_n (export "calls_n") (param $n i32) (result i32)
    (local $i i32)
    (loop $again
      (call $nothing)
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $again (i32.lt_u (local.get $i) (local.get $n))))
    (local.get $i))
  (func $_start (export "_start")
    (drop (call $loop_n (i32.const 1000)))
    (call $exit (i32.const 0))))
