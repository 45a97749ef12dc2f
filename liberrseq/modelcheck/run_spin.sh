#!/bin/sh
# run_spin.sh WORKDIR EXPECT [-DNAME[=VALUE]...]
#
# Generate, compile and run an exhaustive pan search of errseq.pml with the
# given defines, in WORKDIR. EXPECT is "pass" (errors: 0, full state space,
# no depth truncation) or "P<n>" (a violation of property n: the search runs
# with that property's assertions only, stops at the first error and prints
# the counterexample). Prints states, depth, time and memory either way.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
work=$1
expect=$2
shift 2

mkdir -p "$work"
cd "$work"
cp "$here/errseq.pml" errseq.pml

defs="$*"
case $expect in
pass)	;;
P[1-5])	defs="$defs -DONLY=${expect#P}" ;;
*)	echo "run_spin.sh: bad expectation $expect" >&2; exit 2 ;;
esac

echo "spin $defs -a errseq.pml"
# shellcheck disable=SC2086
spin $defs -a errseq.pml >spin.log 2>&1 || { cat spin.log; exit 2; }
# Exhaustive safety search: no bitstate, no hash compaction. COLLAPSE only
# compresses stored states, losslessly.
gcc -w -O2 -DSAFETY -DCOLLAPSE -DMEMLIM=4096 -o pan pan.c
if [ "$expect" = pass ]; then
	./pan -m1000000 -w24 >pan.out 2>&1 || true
else
	./pan -m1000000 -w24 -c1 >pan.out 2>&1 || true
fi

grep -E 'assertion violated|max search depth too small|out of memory' pan.out | head -5 || true
grep -E '^(Full statespace|State-vector)|states, stored|transitions|elapsed time|total actual memory' pan.out

errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' pan.out)
if grep -q 'max search depth too small' pan.out; then
	echo "FAIL: search truncated at the depth limit"
	exit 1
fi
if ! grep -q '^Full statespace search' pan.out; then
	echo "FAIL: not a full state space search"
	exit 1
fi

if [ "$expect" = pass ]; then
	if [ "$errors" = 0 ]; then
		echo "OK: errors: 0, search complete"
		exit 0
	fi
	spin $defs -t errseq.pml 2>&1 | grep -v '^ *$' | head -40
	echo "FAIL: $errors error(s)"
	exit 1
fi

if [ "$errors" != 0 ] && grep -q "assertion violated.*PROP${expect#P})" pan.out; then
	echo "counterexample (spin -t):"
	# shellcheck disable=SC2086
	spin $defs -t errseq.pml 2>&1 | grep -E '^ *[RW][0-9]|assertion' | \
		sed 's/^ */  /'
	echo "OK: violation of $expect found, as expected"
	exit 0
fi
echo "FAIL: expected a violation of $expect, found none"
exit 1
