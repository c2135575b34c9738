;; wasi.wat — a worker that is also a WASI program: "hello" writes a line
;; to its stdout; "read_stdin" reads its stdin once (a blocking read: the
;; worker parks, and a terminate stops it) and returns the byte count;
;; "write_forever" writes 60000 bytes to its stdout again and again (into
;; a pipe nobody reads, the second write blocks in the kernel: the hard
;; stop after the grace period).
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "weft:worker" "send" (func $send (param i32 i32 i64) (result i32)))
  (memory 1 1)
  (data (i32.const 64) "hello from a worker\n")
  (func (export "hello") (result i32)
    (i32.store (i32.const 0) (i32.const 64))
    (i32.store (i32.const 4) (i32.const 20))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))
    (i32.load (i32.const 8)))
  (func (export "read_stdin") (result i32)
    (i32.store (i32.const 0) (i32.const 1024))
    (i32.store (i32.const 4) (i32.const 100))
    (drop (call $fd_read (i32.const 0) (i32.const 0) (i32.const 1) (i32.const 8)))
    ;; what it does after the read (a message) is discarded after a hard stop
    (drop (call $send (i32.const 1024) (i32.const 1) (i64.const 0)))
    (loop $l (br $l))
    (i32.load (i32.const 8)))
  (func (export "write_forever")
    (i32.store (i32.const 0) (i32.const 0))
    (i32.store (i32.const 4) (i32.const 60000))
    (loop $l
      (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))
      ;; what it does after the write (a message) is discarded after a hard stop
      (drop (call $send (i32.const 1024) (i32.const 1) (i64.const 0)))
      (br $l)))
)
