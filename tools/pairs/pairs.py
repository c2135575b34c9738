#!/usr/bin/env python3
"""pairs.py — profiles the pair corpus and chooses the super-instructions.

  pairs.py profile --weft W --out DIR [--small] [NAME...]
      Runs each program of bench/corpus/list (or the NAMEs) under W, a weft
      built with -DWEFT_PROFILE_PAIRS=1 (src/exec/profile.c), checks its
      output and keeps its pair counts in DIR/NAME.txt. --small runs the
      small builds of bench/'s programs (tests/pairs/wasm/NAME.wasm, the
      same sources with fewer iterations) instead of bench/wasm/: the
      shares of a program's dispatches barely change, the profile takes
      a fraction of the time.

  pairs.py select DIR [--keep FILE] [--max-pairs N] [--max-compile-seconds S]
                  [--cap C] [--min-weight W] [--out FILE] [--report FILE]
      Chooses pairs from the profiles in DIR (one NAME.txt per program) and
      writes the generated list FILE (default src/compile/pairs_list.h): a
      CMP_PAIR_OPS(X) of rows X(FIRST, SECOND, SEQ|TAIL), each with its
      weight and the programs it came from.

How a pair is weighed. A program's count of a pair (fall-through
dispatches of FIRST followed by SECOND, profile.c) is divided by all of
that program's dispatches: its share, the fraction of the program's
dispatches the pair would save. The pair's weight is the mean over the
corpus of the shares, each capped at C (default 2 %), so that no single
program decides: a pair that is 16 % of one program's dispatches counts
like one that is 2 % of it. Pairs are taken by weight, largest first,
while the weight is at least W (default 0.05 %), until N pairs (default
200) or until the modelled compile time of src/exec/interp.c reaches S
seconds (default 90; the model is below). --keep FILE starts from the
rows of an earlier generated list (a second round: its profile was made
with those pairs in place, so what it shows is what is left to pair).

Only operations that have a pairable handler can be paired: those in
CMP_PAIR_INPUTS (src/compile/ops.h, read from there), whose handlers are
written as BODY_<name> in src/exec/interp.c; with the one operations table
(CMP_OPS), every non-SIMD row. A pair whose second is a call
or return is TAIL (the first's body, then a jump to the second's
handler); every other pair is SEQ (both bodies, with two dependent
forms). A first that never falls through (br, br_table, return, calls)
starts no pair. The report (--report, default stdout) lists the chosen
pairs and the heaviest pairs left out, among them those of operations
that are not pairable yet.

Compile-time model (GCC 12, -O2 -g, one compile of interp.c, measured on
the 2-core reference machine in issue 22): 20 s without pairs, 89 s with
the 560 handlers of 189 pairs, so about 20 s + 0.123 s per handler; a SEQ
pair has 3 handlers, a TAIL pair 1.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import time

TOOLS_DIR = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(TOOLS_DIR))
LIST = os.path.join(REPO, "bench", "corpus", "list")
OPS_H = os.path.join(REPO, "src", "compile", "ops.h")
PAIR_LIST = os.path.join(REPO, "src", "compile", "pairs_list.h")

# Operations after which execution never falls through to the next one.
NO_FALL_THROUGH = {"BR", "BR_TABLE", "RETURN", "CALL_INTERNAL", "CALL_INDIRECT"}
# Seconds that leave the loop's straight line: their pairs are TAIL.
TAIL_SECONDS = {"RETURN", "CALL_INTERNAL", "CALL_INDIRECT"}

COMPILE_BASE_S = 20.0
COMPILE_PER_HANDLER_S = 0.123


def corpus_dir():
    return os.environ.get("WEFT_CORPUS", os.path.join(REPO, "bench", "corpus", "cache"))


def read_list(path=LIST):
    """The corpus: [(name, wasm, args, expected)] with $REPO and $CORPUS expanded."""
    progs = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split("|")]
            if len(fields) != 4:
                sys.exit("%s: bad line (want NAME | WASM | ARGS | EXPECTED): %s" % (path, line))
            expand = lambda s: s.replace("$REPO", REPO).replace("$CORPUS", corpus_dir())
            name, wasm, args, expected = fields
            progs.append((name, expand(wasm), shlex.split(args), expand(expected)))
    return progs


def pairable_ops(ops_h=OPS_H):
    """Operation names that can be paired: those listed in CMP_PAIR_INPUTS;
    with the one operations table (CMP_OPS, where every operation is a
    body with its inputs in its shape), every row but the SIMD ones."""
    text = open(ops_h).read()
    m = re.search(r"#define CMP_PAIR_INPUTS\(X\)(.*?)\n\n", text, re.S)
    if m:
        return set(re.findall(r"X\((\w+), \d+, \d+, \d+\)", m.group(1)))
    m = re.search(r"#define CMP_OPS\(X\)(.*?)\n\n", text, re.S)
    if not m:
        sys.exit("%s: neither CMP_PAIR_INPUTS nor CMP_OPS" % ops_h)
    rows = re.findall(r"X\((\w+),\s*[-\w]+,\s*(\w+),", m.group(1))
    return {name for name, cls in rows if cls != "SIMD"}


def cmd_profile(a):
    os.makedirs(a.out, exist_ok=True)
    progs = read_list()
    if a.names:
        unknown = set(a.names) - {p[0] for p in progs}
        if unknown:
            sys.exit("pairs.py: not in the corpus: %s" % " ".join(sorted(unknown)))
        progs = [p for p in progs if p[0] in a.names]
    failed = 0
    for name, wasm, args, expected in progs:
        small = os.path.join(REPO, "tests", "pairs", "wasm", os.path.basename(wasm))
        check = expected
        if a.small and wasm.startswith(os.path.join(REPO, "bench", "wasm")) and os.path.exists(small):
            wasm = small
            check = os.path.join(REPO, "tests", "pairs", "expected", name + ".txt")
        cwd = os.path.join(corpus_dir(), "data", name)
        os.makedirs(cwd, exist_ok=True)
        out = os.path.join(os.path.abspath(a.out), name + ".txt")
        env = dict(os.environ, WEFT_PROFILE_PAIRS_OUT=out)
        t0 = time.time()
        p = subprocess.run([a.weft, "run", "--dir", ".::/", wasm] + args, cwd=cwd, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        ok = p.returncode == 0 and p.stdout == open(check, "rb").read()
        print("%-10s %s %6.1f s  %s" % (name, "ok  " if ok else "FAIL", time.time() - t0,
                                         os.path.relpath(wasm, REPO) if wasm.startswith(REPO) else wasm),
              flush=True)
        if not ok:
            failed += 1
            sys.stderr.write("  exit %d, stderr: %s\n" % (p.returncode, p.stderr[:300]))
    return 1 if failed else 0


def read_profile(path):
    """(dispatches, {(first, second): count}) of one profile.c dump; a
    dependent form counts as its pair."""
    total, counts = 0, {}
    with open(path) as f:
        for line in f:
            if line.startswith("# dispatches"):
                total = int(line.split()[2])
                continue
            if line.startswith("#"):
                continue
            c, first, second = line.split()
            key = (re.sub(r":[12]$", "", first), re.sub(r":[12]$", "", second))
            counts[key] = counts.get(key, 0) + int(c)
    return total, counts


def read_rows(path):
    """The rows (first, second, how, comment) of a generated pair list."""
    rows = []
    for line in open(path):
        m = re.match(r"\s*X\((\w+), (\w+), (SEQ|TAIL)\)\s*(/\*.*?\*/)?", line)
        if m:
            rows.append((m.group(1), m.group(2), m.group(3), m.group(4) or ""))
    return rows


def handlers(how):
    return 3 if how == "SEQ" else 1


def cmd_select(a):
    pairable = pairable_ops()
    profiles = {}
    for fn in sorted(os.listdir(a.dir)):
        if fn.endswith(".txt"):
            profiles[fn[:-4]] = read_profile(os.path.join(a.dir, fn))
    if not profiles:
        sys.exit("pairs.py: no profiles (NAME.txt) in %s" % a.dir)
    names = sorted(profiles)
    shares = {}  # (first, second) -> {program: share}
    for prog, (total, counts) in profiles.items():
        for (first, second), c in counts.items():
            if "+" in first:
                continue  # already a pair: pairs do not chain
            second = second.split("+")[0]  # a pair word starts with its first
            shares.setdefault((first, second), {})
            shares[(first, second)][prog] = shares[(first, second)].get(prog, 0) + c / max(total, 1)
    weight = {k: sum(min(s, a.cap) for s in v.values()) / len(names) for k, v in shares.items()}

    def usable(k):
        f, s = k
        return f in pairable and s in pairable and f not in NO_FALL_THROUGH

    def describe(k):
        """Weight and programs of pair k: "0.123 %: vm 4.10, ...", shares in %."""
        if k not in shares:
            return "not seen in this profile"
        top = sorted(shares[k].items(), key=lambda x: -x[1])
        src = ", ".join("%s %.2f" % (p, s * 100) for p, s in top if s >= 0.0005) or \
            "%s %.3f" % (top[0][0], top[0][1] * 100)
        return "%.3f %%: %s" % (weight[k] * 100, src)

    kept = read_rows(a.keep) if a.keep else []
    # A kept row keeps its comment; one without gets its weight in this
    # profile (meaningful when the profile was made without those pairs).
    chosen = [(f, s, how, comment or "/* kept (%s); %s */" % (os.path.basename(a.keep), describe((f, s))))
              for f, s, how, comment in kept]
    have = {(f, s) for f, s, _, _ in chosen}
    seconds = COMPILE_BASE_S + COMPILE_PER_HANDLER_S * sum(handlers(r[2]) for r in chosen)
    ranked = sorted(weight, key=lambda k: -weight[k])
    left_out = []
    stop = None
    for k in ranked:
        if k in have:
            continue
        if not usable(k):
            left_out.append((k, "not pairable"))
            continue
        if stop:
            left_out.append((k, stop))
            continue
        if weight[k] < a.min_weight:
            stop = "below --min-weight"
            left_out.append((k, stop))
            continue
        how = "TAIL" if k[1] in TAIL_SECONDS else "SEQ"
        if len(chosen) >= a.max_pairs:
            stop = "over --max-pairs"
            left_out.append((k, stop))
            continue
        if seconds + COMPILE_PER_HANDLER_S * handlers(how) > a.max_compile_seconds:
            stop = "over --max-compile-seconds"
            left_out.append((k, stop))
            continue
        seconds += COMPILE_PER_HANDLER_S * handlers(how)
        chosen.append((k[0], k[1], how, "/* %s */" % describe(k)))
        have.add(k)

    write_list(a, chosen, names, seconds)
    report(a, chosen, left_out, weight, shares, profiles, seconds)
    return 0


def write_list(a, chosen, names, seconds):
    lines = [
        "/* Generated by tools/pairs/pairs.py select (tools/pairs/count.sh); do not",
        "   edit by hand: re-run the tool (bench/README.md, \"Choosing the pairs\").",
        "",
        "   The super-instructions: X(FIRST, SECOND, SEQ|TAIL), see CMP_PAIR_OPS in",
        "   ops.h. After each row, its weight (the mean over the corpus of the share",
        "   of each program's dispatches that the pair saves, each share capped at",
        "   %.1f %%) and the programs it came from, with the per cent of each one's" % (a.cap * 100),
        "   dispatches (those over 0.05 %). Rows from an earlier round (--keep) keep",
        "   their comments.",
        "",
        "   Corpus (bench/corpus/list): %s." % ", ".join(names),
        "   Budget: at most %d pairs, %.0f s modelled compile time of interp.c;"
        % (a.max_pairs, a.max_compile_seconds),
        "   minimum weight %.3f %%. This list: %d pairs, %d handlers, about %.0f s."
        % (a.min_weight * 100, len(chosen), sum(handlers(r[2]) for r in chosen), seconds),
        " */",
        "#ifndef WEFT_COMPILE_PAIR_LIST_H",
        "#define WEFT_COMPILE_PAIR_LIST_H",
        "",
        "#define CMP_PAIR_OPS(X) \\",
    ]
    for i, (f, s, how, comment) in enumerate(chosen):
        row = "    X(%s, %s, %s)" % (f, s, how)
        if comment:
            row += " " + comment
        lines.append(row + (" \\" if i + 1 < len(chosen) else ""))
    lines += ["", "#endif"]
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")


def report(a, chosen, left_out, weight, shares, profiles, seconds):
    out = open(a.report, "w") if a.report else sys.stdout
    w = lambda s="": out.write(s + "\n")
    w("pairs.py select: %d pairs (%d handlers, modelled interp.c compile %.0f s) -> %s"
      % (len(chosen), sum(handlers(r[2]) for r in chosen), seconds, os.path.relpath(a.out, REPO)))
    w()
    w("share of each program's dispatches that the chosen pairs save (from this profile):")
    chosen_keys = {(f, s) for f, s, _, _ in chosen}
    for prog, (total, counts) in sorted(profiles.items()):
        saved = sum(c for (f, s), c in counts.items()
                    if "+" not in f and (f, s.split("+")[0]) in chosen_keys)
        w("  %-10s %14d dispatches, %5.1f %% fall-through pairs chosen" % (prog, total, 100 * saved / max(total, 1)))
    w()
    w("heaviest pairs left out (weight %, why, top programs):")
    for k, why in left_out[:40]:
        top = sorted(shares[k].items(), key=lambda x: -x[1])[:3]
        w("  %-40s %6.3f  %-26s %s" % ("%s+%s" % k, weight[k] * 100, why,
                                        ", ".join("%s %.2f" % (p, s * 100) for p, s in top)))
    if out is not sys.stdout:
        out.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("profile")
    p.add_argument("--weft", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--small", action="store_true")
    p.add_argument("names", nargs="*")
    s = sub.add_parser("select")
    s.add_argument("dir")
    s.add_argument("--keep")
    s.add_argument("--max-pairs", type=int, default=200)
    s.add_argument("--max-compile-seconds", type=float, default=90)
    s.add_argument("--cap", type=float, default=0.02)
    s.add_argument("--min-weight", type=float, default=0.0005)
    s.add_argument("--out", default=PAIR_LIST)
    s.add_argument("--report")
    a = ap.parse_args()
    return cmd_profile(a) if a.cmd == "profile" else cmd_select(a)


if __name__ == "__main__":
    sys.exit(main())
