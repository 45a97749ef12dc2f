#!/bin/sh
# ctest smoke entry (label bench): run errseq_bench briefly and check that its
# CSV is well formed and that the operations that must not write the shared
# word did not (the benchmark probes that with the word's page read-only).
# usage: bench/check_output.sh path/to/errseq_bench
set -eu
bin=${1:?usage: $0 errseq_bench}
out=$(mktemp)
trap 'rm -f "$out"' EXIT

"$bin" --quick --runs 1 --truns 1 --ms 5 --threads 2 >"$out"
"$bin" --icount --iters 1000 >/dev/null

awk -F, '
function bad(msg) { print "check_output: line " NR ": " msg ": " $0; err = 1 }
NR == 1 {
	if ($0 != "test,impl,op,writer,threads,unit,median,min,max,runs,writes")
		bad("unexpected header")
	next
}
{
	if (NF != 11) bad("expected 11 fields")
	for (i = 7; i <= 9; i++)
		if ($i !~ /^[0-9]+(\.[0-9]+)?$/) bad("field " i " is not a number")
	if ($7 + 0 < $8 + 0 || $7 + 0 > $9 + 0) bad("median outside min..max")
	n[$1]++
	if ($1 == "single") {
		if ($11 != "yes" && $11 != "no") bad("writes is not yes/no")
		es = $2 ~ /^(liberrseq|kernel)(64)?$/
		ro = $3 ~ /^(empty|record0|set_unseen|check_same|check_changed|cna_same|report_same|fast_same|fast_changed|report_same_call)$/
		if (es && ro && $11 != "no") bad($2 " " $3 " wrote the shared word")
		if (es && !ro && $11 != "yes") bad($2 " " $3 " did not write")
	}
}
END {
	if (n["single"] != 78) { print "check_output: " n["single"] + 0 " single rows, want 78"; err = 1 }
	if (n["scaling"] != 12) { print "check_output: " n["scaling"] + 0 " scaling rows, want 12"; err = 1 }
	if (n["interference"] != 72) { print "check_output: " n["interference"] + 0 " interference rows, want 72"; err = 1 }
	exit err
}' "$out"
echo "check_output: ok ($(wc -l <"$out") lines)"
