#!/usr/bin/env bash
# usage: campaign-verdict.sh DIFFTEST
# campaign.sh's verdict (dt_judge in difftest/lib.sh) on recorded guest results
# of the stock kernel (recordings/6.1/*/scenarios-stock, ext2 and ext4-ordered), under the
# contracts a campaign holds it to; prints "verdict CONTRACT [bug]: STATUS FAILURES", the
# reasons dt_fail recorded for campaign.info (failures=), "none" when there are none.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
DT=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
progress() { :; }
rec=$here/../recordings/6.1
# (one script for both: ext4-ordered's sidecar names ext2's)
for fs in ext2 ext4-ordered; do
	cp "$rec/ext2/scenarios-stock.dt" "$out/batch-$fs.dt"
	cp "$rec/$fs/scenarios-stock.log" "$out/res-stock-$fs.log"
done
verdict() {
	local c=$1 bug=${2:-} cfull=$1 st=0
	[ -z "$bug" ] || cfull="$c,bug=$bug"
	rm -f "$out/rows.tsv"
	DT_FAILURES=
	dt_judge "$DT" "$out" stock "$c" "$cfull" 1 "$bug" ext2 ext4-ordered || st=$?
	echo "verdict $c${bug:+ bug=$bug}: $st ${DT_FAILURES:-none}"
}
verdict stock
verdict stock,keep_unseen
verdict patched
verdict stock sample_raw
# the guest stopped in the first script of each batch (its logs cut): not run, and no
# divergence for the planted bug to show
for fs in ext2 ext4-ordered; do head -n 5 "$rec/$fs/scenarios-stock.log" >"$out/res-stock-$fs.log"; done
verdict stock
verdict stock sample_raw
for fs in ext2 ext4-ordered; do cp "$rec/$fs/scenarios-stock.log" "$out/res-stock-$fs.log"; done
# the contract itself (dt_contract_check, difftest judge): stock's violations are known
# deviations, the patched kernel keeps it, a patched log with one report removed fails
judged() {
	local st=0
	DT_FAILURES=
	dt_contract_check "$DT" "$out" "$1" 6.1 "$1" ext2 ext4-ordered || st=$?
	echo "judged $1${2:+ $2}: $st ${DT_FAILURES:-none}"
}
judged stock
# the patched kernel's scenarios were those of its day: its batch
for fs in ext2 ext4-ordered; do
	cp "$rec/ext2/scenarios-patched.dt" "$out/batch-$fs.dt"
	cp "$rec/$fs/scenarios-patched.log" "$out/res-patched-$fs.log"
done
judged patched
cp "$rec/ext4-ordered/scenarios-patched-tampered-evict-lost.log" "$out/res-patched-ext4-ordered.log"
judged patched tampered
# and its ext2 log cut: not judged
head -n 100 "$rec/ext2/scenarios-patched.log" >"$out/res-patched-ext2.log"
judged patched tampered-cut
