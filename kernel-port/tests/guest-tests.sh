#!/bin/sh
# Guest side of the kernel-port tests (busybox sh). Runs in the QEMU guest from the initramfs,
# next to kptest and layout.env written by kernel-port/tests/vm-test.sh.
# usage: guest-tests.sh DISK [TEST...]     TEST: evict sfr mdfds syncfs (default: all)
# DISK holds the filesystem images of layout.env back to back; every test puts a dm device
# over one of them (linear), and swaps in a table with "error" over chosen blocks.
# Result lines start with "KPTEST "; the host parses them.
here=$(dirname "$0")
PATH=$here:$PATH
. "$here/layout.env"
disk=$1
shift
[ $# -gt 0 ] || set -- evict sfr mdfds syncfs
mkdir -p /mnt/kp
# Keep the console quiet: the tests cause thousands of I/O error messages.
echo 1 >/proc/sys/kernel/printk

tbl() { echo "$1" | sed "s,DEV,$disk,g"; }

# fs_up FS: dm device "kp-FS" over FS's image, mounted on /mnt/kp
fs_up() {
	eval "good=\$${1}_GOOD"
	dev=$(kptest dm-create "kp-$1" "$(tbl "$good")") || return 1
	eval "mount -t \$${1}_TYPE \$${1}_OPTS $dev /mnt/kp" || return 1
}
fs_down() {
	umount /mnt/kp
	kptest dm-remove "kp-$1"
}
swap() { eval "kptest dm-load kp-$1 \"\$(tbl \"\$${1}_$2\")\""; }

# The article's case: write, close, writeback fails, drop_caches, reopen, fsync.
# f2 is the control (fsync before drop_caches): it must fail on every kernel. f3 keeps an
# unreported error until the unmount.
t_evict() {
	fs=$1
	fs_up "$fs" || { echo "KPTEST evict $fs setup-failed"; return; }
	kptest overwrite /mnt/kp/f1 1048576
	kptest overwrite /mnt/kp/f2 1048576
	kptest overwrite /mnt/kp/f3 65536
	swap "$fs" ERR_DATA
	sync			# writeback of f1 and f2 fails; nobody reports it
	swap "$fs" GOOD
	# Control: the error was recorded; a fresh descriptor on the cached inode gets it.
	c=$(kptest fsync /mnt/kp/f2 | awk '{print $4}')
	echo 3 >/proc/sys/vm/drop_caches
	echo 3 >/proc/sys/vm/drop_caches
	e=$(kptest fsync /mnt/kp/f1 | awk '{print $4}')
	e2=$(kptest fsync /mnt/kp/f1 | awk '{print $4}')
	# Unmount still evicts: f3's error was never reported, and is gone after a remount.
	umount /mnt/kp
	eval "mount -t \$${fs}_TYPE \$${fs}_OPTS $dev /mnt/kp"
	u=$(kptest fsync /mnt/kp/f3 | awk '{print $4}')
	echo "KPTEST evict $fs control=$c after_drop_caches=$e again=$e2 after_remount=$u"
	fs_down "$fs"
}

t_mdfds() {
	fs=$1
	fs_up "$fs" || { echo "KPTEST md-fds $fs setup-failed"; return; }
	eval "bad=\$${fs}_ERR_MD good=\$${fs}_GOOD"
	ev=/sys/kernel/tracing/events/filemap/file_check_and_advance_md_wb_err
	[ -d $ev ] && echo >/sys/kernel/tracing/trace && echo 1 >$ev/enable
	r=$(kptest md-fds "kp-$fs" /mnt/kp/g "$(tbl "$good")" "$(tbl "$bad")")
	echo "KPTEST md-fds $fs ${r#KPTEST md-fds }"
	if [ -d $ev ]; then
		echo 0 >$ev/enable
		n=$(grep -c file_check_and_advance_md_wb_err /sys/kernel/tracing/trace)
		echo "KPTEST md-trace $fs events=$n"
		grep -m 2 file_check_and_advance_md_wb_err /sys/kernel/tracing/trace |
			sed 's/^ */KPTEST md-trace-line /'
	else
		echo "KPTEST md-trace $fs events=no-tracepoint"
	fi
	fs_down "$fs"
}

t_sfr() {
	fs=$1
	fs_up "$fs" || { echo "KPTEST sfr $fs setup-failed"; return; }
	eval "bad=\$${fs}_ERR_RACE good=\$${fs}_GOOD"
	r=$(kptest sfr "kp-$fs" /mnt/kp/r "$(tbl "$good")" "$(tbl "$bad")")
	echo "KPTEST sfr $fs ${r#KPTEST sfr }"
	fs_down "$fs"
}

t_syncfs() {
	fs=$1 n=${2:-300}
	fs_up "$fs" || { echo "KPTEST syncfs-race $fs setup-failed"; return; }
	eval "bad=\$${fs}_ERR_RACE good=\$${fs}_GOOD"
	r=$(kptest syncfs-race "kp-$fs" /mnt/kp/r "$(tbl "$good")" "$(tbl "$bad")" "$n")
	echo "KPTEST syncfs-race $fs ${r#KPTEST syncfs-race }"
	fs_down "$fs"
}

for t in "$@"; do
	case "$t" in
	evict) t_evict ext2; t_evict ext4 ;;
	mdfds) t_mdfds ext2; t_mdfds ext4nj ;;
	sfr) t_sfr ext4; t_sfr ext2 ;;
	syncfs) t_syncfs ext4 300; t_syncfs ext2 300 ;;
	*) echo "KPTEST unknown-test $t" ;;
	esac
done
echo "KPTEST done"
