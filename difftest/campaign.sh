#!/usr/bin/env bash
# difftest campaign: the model (liberrseq) against real syscalls in QEMU guests.
#
# usage: difftest/campaign.sh [options]
#   --kernels LIST      vm/ flavours to run, comma separated (default: stock,patched), of the
#                       kernel line LIBERRSEQ_KERNEL (vm/kernel.env; default 6.1)
#   --kernel BZIMAGE    run your own kernel instead (needs --kbuild, and --contract); the
#                       config it needs: difftest/guest.config (kconfig-check.sh TREE/.config)
#   --kbuild DIR        kernel build tree for the injection module (with --kernel)
#   --modules DIR       modules the guest loads first (DIR/order lists them, one a line):
#                       for a --kernel with virtio/ext4/dm built as modules
#   --contract C        contract to hold the kernel to: stock | patched | switches
#                       md_cursor,keep_unseen,syncfs_locked,syncfs_cursor_only,syncfs_bdev_cursor,md_once,fat_md_once,falloc_cursor,mount_forgets,remount_since,
#                       md_locked,dir_own (no-X clears); default: the
#                       flavour's own (the stock flavour is also held to "patched",
#                       to show its documented deviations). Plus linux=LINE: the kernel
#                       line whose facts the model follows (6.1, 6.12; difftest/doc/kernels.md,
#                       "Kernel lines", says how a line's facts are added): the vm/ line
#                       for --kernels; for --kernel, --kbuild's kernel.release unless C
#                       names one (--contract stock,linux=6.12). A version the model has
#                       no facts for takes the nearest line, with a warning
#   --fs LIST           default: ext2,ext4-ordered,ext4-journal,vfat,exfat,xfs,btrfs,tmpfs
#   --ops N             random operations per filesystem mode (default: 10000)
#   --ops-per-script K  (default: 30)
#   --seed S            (default: 1)
#   --ci                small seeded budget for CI: --ops 300, 2 shrink rounds of at most 2
#                       scripts, only for a kernel's own contract, no case saving
#   --shrink-own-only   shrink only divergences from a kernel's own contract (the stock
#                       kernel's documented deviations from "patched" are reported unshrunk)
#   --shrink-rounds R   guest rounds of shrinking per divergent group (default: 4)
#   --shrink-max N      shrink at most N divergent scripts per kernel/fs/contract and
#                       attribution class (default: 2; all divergences are counted in the table)
#   --no-scenarios      random scripts only
#   --script FILE...    your own scripts (difftest/doc/scripts.md, "Script format"; the files up
#                       to the next option) instead of the scenarios and random ones, on
#                       every --fs mode, all on multi-threaded guests (par ops race there).
#                       They are checked first: a bad one stops the campaign with
#                       FILE:LINE: what, exit 2
#   --bug NAME          plant a mistake in the model (sample_raw, no_sb_err, ...): the run
#                       then must find divergences (shows the checker bites)
#   --out DIR           default: $LIBERRSEQ_CACHE/difftest/campaign
#   --report FILE       Markdown report (default: OUT/report.md); the same as JSON next to
#                       it, FILE without .md plus .json (difftest report writes both)
#   --save-cases        add minimal divergent scripts to difftest/cases/, beside the kept ones (default unless --ci;
#                       installed: to OUT/cases/)
#   --build DIR         cmake build tree holding difftest/difftest and difftest/dtguest
#                       (default: configure and build one under $LIBERRSEQ_CACHE/difftest;
#                       installed (cmake --install): the installed difftest and dtguest)
#   --timeout SEC       per guest boot (default: 2400)
#   --runner R          run.sh (default: vm/run.sh) or qemu (QEMU directly; env DT_RUNNER);
#                       both on KVM where a kernel was seen to boot under it on this machine,
#                       else TCG (vm/lib.sh, vm_accel; VM_ACCEL=tcg|kvm forces one), said
#   --guests G          guests booted at once per kernel, the scripts spread over them
#                       (default: the number of CPUs, env DT_GUESTS); each has 2 vCPUs.
#                       Under TCG three random scripts in four run on single-threaded
#                       TCG (2 vCPUs in turn), the scenarios and the fourth on a
#                       multi-threaded one (shrinking too)
#   --mttcg-all         every script on multi-threaded TCG (both vCPUs at once: real
#                       races in the random scripts' par ops too; about half the speed)
#   --shard I/N         run only part I of N of the batches (script k of a batch, counted
#                       from 0, is in part k mod N + 1): N runs with the same options and
#                       I = 1..N run every script once between them, on as many machines
#   --merge D1,...,DN   no guest: merge the --out directories of the N shards of one
#                       campaign into the report one run would have written (into --out;
#                       exit status as the shards' worst), with difftest report (the
#                       host tool: --build's, or built)
#   --dry-run           make and check the batches (in --out) and print what would run
#                       (the runner, its accelerator, --runner qemu's command line): no
#                       module is built, no guest booted (not even KVM's probe)
# Environment: DT_TRACE_KB=K gives the guest's trace ring buffer K KiB per CPU (what it
# loses is counted as the op's lost events: tests/trace-losses.sh).
# Exit: 0 when every kernel kept its own contract (with --bug: when divergences were
# found), 1 otherwise, 2 on usage and setup errors.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# The kernel line of the vm/ flavours (LIBERRSEQ_KERNEL, vm/kernel.env): KLINE, LINUX_SOURCE_*;
# the paths of their builds (dt_kernel_paths)
. "$DT_DIR/../vm/lib.sh"
# a usage or setup error: exit 2, never 1 (the verdict "a kernel broke its contract")
die() { echo "campaign.sh: error: $*" >&2; exit 2; }

kernels=stock,patched custom_bz="" custom_kb="" modules="" contract=""
allfs=ext2,ext4-ordered,ext4-journal,vfat,exfat,xfs,btrfs,tmpfs fslist=$allfs
ops=10000 per=30 seed=1 ci=0 rounds=4 shrinkmax=2 shrinkown=0 scenarios=1 bug="" out="" report="" save=-1 build="" tmo=2400
shard="" merge="" guests=${DT_GUESTS:-$(nproc)} split=rr dry=0
scripts=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernels | --kernel | --kbuild | --modules | --contract | --fs | --ops | --ops-per-script | \
		--seed | --shrink-max | --shrink-rounds | --bug | --out | --report | --build | --timeout | \
		--runner | --shard | --guests | --merge)
		[ $# -ge 2 ] || die "$1 needs a value (see --help)" ;;
	esac
	case "$1" in
	--kernels) kernels=$2; shift ;;
	--kernel) custom_bz=$2; shift ;;
	--kbuild) custom_kb=$2; shift ;;
	--modules) modules=$2; shift ;;
	--contract) contract=$2; shift ;;
	--fs) fslist=$2; shift ;;
	--ops) ops=$2; shift ;;
	--ops-per-script) per=$2; shift ;;
	--seed) seed=$2; shift ;;
	--ci) ci=1; ops=300; rounds=2; shrinkmax=1; shrinkown=1 ;;
	--shrink-own-only) shrinkown=1 ;;
	--shrink-max) shrinkmax=$2; shift ;;
	--shrink-rounds) rounds=$2; shift ;;
	--no-scenarios) scenarios=0 ;;
	--script)
		[ $# -ge 2 ] && [ "${2#-}" = "$2" ] || die "--script needs FILE... (see --help)"
		while [ $# -ge 2 ] && [ "${2#-}" = "$2" ]; do scripts+=("$2"); shift; done ;;
	--bug) bug=$2; shift ;;
	--out) out=$2; shift ;;
	--report) report=$2; shift ;;
	--save-cases) save=1 ;;
	--build) build=$2; shift ;;
	--timeout) tmo=$2; shift ;;
	--runner) export DT_RUNNER=$2; shift ;;
	--shard) shard=$2; shift ;;
	--guests) guests=$2; shift ;;
	--mttcg-all) split=mt ;;
	--merge) merge=$2; shift ;;
	--dry-run) dry=1 ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
	shift
done
# minimal cases: into the checkout's difftest/cases/ (regression cases); installed, under --out
[ "$save" = -1 ] && save=$((1 - ci))
[[ "$guests" =~ ^[1-9][0-9]*$ ]] || die "--guests $guests: want a whole number >= 1"
for v in "--ops $ops" "--seed $seed" "--shrink-max $shrinkmax" "--shrink-rounds $rounds"; do
	[[ "${v#* }" =~ ^[0-9]+$ ]] || die "$v: want a whole number"
done
for v in "--ops-per-script $per" "--timeout $tmo"; do
	[[ "${v#* }" =~ ^[1-9][0-9]*$ ]] || die "$v: want a whole number >= 1"
done
case "${DT_RUNNER:-run.sh}" in run.sh | qemu) ;; *) die "--runner $DT_RUNNER: want run.sh or qemu" ;; esac
for f in "${scripts[@]}"; do [ -f "$f" ] || die "--script $f: no such file"; done
# your scripts only, each where two threads of a par op really race
[ ${#scripts[@]} -eq 0 ] || { ops=0 scenarios=0 split=mt; }
scriptlist=${scripts[*]}
si=1 sn=1
if [ -n "$shard" ]; then
	[[ "$shard" =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] && [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] ||
		die "--shard $shard: want I/N with 1 <= I <= N"
	si=${BASH_REMATCH[1]} sn=${BASH_REMATCH[2]}
fi
IFS=, read -r -a fss <<<"$fslist"
[ ${#fss[@]} -gt 0 ] || die "--fs: no filesystem mode given (modes: ${allfs//,/, })"
for fs in "${fss[@]}"; do
	dt_fs_dev "$fs" >/dev/null 2>&1 || die "--fs: unknown filesystem mode '$fs' (modes: ${allfs//,/, })"
done
if [ -z "$merge" ] && [ -n "$custom_bz" ]; then
	[ -f "$custom_bz" ] || die "--kernel $custom_bz: no such file"
	[ -n "$custom_kb" ] || die "--kernel needs --kbuild DIR (the tree it was built in, for the module)"
	[ -n "$contract" ] || die "--kernel needs --contract stock|patched|SWITCHES"
elif [ -z "$merge" ]; then
	for k in ${kernels//,/ }; do
		case "$k" in
		stock | patched) ;;
		*) die "--kernels: unknown flavour '$k' (stock, patched; your own: --kernel BZIMAGE)" ;;
		esac
	done
fi
if [ -n "$merge" ]; then
	[ -n "$out" ] || die "--merge needs --out DIR for the merged report"
	for d in ${merge//,/ }; do
		[ ! -d "$out" ] || [ ! "$d" -ef "$out" ] || die "--merge: --out $out is one of the shards"
	done
fi
out=${out:-$DT_CACHE/campaign}
report=${report:-$out/report.md}
json=${report%.md}.json
cases_dir=$DT_DIR/cases
[ -z "$DT_INSTALLED" ] || cases_dir=$out/cases
mkdir -p "$out"
rm -f "$out"/rows.tsv "$out"/div-* "$out"/compare-* "$out"/judge-* "$out"/cases-*.dt "$out"/campaign.info "$out"/speed.tsv "$out"/wall.tsv "$json"
t_start=$(date +%s)
progress() { printf '[difftest %4ss] %s\n' $(($(date +%s) - t_start)) "$*" >&2; }

# report CONTEXT DIR... [-M OUT]: difftest report of the campaign in DIR (a merge: the shards'
# DIRs, -M OUT): $report, the Markdown report; its chart (chart.gp) next to it as
# REPORT-chart-LINE.svg (LINE: the kernel line, so that reports of several lines can share
# a directory), said in the report when gnuplot (DT_GNUPLOT: the one to use) is missing or
# fails; $json, the same as JSON. Then the tables, and what was written, on stdout.
# difftest report's messages are said as campaign.sh's: an error after CONTEXT, exit 2.
report() {
	local ctx=$1 rc=0
	shift
	mkdir -p "$(dirname "$report")" "$(dirname "$json")"
	"$DT" report -m "$report" -g "$DT_DIR/chart.gp" -j "$json" "$@" >"$out/report.out" \
		2>"$out/report.err" || rc=$?
	sed -e 's/^difftest report: warning: /campaign.sh: warning: /' \
		-e "s/^difftest report: /campaign.sh: error: $ctx/" "$out/report.err" >&2
	if [ $rc -eq 0 ]; then
		echo
		# the verdict and why, then the tables
		sed -n '/^\*\*Verdict/{p;q}' "$report"
		echo
		sed -n '/^| kernel | filesystem mode/,/^$/p' "$report"
		sed -n '/^## kernel/,/^## Divergences/p' "$report" | grep -v '^## Divergences'
		cat "$out/report.out"
	fi
	rm -f "$out/report.out" "$out/report.err"
	[ $rc -eq 0 ] || exit 2
}

# info KEY FILE: a value of a shard's campaign.info
info() { sed -n "s/^$1=//p" "$2"; }

# --- host tools: --build's; installed, the installed ones; else built from this checkout
if [ -n "$build" ]; then
	DT=$build/difftest/difftest GUEST=$build/difftest/dtguest
elif [ -n "$DT_INSTALLED" ]; then
	DT=$DT_INSTALLED_TOOL GUEST=$DT_INSTALLED_GUEST
else
	build=$(build_dir difftest/build)
	progress "building host tools in $build"
	cmake -S "$LIBERRSEQ_ROOT" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	nice cmake --build "$build" -j"$(nproc)" --target difftest dtguest >/dev/null
	DT=$build/difftest/difftest GUEST=$build/difftest/dtguest
fi
# (a merge needs the host tool only)
[ -x "$DT" ] && { [ -n "$merge" ] || [ -x "$GUEST" ]; } || die "no $DT or $GUEST ($([ -n "$build" ] && echo "build the difftest and dtguest targets" || echo "the install is incomplete: cmake --install again"))"
# the pieces the guests need, all there before anything is made (a merge boots none)
missing=$([ -n "$merge" ] || dt_missing_pieces | tr '\n' ' ')
[ -z "$missing" ] || die "missing in $(cd "$DT_DIR/.." && pwd): ${missing% }$([ -z "$DT_INSTALLED" ] || echo " (the install is incomplete: cmake --install again)")"

# --- merge of shards: difftest report checks that they are the shards of one campaign,
# writes their merge into --out (rows.tsv summed; speed.tsv, wall.tsv and the divergent
# scripts side by side) and the report one run would have written
if [ -n "$merge" ]; then
	IFS=, read -r -a mdirs <<<"$merge"
	report "--merge: " -M "$out" "${mdirs[@]}"
	# the verdict: the worst shard's
	status=0
	for d in "${mdirs[@]}"; do
		[ "$(info status "$d/campaign.info")" = 0 ] || status=1
	done
	exit $status
fi

# --kernel: the model follows the kernel's line (linux=): --kbuild's kernel.release unless
# --contract names one. The contract is checked here, once; a version the model has no
# facts for takes the nearest line, said here and written into the contract (every
# compare would say it again)
if [ -n "$custom_bz" ]; then
	case ",$contract," in
	*,linux=*) ;;
	*)
		rel=$(cat "$custom_kb/include/config/kernel.release" 2>/dev/null || true)
		[ -z "$rel" ] || contract="$contract,linux=$rel"
		;;
	esac
	if ! "$DT" predict -c "$contract" -f "${fss[0]}" "$DT_DIR/scenarios/meta.dt" >/dev/null 2>"$out/contract.err"; then
		sed -n 's/^difftest predict: /campaign.sh: error: --contract: /p' "$out/contract.err" >&2
		rm -f "$out/contract.err"
		exit 2
	fi
	line=$(sed -n 's/.*warning: no facts for kernel line .*; using the nearest line the model knows, \([0-9.]*\) (.*/\1/p' "$out/contract.err")
	if [ -n "$line" ]; then
		sed 's/^difftest: /campaign.sh: /' "$out/contract.err" >&2
		contract=$(printf '%s\n' "$contract" | sed "s/linux=[^,]*/linux=$line/")
	fi
	rm -f "$out/contract.err"
	# the kernel's config against what the guest needs (guest.config): said, not fatal
	# (a mode you do not run needs nothing of it)
	if [ -f "$custom_kb/.config" ] &&
		! "$DT_DIR/kconfig-check.sh" "$custom_kb/.config" >"$out/kconfig-check.txt" 2>&1; then
		echo "campaign.sh: warning: $(tail -n 1 "$out/kconfig-check.txt") (difftest/kconfig-check.sh):" >&2
		grep '^missing: ' "$out/kconfig-check.txt" | sed 's/^/  /' >&2 || true
	fi
fi

# --- batches (the same for every kernel)
# --script: checked before anything else is done (difftest batch: FILE:LINE: what)
if [ ${#scripts[@]} -gt 0 ]; then
	if ! "$DT" batch "${scripts[@]}" >"$out/scripts.dt" 2>"$out/scripts.err"; then
		sed 's/^difftest: /campaign.sh: error: --script: /' "$out/scripts.err" >&2
		rm -f "$out/scripts.dt" "$out/scripts.err"
		exit 2
	fi
	rm -f "$out/scripts.err"
fi
# a budget below one script is one script of that many ops
[ "$ops" -eq 0 ] || [ "$ops" -ge "$per" ] || per=$ops
nscripts=$(((ops + per - 1) / per))
for i in "${!fss[@]}"; do
	fs=${fss[$i]}
	b=$out/batch-$fs.dt
	: >"$b"
	# real I/O errors (dm error target) only where writeback of file data goes to
	# the file's own blocks: not under data=journal (checkpointing writes it later)
	# Random real-error scripts only on ext2: under ext4 data=ordered a journal
	# commit started by other activity writes ordered data back at a time the
	# model does not know (seen with Debian's 6.1.192); the real-* scenarios
	# still run on ext4 data=ordered.
	# real-* scenarios also on xfs (overwrites go to the file's own blocks); vfat,
	# exfat, btrfs, tmpfs: deterministic injections only (real errors on FAT would hit
	# its FAT and directory blocks as well; btrfs writes copies elsewhere (COW), so a
	# dm error over a file's extents fails none of its writes; tmpfs never writes back)
	real=1 realrandom=1
	case "$fs" in ext2 | ext4-ordered | xfs) ;; *) real=0 ;; esac
	[ "$fs" = ext2 ] || realrandom=0
	[ ${#scripts[@]} -eq 0 ] || cp "$out/scripts.dt" "$b"
	if [ $scenarios = 1 ]; then
		for f in "$DT_DIR"/scenarios/*.dt; do
			case "$(basename "$f")" in real-*) [ $real = 1 ] || continue ;; esac
			cat "$f" >>"$b"
		done
	fi
	if [ "$ops" -gt 0 ]; then
		# the generator looks through the model of the kernels' line, and picks
		# by the patched contract's switches (doc/scripts.md, Random scripts)
		gc=patched,linux=$(printf '%s\n' "$contract" | sed -n 's/.*linux=\([^,]*\).*/\1/p')
		[ "$gc" != patched,linux= ] || gc=patched,linux=$KLINE
		if [ $realrandom = 1 ]; then
			# half the random scripts with real errors ("fail"/"heal")
			# (a single script is the first half's: none with real errors)
			"$DT" gen -c "$gc" -s $((seed * 1000 + i)) -n $(((nscripts + 1) / 2)) -o "$per" -p random >>"$b"
			[ "$nscripts" -lt 2 ] ||
				"$DT" gen -c "$gc" -s $((seed * 1000 + 500 + i)) -n $((nscripts / 2)) -o "$per" -p random-real -R >>"$b"
		else
			"$DT" gen -c "$gc" -f "$fs" -s $((seed * 1000 + i)) -n "$nscripts" -o "$per" -p random >>"$b"
		fi
	fi
	if [ "$sn" -gt 1 ]; then
		awk -v i=$((si - 1)) -v n="$sn" '/^script / { k++ } k == 0 || (k - 1) % n == i' \
			"$b" >"$b.shard" && mv "$b.shard" "$b"
		grep -q '^script ' "$b" || die "shard $shard of $fs has no scripts (budget too small for $sn shards)"
	fi
	"$DT" check "$b" >/dev/null || die "generated batch $b does not parse"
done
rm -f "$out/scripts.dt"
progress "batches: ${#fss[@]} filesystem mode(s), $([ -n "$scriptlist" ] && echo "$(grep -c '^script ' "$b") of your scripts" || echo "$nscripts random scripts x $per ops each (seed $seed)")$([ $scenarios = 1 ] && echo ", plus $(ls "$DT_DIR"/scenarios/*.dt | wc -l) scenarios")$([ "$sn" = 1 ] || echo "; shard $si of $sn: $(cat "$out"/batch-*.dt | grep -c '^script ') scripts")"

# --dry-run: what would run, and nothing more
if [ "$dry" = 1 ]; then
	echo "dry run: nothing built or booted; the batches are in $out"
	echo "tools: $DT, $GUEST$([ -z "$DT_INSTALLED" ] || echo " (installed)")"
	for fs in "${fss[@]}"; do
		b=$out/batch-$fs.dt
		# ops as compare counts them: a par line is two
		echo "  $fs: $(grep -c '^script ' "$b") scripts, $(($(grep -cvE '^[[:space:]]*(#|script |end[[:space:]]*$|$)' "$b") +
			$(grep -cE '^[[:space:]]*par[[:space:]]' "$b"))) ops ($b)"
	done
	if [ -n "$custom_bz" ]; then
		echo "kernel: $custom_bz (module built against $custom_kb), contract $contract"
		bz=$custom_bz
	else
		for k in ${kernels//,/ }; do
			dt_kernel_paths "$k"
			if [ -n "$contract" ]; then c=$contract
			elif [ "$k" = stock ]; then c="stock and patched"
			else c=patched; fi
			echo "kernel: $k, Linux $KLINE, contract $c ($([ -f "$DT_BZIMAGE" ] && echo "built: $DT_BZIMAGE" || echo "not built yet: vm/kernel-build.sh $k$([ -z "$DT_INSTALLED" ] || echo ", in a liberrseq checkout")"))"
			bz=${bz:-$DT_BZIMAGE}
		done
	fi
	# the runner and its accelerator, as the guests would get them (no probe boot here)
	thr=single
	[ "$split" = mt ] && thr=multi
	VM_TCG_THREAD=$thr dt_qemu_cmd --no-probe "$bz" "$out/stage-K-1.initrd.gz" "$out/disks-K-1" \
		"$out/console-K-1.log.live"
	if [ "${DT_RUNNER:-run.sh}" = qemu ]; then
		echo "runner: qemu (QEMU directly), accelerator $VM_ACCEL_USE: $VM_ACCEL_WHY"
		# (a word with a character a shell would read is quoted)
		echo "qemu command of guest 1:$(for a in "${DT_QEMU[@]}"; do
			[[ "$a" =~ ^[][A-Za-z0-9_./:=,+@%-]+$ ]] && printf ' %s' "$a" || printf " '%s'" "$a"
		done)"
	else
		echo "runner: vm/run.sh, accelerator $VM_ACCEL_USE: $VM_ACCEL_WHY"
	fi
	exit 0
fi

fs_dev() { dt_fs_dev "$1"; }

# guest_run KTAG BZ KMOD TAG SPLIT FS:BATCH... -> $out/res-TAG-FS.log
# Guests booted at once, each running its share of every batch in order. SPLIT "mt": the
# scripts spread over $guests guests (script k of a batch, counted from 0, to guest
# k mod $guests + 1) on multi-threaded TCG, whose vCPUs run at the same time, as the races
# of "par" ops need. SPLIT "rr": the scenarios (scn.*), which hold the races, and one
# random script in four (index I of PREFIX.sSEED.I a multiple of 4: true races for the
# random par lines too) to one such guest (guest 0), the other random scripts over
# $guests guests on single-threaded TCG (QEMU's round robin of the vCPUs: more than twice
# the ops per CPU second; threads interleave only where one blocks). How many par lines
# had their two ops in flight at once is said after each run (the guest counts them). Shrinking keeps the split: a candidate is named after its
# script (scn.X~rNcM), so it runs on the kind of guest where that script diverged.
# Under KVM all are alike.
guest_run() {
	local ktag=$1 bz=$2 kmod=$3 tag=$4 split=$5
	shift 5
	local total=0 tops=0 pair fs b g n stage
	local -a pids=() used=()
	for ((g = 0; g <= guests; g++)); do
		stage=$out/stage-$tag-$g
		rm -rf "$stage" "$out/console-$tag-$g.log"*
		mkdir -p "$stage"
		: >"$stage/run.list"
	done
	for pair in "$@"; do
		fs=${pair%%:*} b=${pair#*:}
		total=$((total + $(grep -c '^script ' "$b")))
		# ops as compare counts them: a par line is two
		tops=$((tops + $(grep -cvE '^[[:space:]]*(#|script |end[[:space:]]*$|$)' "$b") +
			$(grep -cE '^[[:space:]]*par[[:space:]]' "$b")))
		awk -v n="$guests" -v mode="$split" -v pre="$out/stage-$tag-" -v f="batch-$fs.dt" '
			/^script / {
				# the index I of a random script PREFIX.sSEED.I (of a candidate: ~rRcN after)
				name = $2; sub(/~.*/, "", name); m = split(name, part, ".")
				if (mode == "rr" && ($2 ~ /^scn\./ || (part[m] ~ /^[0-9]+$/ && part[m] % 4 == 0)))
					g = 0
				else g = 1 + (k++ % n)
				if (!(g in seen)) { seen[g] = 1; printf "%s", head > (pre g "/" f) }
			}
			g == "" { head = head $0 "\n"; next }
			{ print > (pre g "/" f) }' "$b"
		for ((g = 0; g <= guests; g++)); do
			stage=$out/stage-$tag-$g
			[ -f "$stage/batch-$fs.dt" ] || continue
			echo "$fs $(fs_dev "$fs") batch-$fs.dt" >>"$stage/run.list"
		done
	done
	for ((g = 0; g <= guests; g++)); do
		[ -s "$out/stage-$tag-$g/run.list" ] && used+=("$g")
	done
	# the accelerator, said once per kernel: vm/run.sh's decision (vm/lib.sh, vm_accel), which
	# both runners follow; a probe boot, if this host boot has no verdict yet, happens here
	vm_accel "$bz"
	local acc=$VM_ACCEL_USE
	[ "$acc" = kvm ] || [ "$split" = mt ] || acc="tcg (random scripts single-threaded)"
	progress "$ktag: booting ($tag, $total scripts, $tops ops, ${#used[@]} guest(s) at once; runner ${DT_RUNNER:-run.sh}, accelerator $acc: $VM_ACCEL_WHY)"
	export VM_ACCEL_PROBE= # probed (again) once: the guests read the verdict
	local t_boot
	t_boot=$(date +%s)
	(
		t0=$(date +%s)
		while sleep 30; do
			n=$(cat "$out"/console-"$tag"-[0-9]*.log.live 2>/dev/null | grep -c '^DT E' || true)
			o=$(cat "$out"/console-"$tag"-[0-9]*.log.live 2>/dev/null | grep -c '^DT R' || true)
			dt=$(($(date +%s) - t0))
			eta=?
			[ "${n:-0}" -eq 0 ] || eta="$((dt * (total - n) / n)) s"
			progress "$ktag: $tag: $n/$total scripts, ${o:-0}/$tops ops done," \
				"$(awk -v o="${o:-0}" -v t=$dt 'BEGIN { printf "%.1f", o / t }') ops/s since boot, ETA $eta"
		done
	) &
	local mon=$!
	for g in "${used[@]}"; do
		stage=$out/stage-$tag-$g
		cp "$GUEST" "$stage/dtguest"
		cp "$kmod" "$stage/errseq_inject.ko"
		# a smaller trace ring buffer (KiB per CPU): tests/trace-losses.sh
		[ -z "${DT_TRACE_KB:-}" ] || echo "$DT_TRACE_KB" >"$stage/trace_kb"
		if [ -n "$modules" ]; then
			mkdir -p "$stage/mods"
			cp "$modules"/order "$modules"/*.ko "$stage/mods/"
		fi
		dt_make_disks "$out/disks-$tag-$g"
		local thr=multi
		[ "$split" = mt ] || [ "$g" = 0 ] || thr=single
		VM_TCG_THREAD=$thr dt_boot "$bz" "$stage" "$out/disks-$tag-$g" "$out/console-$tag-$g.log" "$tmo" &
		pids+=($!)
	done
	local rc=0 r
	for n in "${pids[@]}"; do
		r=0
		wait "$n" || r=$?
		[ $r -eq 0 ] || rc=$r
	done
	local wall=$(($(date +%s) - t_boot))
	kill "$mon" 2>/dev/null || true
	wait "$mon" 2>/dev/null || true
	: >"$out/results-$tag.txt"
	for g in "${used[@]}"; do
		rm -rf "$out/stage-$tag-$g" "$out/disks-$tag-$g"
		tr -d '\r' <"$out/console-$tag-$g.log" | grep '^DT ' >"$out/results-$tag-$g.txt" || true
		cat "$out/results-$tag-$g.txt" >>"$out/results-$tag.txt"
	done
	for ((g = 0; g <= guests; g++)); do rm -rf "$out/stage-$tag-$g"; done
	grep '^DT I' "$out/results-$tag.txt" | grep -v '^DT I \(run\|time\|phases\|optime\|par-overlap\)' | sed "s/^/  $ktag: /" >&2 || true
	# par lines whose two ops were in flight at once (the guest's count: DT I par-overlap)
	awk '$1 == "DT" && $3 == "par-overlap" { split($5, x, "/"); o += x[1]; l += x[2] }
		END { if (l) printf "%d of %d par lines had their two ops in flight at once\n", o, l }' \
		"$out/results-$tag.txt" | while read -r l; do progress "$ktag: $tag: $l"; done
	for pair in "$@"; do
		fs=${pair%%:*}
		awk -v fs="$fs" '/^DT B / { on = ($0 ~ (" fs=" fs " ")) } on' \
			"$out/results-$tag.txt" >"$out/res-$tag-$fs.log"
		# kernel, mode, ops run, guest seconds of the batch, one row per guest (main
		# runs only, not shrinking)
		[ "$tag" != "$ktag" ] || for g in "${used[@]}"; do
			awk -v k="$ktag" -v fs="$fs" -v OFS='\t' '
			$1 == "DT" && $2 == "I" && $3 == "time" && $4 == fs { t[$5] = $6 }
			/^DT B / { on = ($0 ~ (" fs=" fs " ")) } on && /^DT R / { n++ }
			END { if (("start" in t) && ("end" in t)) print k, fs, n + 0, t["end"] - t["start"] }' \
				"$out/results-$tag-$g.txt" >>"$out/speed.tsv"
		done
	done
	# kernel, ops run, wall seconds from the first boot to the last guest's end, guests
	n=$(grep -c '^DT R' "$out/results-$tag.txt" || true)
	[ "$tag" != "$ktag" ] || printf '%s\t%s\t%s\t%s\n' "$ktag" "$n" "$wall" "${#used[@]}" >>"$out/wall.tsv"
	progress "$ktag: $tag finished: $n ops in $wall s on ${#used[@]} guest(s) (boot included)"
	return $rc
}

# --- kernels
declare -a klist
if [ -n "$custom_bz" ]; then
	klist=(custom)
else
	IFS=, read -r -a klist <<<"$kernels"
fi

status=0
for k in "${klist[@]}"; do
	if [ "$k" = custom ]; then
		bz=$custom_bz kb=$custom_kb
		contracts=("$contract")
	else
		dt_kernel_paths "$k"
		bz=$DT_BZIMAGE kb=$DT_KBUILD
		[ -f "$bz" ] || die "no $k kernel at $bz (build it: vm/kernel-build.sh $k$([ -z "$DT_INSTALLED" ] || echo ", in a liberrseq checkout"))"
		if [ -n "$contract" ]; then contracts=("$contract")
		elif [ "$k" = stock ]; then contracts=(stock patched)
		else contracts=(patched); fi
	fi
	progress "$k: building errseq_inject.ko against $kb"
	dt_build_kmod "$kb" "$out/kmod-$k" || die "module build failed for $k"
	pairs=()
	for fs in "${fss[@]}"; do pairs+=("$fs:$out/batch-$fs.dt"); done
	guest_run "$k" "$bz" "$out/kmod-$k/errseq_inject.ko" "$k" "$split" "${pairs[@]}" ||
		{ status=1; dt_fail "guest-failed:$k"; continue; }
	# the contract itself, whatever the model says (difftest judge)
	jline=$KLINE
	if [ "$k" = custom ]; then
		jline=$(printf '%s\n' "$contract" | sed -n 's/.*linux=\([^,]*\).*/\1/p')
		[ -n "$jline" ] || jline=6.1
	fi
	# its own contract: --contract's, else the flavour's (stock, patched)
	dt_contract_check "$DT" "$out" "$k" "$jline" "${contract:-$k}" "${fss[@]}" || status=1

	for c in "${contracts[@]}"; do
		cfull=$c
		[ -n "$bug" ] && cfull="$c,bug=$bug"
		# the kernel line: where 6.12 behaves differently, the model follows it
		[ "$k" = custom ] || cfull="$cfull,linux=$KLINE"
		ctag=${c//,/+}
		# the kernel's own contract: must hold (or, with --bug, must not)
		own=0
		[ "$k" = custom ] && own=1
		[ "$k" = stock ] && [ "$c" = stock ] && own=1
		[ "$k" = patched ] && [ "$c" = patched ] && own=1
		[ -n "$contract" ] && own=1
		dt_judge "$DT" "$out" "$k" "$c" "$cfull" "$own" "$bug" "${fss[@]}" || status=1
		shrinkpairs=()
		for fs in "${fss[@]}"; do
			if [ -s "$out/div-$k-$ctag-$fs.dt" ] && { [ $shrinkown = 0 ] || [ $own = 1 ]; }; then
				# keep the first N divergent scripts for shrinking (all are in compare-*)
				# keep the first N divergent scripts of each attribution class
				awk -v max="$shrinkmax" '
					/^#/ { c = $0; cls = $0; sub(/^[^[]*\[/, "", cls); sub(/\].*/, "", cls); next }
					/^script / { keep = (++n[cls] <= max); if (keep) print c }
					keep' "$out/div-$k-$ctag-$fs.dt" >"$out/div.tmp" && mv "$out/div.tmp" "$out/div-$k-$ctag-$fs.dt"
				shrinkpairs+=("$fs")
			fi
		done
		# --- shrink: each round runs every candidate reduction in one boot
		r=1
		while [ ${#shrinkpairs[@]} -gt 0 ] && [ $r -le "$rounds" ]; do
			cand=()
			for fs in "${shrinkpairs[@]}"; do
				"$DT" shrink -c "$cfull" -f "$fs" -r "$r" "$out/div-$k-$ctag-$fs.dt" \
					>"$out/cand-$k-$ctag-$fs.dt"
				[ -s "$out/cand-$k-$ctag-$fs.dt" ] && cand+=("$fs:$out/cand-$k-$ctag-$fs.dt")
			done
			[ ${#cand[@]} -gt 0 ] || break
			guest_run "$k" "$bz" "$out/kmod-$k/errseq_inject.ko" "$k-shrink" "$split" "${cand[@]}" || break
			changed=0
			for pair in "${cand[@]}"; do
				fs=${pair%%:*}
				"$DT" shrink -c "$cfull" -f "$fs" -r "$r" "$out/div-$k-$ctag-$fs.dt" \
					"$out/res-$k-shrink-$fs.log" >"$out/div-next.dt" 2>"$out/shrink-log.txt"
				# the scripts, not the # lines shrink writes before them
				cmp -s <(grep -v '^#' "$out/div-next.dt") <(grep -v '^#' "$out/div-$k-$ctag-$fs.dt") ||
					changed=1
				mv "$out/div-next.dt" "$out/div-$k-$ctag-$fs.dt"
				progress "$k, $fs, contract $c: shrink round $r: $(awk '{printf "%s %s->%s ops; ", $2, $3, $5}' "$out/shrink-log.txt")"
			done
			[ $changed = 1 ] || break
			r=$((r + 1))
		done
		# re-attribute the minimal scripts (one boot confirms they still diverge)
		if [ ${#shrinkpairs[@]} -gt 0 ] && [ "$rounds" -eq 0 ]; then
			for fs in "${shrinkpairs[@]}"; do cp "$out/div-$k-$ctag-$fs.dt" "$out/cases-$k-$ctag-$fs.dt"; done
		elif [ ${#shrinkpairs[@]} -gt 0 ]; then
			cand=()
			for fs in "${shrinkpairs[@]}"; do cand+=("$fs:$out/div-$k-$ctag-$fs.dt"); done
			if guest_run "$k" "$bz" "$out/kmod-$k/errseq_inject.ko" "$k-final" "$split" "${cand[@]}"; then
				for fs in "${shrinkpairs[@]}"; do
					"$DT" compare -c "$cfull" -f "$fs" -k "$k" -d "$out/cases-$k-$ctag-$fs.dt" \
						$([ "$k" = custom ] || echo -T) $([ "$own" = 1 ] && echo -O) \
						"$out/div-$k-$ctag-$fs.dt" "$out/res-$k-final-$fs.log" \
						>"$out/compare-final-$k-$ctag-$fs.txt" || true
				done
			fi
		fi
	done
done

# --- save minimal cases
if [ "$save" = 1 ] && [ -z "$bug" ]; then
	mkdir -p "$cases_dir"
	for f in "$out"/cases-*.dt; do
		[ -s "$f" ] || continue
		base=$(basename "$f" .dt)
		dt_save_case "$f" "$cases_dir/${base#cases-}.dt"
	done
fi

# --- what the report and a merge of shards need, then the report
wall=$(($(date +%s) - t_start))
{
	echo "seed=$seed"; echo "ops=$ops"; echo "per=$per"; echo "fs=$fslist"
	echo "kernels=${custom_bz:-$kernels}"; echo "line=$KLINE"; echo "contract=$contract"; echo "scenarios=$scenarios"
	echo "scripts=$scriptlist"; echo "bug=$bug"; echo "shard=$si"; echo "shards=$sn"; echo "wall=$wall"; echo "status=$status"
	# why it failed (lib.sh, dt_fail): WHAT:KERNEL[:FS], a word each
	echo "failures=$DT_FAILURES"
	# the kernels: your own (--kernel), or vm/'s flavours built from this Debian source
	echo "custom=$custom_bz"; echo "source=$([ -n "$custom_bz" ] || echo "$LINUX_SOURCE_PKG $LINUX_SOURCE_VERSION")"
} >"$out/campaign.info"
report "report: " "$out"
exit $status
