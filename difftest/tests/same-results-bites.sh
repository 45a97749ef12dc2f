#!/usr/bin/env bash
# same-results.py (speed-compare.sh's agreement check) on a recorded guest log against
# copies of itself: identical passes; a changed result of a par op passes (races may go
# either way); a changed result of any other op, a missing script and a missing trace
# line must each fail. Prints "same-results: PASS" when all five went as they must.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rec=$here/../recordings/6.1/ext2/scenarios-stock.log
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/old"
cp "$rec" "$t/old/res-stock-ext2.log"
ok=1
case_() { # case_ NAME WANT(0|1) SED-SCRIPT
	local name=$1 want=$2 rc=0
	rm -rf "$t/new"
	mkdir -p "$t/new"
	sed "$3" "$rec" >"$t/new/res-stock-ext2.log"
	python3 "$here/same-results.py" "$t/old" "$t/new" >"$t/out" 2>&1 || rc=$?
	echo "$name: exit $rc (want $want): $(tail -n 1 "$t/out")"
	[ "$rc" = "$want" ] || { ok=0; cat "$t/out"; }
}
case_ identical 0 ''
# the first par op's second thread (line 189: "DT R 4.1 0 0") got EIO instead
case_ par-differs 0 '189s/^DT R 4\.1 0 0$/DT R 4.1 -1 EIO/'
# a plain op's result changed (line 4: "DT R 2 0 0")
case_ result-differs 1 '4s/^DT R 2 0 0$/DT R 2 -1 EIO/'
# the last script's lines gone
case_ script-missing 1 "$(grep -n '^DT S ' "$rec" | tail -n 1 | cut -d: -f1),\$d"
# the first trace line gone
case_ trace-missing 1 "$(grep -n '^DT T ' "$rec" | head -n 1 | cut -d: -f1)d"
[ $ok = 1 ] && echo "same-results: PASS" || { echo "same-results: FAIL"; exit 1; }
