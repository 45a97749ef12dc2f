#!/usr/bin/env bash
# usage: shards.sh BUILD OUTDIR
# campaign.sh --shard/--merge on the stock kernel: one run of a small budget, then the same
# budget as 2 shards merged. The shards must split the scripts between them, and the
# merged report must have the same exit status and the same tables as the single run:
# every class's ops and scripts, and its divergent scripts and their attribution, for
# both contracts. Divergences are not compared in classes with a `par` op and in the
# totals: two threads race there, and which one wins (so whether a script diverges, and
# which contract switch explains it) is the kernel's choice in each run (seen
# 2026-12-06: par-syncfs-meta on stock, syncfs_bdev_cursor in one run, several_switches
# in the other).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1 out=$2
rm -rf "$out"
c=("$here/../campaign.sh" --ci --kernels stock --fs ext2 --ops 60 --shrink-rounds 0
	--build "$build" --timeout 900)
st1=0 sa=0 sb=0 sm=0
"${c[@]}" --out "$out/one" || st1=$?
"${c[@]}" --shard 1/2 --out "$out/s1" || sa=$?
"${c[@]}" --shard 2/2 --out "$out/s2" || sb=$?
"$here/../campaign.sh" --merge "$out/s1,$out/s2" --out "$out/merged" --build "$build" || sm=$?
# classes of the single run's batch that race two threads (common/script.c, dt_script_class())
racy=$(awk '/^script / { c = $2; sub(/^scn\./, "", c); sub(/[.~].*/, "", c) }
	/^[[:space:]]*par[[:space:]]/ { print c }' "$out/one/batch-ext2.dt" | sort -u | tr '\n' ' ')
echo "classes with racing threads (divergences not compared): ${racy:-none}"
tables() { # the report's tables; divergences blanked for racy classes and the totals
	sed -n '/^## kernel/,/^\(## Divergences\|No divergences\)/p' "$1" |
		grep -v '^\(## Divergences\|No divergences\)' |
		awk -F' [|] ' -v OFS=' | ' -v racy=" $racy" '
			NF >= 5 && (index(racy, " " substr($1, 3) " ") || $1 == "| **total**") {
				$4 = "(race)"; $5 = "(race)" } { print }'
}
fail=0
n1=$(grep -c '^script ' "$out/one/batch-ext2.dt")
na=$(grep -c '^script ' "$out/s1/batch-ext2.dt")
nb=$(grep -c '^script ' "$out/s2/batch-ext2.dt")
echo "scripts: one run $n1, shards $na + $nb"
[ $((na + nb)) -eq "$n1" ] && [ "$na" -gt 0 ] && [ "$nb" -gt 0 ] || { echo "FAIL: the shards do not split the batch"; fail=1; }
# every script of the single run is in exactly one shard
diff <(grep '^script ' "$out/one/batch-ext2.dt" | sort) \
	<(cat "$out/s1/batch-ext2.dt" "$out/s2/batch-ext2.dt" | grep '^script ' | sort) >/dev/null ||
	{ echo "FAIL: the shards' scripts are not the single run's"; fail=1; }
if diff <(tables "$out/one/report.md") <(tables "$out/merged/report.md"); then
	echo "tables: the same ($(tables "$out/one/report.md" | grep -c '^| \*\*total') totals)"
else
	echo "FAIL: the merged tables differ from the single run's"; fail=1
fi
[ -n "$(tables "$out/one/report.md")" ] || { echo "FAIL: no table in the single run's report"; fail=1; }
echo "exit status: one run $st1, shards $sa $sb, merge $sm"
[ "$st1" = "$sm" ] || { echo "FAIL: the merge's exit status is not the single run's"; fail=1; }
tables "$out/merged/report.md" | grep '\*\*total'
[ $fail = 0 ] && echo "shards: PASS"
exit $fail
