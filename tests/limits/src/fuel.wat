;; fuel — one export per shape of the fuel rule (weft.h, weft_store_set_fuel:
;; one unit per back-edge taken and per function entered by a call, none
;; elsewhere). Each loops forever and adds one to the global `n` at the top
;; of every iteration (every call for `rec`), so after "all fuel consumed"
;; with a budget of F, `n` says how many iterations began (limits_test.c):
;;   br, br_if, br_table, fused, pair_br_if, pair_br, switch: 1 unit an
;;       iteration, n = F + 1 (the last iteration traps on its back-edge);
;;   call: a call and a back-edge, 2 units an iteration, n = F / 2 + 1;
;;   rec: calls only, n = F + 1 (the host's call is free);
;;   forward: forward branches taken in every iteration, which count
;;       nothing: n = F + 1.
;; `arg` is 0 for every export; the shapes must not depend on it.
(module
  (global $n (export "n") (mut i32) (i32.const 0))
  (func $nothing)
  ;; An unconditional br back (tail duplication copies the loop's body
  ;; in place of the br: taildup.c's SAFE_POINT keeps the count).
  (func (export "br") (param $arg i32)
    (loop $l
      (global.set $n (i32.add (global.get $n) (i32.const 1)))
      (br $l)))
  (func (export "br_if") (param $arg i32)
    (loop $l
      (global.set $n (i32.add (global.get $n) (i32.const 1)))
      (br_if $l (i32.eqz (local.get $arg)))))
  ;; Entries 0 and 2 go back, 1 leaves the loop.
  (func (export "br_table") (param $arg i32)
    (loop $l
      (global.set $n (i32.add (global.get $n) (i32.const 1)))
      (block $out (br_table $l $out $l (local.get $arg)))
      (unreachable)))
  ;; A compare-and-branch the compiler fuses (BR_IF_I32_LT_S).
  (func (export "fused") (param $arg i32)
    (loop $l
      (global.set $n (i32.add (global.get $n) (i32.const 1)))
      (br_if $l (i32.lt_s (local.get $arg) (i32.const 1)))))
  ;; The back-edge is the second operation of a pair in a build with
  ;; super-instructions: I32_ADD_IMM + BR_IF_I32_NE_IMM ($i never reaches
  ;; -1 within any budget the tests give).
  (func (export "pair_br_if") (param $arg i32)
    (local $i i32)
    (loop $l
      (global.set $n (i32.add (global.get $n) (i32.const 1)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.ne (local.get $i) (i32.const -1)))))
  ;; The same with an unconditional br: I32_ADD_IMM + BR.
  (func (export "pair_br") (param $arg i32)
    (local $i i32)
    (loop $l
      (global.set $n (i32.add (global.get $n) (i32.const 1)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $l)))
  (func (export "call") (param $arg i32)
    (loop $l
      (global.set $n (i32.add (global.get $n) (i32.const 1)))
      (call $nothing)
      (br $l)))
  (func $rec (export "rec") (param $arg i32)
    (global.set $n (i32.add (global.get $n) (i32.const 1)))
    (call $rec (local.get $arg)))
  ;; A switch loop: each case ends with a br forward to the end of the
  ;; switch, where the br back to the dispatch is. Tail duplication
  ;; replaces each case's br by a copy of the back-edge and the dispatch
  ;; (SAFE_POINT, BR_TABLE).
  (func (export "switch") (param $arg i32)
    (loop $top
      (block $next
        (block $b (block $a
          (br_table $a $b (local.get $arg)))
          (global.set $n (i32.add (global.get $n) (i32.const 1)))
          (br $next))
        (unreachable))
      (br $top)))
  ;; Forward branches in every iteration: an if/else, a br out of a block,
  ;; a br_if out of a block, a br_table to a block.
  (func (export "forward") (param $arg i32)
    (local $x i32)
    (loop $l
      (global.set $n (i32.add (global.get $n) (i32.const 1)))
      (if (i32.eqz (local.get $arg))
        (then (local.set $x (i32.const 1)))
        (else (local.set $x (i32.const 2))))
      (block $b (br_if $b (local.get $x)) (unreachable))
      (block $c (br $c))
      (block $d (br_table $d $d (local.get $arg)))
      (br $l)))
)
