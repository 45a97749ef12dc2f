# Sourced by difftest/ scripts: build the guest pieces and boot one QEMU run.
# shellcheck shell=bash
DT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$DT_DIR/../scripts/lib.sh"
DT_CACHE=$LIBERRSEQ_CACHE/difftest
# Installed (cmake --install, difftest/install.cmake): DT_INSTALLED=1, and the installed
# host tool and guest program (DT_INSTALLED_TOOL, DT_INSTALLED_GUEST)
DT_INSTALLED=
# shellcheck source=/dev/null
if [ -f "$DT_DIR/installed.sh" ]; then
	. "$DT_DIR/installed.sh"
	DT_INSTALLED_TOOL=$(realpath -m "$DT_INSTALLED_TOOL")
	DT_INSTALLED_GUEST=$(realpath -m "$DT_INSTALLED_GUEST")
fi

# dt_missing_pieces: prints each file a campaign needs (besides the host tool and the guest
# program) that is not there, as a path under DT_DIR/.. (difftest/..., vm/..., scripts/...):
# the guest command, the injection module's source, the scenarios, the config check, the
# report's chart, vm/'s runner and initramfs (with the guest programs' sources),
# scripts/deps.sh and vm/'s package list. The same in a checkout and installed
# (difftest/install.cmake installs them all).
dt_missing_pieces() {
	local f
	for f in guest/run-batches.sh kmod/build.sh kmod/Kbuild kmod/errseq_inject.c \
		scenarios/meta.dt kconfig-check.sh guest.config chart.gp ../vm/run.sh \
		../vm/mkinitramfs.sh ../vm/lib.sh ../vm/kernel-line.sh ../vm/kernel.env ../vm/guest/init \
		../vm/guest/fsync-ok.c ../vm/guest/dm-eio.c ../scripts/deps.sh ../scripts/lib.sh \
		../scripts/packages/vm.txt; do
		[ -f "$DT_DIR/$f" ] || { [ "${f#../}" != "$f" ] && echo "${f#../}" || echo "difftest/$f"; }
	done
}

# dt_kernel_paths FLAVOUR -> sets DT_BZIMAGE DT_KBUILD (from vm/'s layout)
dt_kernel_paths() {
	# (once: sourcing it again would define scripts/lib.sh's die() again over the caller's)
	# shellcheck source=/dev/null
	[ -n "${VM_DIR:-}" ] || . "$DT_DIR/../vm/lib.sh"
	DT_BZIMAGE=$(vm_bzimage "$1")
	DT_KBUILD=$(vm_build_dir "$1")
}

# dt_build_kmod KBUILD OUTDIR: errseq_inject.ko against that kernel tree
dt_build_kmod() {
	"$DT_DIR/kmod/build.sh" "$1" "$2" >/dev/null
}

# dt_make_disks DIR: fresh ext2, ext4, vfat, exfat, xfs and btrfs images (mkfs on image
# files only, sparse; nothing is mounted on the host), and raw.img, 4 MiB of zeros: the
# disk under "open dN raw" (the model's page cache holds 4 MiB of it). tmpfs needs none.
# XFS wants 300 MiB at least.
dt_make_disks() {
	local d=$1
	mkdir -p "$d"
	rm -f "$d/ext2.img" "$d/ext4.img" "$d/vfat.img" "$d/exfat.img" "$d/xfs.img" "$d/btrfs.img" \
		"$d/raw.img"
	truncate -s 4M "$d/raw.img"
	truncate -s 64M "$d/ext2.img" "$d/ext4.img" "$d/vfat.img" "$d/exfat.img"
	truncate -s 300M "$d/xfs.img"
	truncate -s 256M "$d/btrfs.img"
	mkfs.xfs -q -f "$d/xfs.img" >/dev/null
	mkfs.btrfs -q -f "$d/btrfs.img" >/dev/null
	mkfs.ext2 -q -F -b 4096 "$d/ext2.img" >/dev/null
	mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 "$d/ext4.img" >/dev/null
	mkfs.vfat "$d/vfat.img" >/dev/null
	mkfs.exfat "$d/exfat.img" >/dev/null
}

# dt_fs_dev FS: the guest's disk for a filesystem mode (dt_boot's order); "none" for tmpfs
dt_fs_dev() {
	case "$1" in
	ext2) echo /dev/vda ;;
	ext4-*) echo /dev/vdb ;;
	vfat) echo /dev/vdc ;;
	exfat) echo /dev/vdd ;;
	xfs) echo /dev/vde ;;
	btrfs) echo /dev/vdf ;;
	tmpfs) echo none ;;
	*) echo "difftest: no disk for filesystem '$1'" >&2; return 1 ;;
	esac
}

# dt_qemu_cmd [--no-probe] BZIMAGE INITRD DISKDIR CONSOLE: sets DT_QEMU, the command
# DT_RUNNER=qemu boots a guest with (q35, SeaBIOS, 2 vCPUs, 1 GiB, the disks of dt_boot,
# the serial console into CONSOLE), and DT_ACCEL_LINE, the line that says its accelerator
# and why. The accelerator is vm/run.sh's (vm/lib.sh, vm_accel): KVM where a kernel was
# seen to boot under it on this machine (a probe boot, once per host boot), else TCG
# (VM_TCG_THREAD: its threading); VM_ACCEL=tcg|kvm forces one. --no-probe: never boot
# to decide (campaign.sh --dry-run).
dt_qemu_cmd() {
	local probe=()
	[ "$1" != --no-probe ] || { probe=(--no-probe); shift; }
	local bz=$1 initrd=$2 disks=$3 console=$4 d
	[ -n "${VM_DIR:-}" ] || . "$DT_DIR/../vm/lib.sh"
	vm_accel "${probe[@]}" "$bz"
	DT_ACCEL_LINE="difftest: accelerator $VM_ACCEL_USE: $VM_ACCEL_WHY"
	DT_QEMU=(qemu-system-x86_64 -machine q35 "${VM_ACCEL_ARGS[@]}")
	[ "$VM_ACCEL_USE" = kvm ] || DT_QEMU+=(-cpu max)
	# (no_timer_check: as vm/run.sh, no early timer panic under TCG on a loaded host)
	DT_QEMU+=(-smp 2 -m 1024 -nographic -no-reboot -nodefaults -kernel "$bz" -initrd "$initrd"
		-append "console=ttyS0 panic=-1 oops=panic printk.time=1 no_timer_check rdinit=/init")
	for d in ext2 ext4 vfat exfat xfs btrfs raw; do
		DT_QEMU+=(-drive "file=$disks/$d.img,if=virtio,format=raw,cache=unsafe")
	done
	DT_QEMU+=(-serial "file:$console")
}

# dt_qemu_run CONSOLE ERRLOG TIMEOUT: runs DT_QEMU (dt_qemu_cmd, whose console is CONSOLE),
# its stderr and DT_ACCEL_LINE appended to ERRLOG, killed after TIMEOUT seconds; returns
# QEMU's status (137 when killed). A guest that prints no "Linux version" within
# VM_BOOT_SILENCE seconds (default 60) is hung (firmware or accelerator, vm/lib.sh:
# vm_watch_boot): QEMU is killed, "difftest: HANG: ..." appended to ERRLOG, status 124.
dt_qemu_run() {
	local console=$1 errlog=$2 tmo=$3 rc=0 hang
	hang=$(mktemp -u "${TMPDIR:-/tmp}/dt-hang.XXXXXX")
	echo "$DT_ACCEL_LINE" >>"$errlog"
	nice -n 5 timeout -s KILL "$tmo" "${DT_QEMU[@]}" </dev/null >/dev/null 2>>"$errlog" &
	local qpid=$!
	vm_watch_boot "$qpid" "$console" "$hang"
	wait "$qpid" || rc=$?
	vm_unwatch_boot
	if [ -f "$hang" ]; then
		rm -f "$hang"
		echo "difftest: HANG: the guest printed nothing within ${VM_BOOT_SILENCE:-60} s" \
			"under $VM_ACCEL_USE; QEMU killed" >>"$errlog"
		return 124
	fi
	return $rc
}

# dt_boot BZIMAGE STAGEDIR DISKDIR CONSOLELOG TIMEOUT
# Boots with ext2.img, ext4.img, vfat.img, exfat.img, xfs.img, btrfs.img, raw.img as
# /dev/vda..vdg (dtguest's --raw default is /dev/vdg), STAGEDIR (dtguest,
# errseq_inject.ko, run.list, batches) as /dt, running guest/run-batches.sh. The guest's
# result lines ("DT ...") end up in CONSOLELOG (CONSOLELOG.live while it runs).
# DT_RUNNER=run.sh (default): through vm/run.sh, whose status is returned (121: kernel
# splat, 122: no status, 123: timeout, 124: hang). DT_RUNNER=qemu: QEMU directly
# (dt_qemu_cmd: q35, KVM or TCG as vm/run.sh decides, the accelerator said in
# CONSOLELOG.err), with the initramfs of vm/mkinitramfs.sh, for when vm/run.sh is unusable.
dt_boot() {
	local bz=$1 stage=$2 disks=$3 log=$4 tmo=${5:-2400} rc=0
	cp "$DT_DIR/guest/run-batches.sh" "$stage/cmd"
	: >"$log"
	if [ "${DT_RUNNER:-run.sh}" = qemu ]; then
		echo "difftest batches" >"$stage/cmd-text"
		"$DT_DIR/../vm/mkinitramfs.sh" -o "$stage.initrd.gz" --add "$stage:/dt" \
			--add "$stage/cmd:/etc/liberrseq/cmd" --add "$stage/cmd-text:/etc/liberrseq/cmd-text" \
			2>"$log.err" || return 1
		dt_qemu_cmd "$bz" "$stage.initrd.gz" "$disks" "$log.live"
		dt_qemu_run "$log.live" "$log.err" "$tmo" || rc=$?
		rm -f "$stage.initrd.gz"
		tr -d '\r' <"$log.live" >"$log"
	else
		nice -n 5 "$DT_DIR/../vm/run.sh" --kernel "$bz" --disk "$disks/ext2.img" \
			--disk "$disks/ext4.img" --disk "$disks/vfat.img" --disk "$disks/exfat.img" \
			--disk "$disks/xfs.img" --disk "$disks/btrfs.img" --disk "$disks/raw.img" \
			--add "$stage:/dt" --timeout "$tmo" --mem 1024M \
			--log "$log" -q -- sh /dt/cmd >"$log.live" 2>"$log.err" || rc=$?
	fi
	if [ $rc -ne 0 ] || ! grep -q '^DT DONE' "$log"; then
		echo "difftest: guest run failed (${DT_RUNNER:-run.sh} status $rc); console log: $log" >&2
		tail -n 20 "$log.err" "$log" >&2
		[ $rc -ne 0 ] || rc=1
	fi
	return $rc
}

# Why a campaign fails, a word per reason, said by dt_fail: WHAT:KERNEL[:FS], WHAT one of
#   diverged        KERNEL diverged from its own contract on FS (compare)
#   no-divergence   with a planted bug, KERNEL showed no divergence on any mode
#   not-run         KERNEL's guest did not run or finish every script of FS, or its
#                   harness failed (compare's exit status 3)
#   broke-contract  KERNEL broke the contract itself on FS (judge: not a known deviation)
#   not-judged      judge could not judge every script of KERNEL on FS
#   guest-failed    KERNEL's guest run failed (boot, time out): no results
# campaign.sh writes them into campaign.info (failures=), difftest report says them.
DT_FAILURES=
# dt_save_case SRC DST: a campaign's minimal cases (SRC: script blocks, each with the
# comment lines before it) joined to the kept ones (DST, made when absent or empty): a
# script DST has already, line for line, is left out; another one under a kept name is
# added as NAME.2 (.3, ...); the comments inside a script stay in it. DST is replaced
# whole (a temporary file moved over it).
dt_save_case() {
	[ -s "$2" ] || { cp "$1" "$2"; return; }
	awk -v dst="$2" '
	function name_free(n,   k) { k = 2; while ((n "." k) in have) k++; return n "." k }
	FILENAME == dst {
		print
		if ($1 == "script") { cur = $2; have[cur] = 1; body[cur] = "" }
		else if (cur != "") { body[cur] = body[cur] $0 "\n"; if ($1 == "end") cur = "" }
		next
	}
	cur == "" && $1 != "script" { pend = pend $0 "\n"; next }
	$1 == "script" { cur = $2; blk = ""; next }
	{ blk = blk $0 "\n" }
	$1 == "end" {
		if (!(cur in have)) { n = cur }
		else if (body[cur] != blk) { n = name_free(cur) }
		else { n = "" }
		if (n != "") { printf "%sscript %s\n%s", pend, n, blk; have[n] = 1; body[n] = blk }
		pend = ""; cur = ""
	}' "$2" "$1" >"$2.new" && mv "$2.new" "$2"
}

dt_fail() { DT_FAILURES="${DT_FAILURES:+$DT_FAILURES }$1"; }

# dt_judge DT OUT KERNEL CONTRACT CFULL OWN BUG FS...
# Compares the guest's results OUT/res-KERNEL-FS.log of OUT/batch-FS.dt for each
# FS with CONTRACT (CFULL: with bug=BUG), as campaign.sh does: compare output in
# OUT/compare-KERNEL-CTAG-FS.txt, divergent scripts in OUT/div-KERNEL-CTAG-FS.dt,
# rows appended to OUT/rows.tsv; calls progress() (the caller's) per FS. Status
# 1 when the guest did not run every script, or OWN is 1 (the kernel's own
# contract) and the kernel did not keep it (with BUG: showed no divergence), each
# reason said by dt_fail; dies when compare fails.
# dt_contract_check DT OUT K LINE OWN FS...: difftest judge (the contract itself,
# doc/judge.md) on kernel K's results of each FS, into OUT/judge-K-FS.txt. OWN is the
# contract K is held to: a stock one (stock, or stock,...: the stock kernel, or a
# --kernel said to be like it) is judged with the patched contract's switches as its
# known deviations (-c), and its UNEXPLAINED violations are said, not failed (the model
# cannot always attribute them: doc/judge.md); any other kernel's violation, or a
# script it cannot judge, fails (status 1; dt_fail broke-contract, not-judged).
dt_contract_check() {
	local dt=$1 out=$2 k=$3 line=$4 own=$5 st=0 fs rc f args stocklike=0
	shift 5
	case "$own" in stock | stock,*) stocklike=1 ;; esac
	for fs in "$@"; do
		f=$out/judge-$k-$fs.txt
		# LINE: vm/'s, or a --kernel's from its contract (linux=); -T: vm/'s
		# kernels have the tracepoints
		args=(-f "$fs" -k "$k" -l "$line")
		[ "$k" = custom ] || args+=(-T)
		[ $stocklike = 0 ] || args+=(-c "patched,linux=$line")
		rc=0
		"$dt" judge "${args[@]}" "$out/batch-$fs.dt" "$out/res-$k-$fs.log" >"$f" || rc=$?
		[ $rc -le 1 ] || [ $rc -eq 3 ] || die "judge failed: $f"
		progress "$k, $fs, the contract itself: $(tail -n 1 "$f" | sed 's/^judged //')"
		if [ $rc -ne 0 ] && { [ $stocklike = 0 ] || grep -q '^UNJUDGED ' "$f"; }; then
			st=1
			[ $stocklike = 1 ] || ! grep -q '^JUDGE ' "$f" || dt_fail "broke-contract:$k:$fs"
			! grep -q '^UNJUDGED ' "$f" || dt_fail "not-judged:$k:$fs"
			grep -m3 -E '^(JUDGE|UNJUDGED) ' "$f" | while read -r l; do progress "  $l"; done
		fi
	done
	return $st
}

dt_judge() {
	local dt=$1 out=$2 k=$3 c=$4 cfull=$5 own=$6 bug=$7 ctag=${4//,/+} st=0 fs rc cmpout div=0
	shift 7
	for fs in "$@"; do
		cmpout=$out/compare-$k-$ctag-$fs.txt
		rc=0
		# vm/'s kernels have the tracepoints: a block without them is not compared
		# its own contract: a divergence is a finding, not put down to switches (-O)
		"$dt" compare -c "$cfull" -f "$fs" -k "$k" $([ "$k" = custom ] || echo -T) \
			$([ "$own" = 1 ] && echo -O) -t "$out/rows.tsv" \
			-d "$out/div-$k-$ctag-$fs.dt" "$out/batch-$fs.dt" "$out/res-$k-$fs.log" \
			>"$cmpout" || rc=$?
		[ $rc -le 1 ] || [ $rc -eq 3 ] || die "compare failed: $cmpout"
		# divergences: compare's DIVERGE lines (its exit status is 3 when some
		# scripts were not run, whatever the others did)
		if grep -q '^DIVERGE ' "$cmpout"; then
			div=1
			[ "$own" != 1 ] || [ -n "$bug" ] || dt_fail "diverged:$k:$fs"
		fi
		[ $rc -ne 3 ] || { st=1; dt_fail "not-run:$k:$fs"; progress "$k, $fs: the guest did not run every script: $(grep -m1 -E '^(SETUP|MISSING|INCOMPLETE|NOTRACE)' "$cmpout")"; }
		progress "$k, $fs, contract $c: $(tail -n 1 "$cmpout" | sed 's/^compared .*, contract [^:]*: //')"
	done
	# the verdict: compare's divergences, whatever the TSV calls the contract
	if [ "$own" = 1 ]; then
		if [ -z "$bug" ] && [ $div = 1 ]; then st=1; fi
		if [ -n "$bug" ] && [ $div = 0 ]; then st=1; dt_fail "no-divergence:$k"; fi
	fi
	return $st
}
