;; callback.wat — the module of bench/micro/capi.c: one call from the host
;; into wasm and back out to a host function, the round trip an embedder
;; pays for every callback. run(x) = cb(x) + 1. Rebuild with
;; `wat2wasm callback.wat -o callback.wasm` (make -C bench micro-wasm).
(module
  (import "env" "cb" (func $cb (param i32) (result i32)))
  (func (export "run") (param i32) (result i32)
    (i32.add (call $cb (local.get 0)) (i32.const 1))))
