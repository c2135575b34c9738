;; shared.wat — workers on a shared memory handed to them at spawn: each
;; "add" adds 1 to the word at 0, 1000 times, atomically, then adds 1 to
;; the word at 8 and notifies it; "waiter" waits until the word at 8 is its
;; input's first byte, and returns the word at 0.
(module
  (import "weft:worker" "input" (func $input (param i32 i32) (result i32)))
  (import "weft:worker" "memory" (memory 1 1 shared))
  (func (export "add") (result i32)
    (local $i i32)
    (loop $next
      (drop (i32.atomic.rmw.add (i32.const 0) (i32.const 1)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $next (i32.lt_u (local.get $i) (i32.const 1000))))
    (drop (i32.atomic.rmw.add (i32.const 8) (i32.const 1)))
    (drop (memory.atomic.notify (i32.const 8) (i32.const 100)))
    (i32.const 0))
  (func (export "waiter") (result i32)
    (local $want i32) (local $seen i32)
    ;; the wanted count: the input's first byte, read into bytes 16..
    (drop (call $input (i32.const 16) (i32.const 1)))
    (local.set $want (i32.load8_u (i32.const 16)))
    (block $done
      (loop $again
        (local.set $seen (i32.atomic.load (i32.const 8)))
        (br_if $done (i32.ge_u (local.get $seen) (local.get $want)))
        (drop (memory.atomic.wait32 (i32.const 8) (local.get $seen) (i64.const -1)))
        (br $again)))
    (i32.atomic.load (i32.const 0)))
)
