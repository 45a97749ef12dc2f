#!/usr/bin/env bash
# usage: campaign-args.sh BUILD CASE
# campaign.sh without a guest, a CASE per ctest (difftest-campaign-CASE): its argument
# handling and what it does before it boots anything. Each command below must exit with
# the status given AND print the message given; the first that does not prints
# "FAIL: ..." with its output, and the script exits 1. BUILD: the cmake build tree
# (difftest/difftest, difftest/dtguest). Nothing is written outside a temporary
# directory (LIBERRSEQ_CACHE points there too).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1 case_=$2
C=$here/../campaign.sh
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export LIBERRSEQ_CACHE=$t/cache
unset DT_RUNNER DT_GUESTS VM_ACCEL VM_ACCEL_PROBE VM_TCG_THREAD VM_KVM_DEV
what=campaign.sh
target() { "$C" "$@"; }
. "$here/../../scripts/tests/cmdcheck.sh"

case "$case_" in
save-cases)
	# a campaign's minimal cases join the kept ones (cases/KERNEL-CONTRACT-FS.dt): the
	# scripts already there stay with their comments, a new name is appended with its
	# own, a script kept already is not added twice, another one under a kept name is
	# added under a name of its own
	. "$here/../lib.sh"
	printf '# kept: why\nscript a.1\nfsync d0\nend\n' >"$t/dst.dt"
	printf '# found: b\nscript b.2\nopen d0 f0\nend\n# found: a again\nscript a.1\nfsync d0\nend\n# found: another a\nscript a.1\nsync\nend\n' >"$t/src.dt"
	dt_save_case "$t/src.dt" "$t/dst.dt" || fail "dt_save_case failed"
	want='# kept: why
script a.1
fsync d0
end
# found: b
script b.2
open d0 f0
end
# found: another a
script a.1.2
sync
end'
	[ "$(cat "$t/dst.dt")" = "$want" ] || fail "cases merged wrong: $(cat "$t/dst.dt")"
	dt_save_case "$t/src.dt" "$t/new.dt" && cmp -s "$t/src.dt" "$t/new.dt" ||
		fail "a new cases file is not the campaign's"
	# (the second cold review) a kept file without its last newline, a comment inside
	# a script, another script under a kept name (a campaign of the same seed later),
	# an empty kept file; the kept file replaced whole, no .new left
	printf '# kept\nscript a.1\nfsync d0\nend' >"$t/dst2.dt"
	printf 'script c.3\n# inside\nsync\nend\nscript a.1\nsyncfs d0\nend\n# trailing\n' >"$t/src2.dt"
	dt_save_case "$t/src2.dt" "$t/dst2.dt" || fail "dt_save_case failed"
	printf '# kept\nscript a.1\nfsync d0\nend\nscript c.3\n# inside\nsync\nend\nscript a.1.2\nsyncfs d0\nend\n' >"$t/want2"
	cmp -s "$t/dst2.dt" "$t/want2" || fail "cases merged wrong: $(cat -A "$t/dst2.dt")"
	[ ! -e "$t/dst2.dt.new" ] || fail "dt_save_case left $t/dst2.dt.new"
	: >"$t/empty.dt"
	dt_save_case "$t/src.dt" "$t/empty.dt" && cmp -s "$t/src.dt" "$t/empty.dt" ||
		fail "an empty kept file did not take the campaign's cases: $(cat "$t/empty.dt")"
	;;
guests-zero)
	# --help promises 2 for a usage error, and says what is wrong
	run 2 --guests 0
	has err '^campaign\.sh: error: --guests 0: want a whole number >= 1$'
	;;
usage-errors)
	run 2 --frob
	has err '^campaign\.sh: error: unknown option --frob \(see --help\)$'
	run 2 --ops
	has err '^campaign\.sh: error: --ops needs a value \(see --help\)$'
	run 2 --ops many
	has err '^campaign\.sh: error: --ops many: want a whole number$'
	run 2 --ops-per-script 0
	has err '^campaign\.sh: error: --ops-per-script 0: want a whole number >= 1$'
	run 2 --shard 3/2
	has err '^campaign\.sh: error: --shard 3/2: want I/N with 1 <= I <= N$'
	run 2 --fs ext2,zfs
	has err "^campaign\\.sh: error: --fs: unknown filesystem mode 'zfs' \\(modes: ext2, ext4-ordered, ext4-journal, vfat, exfat, xfs, btrfs, tmpfs\\)$"
	run 2 --kernels stock,mine
	has err "^campaign\\.sh: error: --kernels: unknown flavour 'mine' \\(stock, patched; your own: --kernel BZIMAGE\\)$"
	run 2 --kernel "$t/no-such-bzImage" --kbuild "$t" --contract stock
	has err "^campaign\\.sh: error: --kernel $t/no-such-bzImage: no such file$"
	run 2 --runner docker
	has err '^campaign\.sh: error: --runner docker: want run\.sh or qemu$'
	;;
dry-run)
	# the batches made and checked, what would run said; nothing built or booted
	run 0 --dry-run --fs ext2,tmpfs --ops 60 --build "$build" --out "$t/o"
	has out "^dry run: nothing built or booted; the batches are in $t/o\$"
	has out "^  ext2: [1-9][0-9]* scripts, [1-9][0-9]* ops \($t/o/batch-ext2\.dt\)\$"
	has out "^  tmpfs: [1-9][0-9]* scripts, [1-9][0-9]* ops \($t/o/batch-tmpfs\.dt\)\$"
	has out '^kernel: stock, Linux [0-9.]+, contract stock and patched \(not built yet: vm/kernel-build\.sh stock\)$'
	has out '^kernel: patched, Linux [0-9.]+, contract patched \(not built yet'
	"$build/difftest/difftest" check "$t/o/batch-ext2.dt" "$t/o/batch-tmpfs.dt" >"$t/out" 2>"$t/err" ||
		fail "the batches do not parse"
	for f in "$t/o"/*; do
		case "${f##*/}" in batch-ext2.dt | batch-tmpfs.dt) ;; *) fail "more than the batches in --out: $f" ;; esac
	done
	[ ! -e "$LIBERRSEQ_CACHE" ] || fail "the dry run wrote to LIBERRSEQ_CACHE: $(ls "$LIBERRSEQ_CACHE")"
	;;
small-ops)
	# --ops at or below --ops-per-script: one script (ext2's half with real errors
	# has none), of --ops ops when that is fewer; "gen -R -n 0" died with its usage
	for ops in 30 10; do
		run 0 --dry-run --fs ext2,tmpfs --ops $ops --no-scenarios --build "$build" --out "$t/o$ops"
		has out '^  ext2: 1 scripts, '
		has out '^  tmpfs: 1 scripts, '
		"$build/difftest/difftest" gen -s 1000 -n 1 -o $ops -p random >"$t/want" 2>/dev/null
		cmp -s "$t/want" "$t/o$ops/batch-ext2.dt" || fail "ext2's batch is not gen -s 1000 -n 1 -o $ops"
	done
	# one op more than a script: two scripts, the second with real errors on ext2
	run 0 --dry-run --fs ext2 --ops 31 --no-scenarios --build "$build" --out "$t/o31"
	has out '^  ext2: 2 scripts, '
	grep -q '^script random-real\.s1500\.0$' "$t/o31/batch-ext2.dt" || fail "no random-real script"
	;;
merge-wall)
	# the merged report's wall time line counts the shards merged (it said "1 shards")
	for i in 1 2; do
		mkdir -p "$t/s$i"
		printf '%s\n' seed=1 ops=60 per=30 fs=ext2 kernels=stock line=6.1 contract= scenarios=1 \
			bug= shard=$i shards=2 wall=$((i * 10 + 5)) status=0 >"$t/s$i/campaign.info"
		printf 'stock\text2\tstock\trandom\t30\t1\t0\t0\tmd_cursor:0,several_switches:0,unexplained:0\t0\n' \
			>"$t/s$i/rows.tsv"
	done
	run 0 --merge "$t/s1,$t/s2" --out "$t/m" --build "$build"
	grep -qx 'Wall time: 2 shards, the longest 25 s, 40 s in all\.' "$t/m/report.md" ||
		fail "report.md: $(grep '^Wall time' "$t/m/report.md")"
	# the same as JSON next to it (difftest report -j)
	has out "^json: $t/m/report\\.json\$"
	python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); assert j["campaign"]["wall_seconds"] == 40 and j["campaign"]["wall_longest"] == 25 and [r["ops"] for r in j["rows"]] == [60], j' \
		"$t/m/report.json" >"$t/err" 2>&1 || fail "report.json: $(cat "$t/err")"
	;;
chart | chart-no-gnuplot)
	# the report's chart, on the merge of two made-up shards (as merge-wall): stock and
	# patched 6.1 on ext2 and tmpfs, stock held to stock and patched, divergent scripts
	# attributed and unexplained. chart: gnuplot draws REPORT-chart-LINE.svg next to the
	# report (--report elsewhere: next to that), from REPORT-chart-LINE.dat, the first
	# table's rows; the report links it. chart-no-gnuplot: without gnuplot (DT_GNUPLOT: none,
	# or one that fails) the report says so, and the merge's exit status is the shards' (0).
	for i in 1 2; do
		mkdir -p "$t/s$i"
		printf '%s\n' seed=1 ops=60 per=30 fs=ext2,tmpfs kernels=stock,patched line=6.1 contract= \
			scenarios=1 bug= shard=$i shards=2 wall=$((i * 10 + 5)) status=0 >"$t/s$i/campaign.info"
		{
			printf 'stock\text2\tstock\trandom\t30\t1\t0\t0\tmd_cursor:0,several_switches:0,unexplained:0\t0\n'
			printf 'stock\text2\tpatched\trandom\t30\t1\t1\t0\tmd_cursor:1,several_switches:0,unexplained:0\t0\n'
			printf 'stock\ttmpfs\tstock\trandom\t25\t1\t0\t0\tmd_cursor:0,several_switches:0,unexplained:0\t0\n'
			printf 'stock\ttmpfs\tpatched\trandom\t25\t1\t1\t0\tmd_cursor:0,several_switches:0,unexplained:1\t0\n'
			printf 'patched\text2\tpatched\trandom\t30\t1\t0\t0\tmd_cursor:0,several_switches:0,unexplained:0\t0\n'
			printf 'patched\ttmpfs\tpatched\trandom\t25\t1\t%d\t0\tmd_cursor:0,several_switches:0,unexplained:%d\t0\n' $((i - 1)) $((i - 1))
		} >"$t/s$i/rows.tsv"
	done
	line='[0-9]+\.[0-9]+'
	if [ "$case_" = chart ]; then
		command -v gnuplot >/dev/null || { echo "SKIP: gnuplot is not installed (Debian: gnuplot-nox; scripts/deps.sh difftest)"; exit 77; }
		run 0 --merge "$t/s1,$t/s2" --out "$t/m" --build "$build"
		has out '^report: '"$t/m/report\.md\$"
		has out "^chart: $t/m/report-chart-$line\\.svg\$"
		svg=$(ls "$t"/m/report-chart-*.svg)
		[ -s "$svg" ] || fail "$svg is empty"
		head -c 600 "$svg" | grep -q '<svg' || fail "$svg is not SVG: $(head -c 200 "$svg")"
		for l in "ext2 stock/stock" "ext2 stock/patched" "tmpfs stock/patched" "tmpfs patched/patched" attributed unexplained "difftest: Linux "; do
			grep -qF ">$l" "$svg" || fail "$svg has no text '$l'"
		done
		grep -qx "!\[ops and divergent scripts (attributed, unexplained) per filesystem mode, kernel and contract\]($(basename "$svg"))" \
			"$t/m/report.md" || fail "report.md does not link $(basename "$svg"): $(grep -i chart "$t/m/report.md")"
		# its data: the first table's rows (ops, scripts, divergent, attributed, unexplained)
		printf '%s\n' '"ext2 stock/stock" 60 2 0 0 0' '"ext2 stock/patched" 60 2 2 2 0' \
			'"tmpfs stock/stock" 50 2 0 0 0' '"tmpfs stock/patched" 50 2 2 0 2' \
			'"ext2 patched/patched" 60 2 0 0 0' '"tmpfs patched/patched" 50 2 1 0 1' >"$t/want"
		grep -v '^#' "${svg%.svg}.dat" | cmp -s - "$t/want" || fail "$(basename "${svg%.svg}.dat"): $(cat "${svg%.svg}.dat")"
		grep -q '^| patched | tmpfs | patched | 50 | 2 | 1 | 0 | 1 | 0 | - |$' "$t/m/report.md" || fail "report.md's table"
		# --report elsewhere: the chart next to it
		run 0 --merge "$t/s1,$t/s2" --out "$t/m2" --report "$t/r/mine.md" --build "$build"
		ls "$t"/r/mine-chart-*.svg >/dev/null 2>&1 || fail "no $t/r/mine-chart-LINE.svg: $(ls "$t/r")"
		[ -s "$t/r/mine.json" ] || fail "no $t/r/mine.json next to mine.md: $(ls "$t/r")"
		grep -qE "^!\[.*\]\(mine-chart-$line\\.svg\)\$" "$t/r/mine.md" || fail "mine.md does not link its chart"
		[ ! -e "$t/m2/report.md" ] || fail "a report in --out with --report elsewhere"
	else
		DT_GNUPLOT=$t/no-gnuplot run 0 --merge "$t/s1,$t/s2" --out "$t/m" --build "$build"
		has err '^campaign\.sh: warning: no chart in the report: gnuplot is not installed \(Debian: gnuplot-nox\)$'
		grep -qE "^Chart: not drawn: gnuplot is not installed \\(Debian: gnuplot-nox\\); its data: \\[report-chart-$line\\.dat\\]\\(report-chart-$line\\.dat\\)\\.\$" \
			"$t/m/report.md" || fail "report.md does not say the chart was not drawn"
		! ls "$t"/m/*.svg >/dev/null 2>&1 || fail "a chart without gnuplot"
		ls "$t"/m/report-chart-*.dat >/dev/null 2>&1 || fail "no chart data"
		lacks out '^chart: '
		# a gnuplot that fails: said, with its first message
		printf '#!/bin/sh\necho "line 1: stand-in gnuplot refuses" >&2\nexit 1\n' >"$t/bad-gnuplot"
		chmod +x "$t/bad-gnuplot"
		DT_GNUPLOT=$t/bad-gnuplot run 0 --merge "$t/s1,$t/s2" --out "$t/m" --build "$build"
		has err '^campaign\.sh: warning: no chart in the report: gnuplot failed \(its messages: .*report-chart-.*\.dat\.err\)$'
		grep -qE "^Chart: not drawn: gnuplot failed: line 1: stand-in gnuplot refuses; its data: \\[report-chart-$line\\.dat\\]" \
			"$t/m/report.md" || fail "report.md does not say gnuplot failed"
	fi
	;;
script-bad)
	# a bad script stops the campaign before anything is built or run: FILE:LINE, exit 2
	bad=$here/bad/unknown-op.dt
	run 2 --script "$here/user/two.dt" "$bad" --fs ext2 --dry-run --build "$build" --out "$t/o"
	has err "^campaign\.sh: error: --script: $bad:4: unknown operation 'frobnicate'\$"
	[ ! -e "$t/o/batch-ext2.dt" ] || fail "a batch was made"
	# two files naming a script alike: both named
	run 2 --script "$here/user/two.dt" "$here/user/same-name.dt" --dry-run --build "$build" --out "$t/o"
	has err "^campaign\.sh: error: --script: $here/user/same-name\.dt:2: a second script named meta-twice \(the first at $here/user/two\.dt:2\)\$"
	run 2 --script "$t/none.dt" --dry-run --build "$build" --out "$t/o"
	has err "^campaign\.sh: error: --script $t/none\.dt: no such file\$"
	run 2 --script --dry-run
	has err '^campaign\.sh: error: --script needs FILE\.\.\. \(see --help\)$'
	;;
script-good)
	# good scripts are the whole batch of every mode (no scenario, no random script);
	# with no guest here, the model predicts them on the host
	run 0 --script "$here/user/lost-after-evict.dt" "$here/user/two.dt" --fs ext2,tmpfs \
		--dry-run --build "$build" --out "$t/o"
	has out '^  ext2: 3 scripts, '
	has out '^  tmpfs: 3 scripts, '
	"$build/difftest/difftest" batch "$here/user/lost-after-evict.dt" "$here/user/two.dt" >"$t/want"
	for fs in ext2 tmpfs; do
		cmp -s "$t/want" "$t/o/batch-$fs.dt" || fail "batch-$fs.dt is not the scripts given"
	done
	"$build/difftest/difftest" predict -c patched -f ext2 "$t/o/batch-ext2.dt" >"$t/out" 2>"$t/err" ||
		fail "predict failed"
	last="difftest predict -c patched -f ext2 batch-ext2.dt"
	for n in lost-after-evict meta-twice syncfs-two-fds; do has out "^DT E $n\$"; done
	# lost-after-evict: the patched kernel's fsync after the eviction reports the error
	has out '^DT R 7 -1 EIO$'
	;;
kernel-line)
	# --help says what linux= is and where adding a line is written down
	run 0 --help
	has out '^  --contract C '
	has out 'Plus linux=LINE: the kernel$'
	has out '"Kernel lines", says how a line.s facts are added'
	# --kernel: the line from --kbuild's kernel.release; one the model has no facts for
	# takes the nearest, said once, and the contract names the line used
	mkdir -p "$t/kb/include/config"
	: >"$t/bzImage"
	k=(--kernel "$t/bzImage" --kbuild "$t/kb" --fs ext2 --ops 0 --dry-run --build "$build" --out "$t/o")
	echo 6.18.2-test >"$t/kb/include/config/kernel.release"
	run 0 "${k[@]}" --contract stock
	has err "^campaign\.sh: warning: no facts for kernel line '6\.18\.2-test'; using the nearest line the model knows, 6\.12 "
	[ "$(grep -c 'no facts' "$t/err")" = 1 ] || fail "the warning is not said once"
	has out "^kernel: $t/bzImage \(module built against $t/kb\), contract stock,linux=6\.12\$"
	# a version of a line the model knows: that line, no warning
	echo 6.12.5 >"$t/kb/include/config/kernel.release"
	run 0 "${k[@]}" --contract stock
	lacks err 'warning'
	has out ", contract stock,linux=6\.12\.5\$"
	# a line named in --contract is kept
	run 0 "${k[@]}" --contract patched,linux=6.1
	has out ", contract patched,linux=6\.1\$"
	run 2 "${k[@]}" --contract stock,linux=foo
	has err "^campaign\.sh: error: --contract: bad kernel line 'foo': want a version such as 6\.12"
	;;
kconfig-preflight)
	# --kernel: --kbuild's .config checked against guest.config, what lacks said (not fatal)
	mkdir -p "$t/kb/include/config"
	: >"$t/bzImage"
	echo 6.1.0 >"$t/kb/include/config/kernel.release"
	grep '^CONFIG_' "$here/../guest.config" | grep -v '^CONFIG_XFS_FS=' >"$t/kb/.config"
	k=(--kernel "$t/bzImage" --kbuild "$t/kb" --contract stock --fs ext2 --ops 0 --dry-run
		--build "$build" --out "$t/o")
	run 0 "${k[@]}"
	has err "^campaign\.sh: warning: $t/kb/\.config lacks 1 of the [0-9]+ options of .*guest\.config \(difftest/kconfig-check\.sh\):\$"
	has err '^  missing: CONFIG_XFS_FS=y \(the config: not in it\) -- xfs mode$'
	grep '^CONFIG_' "$here/../guest.config" >"$t/kb/.config"
	run 0 "${k[@]}"
	lacks err 'warning'
	;;
accel)
	# the qemu runner's command line and accelerator: vm/run.sh's decision (vm/lib.sh,
	# vm_accel), said; forced by VM_ACCEL, from a faked verdict of this host boot, or none
	# yet (a dry run never probes). VM_KVM_DEV: a file that opens, or none.
	d=(--dry-run --fs ext2 --ops 30 --no-scenarios --build "$build" --out "$t/o")
	q='^qemu command of guest 1: qemu-system-x86_64 -machine q35 '
	tail=" -smp 2 -m 1024 -nographic -no-reboot -nodefaults -kernel [^ ]*/bzImage -initrd $t/o/stage-K-1\.initrd\.gz -append 'console=ttyS0 panic=-1 oops=panic printk\.time=1 no_timer_check rdinit=/init' -drive file=$t/o/disks-K-1/ext2\.img,if=virtio,format=raw,cache=unsafe( -drive [^ ]*){5} -drive file=$t/o/disks-K-1/raw\.img,if=virtio,format=raw,cache=unsafe -serial file:$t/o/console-K-1\.log\.live\$"
	VM_ACCEL=tcg run 0 "${d[@]}" --runner qemu
	has out '^runner: qemu \(QEMU directly\), accelerator tcg: VM_ACCEL=tcg$'
	has out "$q-accel tcg,thread=single -cpu max$tail"
	VM_ACCEL=tcg run 0 "${d[@]}" --runner qemu --mttcg-all
	has out "$q-accel tcg,thread=multi -cpu max "
	VM_ACCEL=kvm run 0 "${d[@]}" --runner qemu
	has out '^runner: qemu \(QEMU directly\), accelerator kvm: VM_ACCEL=kvm$'
	has out "$q-accel kvm -cpu host$tail"
	lacks out '-cpu max|tcg'
	VM_KVM_DEV=$t/no-kvm run 0 "${d[@]}" --runner qemu
	has out "^runner: qemu \(QEMU directly\), accelerator tcg: $t/no-kvm cannot be opened\$"
	has out "$q-accel tcg,thread=single -cpu max "
	# /dev/kvm opens: the verdict of this host boot decides; none yet: said, not probed
	: >"$t/kvm"
	export VM_KVM_DEV=$t/kvm
	run 0 "${d[@]}" --runner qemu
	has out "^runner: qemu \(QEMU directly\), accelerator unprobed: $t/kvm opens, no verdict for this host boot in $LIBERRSEQ_CACHE/vm/accel/ yet: the first boot probes KVM"
	[ ! -e "$LIBERRSEQ_CACHE" ] || fail "the dry run wrote to LIBERRSEQ_CACHE: $(ls -R "$LIBERRSEQ_CACHE")"
	verdict=$(. "$here/../../vm/lib.sh" && vm_accel_verdict)
	mkdir -p "$(dirname "$verdict")"
	echo "kvm the kernel booted under KVM (bzImage, faked)" >"$verdict"
	run 0 "${d[@]}" --runner qemu
	has out '^runner: qemu \(QEMU directly\), accelerator kvm: the kernel booted under KVM \(bzImage, faked\)$'
	has out "$q-accel kvm -cpu host$tail"
	run 0 "${d[@]}"
	has out '^runner: vm/run\.sh, accelerator kvm: the kernel booted under KVM \(bzImage, faked\)$'
	lacks out '^qemu command'
	echo "tcg a probe boot under KVM printed 0 lines in 30 s (faked)" >"$verdict"
	run 0 "${d[@]}" --runner qemu
	has out '^runner: qemu \(QEMU directly\), accelerator tcg: a probe boot under KVM printed 0 lines in 30 s \(faked\)$'
	has out "$q-accel tcg,thread=single -cpu max$tail"
	;;
*)
	echo "campaign-args.sh: unknown case '$case_'" >&2
	exit 2
	;;
esac
echo "$case_: PASS"
