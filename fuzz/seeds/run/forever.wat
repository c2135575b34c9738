;; Every way a call can fail to end by itself; the harness must stop each.
(module
  (memory 1 1 shared)
  (func (export "spin") (loop (br 0)))
  (func $rec (export "recurse") (param i32) (result i32)
    (call $rec (i32.add (local.get 0) (i32.const 1))))
  (func (export "wait") (result i32)
    (memory.atomic.wait32 (i32.const 0) (i32.const 0) (i64.const -1)))
  (func (export "grow") (result i32)
    (loop (br_if 0 (i32.ne (memory.grow (i32.const 1)) (i32.const -1))))
    (i32.const 0)))
