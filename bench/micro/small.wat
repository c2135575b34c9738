;; small.wat — the module the C API micro-benchmarks instantiate and call
;; (bench/micro/instantiate.c, bench/micro/call.c).
;;
;; Small but complete: five functions, a memory of one page with a data
;; segment, a funcref table filled by an element segment, a mutable global,
;; and exports of each kind. No imports and no start function, so
;; weft_instance_new does exactly the module's own allocation and
;; initialisation. Rebuild with `wat2wasm small.wat -o small.wasm`
;; (make -C bench micro-wasm); both files are committed.
(module
  (type $binop (func (param i32 i32) (result i32)))

  (memory (export "memory") 1)
  (table (export "table") 4 funcref)
  (global $counter (export "counter") (mut i32) (i32.const 0))

  (data (i32.const 16) "weft micro-benchmark module")
  (elem (i32.const 0) $add $sub $add $sub)

  ;; The trivial call: the host-to-wasm round trip and little else.
  (func $add (export "add") (type $binop)
    (i32.add (local.get 0) (local.get 1)))

  (func $sub (type $binop)
    (i32.sub (local.get 0) (local.get 1)))

  ;; Loops n times (a taken back-edge per iteration, so one attention-word
  ;; read each), adding i * 3 ^ i into an accumulator.
  (func $loop (export "loop") (param $n i32) (result i32)
    (local $i i32) (local $acc i32)
    (block $done
      (br_if $done (i32.eqz (local.get $n)))
      (loop $next
        (local.set $acc
          (i32.add (local.get $acc)
                   (i32.xor (i32.mul (local.get $i) (i32.const 3)) (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $next (i32.lt_u (local.get $i) (local.get $n)))))
    (local.get $acc))

  ;; Touches memory, the table and the global: sums the data segment's bytes
  ;; through call_indirect and bumps the counter.
  (func $checksum (export "checksum") (result i32)
    (local $p i32) (local $acc i32)
    (local.set $p (i32.const 16))
    (loop $next
      (local.set $acc
        (call_indirect (type $binop)
          (local.get $acc) (i32.load8_u (local.get $p))
          (i32.and (local.get $p) (i32.const 1))))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br_if $next (i32.lt_u (local.get $p) (i32.const 43))))
    (global.set $counter (i32.add (global.get $counter) (i32.const 1)))
    (local.get $acc))

  (func (export "get_counter") (result i32)
    (global.get $counter)))
