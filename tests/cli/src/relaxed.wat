;; Relaxed SIMD through the CLI (tests/cli/run.sh): f32x4.relaxed_madd
;; (0xFD 0x105) on the values whose fused result (2^-37, bits 754974720)
;; differs from the unfused one (0); weft fuses (docs/simd.md).
(module
  (func (export "madd_lane") (result i32)
    (i32x4.extract_lane 0
      (f32x4.relaxed_madd
        (v128.const f32x4 0x1.000004p0 0 0 0)
        (v128.const f32x4 0x1.0002p0 0 0 0)
        (v128.const f32x4 -0x1.000204p0 0 0 0)))))
