#!/usr/bin/env python3
"""bigmod.py — writes a big wasm32-wasi command module for the start-up
benchmark (bench/run's `startup` cases, issue 14), so CI can measure what
yosys.core.wasm measures without fetching it from npm.

    bench/tools/bigmod.py OUT.wasm [--funcs N] [--body BYTES] [--seed S]

Defaults: 30,000 functions of about 900 bytes of code each, 27 MB of code
in all, about yosys.core.wasm's 28 MB. Each body is a random mix of what
compilers emit: locals, i32/i64/f64 arithmetic, loads and stores, blocks
with br_if, loops, if/else, direct calls and call_indirect through a
table; every body is valid. `_start` prints one line, as `yosys -V` does,
and returns: almost none of the module runs, so start-up is all there is.
The export `first` is a big function that calls nothing and is never
called by `_start`, for a first-call latency case (`--invoke first 1 2`).
The output depends only on the arguments (a seeded generator); it is not
committed, as it is big.
"""
import random
import struct
import sys


def uleb(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def sleb(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if (v == 0 and not b & 0x40) or (v == -1 and b & 0x40):
            out.append(b)
            return bytes(out)
        out.append(b | 0x80)


def vec(items):
    return uleb(len(items)) + b"".join(items)


def section(sid, payload):
    return bytes([sid]) + uleb(len(payload)) + payload


def name(s):
    return uleb(len(s)) + s.encode()


I32, I64, F64 = 0x7F, 0x7E, 0x7C
# Locals of every generated function: params a, b (i32); then c, d (i32),
# x (i64), f (f64).
A, B, C, D, X, F = 0, 1, 2, 3, 4, 5
LOCALS = vec([uleb(2) + bytes([I32]), uleb(1) + bytes([I64]), uleb(1) + bytes([F64])])


def lget(i):
    return b"\x20" + uleb(i)


def lset(i):
    return b"\x21" + uleb(i)


def i32c(v):
    return b"\x41" + sleb(v)


def memarg(align, off):
    return uleb(align) + uleb(off)


class Gen:
    def __init__(self, rnd, nfuncs, first_gen):
        self.r = rnd
        self.nfuncs = nfuncs
        self.first_gen = first_gen  # index of the first generated function
        self.calls = True           # may emit call and call_indirect

    def ri(self, *choices):
        return self.r.choice(choices)

    def small(self):
        return self.r.randrange(-64, 64)

    def stmt(self, depth, leaf):
        """One statement: leaves the stack as it found it."""
        r = self.r
        k = r.randrange(100 if not leaf else 84)
        # d is the loops' counter: read anywhere, written by loops only, and
        # loops do not nest, so every loop ends.
        i, j, o = self.ri(A, B, C, D), self.ri(A, B, C, D), self.ri(A, B, C)
        if k < 14:  # c = a op b
            op = self.ri(0x6A, 0x6B, 0x6C, 0x71, 0x72, 0x73, 0x74, 0x76)
            return lget(i) + lget(j) + bytes([op]) + lset(o)
        if k < 24:  # c = (a op K) ^ b
            return lget(i) + i32c(r.randrange(1 << 20)) + bytes([self.ri(0x6A, 0x6C, 0x71)]) + lget(j) + b"\x73" + lset(o)
        if k < 34:  # c = load(a + off)
            op, al = self.ri((0x28, 2), (0x2D, 0), (0x2F, 1), (0x2C, 0))
            return lget(i) + b"\x41\xff\xff\x03\x71" + bytes([op]) + memarg(al, r.randrange(0, 4096, 4)) + lset(o)
        if k < 42:  # store(a & mask, b)
            op, al = self.ri((0x36, 2), (0x3A, 0), (0x3B, 1))
            return lget(i) + b"\x41\xff\xff\x03\x71" + lget(j) + bytes([op]) + memarg(al, r.randrange(0, 4096, 4))
        if k < 50:  # x = x op extend(a)
            return lget(X) + lget(i) + self.ri(b"\xad", b"\xac") + bytes([self.ri(0x7C, 0x7E, 0x85, 0x86)]) + lset(X)
        if k < 56:  # f = f * a + 1.5
            return (lget(F) + lget(i) + b"\xb8" + b"\xa2" + b"\x44" + struct.pack("<d", 1.5) + b"\xa0" + lset(F))
        if k < 62:  # c = select(a, b, a < b)
            return lget(i) + lget(j) + lget(i) + lget(j) + bytes([self.ri(0x48, 0x49, 0x4C)]) + b"\x1b" + lset(o)
        if k < 66:  # c = i32.wrap(x) + a;  x = i64.const
            return lget(X) + b"\xa7" + lget(i) + b"\x6a" + lset(o) + b"\x42" + sleb(r.randrange(-(1 << 40), 1 << 40)) + lset(X)
        if 66 <= k < 76 and not self.calls:  # c = a - b instead
            return lget(i) + lget(j) + b"\x6b" + lset(o)
        if k < 72:  # c = call g(a, b)
            g = r.randrange(self.first_gen, self.nfuncs)
            return lget(i) + lget(j) + b"\x10" + uleb(g) + lset(o)
        if k < 76:  # c = call_indirect(a, b, c & 63)
            return lget(i) + lget(j) + lget(o) + i32c(63) + b"\x71" + b"\x11\x02\x00" + lset(o)
        if k < 84:  # c = a == K ? ... : eqz
            return lget(i) + b"\x45" + lget(j) + i32c(self.small()) + b"\x46" + b"\x72" + lset(o)
        # nested control
        inner_leaf = depth >= 2 or k >= 95
        body = b"".join(self.stmt(depth + 1, inner_leaf) for _ in range(r.randrange(2, 6)))
        if k < 90:  # block ... br_if 0 ... end
            return b"\x02\x40" + lget(i) + b"\x45\x0d\x00" + body + b"\x0b"
        if k < 95:  # if (a) ... else ... end
            other = b"".join(self.stmt(depth + 1, True) for _ in range(r.randrange(1, 4)))
            return lget(i) + b"\x04\x40" + body + b"\x05" + other + b"\x0b"
        # loop: d counts to a small bound
        return (i32c(0) + lset(D) + b"\x03\x40" + body + lget(D) + i32c(1) + b"\x6a" + b"\x22" + uleb(D)
                + i32c(r.randrange(2, 8)) + b"\x49\x0d\x00\x0b")

    def body(self, size, leaf=False):
        code = bytearray(LOCALS)
        while len(code) < size:
            code += self.stmt(0, leaf)
        # c + wrap(x) + trunc_sat(f): every local feeds the result
        code += lget(C) + lget(X) + b"\xa7\x6a" + lget(F) + b"\xfc\x02\x6a\x0b"
        return uleb(len(code)) + bytes(code)


def main(argv):
    out, nfuncs, body, seed = None, 30000, 900, 14
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--funcs":
            nfuncs = int(args.pop(0))
        elif a == "--body":
            body = int(args.pop(0))
        elif a == "--seed":
            seed = int(args.pop(0))
        elif out is None and not a.startswith("-"):
            out = a
        else:
            sys.exit("usage: bigmod.py OUT.wasm [--funcs N] [--body BYTES] [--seed S]")
    if out is None:
        sys.exit("usage: bigmod.py OUT.wasm [--funcs N] [--body BYTES] [--seed S]")
    rnd = random.Random(seed)
    # Function index space: 0 fd_write (import), 1 _start, 2 first, 3.. generated.
    nimp, first_gen = 1, 3
    total = first_gen + nfuncs
    g = Gen(rnd, total, first_gen)
    types = vec([
        b"\x60" + vec([bytes([I32])] * 4) + vec([bytes([I32])]),  # 0: fd_write
        b"\x60\x00\x00",                                          # 1: _start
        b"\x60" + vec([bytes([I32])] * 2) + vec([bytes([I32])]),  # 2: (i32 i32) -> i32
    ])
    imports = vec([name("wasi_snapshot_preview1") + name("fd_write") + b"\x00" + uleb(0)])
    funcs = vec([uleb(1), uleb(2)] + [uleb(2)] * nfuncs)
    table = vec([b"\x70\x00" + uleb(64)])
    memory = vec([b"\x00" + uleb(2)])
    exports = vec([name("memory") + b"\x02" + uleb(0), name("_start") + b"\x00" + uleb(1),
                   name("first") + b"\x00" + uleb(2)])
    elem = vec([b"\x00" + i32c(0) + b"\x0b" + vec([uleb(first_gen + rnd.randrange(nfuncs)) for _ in range(64)])])
    msg = b"bigmod: %d functions of ~%d bytes (bench/tools/bigmod.py, seed %d)\n" % (nfuncs, body, seed)
    # iovec at 0: {16, len}; the text at 16; nwritten at 8.
    start = (b"\x00" + i32c(1) + i32c(0) + i32c(1) + i32c(8) + b"\x10\x00\x1a\x0b")
    start = uleb(len(start)) + start
    # `first`: as big as the others, and calls nothing, so a first call
    # compiles this one function.
    g.calls = False
    bodies = [start, g.body(body)]
    g.calls = True
    for _ in range(nfuncs):
        bodies.append(g.body(rnd.randrange(body // 2, body * 3 // 2)))
    code = vec(bodies)
    data = vec([b"\x00" + i32c(0) + b"\x0b" + uleb(16 + len(msg)) + struct.pack("<IIII", 16, len(msg), 0, 0) + msg])
    wasm = (b"\0asm\1\0\0\0" + section(1, types) + section(2, imports) + section(3, funcs) + section(4, table)
            + section(5, memory) + section(7, exports) + section(9, elem) + section(10, code) + section(11, data))
    with open(out, "wb") as f:
        f.write(wasm)
    print("%s: %d bytes, %d functions" % (out, len(wasm), total - nimp))


if __name__ == "__main__":
    main(sys.argv[1:])
