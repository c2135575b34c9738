;; Its start function traps during instantiation.
(module
  (func $boom unreachable)
  (start $boom)
  (func (export "_start")))
