#!/usr/bin/env bash
# Host side of the kernel-port guest tests: boot a vm/ kernel in QEMU (vm/run.sh), run one case,
# check what the guest reported. The kernels come from vm/kernel-build.sh (ctest fixtures).
#
# usage: kernel-port/tests/vm-test.sh CASE FLAVOUR [--log FILE]
#   kunit   patched: the errseq KUnit suite ran at boot and every test passed (KTAP parsed,
#           no "not ok", no SKIP); booted with errseq_kunit.invalid_vectors=1, so the
#           invalid-errno vectors run too, and the only kernel warnings are their WARNs
#   evict   write, close, writeback fails (dm error target over the file's blocks),
#           drop_caches, reopen, fsync, on ext2, ext4, xfs and btrfs (two subvolumes whose
#           files share inode number and generation, one with an error).
#           patched: EIO; stock: 0 (the bug).
#           Same boot: sync_file_range reports a write error once per descriptor (both kernels)
#   mdfds   the inode table block of a file fails to write back (sync); fsync on two
#           descriptors open at the time, then on one opened after. patched: EIO once per
#           descriptor; stock: what it does is recorded (0: the error is lost)
#   syncfs  two threads syncfs() one descriptor after each of many writeback errors.
#           patched: exactly one of the two gets each error; stock: recorded
#   review  the cases kernel-port review found, one boot; patched: the
#           contract (below), stock: recorded. premount: an error left on the block
#           device before an ext2 mount is not reported through it; ind: an ext2
#           indirect block that fails to write is reported once per descriptor;
#           falloc: ext4 fallocate on descriptor B does not take B's report from fsync;
#           fatmd: vfat/exfat metadata write failures once per descriptor; sbwrite:
#           syncfs reports ext2's failed superblock write at mount; syncfsmd: two
#           threads syncfs() one descriptor after each failed inode write, one report
#   evictrec the review's eviction items, one boot. dontcache: an ext4 inode evicted at its last
#           close (I_DONTCACHE, bypassing the LRU) after its writeback failed; reopen + fsync.
#           many: N one-block files whose writeback failed, drop_caches, reopen + fsync each
#           (plain; with fs.wb_err_evicted_max=1000 and 3000 files; memcg: the setup in a
#           cgroup with memory.max=KPORT_MANY_MEM, default 16M, no OOM kill on either kernel).
#           patched: every error reported, the inodes not pinned, exactly 1000 with the
#           bound; stock: the evicted errors are lost
#   races   the two races the model checkers found, with a kprobe module (tests/race) holding
#           errseq_check_and_advance() between its load and its cmpxchg: "loss" (a writer
#           stores another errno while a reader is held; 6.1 loses a later error, 0016) and
#           "syncfs" (two threads syncfs() one descriptor, the first held until the second
#           arrives; 6.1 reports twice, 0003), KPORT_RACE_ROUNDS rounds each (default 200),
#           the probe holding up to KPORT_RACE_MS ms (default 200). patched: nothing lost or
#           reported twice; stock: both seen (> 0). The bare syncfs race is recorded too.
#           "fsync": two threads fsync() one descriptor with a data and a metadata error
#           pending, the first held at its metadata cursor (patched; stock has none): one
#           report between them on both kernels
#   dirind  ext2 (1 KiB blocks) mounted dirsync: a new name that needs a new indirect block,
#           whose write fails: the change must fail (EIO) on both kernels
#   remount ext4 with and without a journal: a metadata block's write fails in sync(2),
#           nobody reports it, then mount -o remount,ro up to three times: at most one may
#           fail (stock fails one, through the block device's legacy flags), and the mount
#           ends read-only (both kernels)
#   btrfsrec the btrfs record's edges, on a btrfs disk of its own: a snapshot taken after a
#           failure (same inode number and generation: only the original reports), a remount
#           ro/rw, a file of a deleted subvolume opened through a directory held open in it,
#           a deleted subvolume's kept error with fs.wb_err_evicted_max=1 (a later
#           file's error must still be kept), failed metadata writes then umount (no file's
#           error said dropped), a create refused by a qgroup limit (EDQUOT, no crash).
#           patched: the errors reported once; stock: lost (0)
#   evictread an evicted file's unseen error after the first read of its inode failed (open
#           EIO), ext2 and ext4: open + fsync must report it once. stock: lost (0)
#   fallockeep ext4, data=ordered and a file switched to data=journal: the file's writeback
#           fails, a page elsewhere is dirtied, punch hole / zero range / collapse / insert
#           range (recorded), then fdatasync must report the error and fsync not again
#           (both kernels: stock's fallocate waits use the legacy flags, not the cursor)
#   dirsync, dirflag, dirplain  ext2 (errors=remount-ro) whose directory block fails to
#           write: mounted dirsync (the failing change's own write), chattr +D after a failed
#           writeback, or neither (6.12 writes a directory after every change);
#           then five changes in that directory, fsync of a descriptor open since before,
#           fsck -fn of the image on the host. patched: every later change 0, the
#           descriptor's fsync EIO then 0, the filesystem remounted read-only as ext2_error()
#           does on stock, fsck's verdict no worse than stock's
#   recmem  the memory of 0004's record, measured, ext4 on a disk of its own:
#           KPORT_RECMEM_N files (default 4096) with unseen writeback errors, evicted by
#           drop_caches inside a memory cgroup of their own, which the record's nodes are
#           charged to (XA_FLAGS_ACCOUNT); dense (consecutive inode numbers) and sparse
#           (numbers 64 apart: each entry alone in its xarray leaf; checked). Then open +
#           fsync of each. patched: every error reported, the charge within -5%/+15% of
#           the nodes computed from the inode numbers x 576 bytes; stock: no error
#           reported and no charge (under a tenth of that). Prints bytes per entry and
#           the extrapolation to fs.wb_err_evicted_max (131072). Same boot, xfs (inode64,
#           an 8 TiB sparse disk of 1024 AGs): KPORT_RECMEM_XFS_N files (default 1000),
#           each in an AG of its own (xfsag: numbers above 2^32, 2^24 apart; checked)
# Every KPTEST line the guest printed is echoed; the exit status says whether the
# expectations for FLAVOUR held. KPORT_KERNEL_STOCK or KPORT_KERNEL_PATCHED (a bzImage path)
# boots that image instead of vm/kernel-build.sh's build of the flavour. KPORT_VM_TIMEOUT:
# the guest's time limit in seconds (default 900).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -ge 2 ] || die "usage: $0 kunit|evict|btrfsrec|mdfds|syncfs|review|evictrec|races|dirind|remount|evictread|fallockeep|dirsync|dirflag|dirplain|recmem stock|patched [--log FILE]"
case=$1 flavour=$2
shift 2
keep_log=
[ "${1:-}" = --log ] && keep_log=$2

work=$(mktemp -d "${TMPDIR:-/tmp}/kport-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT
log=$work/console.log
# KPORT_KERNEL_STOCK / KPORT_KERNEL_PATCHED: a bzImage to boot instead of the vm/ build.
override=KPORT_KERNEL_${flavour^^}
run=("$LIBERRSEQ_ROOT/vm/run.sh" --kernel "${!override:-$flavour}" --log "$log" -q)

fail=0
expect() { # expect DESCRIPTION ACTUAL WANTED
	if [ "$2" = "$3" ]; then
		echo "ok:   $1: $2"
	else
		echo "FAIL: $1: got '$2', want '$3'"
		fail=1
	fi
}
# expect_kept DESCRIPTION ACTUAL: an evicted file's unseen error, kept by the series
# (patched: EIO), lost on stock (0)
expect_kept() {
	if [ "$flavour" = patched ]; then
		expect "$1" "$2" EIO
	else
		expect "$1 (stock loses the error)" "$2" 0
	fi
}
field() { # field LINE KEY -> value of KEY=value in LINE
	echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

flib=$LIBERRSEQ_ROOT/vm/guest/lib # the guest programs' fault injector, linked into kptest
extra_add=()   # more vm/run.sh --add arguments for guest_run
extra_disk=()  # more vm/run.sh --disk arguments for guest_run (/dev/vdb, ...)
guest_run() { # guest_run TEST... : boot with the disk and the guest programs, run the tests
	cc -static -O2 -Wall -Wextra -Werror -pthread -I"$flib" -o "$work/kptest" \
		"$KP_DIR/tests/kptest.c" "$flib/fault.c"
	python3 "$KP_DIR/tests/mkimages.py" "$work/img" >/dev/null
	cp "$KP_DIR/tests/guest-tests.sh" "$work/img/layout.env" "$work/"
	set +e
	"${run[@]}" --timeout "${KPORT_VM_TIMEOUT:-900}" --disk "$work/img/disk.img" "${extra_disk[@]}" \
		--add "$work/kptest:/kp/" --add "$work/guest-tests.sh:/kp/" \
		--add "$work/layout.env:/kp/" "${extra_add[@]}" \
		-- sh /kp/guest-tests.sh /dev/vda "$@" >"$work/run.out" 2>&1
	rc=$?
	set -e
	[ -z "$keep_log" ] || cp "$log" "$keep_log"
	grep -a '^KPTEST ' "$log" || true
	if [ $rc -ne 0 ]; then
		tail -n 30 "$work/run.out"
		die "vm/run.sh failed with status $rc"
	fi
}

case "$case" in
kunit)
	[ "$flavour" = patched ] || die "the errseq KUnit suite is only in the patched kernel"
	set +e
	# The invalid-errno vectors WARN by design: run them (they are skipped on a plain boot)
	# and allow those splats; the parser below checks they are the only ones.
	"${run[@]}" --timeout 600 --allow-splat --append errseq_kunit.invalid_vectors=1 \
		-- true >"$work/run.out" 2>&1
	rc=$?
	set -e
	[ -z "$keep_log" ] || cp "$log" "$keep_log"
	[ $rc -eq 0 ] || { tail -n 30 "$work/run.out"; die "vm/run.sh failed with status $rc"; }
	python3 - "$log" <<'EOF' || fail=1
import re, sys
lines = [re.sub(r"^\[ *\d+\.\d+\] ", "", l.rstrip("\n")) for l in open(sys.argv[1], errors="replace")]
# KTAP: "# Subtest: errseq" ... "ok N errseq" at the suite's level; parameterised cases nest
# their parameters one level deeper ("# Subtest: <case>" ... "ok N <param>").
try:
    start = next(i for i, l in enumerate(lines) if re.match(r"\s*# Subtest: errseq$", l))
except StopIteration:
    sys.exit("FAIL: no '# Subtest: errseq' in the console log (suite not built in?)")
suite_indent = len(lines[start]) - len(lines[start].lstrip())
end = None
for i in range(start + 1, len(lines)):
    m = re.match(r"(\s*)(not ok|ok) \d+ (- )?errseq$", lines[i])
    if m and len(m.group(1)) <= suite_indent:
        end = i
        break
if end is None:
    sys.exit("FAIL: the errseq suite has no result line")
body = lines[start:end + 1]
results = [l.strip() for l in body if re.match(r"\s*(not ok|ok) \d+ ", l)]
bad = [l for l in results if l.startswith("not ok") or "# SKIP" in l]
warn = [l for l in lines if "WARNING:" in l]
errseq_warn = [l for l in warn if "lib/errseq.c" in l]
other_splat = [l for l in lines if re.search(r"BUG:|Oops|possible (circular|recursive) locking|"
                                              r"inconsistent lock state|UBSAN:", l)]
print("\n".join(l for l in body if re.match(r"\s*(not ok|ok) \d+ |\s*# ", l)))
print(f"KUNIT results={len(results)} not_ok={len(bad)} errseq_warnings={len(errseq_warn)} "
      f"other_warnings={len(warn) - len(errseq_warn)} other_splats={len(other_splat)}")
ok = not bad and results and results[-1].startswith("ok") and len(warn) == len(errseq_warn) \
    and not other_splat and len(errseq_warn) == sum(1 for l in body
                                                    if re.match(r"\s*ok \d+ (- )?invalid_", l))
sys.exit(0 if ok else "FAIL: see above")
EOF
	;;
evict)
	# xfs and btrfs on disks of their own (/dev/vdb, /dev/vdc; mkfs.xfs wants 300 MiB), their
	# files made in the guest
	truncate -s 300M "$work/xfs.img" "$work/btrfs.img"
	mkfs.xfs -q -f "$work/xfs.img"
	mkfs.btrfs -q -f "$work/btrfs.img" >/dev/null
	extra_disk=(--disk "$work/xfs.img" --disk "$work/btrfs.img")
	guest_run evict sfr evict:/dev/vdb evictbtrfs:/dev/vdc
	# sync_file_range (seed 003): the same on both kernels, 6.1 already has it.
	for fs in ext4 ext2 ext4fc; do
		l=$(grep -a "^KPTEST sfr $fs " "$log" | tail -n 1)
		[ -n "$l" ] || { echo "FAIL: no sync_file_range result for $fs"; fail=1; continue; }
		expect "$fs: sync_file_range after a write error" "$(field "$l" sfr1)" EIO
		expect "$fs: sync_file_range again" "$(field "$l" sfr2)" 0
		expect "$fs: fsync on another descriptor" "$(field "$l" other_fd_fsync)" EIO
	done
	for fs in ext2 ext4 ext4fc; do
		l=$(grep -a "^KPTEST evict $fs " "$log" | tail -n 1)
		[ -n "$l" ] || { echo "FAIL: no result for $fs"; fail=1; continue; }
		expect "$fs: fsync of the control file (no drop_caches)" "$(field "$l" control)" EIO
		expect_kept "$fs: fsync after drop_caches" "$(field "$l" after_drop_caches)"
		expect "$fs: second fsync" "$(field "$l" again)" 0
		expect "$fs: fsync of an unreported file after umount+mount (unmount evicts)" \
			"$(field "$l" after_remount)" 0
	done
	l=$(grep -a "^KPTEST evict xfs " "$log" | tail -n 1)
	case "$l" in '' | *failed*) echo "FAIL: evict xfs: no result (${l:-no line})"; fail=1 ;; esac
	expect_kept "xfs: fsync after drop_caches" "$(field "$l" after_drop_caches)"
	expect "xfs: second fsync" "$(field "$l" again)" 0
	l=$(grep -a "^KPTEST evict-recycle xfs " "$log" | tail -n 1)
	case "$l" in '' | *failed*) echo "FAIL: evict-recycle xfs: no result (${l:-no line})"; fail=1 ;; esac
	expect "xfs recycle: the DAX flag flipped (I_DONTCACHE)" "$(field "$l" set_dax)" 0
	n=$(field "$l" recycled)
	expect "xfs recycle: the reopen recycled the cached inode (xfs_iget_recycle)" \
		"$([ "${n:-0}" -gt 0 ] 2>/dev/null && echo yes || echo "no ($n)")" yes
	expect_kept "xfs recycle: fsync after the eviction" "$(field "$l" fsync)"
	expect "xfs recycle: second fsync" "$(field "$l" again)" 0
	# btrfs: two subvolumes' files with one inode number and generation, one with an error
	l=$(grep -a "^KPTEST evict btrfs " "$log" | tail -n 1)
	case "$l" in '' | *failed*) echo "FAIL: evict btrfs: no result (${l:-no line})"; fail=1 ;; esac
	expect "btrfs: a/f and b/f share an inode number" "$(field "$l" a_ino)" "$(field "$l" b_ino)"
	expect "btrfs: a/f and b/f share a generation" "$(field "$l" a_gen)" "$(field "$l" b_gen)"
	n=$(field "$l" set_wb_err)
	expect "btrfs: b/f's writeback failed (filemap_set_wb_err events)" \
		"$([ "${n:-0}" -gt 0 ] 2>/dev/null && echo yes || echo "no ($n)")" yes
	expect "btrfs: fsync of a/f, first after drop_caches (b/f's error is not its own)" \
		"$(field "$l" other_subvol)" 0
	expect_kept "btrfs: fsync of b/f after drop_caches" "$(field "$l" after_drop_caches)"
	expect "btrfs: second fsync of b/f" "$(field "$l" again)" 0
	expect "btrfs: second fsync of a/f" "$(field "$l" other_again)" 0
	if grep -aq "Busy inodes after unmount" "$log"; then
		echo "FAIL: the kernel reported busy inodes after unmount"
		fail=1
	fi
	;;
mdfds)
	guest_run mdfds
	for fs in ext2 ext4nj; do
		l=$(grep -a "^KPTEST md-fds $fs " "$log" | tail -n 1)
		[ -n "$l" ] || { echo "FAIL: no result for $fs"; fail=1; continue; }
		if [ "$flavour" = patched ]; then
			for k in a1:EIO a2:0 b1:EIO b2:0 c1:0; do
				expect "$fs: fsync ${k%%:*}" "$(field "$l" "${k%%:*}")" "${k#*:}"
			done
			t=$(grep -a "^KPTEST md-trace $fs " "$log" | tail -n 1)
			n=$(field "$t" events)
			case "$n" in
			'' | 0 | *[!0-9]*) echo "FAIL: $fs: no file_check_and_advance_md_wb_err trace events ($t)"; fail=1 ;;
			*) echo "ok:   $fs: $n file_check_and_advance_md_wb_err trace events" ;;
			esac
		else
			echo "stock $fs (recorded, not checked): $l"
		fi
	done
	;;
syncfs)
	guest_run syncfs
	for fs in ext4 ext2; do
		l=$(grep -a "^KPTEST syncfs-race $fs " "$log" | tail -n 1)
		[ -n "$l" ] || { echo "FAIL: no result for $fs"; fail=1; continue; }
		if [ "$flavour" = patched ]; then
			expect "$fs: iterations where both threads got the error" "$(field "$l" reported2)" 0
			expect "$fs: iterations where neither did" "$(field "$l" reported0)" 0
			expect "$fs: iterations without a fresh write error" "$(field "$l" other)" 0
		else
			echo "stock $fs (recorded, not checked): $l"
		fi
	done
	;;
races)
	# kernel-port/tests/race: the kprobe module and its driver (README.md, kport-vm-races-*)
	ko=$("$LIBERRSEQ_ROOT/vm/kmod-build.sh" "$flavour" "$KP_DIR/tests/race" "$work/race" | grep '\.ko$')
	cc -static -O2 -Wall -Wextra -Werror -pthread -o "$work/racetest" "$KP_DIR/tests/race/racetest.c"
	extra_add=(--add "$ko:/kp/" --add "$work/racetest:/kp/")
	rounds=${KPORT_RACE_ROUNDS:-200} ms=${KPORT_RACE_MS:-200}
	guest_run "races:$rounds:$ms"
	grep -a '^KPTEST-dmesg ' "$log" || true
	l=$(grep -a "^KPTEST race-loss ext2 " "$log" | tail -n 1)
	s=$(grep -a "^KPTEST race-syncfs ext2 .*meet_ms=$ms " "$log" | tail -n 1)
	b=$(grep -a "^KPTEST race-syncfs ext2 .*meet_ms=0 " "$log" | tail -n 1)
	f=$(grep -a "^KPTEST race-fsync ext2 " "$log" | tail -n 1)
	[ -n "$l" ] && [ -n "$s" ] && [ -n "$b" ] && [ -n "$f" ] || { echo "FAIL: missing race results"; exit 1; }
	# two fsync() of one descriptor, a data and a metadata error pending: one report
	# between them, on both kernels (stock reports only the data error through fsync);
	# patched: the first held at its metadata cursor in every round
	expect "fsync race: errors lost" "$(field "$f" lost)" 0
	expect "fsync race: errors reported twice" "$(field "$f" twice)" 0
	[ "$flavour" = stock ] ||
		expect "fsync race: rounds the hold held the first fsync" "$(field "$f" widened)" "$rounds"
	echo "fsync race: $f"
	# every round of the lost-error race must have had its window held open, on both kernels
	expect "loss race: rounds the probe held the reader" "$(field "$l" widened)" "$rounds"
	if [ "$flavour" = patched ]; then
		expect "loss race: errors lost" "$(field "$l" lost)" 0
		expect "loss race: errors reported twice" "$(field "$l" twice)" 0
		expect "syncfs race (probe): errors lost" "$(field "$s" lost)" 0
		expect "syncfs race (probe): errors reported twice" "$(field "$s" twice)" 0
		expect "syncfs race (no probe): errors lost" "$(field "$b" lost)" 0
		expect "syncfs race (no probe): errors reported twice" "$(field "$b" twice)" 0
	else
		# stock 6.1 has both bugs: the widened windows must show them
		n=$(field "$l" lost)
		[ "${n:-0}" -gt 0 ] && echo "ok:   stock loses errors in the loss race: $n of $rounds rounds" ||
			{ echo "FAIL: stock lost no error in the widened loss race ($l)"; fail=1; }
		n=$(field "$s" twice)
		[ "${n:-0}" -gt 0 ] && echo "ok:   stock reports twice in the syncfs race: $n of $rounds rounds" ||
			{ echo "FAIL: stock reported no error twice in the widened syncfs race ($s)"; fail=1; }
		echo "stock, syncfs race without the probe (recorded, not checked): $b"
	fi
	;;
review)
	guest_run premount ind falloc fatmd sbwrite syncfsmd
	check() { # check TAG FS KEY:WANT... : one result line, each KEY as wanted (patched)
		local tag=$1 fs=$2 l k
		shift 2
		l=$(grep -a "^KPTEST $tag $fs " "$log" | tail -n 1)
		case "$l" in
		'' | *setup-failed* | *mount-failed*)
			echo "FAIL: $tag $fs: no result (${l:-no line})"
			fail=1
			return
			;;
		esac
		if [ "$flavour" != patched ]; then
			echo "stock $tag $fs (recorded, not checked): ${l#"KPTEST $tag $fs "}"
			return
		fi
		for k in "$@"; do
			expect "$tag $fs: ${k%%:*}" "$(field "$l" "${k%%:*}")" "${k#*:}"
		done
	}
	# Precondition on both kernels: the raw write did fail (errors were recorded).
	l=$(grep -a "^KPTEST premount ext2 " "$log" | tail -n 1)
	case "$(field "$l" raw_errors)" in
	'' | 0 | *[!0-9]*) echo "FAIL: premount: the raw write did not fail ($l)"; fail=1 ;;
	*) echo "ok:   premount: the raw write failed ($(field "$l" raw_errors) errors recorded)" ;;
	esac
	check premount ext2 fsync:0 second_file:0 syncfs:0 mount:rw
	check ind-fds ext2 a1:EIO a2:0 b1:EIO b2:0
	# B was open when A's write failed: B's fsync owes B the report, whatever B's fallocate
	# calls did before it (they write back with the disk working, and may return 0)
	check falloc-fds ext4 a_fsync:EIO punch1:0 punch2:0 collapse:0 b_fsync1:EIO b_fsync2:0
	check fatmd-fds vfat a1:EIO a2:0 b1:EIO b2:0
	check fatmd-fds exfat a1:EIO a2:0 b1:EIO b2:0
	check sbwrite ext2 syncfs1:EIO syncfs2:0
	for fs in ext2 ext4nj; do
		check syncfs-md-race $fs reported2:0 reported0:0 other:0
	done
	;;
evictrec)
	# The review's eviction items. KPORT_MANY_N files (default 20000), plain and again with the
	# setup inside a memory cgroup of memory.max KPORT_MANY_MEM (default 16M, "none": no
	# such run; memory.high is 7/8 of it, see guest-tests.sh), where memcg reclaim evicts
	# the inodes while their errors are unseen.
	n=${KPORT_MANY_N:-20000} mem=${KPORT_MANY_MEM:-16M} bound=1000 labels="plain bound"
	set -- dontcache "many:plain:$n" "many:bound:$((3 * bound))::$bound"
	[ "$mem" = none ] || { set -- "$@" "many:memcg:$n:$mem"; labels="$labels memcg"; }
	guest_run "$@"
	l=$(grep -a "^KPTEST dontcache ext4 " "$log" | tail -n 1)
	expect "dontcache: FS_DAX_FL set" "$(field "$l" set_dax)" 0
	expect_kept "dontcache: fsync after the I_DONTCACHE eviction" "$(field "$l" fsync)"
	expect "dontcache: second fsync" "$(field "$l" again)" 0
	for label in $labels; do
		l=$(grep -a "^KPTEST many $label " "$log" | tail -n 1)
		[ -n "$l" ] || { echo "FAIL: many $label: no result"; fail=1; continue; }
		echo "${l#KPTEST }"
		nn=$(field "$l" n)
		if [ $label = memcg ]; then
			expect "many memcg: OOM kills in the cgroup" "$(field "$l" oom_kills)" 0
			# the limit must have evicted inodes during the setup, or the run shows nothing
			c0=$(field "$l" ext4_inodes_before_drop)
			expect "many memcg: fewer than half of the $nn inodes in memory before drop_caches" \
				"$([ "${c0:-$nn}" -lt $((nn / 2)) ] && echo yes || echo "no ($c0)")" yes
		fi
		expect "many $label: setup wrote $nn files" "$(field "$l" files)" "$nn"
		expect "many $label: the setup's syncfs saw the errors" "$(field "$l" syncfs)" EIO
		expect "many $label: files that failed to open or fsync oddly" "$(field "$l" other)" 0
		[ "$flavour" = patched ] || continue
		if [ $label = bound ]; then
			# every inode evicted; the record keeps the first $bound errors, the rest are
			# lost with a warning
			expect "many bound: errors reported (record bound $bound)" "$(field "$l" eio)" $bound
			continue
		fi
		if [ $label = memcg ]; then
			# every error still reported, also of the inodes the cgroup's reclaim
			# evicted before drop_caches (checked below for both kernels)
			expect "many memcg: errors reported" "$(field "$l" eio)" "$nn"
			continue
		fi
		# not pinned: drop_caches evicted the inodes (the pin kept all N)
		c=$(field "$l" ext4_inodes_cached)
		expect "many $label: fewer than half of the $nn inodes cached after drop_caches" \
			"$([ "${c:-$nn}" -lt $((nn / 2)) ] && echo yes || echo "no ($c)")" yes
		expect "many $label: errors reported after drop_caches" "$(field "$l" eio)" "$nn"
	done
	if [ "$flavour" = patched ]; then
		w=$(field "$(grep -a "^KPTEST many bound " "$log" | tail -n 1)" record_full_warnings)
		case "$w" in
		'' | 0 | *[!0-9]*) echo "FAIL: many bound: no 'record full' warning in dmesg"; fail=1 ;;
		*) echo "ok:   many bound: $w 'record full' warnings in dmesg (ratelimited)" ;;
		esac
	fi
	;;
dirind)
	guest_run dirind
	l=$(grep -a "^KPTEST dirind ext2k " "$log" | tail -n 1)
	case "$l" in '' | *setup-failed*) die "dirind: no result (${l:-no line})" ;; esac
	echo "recorded: ${l#KPTEST }"
	# preconditions on both kernels: the change allocated block 12 (13 KiB of directory),
	# and a write failed meanwhile (the indirect block's)
	expect "the directory grew to 13 blocks" "$(field "$l" size)" 13312
	n=$(field "$l" wb_errors)
	expect "a writeback error recorded during the change" "$([ "${n:-0}" -gt 0 ] && echo yes || echo "no ($n)")" yes
	expect "the change whose indirect block failed to write" "$(field "$l" touch)" failed
	;;
remount)
	guest_run remount
	for fs in ext4nj ext4; do
		l=$(grep -a "^KPTEST remount $fs " "$log" | tail -n 1)
		case "$l" in '' | *setup-failed*) echo "FAIL: remount $fs: no result (${l:-no line})"; fail=1; continue ;; esac
		echo "recorded: ${l#KPTEST }"
		# an unseen metadata error may fail one remount (stock does, through the block
		# device's legacy flags), not every one: the mount must end read-only
		expect "$fs: read-only after at most three remounts" "$(field "$l" mount)" ro
		r2=$(field "$l" ro2)
		expect "$fs: at most one remount failed" "${r2:-not tried}" "$([ "$r2" = failed ] && echo "0 or not tried" || echo "${r2:-not tried}")"
	done
	;;
btrfsrec)
	truncate -s 300M "$work/btrfs.img"
	mkfs.btrfs -q -f "$work/btrfs.img" >/dev/null
	extra_disk=(--disk "$work/btrfs.img")
	guest_run btrfsrec:/dev/vdb
	res() { # res NAME: the last "KPTEST btrfsrec NAME" line, or FAIL
		l=$(grep -a "^KPTEST btrfsrec $1 " "$log" | tail -n 1)
		[ -n "$l" ] || { echo "FAIL: btrfsrec $1: no result"; fail=1; }
	}
	if grep -aq '^KPTEST btrfsrec .*failed' "$log"; then
		echo "FAIL: btrfsrec: a setup step failed"
		fail=1
	fi
	res snap
	expect "snap: s/f and b/f share an inode number" "$(field "$l" s_ino)" "$(field "$l" b_ino)"
	expect "snap: s/f and b/f share a generation" "$(field "$l" s_gen)" "$(field "$l" b_gen)"
	expect "snap: fsync of the snapshot's s/f, first after drop_caches (not its error)" \
		"$(field "$l" s1)" 0
	expect_kept "snap: fsync of b/f" "$(field "$l" b1)"
	expect "snap: second fsync of b/f" "$(field "$l" b2)" 0
	expect "snap: second fsync of s/f" "$(field "$l" s2)" 0
	res remount
	expect_kept "remount ro and rw: fsync of c/f" "$(field "$l" c1)"
	expect "remount: second fsync of c/f" "$(field "$l" c2)" 0
	res held
	expect_kept "held: a deleted subvolume's file, opened through a directory held open in it" \
		"$(field "$l" h1)"
	expect "held: second fsync" "$(field "$l" h2)" 0
	res deleted
	expect_kept "bound 1, a deleted subvolume's error evicted before: fsync of e/f" "$(field "$l" e1)"
	expect "deleted: second fsync of e/f" "$(field "$l" e2)" 0
	expect "deleted: no \"record full\" warning" "$(field "$l" record_full)" 0
	res umount
	expect "umount: no \"dropped at unmount\" line (every kept error was reported)" \
		"$(field "$l" dropped_lines)" 0
	res meta
	expect "meta: metadata writes failed, then umount: no file's error said dropped" \
		"$(field "$l" dropped_lines)" 0
	res quota
	expect "quota: a create refused by the qgroup limit" "$(field "$l" create)" EDQUOT
	;;
evictread)
	guest_run evictread
	for fs in ext2 ext4; do
		l=$(grep -a "^KPTEST evictread $fs " "$log" | tail -n 1)
		[ -n "$l" ] || { echo "FAIL: evictread $fs: no result"; fail=1; continue; }
		expect "$fs: open while the inode table block cannot be read" "$(field "$l" open_unreadable)" EIO
		if [ "$flavour" = patched ]; then
			expect "$fs: fsync after the failed read" "$(field "$l" fsync)" EIO
		else
			expect "$fs: fsync after the failed read (stock loses it at eviction)" "$(field "$l" fsync)" 0
		fi
		expect "$fs: second fsync" "$(field "$l" again)" 0
	done
	;;
fallockeep)
	guest_run fallockeep
	for v in ext4 ext4-jdata ext4fc; do
		l=$(grep -a "^KPTEST falloc-keep $v " "$log" | tail -n 1)
		case "$l" in '' | *setup-failed*) echo "FAIL: falloc-keep $v: no result (${l:-no line})"; fail=1; continue ;; esac
		echo "recorded: ${l#KPTEST }"
		for m in punch zero collapse insert; do
			[ "$v" != ext4-jdata ] || expect "$v $m: the file switched to data=journal" "$(field "$l" "${m}_jdata")" 0
			expect "$v $m: fdatasync after the fallocate" "$(field "$l" "${m}_fdatasync")" EIO
			expect "$v $m: fsync after that" "$(field "$l" "${m}_fsync")" 0
		done
	done
	;;
dirsync | dirflag | dirplain)
	mode=${case#dir}
	guest_run "dir:$mode"
	l=$(grep -a "^KPTEST dir-$mode ext2 " "$log" | tail -n 1)
	case "$l" in '' | *setup-failed*) die "dir-$mode: no result (${l:-no line})" ;; esac
	# the ext2 image is the disk's first 32 MiB (mkimages.py)
	dd if="$work/img/disk.img" of="$work/ext2.img" bs=1M count=32 status=none
	set +e
	e2fsck -fn "$work/ext2.img" >"$work/fsck.out" 2>&1
	frc=$?
	set -e
	sed 's/^/fsck: /' "$work/fsck.out" | head -n 40
	echo "recorded: ${l#KPTEST } fsck_exit=$frc"
	if [ "$mode" = sync ]; then
		expect "the change whose directory write failed" "$(field "$l" first)" failed
	elif [ "$mode" = flag ]; then
		expect "chattr +D on the directory" "$(field "$l" dirsync_flag)" 0
	fi
	if [ "$flavour" = patched ]; then
		for k in creat_a creat_b mkdir_c unlink_x rename_y; do
			expect "later change $k (the disk works)" "$(field "$l" $k)" 0
		done
		expect "fsync of the descriptor open since before" "$(field "$l" dirfd_fsync1)" EIO
		expect "second fsync of it" "$(field "$l" dirfd_fsync2)" 0
		expect "ext2_error() remounted read-only (errors=remount-ro)" "$(field "$l" mount)" ro
		# Every kernel damages the directory when a change's own write fails (dirsync, and
		# any change on 6.12): ext2_add_nondir() discards the inode, its entry stays in the
		# page and reaches the disk with the next change; fsck then finds "first". The later
		# changes must add no damage, and without that first failure the filesystem must
		# be clean.
		if [ "$(field "$l" first)" = failed ]; then
			# (dirsync on both lines; on 6.12 every change writes its directory at once)
			n=$(grep -cE "Entry '[abcz]'|Entry 'first'" "$work/fsck.out" || true)
			m=$(grep -cE "Entry '[abcz]'" "$work/fsck.out" || true)
			expect "fsck: the first change's entry is the only damaged one" "$m of $n" "0 of $n"
		else
			expect "fsck -fn of the image" "$frc" 0
		fi
	fi
	;;
recmem)
	# The memory of 0004's record. The sparse files are made on the host (mkfs -d, about 20 s for
	# 4096): the guest would need 64 N creates. The xfs disk is 8 TiB, sparse (about 73 MB
	# on the host): 1024 AGs of 8 GiB, so an AG's inode numbers span 2^24 (1 KiB blocks,
	# two 512-byte inodes a block) and the last AGs' numbers need 34 bits.
	n=${KPORT_RECMEM_N:-4096} nx=${KPORT_RECMEM_XFS_N:-1000} bound=131072
	python3 "$KP_DIR/tests/mkimages.py" --rec "$work/rec.img" "$n"
	truncate -s 8T "$work/recx.img"
	mkfs.xfs -q -f -K -b size=1024 -d agcount=1024 -l size=64m "$work/recx.img"
	extra_disk=(--disk "$work/rec.img" --disk "$work/recx.img")
	guest_run "recmem:/dev/vdb:$n" "recmem-xfs:/dev/vdc:$nx"
	l=$(grep -a "^KPTEST recmem-slab " "$log" | tail -n 1)
	[ -n "$l" ] || die "recmem: no result (setup failed?)"
	for v in dense sparse xfsag; do
		l=$(grep -a "^KPTEST recmem $v " "$log" | tail -n 1)
		case "$l" in '' | *setup-failed*) echo "FAIL: recmem $v: no result (${l:-no line})"; fail=1; continue ;; esac
		nn=$n
		[ $v != xfsag ] || nn=$nx
		expect "$v: setup wrote $nn files" "$(field "$l" files)" "$nn"
		expect "$v: the setup's syncfs saw the errors" "$(field "$l" syncfs)" EIO
		expect "$v: files that failed to open or fsync oddly" "$(field "$l" other)" 0
		# the measured drop_caches is what evicted them (not reclaim before it, whose
		# task and cgroup would have been charged instead): in memory before it
		c0=$(field "$l" inodes_before_drop) c1=$(field "$l" inodes_after_drop)
		expect "$v: the $nn inodes in memory before the measured drop_caches" \
			"$([ "${c0:-0}" -ge "$nn" ] && echo yes || echo "no ($c0)")" yes
		g=$(field "$l" min_gap)
		case $v in
		dense)
			expect "dense: inode numbers consecutive" "$(field "$l" max_gap)" 1 ;;
		sparse)
			# the precondition: every entry alone in its leaf node
			expect "sparse: inode numbers at least 64 apart" \
				"$([ "${g:-0}" -ge 64 ] && echo yes || echo "no (smallest gap $g)")" yes
			expect "sparse: leaf nodes (one an entry)" "$(field "$l" leaves)" "$nn" ;;
		xfsag)
			# numbers above 32 bits, each entry alone in its nodes of shift 0, 6 and 12
			expect "xfsag: inode numbers above 2^32" \
				"$([ "$(field "$l" ino_bits)" -gt 32 ] && echo yes || echo "no ($(field "$l" ino_max))")" yes
			expect "xfsag: inode numbers at least 2^18 apart" \
				"$([ "${g:-0}" -ge 262144 ] && echo yes || echo "no (smallest gap $g)")" yes ;;
		esac
		# ext2/ext4 free an evicted inode; xfs keeps it in its own cache, reclaimable
		[ $v = xfsag ] || expect "$v: fewer than half of them left after it" \
			"$([ "${c1:-$nn}" -lt $((nn / 2)) ] && echo yes || echo "no ($c1)")" yes
		# bytes charged per entry, against the nodes the numbers need x 576 bytes; the
		# same stride extrapolated to the bound, and the commit message's worst spreads
		# (the bound's entries evenly over 2^32 and 2^64), at the charge measured per node
		read -r verdict summary < <(python3 - "$l" "$nn" "$bound" "$flavour" <<'EOF'
import sys
kv = dict(w.split("=", 1) for w in sys.argv[1].split() if "=" in w)
n, bound, flavour = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
nodes, charged = int(kv["xa_nodes"]), int(kv["charged"])
rtn = int(kv["rtn_full"]) - int(kv["rtn_empty"])
def xa_nodes(start, count, stride):
    """nodes of an xarray holding count entries start, start + stride, ..."""
    last, total, s = start + (count - 1) * stride, 0, 0
    while True:
        total += count if stride >= 64 << s else (last >> (s + 6)) - (start >> (s + 6)) + 1
        if last >> (s + 6) == 0:
            return total
        s += 6
stride = max(int(kv["min_gap"]), 1)
at_bound = xa_nodes(int(kv["ino_min"]), bound, stride)
worst32, worst64 = xa_nodes(0, bound, 2**32 // bound), xa_nodes(0, bound, 2**64 // bound)
per_node = charged / nodes
ratio = charged / (nodes * 576)
ok = 0.95 <= ratio <= 1.15 if flavour == "patched" else charged < nodes * 576 / 10
mib = lambda b: f"{b / 2**20:.2f}MiB"
print("yes" if ok else "no", f"entries={n} xa_nodes={nodes} computed_bytes={nodes * 576}"
      f" charged={charged} ratio={ratio:.3f} charged_per_entry={charged / n:.1f}"
      f" charged_per_node={per_node:.1f} rtn_objs_freed_by_fsync={rtn}"
      f" at_bound_stride{stride}: xa_nodes={at_bound} computed={mib(at_bound * 576)}"
      f" charged~{mib(at_bound * per_node)}"
      f" worst32: xa_nodes={worst32} computed={mib(worst32 * 576)} charged~{mib(worst32 * per_node)}"
      f" worst64: xa_nodes={worst64} computed={mib(worst64 * 576)} charged~{mib(worst64 * per_node)}")
EOF
		) || true
		echo "recmem $v: $summary"
		if [ "$flavour" = patched ]; then
			expect "$v: errors reported after the eviction" "$(field "$l" eio)" "$nn"
			expect "$v: charge within -5%/+15% of the computed nodes x 576 bytes" "$verdict" yes
		else
			expect "$v: errors reported after the eviction (stock loses them)" "$(field "$l" eio)" 0
			expect "$v: charge under a tenth of the computed nodes x 576 bytes (no record)" "$verdict" yes
		fi
	done
	;;
*) die "unknown case $case" ;;
esac
exit $fail
