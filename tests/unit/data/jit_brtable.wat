;; br_table's metering on both tiers (tests/unit/jit_test.c): a loop whose
;; back-edges are br_table targets (the explicit $top and the default) as
;; well as plain br, and whose forward targets are blocks. run(n) iterates
;; n times on a 64-bit LCG state; the index is its top three bits, so
;; every target is taken and indices past the table take the default.
(module
  (func (export "run") (param $n i64) (result i64)
    (local $h i64)
    (local.set $h (i64.const 88172645463325252))
    (block $done
      (loop $top
        (br_if $done (i64.eqz (local.get $n)))
        (local.set $n (i64.sub (local.get $n) (i64.const 1)))
        (local.set $h (i64.add (i64.mul (local.get $h) (i64.const 6364136223846793005))
                               (i64.const 1442695040888963407)))
        (block $c1
          (block $c0
            (br_table $c0 $c1 $top $top
              (i32.wrap_i64 (i64.shr_u (local.get $h) (i64.const 61)))))
          ;; c0
          (local.set $h (i64.xor (local.get $h) (i64.const 0x5555)))
          (br $top))
        ;; c1
        (local.set $h (i64.rotl (local.get $h) (i64.const 7)))
        (br $top)))
    (local.get $h)))
