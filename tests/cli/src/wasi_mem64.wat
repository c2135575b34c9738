;; A module whose memory 0 is 64-bit and that calls WASI: WASI preview 1
;; has 32-bit pointers, so the call is refused ("WASI needs a 32-bit
;; memory 0") rather than reading them from the wrong places.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") i64 1)
  (func (export "_start") (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 0) (i32.const 8)))))
