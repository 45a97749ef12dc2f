#!/usr/bin/env bash
# The main job: the library (build, tests, example), stock and patched kernels of
# both kernel lines (6.1, 6.12) built and booted in QEMU, PostgreSQL's fsync problem with the real server (pgtest), the
# difftest campaign report, and the bench headline.
# Installs missing Debian packages first. Long steps print progress.
# usage: scripts/main.sh [--quick]   (--quick: difftest's small CI budget, bench --quick)
#        scripts/main.sh --help    this text
# env: LIBERRSEQ_MAIN_OPS  random ops per filesystem mode of the 6.1 campaign (default 4000:
#      eight filesystem modes, about the 30,000 ops a kernel of the three-mode days)
#      LIBERRSEQ_MAIN_OPS_SECOND_LINE  the same for 6.12 (default 1500)
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
started=$SECONDS
step() { log "[$((SECONDS - started))s] $*"; }

step "1/6 library: configure and build in $build"
cmake -S "$LIBERRSEQ_ROOT" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$jobs" >/dev/null
step "1/6 library: tests"
# the library's, the scripts', difftest's host and replay tests (HACKING.md lists the labels)
(cd "$build" && ctest -j "$jobs" -L '^(lib|scripts|difftest-host|difftest-replay|kernel-diff|install)$' --output-on-failure)
step "1/6 library: example"
"$build/liberrseq/errseq_example"

. "$LIBERRSEQ_ROOT/vm/kernel.env"
for line in $KERNEL_LINES; do
	step "2/6 kernels: build $line stock and patched (cached under $LIBERRSEQ_CACHE/vm/kernel-$line)"
	LIBERRSEQ_KERNEL=$line "$LIBERRSEQ_ROOT/vm/kernel-build.sh" stock
	LIBERRSEQ_KERNEL=$line "$LIBERRSEQ_ROOT/vm/kernel-build.sh" patched
done

step "3/6 QEMU: boot each kernel ($KERNEL_LINES), fsync on ext2/ext4, EIO through dm-error, KUnit, kernel-port guest tests"
# as many at once as CPUs, as scripts/test.sh (each guest test boots its own QEMU)
(cd "$build" && ctest -L vm -LE postgres -j "$jobs" --output-on-failure)

step "4/6 PostgreSQL: the fsyncgate sequence with the real server, stock and patched (pgtest/)"
pg_rc=0
(cd "$build" && ctest -L postgres --output-on-failure) || pg_rc=$?
for k in stock patched; do
	[ ! -f "$build/pgtest/$k/results.txt" ] || column -t "$build/pgtest/$k/results.txt"
	[ ! -f "$build/pgtest/$k/loglines.txt" ] || cat "$build/pgtest/$k/loglines.txt"
done
[ "$pg_rc" -eq 0 ] || log "pgtest FAILED (ctest -L postgres); the job goes on and fails at the end"

step "5/6 difftest campaign ($KERNEL_LINES: stock and patched; ext2, ext4 data=ordered and data=journal, vfat, exfat, xfs, btrfs, tmpfs)"
report=$LIBERRSEQ_CACHE/difftest/campaign/report.md
dt_rc=0
first=1
for line in $KERNEL_LINES; do
	# the stock kernel's documented deviations from "patched" are reported, not shrunk
	# (eight modes: shrinking them took 470 of the 748 s of the 6.1 campaign, 2026-12-06)
	campaign=(--build "$build" --shrink-own-only)
	if [ $first -eq 1 ]; then
		campaign+=(--report "$report" --ops "${LIBERRSEQ_MAIN_OPS:-4000}")
	else
		campaign+=(--out "$LIBERRSEQ_CACHE/difftest/campaign-$line" --ops "${LIBERRSEQ_MAIN_OPS_SECOND_LINE:-1500}")
	fi
	[ $quick -eq 1 ] && campaign+=(--ci)
	step "5/6 difftest campaign on Linux $line"
	LIBERRSEQ_KERNEL=$line "$LIBERRSEQ_ROOT/difftest/campaign.sh" "${campaign[@]}" || dt_rc=$?
	# one report: the other lines' reports follow the first's
	r=$LIBERRSEQ_CACHE/difftest/campaign-$line/report.md
	if [ $first -eq 0 ] && [ -f "$r" ]; then
		{ echo; sed 's/^#/##/' "$r"; } >>"$report"
		# its chart (report-chart-LINE.svg, linked by name) next to the one report
		cp "$(dirname "$r")"/report-chart-"$line".* "$(dirname "$report")/" 2>/dev/null || true
	elif [ $first -eq 0 ]; then
		echo "No difftest report for Linux $line (campaign exit $dt_rc)." >>"$report"
	fi
	first=0
done
# The main job's report: difftest's, then step 4's PostgreSQL table.
{
	echo
	echo "## PostgreSQL fsyncgate (pgtest, step 4)"
	echo
	echo "Rows of a committed table after a disk error under it, a checkpoint and a restart"
	echo "(pgtest/README.md). ctest -L postgres: $([ "$pg_rc" -eq 0 ] && echo passed || echo FAILED)."
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
log "report (difftest + PostgreSQL): $report"

step "6/6 bench"
if [ $quick -eq 1 ]; then
	"$LIBERRSEQ_ROOT/bench/run.sh" --quick
else
	"$LIBERRSEQ_ROOT/bench/run.sh"
fi
[ "$pg_rc" -eq 0 ] || die "pgtest failed (step 4/6)"
[ "$dt_rc" -eq 0 ] || die "difftest campaign failed (step 5/6, exit $dt_rc)"
step "main job done"
