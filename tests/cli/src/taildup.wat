;; Shapes for the tail duplication pass (src/compile/taildup.c): a br
;; whose target is a short straight-line run ending in br, br_table,
;; return or unreachable is replaced by a copy of the run.
(module
  (memory (export "memory") 1)
  ;; Programs of the little VM below, one opcode per byte:
  ;;   at 0:  acc += 1, acc *= 3, acc ^= 0x55, jnz (loop to 0 while --cnt), halt
  ;;   at 16: acc += 1, acc *= 3, then 6: a jump far outside memory
  (data (i32.const 0) "\00\01\02\03\04")
  (data (i32.const 16) "\00\01\06")

  ;; A switch loop as a C compiler writes it: every case ends with a br
  ;; to the end of the switch, where the increment and the br back to
  ;; the dispatch follow. After the pass each case ends with its own copy
  ;; of "pc += 1; load the opcode; br_table", and the dispatch's load
  ;; (and its trap) happens in those copies.
  (func $run (export "run") (param $pc i32) (param $cnt i32) (result i32)
    (local $acc i32)
    (loop $top
      (block $next
        (block $c4 (block $c3 (block $c2 (block $c1 (block $c0 (block $far
          (br_table $c0 $c1 $c2 $c3 $c4 $far $far (i32.load8_u (local.get $pc))))
          ;; 5 and above: jump far away (the next load traps)
          (local.set $pc (i32.const 0x7fff0000))
          (br $next))
         ;; 0: acc += 1
         (local.set $acc (i32.add (local.get $acc) (i32.const 1)))
         (br $next))
        ;; 1: acc *= 3
        (local.set $acc (i32.mul (local.get $acc) (i32.const 3)))
        (br $next))
       ;; 2: acc ^= 0x55
       (local.set $acc (i32.xor (local.get $acc) (i32.const 0x55)))
       (br $next))
      ;; 3: jnz: back to the start of the program while --cnt
      (local.set $cnt (i32.sub (local.get $cnt) (i32.const 1)))
      (if (local.get $cnt) (then (local.set $pc (i32.const -1))))
      (br $next))
      ;; 4: halt
      (return (local.get $acc)))
    ;; the end of the switch
    (local.set $pc (i32.add (local.get $pc) (i32.const 1)))
    (br $top))
    (unreachable))

  ;; br_table entries that move a value point at stubs (copies, then a
  ;; br); the stubs' brs are replaced by copies of the code after each
  ;; block.
  (func $pick (export "pick") (param $i i32) (param $x i32) (result i32)
    (block $out (result i32)
      (i32.const 1000)
      (block $a (result i32)
        (br_table $a $out $a (i32.mul (local.get $x) (i32.const 2)) (local.get $i)))
      (i32.add)
      (return))
    (i32.sub (i32.const 7)))

  ;; A br to an unreachable: the copy traps, naming the unreachable.
  (func $fail (export "fail") (param $x i32) (result i32)
    (block $b
      (br_if $b (local.get $x))
      (return (i32.const 5)))
    (block $c (br $c))
    (unreachable))

  ;; Cycles of brs: the pass must stop following, and the loops must
  ;; still stop at their taken branches (--fuel, --timeout).
  (func $spin (export "spin")
    (loop $l (br $l)))
  (func $spin2 (export "spin2") (result i32)
    (local $i i32)
    (loop $outer
      (block $x
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $x))
      (local.set $i (i32.add (local.get $i) (i32.const 2)))
      (br $outer))
    (local.get $i))
)
