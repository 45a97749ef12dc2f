// SPDX-License-Identifier: GPL-2.0
/*
 * fault: the guest programs' fault injector (see fault.h). Every guest
 * program that makes writes fail links it: vm/guest's dm-eio, difftest's
 * dtguest, pgtest's pgguest, kernel-port's kptest.
 *
 * Two layers. Below, device-mapper through its ioctls on
 * /dev/mapper/control (no libdevmapper in the guest): devices by name,
 * tables built target by target or read from dmsetup's text, and every
 * table made live with no fs freeze and no flush. Above, a file system's
 * device with "error" over chosen files' extents, a raw device failed as a
 * whole, and inode eviction.
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

/* ---- device-mapper: the control device */

static int dmctl = -1;
/* create, remove, resume: the header, and room for what the kernel returns */
static union {
	struct dm_ioctl io;
	char raw[16384];
} ctlb;

/* R: 0 or -errno. On an error, WHY (if any) = "WHAT: strerror(-R)". Returns R. */
static int say(char *why, size_t len, int r, const char *what)
{
	if (r && why)
		snprintf(why, len, "%s: %s", what, strerror(-r));
	return r;
}

static int ctl_open(void)
{
	if (dmctl < 0) {
		dmctl = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
		if (dmctl < 0)
			return -errno;
	}
	return 0;
}

/* Issue REQ for dm device NAME with FLAGS; the answer is in ctlb.io. 0 or -errno. */
static int ctl_call(unsigned long req, const char *name, uint32_t flags)
{
	int r = ctl_open();

	if (r)
		return r;
	memset(&ctlb, 0, sizeof(ctlb));
	ctlb.io.version[0] = DM_VERSION_MAJOR;
	ctlb.io.data_size = sizeof(ctlb);
	ctlb.io.data_start = sizeof(struct dm_ioctl);
	ctlb.io.flags = flags;
	snprintf(ctlb.io.name, sizeof(ctlb.io.name), "%s", name);
	return ioctl(dmctl, req, &ctlb.io) ? -errno : 0;
}

/* ---- device-mapper: tables */

/*
 * A table as DM_TABLE_LOAD takes it: struct dm_ioctl, then each target's
 * struct dm_target_spec followed by its parameter string, every spec 8-byte
 * aligned, its next the bytes from it to the following one (dm-ioctl.h).
 */
struct table {
	char *buf;
	size_t size, used;
	uint32_t n;
};

/* spare room after the last target: DM_TABLE_LOAD needs none, it is a margin */
#define TABLE_SLACK 512

static int table_init(struct table *t)
{
	t->size = 16384;
	t->used = sizeof(struct dm_ioctl);
	t->n = 0;
	t->buf = calloc(1, t->size);
	return t->buf ? 0 : -ENOMEM;
}

static void table_free(struct table *t)
{
	free(t->buf);
	t->buf = NULL;
}

/* Append a target. 0, -EINVAL (a type name too long) or -ENOMEM. */
static int table_add(struct table *t, unsigned long long start, unsigned long long len,
		     const char *type, const char *params)
{
	size_t plen = strlen(params) + 1;
	size_t need = (sizeof(struct dm_target_spec) + plen + 7) & ~(size_t)7;
	struct dm_target_spec *sp;

	if (strlen(type) >= sizeof(sp->target_type))
		return -EINVAL;
	if (t->used + need + TABLE_SLACK > t->size) {
		size_t size = t->size;
		char *b;

		while (t->used + need + TABLE_SLACK > size)
			size *= 2;
		b = realloc(t->buf, size);
		if (!b)
			return -ENOMEM;
		memset(b + t->size, 0, size - t->size);
		t->buf = b;
		t->size = size;
	}
	sp = (struct dm_target_spec *)(t->buf + t->used);
	sp->sector_start = start;
	sp->length = len;
	strcpy(sp->target_type, type);
	memcpy(sp + 1, params, plen);
	sp->next = (uint32_t)need;
	t->used += need;
	t->n++;
	return 0;
}

/*
 * Append the targets of TEXT, dmsetup's table format: "START LENGTH TYPE
 * [PARAMS]" per target, targets separated by newlines or ';'. 0, or -errno
 * with the reason in WHY.
 */
static int table_parse(struct table *t, const char *text, char *why, size_t len)
{
	char *copy = strdup(text), *save = NULL, *ent;
	int r = 0;

	if (!copy)
		return say(why, len, -ENOMEM, "table");
	for (ent = strtok_r(copy, ";\n", &save); ent && !r; ent = strtok_r(NULL, ";\n", &save)) {
		unsigned long long start, length;
		char type[DM_MAX_TYPE_NAME];
		int used = 0;

		while (*ent == ' ')
			ent++;
		if (!*ent)
			continue;
		if (sscanf(ent, "%llu %llu %15s %n", &start, &length, type, &used) < 3) {
			if (why)
				snprintf(why, len, "table: not START LENGTH TYPE [PARAMS]: '%s'", ent);
			r = -EINVAL;
			break;
		}
		r = say(why, len, table_add(t, start, length, type, ent + used), "table");
	}
	free(copy);
	return r;
}

/*
 * Load table T into dm device NAME and make it live. The resume swaps it
 * in, with no fs freeze (its sync_filesystem() would write back, and
 * report, what a test wants to fail) and no flush (dirty pages stay
 * dirty). 0, or -errno with the failing step in WHY.
 */
static int table_live(struct table *t, const char *name, char *why, size_t len)
{
	struct dm_ioctl *io = (struct dm_ioctl *)t->buf;
	int r = ctl_open();

	if (r)
		return say(why, len, r, "/dev/mapper/control");
	memset(io, 0, sizeof(*io));
	io->version[0] = DM_VERSION_MAJOR;
	io->data_size = (uint32_t)t->size;
	io->data_start = sizeof(struct dm_ioctl);
	io->target_count = t->n;
	snprintf(io->name, sizeof(io->name), "%s", name);
	if (ioctl(dmctl, DM_TABLE_LOAD, io))
		return say(why, len, -errno, "DM_TABLE_LOAD");
	r = ctl_call(DM_DEV_SUSPEND, name, DM_SKIP_LOCKFS_FLAG | DM_NOFLUSH_FLAG);
	return r ? say(why, len, r, "DM_DEV_SUSPEND (resume)") : 0;
}

/* ---- device-mapper: devices by name, tables as text */

static int fail_errno(int r)
{
	if (!r)
		return 0;
	errno = -r;
	return -1;
}

int fault_blkdev(const char *path, dev_t *dev, unsigned long long *sectors, char *why,
		 size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r = 0;
	struct stat st;

	if (fd < 0 || fstat(fd, &st) || ioctl(fd, BLKGETSIZE64, sectors))
		r = say(why, len, -errno, path);
	if (fd >= 0)
		close(fd);
	if (r)
		return fail_errno(r);
	*sectors >>= 9;
	*dev = st.st_rdev;
	return 0;
}

int fault_dev_load(const char *name, const char *table, char *why, size_t len)
{
	struct table t;
	int r = table_init(&t);

	if (r)
		return fail_errno(say(why, len, r, "table"));
	r = table_parse(&t, table, why, len);
	if (!r)
		r = table_live(&t, name, why, len);
	table_free(&t);
	return fail_errno(r);
}

int fault_dev_create(const char *name, const char *table, dev_t *dev, char *why, size_t len)
{
	int r = ctl_call(DM_DEV_CREATE, name, 0);

	if (r)
		return fail_errno(say(why, len, r, "DM_DEV_CREATE"));
	*dev = (dev_t)ctlb.io.dev;
	return fault_dev_load(name, table, why, len);
}

int fault_dev_remove(const char *name, char *why, size_t len)
{
	return fail_errno(say(why, len, ctl_call(DM_DEV_REMOVE, name, 0), "DM_DEV_REMOVE"));
}

/* ---- a file system's device, a raw device */

/*
 * The fs sits on a dm device whose table is linear over the lower device,
 * with "error" over failed file extents; a second one (fault_raw_*) is a
 * raw device of its own, failed as a whole.
 */
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

static int seg_cmp(const void *a, const void *b)
{
	const unsigned long long *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* Load the table (linear, with error over failseg[]) and make it live. 0 or -errno. */
static int dm_table(struct dmdev *d, char *why, size_t wlen)
{
	unsigned long long at = 0;
	struct table t;
	int r = table_init(&t);

	qsort(d->failseg, (size_t)d->nfail, sizeof(d->failseg[0]), seg_cmp);
	while (!r && at < d->lower_sectors) {
		unsigned long long next = d->lower_sectors;
		char params[64];
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
		if (err)
			params[0] = 0;
		else
			snprintf(params, sizeof(params), "%u:%u %llu", major(d->lower_dev),
				 minor(d->lower_dev), at);
		r = table_add(&t, at, next - at, err ? "error" : "linear", params);
		at = next;
	}
	r = r ? say(why, wlen, r, "table") : table_live(&t, d->name, why, wlen);
	table_free(&t);
	return r;
}

static int dev_attach(struct dmdev *d, const char *name, const char *lower, char *why,
		      size_t len)
{
	int r = ctl_open();

	if (r) {
		say(why, len, r, "/dev/mapper/control");
		return -1;
	}
	snprintf(d->name, sizeof(d->name), "%s", name);
	if (fault_blkdev(lower, &d->lower_dev, &d->lower_sectors, why, len))
		return -1;
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
	dev_t dev;
	int r;

	if (dev_attach(d, name, lower, why, len))
		return -1;
	ctl_call(DM_DEV_REMOVE, name, 0); /* left over from an interrupted run */
	if ((r = ctl_call(DM_DEV_CREATE, name, 0))) {
		say(why, len, r, "DM_DEV_CREATE");
		return -1;
	}
	dev = (dev_t)ctlb.io.dev;
	snprintf(d->node, sizeof(d->node), "%s", node);
	unlink(node);
	if (mknod(node, S_IFBLK | 0600, dev)) {
		snprintf(why, len, "mknod %s: %s", node, strerror(errno));
		return -1;
	}
	if (dm_table(d, why, len))
		return -1;
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
	snprintf(p, sizeof(p), "/sys/class/bdi/%u:%u/min_ratio", major(dev), minor(dev));
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
	int r = dmctl >= 0 ? ctl_call(DM_DEV_REMOVE, d->name, 0) : 0;

	if (r && r != -ENXIO)
		fprintf(stderr, "DT I fault: DM_DEV_REMOVE %s: %s\n", d->name, strerror(-r));
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
	return dm_table(&fsdm, NULL, 0);
}

int fault_dm_fail_range(unsigned long long start, unsigned long long len)
{
	if (fsdm.nfail >= MAX_SEG)
		return -ENOSPC;
	fsdm.failseg[fsdm.nfail].start = start;
	fsdm.failseg[fsdm.nfail].len = len;
	fsdm.nfail++;
	return dm_table(&fsdm, NULL, 0);
}

int fault_dm_nfail(void)
{
	return fsdm.nfail;
}

int fault_dm_heal(void)
{
	fsdm.nfail = 0;
	return dm_table(&fsdm, NULL, 0);
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
	int r = dm_table(&rawdm, NULL, 0);

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
