;; Extended constant expressions (Wasm 3.0, -W extended-const): a global
;; initialised by arithmetic over an earlier global, a data offset too.
;; wat2wasm --enable-extended-const --no-check (wabt 1.0.32 still checks
;; the proposal's older rule that global.get names imported globals only).
(module
  (global $base i32 (i32.const 40))
  (global $g i32 (i32.add (global.get $base) (i32.mul (i32.const 1) (i32.const 2))))
  (memory 1)
  (data (i32.sub (global.get $g) (i32.const 2)) "*")
  (func (export "get") (result i32) (global.get $g))
  (func (export "byte") (result i32) (i32.load8_u (i32.const 40))))
