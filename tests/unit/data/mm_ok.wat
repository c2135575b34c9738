;; Multi-memory and memory64 as far as weft takes them (issue 24): several
;; memories, a 64-bit one (its declared maximum past 4 GiB), data segments
;; per memory with the memory's address type, exports; code uses memory 0.
(module
  (memory $a (export "a") 1)
  (memory $b (export "b") 2 3)
  (memory $c (export "c") i64 1 70000)
  (data (memory $b) (i32.const 8) "two")
  (data (memory $c) (i64.const 16) "sixty-four")
  (data (i32.const 0) "\2a")
  (func (export "load0") (result i32) (i32.load8_u (i32.const 0))))
