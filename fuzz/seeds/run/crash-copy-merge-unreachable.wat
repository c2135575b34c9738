(module (func (local i32) unreachable unreachable i32.const 2 local.set 0))
