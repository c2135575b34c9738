;; exceptions.wat — what C++ built with -fwasm-exceptions does, in the
;; legacy form its toolchain emits (try, catch, catch_all, rethrow):
;; a throw through three frames caught by its tag ("by type"), a cleanup
;; handler that rethrows, and an exception nobody catches, which ends the
;; process like a trap with the tag's name. (No Debian libc++abi for
;; wasm32 is built with exceptions, so the C++ program cannot be linked:
;; docs/exceptions.md.) Assembled with wat2wasm --enable-exceptions.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (tag $int_error (export "int_error") (param i32))
  (tag $str_error (export "str_error") (param i32 i32))
  (data (i32.const 100) "caught int_error 42 through three frames\n")       ;; 41
  (data (i32.const 200) "wrong handler\n")                                   ;; 14
  (data (i32.const 300) "cleanup, rethrow\n")                               ;; 17
  (data (i32.const 400) "caught the rethrown int_error\n")                  ;; 30
  (data (i32.const 500) "throwing str_error, nobody catches it\n")          ;; 38
  (data (i32.const 600) "not reached\n")                                     ;; 12

  (func $print (param $p i32) (param $n i32)
    (i32.store (i32.const 0) (local.get $p))
    (i32.store (i32.const 4) (local.get $n))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))

  (func $level3 (param $v i32)
    (if (local.get $v) (then (throw $int_error (local.get $v)))))
  (func $level2 (param $v i32) (call $level3 (local.get $v)))
  (func $level1 (param $v i32) (call $level2 (local.get $v)))

  (func (export "_start")
    ;; Caught by its tag three frames up; the other tag's handler is skipped.
    (try
      (do (call $level1 (i32.const 42)))
      (catch $str_error (drop) (drop) (call $print (i32.const 200) (i32.const 14)))
      (catch $int_error
        (if (i32.eq (i32.const 42))
          (then (call $print (i32.const 100) (i32.const 41))))))
    ;; A cleanup (catch_all) rethrows to the handler outside.
    (try
      (do
        (try
          (do (call $level1 (i32.const 7)))
          (catch_all
            (call $print (i32.const 300) (i32.const 17))
            (rethrow 0))))
      (catch $int_error
        (if (i32.eq (i32.const 7))
          (then (call $print (i32.const 400) (i32.const 30))))))
    ;; Uncaught: the process ends.
    (call $print (i32.const 500) (i32.const 38))
    (throw $str_error (i32.const 600) (i32.const 12))
    (call $print (i32.const 600) (i32.const 12))))
