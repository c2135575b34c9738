;; A valid module that is not a WASI command.
(module (func (export "f") (result i32) (i32.const 7)))
