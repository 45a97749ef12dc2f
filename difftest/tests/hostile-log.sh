#!/usr/bin/env bash
# usage: hostile-log.sh DIFFTEST BATCH
# A small hostile guest log: 20000 blocks for the batch's first script, each
# claiming a result for op 4095. The results reader must keep its memory
# bounded by the batch (a reader sizing each block by its highest op index
# needs 1.7 MB a block, 34 GB in all): run under a 400 MB address space.
set -e
dt=$1 batch=$2
name=$(sed -n 's/^script //p' "$batch" | head -n 1)
log=${TMPDIR:-/tmp}/difftest-hostile.$$.log
trap 'rm -f "$log"' EXIT
awk -v n="$name" 'BEGIN { for (i = 0; i < 20000; i++) printf "DT S %s\nDT R 4095 0 0\n", n }' >"$log"
ulimit -v 400000
"$dt" compare -c patched -f ext2 "$batch" "$log" 2>&1 | sed "s|$log|hostile.log|"
