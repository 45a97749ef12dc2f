#!/usr/bin/env bash
# usage: make-judged.sh DIFFTEST OUT
# Makes OUT (tests/report/judged/: report.sh's "judged" case holds the committed one to
# what this makes now) a campaign's --out directory as campaign.sh leaves it after the
# report's inputs: campaign.info, rows.tsv, speed.tsv, wall.tsv, compare-*.txt,
# div-*.dt and judge-*.txt, from guest results recorded on 6.1 (recordings/6.1, ext2 and
# ext4-ordered) compared and judged by lib.sh's dt_judge and dt_contract_check, as
# campaign.sh calls them:
#   stock    the scenarios, held to its own contract; judged with the patched
#            contract's switches as known deviations
#   patched  held to its own contract; on ext2 its log cut in the middle of scn.sfr (the
#            guest stopped: the rest not run, not judged), on ext4-ordered the evicted
#            error's report removed (scenarios-patched-tampered-evict-lost: the kernel
#            breaks the contract itself, an error lost, and diverges from its model)
# DIFFTEST: the host tool.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
DT=$1 out=$2
rec=$here/../../recordings/6.1
# shellcheck source=../../lib.sh
. "$here/../../lib.sh"
progress() { :; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
st=0
fss=(ext2 ext4-ordered)
for fs in "${fss[@]}"; do
	cp "$rec/ext2/scenarios-stock.dt" "$w/batch-$fs.dt"
	cp "$rec/$fs/scenarios-stock.log" "$w/res-stock-$fs.log"
done
dt_contract_check "$DT" "$w" stock 6.1 stock "${fss[@]}" || st=1
dt_judge "$DT" "$w" stock stock stock,linux=6.1 1 "" "${fss[@]}" || st=1
# the patched kernel's scenarios were those of its day: its batch
for fs in "${fss[@]}"; do cp "$rec/ext2/scenarios-patched.dt" "$w/batch-$fs.dt"; done
head -n 560 "$rec/ext2/scenarios-patched.log" >"$w/res-patched-ext2.log"
cp "$rec/ext4-ordered/scenarios-patched-tampered-evict-lost.log" "$w/res-patched-ext4-ordered.log"
dt_contract_check "$DT" "$w" patched 6.1 patched "${fss[@]}" || st=1
dt_judge "$DT" "$w" patched patched patched,linux=6.1 1 "" "${fss[@]}" || st=1
mkdir -p "$out"
rm -f "$out"/*
cp "$w"/rows.tsv "$w"/compare-*.txt "$w"/div-*.dt "$w"/judge-*.txt "$out/"
printf 'stock\text2\t408\t12.5\nstock\text4-ordered\t408\t14\npatched\text2\t380\t11\npatched\text4-ordered\t423\t13.5\n' \
	>"$out/speed.tsv"
printf 'stock\t816\t41\t2\npatched\t803\t40\t2\n' >"$out/wall.tsv"
printf '%s\n' seed=1 ops=0 per=30 fs=ext2,ext4-ordered kernels=stock,patched line=6.1 contract= \
	scenarios=1 scripts= bug= shard=1 shards=1 wall=97 "status=$st" "failures=$DT_FAILURES" \
	custom= "source=linux-source-6.1 6.1.192-3" >"$out/campaign.info"
