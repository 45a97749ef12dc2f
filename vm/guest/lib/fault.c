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
 * with "error" over failed file extents; a second one (fault_raw_*) is a raw
 * device of its own, failed as a whole */
#define MAX_SEG 256
struct dmdev {
	char name[64], node[256];
	dev_t lower_dev;
	unsigned long long lower_sectors;
	struct {
		unsigned long long start, len; /* sectors */
	} failseg[MAX_SEG];
	int nfail;
};
static struct dmdev fsdm, rawdm;
static int dmctl = -1;
static union {
	struct dm_ioctl io;
	char raw[65536];
} dmb;

static struct dm_ioctl *dm_init(const struct dmdev *d, unsigned flags)
{
	memset(&dmb, 0, sizeof(dmb));
	dmb.io.version[0] = DM_VERSION_MAJOR;
	dmb.io.data_size = sizeof(dmb);
	dmb.io.data_start = sizeof(struct dm_ioctl);
	dmb.io.flags = flags;
	strncpy(dmb.io.name, d->name, sizeof(dmb.io.name) - 1);
	return &dmb.io;
}

static int seg_cmp(const void *a, const void *b)
{
	const unsigned long long *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* Load the table (linear, with error over failseg[]) and make it live. */
static int dm_table(struct dmdev *d)
{
	struct dm_ioctl *io = dm_init(d, 0);
	char *p = dmb.raw + io->data_start, *end = dmb.raw + sizeof(dmb.raw) - 512;
	unsigned long long at = 0;
	struct dm_target_spec *t = NULL;
	int n = 0;

	qsort(d->failseg, (size_t)d->nfail, sizeof(d->failseg[0]), seg_cmp);
	while (at < d->lower_sectors && p < end) {
		unsigned long long next = d->lower_sectors, len;
		int err = 0;

		for (int i = 0; i < d->nfail; i++) {
			if (d->failseg[i].start <= at &&
			    at < d->failseg[i].start + d->failseg[i].len) {
				err = 1;
				next = d->failseg[i].start + d->failseg[i].len;
				/* merge overlapping / adjacent failed segments */
				for (int j = 0; j < d->nfail; j++) {
					unsigned long long e = d->failseg[j].start + d->failseg[j].len;

					if (d->failseg[j].start <= next && e > next)
						next = e, j = -1;
				}
				break;
			}
			if (d->failseg[i].start > at && d->failseg[i].start < next)
				next = d->failseg[i].start;
		}
		if (next > d->lower_sectors)
			next = d->lower_sectors;
		len = next - at;
		t = (struct dm_target_spec *)p;
		t->sector_start = at;
		t->length = len;
		if (err) {
			strcpy(t->target_type, "error");
			((char *)(t + 1))[0] = 0;
		} else {
			strcpy(t->target_type, "linear");
			sprintf((char *)(t + 1), "%u:%u %llu", major(d->lower_dev),
				minor(d->lower_dev), at);
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
	io = dm_init(d, DM_SKIP_LOCKFS_FLAG | DM_NOFLUSH_FLAG);
	if (ioctl(dmctl, DM_DEV_SUSPEND, io))
		return -errno;
	return 0;
}

static int dev_attach(struct dmdev *d, const char *name, const char *lower, char *why,
		      size_t len)
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
	snprintf(d->name, sizeof(d->name), "%s", name);
	fd = open(lower, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || ioctl(fd, BLKGETSIZE64, &d->lower_sectors)) {
		snprintf(why, len, "%s: %s", lower, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	d->lower_sectors >>= 9;
	d->lower_dev = st.st_rdev;
	d->nfail = 0;
	return 0;
}

int fault_dm_attach(const char *name, const char *lower, char *why, size_t len)
{
	return dev_attach(&fsdm, name, lower, why, len);
}

static int dev_up(struct dmdev *d, const char *name, const char *node, const char *lower,
		  const char *min_ratio, char *why, size_t len)
{
	char p[64];
	int r;

	if (dev_attach(d, name, lower, why, len))
		return -1;
	ioctl(dmctl, DM_DEV_REMOVE, dm_init(d, 0)); /* left over from an interrupted run */
	if (ioctl(dmctl, DM_DEV_CREATE, dm_init(d, 0))) {
		snprintf(why, len, "DM_DEV_CREATE: %s", strerror(errno));
		return -1;
	}
	snprintf(d->node, sizeof(d->node), "%s", node);
	unlink(node);
	if (mknod(node, S_IFBLK | 0600, makedev(major(dmb.io.dev), minor(dmb.io.dev)))) {
		snprintf(why, len, "mknod %s: %s", node, strerror(errno));
		return -1;
	}
	if (dm_table(d)) {
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
	 * op. min_ratio gives the device a floor of that share of the threshold
	 * (its bdi exists once the first table is loaded; the floors of all
	 * devices must stay under 100).
	 */
	snprintf(p, sizeof(p), "/sys/class/bdi/%u:%u/min_ratio", major(dmb.io.dev),
		 minor(dmb.io.dev));
	if ((r = fault_write_file(p, min_ratio))) {
		snprintf(why, len, "%s: %s", p, strerror(-r));
		return -1;
	}
	return 0;
}

int fault_dm_up(const char *name, const char *node, const char *lower, char *why, size_t len)
{
	return dev_up(&fsdm, name, node, lower, "50", why, len);
}

static void dev_down(struct dmdev *d)
{
	if (dmctl >= 0 && ioctl(dmctl, DM_DEV_REMOVE, dm_init(d, 0)) && errno != ENXIO)
		fprintf(stderr, "DT I fault: DM_DEV_REMOVE %s: %s\n", d->name, strerror(errno));
	if (d->node[0])
		unlink(d->node);
}

void fault_dm_down(void)
{
	dev_down(&fsdm);
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
	for (unsigned i = 0; i < u.fm.fm_mapped_extents && fsdm.nfail < MAX_SEG; i++) {
		struct fiemap_extent *e = &u.fm.fm_extents[i];

		/* not allocated yet: cannot fail it; without the sync, an
		 * unwritten extent would also be converted by the coming writeback */
		if (e->fe_flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC) ||
		    (!sync_first && (e->fe_flags & FIEMAP_EXTENT_UNWRITTEN)))
			return -EAGAIN;
		fsdm.failseg[fsdm.nfail].start = e->fe_physical >> 9;
		fsdm.failseg[fsdm.nfail].len = (e->fe_length + 511) >> 9;
		fsdm.nfail++;
	}
	return dm_table(&fsdm);
}

int fault_dm_nfail(void)
{
	return fsdm.nfail;
}

int fault_dm_heal(void)
{
	fsdm.nfail = 0;
	return dm_table(&fsdm);
}

/*
 * The raw device reads no page ahead (BLKRASET 0): a buffered read brings in
 * only the pages it reads, as the model has them. Every table load resets the
 * disk's readahead (dm_table_set_restrictions() -> disk_update_readahead()),
 * so it is turned off again after each; a descriptor takes its file's
 * readahead from the disk at open. Opening the node here is not the last
 * close of a device someone holds, and one nobody holds has no page.
 */
static int raw_ra_off(void)
{
	int fd = open(rawdm.node, O_RDONLY | O_CLOEXEC), r = 0;

	if (fd < 0 || ioctl(fd, BLKRASET, 0UL))
		r = -errno;
	if (fd >= 0)
		close(fd);
	return r;
}

static int raw_table(void)
{
	int r = dm_table(&rawdm);

	return r ? r : raw_ra_off();
}

/* the raw device: min_ratio 30 beside the filesystem's 50 */
int fault_raw_up(const char *name, const char *node, const char *lower, char *why, size_t len)
{
	int r;

	if (dev_up(&rawdm, name, node, lower, "30", why, len))
		return -1;
	if ((r = raw_ra_off())) {
		snprintf(why, len, "BLKRASET 0 on %s: %s", node, strerror(-r));
		return -1;
	}
	return 0;
}

int fault_raw_fail(void)
{
	rawdm.nfail = 1;
	rawdm.failseg[0].start = 0;
	rawdm.failseg[0].len = rawdm.lower_sectors;
	return raw_table();
}

int fault_raw_nfail(void)
{
	return rawdm.nfail;
}

int fault_raw_heal(void)
{
	rawdm.nfail = 0;
	return raw_table();
}

void fault_raw_down(void)
{
	dev_down(&rawdm);
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
