;; A start function that never returns: stopped like any call.
(module
  (func $s (loop (br 0)))
  (start $s))
