;; Super-instructions of src/compile/compile.c, against the spec's answers:
;; i32.rotl by a constant (I32_ROTL_IMM) and an xor of a value rotated
;; just before (I32_XOR_ROTL) — counts are taken mod 32 (§4.3.2 irotl), the
;; xor takes the rotated value on either side — and a sum of a sum
;; (I32_ADD3), wrapping; i64.rotl by a constant (I64_ROTL_IMM), counts mod
;; 64.
(module
  (func (export "rotl0") (param i32) (result i32) (i32.rotl (local.get 0) (i32.const 0)))
  (func (export "rotl1") (param i32) (result i32) (i32.rotl (local.get 0) (i32.const 1)))
  (func (export "rotl31") (param i32) (result i32) (i32.rotl (local.get 0) (i32.const 31)))
  (func (export "rotl32") (param i32) (result i32) (i32.rotl (local.get 0) (i32.const 32)))
  (func (export "rotl33") (param i32) (result i32) (i32.rotl (local.get 0) (i32.const 33)))
  (func (export "rotlm1") (param i32) (result i32) (i32.rotl (local.get 0) (i32.const -1)))
  (func (export "rotl64_0") (param i64) (result i64) (i64.rotl (local.get 0) (i64.const 0)))
  (func (export "rotl64_1") (param i64) (result i64) (i64.rotl (local.get 0) (i64.const 1)))
  (func (export "rotl64_63") (param i64) (result i64) (i64.rotl (local.get 0) (i64.const 63)))
  (func (export "rotl64_65") (param i64) (result i64) (i64.rotl (local.get 0) (i64.const 65)))
  (func (export "rotl64_m8") (param i64) (result i64) (i64.rotl (local.get 0) (i64.const -8)))
  ;; sha256's Σ0: rotr 2, 13, 22 as clang writes them (rotl 30, 19, 10).
  (func (export "sigma0") (param i32) (result i32)
    (i32.xor (i32.xor (i32.rotl (local.get 0) (i32.const 30))
                      (i32.rotl (local.get 0) (i32.const 19)))
             (i32.rotl (local.get 0) (i32.const 10))))
  (func (export "xor_rotl_left") (param i32 i32) (result i32)
    (i32.xor (i32.rotl (local.get 0) (i32.const 8)) (local.get 1)))
  (func (export "xor_rotl_right") (param i32 i32) (result i32)
    (i32.xor (local.get 1) (i32.rotl (local.get 0) (i32.const 40))))
  ;; The rotated value also kept in a local: the xor cannot take it.
  (func (export "xor_rotl_tee") (param i32 i32) (result i32) (local i32)
    (i32.xor (local.get 1) (local.tee 2 (i32.rotl (local.get 0) (i32.const 4))))
    (local.get 2)
    (i32.add))
  (func (export "add3_left") (param i32 i32 i32) (result i32)
    (i32.add (i32.add (local.get 0) (local.get 1)) (local.get 2)))
  (func (export "add3_right") (param i32 i32 i32) (result i32)
    (i32.add (local.get 2) (i32.add (local.get 0) (local.get 1))))
  ;; The inner sum also kept in a local: not fused.
  (func (export "add3_tee") (param i32 i32 i32) (result i32) (local i32)
    (i32.add (local.get 2) (local.tee 3 (i32.add (local.get 0) (local.get 1))))
    (local.get 3)
    (i32.mul)))
