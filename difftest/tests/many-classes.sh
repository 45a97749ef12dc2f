#!/bin/sh
# usage: many-classes.sh DIFFTEST
# A batch of 130 scenario classes (one random script each, prefixes c0..c129),
# compared with the model's own predictions: compare must agree and write one
# TSV row per class.
set -e
dt=$1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
i=0
while [ $i -lt 130 ]; do
	"$dt" gen -s $((i + 1)) -n 1 -o 5 -p "c$i" >>"$d/batch.dt"
	i=$((i + 1))
done
"$dt" predict -c stock -f ext2 "$d/batch.dt" >"$d/pred.log"
"$dt" compare -c stock -f ext2 -t "$d/rows.tsv" "$d/batch.dt" "$d/pred.log"
echo "TSV rows: $(wc -l <"$d/rows.tsv"), classes: $(cut -f4 "$d/rows.tsv" | sort -u | wc -l)"
