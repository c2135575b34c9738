#!/usr/bin/env python3
"""witgen.py — the one table of the WASI 0.2 host interfaces (src/wasip2/).

Reads the WIT packages of ../shared/spec/wasi-wit/v0.2.12 that weft hosts
and writes src/wasip2/wit_types.h and wit_types.c: for every interface
(the @since ones; @unstable items are left out, as a host without the
feature gate must) the value-type trees of its named types, the type of
each function, and the skeleton of its cm_host_instance (versioned name,
function names -> the C functions that implement them, resources, types).
The trees are data (wp2_node_desc rows); src/wasip2/ctx.c builds them into
cm_valtype nodes once per instance state, because own/borrow nodes point to
that state's cm_resource identities (their destructors need the state).

The canonical ABI's size, alignment and flat count of each node are
computed here (CanonicalABI.md "Alignment", "Element Size", "Flattening").

  tools/witgen.py            rewrite the two files
  tools/witgen.py --check    exit 1 (and say which) if they differ from
                             what the WIT makes now (tests/witgen/run.sh)

Python 3 standard library only. The WIT grammar read is the subset these
packages use (WIT.md): package, interface, world (skipped), use, type,
record, variant, enum, flags, resource with methods / static functions /
constructors, functions, and the @since / @unstable / @deprecated gates.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WIT = os.path.join(ROOT, "..", "shared", "spec", "wasi-wit", "v0.2.12", "proposals")
# The packages hosted, in the order their interfaces are listed. Interfaces
# a command exports rather than imports (wasi:cli/run) are not hosted.
PACKAGES = ["io", "cli", "clocks", "random", "filesystem", "sockets"]
SKIP_INTERFACES = {"wasi:cli/run"}
OUT_H = os.path.join(ROOT, "src", "wasip2", "wit_types.h")
OUT_C = os.path.join(ROOT, "src", "wasip2", "wit_types.c")

PRIMS = {"bool": "CM_BOOL", "s8": "CM_S8", "u8": "CM_U8", "s16": "CM_S16", "u16": "CM_U16",
         "s32": "CM_S32", "u32": "CM_U32", "s64": "CM_S64", "u64": "CM_U64", "f32": "CM_F32",
         "f64": "CM_F64", "char": "CM_CHAR", "string": "CM_STRING"}
PRIM_LAYOUT = {"bool": (1, 1), "s8": (1, 1), "u8": (1, 1), "s16": (2, 2), "u16": (2, 2),
               "s32": (4, 4), "u32": (4, 4), "s64": (8, 8), "u64": (8, 8), "f32": (4, 4),
               "f64": (8, 8), "char": (4, 4), "string": (8, 4)}


class WitError(Exception):
    pass


# ---- Tokens ----

TOKEN = re.compile(r"""
    (?P<ws>\s+) |
    (?P<doc>//[^\n]*) |
    (?P<block>/\*.*?\*/) |
    (?P<gate>@(since|unstable|deprecated)\s*\([^)]*\)) |
    (?P<arrow>->) |
    (?P<id>%?[A-Za-z_][A-Za-z0-9_-]*) |
    (?P<num>[0-9]+) |
    (?P<p>[{}()<>,;:=./@*_])
""", re.S | re.X)


def tokenize(text, path):
    toks, pos = [], 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise WitError("%s: cannot read %r" % (path, text[pos:pos + 20]))
        pos = m.end()
        k = m.lastgroup
        if k in ("ws", "doc", "block"):
            continue
        v = m.group(k)
        if k == "gate":
            toks.append(("gate", "unstable" if v.startswith("@unstable") else "stable"))
        elif k == "id":
            toks.append(("id", v.lstrip("%")))
        else:
            toks.append(("p", v))
    toks.append(("eof", ""))
    return toks


class Parser:
    def __init__(self, toks, path):
        self.t, self.i, self.path = toks, 0, path

    def peek(self, k=0):
        return self.t[self.i + k]

    def next(self):
        tok = self.t[self.i]
        self.i += 1
        return tok

    def expect(self, v):
        tok = self.next()
        if tok[1] != v:
            raise WitError("%s: expected %r, found %r" % (self.path, v, tok[1]))
        return tok

    def ident(self):
        tok = self.next()
        if tok[0] != "id":
            raise WitError("%s: expected a name, found %r" % (self.path, tok[1]))
        return tok[1]

    def gate(self):
        """Reads the gates before an item; False when one says @unstable."""
        stable = True
        while self.peek()[0] == "gate":
            if self.next()[1] == "unstable":
                stable = False
        return stable

    def skip_braces(self):
        self.expect("{")
        depth = 1
        while depth:
            v = self.next()[1]
            depth += v == "{"
            depth -= v == "}"

    def ty(self):
        name = self.ident()
        if name in ("list", "option", "borrow", "own"):
            self.expect("<")
            inner = self.ty()
            self.expect(">")
            return (name, inner)
        if name == "tuple":
            self.expect("<")
            members = [self.ty()]
            while self.peek()[1] == ",":
                self.next()
                members.append(self.ty())
            self.expect(">")
            return ("tuple", members)
        if name == "result":
            ok = err = None
            if self.peek()[1] == "<":
                self.next()
                if self.peek()[1] == "_":
                    self.next()
                else:
                    ok = self.ty()
                if self.peek()[1] == ",":
                    self.next()
                    err = self.ty()
                self.expect(">")
            return ("result", ok, err)
        if name in PRIMS:
            return ("prim", name)
        return ("name", name)

    def functype(self):
        self.expect("(")
        params = []
        while self.peek()[1] != ")":
            pname = self.ident()
            self.expect(":")
            params.append((pname, self.ty()))
            if self.peek()[1] == ",":
                self.next()
        self.expect(")")
        result = None
        if self.peek()[1] == "->":
            self.next()
            result = self.ty()
        self.expect(";")
        return params, result

    def labels(self, with_types):
        self.expect("{")
        out = []
        while self.peek()[1] != "}":
            self.gate()
            label = self.ident()
            t = None
            if with_types == "field":
                self.expect(":")
                t = self.ty()
            elif with_types == "case" and self.peek()[1] == "(":
                self.next()
                t = self.ty()
                self.expect(")")
            out.append((label, t))
            if self.peek()[1] == ",":
                self.next()
        self.expect("}")
        return out

    def use_path(self):
        """`pkg:ns/iface@ver.{` or `iface.{`: the text before `.{`."""
        parts = []
        while not (self.peek()[1] == "." and self.peek(1)[1] == "{"):
            tok = self.next()
            if tok[0] == "eof":
                raise WitError("%s: unterminated use" % self.path)
            parts.append(tok[1])
        self.next()
        return "".join(parts)

    def interface_body(self, iface):
        self.expect("{")
        while self.peek()[1] != "}":
            stable = self.gate()
            start = self.i
            item = self.item()
            if not stable:
                continue
            if item is None:
                raise WitError("%s: cannot read item at token %d" % (self.path, start))
            kind = item[0]
            if kind == "use":
                iface["uses"].append(item[1:])
            elif kind == "func":
                iface["funcs"].append(item[1:])
            else:
                iface["types"].append(item)
        self.expect("}")

    def item(self):
        head = self.peek()[1]
        if head == "use":
            self.next()
            path = self.use_path()
            self.expect("{")
            names = []
            while self.peek()[1] != "}":
                n = self.ident()
                alias = n
                if self.peek()[1] == "as":
                    self.next()
                    alias = self.ident()
                names.append((n, alias))
                if self.peek()[1] == ",":
                    self.next()
            self.expect("}")
            self.expect(";")
            return ("use", path, names)
        if head == "type":
            self.next()
            name = self.ident()
            self.expect("=")
            t = self.ty()
            self.expect(";")
            return ("alias", name, t)
        if head in ("record", "variant", "enum", "flags"):
            self.next()
            name = self.ident()
            kind = {"record": "field", "variant": "case"}.get(head)
            return (head, name, self.labels(kind))
        if head == "resource":
            self.next()
            name = self.ident()
            methods = []
            if self.peek()[1] == ";":
                self.next()
                return ("resource", name, methods)
            self.expect("{")
            while self.peek()[1] != "}":
                stable = self.gate()
                if self.peek()[1] == "constructor":
                    self.next()
                    params, _ = self.functype_ctor()
                    m = ("[constructor]%s" % name, params, ("own", ("name", name)), "new")
                else:
                    mname = self.ident()
                    self.expect(":")
                    static = False
                    if self.peek()[1] == "static":
                        self.next()
                        static = True
                    self.expect("func")
                    params, result = self.functype()
                    if static:
                        m = ("[static]%s.%s" % (name, mname), params, result, mname)
                    else:
                        params = [("self", ("borrow", ("name", name)))] + params
                        m = ("[method]%s.%s" % (name, mname), params, result, mname)
                if stable:
                    methods.append(m)
            self.expect("}")
            return ("resource", name, methods)
        # name: func(...)
        name = self.ident()
        self.expect(":")
        self.expect("func")
        params, result = self.functype()
        return ("func", name, params, result, None)

    def functype_ctor(self):
        self.expect("(")
        params = []
        while self.peek()[1] != ")":
            pname = self.ident()
            self.expect(":")
            params.append((pname, self.ty()))
            if self.peek()[1] == ",":
                self.next()
        self.expect(")")
        self.expect(";")
        return params, None

    def file(self, pkg, ifaces):
        while self.peek()[0] != "eof":
            stable = self.gate()
            head = self.next()[1]
            if head == "package":
                parts = []
                while self.peek()[1] != ";":
                    parts.append(self.next()[1])
                self.next()
                text = "".join(parts)
                if pkg["name"] and pkg["name"] != text:
                    raise WitError("%s: package %s in %s" % (self.path, text, pkg["name"]))
                pkg["name"] = text
            elif head == "world":
                self.ident()
                self.skip_braces()
            elif head == "interface":
                name = self.ident()
                iface = {"name": name, "uses": [], "funcs": [], "types": [], "stable": stable}
                self.interface_body(iface)
                ifaces.append(iface)
            else:
                raise WitError("%s: unexpected %r" % (self.path, head))


def read_packages():
    pkgs = []
    for short in PACKAGES:
        d = os.path.join(WIT, short, "wit")
        pkg = {"short": short, "name": None, "ifaces": []}
        for fn in sorted(os.listdir(d)):
            if not fn.endswith(".wit"):
                continue
            path = os.path.join(d, fn)
            with open(path, encoding="utf-8") as f:
                Parser(tokenize(f.read(), path), path).file(pkg, pkg["ifaces"])
        if not pkg["name"]:
            raise WitError("%s: no package line" % d)
        pkgs.append(pkg)
    return pkgs


# ---- Resolution and layout ----

def align_to(n, a):
    return (n + a - 1) // a * a


def disc_size(n):
    return 1 if n <= 256 else 2 if n <= 65536 else 4


class Gen:
    def __init__(self, pkgs):
        self.pkgs = pkgs
        self.nodes = []        # dicts: kind, fields/members/elem/..., layout
        self.node_key = {}     # structural key -> index (anonymous types shared)
        self.fields = []       # (name, tref)
        self.members = []      # tref
        self.resources = []    # (c enum name, wit name, dtor C name)
        self.res_index = {}    # (iface key, name) -> index
        self.named = {}        # (iface key, name) -> tref | ("res", index)
        self.functypes = []    # (first param field, nparams, result tref)
        self.funcs = []        # (wit name, functype index, C name)
        self.hres = []         # (name, resource index)
        self.types = []        # (name, tref)
        self.instances = []    # dicts
        self.labels = []       # (C name, value, comment)
        self.protos = []       # C names of host functions

    # A type reference: ("P", prim name) or ("T", node index).
    def layout(self, tref):
        if tref[0] == "P":
            s, a = PRIM_LAYOUT[tref[1]]
            return s, a, 2 if tref[1] == "string" else 1
        n = self.nodes[tref[1]]
        return n["size"], n["align"], n["flat"]

    def node(self, key, make):
        if key in self.node_key:
            return ("T", self.node_key[key])
        n = make()
        self.nodes.append(n)
        self.node_key[key] = len(self.nodes) - 1
        return ("T", len(self.nodes) - 1)

    def record_layout(self, trefs):
        size, align, flat = 0, 1, 0
        for t in trefs:
            s, a, f = self.layout(t)
            size = align_to(size, a) + s
            align = max(align, a)
            flat += f
        return align_to(size, align), align, flat

    def variant_layout(self, trefs):
        d = disc_size(len(trefs))
        case_align, case_size, case_flat = 1, 0, 0
        for t in trefs:
            if t is None:
                continue
            s, a, f = self.layout(t)
            case_align = max(case_align, a)
            case_size = max(case_size, s)
            case_flat = max(case_flat, f)
        align = max(d, case_align)
        size = align_to(align_to(d, case_align) + case_size, align)
        return size, align, 1 + case_flat

    def add_fields(self, items):
        first = len(self.fields)
        for name, t in items:
            self.fields.append((name, t))
        return first

    def resolve(self, scope, t):
        kind = t[0]
        if kind == "prim":
            return ("P", t[1])
        if kind == "name":
            ref = scope.get(t[1])
            if ref is None and t[1] in self.later:
                self.define(scope, self.later.pop(t[1]))  # defined further down
                ref = scope.get(t[1])
            if ref is None:
                raise WitError("unknown type %s" % t[1])
            if ref[0] == "res":
                return self.handle("own", ref[1])
            return ref
        if kind in ("own", "borrow"):
            ref = scope.get(t[1][1])
            if ref is None or ref[0] != "res":
                raise WitError("%s of %s, not a resource" % (kind, t[1]))
            return self.handle(kind, ref[1])
        if kind in ("list", "option"):
            e = self.resolve(scope, t[1])
            if kind == "list":
                return self.node(("list", e), lambda: dict(kind="CM_LIST", elem=e, size=8, align=4, flat=2))
            return self.node(("option", e), lambda: self.mk_variant("CM_OPTION", [None, e], elem=e))
        if kind == "result":
            ok = self.resolve(scope, t[1]) if t[1] else None
            err = self.resolve(scope, t[2]) if t[2] else None
            return self.node(("result", ok, err),
                             lambda: self.mk_variant("CM_RESULT", [ok, err], elem=ok, elem2=err))
        if kind == "tuple":
            ms = [self.resolve(scope, m) for m in t[1]]
            def mk():
                first = len(self.members)
                self.members.extend(ms)
                s, a, f = self.record_layout(ms)
                return dict(kind="CM_TUPLE", n=len(ms), first=first, size=s, align=a, flat=f)
            return self.node(("tuple",) + tuple(ms), mk)
        raise WitError("type %r" % (t,))

    def handle(self, kind, res):
        ck = "CM_OWN" if kind == "own" else "CM_BORROW"
        return self.node((kind, res), lambda: dict(kind=ck, res=res, size=4, align=4, flat=1))

    def mk_variant(self, kind, cases, **kw):
        s, a, f = self.variant_layout(cases)
        return dict(kind=kind, size=s, align=a, flat=f, **kw)

    def cname(self, text):
        return re.sub(r"[^A-Za-z0-9]", "_", text)

    def run(self):
        # Every resource first, so that any interface may refer to any.
        for pkg in self.pkgs:
            for iface in pkg["ifaces"]:
                key = self.iface_key(pkg, iface)
                for item in iface["types"]:
                    if item[0] == "resource":
                        idx = len(self.resources)
                        c = "%s_%s" % (pkg["short"], item[1])
                        self.resources.append(("WP2_RES_" + self.cname(c).upper(), item[1],
                                               "wp2_%s_drop" % self.cname(c)))
                        self.res_index[(key, item[1])] = idx
                        self.named[(key, item[1])] = ("res", idx)
        # Then interfaces in dependency order (a `use` names an earlier one).
        pending = [(pkg, iface) for pkg in self.pkgs for iface in pkg["ifaces"] if iface["stable"]]
        done = set()
        while pending:
            progress = False
            for pkg, iface in list(pending):
                deps = [self.use_key(pkg, u[0]) for u in iface["uses"]]
                if all(d in done for d in deps):
                    self.interface(pkg, iface)
                    done.add(self.iface_key(pkg, iface))
                    pending.remove((pkg, iface))
                    progress = True
            if not progress:
                raise WitError("cyclic or unknown use in %s" %
                               ", ".join(self.iface_key(p, i) for p, i in pending))

    def iface_key(self, pkg, iface):
        base, ver = pkg["name"].split("@")
        return "%s/%s@%s" % (base, iface["name"], ver)

    def use_key(self, pkg, path):
        if ":" in path:
            return path
        base, ver = pkg["name"].split("@")
        return "%s/%s@%s" % (base, path, ver)

    def interface(self, pkg, iface):
        key = self.iface_key(pkg, iface)
        scope = {}
        inst = dict(name=key, first_func=len(self.funcs), first_res=len(self.hres),
                    first_type=len(self.types))
        for path, names in iface["uses"]:
            src = self.use_key(pkg, path)
            for n, alias in names:
                ref = self.named.get((src, n))
                if ref is None:
                    raise WitError("%s: use of unknown %s from %s" % (key, n, src))
                scope[alias] = ref
                self.named[(key, alias)] = ref  # a used name is visible to users of this one
                if ref[0] == "res":
                    self.hres.append((alias, ref[1]))
                else:
                    self.types.append((alias, ref))
        for item in iface["types"]:
            if item[0] == "resource":
                scope[item[1]] = ("res", self.res_index[(key, item[1])])
                self.hres.append((item[1], self.res_index[(key, item[1])]))
        # Named types may be used before they are defined (WIT.md): each is
        # defined on first use, or in order.
        self.later = {item[1]: item for item in iface["types"] if item[0] != "resource"}
        self.cur = (pkg, key)
        for item in iface["types"]:
            if item[0] != "resource" and item[1] in self.later:
                self.define(scope, self.later.pop(item[1]))
        funcs = []
        for item in iface["types"]:
            if item[0] == "resource":
                for wname, params, result, short in item[2]:
                    cres = self.cname("%s_%s" % (pkg["short"], item[1]))
                    funcs.append((wname, params, result, "wp2_%s_%s" % (cres, self.cname(short))))
        for name, params, result, _ in iface["funcs"]:
            funcs.append((name, params, result,
                          "wp2_%s_%s_%s" % (self.cname(pkg["short"]), self.cname(iface["name"]),
                                             self.cname(name))))
        for wname, params, result, cfn in funcs:
            ps = [(p, self.resolve(scope, t)) for p, t in params]
            first = self.add_fields(ps)
            r = self.resolve(scope, result) if result else None
            self.functypes.append((first, len(ps), r))
            self.funcs.append((wname, len(self.functypes) - 1, cfn))
            self.protos.append(cfn)
        inst["nfuncs"] = len(self.funcs) - inst["first_func"]
        inst["nres"] = len(self.hres) - inst["first_res"]
        inst["ntypes"] = len(self.types) - inst["first_type"]
        self.instances.append(inst)

    def define(self, scope, item):
        pkg, key = self.cur
        kind, name = item[0], item[1]
        prefix = "WP2_%s_%s_" % (self.cname(pkg["short"]).upper(), self.cname(name).upper())
        if kind == "alias":
            ref = self.resolve(scope, item[2])
        elif kind == "record":
            fs = [(f, self.resolve(scope, t)) for f, t in item[2]]
            first = self.add_fields(fs)
            s, a, fl = self.record_layout([t for _, t in fs])
            self.nodes.append(dict(kind="CM_RECORD", n=len(fs), first=first, size=s, align=a, flat=fl))
            ref = ("T", len(self.nodes) - 1)
        elif kind == "variant":
            cs = [(c, self.resolve(scope, t) if t else None) for c, t in item[2]]
            first = self.add_fields(cs)
            nd = self.mk_variant("CM_VARIANT", [t for _, t in cs])
            nd.update(n=len(cs), first=first)
            self.nodes.append(nd)
            ref = ("T", len(self.nodes) - 1)
            for i, (c, _) in enumerate(cs):
                self.labels.append((prefix + self.cname(c).upper(), str(i), "%s case" % name))
        elif kind == "enum":
            ls = [(c, None) for c, _ in item[2]]
            first = self.add_fields(ls)
            d = disc_size(len(ls))
            self.nodes.append(dict(kind="CM_ENUM", n=len(ls), first=first, size=d, align=d, flat=1))
            ref = ("T", len(self.nodes) - 1)
            for i, (c, _) in enumerate(ls):
                self.labels.append((prefix + self.cname(c).upper(), str(i), "%s label" % name))
        elif kind == "flags":
            ls = [(c, None) for c, _ in item[2]]
            if not 0 < len(ls) <= 32:
                raise WitError("%s: flags %s has %d labels" % (key, name, len(ls)))
            first = self.add_fields(ls)
            d = 1 if len(ls) <= 8 else 2 if len(ls) <= 16 else 4
            self.nodes.append(dict(kind="CM_FLAGS", n=len(ls), first=first, size=d, align=d, flat=1))
            ref = ("T", len(self.nodes) - 1)
            for i, (c, _) in enumerate(ls):
                self.labels.append((prefix + self.cname(c).upper(), "1u << %d" % i, "%s flag" % name))
        self.named[(key, name)] = ref
        scope[name] = ref
        self.types.append((name, ref))

    # ---- Output ----

    def tref(self, t):
        if t is None:
            return "WP2_NONE"
        if t[0] == "P":
            return "WP2_P(%s)" % PRIMS[t[1]]
        return "WP2_T(%d)" % t[1]

    def header(self):
        o = []
        o.append("/* wit_types.h — made by tools/witgen.py from the WIT of WASI 0.2.12")
        o.append("   (../shared/spec/wasi-wit/v0.2.12); do not edit: `make wit` remakes it. */")
        o.append("#ifndef WEFT_WASIP2_WIT_TYPES_H")
        o.append("#define WEFT_WASIP2_WIT_TYPES_H")
        o.append("")
        o.append('#include "../component/host.h"')
        o.append("")
        o.append("/* The resource types, one cm_resource of each per instance state. */")
        o.append("enum {")
        for i, (c, w, _) in enumerate(self.resources):
            o.append("    %s = %d, /* %s */" % (c, i, w))
        o.append("    WP2_RES_COUNT = %d" % len(self.resources))
        o.append("};")
        o.append("")
        o.append("/* Table sizes (wit_types.c). */")
        o.append("enum {")
        o.append("    WP2_NNODES = %d," % len(self.nodes))
        o.append("    WP2_NFIELDS = %d," % len(self.fields))
        o.append("    WP2_NMEMBERS = %d," % max(1, len(self.members)))
        o.append("    WP2_NFUNCTYPES = %d," % len(self.functypes))
        o.append("    WP2_NFUNCS = %d," % len(self.funcs))
        o.append("    WP2_NHRES = %d," % len(self.hres))
        o.append("    WP2_NTYPES = %d," % len(self.types))
        o.append("    WP2_NINSTANCES = %d" % len(self.instances))
        o.append("};")
        o.append("")
        o.append("/* Case, label and flag values of the named variants, enums and flags. */")
        o.append("enum {")
        for c, v, comment in self.labels:
            o.append("    %s = %s, /* %s */" % (c, v, comment))
        o.append("};")
        o.append("")
        o.append("/* The host functions (cli.c, io.c, clocks.c, random.c, filesystem.c) and resource destructors. */")
        for p in self.protos:
            o.append("weft_status %s(cm_host_call *call, const cm_val *args, cm_val *result, weft_error *err);" % p)
        for _, _, d in self.resources:
            o.append("weft_status %s(const cm_resource *rt, uint32_t rep, void *env, weft_error *err);" % d)
        o.append("")
        o.append("#endif")
        return "\n".join(o) + "\n"

    def source(self):
        o = []
        o.append("/* wit_types.c — made by tools/witgen.py from the WIT of WASI 0.2.12")
        o.append("   (../shared/spec/wasi-wit/v0.2.12); do not edit: `make wit` remakes it.")
        o.append("   Rows of the tables wasip2.h describes; ctx.c builds them into cm_valtype")
        o.append("   trees and cm_host_instances per instance state. */")
        o.append('#include "wasip2.h"')
        o.append("")
        o.append("const wp2_resource_desc wp2_resource_descs[WP2_RES_COUNT] = {")
        for c, w, d in self.resources:
            o.append('    [%s] = {"%s", %s},' % (c, w, d))
        o.append("};")
        o.append("")
        o.append("const wp2_node_desc wp2_node_descs[WP2_NNODES] = {")
        for i, n in enumerate(self.nodes):
            parts = [".kind = %s" % n["kind"]]
            if "n" in n:
                parts.append(".n = %d" % n["n"])
            if "first" in n:
                parts.append(".first = %d" % n["first"])
            parts.append(".elem = %s" % self.tref(n.get("elem")))
            parts.append(".elem2 = %s" % self.tref(n.get("elem2")))
            parts.append(".res = %d" % n.get("res", -1))
            parts.append(".size = %d, .align = %d, .flat = %d" % (n["size"], n["align"], n["flat"]))
            o.append("    /* %d */ {%s}," % (i, ", ".join(parts)))
        o.append("};")
        o.append("")
        o.append("const wp2_field_desc wp2_field_descs[WP2_NFIELDS] = {")
        for i, (name, t) in enumerate(self.fields):
            o.append('    /* %d */ {"%s", %s},' % (i, name, self.tref(t)))
        o.append("};")
        o.append("")
        o.append("const wp2_tref wp2_member_descs[WP2_NMEMBERS] = {")
        for t in self.members or [None]:
            o.append("    %s," % self.tref(t))
        o.append("};")
        o.append("")
        o.append("const wp2_functype_desc wp2_functype_descs[WP2_NFUNCTYPES] = {")
        for i, (first, n, r) in enumerate(self.functypes):
            o.append("    /* %d */ {%d, %d, %s}," % (i, first, n, self.tref(r)))
        o.append("};")
        o.append("")
        o.append("const wp2_func_desc wp2_func_descs[WP2_NFUNCS] = {")
        for name, ft, cfn in self.funcs:
            o.append('    {"%s", %d, %s},' % (name, ft, cfn))
        o.append("};")
        o.append("")
        o.append("const wp2_hres_desc wp2_hres_descs[WP2_NHRES] = {")
        for name, r in self.hres:
            o.append('    {"%s", %s},' % (name, self.resources[r][0]))
        o.append("};")
        o.append("")
        o.append("const wp2_field_desc wp2_type_descs[WP2_NTYPES] = {")
        for name, t in self.types:
            o.append('    {"%s", %s},' % (name, self.tref(t)))
        o.append("};")
        o.append("")
        o.append("const wp2_instance_desc wp2_instance_descs[WP2_NINSTANCES] = {")
        for inst in self.instances:
            o.append('    {"%s", %d, %d, %d, %d, %d, %d},' % (
                inst["name"], inst["first_func"], inst["nfuncs"], inst["first_res"], inst["nres"],
                inst["first_type"], inst["ntypes"]))
        o.append("};")
        return "\n".join(o) + "\n"


def main(argv):
    check = "--check" in argv[1:]
    pkgs = read_packages()
    for pkg in pkgs:
        pkg["ifaces"] = [i for i in pkg["ifaces"]
                         if "%s/%s" % (pkg["name"].split("@")[0], i["name"]) not in SKIP_INTERFACES]
    g = Gen(pkgs)
    g.run()
    outs = {OUT_H: g.header(), OUT_C: g.source()}
    bad = 0
    for path, text in outs.items():
        if check:
            try:
                with open(path, encoding="utf-8") as f:
                    same = f.read() == text
            except OSError:
                same = False
            if not same:
                print("%s differs from what tools/witgen.py makes now (run make wit)" % os.path.relpath(path, ROOT))
                bad += 1
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    if check:
        print("witgen: %d interfaces, %d functions, %d resources, %d type nodes" %
              (len(g.instances), len(g.funcs), len(g.resources), len(g.nodes)))
    return 1 if bad else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except WitError as e:
        print("witgen: %s" % e, file=sys.stderr)
        sys.exit(2)
