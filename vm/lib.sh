# Sourced by the vm/ scripts: paths of the kernel trees, the pinned source version, ccache.
# shellcheck shell=bash
VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$VM_DIR/../scripts/lib.sh"
. "$VM_DIR/kernel-line.sh"

VM_CACHE=$LIBERRSEQ_CACHE/vm
# Layout: $VM_CACHE/kernel-LINE/FLAVOUR/{src,build}. The same relative path from build to src
# in both flavours lets ccache (CCACHE_BASEDIR=$VM_CACHE/kernel-LINE) share objects between
# them; the two lines share the ccache directory.
VM_KERNEL_CACHE=$VM_CACHE/kernel-$KLINE
VM_FLAVOURS="stock patched"
# The patched flavour's series: the directory VM_SERIES names (kernel-build.sh --series sets
# it), holding `series`, the patches it names and optionally `kernel.config`; by default the
# project's series of the line (scripts/lib.sh, liberrseq_series_dir).
VM_SERIES=${VM_SERIES:-$(liberrseq_series_dir "$KLINE")}

vm_check_flavour() {
	case "$1" in
	stock | patched) ;;
	*) die "unknown kernel flavour '$1' (want: $VM_FLAVOURS; the line is LIBERRSEQ_KERNEL, one of: $KERNEL_LINES)" ;;
	esac
}
vm_src_dir() { echo "$VM_KERNEL_CACHE/$1/src"; }
vm_build_dir() { echo "$VM_KERNEL_CACHE/$1/build"; }
vm_bzimage() { echo "$VM_KERNEL_CACHE/$1/build/arch/x86/boot/bzImage"; }

# Warn (loudly, but go on) when the installed source package is not the pinned version.
vm_check_source_version() {
	local v
	v=$(dpkg-query -W -f='${Version}' "$LINUX_SOURCE_PKG" 2>/dev/null) ||
		die "$LINUX_SOURCE_PKG is not installed (run scripts/deps.sh vm)"
	[ -f "$LINUX_TARBALL" ] || die "$LINUX_TARBALL missing (reinstall $LINUX_SOURCE_PKG)"
	if [ "$v" != "$LINUX_SOURCE_VERSION" ]; then
		echo "WARNING: $LINUX_SOURCE_PKG $v is installed but vm/kernel-$KLINE.env pins" \
			"$LINUX_SOURCE_VERSION; results may differ from the pinned kernel." >&2
		echo "WARNING: update LINUX_SOURCE_VERSION in vm/kernel-$KLINE.env once checked." >&2
	fi
	VM_SOURCE_VERSION_INSTALLED=$v
}

# Environment for every kernel make: ccache, and fixed build identity so ccache hits.
vm_kbuild_env() {
	export CCACHE_DIR=${CCACHE_DIR:-$VM_CACHE/ccache}
	export CCACHE_BASEDIR=$VM_KERNEL_CACHE
	export CCACHE_NOHASHDIR=1
	# The only absolute source path left on the command line after base_dir rewriting; it maps
	# the tree prefix away, so the objects do not depend on it (lets stock/patched share hits).
	export CCACHE_IGNOREOPTIONS="-fmacro-prefix-map=*"
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G}
	export CCACHE_COMPILERCHECK=content
	export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 1970"
	export KBUILD_BUILD_USER=liberrseq
	export KBUILD_BUILD_HOST=liberrseq
	export KBUILD_BUILD_VERSION=1
	export ARCH=x86_64
	unset CROSS_COMPILE KBUILD_OUTPUT
}

# Run make on a flavour's tree (out of tree, niced, ccache'd).
vm_kmake() {
	local flavour=$1
	shift
	nice -n "${VM_NICE:-10}" make -s -C "$(vm_src_dir "$flavour")" O="$(vm_build_dir "$flavour")" \
		ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$(nproc)" "$@"
}

# --- firmware and accelerator, for every QEMU guest (vm/run.sh, difftest's qemu runner)

# vm_firmware SMP: sets VM_FIRMWARE, QEMU's firmware arguments. qboot (in qemu-system-data)
# writes an MP table listing every CPU; SeaBIOS's lists only the boot CPU, and without ACPI
# (not in our config) the kernel would then run on one CPU (said when SMP > 1).
vm_firmware() {
	local qboot=/usr/share/qemu/qboot.rom
	VM_FIRMWARE=()
	if [ -f "$qboot" ]; then
		VM_FIRMWARE=(-bios "$qboot")
	elif [ "${1:-1}" -gt 1 ]; then
		echo "vm: warning: no $qboot: SeaBIOS, the guest will see one CPU" >&2
	fi
}

# The accelerator: KVM only where it has been seen to boot a kernel on this machine, else TCG.
# /dev/kvm opening, or QEMU creating the vCPUs, is not enough: some hosts reject the host CPU's
# IA32_ARCH_CAPABILITIES MSR (QEMU aborts at start), and on others the guest never gets past
# the firmware ("Booting from ROM..." and nothing more). vm_accel_probe boots the kernel under
# KVM, without an initramfs, to its first lines and the root-mount panic; the verdict is kept
# per host boot (and QEMU version) in $VM_CACHE/accel/ (VM_ACCEL_PROBE=again probes again).
# VM_ACCEL=tcg forces TCG, VM_ACCEL=kvm forces KVM. VM_TCG_THREAD=single|multi picks TCG's
# threading (QEMU's default for this guest: multi, each vCPU on a host thread of its own):
# single runs the vCPUs in turn on one host thread, more than twice the guest work per host CPU
# second for difftest's random scripts, but two guest CPUs then never run at the same instant.
# VM_KVM_DEV: the KVM device (default /dev/kvm).

# vm_accel_probe BZIMAGE FIRMWARE...: 0 if the kernel boots under KVM; else 1, and
# VM_ACCEL_WHY says what the probe saw
vm_accel_probe() {
	local bz=$1 out last
	shift
	out=$(mktemp "${TMPDIR:-/tmp}/liberrseq-accel.XXXXXX")
	timeout -s KILL "${VM_ACCEL_PROBE_TIMEOUT:-30}" qemu-system-x86_64 -accel kvm -cpu host -M pc "$@" \
		-m 256M -smp 1 -nodefaults -no-user-config -display none -no-reboot -serial stdio \
		-kernel "$bz" -append "console=ttyS0 panic=-1" </dev/null >"$out" 2>&1
	if grep -aq 'Linux version' "$out" && grep -aqE 'Kernel panic|Run /init|Freeing unused' "$out"; then
		rm -f "$out"
		return 0
	fi
	last=$(tr -d '\r' <"$out" | grep -a . | tail -n 1 | cut -c1-80)
	VM_ACCEL_WHY="a probe boot under KVM printed $(grep -ac . "$out") lines in ${VM_ACCEL_PROBE_TIMEOUT:-30} s${last:+, the last: $last}"
	rm -f "$out"
	return 1
}

# vm_accel_verdict: the file that keeps this host boot's verdict ("kvm|tcg WHY")
vm_accel_verdict() {
	local boot_id
	boot_id=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)
	echo "$VM_CACHE/accel/$(echo "$boot_id $(qemu-system-x86_64 --version | head -n 1)" | sha256sum | cut -c1-16)"
}

# vm_accel [--no-probe] BZIMAGE: decides the accelerator for a guest of BZIMAGE and sets
# VM_ACCEL_USE (kvm or tcg), VM_ACCEL_WHY (why, for the log) and VM_ACCEL_ARGS (QEMU's
# arguments: -accel tcg[,thread=T], or -accel kvm -cpu host). Without a verdict for this host
# boot, the kernel is probed under KVM, with vm_firmware's firmware whoever asks (one verdict
# for every guest: vm/run.sh's, difftest's qemu runner's); one probe at a time, the others
# wait and read its verdict. --no-probe never boots: without a verdict, VM_ACCEL_USE is
# "unprobed" and VM_ACCEL_ARGS TCG's.
vm_accel() {
	local probe=1 bz verdict a
	[ "$1" != --no-probe ] || { probe=0; shift; }
	bz=$1
	VM_ACCEL_USE=tcg
	VM_ACCEL_ARGS=(-accel "tcg${VM_TCG_THREAD:+,thread=$VM_TCG_THREAD}")
	if [ "${VM_ACCEL:-}" = tcg ]; then
		VM_ACCEL_WHY="VM_ACCEL=tcg"
		return 0
	elif [ "${VM_ACCEL:-}" = kvm ]; then
		VM_ACCEL_USE=kvm VM_ACCEL_ARGS=(-accel kvm -cpu host) VM_ACCEL_WHY="VM_ACCEL=kvm"
		return 0
	fi
	local dev=${VM_KVM_DEV:-/dev/kvm}
	if [ ! -e "$dev" ] || ! { : <>"$dev"; } 2>/dev/null; then
		VM_ACCEL_WHY="$dev cannot be opened"
		return 0
	fi
	verdict=$(vm_accel_verdict)
	if [ $probe = 0 ] && [ ! -s "$verdict" ]; then
		VM_ACCEL_USE=unprobed
		VM_ACCEL_WHY="$dev opens, no verdict for this host boot in $VM_CACHE/accel/ yet: the first boot probes KVM (up to ${VM_ACCEL_PROBE_TIMEOUT:-30} s), TCG unless the kernel boots there"
		return 0
	fi
	[ $probe = 0 ] || mkdir -p "$VM_CACHE/accel"
	[ $probe = 0 ] || (
		flock 9 # one probe at a time; the others read its verdict
		if [ "${VM_ACCEL_PROBE:-}" = again ] || [ ! -s "$verdict" ]; then
			vm_firmware 1
			if vm_accel_probe "$bz" "${VM_FIRMWARE[@]}"; then
				echo "kvm the kernel booted under KVM ($(basename "$bz"), $(date -u +%FT%TZ))" >"$verdict.tmp"
			else
				echo "tcg $VM_ACCEL_WHY ($(date -u +%FT%TZ))" >"$verdict.tmp"
			fi
			mv -f "$verdict.tmp" "$verdict"
		fi
	) 9>"$VM_CACHE/accel/.lock"
	read -r a VM_ACCEL_WHY <"$verdict"
	[ "$a" != kvm ] || VM_ACCEL_USE=kvm VM_ACCEL_ARGS=(-accel kvm -cpu host)
}

# vm_watch_boot PID CONSOLE FLAG: the boot watchdog of every guest (vm/run.sh, difftest's
# qemu runner). In the background: if QEMU (PID, or the timeout(1) or nice(1) process that
# runs it) still runs after VM_BOOT_SILENCE seconds (default 60) and CONSOLE has no
# "Linux version" line, the guest is hung (firmware or accelerator): it creates FLAG and
# kills PID and its children. Sets VM_WATCH_PID; vm_unwatch_boot stops the watchdog.
vm_watch_boot() {
	local pid=$1 console=$2 flag=$3
	(
		sleep "${VM_BOOT_SILENCE:-60}"
		if kill -0 "$pid" 2>/dev/null && ! grep -aqs 'Linux version' "$console"; then
			: >"$flag"
			pkill -KILL -P "$pid"
			kill -KILL "$pid"
		fi
	) </dev/null >/dev/null 2>&1 &
	VM_WATCH_PID=$!
}
vm_unwatch_boot() {
	pkill -P "$VM_WATCH_PID" 2>/dev/null
	kill "$VM_WATCH_PID" 2>/dev/null
	wait "$VM_WATCH_PID" 2>/dev/null
	return 0
}
