;; Well-formed but invalid: adds an i32 to an i64.
(module
  (func (export "_start")
    (drop (i32.add (i32.const 1) (i64.const 2)))))
