;; A long pure computation for the suspend/resume test: an xorshift hash
;; iterated n times through a call in every iteration, so both loop
;; back-edges and function entries are safe points.
(module
  (func $step (param $x i64) (result i64)
    (local.set $x (i64.xor (local.get $x) (i64.shl (local.get $x) (i64.const 13))))
    (local.set $x (i64.xor (local.get $x) (i64.shr_u (local.get $x) (i64.const 7))))
    (i64.xor (local.get $x) (i64.shl (local.get $x) (i64.const 17))))
  (func (export "run") (param $n i64) (result i64)
    (local $h i64)
    (local.set $h (i64.const 88172645463325252))
    (block $done
      (loop $again
        (br_if $done (i64.eqz (local.get $n)))
        (local.set $h (i64.add (call $step (local.get $h)) (local.get $n)))
        (local.set $n (i64.sub (local.get $n) (i64.const 1)))
        (br $again)))
    (local.get $h)))
