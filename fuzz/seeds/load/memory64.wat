;; memory64 (Wasm 3.0): an i64-addressed memory, loads and stores at i64
;; addresses with offsets, memory.size and memory.grow in i64, bulk
;; operations with i64 sizes, and the bounds checks near 2^64.
(module
  (memory $m i64 1 4)
  (data (i64.const 8) "memory64")
  (func (export "load") (param i64) (result i64) (i64.load offset=8 (local.get 0)))
  (func (export "store") (param i64 i32) (result i32)
    (i32.store8 offset=4 (local.get 0) (local.get 1))
    (i32.load8_u offset=4 (local.get 0)))
  (func (export "grow") (param i64) (result i64)
    (drop (memory.grow (i64.and (local.get 0) (i64.const 3))))
    (memory.size))
  (func (export "bulk") (param i64) (result i32)
    (memory.fill (i64.const 0) (i32.const 9) (i64.and (local.get 0) (i64.const 0xffff)))
    (memory.copy (i64.const 100) (i64.const 0) (i64.const 16))
    (i32.load8_u (i64.const 100)))
  (func (export "far") (result i32) (i32.load offset=0xfffffff0 (i64.const -8))))
