(module (memory 1) (func (local i32) memory.size drop i32.const 5 local.set 0))
