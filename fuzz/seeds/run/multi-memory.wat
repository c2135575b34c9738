;; Multi-memory (Wasm 3.0): three memories, data segments for each, loads
;; and stores with a memory index, memory.copy and memory.init between
;; memories, memory.size, memory.grow and memory.fill on memory 2.
(module
  (memory $a 1)
  (memory $b 1 2)
  (memory $c 0 1)
  (data (memory $a) (i32.const 0) "abcdefgh")
  (data (memory $b) (i32.const 65530) "tail")
  (data $p "passive")
  (func (export "copy") (param i32) (result i64)
    (memory.copy $b $a (i32.const 16) (local.get 0) (i32.const 8))
    (i64.load $b offset=16 (i32.const 0)))
  (func (export "grow") (param i32) (result i32)
    (drop (memory.grow $c (i32.const 1)))
    (memory.fill $c (i32.const 0) (i32.const 0x55) (local.get 0))
    (i32.add (memory.size $c) (i32.load8_u $c (i32.const 3))))
  (func (export "init") (param i32) (result i32)
    (memory.init $b $p (local.get 0) (i32.const 0) (i32.const 7))
    (i32.store16 $a (i32.const 100) (i32.load16_u $b (local.get 0)))
    (i32.load $a (i32.const 100)))
  (func (export "oob") (result i32) (i32.load $b (i32.const 65534))))
