;; A library component: no wasi:cli/run. weft run says so and exits 2.
(component
  (core module $M (func (export "f") (result i32) i32.const 7))
  (core instance $i (instantiate $M))
  (func (export "f") (result u32) (canon lift (core func $i "f")))
)
