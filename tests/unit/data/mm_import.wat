;; Imports of a 32-bit and a 64-bit memory, then memory 2 of its own.
(module
  (import "mm" "b" (memory $b 1))
  (import "mm" "c" (memory $c i64 1))
  (memory $own 1))
