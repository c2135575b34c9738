;; sleep — a WASI command that blocks in poll_oneoff on a one-hour clock:
;; a --timeout must interrupt the blocking call, not wait for it.
(module
  (import "wasi_snapshot_preview1" "poll_oneoff"
    (func $poll (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (memory (export "memory") 1)
  (func $_start (export "_start")
    ;; subscription at 0 (48 bytes): userdata 0, tag 0 (clock), clock id 1
    ;; (monotonic) at 16, timeout 3600 s at 24, precision 0, flags 0.
    (i32.store (i32.const 16) (i32.const 1))
    (i64.store (i32.const 24) (i64.const 3600000000000))
    ;; event out at 64, number of events at 128.
    (drop (call $poll (i32.const 0) (i32.const 64) (i32.const 1) (i32.const 128)))
    (call $exit (i32.const 7))))
