#!/usr/bin/env bash
# Keep a campaign's scenario results as recorded guest output (tests/recorded/), for the
# host-only ctest that shows the checker bites (difftest/CMakeLists.txt).
# usage: difftest/tests/record.sh CAMPAIGN_OUT_DIR KERNEL [DIR]
#   writes DIR/scen-FS.dt (the scenario scripts run on FS) and
#   DIR/KERNEL_FS_scen-FS.log (the guest's DT lines for them); DIR: tests/recorded
set -euo pipefail
out=$1 k=$2
dst=${3:-$(cd "$(dirname "$0")" && pwd)/recorded}
mkdir -p "$dst"
for b in "$out"/batch-*.dt; do
	fs=$(basename "$b" .dt)
	fs=${fs#batch-}
	res=$out/res-$k-$fs.log
	[ -s "$res" ] || continue
	awk '/^script scn\./ {on=1} on {print} /^end/ {on=0}' "$b" >"$dst/scen-$fs.dt"
	awk '/^DT S scn\./ {on=1} on {print} /^DT E / {on=0}' "$res" >"$dst/${k}_${fs}_scen-$fs.log"
	echo "recorded $k $fs: $(grep -c '^script' "$dst/scen-$fs.dt") scenarios"
done
