#!/usr/bin/env bash
# Boot a kernel in QEMU, run one command in the guest, stream the console to stdout and exit
# with the guest command's exit status.
#
# usage: vm/run.sh --kernel stock|patched|PATH/bzImage [options] [-- COMMAND [ARG]...]
#   --kernel K        flavour (built by vm/kernel-build.sh) or a bzImage path
#   --disk IMG        raw disk image, attached as virtio disk (/dev/vda, /dev/vdb, ... in order)
#   --initrd FILE     base initramfs (default: a fresh vm/mkinitramfs.sh one)
#   --add SRC:DST     extra file for the default initramfs (see vm/mkinitramfs.sh)
#   --timeout S       hard limit for the whole boot+command+poweroff, default 300
#   --append ARGS     extra kernel command line
#   --allow-splat     do not fail on BUG:/WARNING:/Oops/lockdep reports in the kernel log
#   --smp N           virtual CPUs, default 2;  --mem SIZE  guest memory, default 512M
#   --log FILE        also keep the full console log in FILE
#   -q, --quiet       stream only from the guest init's first line on (boot log hidden;
#                     on failure the last lines are still printed)
# Without COMMAND, an interactive shell runs on the console (no timeout unless given).
# COMMAND runs with its argv exactly as given (use `sh -c '...'` for shell syntax), cwd /,
# stdin /dev/null, PATH including /usr/bin where the vm/guest programs live.
#
# Exit status: the guest command's, or
#   120  usage or setup error (this script)
#   121  kernel splat: BUG:, WARNING:, Oops, lockdep report, ... (unless --allow-splat)
#   122  no exit status from the guest: kernel panic, failed boot, guest init died
#   123  timeout: QEMU killed after --timeout seconds
#   124  hang: the kernel printed nothing within VM_BOOT_SILENCE seconds (default 60)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
die() { echo "vm/run.sh: error: $*" >&2; exit 120; }

kernel='' initrd='' timeout='' append='' allow_splat=0 smp=2 mem=512M keep_log='' quiet=0
disks=() adds=() cmd=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=${2:?--kernel needs a value}; shift 2 ;;
	--disk) disks+=("${2:?--disk needs an image}"); shift 2 ;;
	--initrd) initrd=${2:?--initrd needs a file}; shift 2 ;;
	--add) adds+=(--add "${2:?--add needs SRC:DST}"); shift 2 ;;
	--timeout) timeout=${2:?--timeout needs seconds}; shift 2 ;;
	--append) append="$append ${2?--append needs a value}"; shift 2 ;;
	--allow-splat) allow_splat=1; shift ;;
	--smp) smp=${2:?}; shift 2 ;;
	--mem) mem=${2:?}; shift 2 ;;
	--log) keep_log=${2:?}; shift 2 ;;
	-q | --quiet) quiet=1; shift ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--) shift; cmd=("$@"); break ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
[ -n "$kernel" ] || die "--kernel stock|patched|PATH is required"
case "$timeout" in '' | *[!0-9]*) [ -z "$timeout" ] || die "--timeout wants whole seconds" ;; esac
# Debian's kernel source packages only for a vm/ flavour: your own bzImage needs none
case "$kernel" in
stock | patched) "$LIBERRSEQ_ROOT/scripts/deps.sh" vm || exit 120 ;;
*) "$LIBERRSEQ_ROOT/scripts/deps.sh" --skip 'linux-source-*' vm || exit 120 ;;
esac

case "$kernel" in
stock | patched)
	bz=$(vm_bzimage "$kernel")
	[ -f "$bz" ] || die "no $kernel kernel at $bz; build it: vm/kernel-build.sh $kernel"
	kname="$kernel kernel ($bz)"
	;;
*)
	bz=$kernel
	[ -f "$bz" ] || die "no kernel image at $bz"
	kname="kernel $bz"
	;;
esac
for d in "${disks[@]}"; do [ -f "$d" ] || die "no disk image $d"; done

work=$(mktemp -d "${TMPDIR:-/tmp}/liberrseq-run.XXXXXX")
qpid=
cleanup() {
	# timeout(1) passes TERM on to QEMU, which then quits.
	[ -z "$qpid" ] || kill -TERM "$qpid" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 123' INT TERM

# --- initramfs: the base one, plus a small cpio with the command (the kernel unpacks
# concatenated archives in order), so the command's quoting survives exactly.
if [ -z "$initrd" ]; then
	"$VM_DIR/mkinitramfs.sh" -o "$work/base.cpio.gz" "${adds[@]}" 2>"$work/mkinitramfs.log" ||
		{ cat "$work/mkinitramfs.log" >&2; die "cannot build the initramfs"; }
	initrd=$work/base.cpio.gz
elif [ ${#adds[@]} -gt 0 ]; then
	die "--add goes with the default initramfs; with --initrd, pass --add to vm/mkinitramfs.sh"
fi
[ -f "$initrd" ] || die "no initramfs $initrd"
nonce=$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
mkdir -p "$work/cmd/etc/liberrseq"
echo "$nonce" >"$work/cmd/etc/liberrseq/nonce"
if [ ${#cmd[@]} -gt 0 ]; then
	{
		printf 'exec'
		for a in "${cmd[@]}"; do printf " '%s'" "${a//\'/\'\\\'\'}"; done
		printf '\n'
	} >"$work/cmd/etc/liberrseq/cmd"
	printf '%s\n' "${cmd[*]}" >"$work/cmd/etc/liberrseq/cmd-text"
fi
(cd "$work/cmd" && find . -mindepth 1 | cpio -o -H newc -R 0:0 --quiet) | gzip -n >"$work/cmd.cpio.gz"
cat "$initrd" "$work/cmd.cpio.gz" >"$work/initrd.cpio.gz"

# --- firmware and accelerator (vm/lib.sh: vm_firmware, vm_accel): qboot where installed; KVM
# only where a kernel has been seen to boot under it on this machine (a probe boot, once per
# host boot), else TCG. VM_ACCEL=tcg|kvm forces one, VM_ACCEL_PROBE=again probes again.
vm_firmware "$smp"
firmware=("${VM_FIRMWARE[@]}")
vm_accel "$bz"
accel=("${VM_ACCEL_ARGS[@]}")
echo "vm/run.sh: accelerator $VM_ACCEL_USE: $VM_ACCEL_WHY" >&2

# no_timer_check: under TCG on a loaded host the kernel's early IO-APIC timer check can
# miss its ticks and panic ("IO-APIC + timer doesn't work!"); KVM guests skip it already
# (kvmclock sets it)
qemu=(qemu-system-x86_64 "${accel[@]}" -M pc "${firmware[@]}" -m "$mem" -smp "$smp" -nodefaults -no-user-config
	-display none -no-reboot -kernel "$bz" -initrd "$work/initrd.cpio.gz"
	-append "console=ttyS0 panic=-1 oops=panic printk.time=1 no_timer_check rdinit=/init${append}")
for d in "${disks[@]}"; do
	qemu+=(-drive "file=$d,format=raw,if=virtio,cache=unsafe")
done

if [ ${#cmd[@]} -eq 0 ] && [ -t 0 ] && [ -z "$timeout" ]; then
	# Interactive: the console on this terminal (Ctrl-A X quits QEMU).
	exec "${qemu[@]}" -serial mon:stdio
fi

raw=$work/console.raw
log=$work/console.log
: "${timeout:=300}"
start=$(date +%s.%N)
set +e
timeout -s KILL "$timeout" "${qemu[@]}" -serial stdio </dev/null >"$raw" 2>&1 &
qpid=$!
# A guest whose kernel prints nothing within VM_BOOT_SILENCE seconds (default 60) is hung
# (firmware or accelerator): QEMU is killed and the run reported as a hang (exit 124), not
# left to --timeout.
vm_watch_boot "$qpid" "$raw" "$work/hang"
# Stream the console while QEMU runs (tail exits once QEMU is gone), CRs dropped.
if [ $quiet -eq 1 ]; then
	tail --pid="$qpid" -s 0.2 -n +1 -F "$raw" 2>/dev/null | sed -u 's/\r$//' |
		sed -u -n '/^liberrseq-init: /,$p' &
else
	tail --pid="$qpid" -s 0.2 -n +1 -F "$raw" 2>/dev/null | sed -u 's/\r$//' &
fi
show_pid=$!
wait "$qpid"
qrc=$?
qpid=
wait "$show_pid"
vm_unwatch_boot
set -e
elapsed=$(echo "$(date +%s.%N) - $start" | bc)
tr -d '\r' <"$raw" >"$log"
[ -z "$keep_log" ] || cp "$log" "$keep_log"
timed_out=0
case $qrc in 124 | 137) timed_out=1 ;; esac

last_lines() {
	echo "---- last 20 console lines ($kname) ----" >&2
	tail -n 20 "$log" >&2
	echo "----" >&2
}
ts='^\[ *[0-9]+\.[0-9]+\] '
splat_re="${ts}.*(BUG:|WARNING:|Oops|kernel BUG at|general protection fault|Kernel panic|UBSAN:|INFO: task .* blocked for more than|possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage|Unable to handle kernel)"
status=$(grep -aoE "LIBERRSEQ-EXIT $nonce [0-9]+" "$log" | tail -n 1 | awk '{print $3}' || true)
splat=$(grep -aE "$splat_re" "$log" | head -n 5 || true)

if [ -f "$work/hang" ]; then
	echo "vm/run.sh: HANG: $kname printed nothing within ${VM_BOOT_SILENCE:-60}s under ${accel[1]%%,*}; QEMU killed" >&2
	last_lines
	exit 124
fi
if [ $timed_out -eq 1 ]; then
	echo "vm/run.sh: TIMEOUT: $kname: no poweroff within ${timeout}s; QEMU killed" >&2
	last_lines
	exit 123
fi
if [ -n "$splat" ] && [ $allow_splat -eq 0 ]; then
	echo "vm/run.sh: KERNEL SPLAT: $kname reported (guest status: ${status:-none}):" >&2
	echo "$splat" >&2
	grep -aE -A 30 "$splat_re" "$log" | head -n 60 >&2
	exit 121
fi
if [ -z "$status" ]; then
	if grep -qa 'Kernel panic' "$log"; then
		echo "vm/run.sh: KERNEL PANIC: $kname" >&2
	else
		echo "vm/run.sh: NO EXIT STATUS: $kname did not report the guest command's status" \
			"(failed boot or init died)" >&2
	fi
	last_lines
	exit 122
fi
echo "vm/run.sh: guest exit status $status ($kname, ${accel[1]}, $(printf '%.1f' "$elapsed") s)" >&2
exit "$status"
