;; --invoke with v128 arguments and results (issue 15).
(module
  (func (export "add") (param v128 v128) (result v128)
    (i32x4.add (local.get 0) (local.get 1)))
  (func (export "mix") (param i32 v128 f64) (result f64 v128 i32)
    (local.get 2)
    (f32x4.splat (f32.const 1.5))
    (i32.add (local.get 0) (i32x4.extract_lane 3 (local.get 1)))))
