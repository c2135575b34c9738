;; The component of bench/component (README there): exports whose cost is
;; the canonical ABI's, not their own work: a call with nothing, with a
;; string, a list<u32>, a list<string> and a list<u8>, each returning a
;; number computed from the argument (its length and last item, so the
;; lowered value is read and the guest's own work stays constant).
(component
  (core module $M
    (memory (export "mem") 1)
    (global $bump (mut i32) (i32.const 1024))
    ;; a bump allocator that starts over at each call's first allocation
    ;; below (reset by the exports), so memory does not grow with calls
    (func $realloc (export "realloc") (param $old i32) (param $oldsz i32) (param $align i32) (param $new i32) (result i32)
      (local $p i32)
      (local.set $p (i32.and (i32.add (global.get $bump) (i32.sub (local.get $align) (i32.const 1)))
                             (i32.sub (i32.const 0) (local.get $align))))
      (global.set $bump (i32.add (local.get $p) (local.get $new)))
      (block $ok
        (br_if $ok (i32.le_u (global.get $bump) (i32.mul (memory.size) (i32.const 65536))))
        (br_if $ok (i32.ne (memory.grow (i32.add (i32.shr_u (i32.sub (global.get $bump) (i32.mul (memory.size) (i32.const 65536))) (i32.const 16)) (i32.const 1))) (i32.const -1)))
        unreachable)
      (if (local.get $old) (then (memory.copy (local.get $p) (local.get $old) (local.get $oldsz))))
      (local.get $p))
    (func $reset (global.set $bump (i32.const 1024)))
    (func (export "noop") (call $reset))
    ;; string: its byte length (the argument's last byte added, so it is read)
    (func (export "str-len") (param $p i32) (param $n i32) (result i32)
      (call $reset)
      (if (result i32) (local.get $n)
        (then (i32.add (local.get $n) (i32.load8_u (i32.sub (i32.add (local.get $p) (local.get $n)) (i32.const 1)))))
        (else (i32.const 0))))
    ;; list<u32>: the length plus the last element (constant work in the
    ;; guest, so the call's cost is the canonical ABI's)
    (func (export "u32s-len") (param $p i32) (param $n i32) (result i32)
      (call $reset)
      (if (result i32) (local.get $n)
        (then (i32.add (local.get $n) (i32.load (i32.sub (i32.add (local.get $p) (i32.shl (local.get $n) (i32.const 2))) (i32.const 4)))))
        (else (i32.const 0))))
    ;; list<string>: the total byte length
    (func (export "total-len") (param $p i32) (param $n i32) (result i32)
      (local $s i32)
      (call $reset)
      (block $done
        (loop $l
          (br_if $done (i32.eqz (local.get $n)))
          (local.set $s (i32.add (local.get $s) (i32.load offset=4 (local.get $p))))
          (local.set $p (i32.add (local.get $p) (i32.const 8)))
          (local.set $n (i32.sub (local.get $n) (i32.const 1)))
          (br $l)))
      (local.get $s))
    ;; list<u8>: the length plus the last byte
    (func (export "bytes-len") (param $p i32) (param $n i32) (result i32)
      (call $reset)
      (if (result i32) (local.get $n)
        (then (i32.add (local.get $n) (i32.load8_u (i32.sub (i32.add (local.get $p) (local.get $n)) (i32.const 1)))))
        (else (i32.const 0)))))
  (core instance $i (instantiate $M))
  (alias core export $i "mem" (core memory $mem))
  (alias core export $i "realloc" (core func $realloc))
  (func (export "noop") (canon lift (core func $i "noop")))
  (func (export "str-len") (param "s" string) (result u32)
    (canon lift (core func $i "str-len") (memory $mem) (realloc $realloc)))
  (func (export "u32s-len") (param "l" (list u32)) (result u32)
    (canon lift (core func $i "u32s-len") (memory $mem) (realloc $realloc)))
  (func (export "total-len") (param "l" (list string)) (result u32)
    (canon lift (core func $i "total-len") (memory $mem) (realloc $realloc)))
  (func (export "bytes-len") (param "b" (list u8)) (result u32)
    (canon lift (core func $i "bytes-len") (memory $mem) (realloc $realloc)))
)
