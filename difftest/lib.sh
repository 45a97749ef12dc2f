# Sourced by difftest/ scripts: build the guest pieces and boot one QEMU run.
# shellcheck shell=bash
DT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$DT_DIR/../scripts/lib.sh"
DT_CACHE=$LIBERRSEQ_CACHE/difftest

# dt_kernel_paths FLAVOUR -> sets DT_BZIMAGE DT_KBUILD (from vm/'s layout)
dt_kernel_paths() {
	# shellcheck source=/dev/null
	. "$DT_DIR/../vm/lib.sh"
	DT_BZIMAGE=$(vm_bzimage "$1")
	DT_KBUILD=$(vm_build_dir "$1")
}

# dt_build_kmod KBUILD OUTDIR: errseq_inject.ko against that kernel tree
dt_build_kmod() {
	"$DT_DIR/kmod/build.sh" "$1" "$2" >/dev/null
}

# dt_make_disks DIR: fresh ext2 and ext4 images (mkfs on image files only;
# nothing is mounted on the host)
dt_make_disks() {
	local d=$1
	mkdir -p "$d"
	rm -f "$d/ext2.img" "$d/ext4.img"
	truncate -s 64M "$d/ext2.img" "$d/ext4.img"
	mkfs.ext2 -q -F -b 4096 "$d/ext2.img" >/dev/null
	mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 "$d/ext4.img" >/dev/null
}

# dt_make_initrd OUT.cpio.gz STAGEDIR: vm/mkinitramfs.sh (busybox, vm/guest/init) plus
# STAGEDIR (dtguest, errseq_inject.ko, run.list, batches) as /dt and our command.
dt_make_initrd() {
	local out=$1 stage=$2
	chmod +x "$stage/dtguest"
	cp "$DT_DIR/guest/run-batches.sh" "$stage/cmd"
	echo "difftest batches" >"$stage/cmd-text"
	"$DT_DIR/../vm/mkinitramfs.sh" -o "$out" --add "$stage:/dt" \
		--add "$stage/cmd:/etc/liberrseq/cmd" --add "$stage/cmd-text:/etc/liberrseq/cmd-text" \
		2>/dev/null
}

# dt_boot BZIMAGE INITRD DISKDIR CONSOLELOG TIMEOUT
# Boots under TCG (KVM if there is one) with ext2.img as /dev/vda and ext4.img as
# /dev/vdb; the guest's result lines ("DT ...") come on the console, into CONSOLELOG.
dt_boot() {
	local bz=$1 initrd=$2 disks=$3 log=$4 tmo=${5:-2400}
	local accel=tcg
	[ -w /dev/kvm ] && accel=kvm
	: >"$log"
	nice -n 5 timeout --foreground "$tmo" qemu-system-x86_64 \
		-machine q35,accel=$accel -cpu max -smp 2 -m 1024 \
		-nographic -no-reboot -nodefaults \
		-kernel "$bz" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 oops=panic loglevel=4 rdinit=/init" \
		-drive file="$disks/ext2.img",if=virtio,format=raw,cache=unsafe \
		-drive file="$disks/ext4.img",if=virtio,format=raw,cache=unsafe \
		-serial file:"$log" </dev/null >/dev/null 2>&1
	local rc=$?
	tr -d '\r' <"$log" | grep -q '^DT DONE' || {
		echo "difftest: guest did not finish (qemu rc $rc); console log: $log" >&2
		tail -n 30 "$log" >&2
		return 1
	}
}
