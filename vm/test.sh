#!/usr/bin/env bash
# The vm/ guest tests (ctest -L vm runs them through vm/CMakeLists.txt).
# usage: vm/test.sh CASE FLAVOUR
#   fsync        ext2 and ext4 disks: write + fsync + fdatasync succeed, data reads back
#   dm-eio-ext2  dm linear -> error reload under ext2: fsync reports EIO
#   dm-eio-ext4  the same under ext4
#   guest-env    dmsetup runs (version, targets, create/remove), tracefs has the filemap and
#                writeback events, fail_make_request is in debugfs, KUnit ran at boot
#   kmod         an out-of-tree module built with vm/kmod-build.sh loads and unloads
#   runner       vm/run.sh itself: exit status passes through, a WARN fails the run (121)
#                unless --allow-splat, --timeout kills a hung guest (123), a kernel that
#                prints nothing is killed as a hang (124) after VM_BOOT_SILENCE seconds
# Each case boots the FLAVOUR kernel (stock | patched) once or more, exit 0 = pass.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -eq 2 ] || die "usage: $0 CASE stock|patched"
case_=$1 flavour=$2
vm_check_flavour "$flavour"
run=("$VM_DIR/run.sh" --kernel "$flavour" --quiet)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/liberrseq-vmtest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# expect WANT CMD...: run CMD, fail unless it exits WANT.
expect() {
	local want=$1 rc=0
	shift
	"$@" || rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL: exit status $rc, want $want: ${*#"$VM_DIR/"}" >&2
		exit 1
	fi
	echo "ok: exit status $rc as expected" >&2
}

case "$case_" in
fsync)
	"$VM_DIR/mkdisk.sh" ext2 64M "$tmp/ext2.img"
	"$VM_DIR/mkdisk.sh" ext4 64M "$tmp/ext4.img"
	expect 0 "${run[@]}" --disk "$tmp/ext2.img" --disk "$tmp/ext4.img" --timeout 300 \
		-- fsync-ok /dev/vda ext2 /dev/vdb ext4
	;;
dm-eio-ext2 | dm-eio-ext4)
	fs=${case_#dm-eio-}
	"$VM_DIR/mkdisk.sh" "$fs" 64M "$tmp/$fs.img"
	expect 0 "${run[@]}" --disk "$tmp/$fs.img" --timeout 300 -- dm-eio /dev/vda "$fs"
	;;
guest-env)
	"$VM_DIR/mkdisk.sh" raw 16M "$tmp/raw.img"
	expect 0 "${run[@]}" --disk "$tmp/raw.img" --timeout 300 -- sh -euxc '
		dmsetup version
		dmsetup targets | tee /tmp/targets
		for t in linear error flakey; do grep -q "^$t " /tmp/targets; done
		echo "0 $(blockdev --getsz /dev/vda) linear /dev/vda 0" | dmsetup create lin
		dmsetup table lin
		test -b /dev/mapper/lin
		dmsetup remove lin
		ls /sys/kernel/tracing/events/filemap /sys/kernel/tracing/events/writeback | head -n 40
		test -d /sys/kernel/tracing/events/filemap/mm_filemap_add_to_page_cache
		test -d /sys/kernel/tracing/events/filemap/file_check_and_advance_wb_err
		test -d /sys/kernel/tracing/events/writeback/writeback_dirty_inode
		test -d /sys/kernel/debug/fail_make_request
		test -d /sys/kernel/debug/kunit
		grep -q " /tmp tmpfs" /proc/mounts
		echo guest-env ok'
	;;
kmod)
	ko=$("$VM_DIR/kmod-build.sh" "$flavour" "$VM_DIR/testmod" "$tmp/testmod" | grep '\.ko$')
	expect 0 "${run[@]}" --add "$ko:/lib/modules/" --timeout 300 -- sh -euxc '
		insmod /lib/modules/liberrseq_hello.ko
		lsmod | grep -q liberrseq_hello
		dmesg | grep "liberrseq_hello: loaded; errseq_check_and_advance after -EIO: -5"
		rmmod liberrseq_hello
		dmesg | grep -q "liberrseq_hello: unloaded"'
	;;
runner)
	ko=$("$VM_DIR/kmod-build.sh" "$flavour" "$VM_DIR/testmod" "$tmp/testmod" | grep '\.ko$')
	"$VM_DIR/mkinitramfs.sh" -o "$tmp/initrd.cpio.gz" --add "$ko:/lib/modules/"
	r=("${run[@]}" --initrd "$tmp/initrd.cpio.gz")
	expect 7 "${r[@]}" --timeout 300 -- sh -c 'echo "quoting: [$0] [$1]"; exit 7' "a b" "it's"
	expect 121 "${r[@]}" --timeout 300 -- insmod /lib/modules/liberrseq_hello.ko warn=1
	expect 0 "${r[@]}" --timeout 300 --allow-splat -- insmod /lib/modules/liberrseq_hello.ko warn=1
	expect 123 "${r[@]}" --timeout 20 -- sleep 1000
	# a kernel that prints nothing (loglevel=0: not even "Linux version") is reported as a
	# hang after VM_BOOT_SILENCE seconds, long before --timeout
	t0=$(date +%s)
	export VM_BOOT_SILENCE=15
	expect 124 "${r[@]}" --timeout 300 --append loglevel=0 -- sleep 1000
	unset VM_BOOT_SILENCE
	t1=$(date +%s)
	[ $((t1 - t0)) -lt 120 ] || { echo "FAIL: the silent guest was killed after $((t1 - t0)) s" >&2; exit 1; }
	;;
*) die "unknown test case '$case_'" ;;
esac
