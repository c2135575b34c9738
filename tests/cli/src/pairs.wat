;; Pairs of operations run as one (tests/pairs/run.sh): the interpreter
;; fuses an operation with the next one, but a trap in the second must
;; name the second's offset, and a branch to the second must run it alone.
(module
  (memory 1)
  ;; I32_ADD_IMM t q 8, then LOAD32 r from p (then I32_SUB): the load
  ;; traps for p = 65536. Returns t - r, with r = 0 (the memory is zero).
  (func (export "add_then_load") (param $p i32) (param $q i32) (result i32)
    (local $t i32) (local $r i32)
    local.get $q
    i32.const 8
    i32.add
    local.set $t
    local.get $p
    i32.load
    local.set $r
    local.get $t
    local.get $r
    i32.sub)
  ;; n += 1 just before the loop pairs with the loop's first operation,
  ;; i += 1; the back edge jumps to i += 1 alone. Were n incremented on
  ;; every round, the loop would not end where it does: s = 1 + ... + (n + 1).
  (func (export "loop_into_second") (param $n i32) (param $s i32) (result i32)
    (local $i i32)
    local.get $n
    i32.const 1
    i32.add
    local.set $n
    (loop $l
      local.get $i
      i32.const 1
      i32.add
      local.set $i
      local.get $s
      local.get $i
      i32.add
      local.set $s
      local.get $i
      local.get $n
      i32.lt_u
      br_if $l)
    local.get $s))
