;; Under --max-memory (issue 26): memory.grow by one page until it returns
;; -1, then table.grow of 10,000 elements (80,000 bytes, more than the
;; budget can have left): exits with 100 + the pages grown when the table
;; grow returned -1, else with the pages grown.
(module
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (import "wasi" "thread-spawn" (func $spawn (param i32) (result i32)))
  (import "env" "memory" (memory 1 1000 shared))
  (table $t 0 1000000 funcref)
  (func (export "wasi_thread_start") (param i32 i32))
  (func (export "_start")
    (local $n i32)
    (block $full
      (loop $more
        (br_if $full (i32.eq (memory.grow (i32.const 1)) (i32.const -1)))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br $more)))
    (if (i32.eq (table.grow $t (ref.null func) (i32.const 10000)) (i32.const -1))
      (then (local.set $n (i32.add (local.get $n) (i32.const 100)))))
    (call $exit (local.get $n))))
