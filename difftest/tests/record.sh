#!/usr/bin/env bash
# Keep a campaign's scenario results in the recordings corpus (recordings/README.md), for
# the host-only ctests that replay them (label difftest-replay).
# usage: difftest/tests/record.sh CAMPAIGN_OUT_DIR KERNEL NAME [CORPUS]
#   KERNEL: the campaign's kernel (stock, patched, custom); NAME: what the results show.
#   For each filesystem FS the campaign ran KERNEL on, writes CORPUS/LINE/FS/NAME-KERNEL.log
#   (the guest's DT lines for the scenarios), NAME-KERNEL.dt (the scenario scripts run on
#   FS) and NAME-KERNEL.expect (held to the campaign's contract for KERNEL: agree). LINE:
#   the campaign's kernel line (its campaign.info). CORPUS: difftest/recordings. An
#   existing recording is never overwritten.
# Then, by hand: the sidecar's comment and kernel (recordings/README.md, "Kernels"), the
# checks it must fail, script: for a .dt another recording has; and in the commit message,
# where the results came from.
set -euo pipefail
out=$1 k=$2 name=$3
dst=${4:-$(cd "$(dirname "$0")/../recordings" && pwd)}
info() { sed -n "s/^$1=//p" "$out/campaign.info" 2>/dev/null | head -n 1; }
line=$(info line)
line=${line:-6.1}
contract=$(info contract)
contract=${contract:-$k}
# the campaign adds the line to the contract of a kernel of its own (vm/'s)
if [ "$k" != custom ] && [ "$line" != 6.1 ] && [[ ,$contract, != *,linux=* ]]; then
	contract=$contract,linux=$line
fi
for b in "$out"/batch-*.dt; do
	fs=$(basename "$b" .dt)
	fs=${fs#batch-}
	res=$out/res-$k-$fs.log
	[ -s "$res" ] || continue
	d=$dst/$line/$fs
	r=$name-$k
	if [ -e "$d/$r.log" ]; then
		echo "record.sh: $d/$r.log exists: not overwritten" >&2
		exit 1
	fi
	mkdir -p "$d"
	awk '/^script scn\./ {on=1} on {print} /^end/ {on=0}' "$b" >"$d/$r.dt"
	awk '/^DT S scn\./ {on=1} on {print} /^DT E / {on=0}' "$res" >"$d/$r.log"
	printf '# The scenarios on %s %s, %s: (what they show)\nkernel: %s\ncontract: %s\nverdict: agree\n' \
		"$k" "$line" "$fs" "$k" "$contract" >"$d/$r.expect"
	echo "recorded $k $fs: $(grep -c '^script' "$d/$r.dt") scenarios, $d/$r.{dt,log,expect}"
done
