;; A component whose imports a C host serves through weft.h's component
;; linker (examples/component_host.c, tests/capi/component_test.c): host
;; functions over strings and lists, and a host resource `counter` made,
;; used and dropped by the component.
(component
  (import "example:host/api@0.1.0" (instance $api
    (export "counter" (type $counter (sub resource)))
    (export "log" (func (param "msg" string)))
    (export "shout" (func (param "s" string) (result string)))
    (export "sum" (func (param "l" (list u32)) (result u32)))
    (export "make-counter" (func (param "start" u32) (result (own $counter))))
    (export "[method]counter.bump" (func (param "self" (borrow $counter)) (result u32)))
  ))
  (alias export $api "counter" (type $counter))

  (core module $Libc
    (memory (export "mem") 1)
    (global $bump (mut i32) (i32.const 1024))
    (func (export "realloc") (param $old i32) (param $oldsz i32) (param $align i32) (param $new i32) (result i32)
      (local $p i32)
      (local.set $p (i32.and (i32.add (global.get $bump) (i32.sub (local.get $align) (i32.const 1)))
                             (i32.sub (i32.const 0) (local.get $align))))
      (global.set $bump (i32.add (local.get $p) (local.get $new)))
      (block $ok
        (br_if $ok (i32.le_u (global.get $bump) (i32.mul (memory.size) (i32.const 65536))))
        (br_if $ok (i32.ne (memory.grow (i32.add (i32.shr_u (i32.sub (global.get $bump) (i32.mul (memory.size) (i32.const 65536))) (i32.const 16)) (i32.const 1))) (i32.const -1)))
        unreachable)
      (if (local.get $old) (then (memory.copy (local.get $p) (local.get $old) (local.get $oldsz))))
      (local.get $p)))
  (core instance $libc (instantiate $Libc))
  (alias core export $libc "mem" (core memory $mem))
  (alias core export $libc "realloc" (core func $realloc))

  (core func $log (canon lower (func $api "log") (memory $mem) (realloc $realloc)))
  (core func $shout (canon lower (func $api "shout") (memory $mem) (realloc $realloc)))
  (core func $sum (canon lower (func $api "sum") (memory $mem) (realloc $realloc)))
  (core func $make (canon lower (func $api "make-counter")))
  (core func $bump (canon lower (func $api "[method]counter.bump")))
  (core func $drop (canon resource.drop $counter))

  (core module $Main
    (import "libc" "mem" (memory 1))
    (import "host" "log" (func $log (param i32 i32)))
    (import "host" "shout" (func $shout (param i32 i32 i32)))
    (import "host" "sum" (func $sum (param i32 i32) (result i32)))
    (import "host" "make" (func $make (param i32) (result i32)))
    (import "host" "bump" (func $bump (param i32) (result i32)))
    (import "host" "drop" (func $drop (param i32)))
    ;; greet(name) = shout(name) after log(name); the host's string comes
    ;; back through the return area at 32
    (func (export "greet") (param i32 i32) (result i32)
      (call $log (local.get 0) (local.get 1))
      (call $shout (local.get 0) (local.get 1) (i32.const 32))
      (i32.const 32))
    (func (export "sum-host") (param i32 i32) (result i32)
      (call $sum (local.get 0) (local.get 1)))
    ;; count(start, n): a counter made, bumped n times, dropped; its last value
    (func (export "count") (param $start i32) (param $n i32) (result i32)
      (local $h i32) (local $r i32)
      (local.set $h (call $make (local.get $start)))
      (local.set $r (local.get $start))
      (block $done
        (loop $l
          (br_if $done (i32.eqz (local.get $n)))
          (local.set $r (call $bump (local.get $h)))
          (local.set $n (i32.sub (local.get $n) (i32.const 1)))
          (br $l)))
      (call $drop (local.get $h))
      (local.get $r))
    ;; take(c: own<counter>): dropped at once
    (func (export "take") (param i32) (call $drop (local.get 0)))
    ;; bump-borrowed(c: borrow<counter>): bumped, its borrow handle dropped
    (func (export "bump-borrowed") (param i32) (result i32)
      (local $r i32)
      (local.set $r (call $bump (local.get 0)))
      (call $drop (local.get 0))
      (local.get $r))
    ;; keep(c: own<counter>): kept (never dropped) -- the instance's end drops it
    (func (export "keep") (param i32)))
  (core instance $main (instantiate $Main
    (with "libc" (instance $libc))
    (with "host" (instance
      (export "log" (func $log)) (export "shout" (func $shout)) (export "sum" (func $sum))
      (export "make" (func $make)) (export "bump" (func $bump)) (export "drop" (func $drop))))))

  (func (export "greet") (param "name" string) (result string)
    (canon lift (core func $main "greet") (memory $mem) (realloc $realloc)))
  (func (export "sum-host") (param "l" (list u32)) (result u32)
    (canon lift (core func $main "sum-host") (memory $mem) (realloc $realloc)))
  (func (export "count") (param "start" u32) (param "n" u32) (result u32)
    (canon lift (core func $main "count")))
  (func (export "take") (param "c" (own $counter)) (canon lift (core func $main "take")))
  (func (export "bump-borrowed") (param "c" (borrow $counter)) (result u32)
    (canon lift (core func $main "bump-borrowed")))
  (func (export "keep") (param "c" (own $counter)) (canon lift (core func $main "keep")))
)
