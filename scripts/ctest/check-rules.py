#!/usr/bin/env python3
"""Hold every ctest test of a build tree to the project's test rules (HACKING.md, "Tests").

usage: check-rules.py [--labels DOC] BUILD_DIR [CTEST]  reads `CTEST --show-only=json-v1`
                                                       in BUILD_DIR
       check-rules.py [--labels DOC] --json FILE       reads that output from FILE

A test breaks the rules when it
  - sets WILL_FAIL: any failure passes it (a crash, a usage error, a binary that never
    started); run it under expect-fail.sh STATUS REGEX instead;
  - sets PASS_REGULAR_EXPRESSION: ctest then ignores the exit status, even the wrapper's;
    run it under expect-output.sh REGEX instead;
  - runs a script that can skip (one that says "exit 77" or "Exits 77") without
    SKIP_RETURN_CODE 77, or sets SKIP_RETURN_CODE to anything but 77;
  - inverts or tests an exit status by hand in an inline shell (sh -c '...; test $? -eq 1',
    '! cmd'): that checks the status but not the message; use expect-fail.sh;
  - with --labels DOC: has no label, or one that DOC's label table (rows "| `LABEL` | ...")
    does not list.
Each offender is one line "FAIL: TEST: why". Exit 0 if none, 1 otherwise, 2 on bad input.
"""
import json
import os
import re
import subprocess
import sys

WRAPPERS = ("expect-output.sh", "expect-fail.sh")
SKIPS = re.compile(r"\bexit 77\b|\bExits? 77\b")
BY_HAND = re.compile(r"\$\?|(^|[;&|(]\s*)!\s")


def usage():
    sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
    sys.exit(2)


def load(args):
    if len(args) == 2 and args[0] == "--json":
        with open(args[1]) as f:
            return json.load(f)
    if len(args) in (1, 2) and not args[0].startswith("-"):
        ctest = args[1] if len(args) == 2 else "ctest"
        out = subprocess.run([ctest, "--show-only=json-v1"], cwd=args[0], check=True,
                             stdout=subprocess.PIPE).stdout
        return json.loads(out)
    usage()


def documented_labels(doc):
    """The labels of DOC's label table: rows whose first cell is a `label`."""
    with open(doc) as f:
        labels = set(re.findall(r"^\| `([a-z0-9-]+)` \|", f.read(), re.M))
    if not labels:
        sys.stderr.write("check-rules.py: no label table in %s\n" % doc)
        sys.exit(2)
    return labels


def truthy(v):
    return v is True or str(v).upper() in ("1", "ON", "YES", "TRUE", "Y")


_skips = {}


def can_skip(path):
    """A script (by its own text) that may exit 77."""
    if path not in _skips:
        found = False
        if (os.path.isabs(path) and os.path.isfile(path)
                and os.path.basename(path) not in WRAPPERS
                and os.path.realpath(path) != os.path.realpath(__file__)):
            try:
                with open(path, "rb") as f:
                    head = f.read(200000)
                if head.startswith(b"#!") or path.endswith((".sh", ".py")):
                    found = bool(SKIPS.search(head.decode("utf-8", "replace")))
            except OSError:
                pass
        _skips[path] = found
    return _skips[path]


def offences(test, labels):
    props = {p["name"]: p["value"] for p in test.get("properties", [])}
    if labels is not None:
        mine = props.get("LABELS") or []
        if not mine:
            yield "no label (HACKING.md lists them)"
        for label in mine:
            if label not in labels:
                yield "label %s is not in the label table" % label
    cmd = [str(c) for c in test.get("command") or []]
    if "WILL_FAIL" in props and truthy(props["WILL_FAIL"]):
        yield "WILL_FAIL (passes on any failure): use expect-fail.sh STATUS REGEX"
    if props.get("PASS_REGULAR_EXPRESSION"):
        yield ("PASS_REGULAR_EXPRESSION (ctest then ignores the exit status): "
               "use expect-output.sh REGEX")
    skip = props.get("SKIP_RETURN_CODE")
    if skip is not None and str(skip) != "77":
        yield "SKIP_RETURN_CODE %s: a skip is exit 77" % skip
    skippers = [c for c in cmd if can_skip(c)]
    if skippers and skip is None:
        yield ("runs %s, which can skip (exit 77), without SKIP_RETURN_CODE 77"
               % os.path.basename(skippers[0]))
    if (len(cmd) >= 3 and os.path.basename(cmd[0]) in ("sh", "bash", "dash")
            and cmd[1] == "-c" and BY_HAND.search(cmd[2])):
        yield ("checks an exit status by hand in sh -c (not the message): "
               "use expect-fail.sh STATUS REGEX")


def main(argv):
    args = argv[1:]
    labels = None
    if args[:1] == ["--labels"]:
        if len(args) < 2:
            usage()
        labels = documented_labels(args[1])
        args = args[2:]
    data = load(args)
    tests = data.get("tests", [])
    bad = 0
    wrapped = 0
    for t in tests:
        cmd = t.get("command") or []
        if any(os.path.basename(str(c)) in WRAPPERS for c in cmd[:1]):
            wrapped += 1
        for why in offences(t, labels):
            print("FAIL: %s: %s" % (t.get("name"), why))
            bad += 1
    if bad:
        print("%d offence(s) against the test rules (HACKING.md, \"Tests\")" % bad)
        return 1
    print("ok: %d tests, %d under expect-output.sh/expect-fail.sh, none with WILL_FAIL or "
          "PASS_REGULAR_EXPRESSION, every skipping script with SKIP_RETURN_CODE 77%s"
          % (len(tests), wrapped, "" if labels is None else ", every label documented"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
