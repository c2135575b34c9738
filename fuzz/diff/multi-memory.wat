;; The initial module of fuzz/diff/run's multi-memory modules (wasm-opt -ttf
;; --enable-multimemory --initial-fuzz): binaryen 132's -ttf addresses only
;; the first memory in the code it writes, but keeps an initial module's
;; functions, mutates them (random expressions in place of some of theirs)
;; and calls into them; so every instruction that takes a memory index is
;; here once with a memory other than the first, and memory.copy between
;; memories. Memories 1 and 2 are exported, so both drivers hash them
;; (exec.c, exec.mjs); memory 0 is the one -ttf uses (it exports it as
;; "memory").
(module
  (memory $m0 1 2)
  (memory $m1 1 2)
  (memory $m2 2 3)
  (data (memory $m1) (i32.const 16) "\01\02\03\04\05\06\07\08weft multi-memory")
  (data (memory $m2) (i32.const 65530) "\ff\fe\fd\fc\fb\fa")
  (data $pass "a passive segment for memory.init into memory 2")
  (export "memory1" (memory $m1))
  (export "memory2" (memory $m2))
  (global $addr (mut i32) (i32.const 24))
  (func $loads (export "mm-loads") (result i64)
    (i64.add
      (i64.add (i64.load $m1 offset=16 (i32.const 0))
               (i64.extend_i32_u (i32.load16_s $m2 offset=1 (i32.const 65530))))
      (i64.add (i64.load8_u $m1 (global.get $addr))
               (i64.extend_i32_s (i32.load $m0 (i32.const 0))))))
  (func $stores (export "mm-stores")
    (i32.store $m1 offset=4 (global.get $addr) (i32.const 0x12345678))
    (i64.store32 $m2 (i32.const 65532) (i64.const -2))
    (f64.store $m1 (i32.const 40) (f64.const 1.5))
    (i32.store8 $m2 offset=65535 (i32.const 1) (i32.const 7))
    (global.set $addr (i32.add (global.get $addr) (i32.const 8))))
  (func $bulk (export "mm-bulk") (result i32)
    (memory.copy $m2 $m1 (i32.const 100) (i32.const 16) (i32.const 24))
    (memory.copy $m1 $m2 (i32.const 200) (i32.const 65528) (i32.const 8))
    (memory.copy $m1 $m1 (i32.const 20) (i32.const 16) (i32.const 12))
    (memory.fill $m2 (i32.const 300) (i32.const 0xab) (i32.const 17))
    (memory.init $m2 $pass (i32.const 400) (i32.const 2) (i32.const 20))
    (i32.add (i32.load $m2 (i32.const 100)) (i32.load $m1 (i32.const 200))))
  (func $grow (export "mm-grow") (result i32)
    (i32.add
      (i32.mul (memory.grow $m2 (i32.const 1)) (i32.const 100))
      (i32.add (memory.size $m2) (i32.mul (memory.size $m1) (i32.const 10)))))
  (func $oob (export "mm-oob") (result i32)
    (i32.load $m1 (i32.const 65534)))
  (func $oob-copy (export "mm-oob-copy")
    (memory.copy $m1 $m2 (i32.const 65530) (i32.const 0) (i32.const 8)))
  (func $drop (export "mm-drop")
    (data.drop $pass))
)
