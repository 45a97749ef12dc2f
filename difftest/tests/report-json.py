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
# liberrseq's errseq.h lays it out (bits 0-11 errno, 12 SEEN, 13-31 the counter); its
# judge rows are the judge outputs of DIR... (judge-*.txt) per kernel and mode, their
# counts the sums of the summaries, their lines every line of the outputs, one DIR's
# after another, read back (JUDGE's op, line, op text and violation; KNOWN's switches).
# Prints a summary; exits 1 naming the first thing that is not so.
import glob
import json
import os
import re
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
             "divergences", "judge", "minimal_scripts"], "the report")
    if j["format"] != "difftest report" or j["version"] != 1:
        fail("format %r version %r" % (j["format"], j["version"]))
    keys(j["campaign"], ["dirs", "merged", "status", "verdict", "failures", "wall_seconds",
                         "wall_longest", "info"], "campaign")
    verdict(j["campaign"], dirs)

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
    order = []
    for r in tsv:
        if (r[0], r[1]) not in order:
            order.append((r[0], r[1]))
    njudge = judge(j["judge"], dirs, order)
    print("json: %d rows, %d classes, %d divergences (rows.tsv: %d), %d not run (rows.tsv: %d), "
          "%d cut, %d errseq words decoded, %d minimal script file(s), %d judge row(s) of "
          "%d line(s)"
          % (len(rows), nclasses, got[0], ndiv, got[1], nrun,
             len(j["cut"]), words, len(j["minimal_scripts"]), len(j["judge"]), njudge))


SUMMARY = re.compile(r"judged (\d+) script\(s\) on (.*), ([^,]*): (\d+) breaking the contract"
                     r"(?: \((\d+) of them known deviations of (.*)\))?, (\d+) not judged, "
                     r"(\d+) ops judged$")
JUDGE = re.compile(r"JUDGE (\S+) op (\d+) \(line (\d+)\): (.*?): (lost|repeat|invented): (.+)$")


def verdict(got, dirs):
    """The campaign's verdict: failed when a directory's campaign.info says status=1; why,
    every reason its failures= names, each once (None when none has failures=)."""
    infos = [dict(l.rstrip("\n").split("=", 1) for l in open(os.path.join(d, "campaign.info")))
             for d in dirs]
    status = int(any(i["status"] != "0" for i in infos))
    if (got["status"], got["verdict"]) != (status, "failed" if status else "passed"):
        fail("campaign: status %r verdict %r, campaign.info says status %d"
             % (got["status"], got["verdict"], status))
    if not any("failures" in i for i in infos):
        if got["failures"] is not None:
            fail("campaign: failures %r, campaign.info has none" % got["failures"])
        return
    want = []
    for i in infos:
        for w in i.get("failures", "").split():
            if w not in want:
                want.append(w)
    have = [":".join([f["what"], f["kernel"]] + ([f["fs"]] if f["fs"] else []))
            for f in got["failures"]]
    if sorted(have) != sorted(want) or not all(f["text"] for f in got["failures"]):
        fail("campaign: failures %r, campaign.info says %r" % (got["failures"], want))


def judge(got, dirs, order):
    """The judge rows against the judge outputs of dirs, in order (the kernels and modes
    of rows.tsv, as it names them first); returns the lines checked."""
    want = {}
    for d in dirs:
        for f in sorted(glob.glob(os.path.join(d, "judge-*.txt"))):
            lines = open(f).read().splitlines()
            m = SUMMARY.match(lines[-1]) if lines else None
            if not m:
                fail("%s: no judge summary at its end" % f)
            k = (m.group(2), m.group(3))
            w = want.setdefault(k, {"judged": 0, "breaking": 0, "known": 0, "not_judged": 0,
                                    "ops": 0, "known_deviations_of": m.group(6), "lines": [],
                                    "files": []})
            for key, g in (("judged", 1), ("breaking", 4), ("known", 5), ("not_judged", 7),
                           ("ops", 8)):
                w[key] += int(m.group(g) or 0)
            w["files"].append(f)
            w["lines"] += [(l, f) for l in lines[:-1]]
    have = [(r["kernel"], r["fs"]) for r in got]
    if sorted(have) != sorted(want):
        fail("the judge rows %r are not the judge outputs' kernels and modes %r"
             % (have, list(want)))
    rank = lambda k: order.index(k) if k in order else len(order)
    if [rank(k) for k in have] != sorted(rank(k) for k in have):
        fail("the judge rows %r are not in the order of the rows' kernels and modes" % have)
    n = 0
    for r in got:
        where = "judge %s %s" % (r["kernel"], r["fs"])
        keys(r, ["kernel", "fs", "known_deviations_of", "judged", "breaking", "known",
                 "not_judged", "ops", "fails_campaign", "files", "lines"], where)
        w = want[(r["kernel"], r["fs"])]
        if w["known_deviations_of"] is None:
            w["known"] = None
        for key in ("judged", "breaking", "known", "not_judged", "ops", "known_deviations_of",
                    "files"):
            if r[key] != w[key]:
                fail("%s: %s %r, the outputs say %r" % (where, key, r[key], w[key]))
        fails = r["not_judged"] > 0 or (r["known"] is None and r["breaking"] > 0)
        if r["fails_campaign"] != fails:
            fail("%s: fails_campaign %r" % (where, r["fails_campaign"]))
        if [(l["text"], l["file"]) for l in r["lines"]] != w["lines"]:
            fail("%s: its lines are not the outputs' lines, one after another" % where)
        for l in r["lines"]:
            keys(l, ["kind", "script", "op", "line", "op_text", "violation", "switches", "what",
                     "text", "file"], "%s: line %s" % (where, l["text"]))
            word, name = l["text"].split(" ", 2)[:2]
            kind = {"JUDGE": "judge", "UNJUDGED": "unjudged", "KNOWN": "known",
                    "UNEXPLAINED": "unexplained"}.get(word)
            if l["kind"] != kind or l["script"] != name.rstrip(":"):
                fail("%s: %r read as %s %s" % (where, l["text"], l["kind"], l["script"]))
            m = JUDGE.match(l["text"])
            if kind == "judge" and (not m or (l["op"], l["line"], l["op_text"], l["violation"],
                                              l["what"]) != (int(m.group(2)), int(m.group(3)),
                                                             m.group(4), m.group(5), m.group(6))):
                fail("%s: %r read as %r" % (where, l["text"], l))
            if kind == "known" and "+".join(l["switches"]) != l["text"].split(" [", 1)[1][:-1]:
                fail("%s: %r read as switches %r" % (where, l["text"], l["switches"]))
            why = "%s %s: %s" % (word, l["script"], l["what"])
            if kind in ("unjudged", "unexplained") and l["text"] != why:
                fail("%s: %r read as %r" % (where, l["text"], l["what"]))
            n += 1
    return n


main()
