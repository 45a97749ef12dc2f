// SPDX-License-Identifier: GPL-2.0
/*
 * btrfs (fs/btrfs, 6.1), one device. Its superblock has no s_bdev (an
 * anonymous device, super.c:1657): no "error meta" (the injection module says
 * ENOTBLK), no sync_blockdev() in syncfs. The patched series sets
 * FS_WB_ERR_RECORD on it (kernel-port 0024, keyed per subvolume: the model has
 * one): an evicted inode's unseen error is kept. Its waits on ordered extents (btrfs_wait_ordered_range()
 * -> filemap_fdatawait_range()) consume the mapping's AS flag.
 */
#include <errno.h>

#include "internal.h"

/*
 * fs/btrfs/file.c btrfs_sync_file(): the whole file whatever the range
 * (:1788); the wait on its ordered extents (:1863 or :1872) returns and clears
 * the AS flag, and the end (:1999) advances the cursor in any case: the flag's
 * error first (EIO over ENOSPC), else the cursor's.
 */
static int btrfs_sync_file(struct m_state *m, struct m_fd *f, long long first, long long last,
			   struct out *w)
{
	int r1, r2;

	(void)first;
	(void)last;
	m_writeback(m, f->ino, 0, MAX_PAGES - 1);
	r1 = m_filemap_check_errors(&m->ino[f->ino].as);
	r2 = m_file_check_and_advance_wb_err(m, f, w);
	return r1 ? r1 : r2;
}

/*
 * fs/btrfs/inode.c btrfs_setsize(): growing (btrfs_cont_expand()) and keeping
 * the size report nothing; shrinking runs truncate_setsize() (:5356), then
 * btrfs_truncate()'s btrfs_wait_ordered_range() (:8863), whose AS flag fails
 * it before any extent goes; the recovery waits again and sets the size to
 * the size written back (:5367-5373).
 */
static int btrfs_setsize(struct m_state *m, struct m_fd *f, long long size, struct out *w)
{
	struct m_inode *in = &m->ino[f->ino];
	int r;

	(void)w;
	if (size >= in->size) {
		m_truncate(m, in, size);
		return 0;
	}
	m_truncate(m, in, size);
	m_writeback(m, f->ino, 0, MAX_PAGES - 1);
	r = m_filemap_check_errors(&in->as);
	if (r) {
		m_set_size(m, in, in->disk_isize);
		return r;
	}
	in->disk_isize = size;
	return 0;
}

/*
 * fs/btrfs/file.c btrfs_fallocate(): no collapse, insert or unshare
 * (:3070, EOPNOTSUPP); punch hole waits on the range first (:2611: the AS
 * flag, size unchanged) and drops the whole pages inside; the others wait on
 * the range (:3120, the AS flag: nothing allocated), then grow to offset +
 * length unless KEEP_SIZE (a hole filled before the offset changes no size).
 */
static int btrfs_fallocate(struct m_state *m, struct m_fd *f, unsigned mode, long long off,
			   long long len, struct out *w)
{
	struct m_inode *in = &m->ino[f->ino];
	long long start = off / PAGE * PAGE;
	int r;

	(void)w;
	if (mode & (FALLOC_COLLAPSE_RANGE | FALLOC_INSERT_RANGE | 0x40u))
		return -EOPNOTSUPP;
	if (mode & FALLOC_PUNCH_HOLE) {
		m_writeback(m, f->ino, off / PAGE, (off + len - 1) / PAGE);
		if ((r = m_filemap_check_errors(&in->as)))
			return r;
		m_drop_pages(in, (off + PAGE - 1) / PAGE, (off + len) / PAGE - 1);
		return 0;
	}
	/* btrfs_cont_expand() fills the hole up to the block holding the
	 * offset and leaves i_size alone
	 * (recordings/6.1/btrfs/fallocate-keep-size-stock) */
	m_writeback(m, f->ino, start / PAGE, (off + len - 1) / PAGE);
	if ((r = m_filemap_check_errors(&in->as)))
		return r;
	if (mode & FALLOC_ZERO_RANGE)
		m_drop_pages(in, (off + PAGE - 1) / PAGE, (off + len) / PAGE - 1);
	if (!(mode & FALLOC_KEEP_SIZE) && off + len > in->size)
		m_set_size(m, in, off + len);
	return 0;
}

/*
 * fs/btrfs/file.c btrfs_direct_write(): aligned to the 4 KiB sector,
 * iomap_dio_rw() (the AS flag first); else (:1477) a buffered write, then
 * the range written back and waited on (:1583-1587, the AS flag): its error
 * is the result, with the bytes in the page cache and the offset unmoved.
 */
static long long btrfs_dio_write(struct m_state *m, struct m_fd *f, long long len, struct out *w)
{
	long long n;
	int r;

	if (!((f->pos | len) & 4095))
		return m_generic_dio_write(m, f, len, w);
	n = m_buffered_write(m, f, len);
	if (n < 0)
		return n;
	m_writeback(m, f->ino, (f->pos - n) / PAGE, (f->pos - 1) / PAGE);
	if ((r = m_filemap_check_errors(&m->ino[f->ino].as))) {
		f->pos -= n;
		return r;
	}
	return n;
}

/* fs/btrfs/file.c btrfs_direct_read(): not aligned to the 4 KiB sector, 0
 * and the read goes through the page cache; else iomap */
static long long btrfs_dio_read(struct m_state *m, struct m_fd *f, long long len)
{
	if ((f->pos | len) & 4095)
		return m_buffered_read(m, f, len);
	return m_iomap_dio_read(m, f, len);
}

const struct dt_fs_rules dt_fs_btrfs = {
	.name = "btrfs",
	.has_bdev = 0,
	.stable_ino = 1,
	.wb_err_record = 1,
	.remount = m_remount_sync_ignored,
	.fsync = btrfs_sync_file,
	.setsize = btrfs_setsize,
	.fallocate = btrfs_fallocate,
	.dio_write = btrfs_dio_write,
	.dio_read = btrfs_dio_read,
};
