#!/usr/bin/env bash
# Assert on a pgtest/run.sh table: the kernel keeps every committed row.
# usage: pgtest/check.sh --keep RESULTS.txt KERNEL
# For every row of KERNEL: the run worked; the error variants (evict, noevict, evict-xfs) really
# failed writes (io_errors > 0) and the noerror control did not, and its checkpoint
# succeeded; rows_after equals rows_committed with the same checksum. Each violation is
# one line "LOST: KERNEL VARIANT ..." or "BAD: ..."; exit 0 if none, 1 otherwise, 2 on
# bad input.
set -euo pipefail
if [ $# -ne 3 ] || [ "$1" != --keep ]; then
	echo "usage: $0 --keep RESULTS.txt KERNEL" >&2
	exit 2
fi
table=$2 kernel=$3
[ -f "$table" ] || { echo "BAD: no table $table" >&2; exit 2; }
awk -v k="$kernel" '
NR == 1 { next }
$1 != k { next }
{
	n++
	if ($3 == "FAILED-RUN") { print "BAD: " k " " $2 ": the guest run failed"; bad++; next }
	if ($2 == "noerror" && ($9 != 0 || $3 != "ok")) {
		print "BAD: " k " noerror: io_errors " $9 ", checkpoint " $3 " (control)"; bad++
	}
	if ($2 != "noerror" && $9 == 0) {
		print "BAD: " k " " $2 ": no I/O error in the kernel log: nothing was tested"; bad++
	}
	if ($6 != 0 || $7 != "same") {
		print "LOST: " k " " $2 ": " $6 " of " $4 " committed rows lost, checksum " $7 \
			", checkpoint " $3; bad++
	} else {
		print "kept: " k " " $2 ": " $5 " of " $4 " rows, checksum same, checkpoint " $3
	}
}
END {
	if (n == 0) { print "BAD: no rows for kernel " k; exit 2 }
	exit bad ? 1 : 0
}' "$table"
