;; fuzz/corpus/diff/exnref-table.wasm: a table of exnref (Wasm 3.0 §3.2.10),
;; which binaryen 132's -ttf declares beside its funcref table in modules
;; with exception handling. weft refused to instantiate such a module
;; ("table element type must be a reference type, not exnref"); found by
;; fuzz/diff/run -s 1 with binaryen 132 and node 24. Here exceptions caught
;; with catch_ref and catch_all_ref go into the table (table.set, grow,
;; fill, copy) and come back out (table.get) to be rethrown with throw_ref
;; and caught again by tag; a null exnref from the table traps in
;; throw_ref; the exnref table is also an import-free active table.
(module
  (import "fuzzing-support" "log-i32" (func $log (param i32)))
  (tag $e (param i32))
  (table $f 1 funcref)
  (table $t 2 exnref)
  (func $catch (param i32) (result exnref) (local $x exnref)
    (block $h (result i32 exnref)
      (try_table (catch_ref $e $h) (throw $e (local.get 0)))
      (unreachable))
    (local.set $x)
    (call $log) ;; the payload
    (local.get $x))
  (func $catch_all (result exnref)
    (block $h (result exnref)
      (try_table (catch_all_ref $h) (throw $e (i32.const 5)))
      (unreachable)))
  (func $payload (param exnref) (result i32)
    (block $h (result i32)
      (try_table (catch $e $h) (throw_ref (local.get 0)))
      (unreachable)))
  (func (export "set-get") (result i32)
    (table.set $t (i32.const 1) (call $catch (i32.const 7)))
    (call $payload (table.get $t (i32.const 1))))
  (func (export "grow-fill-copy") (result i32)
    (drop (table.grow $t (call $catch (i32.const 11)) (i32.const 3)))
    (call $log (table.size $t))
    (table.fill $t (i32.const 0) (call $catch_all) (i32.const 1))
    (table.copy $t $t (i32.const 4) (i32.const 0) (i32.const 1))
    (i32.add
      (i32.mul (call $payload (table.get $t (i32.const 2))) (i32.const 100))
      (call $payload (table.get $t (i32.const 4)))))
  (func (export "null-from-table")
    (table.set $t (i32.const 0) (ref.null exn))
    (throw_ref (table.get $t (i32.const 0))))
  (func (export "is-null") (result i32 i32)
    (ref.is_null (table.get $t (i32.const 0)))
    (ref.is_null (table.get $t (i32.const 1))))
  (func (export "out-of-bounds")
    (drop (table.get $t (i32.const 99))))
)
