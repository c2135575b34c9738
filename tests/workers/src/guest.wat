;; guest.wat — the worker entries of tests/unit/worker_test.c, one export
;; each, over the weft:worker imports (docs/workers.md). A 64 KiB memory
;; with a maximum, so a worker reserves 128 KiB, not 256 MiB.
(module
  (import "weft:worker" "input_size" (func $input_size (result i32)))
  (import "weft:worker" "input" (func $input (param i32 i32) (result i32)))
  (import "weft:worker" "recv" (func $recv (param i32 i32 i64) (result i32)))
  (import "weft:worker" "peek" (func $peek (param i64) (result i32)))
  (import "weft:worker" "send" (func $send (param i32 i32 i64) (result i32)))
  (import "weft:worker" "set_result" (func $set_result (param i32 i32) (result i32)))
  (import "weft:worker" "close" (func $close (result i32)))
  (memory 1 1)

  ;; Echoes every message until end of stream; returns how many.
  (func (export "echo") (result i32)
    (local $n i32) (local $count i32)
    (block $done
      (loop $next
        (local.set $n (call $recv (i32.const 1024) (i32.const 60000) (i64.const -1)))
        (br_if $done (i32.eq (local.get $n) (i32.const -1)))
        (if (i32.lt_s (local.get $n) (i32.const 0)) (then (return (local.get $n))))
        (drop (call $send (i32.const 1024) (local.get $n) (i64.const -1)))
        (local.set $count (i32.add (local.get $count) (i32.const 1)))
        (br $next)))
    (local.get $count))

  ;; One message in, the same back, then the end.
  (func (export "once") (result i32)
    (local $n i32)
    (local.set $n (call $recv (i32.const 1024) (i32.const 60000) (i64.const -1)))
    (if (i32.lt_s (local.get $n) (i32.const 0)) (then (return (local.get $n))))
    (call $send (i32.const 1024) (local.get $n) (i64.const -1)))

  ;; Counts messages until end of stream (close-and-drain).
  (func (export "drain") (result i32)
    (local $n i32) (local $count i32)
    (block $done
      (loop $next
        (local.set $n (call $recv (i32.const 1024) (i32.const 60000) (i64.const -1)))
        (br_if $done (i32.lt_s (local.get $n) (i32.const 0)))
        (local.set $count (i32.add (local.get $count) (i32.const 1)))
        (br $next)))
    (local.get $count))

  ;; Spins forever (terminate of a running worker).
  (func (export "spin")
    (loop $forever (br $forever)))

  ;; Traps.
  (func (export "trap")
    (unreachable))

  ;; Throws an exception nobody catches (the worker ends FAILED).
  (tag $oops (export "oops") (param i32))
  (func (export "throw")
    (throw $oops (i32.const 3)))

  ;; Its input, as its result; returns 42.
  (func (export "result") (result i32)
    (local $n i32)
    (local.set $n (call $input (i32.const 1024) (i32.const 60000)))
    (drop (call $set_result (i32.const 1024) (local.get $n)))
    (i32.const 42))

  ;; Sends one byte first thing, then waits forever (never-started).
  (func (export "send_first") (result i32)
    (drop (call $send (i32.const 0) (i32.const 1) (i64.const 0)))
    (call $recv (i32.const 1024) (i32.const 60000) (i64.const -1)))

  ;; Sends messages of input_size bytes without waiting until a send
  ;; fails; its result is the 4-byte code, it returns how many went.
  (func (export "flood") (result i32)
    (local $r i32) (local $count i32) (local $len i32)
    (local.set $len (call $input_size))
    (block $done
      (loop $next
        (local.set $r (call $send (i32.const 1024) (local.get $len) (i64.const 0)))
        (br_if $done (i32.ne (local.get $r) (i32.const 0)))
        (local.set $count (i32.add (local.get $count) (i32.const 1)))
        (br $next)))
    (i32.store (i32.const 0) (local.get $r))
    (drop (call $set_result (i32.const 0) (i32.const 4)))
    (local.get $count))

  ;; Sends 8-byte messages in a loop for ever, each waiting for room
  ;; (bench/workers: stops among busy workers).
  (func (export "sender")
    (loop $next
      (drop (call $send (i32.const 1024) (i32.const 8) (i64.const -1)))
      (br $next)))

  ;; Sends 100 one-byte messages, each waiting for room (backpressure);
  ;; returns how many went.
  (func (export "backpressure") (result i32)
    (local $i i32)
    (block $done
      (loop $next
        (br_if $done (i32.eq (local.get $i) (i32.const 100)))
        (i32.store8 (i32.const 1024) (local.get $i))
        (br_if $done (i32.ne (call $send (i32.const 1024) (i32.const 1) (i64.const -1)) (i32.const 0)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $i))

  ;; Sends with a 30 ms timeout into an outbox the host keeps full;
  ;; returns the code (-4, full).
  (func (export "send_timeout") (result i32)
    (drop (call $send (i32.const 1024) (i32.const 1) (i64.const 0)))
    (call $send (i32.const 1024) (i32.const 1) (i64.const 30000000)))

  ;; peek, then recv into a buffer one byte short (-3, the message stays),
  ;; then into a right one; returns peek * 1000000 + short code * -1000 + len.
  (func (export "peek_recv") (result i32)
    (local $len i32) (local $short i32) (local $got i32)
    (local.set $len (call $peek (i64.const -1)))
    (local.set $short (call $recv (i32.const 1024) (i32.sub (local.get $len) (i32.const 1)) (i64.const -1)))
    (local.set $got (call $recv (i32.const 1024) (local.get $len) (i64.const -1)))
    (i32.add (i32.add (i32.mul (local.get $len) (i32.const 1000000))
                      (i32.mul (local.get $short) (i32.const -1000)))
             (local.get $got)))

  ;; recv with a 50 ms timeout, then a poll; returns code * 10 + code (-22).
  (func (export "recv_timeout") (result i32)
    (i32.add (i32.mul (call $recv (i32.const 1024) (i32.const 100) (i64.const 50000000)) (i32.const 10))
             (call $recv (i32.const 1024) (i32.const 100) (i64.const 0))))

  ;; A buffer past the end of memory: -8.
  (func (export "fault") (result i32)
    (call $recv (i32.const 65500) (i32.const 100) (i64.const 0)))

  ;; A send from a buffer past the end of memory: -8 (counted refused).
  (func (export "send_fault") (result i32)
    (call $send (i32.const 65500) (i32.const 100) (i64.const 0)))

  ;; Sends two messages and closes its outbox, then returns 5.
  (func (export "close_outbox") (result i32)
    (drop (call $send (i32.const 1024) (i32.const 3) (i64.const -1)))
    (drop (call $send (i32.const 1024) (i32.const 4) (i64.const -1)))
    (drop (call $close))
    (i32.const 5))

  ;; Waits for one message, then spins (terminate while running, after a
  ;; park).
  (func (export "recv_then_spin")
    (drop (call $recv (i32.const 1024) (i32.const 100) (i64.const -1)))
    (loop $forever (br $forever)))

  (func (export "bad_entry") (param i32))
)
