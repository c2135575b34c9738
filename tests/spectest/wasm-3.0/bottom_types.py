#!/usr/bin/env python3
"""Writes bottom_types.{wast,json} and bottom_types.N.wasm beside itself.

Weft's own spec script for the bottom heap types of the func, extern and exn
hierarchies (Wasm 3.0 §2.3.4 Heap Types; binary §5.3.3 nofunc 0x73,
noextern 0x72, noexn 0x74, and §5.3.4's short forms nullfuncref,
nullexternref, nullexnref; §3.3.3 Matching: each bottom matches every heap
type of its hierarchy, a function type index included). No converter here
reads them: wabt's wast2json 1.0.32 (Debian) and wat2wasm 1.0.39 (npm) know
neither the types nor `ref.null nofunc`, and binaryen's wasm-as rewrites a
call_ref of null and drops unused types. So the modules are written byte by
byte below, and the .wast is written from the same table as the text they
encode, so the JSON's line numbers point at it.

    python3 tests/spectest/wasm-3.0/bottom_types.py     # rewrites the files

The last group of commands is weft's choice, not the spec's: the heap types
of GC's `any` hierarchy (any, eq, i31, struct, array and its bottom none)
are refused as malformed, "... needs the GC proposal (garbage collection),
which weft does not support yet"
(src/module/types.c), until weft implements GC.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = "bottom_types"


def uleb(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def vec(items):
    return uleb(len(items)) + b"".join(items)


def section(sid, payload):
    return bytes([sid]) + uleb(len(payload)) + payload


def name(s):
    return uleb(len(s)) + s.encode()


# value types
I32, FUNCREF, EXTERNREF, EXNREF = 0x7F, 0x70, 0x6F, 0x69
NULLFUNC, NULLEXTERN, NULLEXN = 0x73, 0x72, 0x74  # short forms


def ref(ht, null=True):  # (ref null? ht), ht an abstract code or a type index
    return bytes([0x63 if null else 0x64, ht])


def t(x):
    return bytes([x]) if isinstance(x, int) else x


def functype(params, results):
    return b"\x60" + vec([t(p) for p in params]) + vec([t(r) for r in results])


def code(body, locals_=()):
    loc = vec([uleb(n) + t(ty) for n, ty in locals_])
    f = loc + bytes(body) + b"\x0b"
    return uleb(len(f)) + f


def module(types, funcs, tables=(), globals_=(), exports=(), elems=(), tags=()):
    """funcs: (typeidx, body bytes, locals)."""
    m = b"\x00asm\x01\x00\x00\x00"
    m += section(1, vec([functype(*ft) for ft in types]))
    m += section(3, vec([uleb(f[0]) for f in funcs]))
    if tables:
        m += section(4, vec([t(rt) + b"\x00" + uleb(n) for rt, n in tables]))
    if tags:
        m += section(13, vec([b"\x00" + uleb(x) for x in tags]))
    if globals_:
        m += section(6, vec([t(gt) + bytes([mut]) + bytes(init) + b"\x0b" for gt, mut, init in globals_]))
    if exports:
        m += section(7, vec([name(n) + bytes([kind]) + uleb(i) for n, kind, i in exports]))
    if elems:
        m += section(9, vec([bytes(e) for e in elems]))
    m += section(10, vec([code(f[1], f[2] if len(f) > 2 else ()) for f in funcs]))
    return m


# ---- module 0: every place a bottom type can stand without GC ------------

TYPES0 = [
    ([], [I32]),                                    # 0
    ([], []),                                       # 1
    ([NULLFUNC, NULLEXTERN, NULLEXN], [I32]),       # 2
    ([ref(NULLFUNC, False)], [ref(NULLEXN, False)]),  # 3: no value at all
    ([], [EXTERNREF]),                              # 4
    ([], [EXNREF]),                                 # 5
    ([NULLEXTERN], [I32]),                          # 6
    ([I32], [I32]),                                 # 7
    ([], [FUNCREF]),                                # 8
]
# (export name, type, body, locals, text)
FUNCS0 = [
    ("null-func", 0, [0xD0, 0x73, 0xD1], (), "(ref.is_null (ref.null nofunc))"),
    ("null-extern", 4, [0xD0, 0x72], (), "(ref.null noextern) (; as externref ;)"),
    ("null-exn", 5, [0xD0, 0x74], (), "(ref.null noexn) (; as exnref ;)"),
    ("call-null", 0, [0xD0, 0x73, 0x14, 0x00], (), "(call_ref $i32 (ref.null nofunc))"),
    ("return-call-null", 0, [0xD0, 0x73, 0x15, 0x00], (), "(return_call_ref $i32 (ref.null nofunc))"),
    ("as-non-null", 0, [0xD0, 0x72, 0xD4, 0x1A, 0x41, 0x01], (),
     "(drop (ref.as_non_null (ref.null noextern))) (i32.const 1)"),
    ("br-on-null", 6, [0x02, 0x40, 0x20, 0x00, 0xD5, 0x00, 0x1A, 0x41, 0x01, 0x0F, 0x0B, 0x41, 0x00], (),
     "(block (br_on_null 0 (local.get 0)) (drop) (return (i32.const 1))) (i32.const 0)"),
    ("br-on-non-null", 0, [0x02, 0x64, 0x72, 0xD0, 0x72, 0xD6, 0x00, 0x41, 0x07, 0x0F, 0x0B, 0x1A, 0x41, 0x08], (),
     "(block (result (ref noextern)) (br_on_non_null 0 (ref.null noextern)) (return (i32.const 7))) (drop) (i32.const 8)"),
    ("block-short", 0, [0x02, 0x73, 0xD0, 0x73, 0x0B, 0xD1], (),
     "(ref.is_null (block (result nullfuncref) (ref.null nofunc)))"),
    ("block-exn", 0, [0x02, 0x74, 0xD0, 0x74, 0x0B, 0xD1], (),
     "(ref.is_null (block (result nullexnref) (ref.null noexn)))"),
    ("block-long", 0, [0x02, 0x63, 0x74, 0xD0, 0x74, 0x0B, 0xD1], (),
     "(ref.is_null (block (result (ref null noexn)) (ref.null noexn)))"),
    ("select-bottom", 7, [0xD0, 0x73, 0xD0, 0x73, 0x20, 0x00, 0x1C, 0x01, 0x73, 0xD1], (),
     "(ref.is_null (select (result nullfuncref) (ref.null nofunc) (ref.null nofunc) (local.get 0)))"),
    ("select-top", 7, [0xD0, 0x73, 0xD0, 0x73, 0x20, 0x00, 0x1C, 0x01, 0x70, 0xD1], (),
     "(ref.is_null (select (result funcref) (ref.null nofunc) (ref.null nofunc) (local.get 0)))"),
    ("table", 0, [0xD0, 0x73, 0x41, 0x03, 0xFC, 0x0F, 0x01,          # table.grow $nf: 2
                  0xFC, 0x10, 0x01, 0x6A,                          # + table.size $nf: 5
                  0x41, 0x00, 0xD0, 0x73, 0x41, 0x05, 0xFC, 0x11, 0x01,  # table.fill $nf
                  0x41, 0x04, 0xD0, 0x73, 0x26, 0x01,              # table.set $nf 4
                  0x41, 0x04, 0x25, 0x01, 0xD1, 0x6A,              # + is_null (table.get $nf 4)
                  0x41, 0x01, 0x25, 0x02, 0xD1, 0x6A,              # + is_null (table.get $ne 1)
                  0x41, 0x00, 0x25, 0x03, 0xD1, 0x6A], (),         # + is_null (table.get $nx 0)
     "(; table.grow $nf (ref.null nofunc) (i32.const 3) + table.size $nf, table.fill and table.set $nf, "
     "+ is_null of table.get $nf 4, $ne 1, $nx 0: 10 ;)"),
    ("table-init", 0, [0x41, 0x00, 0x41, 0x00, 0x41, 0x02, 0xFC, 0x0C, 0x00, 0x01,  # table.init $nf $enf
                       0x41, 0x00, 0x41, 0x00, 0x41, 0x02, 0xFC, 0x0C, 0x00, 0x00,  # table.init $f $enf
                       0x41, 0x00, 0x41, 0x00, 0x41, 0x02, 0xFC, 0x0E, 0x00, 0x01,  # table.copy $f $nf
                       0xFC, 0x0D, 0x00,                                             # elem.drop $enf
                       0x41, 0x01, 0x25, 0x00, 0xD1], (),
     "(; table.init $nf and $f from the nullfuncref segment $enf, table.copy $f <- $nf, elem.drop $enf, "
     "then ref.is_null (table.get $f 1) ;)"),
    ("call-indirect-null", 0, [0x41, 0x00, 0x11, 0x00, 0x01], (), "(call_indirect $nf (type $i32) (i32.const 0))"),
    ("global", 0, [0x23, 0x00, 0xD1, 0xD0, 0x73, 0x24, 0x00, 0x23, 0x00, 0xD1, 0x6A,
                   0x23, 0x01, 0xD1, 0x6A, 0x23, 0x02, 0xD1, 0x6A, 0x23, 0x04, 0xD1, 0x6A,
                   0x23, 0x05, 0xD1, 0x6A], (),
     "(; is_null of globals 0, 0 after global.set (ref.null nofunc), 1, 2, 4, 5 added: 6 ;)"),
    ("throw-ref-null", 1, [0xD0, 0x74, 0x0A], (), "(throw_ref (ref.null noexn))"),
    ("params", 2, [0x20, 0x00, 0xD1, 0x20, 0x01, 0xD1, 0x6A, 0x20, 0x02, 0xD1, 0x6A], (),
     "(; is_null of each param, added ;)"),
    ("local", 0, [0xD0, 0x73, 0x21, 0x00, 0x20, 0x00, 0x14, 0x00], [(1, ref(0))],
     "(local (ref null $i32)) (local.set 0 (ref.null nofunc)) (call_ref $i32 (local.get 0))"),
    ("br-on-null-typed", 0, [0xD0, 0x73, 0x21, 0x00, 0x02, 0x40, 0x20, 0x00, 0xD5, 0x00, 0x14, 0x00, 0x0F, 0x0B,
                             0x41, 0x2A], [(1, ref(0))],
     "(local (ref null $i32)) (local.set 0 (ref.null nofunc)) (block (return (call_ref $i32 (br_on_null 0 (local.get 0))))) (i32.const 42)"),
    ("uninhabited", 3, [0x00], (), "(unreachable)"),
    ("null-as-funcref", 8, [0xD0, 0x73], (), "(ref.null nofunc)"),
]
TABLES0 = [(FUNCREF, 2), (NULLFUNC, 2), (ref(NULLEXTERN), 2), (NULLEXN, 1)]  # $f $nf $ne $nx
GLOBALS0 = [
    (NULLFUNC, 1, [0xD0, 0x73]),          # 0: (mut nullfuncref)
    (NULLEXTERN, 0, [0xD0, 0x72]),        # 1: nullexternref
    (ref(NULLEXN), 1, [0xD0, 0x74]),      # 2: (mut (ref null noexn))
    (NULLFUNC, 0, [0xD0, 0x73]),          # 3: nullfuncref
    (FUNCREF, 0, [0x23, 0x03]),           # 4: funcref (global.get 3)
    (EXTERNREF, 0, [0xD0, 0x72]),         # 5: externref (ref.null noextern)
]
ELEMS0 = [
    [0x05, 0x73, 0x02, 0xD0, 0x73, 0x0B, 0xD0, 0x73, 0x0B],   # $enf: passive nullfuncref
    [0x06, 0x01, 0x41, 0x00, 0x0B, 0x73, 0x01, 0xD0, 0x73, 0x0B],  # active on $nf, nullfuncref
    [0x04, 0x41, 0x00, 0x0B, 0x01, 0xD0, 0x73, 0x0B],          # active on $f, funcref: ref.null nofunc
]
MODULE0_TEXT = """(module
  (type $i32 (func (result i32)))
  (type (func))
  (type (func (param nullfuncref nullexternref nullexnref) (result i32)))
  (type (func (param (ref nofunc)) (result (ref noexn))))
  (type (func (result externref)))
  (type (func (result exnref)))
  (type (func (param nullexternref) (result i32)))
  (type (func (param i32) (result i32)))
  (type (func (result funcref)))
  (table $f 2 funcref) (table $nf (export "nf") 2 nullfuncref)
  (table $ne 2 (ref null noextern)) (table $nx 1 nullexnref)
  (global (export "g0") (mut nullfuncref) (ref.null nofunc))
  (global (export "g1") nullexternref (ref.null noextern))
  (global (mut (ref null noexn)) (ref.null noexn))
  (global $g3 nullfuncref (ref.null nofunc))
  (global funcref (global.get $g3))
  (global externref (ref.null noextern))
  (elem $enf nullfuncref (ref.null nofunc) (ref.null nofunc))
  (elem (table $nf) (i32.const 0) nullfuncref (ref.null nofunc))
  (elem (table $f) (i32.const 0) funcref (ref.null nofunc))
"""


def module0():
    exports = [(n, 0, i) for i, (n, *_rest) in enumerate(FUNCS0)] + [("g0", 3, 0), ("g1", 3, 1), ("nf", 1, 1)]
    return module(TYPES0, [(ty, body, loc) for _n, ty, body, loc, _txt in FUNCS0], TABLES0, GLOBALS0,
                  exports, ELEMS0)


# ---- invalid modules: a supertype where the bottom is expected, a bottom
# of another hierarchy, a null where a non-null bottom is expected --------

def one_func(params, results, body, tables=(), elems=(), extra_types=(), locals_=(), globals_=()):
    types = list(extra_types) + [(params, results)]
    return module(types, [(len(types) - 1, body, locals_)], tables, globals_, (), elems)


INVALID = [
    ("(func (result externref) (ref.null nofunc))", one_func([], [EXTERNREF], [0xD0, 0x73])),
    ("(func (result nullfuncref) (ref.null func))", one_func([], [NULLFUNC], [0xD0, 0x70])),
    ("(func (result nullexternref) (ref.null extern))", one_func([], [NULLEXTERN], [0xD0, 0x6F])),
    ("(func (result nullexnref) (ref.null exn))", one_func([], [NULLEXN], [0xD0, 0x69])),
    ("(func (result exnref) (ref.null noextern))", one_func([], [EXNREF], [0xD0, 0x72])),
    ("(func (param (ref null $i32)) (result nullfuncref) (local.get 0))",
     one_func([ref(0)], [NULLFUNC], [0x20, 0x00], extra_types=[([], [I32])])),
    ("(func (result i32) (call_ref $i32 (ref.null noextern)))",
     one_func([], [I32], [0xD0, 0x72, 0x14, 0x00])),
    ("(func (result (ref noexn)) (ref.null noexn))", one_func([], [ref(NULLEXN, False)], [0xD0, 0x74])),
    ("(func (param (ref null noextern)) (result (ref noextern)) (local.get 0))",
     one_func([ref(NULLEXTERN)], [ref(NULLEXTERN, False)], [0x20, 0x00])),
    ("(table $f 1 funcref) (table $nf 1 nullfuncref) (func (table.copy $nf $f (i32.const 0) (i32.const 0) (i32.const 0)))",
     one_func([], [], [0x41, 0x00, 0x41, 0x00, 0x41, 0x00, 0xFC, 0x0E, 0x01, 0x00],
              tables=[(FUNCREF, 1), (NULLFUNC, 1)])),
    ("(table $nf 1 nullfuncref) (elem $e funcref (ref.null func)) (func (table.init $nf $e (i32.const 0) (i32.const 0) (i32.const 0)))",
     one_func([], [], [0x41, 0x00, 0x41, 0x00, 0x41, 0x00, 0xFC, 0x0C, 0x00, 0x00],
              tables=[(NULLFUNC, 1)], elems=[[0x05, 0x70, 0x01, 0xD0, 0x70, 0x0B]])),
    ("(table $nf 1 nullfuncref) (func (table.set $nf (i32.const 0) (ref.null func)))",
     one_func([], [], [0x41, 0x00, 0xD0, 0x70, 0x26, 0x00], tables=[(NULLFUNC, 1)])),
    ("(global nullfuncref (ref.null func))",
     one_func([], [], [], globals_=[(NULLFUNC, 0, [0xD0, 0x70])])),
    ("(global nullexternref (ref.null nofunc))",
     one_func([], [], [], globals_=[(NULLEXTERN, 0, [0xD0, 0x73])])),
]

# ---- weft's choice: GC's heap types are refused, by name -----------------
GC = [
    ("(func (drop (ref.null none)))", one_func([], [], [0xD0, 0x71, 0x1A]), "heap type 0x71 (none) needs the GC proposal"),
    ("(func (param nullref))", one_func([0x71], [], []), "reference type 0x71 (none) needs the GC proposal"),
    ("(func (param (ref null none)))", one_func([ref(0x71)], [], []), "heap type 0x71 (none) needs the GC proposal"),
    ("(func (local anyref))", one_func([], [], [], locals_=[(1, 0x6E)]), "reference type 0x6e (any) needs the GC proposal"),
    ("(func (drop (ref.null eq)))", one_func([], [], [0xD0, 0x6D, 0x1A]), "heap type 0x6d (eq) needs the GC proposal"),
]


def v(ty, value="null"):
    return {"type": ty, "value": value}


def main():
    wast = []
    cmds = []
    nmod = [0]

    def line():
        return len(wast) + 1

    def write_module(data):
        fn = "%s.%d.wasm" % (NAME, nmod[0])
        nmod[0] += 1
        with open(os.path.join(HERE, fn), "wb") as f:
            f.write(data)
        return fn

    wast.append(";; Generated by bottom_types.py, which holds the modules' bytes (its docstring")
    wast.append(";; says why); do not edit. The text is what the bytes encode, in the text")
    wast.append(";; format, with (; ... ;) where a body is told rather than spelled out.")
    wast.append(";; The bottom heap types of the func, extern and exn hierarchies (Wasm 3.0")
    wast.append(";; §2.3.4, §3.3.3, §5.3.3-5.3.4) hold only null and need no GC.")
    wast.append("")
    ln = line()
    wast.extend(MODULE0_TEXT.rstrip("\n").split("\n"))
    for n, _ty, _b, _l, txt in FUNCS0:
        wast.append('  (func (export "%s") (type %d) %s)' % (n, _ty, txt))
    wast.append(")")
    cmds.append({"type": "module", "line": ln, "filename": write_module(module0())})

    def ret(field, args, expected):
        cmds.append({"type": "assert_return", "line": line(),
                     "action": {"type": "invoke", "field": field, "args": args}, "expected": expected})
        wast.append('(assert_return (invoke "%s"%s) %s)' % (
            field, "".join(" (%s)" % a["_t"] for a in args), " ".join("(%s)" % e["_t"] for e in expected)))

    def trap(field, args, text):
        cmds.append({"type": "assert_trap", "line": line(),
                     "action": {"type": "invoke", "field": field, "args": args}, "text": text, "expected": []})
        wast.append('(assert_trap (invoke "%s"%s) "%s")' % (field, "".join(" (%s)" % a["_t"] for a in args), text))

    def i32(n):
        return {"type": "i32", "value": str(n), "_t": "i32.const %d" % n}

    def null(ty, heap):
        return {"type": ty, "value": "null", "_t": "ref.null %s" % heap}

    ret("null-func", [], [i32(1)])
    ret("null-extern", [], [null("externref", "extern")])
    ret("null-exn", [], [null("exnref", "exn")])
    trap("call-null", [], "null function reference")
    trap("return-call-null", [], "null function reference")
    trap("as-non-null", [], "null reference")
    ret("br-on-null", [null("externref", "noextern")], [i32(0)])
    ret("br-on-non-null", [], [i32(7)])
    ret("block-short", [], [i32(1)])
    ret("block-exn", [], [i32(1)])
    ret("block-long", [], [i32(1)])
    ret("select-bottom", [i32(1)], [i32(1)])
    ret("select-top", [i32(0)], [i32(1)])
    ret("table", [], [i32(10)])
    ret("table-init", [], [i32(1)])
    trap("call-indirect-null", [], "uninitialized element")
    ret("global", [], [i32(6)])
    trap("throw-ref-null", [], "null exception reference")
    ret("params", [null("funcref", "nofunc"), null("externref", "noextern"), null("exnref", "noexn")], [i32(3)])
    trap("local", [], "null function reference")
    ret("br-on-null-typed", [], [i32(42)])
    ret("null-as-funcref", [], [null("funcref", "func")])
    for g, ty in (("g0", "funcref"), ("g1", "externref")):
        cmds.append({"type": "assert_return", "line": line(), "action": {"type": "get", "field": g},
                     "expected": [{"type": ty, "value": "null"}]})
        wast.append('(assert_return (get "%s") (ref.null %s))' % (g, ty[:-3]))

    wast.append("")
    for txt, data in INVALID:
        cmds.append({"type": "assert_invalid", "line": line(), "filename": write_module(data),
                     "module_type": "binary", "text": "type mismatch"})
        wast.append('(assert_invalid (module %s) "type mismatch")' % txt)

    wast.append("")
    wast.append(";; Not the spec: weft refuses GC's heap types (those of the any hierarchy)")
    wast.append(";; as malformed until it implements GC (src/module/types.c).")
    for txt, data, msg in GC:
        cmds.append({"type": "assert_malformed", "line": line(), "filename": write_module(data),
                     "module_type": "binary", "text": msg})
        wast.append('(assert_malformed (module %s) "%s")' % (txt, msg))

    for c in cmds:
        for key in ("action",):
            if key in c:
                for a in c[key].get("args", []):
                    a.pop("_t", None)
        for e in c.get("expected", []):
            e.pop("_t", None)
    with open(os.path.join(HERE, NAME + ".wast"), "w") as f:
        f.write("\n".join(wast) + "\n")
    with open(os.path.join(HERE, NAME + ".json"), "w") as f:
        f.write('{"source_filename": "%s.wast",\n "commands": [\n  ' % NAME)
        f.write(", \n  ".join(json.dumps(c) for c in cmds))
        f.write("]}\n")


if __name__ == "__main__":
    main()
