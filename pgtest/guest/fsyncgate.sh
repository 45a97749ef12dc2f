#!/bin/sh
# pgtest guest command (busybox sh): the fsyncgate sequence with the real PostgreSQL server.
# usage: sh /etc/pgtest/fsyncgate.sh evict|noevict|noerror|evict-xfs
# Disks: /dev/vda the cluster (ext4, mounted data=ordered over dm device "pgtest"),
# /dev/vdb the PostgreSQL software (ext2, read-only), /dev/vdc an empty xfs: evict-xfs copies
# the cluster there (cp -a) and runs the evict sequence on xfs over the dm device instead.
# Files from pgtest/run.sh in /etc/pgtest.
# Prints "PGTEST key value" lines, server log lines as "PGLOG ...", and at the end one
# "PGTEST-RESULT k=v ..." line; exits 0 when the run itself worked (whatever the kernel did
# with the data), 1 when a step failed.
set -u
variant=${1:?variant}
case "$variant" in
evict | noevict | noerror) fs=ext4 disk=/dev/vda opts="-o data=ordered" step=$variant ;;
evict-xfs) fs=xfs disk=/dev/vdc opts= step=evict ;;
*) echo "bad variant $variant"; exit 2 ;;
esac
E=/etc/pgtest
DATA=/data/pgdata
LOG=/tmp/pg.log
say() { echo "PGTEST $*"; }
fail() {
	echo "PGTEST-FAIL $*"
	sed 's/^/PGLOG /' "$LOG" 2>/dev/null
	exit 1
}
t0=$(cut -d' ' -f1 /proc/uptime)
el() { awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.0f", b - a }'; }
# as the non-root postgres user, with the libraries from /dev/vdb
pg() { su -s /bin/sh postgres -c "PATH=/usr/lib/postgresql/15/bin:/bin:/usr/bin LD_LIBRARY_PATH=/pg/lib PGHOST=/tmp PGUSER=postgres PGDATABASE=postgres $*"; }
psql_() { pg "psql -XAtq -F' ' $*"; }
running() { pg "pg_ctl -D $DATA status" >/dev/null 2>&1; }
start() {
	pg "pg_ctl -D $DATA -l $LOG -w -t 600 start" >/dev/null || fail "server start"
	say postmaster_uid "$(awk '/^Uid:/ { print $2 }' "/proc/$(head -n1 $DATA/postmaster.pid)/status")"
}

# --- the guest: software, users, the cluster on ext4 over device mapper
mkdir -p /pg /data /usr/lib /usr/share
mount -t ext2 -o ro /dev/vdb /pg || fail "mount software disk"
for d in usr/lib/postgresql usr/share/postgresql usr/share/zoneinfo; do ln -s "/pg/$d" "/$d"; done
cp "$E/passwd" /etc/passwd
cp "$E/group" /etc/group
# writeback only when pgtest asks (sync), never by the flusher's clock in the middle
echo 0 >/proc/sys/vm/dirty_writeback_centisecs
pgguest up $disk /dev/pgtest-dm || fail "dm up"
mount -t $fs $opts /dev/pgtest-dm /data || fail "mount cluster"
if [ "$fs" != ext4 ]; then
	mkdir -p /src
	mount -t ext4 -o ro /dev/vda /src || fail "mount the ext4 cluster to copy"
	cp -a /src/pgdata /data/ || fail "copy the cluster to $fs"
	umount /src
	sync
fi
say kernel "$(uname -r)"
say variant "$variant"
say mount "$(grep ' /data ' /proc/mounts)"
start
say started_s "$(el)"

# --- fill: blocks allocated and clean on disk; then the workload client commits rows
psql_ -f "$E/setup.sql" >/tmp/setup.out 2>&1 || { cat /tmp/setup.out; fail "setup.sql"; }
sed 's/^/PGTEST /' /tmp/setup.out
rel=$DATA/$(awk '$1 == "relpath" { print $2 }' /tmp/setup.out)
psql_ -f "$E/workload.sql" >/tmp/work.out 2>&1 || { cat /tmp/work.out; fail "workload.sql"; }
sed 's/^/PGTEST /' /tmp/work.out
rows_committed=$(awk '$1 == "committed" { print $2 }' /tmp/work.out)
md5_committed=$(awk '$1 == "committed" { print $3 }' /tmp/work.out)
say workload_done_s "$(el)"

# --- the client is gone: wait until no process has the relation's file open
i=0
open_anywhere() {
	for l in /proc/[0-9]*/fd/*; do [ "$(readlink "$l" 2>/dev/null)" != "$1" ] || return 0; done
	return 1
}
while open_anywhere "$rel"; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "$rel still open"
	sleep 0.2
done
say open_descriptors_of_t 0

# --- the device fails under t's file; writeback (sync consumes no error); eviction
if [ "$step" != noerror ]; then
	pgguest fail $disk "$rel" || fail "pgguest fail"
	say dm_table "$(dmsetup table pgtest | grep -c error) error segment(s)"
	dmsetup table pgtest | sed 's/^/PGTEST dm /'
fi
# count the writeback errors the kernel records in page-cache mappings meanwhile (its
# filemap_set_wb_err tracepoint): xfs logs no "I/O error" line for a failed data write
ev=/sys/kernel/tracing/events/filemap/filemap_set_wb_err
echo >/sys/kernel/tracing/trace
echo 1 >$ev/enable
sync
echo 0 >$ev/enable
io_errors=$(grep -c filemap_set_wb_err /sys/kernel/tracing/trace)
say kernel_io_errors "$io_errors"
say kernel_io_error_lines "$(dmesg | grep -c 'I/O error')"
dmesg | grep 'I/O error' | head -n 3 | sed 's/^/PGTEST dmesg /'
if [ "$step" = evict ]; then
	pgguest evict "$rel" || fail "evict"
	say evicted "$rel"
fi

# --- the checkpoint: the checkpointer opens t's file and fsyncs it
cp_out=$(psql_ -c CHECKPOINT 2>&1)
cp_rc=$?
say checkpoint_rc "$cp_rc"
echo "$cp_out" | sed 's/^/PGTEST checkpoint_out /'
i=0
while running && ! grep -q 'PANIC\|checkpoint complete' "$LOG" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 100 ] || break
	sleep 0.2
done
if grep -q PANIC "$LOG"; then
	checkpoint=PANIC
	i=0
	while running; do
		i=$((i + 1))
		[ $i -lt 600 ] || fail "server still running after PANIC"
		sleep 0.2
	done
elif [ "$cp_rc" -eq 0 ]; then
	checkpoint=ok
else
	checkpoint=error
fi
say checkpoint "$checkpoint"
logline=$(grep -m1 -E 'PANIC|ERROR' "$LOG" || grep -E 'checkpoint complete' "$LOG" | tail -n1)
say checkpoint_s "$(el)"

# pg_ctl stop -w returns once postmaster.pid is gone, which the postmaster unlinks just
# before it exits: its last moments can still hold /data (umount EBUSY, seen once in the
# empty-cache CI run of 2026-12-04). Retry for up to 10 s, then say the error.
umount_data() {
	i=0
	until umount /data 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 50 ] || { umount /data; return 1; }
		sleep 0.2
	done
}

# --- heal, stop, remount (the page cache goes: what counts is the disk), restart, count
[ "$step" = noerror ] || pgguest heal $disk || fail "heal"
if running; then pg "pg_ctl -D $DATA -m fast -w -t 600 stop" >/dev/null || fail "server stop"; fi
umount_data || fail "umount"
echo 3 >/proc/sys/vm/drop_caches
mount -t $fs $opts /dev/pgtest-dm /data || fail "remount cluster"
start
psql_ -f "$E/count.sql" >/tmp/count.out 2>&1 || { cat /tmp/count.out; fail "count.sql"; }
rows_after=$(awk '$1 == "after" { print $2 }' /tmp/count.out)
md5_after=$(awk '$1 == "after" { print $3 }' /tmp/count.out)
pg "pg_ctl -D $DATA -m fast -w -t 600 stop" >/dev/null || fail "final stop"
umount_data || fail "final umount"
dmsetup remove pgtest
sed 's/^/PGLOG /' "$LOG"
say total_s "$(el)"
echo "PGTEST-LOGLINE $variant $(echo "$logline" | sed 's/^[0-9-]* [0-9:.]* UTC \[[0-9]*\] //')"
echo "PGTEST-RESULT variant=$variant kernel=$(uname -r) checkpoint=$checkpoint" \
	"rows_committed=$rows_committed rows_after=$rows_after" \
	"md5_committed=$md5_committed md5_after=$md5_after" \
	"recovery=$(grep -q 'redo starts' "$LOG" && echo wal-replay || echo none)" \
	"io_errors=$io_errors"
