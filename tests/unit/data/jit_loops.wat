;; jit_test part 12: loops whose variables the compiler tier keeps in
;; registers across the back-edge (src/jit/jit.c, "Loop registers").
;; Each export takes n (i64) and returns an i64 that depends on every
;; value the loop carries; jit_test compares both tiers' results, traps,
;; messages and fuel left, with budgets that run out inside the loops and
;; ones that refill the execution mid-loop (an exit with the loop's
;; registers dirty, then the interpreter going on from the frame).
;; Build: wat2wasm --debug-names jit_loops.wat -o jit_loops.wasm
(module
  (memory 1)

  ;; A counter and an accumulator, the branch back at the end (br_if).
  (func (export "count") (param $n i64) (result i64)
    (local $i i32) (local $acc i64)
    (local.set $acc (i64.const 7))
    (loop $l
      (local.set $acc (i64.add (i64.mul (local.get $acc) (i64.const 31))
                               (i64.extend_i32_u (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i64.lt_u (i64.extend_i32_u (local.get $i)) (local.get $n))))
    (i64.xor (local.get $acc) (i64.extend_i32_u (local.get $i))))

  ;; 64-bit values whose high halves matter, carried and swapped.
  (func (export "wide") (param $n i64) (result i64)
    (local $a i64) (local $b i64) (local $t i64)
    (local.set $a (i64.const 0x0123456789abcdef))
    (local.set $b (i64.const -3))
    (loop $l
      (local.set $t (local.get $a))
      (local.set $a (i64.add (i64.rotl (local.get $b) (i64.const 13)) (local.get $n)))
      (local.set $b (i64.xor (local.get $t) (i64.shr_u (local.get $a) (i64.const 7))))
      (local.set $n (i64.sub (local.get $n) (i64.const 1)))
      (br_if $l (i64.gt_s (local.get $n) (i64.const 0))))
    (i64.add (local.get $a) (i64.mul (local.get $b) (i64.const 3))))

  ;; Two branches back: a `continue` in the middle, then the end's br_if.
  ;; Between them a float operation writes a variable the first part
  ;; reads and writes as an integer (its register loses it to an XMM
  ;; register, and is loaded again before the branch back).
  (func (export "two_edges") (param $n i64) (result i64)
    (local $i i64) (local $x i64) (local $acc i64)
    (local.set $x (i64.reinterpret_f64 (f64.const 1.5)))
    (loop $l
      (local.set $acc (i64.add (local.get $acc) (local.get $x)))
      (local.set $x (i64.xor (local.get $x) (local.get $i)))
      (local.set $i (i64.add (local.get $i) (i64.const 1)))
      (br_if $l (i64.eqz (i64.and (local.get $i) (i64.const 3))))
      (local.set $x (i64.reinterpret_f64 (f64.add (f64.reinterpret_i64 (local.get $x)) (f64.const 0.25))))
      (local.set $acc (i64.rotl (local.get $acc) (i64.const 5)))
      (br_if $l (i64.lt_u (local.get $i) (local.get $n))))
    (i64.add (local.get $acc) (local.get $x)))

  ;; A way out in the middle of the loop, then the branch back (br).
  (func (export "exit_mid") (param $n i64) (result i64)
    (local $i i32) (local $s i32) (local $p i32)
    (block $out
      (loop $l
        (local.set $s (i32.add (local.get $s) (i32.mul (local.get $i) (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $out (i64.ge_u (i64.extend_i32_u (local.get $i)) (local.get $n)))
        (local.set $p (i32.xor (local.get $p) (local.get $s)))
        (br $l)))
    (i64.or (i64.shl (i64.extend_i32_u (local.get $s)) (i64.const 32)) (i64.extend_i32_u (local.get $p))))

  ;; A pointer walk through memory: stores, loads and narrow forms of the
  ;; carried values (quicksort's scan, sieve's marking).
  (func (export "walk") (param $n i64) (result i64)
    (local $p i32) (local $v i32) (local $k i32) (local $h i64)
    (local.set $k (i32.wrap_i64 (i64.rem_u (local.get $n) (i64.const 8000))))
    (loop $fill
      (i32.store (i32.shl (local.get $p) (i32.const 2)) (i32.mul (local.get $p) (i32.const 0x9e3779b9)))
      (i32.store8 offset=40000 (local.get $p) (local.get $p))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br_if $fill (i32.le_u (local.get $p) (local.get $k))))
    (local.set $p (i32.const 0))
    (loop $scan
      (local.set $v (i32.load (local.get $p)))
      (local.set $h (i64.add (i64.mul (local.get $h) (i64.const 1000003))
                             (i64.extend_i32_s (i32.extend8_s (local.get $v)))))
      (local.set $h (i64.add (local.get $h) (i64.extend_i32_u (i32.load8_u offset=40000 (local.get $k)))))
      (local.set $p (i32.add (local.get $p) (i32.const 4)))
      (br_if $scan (i32.lt_u (local.get $p) (i32.shl (local.get $k) (i32.const 2)))))
    (i64.xor (local.get $h) (i64.extend_i32_u (local.get $p))))

  ;; A load out of bounds at iteration n (a trap with the registers dirty).
  (func (export "trap_oob") (param $n i64) (result i64)
    (local $p i32) (local $s i64)
    (local.set $p (i32.sub (i32.mul (memory.size) (i32.const 65536))
                         (i32.wrap_i64 (i64.mul (local.get $n) (i64.const 8)))))
    (loop $l
      (local.set $s (i64.add (local.get $s) (i64.load (local.get $p))))
      (local.set $p (i32.add (local.get $p) (i32.const 8)))
      (br $l))
    (local.get $s))

  ;; A division by zero when the counter reaches n.
  (func (export "trap_div") (param $n i64) (result i64)
    (local $i i64) (local $s i64)
    (loop $l
      (local.set $s (i64.add (local.get $s) (i64.div_s (i64.const 1000000) (i64.sub (local.get $n) (local.get $i)))))
      (local.set $i (i64.add (local.get $i) (i64.const 1)))
      (br_if $l (i64.lt_s (local.get $i) (i64.const 1000000000))))
    (local.get $s))

  ;; The branch back is a br_table target (written back as at any branch).
  (func (export "table_back") (param $n i64) (result i64)
    (local $i i32) (local $s i32)
    (block $out
      (loop $l
        (local.set $s (i32.add (i32.rotl (local.get $s) (i32.const 3)) (local.get $i)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_table $l $l $out
          (select (i32.const 2) (i32.and (local.get $i) (i32.const 1))
                  (i64.ge_u (i64.extend_i32_u (local.get $i)) (local.get $n))))))
    (i64.extend_i32_u (local.get $s)))

  ;; Nested loops: the inner one keeps its registers, the outer one's
  ;; branch back comes from another run.
  (func (export "nested") (param $n i64) (result i64)
    (local $i i32) (local $j i32) (local $s i64)
    (loop $outer
      (local.set $j (i32.const 0))
      (loop $inner
        (local.set $s (i64.add (local.get $s) (i64.extend_i32_u (i32.mul (local.get $i) (local.get $j)))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br_if $inner (i32.lt_u (local.get $j) (i32.const 17))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $outer (i64.lt_u (i64.extend_i32_u (local.get $i)) (local.get $n))))
    (local.get $s))

  ;; More live values than the loop registers: six carried variables.
  (func (export "many") (param $n i64) (result i64)
    (local $a i32) (local $b i32) (local $c i32) (local $d i32) (local $e i32) (local $f i32)
    (local.set $a (i32.const 1)) (local.set $b (i32.const 2)) (local.set $c (i32.const 3))
    (loop $l
      (local.set $d (i32.add (local.get $d) (i32.xor (local.get $a) (local.get $c))))
      (local.set $e (i32.sub (local.get $e) (i32.rotl (local.get $b) (local.get $d))))
      (local.set $f (i32.add (local.get $f) (i32.mul (local.get $e) (local.get $a))))
      (local.set $a (i32.add (local.get $a) (i32.const 1)))
      (local.set $b (i32.xor (local.get $b) (local.get $f)))
      (local.set $c (i32.add (local.get $c) (local.get $b)))
      (br_if $l (i64.lt_u (i64.extend_i32_u (local.get $a)) (local.get $n))))
    (i64.xor (i64.shl (i64.extend_i32_u (i32.xor (local.get $b) (local.get $c))) (i64.const 32))
             (i64.extend_i32_u (i32.add (local.get $d) (i32.add (local.get $e) (local.get $f))))))

  ;; A call in the loop (the run ends at it: nothing kept), and an f32
  ;; accumulator beside an integer counter.
  (func $sq (param i32) (result i32) (i32.mul (local.get 0) (local.get 0)))
  (func (export "with_call") (param $n i64) (result i64)
    (local $i i32) (local $s i32) (local $f f32)
    (loop $l
      (local.set $s (i32.add (local.get $s) (call $sq (local.get $i))))
      (local.set $f (f32.add (local.get $f) (f32.convert_i32_u (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i64.lt_u (i64.extend_i32_u (local.get $i)) (local.get $n))))
    (i64.or (i64.shl (i64.extend_i32_u (local.get $s)) (i64.const 32))
            (i64.extend_i32_u (i32.reinterpret_f32 (local.get $f)))))

  ;; memory.grow in the loop (a step exit: the run ends there; up to 64
  ;; pages) and memory.size read after it.
  (func (export "grow") (param $n i64) (result i64)
    (local $i i32) (local $s i32)
    (loop $l
      (local.set $s (i32.add (local.get $s) (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (if (i32.and (i32.eqz (i32.and (local.get $i) (i32.const 1023)))
                   (i32.lt_u (memory.size) (i32.const 64)))
        (then (drop (memory.grow (i32.const 1)))))
      (local.set $s (i32.add (local.get $s) (memory.size)))
      (br_if $l (i64.lt_u (i64.extend_i32_u (local.get $i)) (local.get $n))))
    (i64.extend_i32_u (local.get $s)))
)
