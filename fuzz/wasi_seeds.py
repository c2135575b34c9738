#!/usr/bin/env python3
"""Writes the seed corpus of fuzz/wasi.c into fuzz/corpus/wasi/ (seed-*).

Each seed is an operation sequence written with the helpers below, which
encode it the way fuzz/wasi.c decodes its input: the tables here (ops,
components, whole paths, rights, offsets, ...) must list the same entries
in the same order as there. Run it again after changing the encoding:

    python3 fuzz/wasi_seeds.py          # rewrites fuzz/corpus/wasi/seed-*

Crash files (crash-*) are left alone.
"""
import os
import sys

OPS = ["path_open", "path_create_directory", "path_remove_directory",
       "path_unlink_file", "path_rename", "path_link", "path_symlink",
       "path_readlink", "path_filestat_get", "path_filestat_set_times",
       "fd_read", "fd_pread", "fd_write", "fd_pwrite", "fd_readdir", "fd_seek",
       "fd_tell", "fd_close", "fd_renumber", "fd_fdstat_get",
       "fd_fdstat_set_flags", "fd_fdstat_set_rights", "fd_filestat_get",
       "fd_filestat_set_size", "fd_filestat_set_times", "fd_allocate",
       "fd_sync", "fd_advise", "fd_prestat_get", "fd_prestat_dir_name"]
COMPS = ["a", "b", "sub", "c", "link", "up", "out", "outs", "abs", "abss",
         "loop", "dlink", "new", "d", "outside", "secret", "box", "deep", ".", "..",
         "..", "", "LONG255", "LONG256", "a\0b", "sub\0"]
SPECIALS = ["/", "//", "..", "../", "../outside", "../outside/secret",
            "../box/a", "../secret-top", "sub/../../outside/secret",
            "sub/../sub/../../outside/secret", "out/secret", "out/", "outs",
            "abs", "abs/outside/secret", "abss", "dlink/up",
            "dlink/../out/secret", "sub/up/../../outside", "/sandbox/a",
            "/etc/passwd", "ABS_SECRET", "ABS_BOX_A", "DEEP", "a/", "sub/",
            "sub//c/", "./a", ".", "./", "link/", "loop/x", "a\0", "",
            "CHAIN/new", "CHAIN/../ * 17/a", "CHAIN/../ * 18/outside/secret"]
RIGHTS = ["all", "none", "regular", "directory", "both", "read", "write",
          "rw", "write_tell", "readdir", "read_readdir_open", "size_alloc",
          "sock_accept", "bit40", "dir_no_open"]
OFFSETS = [0, 1, 2, 5, 7, 100, 4096, 1 << 20, 1 << 40, "i64max-1", "i64max",
           "i64max+1", "u64max", -5, -(1 << 20), 3]
ALLOC_LENS = [0, 1, 10, 4096, 65536, "i64max+1", "u64max"]
TIMES = [0, 1, 10**9, 1700000000123456789, "i64max", "u64max"]
ODD_FDS = [0, 1, 2, 3, 4, 5, 9, 64, 0x7fffffff, 0xffffffff]
# Replacement values for a spoiled argument, by index.
BAD = ["mem", "mem-1", "mem-3", "mem-7", "0x7fffffff", "0x80000000",
       "-8", "-1"]

OFLAG = {"creat": 1, "directory": 2, "excl": 4, "trunc": 8}
FDFLAG = {"append": 1, "dsync": 2, "nonblock": 4, "rsync": 8, "sync": 16}
FST = {"atim": 1, "atim_now": 2, "mtim": 4, "mtim_now": 8}


def fd(x):
    """3 (the preopen); ("o", k): the k-th fd the sequence opened (of the
    8 it remembers); ("odd", v): one of ODD_FDS."""
    if x == 3:
        return [0]
    if x[0] == "o":
        return [0x40 + x[1]]
    i = ODD_FDS.index(x[1])
    return [0xb0 + (i - 176 % 10) % 10]


def path(p, trailing=False):
    """A whole path from SPECIALS, or a list of COMPS joined by '/' (a
    component written ("//", c) is joined by "//")."""
    if isinstance(p, str):
        return [SPECIALS.index(p)]
    assert 1 <= len(p) <= 4
    out = [0x30 | (len(p) - 1) | (4 if trailing else 0)]
    for c in p:
        if isinstance(c, tuple):
            out.append(0x80 | COMPS.index(c[1]))
        else:
            out.append(COMPS.index(c))
    return out


def rights(r):
    return [RIGHTS.index(r)]


def flags(names, table):
    v = 0
    for n in names:
        v |= table[n]
    return [v]


def table(t, v):
    return [t.index(v)]


def iovs(*lens):
    """iovecs over the data buffer, each a multiple of 16 bytes."""
    assert len(lens) <= 4 and all(n % 16 == 0 and n < 4096 for n in lens)
    return [len(lens)] + [n // 16 for n in lens]


def op(name, *args, spoil=None):
    """One operation; spoil=(k, bad): the k-th i32 argument of the first
    call becomes BAD[bad]."""
    code = (OPS + ["path_open", "make_chain"]).index(name)
    out = [code | (0x80 if spoil else 0)]
    if spoil:
        out.append(spoil[0] | BAD.index(spoil[1]) << 3)
    for a in args:
        out += a
    return out


def byte(v):
    return [v]


# The operations, with their arguments in decoding order.
def path_open(d, p, of=(), base="rw", inh="none", fl=(), follow=True, trailing=False, **kw):
    return op("path_open", fd(d), byte(1 if follow else 0), path(p, trailing),
              flags(of, OFLAG), rights(base), rights(inh), flags(fl, FDFLAG), **kw)


def path_simple(name, d, p, trailing=False, **kw):
    return op(name, fd(d), path(p, trailing), **kw)


def rename(d, p, d2, p2, **kw):
    return op("path_rename", fd(d), path(p), fd(d2), path(p2), **kw)


def link(d, p, d2, p2, follow=False, **kw):
    return op("path_link", fd(d), byte(1 if follow else 0), path(p), fd(d2), path(p2), **kw)


def symlink(target, d, p, **kw):
    return op("path_symlink", path(target), fd(d), path(p), **kw)


def readlink(d, p, blen, **kw):
    return op("path_readlink", fd(d), path(p), byte(blen // 4), **kw)


def path_stat(d, p, follow=True, unstable=False, **kw):
    return op("path_filestat_get", byte((1 if follow else 0) | (0x80 if unstable else 0)),
              fd(d), path(p), **kw)


def path_times(d, p, atim, mtim, fst, follow=True, **kw):
    return op("path_filestat_set_times", fd(d), byte(1 if follow else 0), path(p),
              table(TIMES, atim), table(TIMES, mtim), flags(fst, FST), **kw)


def read(d, *lens, off=None, **kw):
    name = "fd_read" if off is None else "fd_pread"
    extra = [] if off is None else [table(OFFSETS, off)]
    return op(name, fd(d), iovs(*lens), *extra, **kw)


def write(d, *lens, off=None, seed=0, **kw):
    name = "fd_write" if off is None else "fd_pwrite"
    extra = [] if off is None else [table(OFFSETS, off)]
    return op(name, fd(d), iovs(*lens), byte(seed), *extra, **kw)


def readdir(d, blen, cookie=0, **kw):
    return op("fd_readdir", fd(d), byte(blen // 8), byte(cookie), **kw)


def seek(d, off, whence, unstable=False, **kw):
    return op("fd_seek", byte(whence | (0x80 if unstable else 0)), fd(d), table(OFFSETS, off), **kw)


def fd_only(name, d, **kw):
    return op(name, fd(d), **kw)


def renumber(a, b, **kw):
    return op("fd_renumber", fd(a), fd(b), **kw)


def set_flags(d, fl, **kw):
    return op("fd_fdstat_set_flags", fd(d), flags(fl, FDFLAG), **kw)


def set_rights(d, base, inh, **kw):
    return op("fd_fdstat_set_rights", fd(d), rights(base), rights(inh), **kw)


def fstat(d, unstable=False, **kw):
    return op("fd_filestat_get", byte(0x80 if unstable else 0), fd(d), **kw)


def set_size(d, size, **kw):
    return op("fd_filestat_set_size", fd(d), table(OFFSETS, size), **kw)


def fd_times(d, atim, mtim, fst, **kw):
    return op("fd_filestat_set_times", fd(d), table(TIMES, atim), table(TIMES, mtim),
              flags(fst, FST), **kw)


def allocate(d, off, n, **kw):
    return op("fd_allocate", fd(d), table(OFFSETS, off), table(ALLOC_LENS, n), **kw)


def sync(d, data=False, **kw):
    return op("fd_sync", byte(1 if data else 0), fd(d), **kw)


def advise(d, off, n, advice, **kw):
    return op("fd_advise", fd(d), table(OFFSETS, off), table(OFFSETS, n), byte(advice), **kw)


def prestat(d, **kw):
    return op("fd_prestat_get", fd(d), **kw)


def prestat_name(d, blen, **kw):
    return op("fd_prestat_dir_name", fd(d), byte(blen), **kw)


O0, O1 = ("o", 0), ("o", 1)

SEEDS = {
    "open-read-seek": [
        path_open(3, ["a"], base="rw"), read(O0, 16, 32), seek(O0, 2, 0), read(O0, 16),
        seek(O0, -5, 2), seek(O0, 0, 1), op("fd_tell", fd(O0)), read(O0, 64, off=1),
        fstat(O0), fstat(O0, unstable=True), op("fd_close", fd(O0))],
    "write-create": [
        path_open(3, ["new"], of=["creat", "trunc"], base="regular"), write(O0, 32, 16, seed=3),
        write(O0, 48, off=100, seed=7), set_size(O0, 5), allocate(O0, 4096, 4096),
        sync(O0), sync(O0, data=True), seek(O0, 0, 0), read(O0, 256), advise(O0, 0, 100, 3),
        fd_times(O0, 1, 10**9, ["atim", "mtim"]), fd_times(O0, 0, 0, ["atim_now", "mtim_now"])],
    "append-sync-flags": [
        path_open(3, ["b"], base="all", fl=["append", "dsync"]), write(O0, 16),
        set_flags(O0, ["sync"]), write(O0, 32, off=0), set_flags(O0, []),
        op("fd_fdstat_get", fd(O0)), seek(O0, 0, 1), write(O0, 16)],
    "escape-dotdot": [
        path_open(3, "../outside/secret", base="read"), path_open(3, "..", base="directory"),
        path_open(3, "sub/../../outside/secret"), path_open(3, "sub/../sub/../../outside/secret"),
        path_open(3, "../secret-top"), path_open(3, "../box/a"), path_open(3, ["..", "box", "a"]),
        path_open(3, "sub/up/../../outside", base="directory", of=["directory"])],
    "escape-absolute": [
        path_open(3, "/etc/passwd", base="read"), path_open(3, "ABS_SECRET", base="read"),
        path_open(3, "ABS_BOX_A", base="read"), path_open(3, "/sandbox/a"),
        path_open(3, "/", base="directory"), path_open(3, "//")],
    "escape-symlinks": [
        path_open(3, "out/secret", base="read"), path_open(3, "outs", base="read"),
        path_open(3, "outs", base="read", follow=False), path_open(3, "abs/outside/secret"),
        path_open(3, "abss"), path_open(3, "abss", follow=False),
        path_open(3, "dlink/../out/secret"), path_open(3, ["out"], base="directory", trailing=True),
        read(O0, 256)],
    "escape-stat": [
        path_stat(3, "outs"), path_stat(3, "outs", follow=False), path_stat(3, "abs"),
        path_stat(3, "abs", follow=False), path_stat(3, "out/secret", unstable=True),
        path_stat(3, ".."), path_stat(3, "."), path_stat(3, ["sub", "up"])],
    "escape-new-symlink": [
        symlink("../outside", 3, ["new"]), path_open(3, ["new", "secret"], base="read"),
        read(O0, 256), symlink("../outside/secret", 3, ["d"]), path_open(3, ["d"], base="read"),
        read(O0, 256), symlink("ABS_SECRET", 3, ["new"]), symlink("..", 3, ["sub", "new"]),
        path_open(3, ["sub", "new", "..", "outside"], base="directory")],
    "escape-rename": [
        rename(3, ["a"], 3, "../outside"), rename(3, ["a"], 3, ["out", "new"]),
        rename(3, "out/secret", 3, ["new"]), rename(3, "outs", 3, ["new"]),
        rename(3, ["sub"], 3, ["abs", "new"]), rename(3, ["link"], 3, ["dlink", "new"]),
        path_open(3, ["dlink", "new"], base="read"), read(O0, 64)],
    "escape-link": [
        link(3, "outs", 3, ["new"], follow=True), link(3, "abss", 3, ["new"], follow=True),
        link(3, ["a"], 3, ["out", "new"]), link(3, "out/secret", 3, ["d"]),
        link(3, ["outs"], 3, ["d"]), path_open(3, ["d"], base="read"), read(O0, 256)],
    "escape-remove": [
        path_simple("path_unlink_file", 3, "out/secret"),
        path_simple("path_unlink_file", 3, "../outside/secret"),
        path_simple("path_remove_directory", 3, "../outside"),
        path_simple("path_remove_directory", 3, "out/"),
        path_simple("path_unlink_file", 3, ["out"]), path_simple("path_unlink_file", 3, ["outs"]),
        path_simple("path_unlink_file", 3, ["abs"], trailing=True)],
    "escape-mkdir-times": [
        path_simple("path_create_directory", 3, ["..", "outside", "new"]),
        path_simple("path_create_directory", 3, ["out", "new"]),
        path_simple("path_create_directory", 3, ["abs", "new"]),
        path_times(3, "outs", 1, 1, ["atim", "mtim"]),
        path_times(3, "abs", 0, 0, ["atim_now", "mtim_now"], follow=False),
        path_times(3, "out/secret", 1, 1, ["mtim"])],
    "readdir": [
        path_open(3, ".", of=["directory"], base="directory"), readdir(O0, 2040),
        readdir(O0, 40), readdir(O0, 40, cookie=1), readdir(O0, 2040, cookie=3),
        readdir(O0, 2040, cookie=0xf1), readdir(3, 2040), readdir(3, 8),
        path_open(3, ["sub"], of=["directory"], base="directory", inh="both"), readdir(O1, 2040)],
    "readlink": [
        readlink(3, ["abs"], 1020), readlink(3, ["abss"], 8), readlink(3, ["out"], 1020),
        readlink(3, ["sub", "up"], 1020), readlink(3, ["loop"], 4), readlink(3, ["a"], 64),
        readlink(3, "out/secret", 64), readlink(3, ["link"], 0)],
    "subdir-root": [
        path_open(3, ["sub"], of=["directory"], base="directory", inh="both"),
        path_open(O0, ["..", "a"], base="read"), path_open(O0, ["up"], base="read"),
        path_open(O0, ["c"], base="read"), path_stat(O0, ["up"]), readlink(O0, ["up"], 64),
        path_simple("path_create_directory", O0, ["d"]), rename(O0, ["c"], 3, ["new"])],
    "fd-table": [
        path_open(3, ["a"], base="read"), renumber(O0, ("odd", 0)), renumber(3, ("odd", 1)),
        prestat(("odd", 1)), prestat_name(("odd", 1), 15), prestat_name(3, 15),
        op("fd_close", fd(("odd", 2))), path_open(("odd", 1), ["b"]),
        op("fd_close", fd(("odd", 1))), path_open(("odd", 1), ["b"]), prestat(("odd", 4)),
        renumber(("odd", 3), ("odd", 3))],
    "rights": [
        set_rights(3, "dir_no_open", "regular"), path_open(3, ["a"]), set_rights(3, "all", "all"),
        path_open(3, ["a"], base="all", inh="all"), path_open(3, ["sub"], base="bit40"),
        path_open(3, ["a"], base="sock_accept"), path_open(3, ["a"], base="none"),
        op("fd_fdstat_get", fd(3))],
    "stdio": [
        read(("odd", 0), 64), write(("odd", 1), 32), write(("odd", 2), 16, off=0),
        seek(("odd", 0), 0, 1), set_flags(("odd", 0), ["nonblock"]), read(("odd", 0), 16),
        fstat(("odd", 1)), allocate(("odd", 1), 0, 10), prestat(("odd", 0))],
    "bad-pointers": [
        path_open(3, ["a"], base="rw"), path_open(3, ["a"], spoil=(2, "mem-1")),
        path_open(3, ["a"], spoil=(3, "-1")), path_open(3, ["a"], spoil=(6, "mem-3")),
        path_open(3, ["a"], spoil=(1, "-1")), read(O0, 64, spoil=(1, "mem-7")),
        read(O0, 64, spoil=(2, "0x80000000")), readdir(3, 64, spoil=(2, "mem")),
        readlink(3, ["abs"], 64, spoil=(3, "-8")), prestat_name(3, 15, spoil=(2, "-1")),
        path_stat(3, ["a"], spoil=(4, "mem-3")), seek(O0, 0, 0, spoil=(2, "mem-7"))],
    "loops-and-long": [
        path_open(3, ["loop"]), path_open(3, "loop/x", follow=False), path_open(3, "DEEP"),
        path_simple("path_create_directory", 3, ["LONG255"]),
        path_simple("path_create_directory", 3, ["LONG256"]),
        path_open(3, ["LONG255", "a"], of=["creat"]),
        path_open(3, ["sub", ("//", "c")], trailing=True)],
    "nul-and-empty": [
        path_open(3, "a\0"), path_open(3, ["a\0b"]), path_open(3, ["sub\0", "c"]),
        path_open(3, ""), path_open(3, ["", "a"]), symlink("", 3, ["new"]),
        path_simple("path_create_directory", 3, ["a", ""])],
    "create-excl-through-links": [
        path_open(3, ["outs"], of=["creat", "excl"]), path_open(3, ["out", "new"], of=["creat"]),
        path_open(3, ["abss"], of=["creat", "trunc"]),
        path_open(3, ["link"], of=["creat", "trunc"], base="regular"),
        write(O0, 32), path_open(3, ["sub"], of=["creat", "directory"])],
    "deep-chain": [
        op("make_chain"), path_open(3, "CHAIN/new", of=["creat"], base="regular"), write(O0, 16),
        path_open(3, "CHAIN/../ * 17/a", base="read"), read(O1, 64),
        path_open(3, "CHAIN/../ * 18/outside/secret", base="read"),
        path_stat(3, "CHAIN/../ * 18/outside/secret"),
        path_simple("path_unlink_file", 3, "CHAIN/new"),
        path_simple("path_remove_directory", 3, ["deep"])],
    "unstable-seek": [
        path_open(3, ["sub", "c"], base="all"), seek(O0, 5, 2, unstable=True),
        seek(O0, 2, 0, unstable=True), seek(O0, 0, 1, unstable=True), seek(O0, 7, 3),
        path_stat(3, ["sub", "c"], unstable=True), fstat(O0, unstable=True)],
}


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "wasi")
    os.makedirs(out, exist_ok=True)
    for f in os.listdir(out):
        if f.startswith("seed-"):
            os.remove(os.path.join(out, f))
    for name, ops in SEEDS.items():
        data = bytes(b for o in ops for b in o)
        with open(os.path.join(out, "seed-" + name), "wb") as f:
            f.write(data)
    print(f"{len(SEEDS)} seeds in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
