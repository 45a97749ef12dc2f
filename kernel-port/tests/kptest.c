// SPDX-License-Identifier: GPL-2.0
/*
 * kptest: the guest side of the kernel-port tests (built static, run in the
 * QEMU guest by kernel-port/tests/guest-tests.sh).
 *
 *   kptest dm-create NAME TABLE     create a dm device, print /dev/dm-N
 *   kptest dm-load NAME TABLE       swap the live table (no fs freeze/flush)
 *   kptest dm-remove NAME
 *   kptest overwrite PATH BYTES     write BYTES into PATH from offset 0, close
 *   kptest fsync PATH               open PATH, fsync, print the result
 *   kptest md-fds NAME PATH GOOD ERR
 *                                   per-descriptor metadata error reporting
 *   kptest sfr NAME PATH GOOD ERR   sync_file_range error reporting
 *   kptest syncfs-race NAME PATH GOOD ERR ITERATIONS [data|md]
 *                                   two threads syncfs() one descriptor,
 *                                   after a data write error (default) or
 *                                   a failed write of PATH's inode (md)
 *   kptest raw-rewrite DEV OFFSET   read 4 KiB of DEV at OFFSET and write it
 *                                   back through the page cache, close (no
 *                                   fsync: writeback happens later)
 *   kptest new-file-fsync PATH      create PATH, write 8 KiB, fsync, then
 *                                   fsync a second new file (is the fs
 *                                   still writable?)
 *   kptest ind-fds NAME PATH GOOD ERR
 *                                   a write that dirties PATH's indirect
 *                                   block, which fails to write back: fsync
 *                                   twice on two descriptors
 *   kptest falloc-fds NAME PATH GOOD ERR
 *                                   fallocate after another descriptor
 *                                   reported a write error
 *   kptest falloc-keep NAME PATH GOOD ERR [jdata]
 *                                   PATH's writeback fails (nobody sees it),
 *                                   a page elsewhere is dirtied, then each
 *                                   fallocate mode that writes back, then
 *                                   fdatasync and fsync (jdata: the file is
 *                                   switched to data=journal first)
 *   kptest open PATH                open PATH read-write, print the result
 *   kptest freeze-thaw PATH         FIFREEZE then FITHAW the filesystem of
 *                                   PATH (ext4: checkpoints the journal)
 *   kptest err-table PATH GOOD      print GOOD ("0 LEN linear DEV BASE") with
 *                                   an "error" target over PATH's extents
 *   kptest dirops DIR               creat, creat, mkdir, unlink, rename in
 *                                   DIR, print each result
 *   kptest dirsync-flag DIR         set FS_DIRSYNC_FL on DIR (chattr +D)
 *   kptest fsync-fd FD              fsync the inherited descriptor FD
 *   kptest fatmd-fds NAME PATH GOOD ERR
 *                                   new file, its metadata fails to write
 *                                   during the first fsync: fsync twice on
 *                                   two descriptors
 *   kptest syncfs PATH              open PATH, syncfs, print the result
 *   kptest many-setup NAME DIR N GOOD
 *                                   N one-block files in DIR whose writeback
 *                                   failed, no error seen (see the function)
 *   kptest many-fsync DIR N         open + fsync each of them, count results
 *   kptest drop-caches              drop_caches (3) twice, print the time
 *   kptest set-dax PATH             set FS_DAX_FL (ext4: I_DONTCACHE)
 *   kptest subvol DIR NAME          create btrfs subvolume DIR/NAME
 *   kptest tagged PATH BLOCKS       write BLOCKS 4 KiB blocks into PATH, each
 *                                   one unlike any other, fsync, close
 *   kptest scan-table PATH GOOD     print GOOD with an "error" target over
 *                                   the blocks of the device GOOD maps whose
 *                                   content is one of PATH's blocks (for
 *                                   btrfs, whose FIEMAP addresses are not
 *                                   the device's); every block must be found
 *   kptest ino-gen PATH             print PATH's inode number and generation
 *   kptest btrfs OP DIR [ARGS]      btrfs ioctls on the filesystem of DIR:
 *                                   quota (enable quotas), limit BYTES (DIR's
 *                                   subvolume's qgroup), snap SRC NAME (a
 *                                   snapshot of subvolume SRC as DIR/NAME),
 *                                   del NAME (delete subvolume DIR/NAME)
 *   kptest open-creat PATH          create PATH (O_CREAT|O_EXCL), print the result
 *   kptest falloc-fsync PATH        open PATH, fallocate KEEP_SIZE 4 KiB at
 *                                   1 MiB, fsync, print both results
 *   kptest ino-stats DIR N          the inode numbers of DIR's N files (as
 *                                   many-setup names them): spread, smallest
 *                                   gap, and the xarray nodes an entry for
 *                                   each number needs (see the function)
 *   kptest dir-spread DIR N         N empty files DIR/%06d, each made in a
 *                                   directory of its own (DIR.d/%06d/f,
 *                                   linked into DIR): xfs (inode64) puts
 *                                   each new directory in the next AG
 *   kptest memcg-drop CG DRAIN      drop_caches (3) twice inside the memory
 *                                   cgroup CG (a directory of cgroup2), on
 *                                   CPU 0: CG's slab_reclaimable before and
 *                                   after, stats drained through DRAIN
 *
 * TABLE is a device-mapper table, one target per ';'-separated entry:
 * "START LEN TYPE PARAMS" in 512-byte sectors, as dmsetup takes it; the
 * guest programs' fault injector loads it (vm/guest/lib/fault.c, linked in).
 * Every result line starts with "KPTEST " for the host to parse.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/btrfs.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "fault.h"

static void die(const char *what)
{
	fprintf(stderr, "kptest: %s: %s\n", what, strerror(errno));
	exit(2);
}

static const char *errname(int err)
{
	static char buf[32];

	switch (err) {
	case 0: return "0";
	case EIO: return "EIO";
	case ENOSPC: return "ENOSPC";
	case EROFS: return "EROFS";
	case EDQUOT: return "EDQUOT";
	default:
		snprintf(buf, sizeof(buf), "errno%d", err);
		return buf;
	}
}

/* ---- device-mapper: the guest programs' fault injector (vm/guest/lib/fault.c) */

static char why[512];

static void die_why(void)
{
	fprintf(stderr, "kptest: %s\n", why);
	exit(2);
}

/* Swap NAME's live table for TABLE (no fs freeze: it would write back what the test fails). */
static void dm_swap(const char *name, const char *table)
{
	if (fault_dev_load(name, table, why, sizeof(why)))
		die_why();
}

static int cmd_dm_create(const char *name, const char *table)
{
	dev_t dev;

	if (fault_dev_create(name, table, &dev, why, sizeof(why)))
		die_why();
	printf("/dev/dm-%u\n", minor(dev));
	return 0;
}

static int cmd_dm_remove(const char *name)
{
	if (fault_dev_remove(name, why, sizeof(why)))
		die_why();
	return 0;
}

/* ---- file helpers */

static int open_or_die(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		die(path);
	return fd;
}

static void overwrite_fd(int fd, long bytes, int seed)
{
	char page[4096];
	long done;

	memset(page, 'a' + seed % 26, sizeof(page));
	for (done = 0; done < bytes; done += sizeof(page))
		if (pwrite(fd, page, sizeof(page), done) != sizeof(page))
			die("pwrite");
}

static int fsync_err(int fd)
{
	return fsync(fd) ? errno : 0;
}

static int cmd_overwrite(const char *path, long bytes)
{
	int fd = open_or_die(path, O_WRONLY);

	overwrite_fd(fd, bytes, 1);
	if (close(fd))
		die("close");
	return 0;
}

static int cmd_fsync(const char *path)
{
	int fd = open_or_die(path, O_RDWR);
	int err = fsync_err(fd);

	printf("KPTEST fsync %s %s\n", path, errname(err));
	close(fd);
	return 0;
}

/*
 * Metadata writeback errors, per descriptor: fds A and B are open when the
 * inode's metadata block fails to write back; each must get the error from
 * fsync() once, and C, opened afterwards, not at all.
 */
static int cmd_md_fds(const char *name, const char *path, const char *good,
		      const char *bad)
{
	int a = open_or_die(path, O_RDWR), b = open_or_die(path, O_RDWR), c;
	int a1, a2, b1, b2, c1;

	dm_swap(name, bad);
	if (fchmod(a, 0600))
		die("fchmod");
	sync();		/* the inode block fails to write back, nobody reports */
	dm_swap(name, good);
	a1 = fsync_err(a);
	a2 = fsync_err(a);
	b1 = fsync_err(b);
	b2 = fsync_err(b);
	c = open_or_die(path, O_RDWR);
	c1 = fsync_err(c);
	printf("KPTEST md-fds a1=%s", errname(a1));
	printf(" a2=%s", errname(a2));
	printf(" b1=%s", errname(b1));
	printf(" b2=%s", errname(b2));
	printf(" c1=%s\n", errname(c1));
	close(a);
	close(b);
	close(c);
	return 0;
}

/*
 * sync_file_range() reports writeback errors through the same f_wb_err
 * cursor as fsync(): once per descriptor, and not to the other descriptor.
 */
static int cmd_sfr(const char *name, const char *path, const char *good,
		   const char *bad)
{
	int a = open_or_die(path, O_RDWR), b = open_or_die(path, O_RDWR);
	unsigned int fl = SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
			  SYNC_FILE_RANGE_WAIT_AFTER;
	int r1, r2, r3;

	dm_swap(name, bad);
	overwrite_fd(a, 4096, 7);
	r1 = sync_file_range(a, 0, 0, fl) ? errno : 0;
	r2 = sync_file_range(a, 0, 0, fl) ? errno : 0;
	r3 = fsync_err(b);
	dm_swap(name, good);
	printf("KPTEST sfr sfr1=%s", errname(r1));
	printf(" sfr2=%s", errname(r2));
	printf(" other_fd_fsync=%s\n", errname(r3));
	close(a);
	close(b);
	return 0;
}

/* ---- syncfs: two threads, one descriptor */

static pthread_barrier_t race_start, race_end;
static int race_fd, race_res[2];
static volatile int race_stop;

static void *race_thread(void *arg)
{
	int i = (int)(intptr_t)arg;

	for (;;) {
		pthread_barrier_wait(&race_start);
		if (race_stop)
			return NULL;
		race_res[i] = syncfs(race_fd) ? errno : 0;
		pthread_barrier_wait(&race_end);
	}
}

static int cmd_syncfs_race(const char *name, const char *path,
			   const char *good, const char *bad, int iters, int md)
{
	int w = open_or_die(path, O_RDWR), it, hist[3] = { 0, 0, 0 }, other = 0;
	pthread_t t[2];

	race_fd = open_or_die(path, O_RDONLY);
	pthread_barrier_init(&race_start, NULL, 3);
	pthread_barrier_init(&race_end, NULL, 3);
	for (it = 0; it < 2; it++)
		pthread_create(&t[it], NULL, race_thread, (void *)(intptr_t)it);
	/* Catch race_fd's f_sb_err up with anything older. */
	syncfs(race_fd);
	dm_swap(name, bad);
	for (it = 0; it < iters; it++) {
		int n;

		/*
		 * A fresh writeback error on the sb: w's fsync fails, on the
		 * data or on the inode table block.
		 */
		if (md) {
			if (fchmod(w, it & 1 ? 0600 : 0644))
				die("fchmod");
		} else {
			overwrite_fd(w, 4096, it);
		}
		if (fsync_err(w) != EIO) {
			fprintf(stderr, "kptest: iteration %d: no write error\n", it);
			other++;
			continue;
		}
		pthread_barrier_wait(&race_start);
		pthread_barrier_wait(&race_end);
		n = (race_res[0] == EIO) + (race_res[1] == EIO);
		if ((race_res[0] && race_res[0] != EIO) ||
		    (race_res[1] && race_res[1] != EIO))
			other++;
		hist[n]++;
	}
	race_stop = 1;
	pthread_barrier_wait(&race_start);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	dm_swap(name, good);
	printf("KPTEST syncfs-race iterations=%d reported0=%d reported1=%d reported2=%d other=%d\n",
	       iters, hist[0], hist[1], hist[2], other);
	close(w);
	close(race_fd);
	return 0;
}

/* ---- the kernel-port review cases */

/* "KPTEST TAG k0=v0 k1=v1 ...": each value an errno, 0 for success */
static void report(const char *tag, const char *const *keys, const int *errs,
		   int n)
{
	int i;

	printf("KPTEST %s", tag);
	for (i = 0; i < n; i++)
		printf(" %s=%s", keys[i], errname(errs[i]));
	printf("\n");
}

static int cmd_raw_rewrite(const char *dev, long long off)
{
	char buf[4096];
	int fd = open_or_die(dev, O_RDWR);

	if (pread(fd, buf, sizeof(buf), off) != sizeof(buf))
		die("pread");
	if (pwrite(fd, buf, sizeof(buf), off) != sizeof(buf))
		die("pwrite");
	if (close(fd))
		die("close");
	return 0;
}

static int cmd_new_file_fsync(const char *path)
{
	char other[4096];
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644), e1, e2;

	if (fd < 0) {
		printf("KPTEST new-file create=%s\n", errname(errno));
		return 0;
	}
	overwrite_fd(fd, 8192, 3);
	e1 = fsync_err(fd);
	close(fd);
	snprintf(other, sizeof(other), "%s.2", path);
	fd = open(other, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		e2 = errno;
	} else {
		e2 = write(fd, "x", 1) == 1 ? fsync_err(fd) : errno;
		close(fd);
	}
	printf("KPTEST new-file create=0 fsync=%s", errname(e1));
	printf(" second_file=%s\n", errname(e2));
	return 0;
}

/*
 * PATH has data in its first 12 blocks and in block 13, so its indirect
 * block exists; writing block 12 (a hole) allocates a data block and
 * dirties the indirect block, whose write fails under ERR.  A and B were
 * open at the time: each must report the failure once.
 */
static int cmd_ind_fds(const char *name, const char *path, const char *good,
		       const char *bad)
{
	static const char *const keys[] = { "a1", "a2", "b1", "b2" };
	int a = open_or_die(path, O_RDWR), b = open_or_die(path, O_RDWR);
	char page[4096];
	int r[4];

	memset(page, 'i', sizeof(page));
	dm_swap(name, bad);
	if (pwrite(a, page, sizeof(page), 12 * 4096) != sizeof(page))
		die("pwrite");
	sync();		/* the indirect block fails to write back */
	dm_swap(name, good);
	r[0] = fsync_err(a);
	r[1] = fsync_err(a);
	r[2] = fsync_err(b);
	r[3] = fsync_err(b);
	report("ind-fds", keys, r, 4);
	close(a);
	close(b);
	return 0;
}

/*
 * A's write fails and A's fsync reports it.  B was open too: its
 * fallocate calls that write back the page cache (punch hole over dirty
 * pages, collapse range), then its fsync.
 */
static int cmd_falloc_fds(const char *name, const char *path,
			  const char *good, const char *bad)
{
	static const char *const keys[] = { "a_fsync", "punch1", "punch2",
					    "collapse", "b_fsync1", "b_fsync2" };
	int a = open_or_die(path, O_RDWR), b = open_or_die(path, O_RDWR);
	int i, r[6];
	char page[4096];

	memset(page, 'f', sizeof(page));
	dm_swap(name, bad);
	overwrite_fd(a, 4096, 5);
	r[0] = fsync_err(a);
	dm_swap(name, good);
	for (i = 1; i <= 2; i++) {	/* punch a hole over a dirty page */
		if (pwrite(b, page, sizeof(page), 8192) != sizeof(page))
			die("pwrite");
		r[i] = fallocate(b, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				 8192, 4096) ? errno : 0;
	}
	r[3] = fallocate(b, FALLOC_FL_COLLAPSE_RANGE, 16384, 4096) ? errno : 0;
	r[4] = fsync_err(b);
	r[5] = fsync_err(b);
	report("falloc-fds", keys, r, 6);
	close(a);
	close(b);
	return 0;
}

/*
 * A new file on FAT or exFAT: A writes it, B is open on it; the
 * filesystem's metadata area (ERR) fails to write during A's first fsync.
 */
static int cmd_fatmd_fds(const char *name, const char *path, const char *good,
			 const char *bad)
{
	static const char *const keys[] = { "a1", "a2", "b1", "b2" };
	int a = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644), b;
	int r[4];

	if (a < 0)
		die(path);
	b = open_or_die(path, O_RDWR);
	overwrite_fd(a, 65536, 9);
	dm_swap(name, bad);
	r[0] = fsync_err(a);
	dm_swap(name, good);
	r[1] = fsync_err(a);
	r[2] = fsync_err(b);
	r[3] = fsync_err(b);
	report("fatmd-fds", keys, r, 4);
	close(a);
	close(b);
	return 0;
}

static int cmd_syncfs(const char *path)
{
	int fd = open_or_die(path, O_RDONLY);

	printf("KPTEST syncfs %s %s\n", path, errname(syncfs(fd) ? errno : 0));
	close(fd);
	return 0;
}

/* ---- many files whose writeback failed, eviction (the review's eviction items) */

#define MANY_BYTES 1024		/* one block of the 1 KiB-block image */

static void many_path(char *buf, size_t len, const char *dir, long i)
{
	snprintf(buf, len, "%s/%06ld", dir, i);
}

/* write MANY_BYTES at 0 and start writeback (no wait: errors stay unseen) */
static void many_write(const char *path, int flags, int seed)
{
	char data[MANY_BYTES];
	int fd = open(path, O_WRONLY | flags, 0644);

	if (fd < 0)
		die(path);
	memset(data, 'a' + seed % 26, sizeof(data));
	if (pwrite(fd, data, sizeof(data), 0) != sizeof(data))
		die("pwrite");
	if (sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE))
		die("sync_file_range");
	if (close(fd))
		die("close");
}

/* the first sector of path's only block */
/*
 * FIEMAP of PATH after a sync of its data (FIEMAP_FLAG_SYNC) into FM, which
 * has room for COUNT extents.
 */
static void fiemap_sync(const char *path, struct fiemap *fm, unsigned int count)
{
	int fd = open_or_die(path, O_RDONLY);

	memset(fm, 0, sizeof(*fm) + count * sizeof(fm->fm_extents[0]));
	fm->fm_length = ~0ULL;
	fm->fm_flags = FIEMAP_FLAG_SYNC;
	fm->fm_extent_count = count;
	if (ioctl(fd, FS_IOC_FIEMAP, fm))
		die("FS_IOC_FIEMAP");
	close(fd);
}

static unsigned long long many_sector(const char *path)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent fe;
	} x;

	fiemap_sync(path, &x.fm, 1);
	if (x.fm.fm_mapped_extents != 1 || x.fe.fe_length != MANY_BYTES ||
	    x.fe.fe_flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC))
		errno = EINVAL, die(path);
	return x.fe.fe_physical / 512;
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

/*
 * N files of one block in DIR, written back; then a table with "error"
 * over exactly their blocks (FIEMAP) and GOOD elsewhere while each file is
 * rewritten and written back, and GOOD again.  Every file is left with a
 * writeback error nobody has seen, and no metadata write failed.
 */
static int cmd_many_setup(const char *name, const char *dir, long n,
			  const char *good)
{
	const unsigned long long span = MANY_BYTES / 512;
	unsigned long long len, base, pos = 0, *sec;
	char dev[64], path[4096], *table, *t;
	int dfd, segs = 0, err;
	long i, j;

	if (sscanf(good, "0 %llu linear %63s %llu", &len, dev, &base) != 3)
		errno = EINVAL, die(good);
	if (mkdir(dir, 0755) && errno != EEXIST)
		die(dir);
	for (i = 0; i < n; i++) {
		many_path(path, sizeof(path), dir, i);
		many_write(path, O_CREAT | O_TRUNC, 0);
	}
	dfd = open_or_die(dir, O_RDONLY);
	if (syncfs(dfd))
		die("syncfs before the error");
	sec = malloc(n * sizeof(*sec));
	table = malloc(n * 96 + 128);
	if (!sec || !table)
		die("malloc");
	for (i = 0; i < n; i++) {
		many_path(path, sizeof(path), dir, i);
		sec[i] = many_sector(path);
	}
	qsort(sec, n, sizeof(*sec), cmp_ull);
	t = table;
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && sec[j] == sec[j - 1] + span; j++)
			;
		if (sec[i] > pos)
			t += sprintf(t, "%llu %llu linear %s %llu;", pos,
				     sec[i] - pos, dev, base + pos);
		t += sprintf(t, "%llu %llu error;", sec[i], sec[j - 1] + span - sec[i]);
		pos = sec[j - 1] + span;
		segs++;
	}
	if (pos < len)
		sprintf(t, "%llu %llu linear %s %llu", pos, len - pos, dev, base + pos);
	dm_swap(name, table);
	for (i = 0; i < n; i++) {
		many_path(path, sizeof(path), dir, i);
		many_write(path, 0, 1);
	}
	err = syncfs(dfd) ? errno : 0;
	dm_swap(name, good);
	close(dfd);
	printf("KPTEST many-setup files=%ld error_segments=%d syncfs=%s\n", n, segs,
	       errname(err));
	free(sec);
	free(table);
	return 0;
}

/* open and fsync each of DIR's N files, count the results */
static int cmd_many_fsync(const char *dir, long n)
{
	long i, eio = 0, zero = 0, other = 0;
	char path[4096];

	for (i = 0; i < n; i++) {
		int fd, err;

		many_path(path, sizeof(path), dir, i);
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			other++;
			continue;
		}
		err = fsync_err(fd);
		close(fd);
		if (err == EIO)
			eio++;
		else if (!err)
			zero++;
		else
			other++;
	}
	printf("KPTEST many-fsync eio=%ld zero=%ld other=%ld\n", eio, zero, other);
	return 0;
}

/* echo 3 >/proc/sys/vm/drop_caches, twice, timed */
static int cmd_drop_caches(void)
{
	struct timespec a, b;
	int k;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (k = 0; k < 2; k++) {
		int fd = open_or_die("/proc/sys/vm/drop_caches", O_WRONLY);

		if (write(fd, "3", 1) != 1)
			die("drop_caches");
		close(fd);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("KPTEST drop-caches drop_ms=%lld\n",
	       (b.tv_sec - a.tv_sec) * 1000LL + (b.tv_nsec - a.tv_nsec) / 1000000);
	return 0;
}

/* ---- the memory of 0004's record of evicted inodes' errors (recmem) */

#define XA_SHIFT 6		/* XA_CHUNK_SHIFT: 64 slots a node */

/*
 * The inode numbers of DIR's N files (named as many-setup names them), and
 * the nodes an xarray needs to hold one entry at each of them: a node of
 * shift S covers 64 << S indices and is named by index >> (S + 6); the
 * tree's top node is the first shift at which every index falls in one
 * node (xa_store() grows the tree until the largest index fits).  So the
 * nodes at shift S are the distinct values of ino >> (S + 6), summed up to
 * the top.  leaves: nodes of shift 0 (an entry alone in its leaf when
 * leaves == N); min_gap: the smallest difference between two numbers.
 */
static int cmd_ino_stats(const char *dir, long n)
{
	unsigned long long *ino, min_gap = ~0ULL, max_gap = 0, nodes = 0, leaves = 0;
	char path[4096], per_level[512], *p = per_level;
	int shift, bits = 0;
	struct stat st;
	long i;

	ino = malloc(n * sizeof(*ino));
	if (!ino || n < 1)
		die("malloc");
	for (i = 0; i < n; i++) {
		many_path(path, sizeof(path), dir, i);
		if (stat(path, &st))
			die(path);
		ino[i] = st.st_ino;
	}
	qsort(ino, n, sizeof(*ino), cmp_ull);
	for (i = 1; i < n; i++) {
		unsigned long long g = ino[i] - ino[i - 1];

		if (g < min_gap)
			min_gap = g;
		if (g > max_gap)
			max_gap = g;
	}
	while (bits < 64 && ino[n - 1] >> bits)
		bits++;
	*p = 0;
	for (shift = 0; shift < 64; shift += XA_SHIFT) {
		unsigned long long k = 1;

		for (i = 1; i < n; i++)
			if (shift + XA_SHIFT >= 64 ? 0 :
			    ino[i] >> (shift + XA_SHIFT) != ino[i - 1] >> (shift + XA_SHIFT))
				k++;
		if (!shift)
			leaves = k;
		nodes += k;
		p += sprintf(p, "%s%llu", shift ? "," : "", k);
		/* the top node: every number below 64 << shift */
		if (shift + XA_SHIFT >= 64 || !(ino[n - 1] >> (shift + XA_SHIFT)))
			break;
	}
	if (n == 1 && ino[0] == 0)	/* index 0 alone lives in xa_head */
		nodes = leaves = 0;
	printf("KPTEST ino-stats n=%ld ino_min=%llu ino_max=%llu ino_bits=%d min_gap=%llu "
	       "max_gap=%llu leaves=%llu nodes_per_level=%s xa_nodes=%llu\n",
	       n, ino[0], ino[n - 1], bits, n > 1 ? min_gap : 0, max_gap, leaves,
	       per_level, nodes);
	free(ino);
	return 0;
}

/*
 * N empty files named as many-setup names them in DIR, each created in a
 * new directory of its own (DIR.d/%06ld/f) and linked into DIR.  xfs with
 * inode64 puts each new directory in the next allocation group (its
 * rotor), and a file in its parent's: the files' inode numbers are then an
 * AG's worth of numbers apart (the AG number is their high bits).
 */
static int cmd_dir_spread(const char *dir, long n)
{
	char sub[2048], path[3072], name[4096];
	long i;
	int fd;

	if (strlen(dir) > 1024)
		errno = ENAMETOOLONG, die(dir);
	snprintf(sub, sizeof(sub), "%s.d", dir);
	if (mkdir(dir, 0755) || mkdir(sub, 0755))
		die(dir);
	for (i = 0; i < n; i++) {
		many_path(path, sizeof(path), sub, i);
		if (mkdir(path, 0755))
			die(path);
		snprintf(name, sizeof(name), "%s/f", path);
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0 || close(fd))
			die(name);
		many_path(path, sizeof(path), dir, i);
		if (link(name, path))
			die(path);
	}
	printf("KPTEST dir-spread files=%ld\n", n);
	return 0;
}

/* the value of KEY in the memory.stat read from FD at offset 0, -1 if none */
static long long memcg_stat(int fd, const char *key)
{
	static char buf[16384];
	size_t len = strlen(key);
	ssize_t r = pread(fd, buf, sizeof(buf) - 1, 0);
	char *l;

	if (r < 0)
		die("memory.stat");
	buf[r] = 0;
	for (l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, key, len) && l[len] == ' ')
			return atoll(l + len + 1);
	return -1;
}

static void cg_enter(int procs_fd)
{
	char pid[32];
	int len = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());

	if (pwrite(procs_fd, pid, len, 0) != len)
		die("cgroup.procs");
}

/*
 * drop_caches twice from inside the memory cgroup CG: every inode evicted
 * here is evicted by this task, and 0004 charges the record's new xarray
 * nodes (XA_FLAGS_ACCOUNT) to this task's cgroup.  Nothing else this task
 * does between the two readings is charged as reclaimable slab: the files
 * it needs are opened before it enters CG, and eviction frees (whatever it
 * frees was charged to the cgroup that allocated it, not to CG).
 *
 * memory.stat is exact after two steps: the per-CPU object stock caches up
 * to a page of CG's slab statistics on each CPU that charged it, and the
 * per-CPU counters reach memory.stat at the next rstat flush (every 2 s at
 * the latest).  So the task runs on CPU 0 only, moves to DRAIN after the
 * drop and allocates an accounted object there (a struct file), which
 * drains CPU 0's stock of CG, then waits 4 s before the reading (the first
 * reading, 4 s after entering CG, has nothing of this task's to wait for).
 * Prints slab_reclaimable before and after, and their difference: the
 * bytes charged for the record's new nodes (slab size + the object's
 * obj_cgroup pointer, per node).
 *
 * The move to DRAIN checks the task may write the cgroup.procs of CG's and
 * DRAIN's common ancestor (cgroup_may_write(): kernfs_get_inode()), whose
 * inode drop_caches has just evicted: it would be read back in charged to
 * CG (1096 bytes of reclaimable slab on 6.12).  So that file of CG's parent
 * (DRAIN must be a sibling of CG) is held open throughout.
 */
static int cmd_memcg_drop(const char *cg, const char *drain)
{
	char path[4096];
	int stat_fd, cg_fd, drain_fd, parent_fd, drop_fd, k, fd;
	long long before, after;
	struct timespec a, b;
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		die("sched_setaffinity");
	snprintf(path, sizeof(path), "%s/memory.stat", cg);
	stat_fd = open_or_die(path, O_RDONLY);
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	cg_fd = open_or_die(path, O_WRONLY);
	snprintf(path, sizeof(path), "%s/cgroup.procs", drain);
	drain_fd = open_or_die(path, O_WRONLY);
	snprintf(path, sizeof(path), "%s/../cgroup.procs", cg);
	parent_fd = open_or_die(path, O_RDONLY);
	drop_fd = open_or_die("/proc/sys/vm/drop_caches", O_WRONLY);
	cg_enter(cg_fd);
	sleep(4);
	before = memcg_stat(stat_fd, "slab_reclaimable");
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (k = 0; k < 2; k++)
		if (pwrite(drop_fd, "3", 1, 0) != 1)
			die("drop_caches");
	clock_gettime(CLOCK_MONOTONIC, &b);
	cg_enter(drain_fd);
	fd = open_or_die("/", O_RDONLY);	/* an accounted struct file in DRAIN */
	close(fd);
	sleep(4);
	after = memcg_stat(stat_fd, "slab_reclaimable");
	close(parent_fd);
	printf("KPTEST memcg-drop slab_reclaimable_before=%lld slab_reclaimable_after=%lld "
	       "charged=%lld drop_ms=%lld\n", before, after, after - before,
	       (b.tv_sec - a.tv_sec) * 1000LL + (b.tv_nsec - a.tv_nsec) / 1000000);
	return 0;
}

/*
 * Set FS_DAX_FL on PATH (ext4 without a dax= option): ext4 marks the inode
 * I_DONTCACHE, so the last close evicts it at once, bypassing the LRU.
 */
static int cmd_set_dax(const char *path)
{
	int fd = open_or_die(path, O_RDONLY), flags, err = 0;

	if (ioctl(fd, FS_IOC_GETFLAGS, &flags))
		err = errno;
	flags |= FS_DAX_FL;
	if (!err && ioctl(fd, FS_IOC_SETFLAGS, &flags))
		err = errno;
	close(fd);
	printf("KPTEST set-dax %s %s\n", path, errname(err));
	return 0;
}

/*
 * Set or clear FL in PATH's inode flags (FS_IOC_SETFLAGS); the errno, or 0.
 */
static int set_iflag(const char *path, int fl, int on)
{
	int fd = open(path, O_RDONLY), flags, err = 0;

	if (fd < 0)
		return errno;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags))
		err = errno;
	flags = on ? flags | fl : flags & ~fl;
	if (!err && ioctl(fd, FS_IOC_SETFLAGS, &flags))
		err = errno;
	close(fd);
	return err;
}

/*
 * Third review, item 3: a fallocate mode that writes the page cache back
 * must not take away the error that fsync() owes.  For each mode: PATH's
 * first page fails to write back in sync(2), nobody reports it; a page
 * elsewhere is dirtied; the fallocate call (its result is recorded, not
 * judged); then fdatasync() must report the error and fsync() not again.
 * jdata: the file is switched to data=journal (FS_JOURNAL_DATA_FL) after
 * the failure (ext4_change_inode_journal_flag() reports the failure from
 * its flush once, through the legacy flags: it is set twice), so that
 * 6.12's data=journal paths of punch hole and zero range write it back.
 */
static int cmd_falloc_keep(const char *name, const char *path,
			   const char *good, const char *bad, int jdata)
{
	static const struct {
		const char *name;
		int mode;
		off_t off;
	} modes[] = {
		{ "punch", FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 8192 },
		{ "zero", FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE, 8192 },
		{ "collapse", FALLOC_FL_COLLAPSE_RANGE, 16384 },
		{ "insert", FALLOC_FL_INSERT_RANGE, 16384 },
	};
	char page[4096];
	unsigned int i;

	memset(page, 'k', sizeof(page));
	printf("KPTEST falloc-keep");
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		int fd, f, d, s, j = 0;

		if (jdata)
			set_iflag(path, FS_JOURNAL_DATA_FL, 0);
		fd = open_or_die(path, O_RDWR);
		dm_swap(name, bad);
		if (pwrite(fd, page, sizeof(page), 0) != sizeof(page))
			die("pwrite");
		sync();		/* page 0 fails to write back; nobody reports */
		dm_swap(name, good);
		if (jdata && set_iflag(path, FS_JOURNAL_DATA_FL, 1))
			j = set_iflag(path, FS_JOURNAL_DATA_FL, 1);
		if (pwrite(fd, page, sizeof(page), 8192) != sizeof(page))
			die("pwrite");
		f = fallocate(fd, modes[i].mode, modes[i].off, 4096) ? errno : 0;
		d = fdatasync(fd) ? errno : 0;
		s = fsync_err(fd);
		printf(" %s=%s", modes[i].name, errname(f));
		printf(" %s_fdatasync=%s", modes[i].name, errname(d));
		printf(" %s_fsync=%s", modes[i].name, errname(s));
		if (jdata)
			printf(" %s_jdata=%s", modes[i].name, errname(j));
		close(fd);
	}
	printf("\n");
	return 0;
}

/*
 * GOOD is one linear target over the filesystem's whole device; print it
 * with an "error" target over the extents of PATH (FIEMAP, after a sync of
 * the file), for a filesystem whose files are made in the guest.
 */
static int cmd_err_table(const char *path, const char *good)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent fe[32];
	} x;
	unsigned long long len, base, pos = 0, s, e;
	char dev[64];
	unsigned int i;

	if (sscanf(good, "0 %llu linear %63s %llu", &len, dev, &base) != 3)
		errno = EINVAL, die(good);
	fiemap_sync(path, &x.fm, 32);
	if (!x.fm.fm_mapped_extents || x.fm.fm_mapped_extents >= 32)
		errno = ERANGE, die(path);
	for (i = 0; i < x.fm.fm_mapped_extents; i++) {
		if (x.fe[i].fe_flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC |
					FIEMAP_EXTENT_ENCODED))
			errno = EINVAL, die(path);
		s = x.fe[i].fe_physical / 512;
		e = (x.fe[i].fe_physical + x.fe[i].fe_length + 511) / 512;
		if (s < pos || e > len)
			errno = ERANGE, die(path);	/* FIEMAP sorts by offset */
		if (s > pos)
			printf("%llu %llu linear %s %llu;", pos, s - pos, dev, base + pos);
		printf("%llu %llu error;", s, e - s);
		pos = e;
	}
	if (pos < len)
		printf("%llu %llu linear %s %llu", pos, len - pos, dev, base + pos);
	printf("\n");
	return 0;
}

static int cmd_freeze_thaw(const char *path)
{
	int fd = open_or_die(path, O_RDONLY), arg = 0;

	if (ioctl(fd, FIFREEZE, &arg))
		die("FIFREEZE");
	if (ioctl(fd, FITHAW, &arg))
		die("FITHAW");
	close(fd);
	return 0;
}

static int cmd_open(const char *path)
{
	int fd = open(path, O_RDWR);

	printf("KPTEST open %s %s\n", path, errname(fd < 0 ? errno : 0));
	if (fd >= 0)
		close(fd);
	return 0;
}

/*
 * Namespace operations in DIR, each reported: creat a, creat b, mkdir c,
 * unlink x, rename y -> z (x and y exist beforehand).
 */
static int cmd_dirops(const char *dir)
{
	static const char *const keys[] = { "creat_a", "creat_b", "mkdir_c",
					    "unlink_x", "rename_y" };
	char p[4][512];
	int r[5], fd, i;

	for (i = 0; i < 2; i++) {
		snprintf(p[0], sizeof(p[0]), "%s/%c", dir, 'a' + i);
		fd = open(p[0], O_RDWR | O_CREAT | O_EXCL, 0644);
		r[i] = fd < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
	}
	snprintf(p[1], sizeof(p[1]), "%s/c", dir);
	r[2] = mkdir(p[1], 0755) ? errno : 0;
	snprintf(p[2], sizeof(p[2]), "%s/x", dir);
	r[3] = unlink(p[2]) ? errno : 0;
	snprintf(p[2], sizeof(p[2]), "%s/y", dir);
	snprintf(p[3], sizeof(p[3]), "%s/z", dir);
	r[4] = rename(p[2], p[3]) ? errno : 0;
	report("dirops", keys, r, 5);
	return 0;
}

static int cmd_dirsync_flag(const char *dir)
{
	printf("KPTEST dirsync-flag %s %s\n", dir,
	       errname(set_iflag(dir, FS_DIRSYNC_FL, 1)));
	return 0;
}

static int cmd_fsync_fd(int fd)
{
	printf("KPTEST fsync-fd %d %s\n", fd, errname(fsync_err(fd)));
	return 0;
}

static int cmd_subvol(const char *dir, const char *name)
{
	struct btrfs_ioctl_vol_args a = { 0 };
	int fd = open_or_die(dir, O_RDONLY | O_DIRECTORY);

	snprintf(a.name, sizeof(a.name), "%s", name);
	if (ioctl(fd, BTRFS_IOC_SUBVOL_CREATE, &a))
		die(name);
	close(fd);
	return 0;
}

/* Block I of PATH, unlike any block of any other file: the path and the index, repeated. */
static void tag_block(char *b, const char *path, long i)
{
	int n = snprintf(b, 4096, "kptest-tag %s %ld|", path, i), o;

	for (o = n; o < 4096; o++)
		b[o] = b[o % n];
}

static int cmd_tagged(const char *path, long blocks)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	char b[4096];
	long i;

	if (fd < 0)
		die(path);
	for (i = 0; i < blocks; i++) {
		tag_block(b, path, i);
		if (pwrite(fd, b, sizeof(b), i * 4096) != (ssize_t)sizeof(b))
			die(path);
	}
	if (fsync(fd) || close(fd))
		die(path);
	return 0;
}

/*
 * Find PATH's blocks on the device by their content (written by "tagged" and
 * synced), and print GOOD with each found block switched to "error".
 */
static int cmd_scan_table(const char *path, const char *good)
{
	unsigned long long len, base, pos = 0, sec;
	static char buf[1 << 20];
	char dev[64], want[64];
	long blocks, found = 0, i;
	struct stat st;
	ssize_t n;
	int fd;

	if (sscanf(good, "0 %llu linear %63s %llu", &len, dev, &base) != 3)
		errno = EINVAL, die(good);
	if (stat(path, &st))
		die(path);
	blocks = st.st_size / 4096;
	fd = open_or_die(dev, O_RDONLY);
	snprintf(want, sizeof(want), "kptest-tag %s ", path);
	for (sec = 0; sec < len; sec += sizeof(buf) / 512) {
		n = sizeof(buf);
		if ((len - sec) * 512 < sizeof(buf))
			n = (len - sec) * 512;
		n = pread(fd, buf, n, (base + sec) * 512);
		if (n <= 0)
			die(dev);
		for (i = 0; i + 4096 <= n; i += 4096) {
			char b[4096];
			long k;

			if (strncmp(buf + i, want, strlen(want)))
				continue;
			k = atol(buf + i + strlen(want));
			tag_block(b, path, k);
			if (k < 0 || k >= blocks || memcmp(b, buf + i, 4096))
				continue;
			found++;
			if (sec + i / 512 > pos)
				printf("%llu %llu linear %s %llu;", pos, sec + i / 512 - pos,
				       dev, base + pos);
			printf("%llu 8 error;", sec + i / 512);
			pos = sec + i / 512 + 8;
		}
	}
	close(fd);
	if (found != blocks) {
		fprintf(stderr, "kptest: %s: %ld of %ld blocks found on %s\n", path, found,
			blocks, dev);
		errno = ENOENT, die(path);
	}
	if (pos < len)
		printf("%llu %llu linear %s %llu", pos, len - pos, dev, base + pos);
	printf("\n");
	return 0;
}

static int cmd_btrfs(int argc, char **argv)
{
	const char *op = argv[2];
	int fd = open_or_die(argv[3], O_RDONLY | O_DIRECTORY), r;

	if (!strcmp(op, "quota") && argc == 4) {
		struct btrfs_ioctl_quota_ctl_args a = { .cmd = BTRFS_QUOTA_CTL_ENABLE };

		r = ioctl(fd, BTRFS_IOC_QUOTA_CTL, &a);
	} else if (!strcmp(op, "limit") && argc == 5) {
		struct btrfs_ioctl_qgroup_limit_args a = { 0 };

		a.lim.flags = BTRFS_QGROUP_LIMIT_MAX_RFER;
		a.lim.max_rfer = strtoull(argv[4], NULL, 0);
		r = ioctl(fd, BTRFS_IOC_QGROUP_LIMIT, &a);
	} else if (!strcmp(op, "snap") && argc == 6) {
		struct btrfs_ioctl_vol_args_v2 a = { 0 };

		a.fd = open_or_die(argv[4], O_RDONLY | O_DIRECTORY);
		snprintf(a.name, sizeof(a.name), "%s", argv[5]);
		r = ioctl(fd, BTRFS_IOC_SNAP_CREATE_V2, &a);
	} else if (!strcmp(op, "del") && argc == 5) {
		struct btrfs_ioctl_vol_args a = { 0 };

		snprintf(a.name, sizeof(a.name), "%s", argv[4]);
		r = ioctl(fd, BTRFS_IOC_SNAP_DESTROY, &a);
	} else {
		fprintf(stderr, "kptest btrfs: bad arguments\n");
		return 2;
	}
	if (r)
		die(op);
	close(fd);
	return 0;
}

static int cmd_open_creat(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0644);

	printf("KPTEST open-creat %s %s\n", path, errname(fd < 0 ? errno : 0));
	if (fd >= 0)
		close(fd);
	return 0;
}

static int cmd_falloc_fsync(const char *path)
{
	int fd = open_or_die(path, O_RDWR), e1, e2;

	e1 = fallocate(fd, FALLOC_FL_KEEP_SIZE, 1 << 20, 4096) ? errno : 0;
	e2 = fsync_err(fd);
	printf("KPTEST falloc-fsync %s fallocate=%s fsync=%s\n", path, errname(e1), errname(e2));
	close(fd);
	return 0;
}

static int cmd_ino_gen(const char *path)
{
	int fd = open_or_die(path, O_RDONLY), gen = -1;
	struct stat st;

	if (fstat(fd, &st) || ioctl(fd, FS_IOC_GETVERSION, &gen))
		die(path);
	printf("KPTEST ino-gen %s ino=%llu gen=%d\n", path, (unsigned long long)st.st_ino, gen);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "dm-create") && argc == 4)
		return cmd_dm_create(argv[2], argv[3]);
	if (!strcmp(cmd, "dm-load") && argc == 4) {
		dm_swap(argv[2], argv[3]);
		return 0;
	}
	if (!strcmp(cmd, "dm-remove") && argc == 3)
		return cmd_dm_remove(argv[2]);
	if (!strcmp(cmd, "overwrite") && argc == 4)
		return cmd_overwrite(argv[2], atol(argv[3]));
	if (!strcmp(cmd, "fsync") && argc == 3)
		return cmd_fsync(argv[2]);
	if (!strcmp(cmd, "md-fds") && argc == 6)
		return cmd_md_fds(argv[2], argv[3], argv[4], argv[5]);
	if (!strcmp(cmd, "sfr") && argc == 6)
		return cmd_sfr(argv[2], argv[3], argv[4], argv[5]);
	if (!strcmp(cmd, "syncfs-race") && (argc == 7 || argc == 8))
		return cmd_syncfs_race(argv[2], argv[3], argv[4], argv[5],
				       atoi(argv[6]),
				       argc == 8 && !strcmp(argv[7], "md"));
	if (!strcmp(cmd, "raw-rewrite") && argc == 4)
		return cmd_raw_rewrite(argv[2], atoll(argv[3]));
	if (!strcmp(cmd, "new-file-fsync") && argc == 3)
		return cmd_new_file_fsync(argv[2]);
	if (!strcmp(cmd, "ind-fds") && argc == 6)
		return cmd_ind_fds(argv[2], argv[3], argv[4], argv[5]);
	if (!strcmp(cmd, "falloc-fds") && argc == 6)
		return cmd_falloc_fds(argv[2], argv[3], argv[4], argv[5]);
	if (!strcmp(cmd, "falloc-keep") && (argc == 6 || argc == 7))
		return cmd_falloc_keep(argv[2], argv[3], argv[4], argv[5],
				       argc == 7 && !strcmp(argv[6], "jdata"));
	if (!strcmp(cmd, "err-table") && argc == 4)
		return cmd_err_table(argv[2], argv[3]);
	if (!strcmp(cmd, "freeze-thaw") && argc == 3)
		return cmd_freeze_thaw(argv[2]);
	if (!strcmp(cmd, "open") && argc == 3)
		return cmd_open(argv[2]);
	if (!strcmp(cmd, "dirops") && argc == 3)
		return cmd_dirops(argv[2]);
	if (!strcmp(cmd, "dirsync-flag") && argc == 3)
		return cmd_dirsync_flag(argv[2]);
	if (!strcmp(cmd, "fsync-fd") && argc == 3)
		return cmd_fsync_fd(atoi(argv[2]));
	if (!strcmp(cmd, "fatmd-fds") && argc == 6)
		return cmd_fatmd_fds(argv[2], argv[3], argv[4], argv[5]);
	if (!strcmp(cmd, "syncfs") && argc == 3)
		return cmd_syncfs(argv[2]);
	if (!strcmp(cmd, "many-setup") && argc == 6)
		return cmd_many_setup(argv[2], argv[3], atol(argv[4]), argv[5]);
	if (!strcmp(cmd, "many-fsync") && argc == 4)
		return cmd_many_fsync(argv[2], atol(argv[3]));
	if (!strcmp(cmd, "drop-caches") && argc == 2)
		return cmd_drop_caches();
	if (!strcmp(cmd, "set-dax") && argc == 3)
		return cmd_set_dax(argv[2]);
	if (!strcmp(cmd, "subvol") && argc == 4)
		return cmd_subvol(argv[2], argv[3]);
	if (!strcmp(cmd, "tagged") && argc == 4)
		return cmd_tagged(argv[2], atol(argv[3]));
	if (!strcmp(cmd, "scan-table") && argc == 4)
		return cmd_scan_table(argv[2], argv[3]);
	if (!strcmp(cmd, "ino-gen") && argc == 3)
		return cmd_ino_gen(argv[2]);
	if (!strcmp(cmd, "btrfs") && argc >= 4)
		return cmd_btrfs(argc, argv);
	if (!strcmp(cmd, "open-creat") && argc == 3)
		return cmd_open_creat(argv[2]);
	if (!strcmp(cmd, "falloc-fsync") && argc == 3)
		return cmd_falloc_fsync(argv[2]);
	if (!strcmp(cmd, "ino-stats") && argc == 4)
		return cmd_ino_stats(argv[2], atol(argv[3]));
	if (!strcmp(cmd, "dir-spread") && argc == 4)
		return cmd_dir_spread(argv[2], atol(argv[3]));
	if (!strcmp(cmd, "memcg-drop") && argc == 4)
		return cmd_memcg_drop(argv[2], argv[3]);
	fprintf(stderr, "usage: see the comment at the top of kptest.c\n");
	return 2;
}
