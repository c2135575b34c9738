;; bench/micro/atomics.wat: a loop of atomic operations on a shared memory (an
;; rmw.add, an i64 rmw.or, a load and a store, a cmpxchg), 20 million times;
;; the compiler tier's atomics against step exits and the interpreter:
;;   hyperfine -N --runs 5 'build-release/weft run --tier jit bench/micro/atomics.wasm' \
;;     'build-release/weft run --tier interp bench/micro/atomics.wasm'
;; wat2wasm --enable-threads atomics.wat -o atomics.wasm
(module
  (memory 1 1 shared)
  (func (export "_start")
    (local $i i32)
    (loop $l
      (drop (i32.atomic.rmw.add (i32.const 64) (i32.const 3)))
      (drop (i64.atomic.rmw.or (i32.const 128) (i64.extend_i32_u (local.get $i))))
      (i32.atomic.store (i32.const 256) (i32.add (i32.atomic.load (i32.const 256)) (i32.const 1)))
      (drop (i32.atomic.rmw.cmpxchg (i32.const 512) (local.get $i) (i32.add (local.get $i) (i32.const 1))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 20000000))))))
