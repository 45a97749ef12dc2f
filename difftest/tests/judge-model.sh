#!/usr/bin/env bash
# usage: judge-model.sh DIFFTEST CONTRACT FS LINE SEED N
# The model as a stand-in kernel, held to the contract itself: N random scripts of SEED
# for FS (those without "fail": the model leaves real failures' trace events out of its
# predictions), predicted under CONTRACT (linux=LINE added), judged by difftest judge.
# Prints judge's JUDGE lines and summary; exit status: judge's (0 kept, 1 broken), but a
# script judge cannot judge (the model stopped: 6.12's ext4 after its journal aborts) is
# counted in the summary, not failed.
set -uo pipefail
DT=$1 contract=$2 fs=$3 line=$4 seed=$5 n=$6
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
"$DT" gen -f "$fs" -s "$seed" -n "$n" -p jm >"$t/all.dt" || exit 2
awk '$1 == "script" { buf = $0 "\n"; f = 0; next } { buf = buf $0 "\n" }
	$1 == "fail" { f = 1 } $1 == "end" { if (!f) printf "%s", buf }' "$t/all.dt" >"$t/batch.dt"
"$DT" predict -c "$contract,linux=$line" -f "$fs" "$t/batch.dt" | grep '^DT' >"$t/pred.log" || exit 2
st=0
"$DT" judge -f "$fs" -l "$line" -k "model-$contract" "$t/batch.dt" "$t/pred.log" >"$t/out" || st=$?
grep -E '^(JUDGE|UNEXPLAINED) ' "$t/out" | head -n 20
tail -n 1 "$t/out"
[ $st -eq 3 ] && st=0
exit $st
