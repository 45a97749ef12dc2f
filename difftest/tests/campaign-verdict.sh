#!/usr/bin/env bash
# usage: campaign-verdict.sh DIFFTEST
# campaign.sh's verdict (dt_judge in difftest/lib.sh) on recorded guest results
# of the stock kernel (tests/recorded/, ext2 and ext4-ordered), under the
# contracts a campaign holds it to; prints "verdict CONTRACT [bug]: STATUS".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
DT=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
progress() { :; }
for fs in ext2 ext4-ordered; do
	cp "$here/recorded/scen-$fs.dt" "$out/batch-$fs.dt"
	cp "$here/recorded/stock_${fs}_scen-$fs.log" "$out/res-stock-$fs.log"
done
verdict() {
	local c=$1 bug=${2:-} cfull=$1 st=0
	[ -z "$bug" ] || cfull="$c,bug=$bug"
	rm -f "$out/rows.tsv"
	dt_judge "$DT" "$out" stock "$c" "$cfull" 1 "$bug" ext2 ext4-ordered || st=$?
	echo "verdict $c${bug:+ bug=$bug}: $st"
}
verdict stock
verdict stock,keep_unseen
verdict patched
verdict stock sample_raw
