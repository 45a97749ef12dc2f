#!/usr/bin/env bash
# usage: trace-losses.sh BUILD OUT
# Events the guest kernel's trace ring buffer loses are counted, never passed as a clean
# trace: a campaign on stock ext2 with a 4 KiB buffer per CPU (DT_TRACE_KB=4) and a
# script whose fsync records 256 failures (tests/user/trace-losses.dt). It must say how
# many the ring buffer lost (the guest's "DT I trace-losses" line, from the buffer's own
# overrun and dropped counts), compare must call the script INCOMPLETE (exit 3), and the
# judge must not judge it. Exit 0: all three held.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1 out=$2
rc=0
DT_TRACE_KB=4 "$here/../campaign.sh" --kernels stock --contract stock --fs ext2 --ops 0 \
	--no-scenarios --script "$here/user/trace-losses.dt" --shrink-rounds 0 \
	--build "$build" --out "$out" --timeout 900 || rc=$?
fail() { echo "FAIL: $*"; exit 1; }
[ $rc -eq 1 ] || fail "campaign exit status $rc, want 1 (the guest did not run every script as asked)"
n=$(cat "$out"/console-stock-*.log 2>/dev/null | sed -n 's/^DT I trace-losses trace.losses \([0-9]*\)$/\1/p' | head -n1)
[ -n "$n" ] && [ "$n" -gt 0 ] || fail "no 'DT I trace-losses trace.losses N' line with N > 0 in the console logs"
d=$(sed -n 's/^INCOMPLETE trace.losses: guest dropped \([0-9]*\) trace event.*/\1/p' "$out"/compare-stock-stock-ext2.txt)
[ -n "$d" ] || fail "compare did not call trace.losses INCOMPLETE: $(cat "$out"/compare-stock-stock-ext2.txt)"
# the op's lost events hold the ring buffer's: more than it lost
[ "$d" -ge "$n" ] || fail "the op's lost count $d is less than the $n the ring buffer lost"
grep -q '^UNJUDGED trace.losses: op 12: trace events lost' "$out"/judge-stock-ext2.txt ||
	fail "judge did not leave trace.losses unjudged: $(cat "$out"/judge-stock-ext2.txt)"
echo "trace-losses: the ring buffer lost $n event(s); compare INCOMPLETE, judge UNJUDGED: PASS"
