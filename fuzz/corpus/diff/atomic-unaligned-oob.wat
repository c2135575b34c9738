;; fuzz/corpus/diff/atomic-unaligned-oob.wasm: an atomic access that is both
;; unaligned and out of bounds traps as unaligned (the threads proposal's
;; reference interpreter checks the alignment before the access, and V8
;; does), on a 32-bit and on a 64-bit memory, where an address past 2^32
;; keeps its alignment (interp.c ADDR64). weft checked the bounds first;
;; found by fuzz/diff/run -s 1 with binaryen 132 and node 24 (an
;; i32.atomic.load offset=4 of i64.const -28375). Aligned and out of bounds,
;; and unaligned non-atomic accesses, still trap as out of bounds.
(module
  (memory $m 1 1 shared)
  (memory $w i64 1 1 shared)
  (func (export "i32-oob-unaligned") (result i32) (i32.atomic.load $m (i32.const 0x7fffffff)))
  (func (export "i32-oob-unaligned-offset") (result i32) (i32.atomic.load $m offset=4 (i32.const -3)))
  (func (export "i32-oob-aligned") (result i32) (i32.atomic.load $m (i32.const 65536)))
  (func (export "i32-rmw-oob-unaligned") (result i64)
    (i64.atomic.rmw.add $m (i32.const 65539) (i64.const 1)))
  (func (export "i32-store-oob-unaligned")
    (i32.atomic.store16 $m (i32.const 65537) (i32.const 1)))
  (func (export "i32-cmpxchg-oob-unaligned") (result i32)
    (i32.atomic.rmw.cmpxchg $m (i32.const 70002) (i32.const 0) (i32.const 1)))
  (func (export "i64-oob-unaligned") (result i32) (i32.atomic.load $w (i64.const 0x7fffffff)))
  (func (export "i64-wrap-unaligned") (result i32) (i32.atomic.load $w offset=4 (i64.const -28375)))
  (func (export "i64-huge-unaligned") (result i32) (i32.atomic.load $w (i64.const -28375)))
  (func (export "i64-huge-aligned") (result i32) (i32.atomic.load $w offset=4 (i64.const -28376)))
  (func (export "i64-huge-aligned-8") (result i64) (i64.atomic.load $w (i64.const 0x100000008)))
  (func (export "i64-huge-unaligned-8") (result i64) (i64.atomic.load $w (i64.const 0x100000004)))
  (func (export "i64-huge-plain") (result i32) (i32.load $w (i64.const -28375)))
  (func (export "i32-plain") (result i32) (i32.load $m (i32.const 65535)))
)
