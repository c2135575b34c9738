;; The first data segment is written, the second is out of bounds: the
;; instantiation traps with "out of bounds memory access" and the first
;; segment's bytes stay in the imported memory.
(module
  (import "env" "m" (memory 1))
  (data (i32.const 10) "abc")
  (data (i32.const 65535) "zz")
)
