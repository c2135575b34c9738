#!/usr/bin/env python3
"""Writes the seeds of fuzz/wave.c into fuzz/corpus/wave: each file is one
byte L, L bytes describing a value type (the harness's gen_type: a byte
whose value mod 22 picks the kind, 0-12 the primitives bool..string,
13 record, 14 variant, 15 list, 16 fixed list, 17 tuple, 18 flags, 19 enum,
20 option, 21 result; then a count byte (n-1), a label-rotation byte and
the members), then the WAVE text. Rerun it when the encoding changes."""
import os

U8, U32, F32, F64, CHAR, STRING, BOOL = 2, 6, 9, 10, 11, 12, 0
REC, VAR, LIST, FIXED, TUP, FLAGS, ENUM, OPT, RES = range(13, 22)

SEEDS = {
    "u32": ([U32], "42"),
    "u32-comment": ([U32], "// a comment\n 7 "),
    "string-escapes": ([STRING], '"a\\n\\t\\r\\\\\\"\\\'\\u{1F600}\\u{0}\u2603"'),
    "string-multiline": ([STRING], '"""\n  one\n   two \\u{41}\n  """'),
    "list-string": ([LIST, STRING], '["x", "y",]'),
    "record-optional": ([REC, 1, 0, U8, OPT, STRING], "{a: 1}"),
    "record-all": ([REC, 1, 0, U8, OPT, STRING], '{b: "s", a: 255,}'),
    "record-empty": ([REC, 0, 3, OPT, U8], "{:}"),
    "variant-keywords": ([VAR, 2, 2, 1, U32, 0, 1, STRING], '%some("s")'),
    "variant-bare": ([VAR, 2, 2, 1, U32, 0, 1, STRING], "%none"),
    "flags": ([FLAGS, 3, 0], "{a, ok, none}"),
    "flags-empty": ([FLAGS, 3, 0], "{}"),
    "enum-keyword": ([ENUM, 2, 8], "%nan"),
    "option-flat": ([OPT, U32], "5"),
    "option-nested": ([LIST, OPT, OPT, U8], "[none, some(none), some(some(1))]"),
    "result-err": ([RES, 3, U32, STRING], 'err("x")'),
    "result-flat": ([RES, 3, U32, STRING], "9"),
    "result-unit": ([RES, 0], "ok"),
    "tuple": ([TUP, 2, F64, CHAR, BOOL], "(nan, '\\'', true)"),
    "floats": ([LIST, F32], "[-inf, inf, 0.1, -0, 1e38, 3.4028236e38, 1.5e-45]"),
    "f64": ([F64], "6.022e+23"),
    "fixed-list": ([FIXED, 2, U8], "[1, 2, 3]"),
    "bad-int": ([U32], "1.5"),
    "bad-unterminated": ([STRING], '"abc'),
    "bad-empty": ([BOOL], ""),
    "bad-record-as-flags": ([REC, 0, 0, U8], "{}"),
    "bad-utf8": ([STRING], b'"\xff"'),
    "deep": ([LIST, LIST, LIST, LIST, LIST, LIST, U8], "[" * 8 + "]" * 8),
}

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "wave")
os.makedirs(out, exist_ok=True)
for name, (ty, text) in SEEDS.items():
    body = text if isinstance(text, bytes) else text.encode()
    with open(os.path.join(out, name), "wb") as f:
        f.write(bytes([len(ty)]) + bytes(ty) + body)
print(f"{len(SEEDS)} seeds in {out}")
