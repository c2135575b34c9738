;; capi_guest.wat — the guest of examples/capi_host.c (docs/capi.md): a
;; WASI command that calls one host function of its embedder, env.log, and
;; writes a line through WASI. Built to capi_guest.wasm with
;; `wat2wasm capi_guest.wat -o capi_guest.wasm` (make -C tests guests).
(module
  (import "env" "log" (func $log (param i32 i32)))
  (import "wasi_snapshot_preview1" "fd_write"
    (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 64) "hello from the guest")
  (data (i32.const 96) "and a line through WASI\n")
  (func (export "_start")
    (call $log (i32.const 64) (i32.const 20))
    ;; one iovec at 0: {96, 24}; the count written goes to 8
    (i32.store (i32.const 0) (i32.const 96))
    (i32.store (i32.const 4) (i32.const 24))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))
