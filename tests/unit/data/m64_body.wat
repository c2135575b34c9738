;; A 64-bit memory 0 (memory64, Wasm 3.0): i64 addresses and u64 offsets,
;; the bounds checks at their edges, memory.size/grow/fill with i64.
(module
  (memory i64 1 70000)
  (data (i64.const 0) "\2a")
  (func (export "f") (result i64) (i64.load (i64.const 0)))
  (func (export "load") (param i64) (result i32) (i32.load (local.get 0)))
  (func (export "store") (param i64 i32) (i32.store (local.get 0) (local.get 1)))
  ;; offset + address computed past 64 bits (memories_test.c makes the
  ;; u64 offsets beyond 32 bits, which wabt 1.0.32 does not write)
  (func (export "load_off") (param i64) (result i32)
    (i32.load8_u offset=0xffffffff (local.get 0)))
  (func (export "size") (result i64) (memory.size))
  (func (export "grow") (param i64) (result i64) (memory.grow (local.get 0)))
  (func (export "fill") (param i64 i32 i64) (memory.fill (local.get 0) (local.get 1) (local.get 2))))
