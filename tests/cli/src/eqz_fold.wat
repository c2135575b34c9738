;; i32.eqz of a comparison: the compiler emits the inverse comparison
;; (src/compile/compile.c, fold_eqz_of_compare), and a br_if after it
;; fuses that. tests/cli/run.sh checks each export against the spec's
;; answer, at the boundaries where an inverse that is off by one (lt for
;; ge, signed for unsigned) or a float "inverse" (NaN) would differ.
(module
  (func (export "ne0_64") (param i64) (result i32)
    (i32.eqz (i64.eqz (local.get 0))))
  (func (export "br_ne0_64") (param i64) (result i32)
    (block (br_if 0 (i32.eqz (i64.eqz (local.get 0)))) (return (i32.const 7)))
    (i32.const 9))
  (func (export "not_eqz32") (param i32) (result i32)
    (i32.eqz (i32.eqz (local.get 0))))
  (func (export "not_lt_s") (param i32 i32) (result i32)
    (i32.eqz (i32.lt_s (local.get 0) (local.get 1))))
  (func (export "br_not_lt_u64") (param i64 i64) (result i32)
    (block (br_if 0 (i32.eqz (i64.lt_u (local.get 0) (local.get 1)))) (return (i32.const 7)))
    (i32.const 9))
  (func (export "not_gt_u_imm") (param i32) (result i32)
    (i32.eqz (i32.gt_u (local.get 0) (i32.const 10))))
  (func (export "not_ge_s64_imm") (param i64) (result i32)
    (i32.eqz (i64.ge_s (local.get 0) (i64.const -5))))
  (func (export "not_f64_lt") (param f64 f64) (result i32)
    (i32.eqz (f64.lt (local.get 0) (local.get 1))))
  ;; The comparison's result also kept in a local: nothing to fold.
  (func (export "tee_lt_s") (param i32 i32) (result i32) (local i32)
    (i32.eqz (local.tee 2 (i32.lt_s (local.get 0) (local.get 1))))
    (i32.mul (local.get 2) (i32.const 10))
    (i32.add)))
