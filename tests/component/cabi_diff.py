#!/usr/bin/env python3
"""Differential test of weft's canonical ABI (src/component/cabi.c,
cabi_string.c, resource.c) against the spec's reference, definitions.py
(component-model/design/mvp/canonical-abi/).

Random cases (a list of types, values or a memory image with flat values,
a handle table's state, a realloc that may misbehave) run through
definitions.py here and through weft in tests/component/cabi_test.c (the
line format is described there); both answers are printed in one format
and compared: the lifted values, the flat values, the memory's bytes
(CRC-32), every realloc call with its arguments and result, the handle
table (free list, elements, lends, borrow scopes), the lenders of the
call, and for a trap which condition trapped (the spec's trap_if line,
found from the traceback, named as cabi.h's CM_TRAP_* codes).

Directions: "lift" (load, lift_flat_values) and "lower" (store,
lower_flat_values), each in every string encoding; and "sig"
(flatten_functype, sync and async, lift and lower).

  python3 tests/component/cabi_diff.py BUILD [-n PAIRS] [-s SEED] [--dir lift|lower]
        [--enc utf8|utf16|latin1+utf16] [-v]

runs PAIRS cases per direction per encoding (default 300; sig: PAIRS
function types) and prints
one line per (direction, encoding) and "N passed, N failed" (a failed
case is a mismatch). definitions.py needs Python 3.10 or later (match
statements) and only the standard library.

How definitions.py is driven: as run_tests.py does (DETERMINISTIC_PROFILE,
so NaNs are canonical both ways), except that LiftLowerContext.reallocate
calls the test's realloc directly instead of through canon_lift's task
machinery (it keeps the may_leave toggling), and lifting input is made by
definitions.py's own store/lower_flat_values with lower_own and
lower_borrow replaced to write the generated handle index (only while
generating, then restored).
"""
import argparse
import linecache
import os
import random
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SPEC = os.environ.get('CM_SPEC_DIR', os.path.join(ROOT, '..', 'shared', 'spec', 'component-model'))
sys.path.insert(0, os.path.join(SPEC, 'design', 'mvp', 'canonical-abi'))
import definitions as D  # noqa: E402

D.DETERMINISTIC_PROFILE = True
TAG = 1 << 31
ENCODINGS = ['utf8', 'utf16', 'latin1+utf16']

# ---- types --------------------------------------------------------------------

PRIMS = [(D.BoolType, 'bool'), (D.S8Type, 's8'), (D.U8Type, 'u8'), (D.S16Type, 's16'),
         (D.U16Type, 'u16'), (D.S32Type, 's32'), (D.U32Type, 'u32'), (D.S64Type, 's64'),
         (D.U64Type, 'u64'), (D.F32Type, 'f32'), (D.F64Type, 'f64'), (D.CharType, 'char'),
         (D.StringType, 'str')]


class Gen:
    def __init__(self, rng):
        self.r = rng

    def prim(self):
        cls, _ = self.r.choice(PRIMS)
        return cls()

    def type(self, depth=0, maxdepth=4):
        r = self.r
        if depth >= maxdepth or r.random() < 0.45:
            if r.random() < 0.08:
                rt = r.randrange(3)
                return D.OwnType(RTS_PLACEHOLDER[rt]) if r.random() < 0.5 else D.BorrowType(RTS_PLACEHOLDER[rt])
            return self.prim()
        k = r.choice(['list', 'list', 'flist', 'rec', 'tup', 'var', 'enum', 'opt', 'res', 'flags',
                      'map', 'own'])
        sub = lambda: self.type(depth + 1, maxdepth)  # noqa: E731
        if k == 'list':
            return D.ListType(sub())
        if k == 'flist':
            return D.ListType(sub(), r.choice([1, 1, 2, 3, 4, 7]))
        if k == 'rec':
            return D.RecordType([D.FieldType('f%d' % i, sub()) for i in range(r.randint(1, 4))])
        if k == 'tup':
            return D.TupleType([sub() for _ in range(r.randint(1, 4))])
        if k == 'var':
            n = r.choice([1, 2, 3, 4, 5, 257]) if r.random() < 0.97 else 300
            return D.VariantType([D.CaseType('c%d' % i, sub() if r.random() < 0.6 and (n < 10 or i < 3) else None)
                                  for i in range(n)])
        if k == 'enum':
            n = r.choice([1, 2, 3, 6, 256, 257])
            return D.EnumType(['e%d' % i for i in range(n)])
        if k == 'opt':
            return D.OptionType(sub())
        if k == 'res':
            return D.ResultType(sub() if r.random() < 0.7 else None, sub() if r.random() < 0.7 else None)
        if k == 'flags':
            n = r.choice([1, 2, 7, 8, 9, 15, 16, 17, 31, 32])
            return D.FlagsType(['g%d' % i for i in range(n)])
        if k == 'map':
            key = r.choice([D.U8Type, D.S32Type, D.U64Type, D.CharType, D.StringType, D.BoolType])()
            return D.MapType(key, sub())
        rt = r.randrange(3)
        return D.OwnType(RTS_PLACEHOLDER[rt]) if r.random() < 0.5 else D.BorrowType(RTS_PLACEHOLDER[rt])


# Resource types are per case (their impl is the case's instance); types
# name them by index through these placeholders and are rebound per case.
class RtRef:
    def __init__(self, i):
        self.i = i


RTS_PLACEHOLDER = [RtRef(0), RtRef(1), RtRef(2)]


def tstr(t):
    """The type in cabi_test.c's syntax."""
    match t:
        case D.BoolType(): return 'bool'
        case D.S8Type(): return 's8'
        case D.U8Type(): return 'u8'
        case D.S16Type(): return 's16'
        case D.U16Type(): return 'u16'
        case D.S32Type(): return 's32'
        case D.U32Type(): return 'u32'
        case D.S64Type(): return 's64'
        case D.U64Type(): return 'u64'
        case D.F32Type(): return 'f32'
        case D.F64Type(): return 'f64'
        case D.CharType(): return 'char'
        case D.StringType(): return 'str'
        case D.ListType(u, None): return 'list(%s)' % tstr(u)
        case D.ListType(u, n): return 'flist<%d>(%s)' % (n, tstr(u))
        case D.RecordType(fs): return 'rec(%s)' % ','.join(tstr(f.t) for f in fs)
        case D.TupleType(ts): return 'tup(%s)' % ','.join(tstr(u) for u in ts)
        case D.VariantType(cs): return 'var(%s)' % ','.join('_' if c.t is None else tstr(c.t) for c in cs)
        case D.EnumType(ls): return 'enum<%d>' % len(ls)
        case D.OptionType(u): return 'opt(%s)' % tstr(u)
        case D.ResultType(a, b): return 'res(%s,%s)' % ('_' if a is None else tstr(a), '_' if b is None else tstr(b))
        case D.FlagsType(ls): return 'flags<%d>' % len(ls)
        case D.OwnType(rt): return 'own<%d>' % rt.i
        case D.BorrowType(rt): return 'borrow<%d>' % rt.i
        case D.MapType(k, v): return 'map(%s,%s)' % (tstr(k), tstr(v))
    raise ValueError(t)


def bind(t, rts):
    """A copy of t with the resource placeholders replaced by rts."""
    match t:
        case D.OwnType(rt): return D.OwnType(rts[rt.i])
        case D.BorrowType(rt): return D.BorrowType(rts[rt.i])
        case D.ListType(u, n): return D.ListType(bind(u, rts), n)
        case D.RecordType(fs): return D.RecordType([D.FieldType(f.label, bind(f.t, rts)) for f in fs])
        case D.TupleType(ts): return D.TupleType([bind(u, rts) for u in ts])
        case D.VariantType(cs): return D.VariantType([D.CaseType(c.label, None if c.t is None else bind(c.t, rts)) for c in cs])
        case D.OptionType(u): return D.OptionType(bind(u, rts))
        case D.ResultType(a, b): return D.ResultType(None if a is None else bind(a, rts), None if b is None else bind(b, rts))
        case D.MapType(k, v): return D.MapType(bind(k, rts), bind(v, rts))
    return t


def cases_of(t):
    """The variant's (label, type) cases after despecialization."""
    d = D.despecialize(t)
    return [(c.label, c.t) for c in d.cases]


# ---- values -------------------------------------------------------------------

INT_RANGES = {D.S8Type: (-128, 127), D.U8Type: (0, 255), D.S16Type: (-32768, 32767),
              D.U16Type: (0, 65535), D.S32Type: (-2**31, 2**31 - 1), D.U32Type: (0, 2**32 - 1),
              D.S64Type: (-2**63, 2**63 - 1), D.U64Type: (0, 2**64 - 1)}
F32_SPECIAL = [0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fc00001, 0xffc00000, 0x7f800001,
               0x7fbfffff, 0x00000001, 0x3f800000, 0x4048f5c3]
F64_SPECIAL = [0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
               0x7ff8000000000001, 0xfff8000000000000, 0x7ff0000000000001, 1, 0x3ff0000000000000]


def f32_of(bits):
    return D.core_f32_reinterpret_i32(bits)


def f64_of(bits):
    return D.core_f64_reinterpret_i64(bits)


def f32_bits(v):
    return v if isinstance(v, int) else D.core_i32_reinterpret_f32(v)


def f64_bits(v):
    return v if isinstance(v, int) else D.core_i64_reinterpret_f64(v)


class ValGen:
    def __init__(self, rng, handles):
        self.r = rng
        self.handles = handles  # rt index -> [(index, own)] for lift cases; None for lower

    def char(self):
        r = self.r
        k = r.random()
        if k < 0.4:
            return r.randrange(0x20, 0x7f)
        if k < 0.6:
            return r.randrange(0x80, 0x100)
        if k < 0.85:
            c = r.randrange(0x100, 0x10000)
            return c if not 0xd800 <= c <= 0xdfff else 0xe000
        return r.randrange(0x10000, 0x110000)

    def string(self):
        r = self.r
        n = r.choice([0, 1, 2, 3, 5, 8, 13]) if r.random() < 0.9 else r.randrange(20, 120)
        mode = r.random()
        cs = []
        for _ in range(n):
            if mode < 0.3:
                cs.append(r.randrange(0x20, 0x7f))
            elif mode < 0.5:
                cs.append(r.choice([r.randrange(0x20, 0x7f), r.randrange(0x80, 0x100)]))
            else:
                cs.append(self.char())
        s = ''.join(map(chr, cs))
        enc = r.choice(ENCODINGS)
        if enc == 'utf8':
            return (s, enc, len(s.encode('utf-8')))
        units = len(s.encode('utf-16-le')) // 2
        if enc == 'utf16':
            return (s, enc, units)
        if all(ord(c) < 256 for c in s) and r.random() < 0.7:
            return (s, enc, len(s))
        return (s, enc, units | TAG)

    def val(self, t):
        r = self.r
        match t:
            case D.BoolType(): return r.random() < 0.5
            case D.F32Type():
                return f32_of(r.choice(F32_SPECIAL) if r.random() < 0.3 else r.getrandbits(32))
            case D.F64Type():
                return f64_of(r.choice(F64_SPECIAL) if r.random() < 0.3 else r.getrandbits(64))
            case D.CharType(): return chr(self.char())
            case D.StringType(): return self.string()
            case D.ListType(u, None):
                n = r.choice([0, 0, 1, 2, 3, 4]) if r.random() < 0.95 else r.randrange(5, 40)
                return [self.val(u) for _ in range(n)]
            case D.ListType(u, n): return [self.val(u) for _ in range(n)]
            case D.RecordType(fs): return {f.label: self.val(f.t) for f in fs}
            case D.TupleType(ts): return {str(i): self.val(u) for i, u in enumerate(ts)}
            case D.FlagsType(ls): return {l: r.random() < 0.5 for l in ls}
            case D.OwnType() | D.BorrowType(): return self.handle(t)
            case D.MapType(k, v):
                return [{'0': self.val(k), '1': self.val(v)} for _ in range(r.choice([0, 1, 2, 3]))]
            case D.VariantType() | D.EnumType() | D.OptionType() | D.ResultType():
                cs = cases_of(t)
                label, ct = cs[r.randrange(len(cs))] if r.random() < 0.8 else cs[-1]
                return {label: None if ct is None else self.val(ct)}
        lo, hi = INT_RANGES[type(t)]
        if r.random() < 0.3:
            return r.choice([lo, hi, 0, 1, -1 if lo < 0 else 2])
        return r.randint(lo, hi)

    def handle(self, t):
        r = self.r
        if self.handles is None:  # a rep
            return r.choice([0, 1, 7, 2**32 - 1]) if r.random() < 0.2 else r.randrange(1000)
        # an index into the case's table: mostly one of the right type
        rt = t.rt.i
        good = [i for i, own in self.handles[rt] if own or isinstance(t, D.BorrowType)]
        if good and r.random() < 0.85:
            return r.choice(good)
        anyh = [i for lst in self.handles for i, _ in lst]
        if anyh and r.random() < 0.7:
            return r.choice(anyh)
        return r.choice([0, 1, 2, 3, 5, 100, 2**32 - 1])


def vstr(t, v):
    """A value in cabi_test.c's syntax (what it parses and prints)."""
    match t:
        case D.BoolType(): return 't' if v else 'f'
        case D.F32Type(): return 'x%08x' % f32_bits(v)
        case D.F64Type(): return 'x%016x' % f64_bits(v)
        case D.CharType(): return str(ord(v))
        case D.StringType():
            s, enc, tagged = v
            src = {'utf8': 0, 'utf16': 1}.get(enc, 3 if tagged & TAG else 2)
            return 's%d:%s' % (src, s.encode('utf-8').hex())
        case D.ListType(u, _): return '[%s]' % ','.join(vstr(u, e) for e in v)
        case D.RecordType(fs): return '[%s]' % ','.join(vstr(f.t, v[f.label]) for f in fs)
        case D.TupleType(ts): return '[%s]' % ','.join(vstr(u, v[str(i)]) for i, u in enumerate(ts))
        case D.FlagsType(ls): return 'F%d' % sum(1 << i for i, l in enumerate(ls) if v[l])
        case D.OwnType() | D.BorrowType(): return 'r%d' % v
        case D.MapType(k, w): return '[%s]' % ','.join('[%s,%s]' % (vstr(k, e['0']), vstr(w, e['1'])) for e in v)
        case D.VariantType() | D.EnumType() | D.OptionType() | D.ResultType():
            [(label, pv)] = v.items()
            cs = cases_of(t)
            i = [c[0] for c in cs].index(label)
            return 'c%d' % i if cs[i][1] is None else 'c%d(%s)' % (i, vstr(cs[i][1], pv))
    return str(v)


def flat_str(vals, types):
    if not vals:
        return '-'
    out = []
    for v, t in zip(vals, types):
        if t == 'i32':
            out.append('i%d' % v)
        elif t == 'i64':
            out.append('I%d' % v)
        elif t == 'f32':
            out.append('f%08x' % f32_bits(v))
        else:
            out.append('d%016x' % f64_bits(v))
    return ','.join(out)


# ---- the reference's side -------------------------------------------------------

class Heap:
    """run_tests.py's Heap (copying what fits the new size), with a fault
    at one call and optional growth (cabi_test.c's realloc_fn is the same
    allocator)."""

    def __init__(self, mem, start, fault_at, kind, grow):
        self.mem, self.last = mem, start
        self.fault_at, self.kind, self.grow = fault_at, kind, grow
        self.ncalls, self.log = 0, []

    def realloc(self, old, old_size, align, new_size):
        self.log.append('%d.%d.%d.%d' % (old, old_size, align, new_size))
        k = self.ncalls
        self.ncalls += 1
        if k == self.fault_at and self.kind == 3:
            D.trap()
        if old != 0 and new_size < old_size:
            ret = D.align_to(old, align)
        else:
            ret = D.align_to(self.last, align)
            self.last = ret + new_size
            if self.last > len(self.mem):
                if not self.grow & 1:
                    D.trap()
                self.mem.extend(bytes(D.align_to(self.last, 64) - len(self.mem)))
            keep = 0 if self.grow & 2 else min(old_size, new_size)
            if old + keep > len(self.mem):
                D.trap()
            self.mem[ret:ret + keep] = self.mem[old:old + keep]
        if k == self.fault_at:
            if self.kind == 1:
                ret += 1
            elif self.kind == 2:
                ret = D.align_to(len(self.mem) + 1, align)
            elif self.kind == 4:
                ret = (0xffffffff // align) * align
        ret &= 0xffffffff
        self.log[-1] += '=%d' % ret
        return ret


class Cx(D.LiftLowerContext):
    def __init__(self, opts, inst, scope, heap):
        super().__init__(opts, inst, scope)
        self.heap = heap

    def reallocate(self, old, old_byte_length, alignment, new_byte_length):
        assert self.inst.may_leave
        self.inst.may_leave = False
        try:
            return self.heap.realloc(old, old_byte_length, alignment, new_byte_length)
        finally:
            self.inst.may_leave = True


def trap_code(exc, out_param):
    """The CM_TRAP_* name of the trap_if that raised exc."""
    frames = []
    tb = exc.__traceback__
    while tb:
        frames.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    while frames and frames[-1][0].f_code.co_name in ('trap', 'trap_if'):
        frames.pop()
    f, lineno = frames[-1]
    name = f.f_code.co_name
    line = linecache.getline(f.f_code.co_filename, lineno)
    align = 'align_to' in line
    if name == 'realloc':
        return 'CALLEE'
    if name == 'load_string_from_range':
        if 'MAX_STRING' in line:
            return 'STRING_LENGTH'
        if align:
            return 'UNALIGNED'
        if 'len(cx.opts.memory)' in line:
            return 'STRING_OOB'
        return 'UTF8' if f.f_locals.get('encoding') == 'utf-8' else 'UTF16'
    if name == 'load_list_from_range':
        return 'LIST_LENGTH' if 'MAX_LIST' in line else 'UNALIGNED' if align else 'LIST_OOB'
    if name == 'lift_flat_values':
        return 'UNALIGNED' if align else 'OOB'
    if name == 'lower_flat_values':
        pre = 'REALLOC_' if f.f_locals.get('out_param') is None else ''
        return pre + ('UNALIGNED' if align else 'OOB')
    if name.startswith('store_'):
        return 'REALLOC_UNALIGNED' if align else 'REALLOC_OOB'
    if name in ('load_variant', 'lift_flat_variant'):
        return 'DISCRIMINANT'
    if name == 'convert_i32_to_char':
        return 'CHAR'
    if name == 'get':
        return 'HANDLE_UNKNOWN'
    if name == 'add':
        return 'TABLE_FULL'
    if name == 'lift_own':
        return 'HANDLE_LENT' if 'num_lends' in line else 'HANDLE_NOT_OWN' if 'h.own' in line else 'HANDLE_TYPE'
    if name == 'lift_borrow':
        return 'HANDLE_TYPE'
    return 'UNKNOWN:%s:%s' % (name, line.strip())


class World:
    """One case's instance, resource types, tasks and table."""

    def __init__(self, ops):
        store = D.Store()
        self.inst = D.ComponentInstance(store)
        other = D.ComponentInstance(store)
        self.rts = [D.ResourceType(self.inst), D.ResourceType(other), D.ResourceType(other)]
        self.old_task = D.Task(None, None, self.inst, None, None)
        self.task = D.Task(None, None, self.inst, None, None)
        self.sub = D.Subtask()
        for op in ops:
            if op[0] == 'a':
                _, rt, rep, own = op
                h = D.ResourceHandle(self.rts[rt], rep, own, None if own else self.old_task)
                self.inst.handles.add(h)
            elif op[0] == 'r':
                i = op[1]
                if i < len(self.inst.handles.array) and self.inst.handles.array[i] is not None:
                    self.inst.handles.remove(i)
            else:
                i = op[1]
                if i < len(self.inst.handles.array) and self.inst.handles.array[i] is not None:
                    self.inst.handles.array[i].num_lends += 1

    def table_str(self, lifting):
        t = self.inst.handles
        parts = []
        for i in range(1, len(t.array)):
            h = t.array[i]
            if h is None:
                parts.append('.')
                continue
            s = '%s%d.%d.%d' % ('o' if h.own else 'b', self.rts.index(h.rt), h.rep, h.num_lends)
            if not h.own:
                s += '.' + ('c' if h.borrow_scope is self.task else 'x' if h.borrow_scope is self.old_task else 'n')
            parts.append(s)
        out = 'F%s/%s' % ('.'.join(map(str, t.free)), ','.join(parts))
        if lifting:
            idx = [next(i for i, e in enumerate(t.array) if e is h) for h in self.sub.lenders]
            return out + '/L' + '.'.join(map(str, idx))
        return out + '/B%d' % self.task.num_borrows


def ops_str(ops):
    if not ops:
        return '-'
    out = []
    for op in ops:
        if op[0] == 'a':
            out.append('a%d.%d.%s' % (op[1], op[2], 'o' if op[3] else 'b'))
        else:
            out.append('%s%d' % op)
    return ','.join(out)


def gen_ops(r):
    """A random history of the handle table: adds, drops (the free list
    then decides the indices) and lends; and the live handles by type."""
    table, kinds, ops = D.Table(), {}, []
    for _ in range(r.choice([0, 1, 3, 6, 10])):
        if kinds and r.random() < 0.25:
            i = r.choice(sorted(kinds))
            table.remove(i)
            del kinds[i]
            ops.append(('r', i))
        else:
            rt, rep, own = r.randrange(3), r.randrange(100), r.random() < 0.7
            kinds[table.add(object())] = (rt, own)
            ops.append(('a', rt, rep, own))
    for i in sorted(kinds):
        if r.random() < 0.1:
            ops.append(('l', i))
    handles = [[], [], []]
    for i, (rt, own) in sorted(kinds.items()):
        handles[rt].append((i, own))
    return ops, handles


def answer_ok(res, mem, log, world, lifting):
    return 'ok %s %016x/%d %s %s' % (res, zlib.crc32(bytes(mem)), len(mem), ';'.join(log) or '-',
                                     world.table_str(lifting))


def py_lift(case):
    op, enc, mem, ops, ts, rest = case
    world = World(ops)
    opts = D.CanonicalOptions(string_encoding=enc, memory=D.MemInst(mem, 'i32'), realloc=None)
    heap = Heap(mem, 0, -1, 0, 0)
    cx = Cx(opts, world.inst, world.sub, heap)
    try:
        if op == 'load':
            t = bind(ts[0], world.rts)
            res = vstr(t, D.load(cx, rest, t))
        else:
            max_flat, flat = rest
            bts = [bind(t, world.rts) for t in ts]
            vs = D.lift_flat_values(cx, max_flat, D.CoreValueIter(list(flat)), bts)
            res = '[%s]' % ','.join(vstr(t, v) for t, v in zip(bts, vs))
    except D.Trap as e:
        return 'trap %s -' % trap_code(e, None)
    return answer_ok(res, mem, [], world, True)


def py_lower(case):
    op, enc, mem, ops, ts, rest = case
    heapspec, vals, extra = rest
    world = World(ops)
    heap = Heap(mem, *heapspec)
    opts = D.CanonicalOptions(string_encoding=enc, memory=D.MemInst(mem, 'i32'), realloc=heap.realloc)
    cx = Cx(opts, world.inst, world.task, heap)
    bts = [bind(t, world.rts) for t in ts]
    out_param = None
    try:
        if op == 'store':
            D.store(cx, vals[0], bts[0], extra)
            res = '-'
        else:
            max_flat, outp = extra
            if outp is not None:
                out_param = D.CoreValueIter([outp])
            flat = D.lower_flat_values(cx, max_flat, vals, bts, out_param)
            ftypes = D.flatten_types(bts, opts)
            if len(ftypes) > max_flat:
                ftypes = ['i32']
            res = flat_str(flat, ftypes)
    except D.Trap as e:
        return 'trap %s %s' % (trap_code(e, out_param), ';'.join(heap.log) or '-')
    return answer_ok(res, mem, heap.log, world, False)


# ---- case generation -------------------------------------------------------------

INTERESTING32 = [0, 1, 2, 3, 4, 0x7f, 0x80, 0xff, 0x100, 0x101, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff,
                 0xe000, 0xffff, 0x10000, 0x10ffff, 0x110000, 0x7fffffff, 0x80000000, 0x80000001,
                 0x80000002, 0x0fffffff, 0x10000000, 0xfffffffe, 0xffffffff]


# Pieces of string memory: valid UTF-8 of every length and UTF-16 units
# (pairs included), latin1 bytes; and the invalid ones, each kind of bad
# UTF-8 (stray continuation, overlong, surrogate, past U+10FFFF, bytes
# that start nothing, cut sequences) and lone surrogates in UTF-16.
GOOD = [b'a', b'Z', b'\x00', b'\x7f', 'é'.encode(), 'ÿ'.encode(), 'Ā'.encode(), '€'.encode(),
        '\ud7ff'.encode(), '\ue000'.encode(), '\uffff'.encode(), '\U00010000'.encode(), '\U0010ffff'.encode(),
        b'a\x00', b'\xac\x20', b'\x3d\xd8\x00\xde', b'\xff\xdb\xff\xdf', b'\xe9\x00', b'\xff\xd7']
BAD = [b'\x80', b'\xbf', b'\xc0\x80', b'\xc1\xbf', b'\xc2', b'\xe0\x80\x80', b'\xe0\x9f\xbf', b'\xe0\xa0',
       b'\xed\xa0\x80', b'\xed\xbf\xbf', b'\xed\x9f\xbf', b'\xf0\x80\x80\x80', b'\xf0\x8f\xbf\xbf',
       b'\xf0\x90\x80', b'\xf4\x8f\xbf\xbf', b'\xf4\x90\x80\x80', b'\xf5\x80\x80\x80', b'\xf8', b'\xfe',
       b'\xff', b'\xe2\x82', b'\xe2\x28\xa1', b'\x00\xd8', b'\xff\xdb', b'\x00\xdc', b'\xff\xdf',
       b'\x00\xd8\x41\x00']


def gen_lift_string(r, enc):
    """A string (or list of strings) lifted from memory made of GOOD and
    BAD pieces."""
    mem = bytearray(r.getrandbits(8) for _ in range(r.choice([0, 1, 2, 4])))
    while len(mem) < r.choice([8, 24, 64, 200]):
        k = r.random()
        mem += r.choice(GOOD) if k < 0.93 else r.choice(BAD) if k < 0.98 else bytes([r.getrandbits(8)])
    n = len(mem)
    ptr = r.randrange(n + 1) if r.random() < 0.3 else r.randrange(0, min(n, 8) + 1)
    if r.random() < 0.5:
        ptr &= ~1
    unit = 1 if enc == 'utf8' else 2
    units = (n - ptr) // unit if r.random() < 0.6 else r.randrange((n - ptr) // unit + 3)
    if r.random() < 0.05:
        units = r.choice([CM_MAX_STRING, CM_MAX_STRING + 1, 2**31 - 1, 2**32 - 1])
    if enc == 'latin1+utf16' and r.random() < 0.5:
        units = (units // 2 if r.random() < 0.7 else units) | TAG
    units &= 0xffffffff
    if r.random() < 0.7:
        ts, flat, ftypes = [D.StringType()], [ptr, units], ['i32', 'i32']
    else:  # list<string>: the elements point into the same memory
        k = r.randrange(1, 4)
        at = D.align_to(n, 4)
        mem.extend(bytes(at - n))
        for _ in range(k):
            p = r.randrange(ptr + 1) if r.random() < 0.5 else ptr
            u = units if r.random() < 0.5 else r.randrange(units + 1) if units < 2**20 else units
            mem += p.to_bytes(4, 'little') + u.to_bytes(4, 'little')
        ts, flat, ftypes = [D.ListType(D.StringType())], [at, k], ['i32', 'i32']
    line = 'liftv %s 0,-1,0,0 %s - 16 1 %s %s' % (enc, mem.hex() or '-', tstr(ts[0]), flat_str(flat, ftypes))
    return line, ('liftv', enc, mem, [], ts, (16, flat))


CM_MAX_STRING = (1 << 28) - 1


def gen_lift(r, enc):
    if r.random() < 0.25:
        return gen_lift_string(r, enc)
    g = Gen(r)
    ops, handles = gen_ops(r)
    vg = ValGen(r, handles)
    op = 'load' if r.random() < 0.4 else 'liftv'
    ts = [g.type()] if op == 'load' else [g.type(maxdepth=3) for _ in range(r.choice([1, 1, 2, 3, 5]))]
    vals = [vg.val(t) for t in ts]
    # the image: made by the reference's own store, handle values written as the indices
    mem = bytearray(r.getrandbits(8) for _ in range(r.choice([0, 8, 32, 64])))
    heap = Heap(mem, r.randrange(0, 17), -1, 0, 1)
    world = World(ops)
    opts = D.CanonicalOptions(string_encoding=enc, memory=D.MemInst(mem, 'i32'), realloc=heap.realloc)
    cx = Cx(opts, world.inst, world.task, heap)
    bts = [bind(t, world.rts) for t in ts]
    saved = (D.lower_own, D.lower_borrow)
    D.lower_own = D.lower_borrow = lambda cx, v, t: v
    try:
        if op == 'load':
            ptr = cx.allocate(D.alignment(bts[0], 'i32'), D.elem_size(bts[0], 'i32'))
            D.store(cx, vals[0], bts[0], ptr)
            flat = None
        else:
            max_flat = r.choice([16, 16, 1, 4])
            flat = D.lower_flat_values(cx, max_flat, vals, bts)
            ftypes = D.flatten_types(bts, opts)
            if len(ftypes) > max_flat:
                ftypes = ['i32']
    finally:
        D.lower_own, D.lower_borrow = saved
    mem.extend(r.getrandbits(8) for _ in range(r.choice([0, 0, 3, 16])))
    # mutations
    for _ in range(r.choice([0, 0, 1, 1, 2, 3])):
        k = r.random()
        if k < 0.3 and mem:
            mem[r.randrange(len(mem))] = r.getrandbits(8)
        elif k < 0.55 and len(mem) >= 4:
            at = r.randrange(len(mem) // 4) * 4
            v = r.choice(INTERESTING32 + [len(mem), len(mem) - 1, len(mem) + 1, len(mem) | TAG])
            mem[at:at + 4] = (v & 0xffffffff).to_bytes(4, 'little')
        elif k < 0.65 and len(mem) >= 2:
            at = r.randrange(len(mem) // 2) * 2
            mem[at:at + 2] = r.choice([0xd800, 0xdc00, 0xdbff, 0xdfff]).to_bytes(2, 'little')
        elif k < 0.75 and mem:
            at = r.randrange(len(mem))
            mem[at] = r.choice([0xc0, 0xc1, 0xe0, 0xed, 0xf0, 0xf4, 0xf5, 0xff, 0x80, 0xbf])
        elif k < 0.9 and flat:
            i = r.randrange(len(flat))
            if ftypes[i] == 'i32':
                flat[i] = r.choice(INTERESTING32 + [len(mem), len(mem) + 1])
            elif ftypes[i] == 'i64':
                flat[i] = r.choice([0, 1, 2**32, 2**32 + 1, 2**63, 2**64 - 1, r.getrandbits(64)])
            elif ftypes[i] == 'f32':
                flat[i] = f32_of(r.choice(F32_SPECIAL))
            else:
                flat[i] = f64_of(r.choice(F64_SPECIAL))
        elif op == 'liftv' and mem:
            del mem[r.randrange(len(mem)):]
    if op == 'load':
        size = D.elem_size(bts[0], 'i32')
        if ptr + size > len(mem):
            mem.extend(bytes(ptr + size - len(mem)))
        rest = ptr
        line = 'load %s 0,-1,0,0 %s %s %s %d' % (enc, mem.hex() or '-', ops_str(ops), tstr(ts[0]), ptr)
    else:
        rest = (max_flat, flat)
        line = 'liftv %s 0,-1,0,0 %s %s %d %d %s %s' % (enc, mem.hex() or '-', ops_str(ops), max_flat, len(ts),
                                                       ' '.join(tstr(t) for t in ts), flat_str(flat, ftypes))
    return line, (op, enc, mem, ops, ts, rest)


def gen_lower(r, enc):
    g = Gen(r)
    ops, _ = gen_ops(r)
    vg = ValGen(r, None)
    op = 'store' if r.random() < 0.4 else 'lowerv'
    ts = [g.type()] if op == 'store' else [g.type(maxdepth=3) for _ in range(r.choice([1, 1, 2, 3, 5]))]
    vals = [vg.val(t) for t in ts]
    size = r.choice([0, 16, 64, 256, 1024, 4096])
    mem = bytearray(size) if r.random() < 0.5 else bytearray(r.getrandbits(8) for _ in range(size))
    grow = (1 if r.random() < 0.5 else 0) | (2 if r.random() < 0.15 else 0)
    fault_at, kind = (r.randrange(4), r.randint(1, 4)) if r.random() < 0.25 else (-1, 0)
    start = r.randrange(0, size + 1) if size else 0
    heapspec = (start, fault_at, kind, grow)
    if op == 'store':
        bt = bind(ts[0], [RtRef(0), RtRef(1), RtRef(2)])
        a, s = D.alignment(bt, 'i32'), D.elem_size(bt, 'i32')
        if s > len(mem):
            mem.extend(bytes(s - len(mem)))
        extra = r.randrange((len(mem) - s) // a + 1) * a
        line = 'store %s %d,%d,%d,%d %s %s %s %d %s' % (enc, *heapspec, mem.hex() or '-', ops_str(ops),
                                                         tstr(ts[0]), extra, vstr(ts[0], vals[0]))
    else:
        max_flat = r.choice([16, 16, 1, 4])
        outp = None
        if r.random() < 0.3:
            outp = r.choice([r.randrange(len(mem) + 8) & ~7, r.randrange(len(mem) + 8), r.choice(INTERESTING32)])
        extra = (max_flat, outp)
        line = 'lowerv %s %d,%d,%d,%d %s %s %d %d %s %s %s' % (
            enc, *heapspec, mem.hex() or '-', ops_str(ops), max_flat, len(ts), ' '.join(tstr(t) for t in ts),
            ' '.join(vstr(t, v) for t, v in zip(ts, vals)), '-' if outp is None else str(outp))
    return line, (op, enc, mem, ops, ts, (heapspec, vals, extra))


def gen_sig(r, enc):
    """flatten_functype of a random function type."""
    g = Gen(r)
    np_ = r.choice([0, 1, 2, 3, 4, 5, 8, 17])
    params = [g.type(maxdepth=2) if r.random() < 0.7 else g.prim() for _ in range(np_)]
    result = [g.type(maxdepth=2)] if r.random() < 0.7 else []
    async_, callback = r.random() < 0.3, r.random() < 0.5
    ctx = r.choice(['lift', 'lower'])
    line = 'sig %s 0,-1,0,0 - - %d %d %s %d %s %d %s' % (enc, async_, callback and async_, ctx, np_,
                                                     ' '.join(tstr(t) for t in params), len(result),
                                                     ' '.join(tstr(t) for t in result))
    return ' '.join(line.split()), (params, result, async_, callback and async_, ctx)


def py_sig(case):
    params, result, async_, callback, ctx = case
    opts = D.CanonicalOptions(memory=D.MemInst(bytearray(), 'i32'), async_=async_,
                              callback=(lambda: None) if callback else None)
    ft = D.FuncType([('p%d' % i, t) for i, t in enumerate(params)], result, async_=async_)
    c = D.flatten_functype(opts, ft, ctx)
    return 'ok %s/%s' % (','.join(c.params), ','.join(c.results))


# ---- driver ------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('build', nargs='?', default='build')
    ap.add_argument('-n', type=int, default=300, help='cases per direction per encoding')
    ap.add_argument('-s', '--seed', type=int, default=1)
    ap.add_argument('--dir', choices=['lift', 'lower', 'sig'], action='append')
    ap.add_argument('--enc', choices=ENCODINGS, action='append')
    ap.add_argument('-v', action='store_true', help='print every mismatch (else the first 5)')
    ap.add_argument('--keep', help='write every case line to this file')
    a = ap.parse_args()
    prog = os.path.join(a.build, 'tests-component', 'cabi_test')
    if not os.access(prog, os.X_OK):
        print('cabi_diff: %s not built' % prog)
        print('0 passed, 1 failed')
        return 1
    proc = subprocess.Popen([prog], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    keep = open(a.keep, 'w') if a.keep else None
    passed = failed = shown = 0
    for d in a.dir or ['lift', 'lower', 'sig']:
        for enc in (a.enc or ENCODINGS) if d != 'sig' else ['utf8']:
            r = random.Random('%d/%s/%s' % (a.seed, d, enc))
            n_ok = n_trap = n_bad = 0
            traps = {}
            for i in range(a.n):
                line, case = {'lift': gen_lift, 'lower': gen_lower, 'sig': gen_sig}[d](r, enc)
                if keep:
                    keep.write(line + '\n')
                if d == 'sig':
                    want = py_sig(case)
                else:
                    want = (py_lift if d == 'lift' else py_lower)((case[0], case[1], bytearray(case[2]), *case[3:]))
                proc.stdin.write(line + '\n')
                got = proc.stdout.readline().rstrip('\n')
                if got == want:
                    if want.startswith('trap'):
                        n_trap += 1
                        code = want.split()[1]
                        traps[code] = traps.get(code, 0) + 1
                    else:
                        n_ok += 1
                else:
                    n_bad += 1
                    if a.v or shown < 5:
                        shown += 1
                        print('MISMATCH %s %s case %d\n  case: %s\n  ref:  %s\n  weft: %s' %
                              (d, enc, i, line[:2000], want[:2000], got[:2000]))
            passed += n_ok + n_trap
            failed += n_bad
            print('%-5s %-12s %d pairs: %d agree (%d values, %d traps), %d mismatches; traps: %s' %
                  (d, enc, a.n, n_ok + n_trap, n_ok, n_trap, n_bad,
                   ' '.join('%s %d' % kv for kv in sorted(traps.items())) or '-'))
    proc.stdin.close()
    proc.wait()
    print('%d passed, %d failed' % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
