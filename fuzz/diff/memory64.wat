;; The initial module of fuzz/diff/run's memory64 modules (wasm-opt -ttf
;; --initial-fuzz): one i64 memory, which -ttf keeps and addresses with i64.
(module (memory i64 1 16))
