#!/usr/bin/env bash
# Side-by-side speed of two difftest campaigns: this tree's and an older commit's (a git
# worktree), one after the other on this machine, same seed, budget and kernels.
#
# usage: difftest/speed-compare.sh [--out DIR] OLD_REV [campaign options]
#   e.g. difftest/speed-compare.sh 1f02eed --kernels stock --ops 3000 --no-scenarios
# Both run with --ci (no case saving) --shrink-rounds 0 and then the options given. Then:
#   - speed: ops and wall seconds of each kernel's guest run (boots included), from the
#     campaigns' own "finished" progress lines, and the ratio new/old of ops per second;
#   - agreement: the report tables (rows.tsv: kernel, mode, contract, class, ops, scripts,
#     divergent scripts) must be equal, and so must every script's result and trace lines,
#     except those of "par" ops (two threads racing: their outcome may differ run to run;
#     so may, through them, the divergent-script count of a contract the kernel does not
#     keep, e.g. stock held to "patched"), and the campaigns' exit statuses.
# Exit 0 when both campaigns ran and agree, 1 when they disagree, 2 on errors.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$DT_CACHE/speed-compare
if [ "${1:-}" = --out ]; then out=$2; shift 2; fi
[ $# -ge 1 ] || die "usage: $0 [--out DIR] OLD_REV [campaign options]"
rev=$1
shift
old_sha=$(git -C "$LIBERRSEQ_ROOT" rev-parse --verify "$rev^{commit}") || die "$rev: not a commit"
new_sha=$(git -C "$LIBERRSEQ_ROOT" rev-parse HEAD)
wt=$DT_CACHE/speed-compare-tree
mkdir -p "$out"
if [ "$(git -C "$wt" rev-parse HEAD 2>/dev/null)" != "$old_sha" ]; then
	git -C "$LIBERRSEQ_ROOT" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
	git -C "$LIBERRSEQ_ROOT" worktree prune
	git -C "$LIBERRSEQ_ROOT" worktree add --detach "$wt" "$old_sha" >/dev/null
fi

run() { # run NAME TREE: the campaign of TREE into $out/NAME
	local name=$1 tree=$2 t0 rc=0
	shift 2
	log "$name campaign ($(git -C "$tree" log -1 --format='%h %s' | cut -c1-70))"
	t0=$(date +%s)
	"$tree/difftest/campaign.sh" --ci --shrink-rounds 0 "$@" --out "$out/$name" \
		>"$out/$name.stdout" 2>"$out/$name.stderr" || rc=$?
	echo $(($(date +%s) - t0)) >"$out/$name.wall"
	[ $rc -le 1 ] || { tail -n 20 "$out/$name.stderr" >&2; die "$name campaign failed (exit $rc)"; }
	echo $rc >"$out/$name.rc"
}
# host tools first, so that neither campaign's wall time has a build in it (campaign.sh's
# own build directory for a tree: scripts/lib.sh build_dir)
for tree in "$wt" "$LIBERRSEQ_ROOT"; do
	b=$LIBERRSEQ_CACHE/difftest/build-$(printf '%s' "$tree" | sha256sum | cut -c1-8)
	log "building host tools of $tree in $b"
	cmake -S "$tree" -B "$b" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build "$b" -j"$(nproc)" --target difftest dtguest >/dev/null
done
shift_opts=("$@")
run old "$wt" "${shift_opts[@]}"
run new "$LIBERRSEQ_ROOT" "${shift_opts[@]}"

# --- speed: "[difftest  Ns] K: K finished: N ops in S s ..." (main runs, not shrinking)
speed() { # speed NAME -> "ops seconds" summed over kernels
	sed -n 's/.*\] \([a-z]*\): \1 finished: \([0-9]*\) ops in \([0-9]*\) s.*/\2 \3/p' \
		"$out/$1.stderr" | awk '{ o += $1; s += $2 } END { print o + 0, s + 0 }'
}
read -r oo os <<<"$(speed old)"
read -r no ns <<<"$(speed new)"
[ "$os" -gt 0 ] && [ "$ns" -gt 0 ] || die "no guest run times in $out/{old,new}.stderr"
echo "old ($rev, ${old_sha:0:7}): $oo ops in $os s of guest runs, $(awk -v o="$oo" -v s="$os" 'BEGIN { printf "%.1f", o / s }') ops/s; campaign $(cat "$out/old.wall") s"
echo "new (${new_sha:0:7}): $no ops in $ns s of guest runs, $(awk -v o="$no" -v s="$ns" 'BEGIN { printf "%.1f", o / s }') ops/s; campaign $(cat "$out/new.wall") s"
echo "speed-up (ops/s, new/old): $(awk -v a="$oo" -v b="$os" -v c="$no" -v d="$ns" 'BEGIN { printf "%.1f", (c / d) / (a / b) }')x; campaign wall time: $(awk -v a="$(cat "$out/old.wall")" -v b="$(cat "$out/new.wall")" 'BEGIN { printf "%.1f", a / b }')x"

# --- agreement
st=0
if ! cmp -s <(cut -f1-6 "$out/old/rows.tsv") <(cut -f1-6 "$out/new/rows.tsv"); then
	echo "report tables: DIFFER in ops or scripts"
	diff <(cut -f1-6 "$out/old/rows.tsv") <(cut -f1-6 "$out/new/rows.tsv") || true
	st=1
elif cmp -s <(cut -f1-7 "$out/old/rows.tsv") <(cut -f1-7 "$out/new/rows.tsv"); then
	echo "report tables: equal ($(wc -l <"$out/new/rows.tsv") rows)"
else
	# divergent scripts of a contract the kernel does not keep can come from par ops,
	# whose race goes either way: accepted only if the scripts agree outside par ops
	echo "report tables: equal in ops and scripts; divergent scripts differ in" \
		"$(diff <(cut -f1-7 "$out/old/rows.tsv") <(cut -f1-7 "$out/new/rows.tsv") | grep -c '^<') row(s):"
	diff <(cut -f1-7 "$out/old/rows.tsv") <(cut -f1-7 "$out/new/rows.tsv") | grep '^[<>]' || true
	echo "  (accepted only if no script differs outside par ops, below)"
fi
[ "$(cat "$out/old.rc")" = "$(cat "$out/new.rc")" ] ||
	{ echo "exit status: old $(cat "$out/old.rc"), new $(cat "$out/new.rc")"; st=1; }
python3 "$DT_DIR/tests/same-results.py" "$out/old" "$out/new" || st=1
[ $st = 0 ] && echo "agreement: PASS" || echo "agreement: FAIL"
exit $st
