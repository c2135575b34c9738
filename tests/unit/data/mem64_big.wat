;; mem64_big_test.c's module (issue 39): 64-bit memories past 4 GiB.
;; Memory 0 has no maximum (weft's bound for it: 16 GiB by default), memory
;; 1 a declared maximum of 70000 pages (above 65535: both are "big",
;; compiled with 64-bit addresses, docs/pipeline.md). wabt 1.0.32 writes no
;; offset above 0xffffffff, so an effective address past 2^64 is made here
;; by the address. Rebuild: make -C tests guests (wat2wasm --enable-memory64
;; --enable-multi-memory --enable-threads).
(module
  (memory $m i64 1)
  (memory $b i64 1 70000)
  (data $d "weft-data")
  (func (export "grow") (param i64) (result i64) (memory.grow 0 (local.get 0)))
  (func (export "size") (result i64) (memory.size 0))
  (func (export "grow_b") (param i64) (result i64) (memory.grow 1 (local.get 0)))
  (func (export "load8") (param i64) (result i32) (i32.load8_u 0 (local.get 0)))
  (func (export "store8") (param i64 i32) (i32.store8 0 (local.get 0) (local.get 1)))
  (func (export "load64") (param i64) (result i64) (i64.load 0 (local.get 0)))
  (func (export "store64") (param i64 i64) (i64.store 0 (local.get 0) (local.get 1)))
  (func (export "load32_off8") (param i64) (result i32) (i32.load 0 offset=8 (local.get 0)))
  (func (export "load8_offmax") (param i64) (result i32) (i32.load8_u 0 offset=0xffffffff (local.get 0)))
  (func (export "v128_load") (param i64) (result i64)
    (i64x2.extract_lane 1 (v128.load 0 (local.get 0))))
  (func (export "atomic_load32_off8") (param i64) (result i32) (i32.atomic.load 0 offset=8 (local.get 0)))
  (func (export "atomic_add64") (param i64 i64) (result i64) (i64.atomic.rmw.add 0 (local.get 0) (local.get 1)))
  (func (export "atomic_cmpxchg32") (param i64 i32 i32) (result i32)
    (i32.atomic.rmw.cmpxchg 0 (local.get 0) (local.get 1) (local.get 2)))
  (func (export "notify") (param i64) (result i32) (memory.atomic.notify 0 (local.get 0) (i32.const 1)))
  (func (export "wait32") (param i64) (result i32) (memory.atomic.wait32 0 (local.get 0) (i32.const 0) (i64.const 0)))
  (func (export "fill") (param i64 i32 i64) (memory.fill 0 (local.get 0) (local.get 1) (local.get 2)))
  (func (export "copy") (param i64 i64 i64) (memory.copy 0 0 (local.get 0) (local.get 1) (local.get 2)))
  (func (export "init") (param i64 i32 i32) (memory.init 0 0 (local.get 0) (local.get 1) (local.get 2)))
  (func (export "load8_b") (param i64) (result i32) (i32.load8_u 1 (local.get 0)))
  (func (export "store8_b") (param i64 i32) (i32.store8 1 (local.get 0) (local.get 1)))
  ;; memory.copy $b $m: to memory 1 from memory 0
  (func (export "copy_b_m") (param i64 i64 i64) (memory.copy 1 0 (local.get 0) (local.get 1) (local.get 2)))
)
