;; A start function that traps: wasm_instance_new reports it.
(module
  (func $start (unreachable))
  (start $start))
