;; A data segment past the end of a 64-bit memory: a trap at instantiation.
(module
  (memory i64 1)
  (data (i64.const 0x1_0000_0000) "x"))
