;; Imports the exports of runtime_defs.wat, registered in a linker under
;; "defs" with weft_linker_define_instance.
(module
  (import "defs" "mem" (memory 1))
  (import "defs" "g1" (global (mut i64)))
  (import "defs" "two" (func (result i32)))
  (import "defs" "tab" (table 3 funcref))
  (import "defs" "g3" (global funcref))
  (func (export "get2") (result i32) (i32.const 2))
)
