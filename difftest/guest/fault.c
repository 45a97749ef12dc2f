// SPDX-License-Identifier: GPL-2.0
/*
 * fault: dm "error" over chosen files' extents, and inode eviction, for the
 * guest programs (see fault.h). Moved out of dtguest.c so that pgtest's
 * guest program fails PostgreSQL's files exactly as difftest fails its own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/dm-ioctl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

#include "fault.h"

/* the fs sits on a dm device whose table is linear over the lower device,
 * with "error" over failed file extents */
#define MAX_SEG 256
static char dm_name[64], dm_node[256];
static int dmctl = -1;
static dev_t lower_dev;
static unsigned long long lower_sectors;
static struct {
	unsigned long long start, len; /* sectors */
} failseg[MAX_SEG];
static int nfail;
static union {
	struct dm_ioctl io;
	char raw[65536];
} dmb;

static struct dm_ioctl *dm_init(unsigned flags)
{
	memset(&dmb, 0, sizeof(dmb));
	dmb.io.version[0] = DM_VERSION_MAJOR;
	dmb.io.data_size = sizeof(dmb);
	dmb.io.data_start = sizeof(struct dm_ioctl);
	dmb.io.flags = flags;
	strncpy(dmb.io.name, dm_name, sizeof(dmb.io.name) - 1);
	return &dmb.io;
}

static int seg_cmp(const void *a, const void *b)
{
	const unsigned long long *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* Load the table (linear, with error over failseg[]) and make it live. */
static int dm_table(void)
{
	struct dm_ioctl *io = dm_init(0);
	char *p = dmb.raw + io->data_start, *end = dmb.raw + sizeof(dmb.raw) - 512;
	unsigned long long at = 0;
	struct dm_target_spec *t = NULL;
	int n = 0;

	qsort(failseg, (size_t)nfail, sizeof(failseg[0]), seg_cmp);
	while (at < lower_sectors && p < end) {
		unsigned long long next = lower_sectors, len;
		int err = 0;

		for (int i = 0; i < nfail; i++) {
			if (failseg[i].start <= at && at < failseg[i].start + failseg[i].len) {
				err = 1;
				next = failseg[i].start + failseg[i].len;
				/* merge overlapping / adjacent failed segments */
				for (int j = 0; j < nfail; j++)
					if (failseg[j].start <= next && failseg[j].start + failseg[j].len > next)
						next = failseg[j].start + failseg[j].len, j = -1;
				break;
			}
			if (failseg[i].start > at && failseg[i].start < next)
				next = failseg[i].start;
		}
		if (next > lower_sectors)
			next = lower_sectors;
		len = next - at;
		t = (struct dm_target_spec *)p;
		t->sector_start = at;
		t->length = len;
		if (err) {
			strcpy(t->target_type, "error");
			((char *)(t + 1))[0] = 0;
		} else {
			strcpy(t->target_type, "linear");
			sprintf((char *)(t + 1), "%u:%u %llu", major(lower_dev), minor(lower_dev), at);
		}
		p = (char *)(t + 1) + strlen((char *)(t + 1)) + 1;
		p = dmb.raw + ((p - dmb.raw + 7) & ~7L);
		t->next = (uint32_t)(p - (char *)t);
		at = next;
		n++;
	}
	if (t)
		t->next = 0;
	io->target_count = (uint32_t)n;
	if (ioctl(dmctl, DM_TABLE_LOAD, io))
		return -errno;
	/* resume swaps the table in; no fs freeze (its sync_filesystem would
	 * consume errors) and no flush: the page cache stays as the model has it */
	io = dm_init(DM_SKIP_LOCKFS_FLAG | DM_NOFLUSH_FLAG);
	if (ioctl(dmctl, DM_DEV_SUSPEND, io))
		return -errno;
	return 0;
}

int fault_dm_attach(const char *name, const char *lower, char *why, size_t len)
{
	struct stat st;
	int fd;

	if (dmctl < 0) {
		dmctl = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
		if (dmctl < 0) {
			snprintf(why, len, "/dev/mapper/control: %s", strerror(errno));
			return -1;
		}
	}
	snprintf(dm_name, sizeof(dm_name), "%s", name);
	fd = open(lower, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || ioctl(fd, BLKGETSIZE64, &lower_sectors)) {
		snprintf(why, len, "%s: %s", lower, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	lower_sectors >>= 9;
	lower_dev = st.st_rdev;
	nfail = 0;
	return 0;
}

int fault_dm_up(const char *name, const char *node, const char *lower, char *why, size_t len)
{
	char p[64];
	int r;

	if (fault_dm_attach(name, lower, why, len))
		return -1;
	ioctl(dmctl, DM_DEV_REMOVE, dm_init(0)); /* left over from an interrupted run */
	if (ioctl(dmctl, DM_DEV_CREATE, dm_init(0))) {
		snprintf(why, len, "DM_DEV_CREATE: %s", strerror(errno));
		return -1;
	}
	snprintf(dm_node, sizeof(dm_node), "%s", node);
	unlink(node);
	if (mknod(node, S_IFBLK | 0600, makedev(major(dmb.io.dev), minor(dmb.io.dev)))) {
		snprintf(why, len, "mknod %s: %s", node, strerror(errno));
		return -1;
	}
	if (dm_table()) {
		snprintf(why, len, "dm table load: %s", strerror(errno));
		return -1;
	}
	/*
	 * Pages go out only at the model's writeback points. The flusher also
	 * starts background writeback of a device over its share of the
	 * background threshold (wb_over_bg_thresh()), and a dm device made for
	 * this script has earned almost no share: with dirty_writeback_centisecs
	 * 0 its first dirty inode wakes the flusher at once, and a page written
	 * over a failed extent went out (and failed) in the middle of a later
	 * op. min_ratio gives the device a floor of half the threshold (its bdi
	 * exists once the first table is loaded).
	 */
	snprintf(p, sizeof(p), "/sys/class/bdi/%u:%u/min_ratio", major(dmb.io.dev),
		 minor(dmb.io.dev));
	if ((r = fault_write_file(p, "50"))) {
		snprintf(why, len, "%s: %s", p, strerror(-r));
		return -1;
	}
	return 0;
}

void fault_dm_down(void)
{
	if (dmctl >= 0 && ioctl(dmctl, DM_DEV_REMOVE, dm_init(0)) && errno != ENXIO)
		fprintf(stderr, "DT I fault: DM_DEV_REMOVE %s: %s\n", dm_name, strerror(errno));
	if (dm_node[0])
		unlink(dm_node);
}

int fault_dm_fail_fd(int fd, int sync_first)
{
	union {
		struct fiemap fm;
		char raw[sizeof(struct fiemap) + 128 * sizeof(struct fiemap_extent)];
	} u;

	memset(&u, 0, sizeof(u));
	u.fm.fm_start = 0;
	u.fm.fm_length = FIEMAP_MAX_OFFSET;
	u.fm.fm_flags = sync_first ? FIEMAP_FLAG_SYNC : 0;
	u.fm.fm_extent_count = 128;
	if (ioctl(fd, FS_IOC_FIEMAP, &u.fm))
		return -errno;
	for (unsigned i = 0; i < u.fm.fm_mapped_extents && nfail < MAX_SEG; i++) {
		struct fiemap_extent *e = &u.fm.fm_extents[i];

		/* not allocated yet: cannot fail it; without the sync, an
		 * unwritten extent would also be converted by the coming writeback */
		if (e->fe_flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC) ||
		    (!sync_first && (e->fe_flags & FIEMAP_EXTENT_UNWRITTEN)))
			return -EAGAIN;
		failseg[nfail].start = e->fe_physical >> 9;
		failseg[nfail].len = (e->fe_length + 511) >> 9;
		nfail++;
	}
	return dm_table();
}

int fault_dm_nfail(void)
{
	return nfail;
}

int fault_dm_heal(void)
{
	nfail = 0;
	return dm_table();
}

int fault_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t r;
	int e;

	if (fd < 0)
		return -errno;
	r = write(fd, s, strlen(s));
	e = r < 0 ? errno : 0;
	close(fd);
	return -e;
}

/*
 * Eviction: sync, sync, drop every file's clean pages with
 * POSIX_FADV_DONTNEED, which, unlike drop_caches, drains the other CPUs' LRU
 * caches when a page would not go (a page sitting there holds an extra
 * reference), then drop_caches twice.  An inode whose page stays is not
 * evicted, and under stock 6.1 keeps its unseen error.  The second sync:
 * under ext4 data=journal the journal commit in the first one leaves the
 * file's blocks dirty again (for the checkpoint), and a dirty page stays too.
 * Measured on the stock kernel, ext4 data=journal, evictions of written,
 * closed files (difftest scenario evict-unsynced, 8 a script): one sync and
 * drop_caches kept all 8; over 13 such scripts, sync, fadvise, drop_caches
 * kept a file in 13, two syncs and drop_caches in 1, two syncs, fadvise,
 * drop_caches in none.  Opening a file for this reads its errseq, never sets
 * or advances it.
 */
int fault_evict(const char *const *paths, int n)
{
	int err = 0;

	sync();
	sync();
	for (int i = 0; i < n; i++) {
		int fd = open(paths[i], O_RDONLY | O_CLOEXEC), e;

		if (fd < 0)
			continue;
		e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		if (e && !err)
			err = e;
		close(fd);
	}
	for (int i = 0; i < 2 && !err; i++)
		err = -fault_write_file("/proc/sys/vm/drop_caches", "3");
	return err;
}
