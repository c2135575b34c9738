;; Element and data segments, applied in module order into imported
;; objects; the second active element segment is out of bounds, so
;; instantiation traps after the first was written and before any data
;; segment is (Wasm 2.0 instantiation steps 14-15).
(module
  (import "env" "t" (table 4 funcref))
  (import "env" "m" (memory 1))
  (func $a (result i32) (i32.const 1))
  (func $b (result i32) (i32.const 2))
  (elem (i32.const 0) $a $b)
  (elem (i32.const 3) $a $b)
  (data (i32.const 0) "hi")
)
