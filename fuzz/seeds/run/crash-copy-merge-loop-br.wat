(module (func (result i32) (loop (br 0)) (i32.const 0)))
