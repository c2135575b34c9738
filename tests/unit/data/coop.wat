;; coop.wat — the executions of tests/unit/coop_test.c (cooperative mode,
;; async host functions) and examples/uv_host.c: calls of an async host
;; import, a spinner, a bounded count.
(module
  (import "host" "fetch" (func $fetch (param i32) (result i32)))

  ;; fetch(x), fetch(x+1), ... n calls; returns the sum of the answers.
  (func (export "fetch_sum") (param $x i32) (param $n i32) (result i32)
    (local $sum i32) (local $i i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $sum (i32.add (local.get $sum)
                                 (call $fetch (i32.add (local.get $x) (local.get $i)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $sum))

  ;; Spins forever (a loop back-edge is a safe point: it can be cut).
  (func (export "spin")
    (loop $forever (br $forever)))

  ;; Counts n down to 0 (n back-edges); returns n.
  (func (export "count") (param $n i64) (result i64)
    (local $i i64)
    (local.set $i (local.get $n))
    (block $done
      (loop $next
        (br_if $done (i64.eqz (local.get $i)))
        (local.set $i (i64.sub (local.get $i) (i64.const 1)))
        (br $next)))
    (local.get $n))
)
