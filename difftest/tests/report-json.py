#!/usr/bin/env python3
# usage: report-json.py REPORT.json ROWS.tsv DIR...
# Checks difftest report's JSON against what it was made from: ROWS.tsv (the campaign's
# rows, a merge's summed) and the compare outputs in DIR... (compare-*.txt but
# compare-final-*). Every key the JSON promises is there; its rows are the first table
# (kernel, mode, contract: the sums of ROWS.tsv, in its order), each row's classes are
# ROWS.tsv's lines; its divergences are every DIVERGE line of the compare outputs, as
# many as ROWS.tsv's divergent scripts, and every MISSING, INCOMPLETE, NOTRACE and SETUP
# line, as many as its scripts not run (per kernel, mode and contract too), none of them
# attributed; its cut scripts every CUT line; each errseq word of a trace decoded as
# liberrseq's errseq.h lays it out (bits 0-11 errno, 12 SEEN, 13-31 the counter). Prints
# a summary; exits 1 naming the first thing that is not so.
import glob
import json
import os
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def keys(obj, want, where):
    if not isinstance(obj, dict):
        fail("%s: not an object: %r" % (where, obj))
    missing = [k for k in want if k not in obj]
    if missing:
        fail("%s: no %s" % (where, ", ".join(missing)))


def main():
    report, rows_tsv, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
    j = json.load(open(report))
    keys(j, ["format", "version", "generated", "line", "campaign", "rows", "wall", "cut",
             "divergences", "minimal_scripts"], "the report")
    if j["format"] != "difftest report" or j["version"] != 1:
        fail("format %r version %r" % (j["format"], j["version"]))
    keys(j["campaign"], ["dirs", "merged", "status", "wall_seconds", "wall_longest", "info"],
         "campaign")

    tsv = [l.rstrip("\n").split("\t") for l in open(rows_tsv)]
    groups = {}
    for r in tsv:
        if len(r) != 10:
            fail("rows.tsv: %d fields, want 10: %r" % (len(r), r))
        g = groups.setdefault(tuple(r[:3]), [0, 0, 0, 0, 0, []])
        why = dict((k, int(v)) for k, v in (w.rsplit(":", 1) for w in r[8].split(",")))
        for i in range(3):
            g[i] += int(r[4 + i])
        g[3] += why.get("unexplained", 0)
        g[4] += int(r[9])
        g[5].append((r[3], int(r[4]), int(r[5]), int(r[6]), int(r[7]), why, int(r[9])))
    rows = j["rows"]
    if [(r["kernel"], r["fs"], r["contract_full"]) for r in rows] != list(groups):
        fail("the rows are not rows.tsv's kernels, modes and contracts, in its order")
    nclasses = 0
    for r in rows:
        where = "row %s %s %s" % (r["kernel"], r["fs"], r["contract"])
        keys(r, ["kernel", "fs", "contract", "contract_full", "ops", "scripts", "divergent",
                 "attributed", "unexplained", "not_run", "guest", "classes"], where)
        ops, scripts, div, un, nr, classes = groups[(r["kernel"], r["fs"], r["contract_full"])]
        got = (r["ops"], r["scripts"], r["divergent"], r["attributed"], r["unexplained"],
               r["not_run"])
        if got != (ops, scripts, div, div - un, un, nr):
            fail("%s: %r, rows.tsv sums to %r" % (where, got, (ops, scripts, div, div - un, un,
                                                               nr)))
        if r["contract"] != r["contract_full"].split(" ")[0]:
            fail("%s: contract %r of %r" % (where, r["contract"], r["contract_full"]))
        want = sorted(classes)
        gotc = [(c["class"], c["ops"], c["scripts"], c["divergent"], c["divergent_ops"],
                 c["attribution"], c["not_run"]) for c in r["classes"]]
        if gotc != want:
            fail("%s: its classes are not rows.tsv's (by name)" % where)
        nclasses += len(gotc)
    if nclasses != len(tsv):
        fail("%d classes, rows.tsv has %d lines" % (nclasses, len(tsv)))

    # the compare outputs' lines
    lines, cuts = [], []
    for d in dirs:
        for f in sorted(glob.glob(os.path.join(d, "compare-*.txt"))):
            if os.path.basename(f).startswith("compare-final-"):
                continue
            for l in open(f):
                l = l.rstrip("\n")
                for word, kind in (("DIVERGE ", "divergent"), ("MISSING ", "missing"),
                                   ("INCOMPLETE ", "incomplete"), ("NOTRACE ", "no trace"),
                                   ("SETUP ", "setup")):
                    if l.startswith(word):
                        lines.append((kind, l[len(word):]))
                if l.startswith("CUT "):
                    cuts.append(l[4:].split(":")[0])
    divs = j["divergences"]
    ndiv = sum(int(r[6]) for r in tsv)
    nrun = sum(int(r[9]) for r in tsv)
    if len(divs) != len(lines):
        fail("%d divergences in the JSON, %d in the compare outputs" % (len(divs), len(lines)))
    nd = sum(kind == "divergent" for kind, _ in lines)
    got = (nd, len(lines) - nd)
    if got != (ndiv, nrun):
        fail("the compare outputs have %d DIVERGE and %d MISSING, INCOMPLETE, NOTRACE or SETUP "
             "lines; rows.tsv %d divergent scripts and %d not run" % (got + (ndiv, nrun)))
    per, pern = {}, {}
    words = 0
    for d, (kind, line) in zip(divs, lines):
        where = "divergence %s" % d.get("script")
        keys(d, ["kernel", "fs", "contract", "contract_full", "kind", "script", "class",
                 "attributed_to", "op", "line", "op_text", "model", "observed", "note",
                 "text", "file"], where)
        at = (d["kernel"], d["fs"], d["contract_full"])
        if kind == "divergent":
            per[at] = per.get(at, 0) + 1
        else:
            pern[at] = pern.get(at, 0) + 1
        if d["kind"] != kind:
            fail("%s: kind %s, compare says %s" % (where, d["kind"], kind))
        if kind == "divergent":
            why = line.split(" [", 1)[1].split("]: ", 1)[0]
            want = [] if why == "unexplained" else why.split("+")
            if d["attributed_to"] != want or not line.endswith(d["text"]):
                fail("%s: not compare's line: %s" % (where, line))
            if d["model"] is None or d["observed"] is None:
                fail("%s: its results were not read: %s" % (where, d["text"]))
        elif d["attributed_to"] is not None:
            fail("%s: a script the guest did not run or finish is attributed" % where)
        for side in ("model", "observed"):
            if d[side] is None:
                continue
            for e in d[side]["trace"] or []:
                for w in [e.get("word"), e.get("old"), e.get("new")]:
                    if w is None:
                        continue
                    v = int(w["word"], 16)
                    if (w["errno_value"], w["seen"], w["counter"]) != \
                            (v & 0xfff, bool(v & 0x1000), v >> 13):
                        fail("%s: %s decoded as %r" % (where, w["word"], w))
                    if (w["errno"] is None) != (v & 0xfff == 0):
                        fail("%s: %s's errno name %r" % (where, w["word"], w["errno"]))
                    words += 1
    for k, (_, _, div, _, nr, _) in groups.items():
        if per.get(k, 0) != div:
            fail("%s: %d divergences, rows.tsv has %d" % (" ".join(k), per.get(k, 0), div))
        if pern.get(k, 0) != nr:
            fail("%s: %d scripts not run, rows.tsv has %d" % (" ".join(k), pern.get(k, 0), nr))
    if sorted(c["script"] for c in j["cut"]) != sorted(cuts):
        fail("the cut scripts are not the compare outputs' CUT lines")
    for c in j["cut"]:
        keys(c, ["kernel", "fs", "contract", "contract_full", "script", "from_op", "to_op",
                 "why", "file"], "cut %s" % c.get("script"))
    for m in j["minimal_scripts"]:
        keys(m, ["name", "from", "scripts", "text"], "minimal script")
    print("json: %d rows, %d classes, %d divergences (rows.tsv: %d), %d not run (rows.tsv: %d), "
          "%d cut, %d errseq words decoded, %d minimal script file(s)"
          % (len(rows), nclasses, got[0], ndiv, got[1], nrun,
             len(j["cut"]), words, len(j["minimal_scripts"])))


main()
