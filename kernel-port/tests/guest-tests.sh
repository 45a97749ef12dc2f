#!/bin/sh
# Guest side of the kernel-port tests (busybox sh). Runs in the QEMU guest from the initramfs,
# next to kptest and layout.env written by kernel-port/tests/vm-test.sh.
# usage: guest-tests.sh DISK [TEST...]
#   TEST: evict sfr mdfds syncfs (default: these four), or one of the review cases:
#   premount ind falloc fatmd sbwrite syncfsmd; or dontcache, many:LABEL:N[:MEM[:MAX]];
#   or the third review's cases: evictread fallockeep dir:sync dir:flag dir:plain remount dirind,
#   evict:XFSDISK evictbtrfs:BTRFSDISK btrfsrec:BTRFSDISK;
#   or recmem:RECDISK:N (the record's memory, on mkimages.py --rec's disk), recmem-xfs:XFSDISK:N
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

# fs_up FS [OPTIONS]: dm device "kp-FS" over FS's image, mounted on /mnt/kp
fs_up() {
	eval "good=\$${1}_GOOD"
	dev=$(kptest dm-create "kp-$1" "$(tbl "$good")") || return 1
	eval "mount -t \$${1}_TYPE \$${1}_OPTS ${2:+-o $2} $dev /mnt/kp" || return 1
}
fs_down() {
	umount /mnt/kp
	kptest dm-remove "kp-$1"
}
swap() { eval "kptest dm-load kp-$1 \"\$(tbl \"\$${1}_$2\")\""; }

# trace_on EVENT (e.g. filemap/filemap_set_wb_err): an empty trace buffer, the event on;
# trace_count EVENT: the event off, print how many times it fired ("no-tracepoint" if the
# kernel has no such event).
trace_on() {
	echo >/sys/kernel/tracing/trace
	[ ! -d "/sys/kernel/tracing/events/$1" ] || echo 1 >"/sys/kernel/tracing/events/$1/enable"
}
trace_count() {
	if [ -d "/sys/kernel/tracing/events/$1" ]; then
		echo 0 >"/sys/kernel/tracing/events/$1/enable"
		grep -c " ${1#*/}:" /sys/kernel/tracing/trace
	else
		echo no-tracepoint
	fi
}

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

t_syncfs() {
	fs=$1 n=${2:-300}
	fs_up "$fs" || { echo "KPTEST syncfs-race $fs setup-failed"; return; }
	eval "bad=\$${fs}_ERR_RACE good=\$${fs}_GOOD"
	r=$(kptest syncfs-race "kp-$fs" /mnt/kp/r "$(tbl "$good")" "$(tbl "$bad")" "$n")
	echo "KPTEST syncfs-race $fs ${r#KPTEST syncfs-race }"
	fs_down "$fs"
}

# An error left on the block device before the mount (a buffered write to the raw
# device that failed, seen by no one) must not be reported through the filesystem:
# ext2 mounted errors=remount-ro, a new file written and fsynced.
t_premount() {
	fs=$1
	eval "good=\$${fs}_GOOD bad=\$${fs}_ERR_FREE off=\$${fs}_FREE_OFF"
	dev=$(kptest dm-create "kp-$fs" "$(tbl "$bad")") || { echo "KPTEST premount $fs setup-failed"; return; }
	# Count the errors recorded on any mapping meanwhile (tracepoint of 6.1's
	# __filemap_set_wb_err()): the raw write must really have failed.
	trace_on filemap/filemap_set_wb_err
	kptest raw-rewrite "$dev" "$off"
	sync			# the raw block fails to write back; nobody reports it
	n=$(trace_count filemap/filemap_set_wb_err)
	kptest dm-load "kp-$fs" "$(tbl "$good")"
	eval "mount -t \$${fs}_TYPE -o errors=remount-ro $dev /mnt/kp" || { echo "KPTEST premount $fs mount-failed"; kptest dm-remove "kp-$fs"; return; }
	r=$(kptest new-file-fsync /mnt/kp/new)
	s=$(kptest syncfs /mnt/kp | awk '{print $4}')
	ro=rw
	grep -q " /mnt/kp [^ ]* ro[,\ ]" /proc/mounts && ro=ro
	echo "KPTEST premount $fs raw_errors=$n ${r#KPTEST new-file } syncfs=$s mount=$ro"
	fs_down "$fs"
}

# ext2 mounted read-write while every write fails: the superblock write of the mount
# fails before the block device knows its superblock (bd_super is NULL). syncfs on a
# file opened afterwards must report it, once.
t_sbwrite() {
	fs=$1
	eval "good=\$${fs}_GOOD bad=\$${fs}_ERR_WRITES"
	dev=$(kptest dm-create "kp-$fs" "$(tbl "$bad")") || { echo "KPTEST sbwrite $fs setup-failed"; return; }
	eval "mount -t \$${fs}_TYPE $dev /mnt/kp" || { echo "KPTEST sbwrite $fs mount-failed"; kptest dm-remove "kp-$fs"; return; }
	kptest dm-load "kp-$fs" "$(tbl "$good")"
	s1=$(kptest syncfs /mnt/kp/g | awk '{print $4}')
	s2=$(kptest syncfs /mnt/kp/g | awk '{print $4}')
	echo "KPTEST sbwrite $fs syncfs1=$s1 syncfs2=$s2"
	fs_down "$fs"
}

# t_fds TAG FS TABLE FILE: FS up, "kptest TAG kp-FS /mnt/kp/FILE GOOD ERR" with ERR the
# table FS_TABLE, its result line reported for FS. TAG is one of kptest's descriptor
# cases: sfr, ind-fds (ext2's indirect block fails), falloc-fds (ext4 fallocate after
# another descriptor reported an error), fatmd-fds (vfat/exfat metadata area fails
# during a new file's first fsync).
t_fds() {
	tag=$1 fs=$2
	fs_up "$fs" || { echo "KPTEST $tag $fs setup-failed"; return; }
	eval "bad=\$${fs}_$3 good=\$${fs}_GOOD"
	r=$(kptest "$tag" "kp-$fs" "/mnt/kp/$4" "$(tbl "$good")" "$(tbl "$bad")")
	echo "KPTEST $tag $fs ${r#KPTEST $tag }"
	fs_down "$fs"
}

# Two threads syncfs() one descriptor after each of many failed inode writes
# (difftest's par-syncfs-meta): one metadata failure, one report between them.
# ext4 is mounted nobarrier: dm-flakey fails cache flushes too, and each syncfs's
# own failed flush (ext4_sync_fs) would be an error of its own in both threads.
t_syncfsmd() {
	fs=$1 n=${2:-100} o=
	[ "$(eval echo \$${fs}_TYPE)" = ext4 ] && o=nobarrier
	fs_up "$fs" $o || { echo "KPTEST syncfs-md-race $fs setup-failed"; return; }
	eval "bad=\$${fs}_ERR_MDW good=\$${fs}_GOOD"
	r=$(kptest syncfs-race "kp-$fs" /mnt/kp/g "$(tbl "$good")" "$(tbl "$bad")" "$n" md)
	echo "KPTEST syncfs-md-race $fs ${r#KPTEST syncfs-race }"
	fs_down "$fs"
}

# The review's eviction items, 1: an eviction that bypasses the LRU. Setting FS_DAX_FL on an ext4 file
# (no dax= option) marks the inode I_DONTCACHE, so the last close evicts it at once.
t_dontcache() {
	fs=$1
	fs_up "$fs" || { echo "KPTEST dontcache $fs setup-failed"; return; }
	kptest overwrite /mnt/kp/f1 1048576
	swap "$fs" ERR_DATA
	sync
	swap "$fs" GOOD
	d=$(kptest set-dax /mnt/kp/f1 | awk '{print $4}')
	e=$(kptest fsync /mnt/kp/f1 | awk '{print $4}')
	e2=$(kptest fsync /mnt/kp/f1 | awk '{print $4}')
	echo "KPTEST dontcache $fs set_dax=$d fsync=$e again=$e2"
	fs_down "$fs"
}

# The review's eviction items, 2: N files whose writeback failed, nobody has seen the errors; then
# drop_caches (timed, slabs_scanned), then open + fsync of each: how many errors survive.
# MEM: run the setup in a memory cgroup with that memory.max. MAX: fs.wb_err_evicted_max
# for the run (the record's bound; "absent" if the kernel has no such sysctl).
t_many() {
	label=$1 n=$2 mem=$3 max=$4 old= oom=none
	fs_up many || { echo "KPTEST many $label setup-failed"; return; }
	if [ -n "$max" ]; then
		if [ -f /proc/sys/fs/wb_err_evicted_max ]; then
			old=$(cat /proc/sys/fs/wb_err_evicted_max)
			echo "$max" >/proc/sys/fs/wb_err_evicted_max
		else
			max=absent
		fi
	fi
	w0=$(dmesg | grep -c 'lost: record full')
	set -- kptest many-setup kp-many "/mnt/kp/$label" "$n" "$(tbl "$many_GOOD")"
	if [ -n "$mem" ]; then
		cg=/sys/fs/cgroup
		if [ ! -d $cg/kp ]; then
			mount -t cgroup2 none $cg && echo +memory >$cg/cgroup.subtree_control &&
				mkdir $cg/kp
		fi
		# memory.high at 7/8 of memory.max: its reclaim runs on the way back to user space
		# with GFP_KERNEL, so it can shrink the inode and dentry caches. Without it, the
		# cgroup fills with reclaimable inodes and a GFP_NOFS charge (ext4's inode-table
		# buffer heads), which cannot run the filesystem shrinkers, OOM-kills the setup
		# on stock 6.1 as well (2026-12-06: 1e5 files, 64M, 62.6 MB slab_reclaimable).
		echo "$mem" >$cg/kp/memory.max
		echo $(($(cat $cg/kp/memory.max) / 8 * 7)) >$cg/kp/memory.high
		r=$(sh -c 'echo $$ >/sys/fs/cgroup/kp/cgroup.procs && exec "$@"' sh "$@") ||
			r="KPTEST many-setup exit=$?"
		oom=$(awk '$1 == "oom_kill" {print $2}' $cg/kp/memory.events)
		# what the cgroup held at its peak and holds now, and the OOM report if any
		echo "KPTEST many-memcg $label peak=$(cat $cg/kp/memory.peak 2>/dev/null)" \
			$(awk '$1 ~ /^(anon|file|kernel|slab_reclaimable|slab_unreclaimable|file_dirty|file_writeback|inode_cache)$/ {printf "%s=%s ", $1, $2}' \
				$cg/kp/memory.stat)
		[ "${oom:-0}" = 0 ] || dmesg | sed -n '/invoked oom-killer/,/oom_reaper\|Killed process/p' |
			sed 's/^/KPOOM /' | head -n 120
	else
		r=$("$@") || r="KPTEST many-setup exit=$?"
	fi
	# ext4 inodes in memory before drop_caches: fewer than N means reclaim (in the memcg
	# run, the cgroup's) evicted some while their errors were unseen
	c0=$(awk '$1 == "ext4_inode_cache" {print $2}' /proc/slabinfo)
	s0=$(awk '$1 == "slabs_scanned" {print $2}' /proc/vmstat)
	d=$(kptest drop-caches)
	s1=$(awk '$1 == "slabs_scanned" {print $2}' /proc/vmstat)
	c=$(awk '$1 == "ext4_inode_cache" {print $2}' /proc/slabinfo)
	f=$(kptest many-fsync "/mnt/kp/$label" "$n")
	[ -z "$old" ] || echo "$old" >/proc/sys/fs/wb_err_evicted_max
	w=$(($(dmesg | grep -c 'lost: record full') - w0))
	echo "KPTEST many $label n=$n mem=${mem:-none} max=${max:-default} oom_kills=$oom" \
		"${r#KPTEST many-setup } ${d#KPTEST drop-caches } slabs_scanned=$((s1 - s0))" \
		"ext4_inodes_before_drop=$c0 ext4_inodes_cached=$c ${f#KPTEST many-fsync }" \
		"record_full_warnings=$w"
	fs_down many
}

# The races the model checkers found, widened by the errseq_race module's kprobe on the
# cmpxchg of errseq_check_and_advance() (kernel-port/tests/race): ROUNDS rounds of each,
# the probe holding a task up to MS ms; the syncfs race also without the probe; two
# fsync() of one descriptor, one held between its data and metadata cursors.
t_races() {
	fs=$1 rounds=$2 ms=$3
	fs_up "$fs" || { echo "KPTEST race-loss $fs setup-failed"; return; }
	if ! insmod "$here/errseq_race.ko"; then
		echo "KPTEST race-loss $fs insmod-failed"
		fs_down "$fs"
		return
	fi
	mkdir -p /mnt/kp/race
	for c in "loss $ms" "syncfs $ms" "syncfs 0"; do
		set -- $c
		racetest "$1" /mnt/kp/race "$rounds" "$2" | sed "s/^KPTEST race-$1 /KPTEST race-$1 $fs /"
	done
	racetest fsync /mnt/kp/race "$dev" "$rounds" "$ms" | sed "s/^KPTEST race-fsync /KPTEST race-fsync $fs /"
	dmesg | grep 'errseq_race:' | sed 's/^/KPTEST-dmesg /'
	rmmod errseq_race
	fs_down "$fs"
}

# The article's case on a filesystem whose image is a disk of its own (DISK: xfs needs
# 300 MiB): f1 written and synced, its extents (FIEMAP) switched to "error", f1 rewritten,
# sync (fails, nobody reports), the disk healed, drop_caches twice, open + fsync twice.
t_evictdisk() {
	fs=$1 d=$2
	good="0 $(blockdev --getsz "$d") linear $d 0"
	dev=$(kptest dm-create "kp-$fs" "$good") &&
		mount -t "$fs" "$dev" /mnt/kp || { echo "KPTEST evict $fs setup-failed"; return; }
	dd if=/dev/zero of=/mnt/kp/f1 bs=65536 count=16 2>/dev/null
	sync
	bad=$(kptest err-table /mnt/kp/f1 "$good") || { echo "KPTEST evict $fs err-table-failed"; fs_down "$fs"; return; }
	kptest overwrite /mnt/kp/f1 1048576
	kptest dm-load "kp-$fs" "$bad"
	sync
	kptest dm-load "kp-$fs" "$good"
	echo 3 >/proc/sys/vm/drop_caches
	echo 3 >/proc/sys/vm/drop_caches
	e=$(kptest fsync /mnt/kp/f1 | awk '{print $4}')
	e2=$(kptest fsync /mnt/kp/f1 | awk '{print $4}')
	echo "KPTEST evict $fs after_drop_caches=$e again=$e2"
	# The other way back: f2's last close evicts it at once (I_DONTCACHE: the DAX flag
	# flipped), and the reopen finds the inode in xfs's own cache, reclaimable, and
	# recycles it without a read (xfs_iget_recycle(), which clears wb_err).
	dd if=/dev/zero of=/mnt/kp/f2 bs=65536 count=16 2>/dev/null
	sync
	bad=$(kptest err-table /mnt/kp/f2 "$good") || { echo "KPTEST evict-recycle $fs err-table-failed"; fs_down "$fs"; return; }
	kptest overwrite /mnt/kp/f2 1048576
	kptest dm-load "kp-$fs" "$bad"
	sync
	kptest dm-load "kp-$fs" "$good"
	trace_on xfs/xfs_iget_recycle
	d=$(kptest set-dax /mnt/kp/f2 | awk '{print $4}')
	e=$(kptest fsync /mnt/kp/f2 | awk '{print $4}')
	e2=$(kptest fsync /mnt/kp/f2 | awk '{print $4}')
	n=$(trace_count xfs/xfs_iget_recycle)
	echo "KPTEST evict-recycle $fs set_dax=$d fsync=$e again=$e2 recycled=$n"
	fs_down "$fs"
}

# The article's case on btrfs (DISK: a btrfs image of its own), where an inode number names a
# file only within its subvolume: subvolumes a and b, a file f created in each in one
# transaction (same inode number, 257, and generation: checked by the host), written and
# synced; only b/f's blocks fail (found on the device by content: btrfs's FIEMAP addresses are
# logical), its rewrite fails unseen (nodatacow: in place). After drop_caches, a/f is opened
# first: it must not get b/f's error, and b/f must.
t_evictbtrfs() {
	d=$1
	good="0 $(blockdev --getsz "$d") linear $d 0"
	dev=$(kptest dm-create kp-btrfs "$good") &&
		mount -t btrfs -o nodatacow "$dev" /mnt/kp &&
		kptest subvol /mnt/kp a && kptest subvol /mnt/kp b &&
		sync && : >/mnt/kp/a/f && : >/mnt/kp/b/f ||
		{ echo "KPTEST evict btrfs setup-failed"; return; }
	kptest tagged /mnt/kp/a/f 16
	kptest tagged /mnt/kp/b/f 16
	sync
	ia=$(kptest ino-gen /mnt/kp/a/f | awk '{print "a_" $4, "a_" $5}')
	ib=$(kptest ino-gen /mnt/kp/b/f | awk '{print "b_" $4, "b_" $5}')
	bad=$(kptest scan-table /mnt/kp/b/f "$good") || { echo "KPTEST evict btrfs scan-failed"; fs_down btrfs; return; }
	kptest overwrite /mnt/kp/a/f 65536
	kptest overwrite /mnt/kp/b/f 65536
	kptest dm-load kp-btrfs "$bad"
	trace_on filemap/filemap_set_wb_err
	sync			# b/f's writeback fails; nobody reports it
	n=$(trace_count filemap/filemap_set_wb_err)
	kptest dm-load kp-btrfs "$good"
	echo 3 >/proc/sys/vm/drop_caches
	echo 3 >/proc/sys/vm/drop_caches
	a=$(kptest fsync /mnt/kp/a/f | awk '{print $4}')
	e=$(kptest fsync /mnt/kp/b/f | awk '{print $4}')
	e2=$(kptest fsync /mnt/kp/b/f | awk '{print $4}')
	a2=$(kptest fsync /mnt/kp/a/f | awk '{print $4}')
	echo "KPTEST evict btrfs $ia $ib set_wb_err=$n other_subvol=$a after_drop_caches=$e again=$e2 other_again=$a2"
	fs_down btrfs
}

# The btrfs record's edges (DISK: a btrfs image of its own; the fourth review): subvolumes
# b, c, d, e, each with a file f written in place (nodatacow); "fail X" makes X/f's rewrite
# fail unseen. snap: a snapshot s of b taken after b/f failed (s/f: b/f's inode number and
# generation) and both evicted: b/f EIO once, s/f never. remount: c/f's error through
# remount ro and rw. held: g/sub/f's error kept, g deleted while g/sub is held open: the
# file opened through it reports the error. deleted: d/f's error evicted, d deleted, then with the bound at 1 e/f's
# error must still be kept. meta: only metadata written, every write failing, then unmount:
# no file's error is said to be dropped. quota: a create refused by a qgroup limit (EDQUOT)
# must not crash the kernel (last: a crash ends the run).
t_btrfsrec() {
	d=$1
	good="0 $(blockdev --getsz "$d") linear $d 0"
	dev=$(kptest dm-create kp-btrfs "$good") &&
		mount -t btrfs -o nodatacow "$dev" /mnt/kp ||
		{ echo "KPTEST btrfsrec setup-failed"; return; }
	for s in b c d e; do kptest subvol /mnt/kp $s || { echo "KPTEST btrfsrec setup-failed"; return; }; done
	sync
	for s in b c d e; do : >/mnt/kp/$s/f; kptest tagged /mnt/kp/$s/f 16; done
	sync
	bfail() {
		bad=$(kptest scan-table "/mnt/kp/$1/f" "$good") || { echo "KPTEST btrfsrec scan-failed $1"; return 1; }
		kptest overwrite "/mnt/kp/$1/f" 65536
		kptest dm-load kp-btrfs "$bad"
		sync
		kptest dm-load kp-btrfs "$good"
	}
	evictall() { echo 3 >/proc/sys/vm/drop_caches; echo 3 >/proc/sys/vm/drop_caches; }
	fs() { kptest fsync "$1" | awk '{print $4}'; }
	bfail b
	kptest btrfs snap /mnt/kp /mnt/kp/b s
	evictall
	echo "KPTEST btrfsrec snap $(kptest ino-gen /mnt/kp/s/f | awk '{print "s_" $4, "s_" $5}')" \
		"$(kptest ino-gen /mnt/kp/b/f | awk '{print "b_" $4, "b_" $5}')" \
		"s1=$(fs /mnt/kp/s/f) b1=$(fs /mnt/kp/b/f) b2=$(fs /mnt/kp/b/f) s2=$(fs /mnt/kp/s/f)"
	bfail c
	evictall
	mount -o remount,ro /mnt/kp && mount -o remount,rw /mnt/kp
	evictall
	echo "KPTEST btrfsrec remount c1=$(fs /mnt/kp/c/f) c2=$(fs /mnt/kp/c/f)"
	# held: g/sub/f's error kept, g deleted while a descriptor holds g/sub open: the file
	# can still be opened through it, and must report the error
	kptest subvol /mnt/kp g && mkdir /mnt/kp/g/sub && : >/mnt/kp/g/sub/f &&
		kptest tagged /mnt/kp/g/sub/f 16 && sync || { echo "KPTEST btrfsrec setup-failed"; return; }
	exec 3</mnt/kp/g/sub
	bfail g/sub
	evictall
	kptest btrfs del /mnt/kp g
	echo "KPTEST btrfsrec held h1=$(fs /proc/$$/fd/3/f) h2=$(fs /proc/$$/fd/3/f)"
	exec 3<&-
	bfail d
	evictall
	kptest btrfs del /mnt/kp d
	sync
	old=$(cat /proc/sys/fs/wb_err_evicted_max 2>/dev/null)
	[ -z "$old" ] || echo 1 >/proc/sys/fs/wb_err_evicted_max
	w0=$(dmesg | grep -c 'lost: record full')
	bfail e
	evictall
	e1=$(fs /mnt/kp/e/f) e2=$(fs /mnt/kp/e/f)
	[ -z "$old" ] || echo "$old" >/proc/sys/fs/wb_err_evicted_max
	echo "KPTEST btrfsrec deleted e1=$e1 e2=$e2 record_full=$(($(dmesg | grep -c 'lost: record full') - w0))"
	u0=$(dmesg | grep -c 'dropped at unmount')
	umount /mnt/kp
	echo "KPTEST btrfsrec umount dropped_lines=$(($(dmesg | grep -c 'dropped at unmount') - u0))"
	# meta: a fresh mount, one metadata change, every write failing
	mount -t btrfs "$dev" /mnt/kp || { echo "KPTEST btrfsrec setup-failed"; return; }
	touch /mnt/kp/x
	sync
	touch /mnt/kp/y
	kptest dm-load kp-btrfs "0 $(blockdev --getsz "$d") error"
	sync
	kptest dm-load kp-btrfs "$good"
	u0=$(dmesg | grep -c 'dropped at unmount')
	umount /mnt/kp
	echo "KPTEST btrfsrec meta dropped_lines=$(($(dmesg | grep -c 'dropped at unmount') - u0))"
	# quota: a create that btrfs refuses before the new inode has a root
	mount -t btrfs "$dev" /mnt/kp || { echo "KPTEST btrfsrec setup-failed"; return; }
	kptest btrfs quota /mnt/kp && kptest subvol /mnt/kp q &&
		dd if=/dev/zero of=/mnt/kp/q/big bs=1M count=4 2>/dev/null && sync &&
		kptest btrfs limit /mnt/kp/q 1048576 && sync || { echo "KPTEST btrfsrec quota-setup-failed"; return; }
	echo "KPTEST btrfsrec quota create=$(kptest open-creat /mnt/kp/q/new | awk '{print $4}')"
	fs_down btrfs
}

# Third review, item 1 (0014's remount): a metadata block's write fails in sync(2), nobody
# reports it (an unseen error on the block device), the disk works again; then
# "mount -o remount,ro" three times: how many fail, and whether the mount ends read-only.
t_remount() {
	fs=$1
	fs_up "$fs" || { echo "KPTEST remount $fs setup-failed"; return; }
	eval "bad=\$${fs}_ERR_MDW good=\$${fs}_GOOD"
	chmod 0600 /mnt/kp/g
	kptest dm-load "kp-$fs" "$(tbl "$bad")"
	sync
	kptest dm-load "kp-$fs" "$(tbl "$good")"
	r=
	for i in 1 2 3; do
		if mount -o remount,ro /mnt/kp 2>/dev/null; then r="$r ro$i=0"; else r="$r ro$i=failed"; fi
		grep -q " /mnt/kp [^ ]* ro[,\ ]" /proc/mounts && break
	done
	m=rw
	grep -q " /mnt/kp [^ ]* ro[,\ ]" /proc/mounts && m=ro
	echo "KPTEST remount $fs$r mount=$m"
	fs_down "$fs"
}

# Review of the third review's fixes: a DIRSYNC change whose new indirect block fails to
# write. ext2k's directory big fills its 12 direct blocks; the next long name allocates
# logical block 12 and an indirect block, which ext2_alloc_branch() writes at once for a
# DIRSYNC directory (ERR_IND: writes fail there). The change must fail (EIO).
t_dirind() {
	fs=ext2k
	fs_up "$fs" dirsync || { echo "KPTEST dirind $fs setup-failed"; return; }
	swap "$fs" ERR_IND
	trace_on filemap/filemap_set_wb_err
	if touch "/mnt/kp/big/$ext2k_NEXT" 2>/dev/null; then r=0; else r=failed; fi
	n=$(trace_count filemap/filemap_set_wb_err)
	swap "$fs" GOOD
	echo "KPTEST dirind $fs touch=$r wb_errors=$n size=$(stat -c %s /mnt/kp/big)"
	fs_down "$fs"
}

# Third review, item 2: an evicted file's unseen error must survive a failed read of its
# inode. f1's writeback fails, drop_caches evicts it, the first open fails because the inode
# table block cannot be read, the disk works again: open + fsync must still report it.
t_evictread() {
	fs=$1
	fs_up "$fs" || { echo "KPTEST evictread $fs setup-failed"; return; }
	kptest overwrite /mnt/kp/f1 1048576
	swap "$fs" ERR_DATA
	sync
	swap "$fs" GOOD
	echo 3 >/proc/sys/vm/drop_caches
	echo 3 >/proc/sys/vm/drop_caches
	# The inode table block must leave the block device's page cache: ext4's journal
	# holds it until a checkpoint (freeze), and drop_caches leaves it (flushbufs).
	kptest freeze-thaw /mnt/kp
	blockdev --flushbufs "$dev"
	swap "$fs" ERR_INO1
	o=$(kptest open /mnt/kp/f1 | awk '{print $4}')
	swap "$fs" GOOD
	e=$(kptest fsync /mnt/kp/f1 | awk '{print $4}')
	e2=$(kptest fsync /mnt/kp/f1 | awk '{print $4}')
	echo "KPTEST evictread $fs open_unreadable=$o fsync=$e again=$e2"
	fs_down "$fs"
}

# Third review, item 3: fallocate modes that write back must leave the error to fsync
# (kptest falloc-keep). MODE jdata: the file is switched to data=journal after each failure.
t_fallockeep() {
	fs=$1 mode=$2
	fs_up "$fs" || { echo "KPTEST falloc-keep $fs${mode:+-$mode} setup-failed"; return; }
	eval "bad=\$${fs}_ERR_RACE good=\$${fs}_GOOD"
	r=$(kptest falloc-keep "kp-$fs" /mnt/kp/r "$(tbl "$good")" "$(tbl "$bad")" $mode)
	echo "KPTEST falloc-keep $fs${mode:+-$mode} ${r#KPTEST falloc-keep }"
	fs_down "$fs"
}

# Third review, items 1 and 4: a failed write of a directory block (dir, ERR_DIRW: writes
# fail) on a filesystem mounted errors=remount-ro. Descriptor 7 is open on the directory
# from before the failure. MODE sync: mounted -o dirsync, the first change in dir is the
# one whose write fails; MODE flag: the first change's block fails in sync(2), nobody
# reports it, then the directory gets FS_DIRSYNC_FL (chattr +D); MODE plain: neither (6.1
# writes the directory in sync(2), 6.12 in the change itself). Then, the disk working:
# five more changes in dir (kptest dirops), fsync of descriptor 7 twice, the mount's state.
# The host runs fsck on the image afterwards.
t_dir() {
	fs=$1 mode=$2 o=errors=remount-ro
	[ "$mode" = sync ] && o=$o,dirsync
	fs_up "$fs" $o || { echo "KPTEST dir-$mode $fs setup-failed"; return; }
	exec 7</mnt/kp/dir
	swap "$fs" ERR_DIRW
	if touch /mnt/kp/dir/first 2>/dev/null; then f=0; else f=failed; fi
	fl=none
	[ "$mode" = sync ] || sync
	swap "$fs" GOOD
	[ "$mode" != flag ] || fl=$(kptest dirsync-flag /mnt/kp/dir | awk '{print $4}')
	r=$(kptest dirops /mnt/kp/dir)
	# everything on disk before ext2_error() can make the filesystem read-only
	sync
	d1=$(kptest fsync-fd 7 | awk '{print $4}')
	d2=$(kptest fsync-fd 7 | awk '{print $4}')
	exec 7<&-
	ro=rw
	grep -q " /mnt/kp [^ ]* ro[,\ ]" /proc/mounts && ro=ro
	echo "KPTEST dir-$mode $fs first=$f dirsync_flag=$fl ${r#KPTEST dirops } dirfd_fsync1=$d1 dirfd_fsync2=$d2 mount=$ro"
	fs_down "$fs"
}

# The memory of 0004's record of evicted inodes' errors, measured.
# recmem_run FS LABEL N GOOD ISLAB: FS is mounted on /mnt/kp over dm device kp-FS (table
# GOOD); /mnt/kp/LABEL gets (or has) N files, each left with an unseen writeback error
# (many-setup); their inode numbers (ino-stats: spread, smallest gap, the xarray nodes they
# need); then drop_caches inside a memory cgroup of its own (memcg-drop): the record's new
# nodes are charged to that cgroup (XA_FLAGS_ACCOUNT), and nothing else the evicting task
# does is charged as reclaimable slab. ISLAB: the filesystem's inode slab, counted before
# and after that drop_caches. Also radix_tree_node objects (all xarrays) after it (record
# full) and after open + fsync of every file (which takes each entry back) and another
# drop_caches (record empty). The host compares the charge with the nodes computed.
recmem_run() {
	fs=$1 v=$2 n=$3 good=$4 islab=$5 cg=/sys/fs/cgroup
	grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg
	echo +memory >$cg/cgroup.subtree_control
	mkdir -p $cg/kprec-drain
	mkdir $cg/kprec-$v
	r=$(kptest many-setup "kp-$fs" "/mnt/kp/$v" "$n" "$good")
	s=$(kptest ino-stats "/mnt/kp/$v" "$n")
	c0=$(awk -v s="$islab" '$1 == s {print $2}' /proc/slabinfo)
	m=$(kptest memcg-drop $cg/kprec-$v $cg/kprec-drain)
	c1=$(awk -v s="$islab" '$1 == s {print $2}' /proc/slabinfo)
	g1=$(awk '$1 == "radix_tree_node" {print $2}' /proc/slabinfo)
	f=$(kptest many-fsync "/mnt/kp/$v" "$n")
	# the emptied nodes go back to the slab after an RCU grace period
	sleep 2
	kptest drop-caches >/dev/null
	sleep 2
	g2=$(awk '$1 == "radix_tree_node" {print $2}' /proc/slabinfo)
	echo "KPTEST recmem $v fs=$fs ${r#KPTEST many-setup } ${s#KPTEST ino-stats }" \
		"${m#KPTEST memcg-drop } inodes_before_drop=$c0 inodes_after_drop=$c1" \
		"rtn_full=$g1 rtn_empty=$g2 ${f#KPTEST many-fsync }"
}

# DISK is mkimages.py --rec's ext4: /sparse holds N empty files whose inode numbers are 64
# apart. Runs: dense (N files many-setup creates in /dense, numbers one after the other)
# and sparse (/sparse's N files, each entry alone in its xarray leaf node).
t_recmem() {
	d=$1 n=$2
	good="0 $(blockdev --getsz "$d") linear $d 0"
	dev=$(kptest dm-create kp-rec "$good") &&
		mount -t ext4 "$dev" /mnt/kp || { echo "KPTEST recmem setup-failed"; return; }
	# the slab the nodes come from: its object size (SLUB: with the free pointer), objects
	# and pages a slab
	echo "KPTEST recmem-slab" $(awk '$1 == "radix_tree_node" {print "size=" $4, "objperslab=" $5, "pagesperslab=" $6}' /proc/slabinfo) \
		"object_size=$(cat /sys/kernel/slab/radix_tree_node/object_size 2>/dev/null || echo unknown)" \
		"wb_err_evicted_max=$(cat /proc/sys/fs/wb_err_evicted_max 2>/dev/null || echo absent)"
	recmem_run rec dense "$n" "$good" ext4_inode_cache
	recmem_run rec sparse "$n" "$good" ext4_inode_cache
	fs_down rec
}

# DISK: an empty xfs (1 KiB blocks, inode64) of many allocation groups, each an AG's worth
# of inode numbers (2^24) apart: N files each in a directory of its own, so in an AG of
# its own (kptest dir-spread): numbers above 2^32, 2^24 apart.
t_recmemxfs() {
	d=$1 n=$2
	good="0 $(blockdev --getsz "$d") linear $d 0"
	dev=$(kptest dm-create kp-recx "$good") &&
		mount -t xfs "$dev" /mnt/kp || { echo "KPTEST recmem xfsag setup-failed"; return; }
	kptest dir-spread /mnt/kp/xfsag "$n" >/dev/null || { echo "KPTEST recmem xfsag setup-failed"; fs_down recx; return; }
	recmem_run recx xfsag "$n" "$good" xfs_inode
	fs_down recx
}

for t in "$@"; do
	case "$t" in
	races:*)
		IFS=: read -r _ rounds ms <<EOF
$t
EOF
		t_races ext2 "$rounds" "$ms"
		;;
	dontcache) t_dontcache ext4 ;;
	many:*)
		# many:LABEL:N[:MEM[:MAX]]
		IFS=: read -r _ label n mem max <<EOF
$t
EOF
		t_many "$label" "$n" "$mem" "$max"
		;;
	evict) t_evict ext2; t_evict ext4; t_evict ext4fc ;;
	evict:*) t_evictdisk xfs "${t#evict:}" ;;
	evictbtrfs:*) t_evictbtrfs "${t#evictbtrfs:}" ;;
	btrfsrec:*) t_btrfsrec "${t#btrfsrec:}" ;;
	recmem:*)
		IFS=: read -r _ d n <<EOF
$t
EOF
		t_recmem "$d" "$n"
		;;
	recmem-xfs:*)
		IFS=: read -r _ d n <<EOF
$t
EOF
		t_recmemxfs "$d" "$n"
		;;
	mdfds) t_mdfds ext2; t_mdfds ext4nj ;;
	sfr) t_fds sfr ext4 ERR_RACE r; t_fds sfr ext2 ERR_RACE r; t_fds sfr ext4fc ERR_RACE r ;;
	syncfs) t_syncfs ext4 300; t_syncfs ext2 300 ;;
	premount) t_premount ext2 ;;
	ind) t_fds ind-fds ext2 ERR_IND ind ;;
	falloc) t_fds falloc-fds ext4 ERR_RACE r ;;
	fatmd) t_fds fatmd-fds vfat ERR_MD new; t_fds fatmd-fds exfat ERR_MD new ;;
	sbwrite) t_sbwrite ext2 ;;
	syncfsmd) t_syncfsmd ext2 100; t_syncfsmd ext4nj 100 ;;
	evictread) t_evictread ext2; t_evictread ext4 ;;
	remount) t_remount ext4nj; t_remount ext4 ;;
	dirind) t_dirind ;;
	fallockeep) t_fallockeep ext4; t_fallockeep ext4 jdata; t_fallockeep ext4fc ;;
	dir:*) t_dir ext2 "${t#dir:}" ;;
	*) echo "KPTEST unknown-test $t" ;;
	esac
done
echo "KPTEST done"
