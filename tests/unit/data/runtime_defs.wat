;; A module defining every kind of object, with segments of every mode.
(module $defs
  (import "env" "base" (global $base i32))
  (type $t (func (result i32)))
  (func $one (type $t) (i32.const 1))
  (func $two (type $t) (i32.const 2))
  (table $tab (export "tab") 3 8 funcref)
  (table $ext (export "ext") 2 externref)
  (memory $mem (export "mem") 1 3)
  (global $g0 (export "g0") i32 (global.get $base))
  (global $g1 (export "g1") (mut i64) (i64.const -5))
  (global $g2 (export "g2") f32 (f32.const nan:0x200001))
  (global $g3 (export "g3") funcref (ref.func $two))
  (global $g4 (export "g4") externref (ref.null extern))
  (elem (table $tab) (global.get $base) func $one $two)   ;; active at base
  (elem $passive func $two $one $two)                      ;; passive, kept
  (elem $decl declare func $one)                            ;; dropped
  (elem $nulls funcref (ref.null func) (ref.func $one))    ;; passive with exprs
  (data (memory $mem) (i32.const 100) "weft")
  (data $pdata "passive")
  (export "one" (func $one))
  (export "two" (func $two))
)
