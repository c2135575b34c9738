;; The auto tier's tier-up (tests/unit/jit_test.c, part 9): run(n) calls
;; $work, whose loop of 100,000 iterations holds nearly every safe point
;; the program passes, and $tiny, which takes no time. Once $work has
;; machine code, a sample lands in it and credits its interpreted caller,
;; run (tier.c: nothing else would find run); once run has machine code,
;; its calls of $tiny leave for the interpreter and are counted until
;; $tiny is compiled (two samples would take about 200,000 ms).
(module
  (func $tiny (param $x i64) (result i64)
    (i64.add (local.get $x) (i64.const 1)))
  (func $work (param $x i64) (result i64)
    (local $i i32)
    (local.set $i (i32.const 100000))
    (loop $again
      (local.set $x (i64.xor (local.get $x) (i64.shl (local.get $x) (i64.const 13))))
      (local.set $x (i64.xor (local.get $x) (i64.shr_u (local.get $x) (i64.const 7))))
      (local.set $x (i64.xor (local.get $x) (i64.shl (local.get $x) (i64.const 17))))
      (local.set $i (i32.sub (local.get $i) (i32.const 1)))
      (br_if $again (local.get $i)))
    (local.get $x))
  (func (export "run") (param $n i64) (result i64)
    (local $h i64)
    (local.set $h (i64.const 88172645463325252))
    (block $done
      (loop $again
        (br_if $done (i64.eqz (local.get $n)))
        (local.set $h (call $tiny (call $work (local.get $h))))
        (local.set $n (i64.sub (local.get $n) (i64.const 1)))
        (br $again)))
    (local.get $h)))
