;; jit_test part 13: memory.copy and memory.fill of memory 0 in machine
;; code (src/jit/jit.c, bulk_memory). Each export takes (d, s, n): an
;; address, a second address or a fill value, a length; the test calls
;; them with triples at and past the end of memory on both tiers.
(module
  (memory (export "mem") 1 3)
  (data (i32.const 0) "\00\01\02\03\04\05\06\07\08\09\0a\0b\0c\0d\0e\0f weft bulk memory")
  (data (i32.const 65500) "the last 36 bytes of the first page.")

  (func (export "copy") (param $d i32) (param $s i32) (param $n i32) (result i32)
    (memory.copy (local.get $d) (local.get $s) (local.get $n))
    (i32.const 1))

  (func (export "fill") (param $d i32) (param $v i32) (param $n i32) (result i32)
    (memory.fill (local.get $d) (local.get $v) (local.get $n))
    (i32.const 2))

  ;; Values computed before the copy (in the register cache, not yet in
  ;; the frame) are used after it; the copy's operands come from the cache.
  (func (export "around") (param $d i32) (param $s i32) (param $n i32) (result i32)
    (local $a i32) (local $b i64)
    (local.set $a (i32.add (i32.mul (local.get $d) (i32.const 3)) (local.get $n)))
    (local.set $b (i64.extend_i32_u (i32.xor (local.get $s) (local.get $a))))
    (memory.copy (i32.and (local.get $d) (i32.const 0xffff)) (local.get $s) (local.get $n))
    (memory.fill (i32.add (local.get $s) (i32.const 3)) (local.get $a) (i32.shr_u (local.get $n) (i32.const 1)))
    (i32.add (i32.add (local.get $a) (i32.wrap_i64 (local.get $b)))
             (i32.load8_u (i32.and (local.get $d) (i32.const 0xfff)))))

  ;; A copy in a loop with its counter and pointers: overlapping moves up
  ;; and down, a fill, and a branch back after them.
  (func (export "loop") (param $d i32) (param $s i32) (param $n i32) (result i32)
    (local $i i32) (local $sum i32)
    (block $out
      (loop $top
        (br_if $out (i32.ge_u (local.get $i) (i32.and (local.get $n) (i32.const 63))))
        (memory.copy (i32.add (local.get $d) (local.get $i)) (local.get $s) (i32.const 17))
        (memory.copy (local.get $s) (i32.add (local.get $s) (i32.const 1)) (local.get $i))
        (memory.fill (i32.add (local.get $d) (i32.const 40)) (local.get $i) (local.get $i))
        (local.set $sum (i32.add (local.get $sum) (i32.load8_u (i32.add (local.get $d) (local.get $i)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $top)))
    (i32.add (local.get $sum) (local.get $i)))

  ;; Copy into a page the memory gained in this call (memory.grow is a
  ;; step exit: the compiled code goes on with the new size).
  (func (export "grow") (param $d i32) (param $s i32) (param $n i32) (result i32)
    (local $old i32)
    (local.set $old (memory.grow (i32.const 1)))
    (memory.copy (i32.add (local.get $d) (i32.const 65536)) (local.get $s) (local.get $n))
    (memory.fill (i32.add (local.get $d) (i32.const 65536)) (i32.const 0xa5) (i32.shr_u (local.get $n) (i32.const 2)))
    (local.get $old)))
