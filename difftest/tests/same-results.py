#!/usr/bin/env python3
"""same-results.py OLD_DIR NEW_DIR: do two campaigns' guests say the same?

Reads the res-*.log files (one per kernel and mode) of two campaign --out
directories of the same batches and compares every script's result, trace and
set-up-failure lines. Lines of "par" ops (a result "I.1") are left out: two
threads race there and the outcome may differ from run to run. Prints a count of
identical scripts, of scripts that differ only in par ops, and each script that
differs otherwise or is in one run only. Exit 1 when any does, 2 on bad input.
Used by difftest/speed-compare.sh; difftest/tests/same-results-bites.sh shows it
fails on a changed result.
"""
import glob, os, sys

def load(d):
    """script -> result and trace lines, per results file (kernel and mode)"""
    res = {}
    for f in sorted(glob.glob(os.path.join(d, 'res-*.log'))):
        cur = None
        for line in open(f, errors='replace'):
            line = line.rstrip('\n')
            if line.startswith('DT S '):
                cur = (os.path.basename(f), line.split()[2])
                if cur in res:
                    sys.exit(f'{f}: script {cur[1]} twice')
                res[cur] = []
            elif cur and line[:5] in ('DT R ', 'DT T ', 'DT X '):
                res[cur].append(line)
    return res

old, new = load(sys.argv[1]), load(sys.argv[2])
if not old:
    sys.exit('no results in ' + sys.argv[1])
bad = same = par_only = 0
for k in sorted(set(old) | set(new)):
    a, b = old.get(k), new.get(k)
    if a is None or b is None:
        print(f'{k[0]} {k[1]}: only in the {"new" if a is None else "old"} run')
        bad += 1
        continue
    if a == b:
        same += 1
        continue
    # a "par" op has a result "I.1"; its lines are left out
    par = {l.split()[2].split('.')[0] for l in a + b if l.startswith('DT R ') and '.' in l.split()[2]}
    keep = lambda ls: [l for l in ls if l.split()[2].split('.')[0] not in par]
    if keep(a) == keep(b):
        par_only += 1
    else:
        bad += 1
        print(f'{k[0]} {k[1]}: results differ')
        for l in sorted(set(keep(a)) ^ set(keep(b)))[:6]:
            print('   ', ('old ' if l in a else 'new ') + l)
print(f'scripts: {same} identical, {par_only} differ only in par ops, {bad} differ')
sys.exit(1 if bad else 0)
