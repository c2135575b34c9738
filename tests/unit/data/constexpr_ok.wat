;; Extended constant expressions (Wasm 3.0 §3.4.10): arithmetic over
;; constants and global.get, an own earlier global read by a global's
;; initialiser and by a data offset, wrap-around, an element offset.
;; Built with: wat2wasm --enable-extended-const --no-check (wabt 1.0.32
;; validates the proposal's older rule that global.get names imported
;; globals only; Wasm 3.0 allows the earlier own ones).
(module
  (import "env" "g" (global i32))
  (global $g1 (export "g1") i32 (i32.mul (i32.const 5) (i32.const 3)))
  (global $g2 (export "g2") i32 (i32.sub (i32.add (global.get 0) (global.get $g1)) (i32.const 1)))
  (global $g3 (export "g3") i64 (i64.mul (i64.const -1) (i64.const 2)))
  (global $g4 (export "g4") i32 (i32.mul (i32.const 0x7fffffff) (i32.const 2)))
  (global $g5 (export "g5") i64 (i64.sub (i64.const 0) (i64.add (i64.const 0x7fffffffffffffff) (i64.const 2))))
  (memory (export "mem") 1)
  (data (i32.add (global.get $g1) (i32.const 1)) "hi")
  (table (export "tab") 4 funcref)
  (func $f (result i32) (i32.const 7))
  (elem (i32.add (i32.const 1) (i32.const 1)) $f)
)
