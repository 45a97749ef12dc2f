#!/usr/bin/env bash
# usage: merge-errors.sh BUILD
# campaign.sh --merge without a guest, on made-up shard directories (BUILD: the cmake build
# tree, whose difftest report merges them): rows are summed
# per kernel, filesystem, contract and class (attribution counts and scripts not run too), and in the first
# table per kernel, mode and contract (ops/s: the shards' ops over their seconds), classes are
# printed by name, the exit status is the worst shard's; shards that are not of one
# campaign, a missing or a repeated shard are refused.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
C() { "$here/../campaign.sh" --build "$build" "$@"; }
mk() { # mk DIR SHARD STATUS [SEED]: campaign.info of a 2-shard campaign
	mkdir -p "$1"
	printf '%s\n' "seed=${4:-1}" ops=60 per=30 fs=ext2 kernels=stock line=6.1 contract= scenarios=1 bug= \
		"shard=$2" shards=2 wall=10 "status=$3" >"$1/campaign.info"
}
why() { echo "md_cursor:$1,keep_unseen:$2,several_switches:0,unexplained:0"; }
mk "$t/a" 1 0; mk "$t/b" 2 1
# (the last field: scripts the guest did not run, summed apart from the divergent ones)
printf 'stock\text2\tpatched\tscn\t10\t2\t1\t3\t%s\t1\n' "$(why 1 0)" >"$t/a/rows.tsv"
printf 'stock\text2\tpatched\trandom\t30\t1\t0\t0\t%s\t0\n' "$(why 0 0)" >>"$t/a/rows.tsv"
printf 'stock\text2\tpatched\tscn\t7\t1\t1\t2\t%s\t2\n' "$(why 0 1)" >"$t/b/rows.tsv"
printf 'stock\text2\tpatched\tbasic\t5\t1\t0\t0\t%s\t0\n' "$(why 0 0)" >>"$t/b/rows.tsv"
printf 'stock\text2\t40\t10\n' >"$t/a/speed.tsv"
printf 'stock\text2\t17\t5\n' >"$t/b/speed.tsv"
echo "script x" >"$t/a/div-stock-patched-ext2.dt"
echo "script y" >"$t/b/div-stock-patched-ext2.dt"
st=0
C --merge "$t/a,$t/b" --out "$t/m" >"$t/out" || st=$?
grep '^|' "$t/m/report.md" | grep -v -- '---'
echo "merge status $st"
grep -c '^script ' "$t/m/div-stock-patched-ext2.dt" | sed 's/^/divergent scripts kept: /'
refuse() { # refuse WHAT DIRS
	if C --merge "$2" --out "$t/r" >"$t/err" 2>&1; then
		echo "not refused: $1"
	else
		echo "refused $1: $(tail -n 1 "$t/err" | sed 's/.*--merge: //')"
	fi
}
mk "$t/c" 2 0 7
refuse "other seed" "$t/a,$t/c"
refuse "one shard missing" "$t/a"
refuse "shard repeated" "$t/a,$t/a"
refuse "not a campaign" "$t/a,$t"
if C --merge "$t/a,$t/b" --out "$t/b" >"$t/err" 2>&1; then
	echo "not refused: --out is a shard"
else
	echo "refused out is a shard: $(tail -n 1 "$t/err" | sed 's/.*--merge: //')"
fi
