#!/usr/bin/env bash
# The main job: the library (build, tests, example), stock and patched kernels of
# both kernel lines (6.1, 6.12) built and booted in QEMU (the headline guest checks),
# PostgreSQL's fsync problem with the real server (pgtest), the difftest campaign report,
# and the bench headline; then a one-screen summary and the report's path.
# Installs missing Debian packages first. Long steps print progress. A failed step is
# said in the summary and the job goes on; it exits 1 if any step failed.
# The full guest suite is scripts/test.sh's (ctest -L guest), not the main job's.
# usage: scripts/main.sh [--quick]   (--quick: difftest's small CI budget)
#        scripts/main.sh --help    this text
# env: LIBERRSEQ_MAIN_OPS  random ops per filesystem mode of the 6.1 campaign, besides the
#      scenarios (default 1500: eight modes, about 21,000 ops a kernel with the scenarios)
#      LIBERRSEQ_MAIN_OPS_SECOND_LINE  the same for 6.12 (default 500)
#      (a longer exploration: difftest/campaign.sh --ops N, difftest/README.md)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
quick=0
case "${1:-}" in
-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
--quick) quick=1 ;;
esac
if [ $# -gt $quick ]; then
	echo "error: unknown argument '${*:$((quick + 1)):1}' (usage: scripts/main.sh [--quick];" \
		"--help says more)" >&2
	exit 2
fi

"$LIBERRSEQ_ROOT/scripts/deps.sh" all
build=${LIBERRSEQ_BUILD:-$(build_dir build-main)}
jobs=$(nproc)
logs=$LIBERRSEQ_CACHE/main
mkdir -p "$logs"
started=$SECONDS
step_t0=$SECONDS
step() { log "[$((SECONDS - started))s] $*"; }
# done_step NAME VERDICT DETAIL: one line of the summary (the step's time: since the
# previous one's end)
summary=()
failed=0
done_step() {
	# (a detail of several lines: the next ones under the first)
	summary+=("$(printf '%-10s %-4s %5d s  %s' "$1" "$2" $((SECONDS - step_t0)) "$3" |
		sed '2,$s/^/                         /')")
	step_t0=$SECONDS
	[ "$2" != FAIL ] || failed=1
}
# ctest_counts LOG: "P/T passed" from a ctest log (its "tests passed, ... out of T" line)
ctest_counts() {
	sed -n 's/^[0-9]*% tests passed, \([0-9]*\) tests* failed out of \([0-9]*\)$/\1 \2/p' "$1" |
		tail -n 1 | awk '{ printf "%d/%d passed", $2 - $1, $2 }'
}
# run_ctest LOG ARGS...: ctest in the build tree, its output shown and kept in LOG
run_ctest() {
	local out=$1
	shift
	(cd "$build" && ctest "$@" --output-on-failure) 2>&1 | tee "$out"
}

step "1/6 library: configure and build in $build"
cmake -S "$LIBERRSEQ_ROOT" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$jobs" >/dev/null
step "1/6 library: tests"
# the library's, the scripts', difftest's host and replay tests (HACKING.md lists the labels)
v=PASS
run_ctest "$logs/library.log" -j "$jobs" \
	-L '^(lib|scripts|difftest-host|difftest-replay|kernel-diff|install)$' || v=FAIL
step "1/6 library: example"
"$build/liberrseq/errseq_example" || v=FAIL
done_step library $v "$(ctest_counts "$logs/library.log") (lib, scripts, install, difftest host and replays); example ran"

. "$LIBERRSEQ_ROOT/vm/kernel.env"
step "2/6 kernels: build $KERNEL_LINES, stock and patched (cached under $LIBERRSEQ_CACHE/vm)"
for line in $KERNEL_LINES; do
	for k in stock patched; do
		log "kernel $line $k"
		LIBERRSEQ_KERNEL=$line "$LIBERRSEQ_ROOT/vm/kernel-build.sh" $k
	done
done
done_step kernels PASS "${KERNEL_LINES// /, }: stock and patched built (or up to date)"

step "3/6 QEMU: the headline guest checks on each kernel ($KERNEL_LINES): boot, fsync, EIO through dm-error, KUnit, eviction, a failed inode read, fallocate, dirsync"
# as many at once as CPUs (each guest test boots its own QEMU); the kernels are built
# (step 2), so not their ctest fixtures (vm-build-*, fixtures vm_kernel_*) again
v=PASS
run_ctest "$logs/guest.log" -L '^headline$' -FA '^vm_kernel' -j "$jobs" || v=FAIL
done_step guests $v "$(ctest_counts "$logs/guest.log") (ctest -L headline; the whole guest suite: scripts/test.sh -L guest)"

step "4/6 PostgreSQL: the fsyncgate sequence with the real server, stock and patched (pgtest/)"
v=PASS
run_ctest "$logs/postgres.log" -L '^postgres$' -FA '^vm_kernel' -j "$jobs" || v=FAIL
pg_said=
for k in stock patched; do
	f=$build/pgtest/$k/results.txt
	[ -f "$f" ] || { pg_said+="$k: no table; "; continue; }
	column -t "$f"
	[ ! -f "$build/pgtest/$k/loglines.txt" ] || cat "$build/pgtest/$k/loglines.txt"
	pg_said+="$k: $(awk 'NR > 1 { n++; if ($6 > 0) { lost = lost sep $2 " lost " $6 "/" $4; sep = ", " } }
		END { printf "%s", lost == "" ? "every committed row kept (" n " variants)" : lost " rows" }' "$f"); "
done
done_step postgres $v "${pg_said%; }"

step "5/6 difftest campaign ($KERNEL_LINES: stock and patched; ext2, ext4 data=ordered and data=journal, vfat, exfat, xfs, btrfs, tmpfs)"
report=$LIBERRSEQ_CACHE/difftest/campaign/report.md
v=PASS
dt_said=
first=1
for line in $KERNEL_LINES; do
	# the stock kernel's documented deviations from "patched" are reported, not shrunk
	# (eight modes: shrinking them took 470 of the 748 s of the 6.1 campaign)
	campaign=(--build "$build" --shrink-own-only)
	if [ $first -eq 1 ]; then
		out=$(dirname "$report")
		campaign+=(--report "$report" --ops "${LIBERRSEQ_MAIN_OPS:-1500}")
	else
		out=$LIBERRSEQ_CACHE/difftest/campaign-$line
		campaign+=(--out "$out" --ops "${LIBERRSEQ_MAIN_OPS_SECOND_LINE:-500}")
	fi
	[ $quick -eq 1 ] && campaign+=(--ci)
	log "difftest campaign on Linux $line"
	rm -f "$out/rows.tsv"
	rc=0
	LIBERRSEQ_KERNEL=$line "$LIBERRSEQ_ROOT/difftest/campaign.sh" "${campaign[@]}" || rc=$?
	[ $rc -eq 0 ] || v=FAIL
	# per kernel: its own contract's divergences (the verdict), and the stock kernel's
	# under the patched contract (the deviations it is known for), from the report's rows
	# (column 3 names the contract "stock", or "custom" for the patched one with the
	# line's facts: the patched kernel is held to that one only)
	dt_said+="$line: $(awk -F'\t' '
		{ split($3, c, " "); own = ($1 == "patched" || c[1] == $1); k[$1] = 1
		  ops[$1] += own ? $5 : 0
		  if (own) div[$1] += $7; else { odiv[$1] += $7; if (match($9, /unexplained:[0-9]+/))
			un[$1] += substr($9, RSTART + 12, RLENGTH - 12) } }
		END { n = split("stock patched", ks, " ")
			for (i = 1; i <= n; i++) { x = ks[i]; if (!(x in k)) continue
				printf "%s%s: %d ops, %d divergent", sep, x, ops[x], div[x]
				if (x in odiv) printf ", %d scripts break the patched contract (%d unexplained)", odiv[x], un[x]
				sep = "; " } }' "$out/rows.tsv" 2>/dev/null || echo "no rows")"
	[ $rc -eq 0 ] || dt_said+=" (campaign exit $rc)"
	dt_said+=$'\n'
	# one report: the other lines' reports follow the first's
	r=$out/report.md
	if [ $first -eq 0 ] && [ -f "$r" ]; then
		{ echo; sed 's/^#/##/' "$r"; } >>"$report"
		# its chart (report-chart-LINE.svg, linked by name) next to the one report
		cp "$(dirname "$r")"/report-chart-"$line".* "$(dirname "$report")/" 2>/dev/null || true
	elif [ $first -eq 0 ]; then
		echo "No difftest report for Linux $line (campaign exit $rc)." >>"$report"
	fi
	first=0
done
done_step difftest $v "${dt_said%$'\n'}"
# The main job's report: difftest's, then step 4's PostgreSQL table.
{
	echo
	echo "## PostgreSQL fsyncgate (pgtest, step 4)"
	echo
	echo "Rows of a committed table after a disk error under it, a checkpoint and a restart"
	echo "(pgtest/README.md). ctest -L postgres: $(ctest_counts "$logs/postgres.log")."
	echo
	for k in stock patched; do
		f=$build/pgtest/$k/results.txt
		[ -f "$f" ] || { echo "No table for $k."; echo; continue; }
		awk 'NR == 1 { printf "|"; for (i = 1; i <= NF; i++) printf " %s |", $i; print "";
			   printf "|"; for (i = 1; i <= NF; i++) printf " --- |"; print ""; next }
		     { printf "|"; for (i = 1; i <= NF; i++) printf " %s |", $i; print "" }' "$f"
		echo
	done
} >>"$report"

# the headline of bench/run.sh --quick (9 s, where the full run takes 77 s: the ratios
# side by side as ever, from fewer rounds; bench/run.sh for the full run)
step "6/6 bench (bench/run.sh --quick)"
v=PASS
"$LIBERRSEQ_ROOT/bench/run.sh" --quick 2>&1 | tee "$logs/bench.log" || v=FAIL
done_step bench $v "$(sed -n '/^== errseq_bench headline/,/^results: /p' "$logs/bench.log" |
	sed '1d; $d' | head -n 1)"

# the accelerator the guests had (vm/lib.sh's verdict for this host boot, no new probe)
accel=$(
	. "$LIBERRSEQ_ROOT/vm/lib.sh"
	vm_accel --no-probe "$(vm_bzimage stock)" >/dev/null 2>&1 && echo "$VM_ACCEL_USE: $VM_ACCEL_WHY"
) || accel="an accelerator not known"
{
	echo
	echo "==== liberrseq main job: $([ $failed -eq 0 ] && echo PASS || echo FAIL)," \
		"$((SECONDS - started)) s ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs," \
		"guests under $accel) ===="
	printf '%s\n' "${summary[@]}"
	echo "report (difftest + PostgreSQL): $report"
	echo "bench: $LIBERRSEQ_CACHE/bench/results/results.md; logs: $logs"
} | tee "$logs/summary.txt"
[ $failed -eq 0 ]
