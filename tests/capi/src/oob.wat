;; A data segment out of bounds: instantiation traps.
(module
  (memory 1)
  (data (i32.const 65535) "ab"))
