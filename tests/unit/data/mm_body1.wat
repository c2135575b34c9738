;; Bodies on memory 1 (multi-memory, Wasm 3.0): loads and stores, size and
;; grow, fill, init, a copy between the two memories; memory 0 untouched.
(module
  (memory 1) (memory 1 3)
  (data (memory 1) (i32.const 0) "\2a\00\00\00")
  (data $p "hello")
  (func (export "load0") (param i32) (result i32) (i32.load 0 (local.get 0)))
  (func (export "load1") (param i32) (result i32) (i32.load 1 (local.get 0)))
  (func (export "store1") (param i32 i32) (i32.store 1 (local.get 0) (local.get 1)))
  (func (export "size1") (result i32) (memory.size 1))
  (func (export "grow1") (param i32) (result i32) (memory.grow 1 (local.get 0)))
  (func (export "fill1") (param i32 i32 i32)
    (memory.fill 1 (local.get 0) (local.get 1) (local.get 2)))
  (func (export "init1") (param i32) (memory.init 1 $p (local.get 0) (i32.const 0) (i32.const 5)))
  ;; memory.copy dst src: memory 0 from memory 1
  (func (export "copy01") (param i32 i32 i32)
    (memory.copy 0 1 (local.get 0) (local.get 1) (local.get 2))))
