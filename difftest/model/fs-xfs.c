// SPDX-License-Identifier: GPL-2.0
/*
 * XFS (fs/xfs, 6.1). The patched series sets FS_WB_ERR_RECORD on it (kernel-port
 * 0022: an evicted inode's unseen error is kept, as on ext2/ext4; stock loses it);
 * its fsync reads no metadata cursor. Its own waits before a layout or size
 * change use filemap_write_and_wait_range(): they hand the mapping's AS flag
 * to whichever descriptor calls first, on both kernels.
 */
#include <errno.h>

#include "internal.h"

/* fs/xfs/xfs_file.c:144 xfs_file_fsync(): file_write_and_wait_range(), first */
static int xfs_file_fsync(struct m_state *m, struct m_fd *f, long long first, long long last,
			  struct out *w)
{
	m_writeback(m, f->ino, first, last);
	return m_file_check_and_advance_wb_err(m, f, w);
}

/* fs/xfs/xfs_super.c xfs_remount_ro() (going read-only only):
 * sync_filesystem()'s error fails the remount */
static int xfs_remount(struct m_state *m, int ro)
{
	return ro && !m->rdonly ? m_sync_filesystem(m, 0) : 0;
}

/* mm/filemap.c filemap_write_and_wait_range() of pages [first, last] */
static int write_and_wait(struct m_state *m, struct m_inode *in, int ino, long long first,
			  long long last)
{
	m_writeback(m, ino, first, last);
	return m_filemap_check_errors(&in->as);
}

/*
 * fs/xfs/xfs_iops.c xfs_setattr_size(): a new size of 0 for an empty file
 * changes timestamps only (:806); shrinking or keeping the size first writes
 * and waits on the page at the new size (:850, the AS flag: the error is
 * returned and nothing changes); then truncate_setsize() (:881), and when the
 * file grows from inside a block (its tail zeroed: did_zeroing) or past the
 * size written back while dirty appended data is pending (i_disk_size !=
 * old size), the range from i_disk_size is written and waited on (:891: the
 * AS flag; the new size stays). The size written
 * back becomes the new size.
 */
static int xfs_setsize(struct m_state *m, struct m_fd *f, long long size, struct out *w)
{
	struct m_inode *in = &m->ino[f->ino];
	long long old = in->size;
	int r, write_back;

	(void)w;
	if (size == 0 && old == 0)
		return 0;
	if (size <= old && m->k->xfs_shrink_waits &&
	    (r = write_and_wait(m, in, f->ino, size / PAGE, size / PAGE)))
		return r;
	/* growing from inside a block zeroes its tail (xfs_zero_range():
	 * did_zeroing; recordings/6.1/xfs/fallocate-grow-stock), which then
	 * counts as a write-back like dirty appended data */
	write_back = (size > old ? old % PAGE : size < old && size % PAGE) ||
		     (size > in->disk_isize && old != in->disk_isize);
	m_truncate(m, in, size);
	if (write_back &&
	    (r = write_and_wait(m, in, f->ino, in->disk_isize / PAGE, (size - 1) / PAGE))) {
		/* it returns before its transaction: the new size is not logged,
		 * and the inode read in after an eviction has the size written
		 * back (recordings/6.1/xfs/fallocate-grow-eio-evict-stock) */
		m->dino[in->dino].size = in->disk_isize;
		in->size_unlogged = 1;
		return r;
	}
	in->disk_isize = size;
	in->size_unlogged = 0;
	return 0;
}

/*
 * fs/xfs/xfs_file.c xfs_file_fallocate(): punch hole, zero range and collapse
 * first flush and drop the page cache of the range rounded to pages
 * (xfs_flush_unmap_range(), :963; before its own EINVAL checks); collapse
 * (aligned, ending before the size) shifts from the offset and shrinks;
 * insert (aligned, starting before the size) grows through setattr first,
 * then flushes from the offset (xfs_prepare_shift()): an error there comes
 * with the size already grown; preallocation and zero range grow through
 * setattr unless KEEP_SIZE.
 */
static int xfs_fallocate(struct m_state *m, struct m_fd *f, unsigned mode, long long off,
			 long long len, struct out *w)
{
	struct m_inode *in = &m->ino[f->ino];
	int r;

	if ((mode & FALLOC_COLLAPSE_RANGE) && m->k->xfs_collapse_checks_first &&
	    ((off | len) % PAGE || off + len >= in->size))
		return -EINVAL;
	if (mode & (FALLOC_PUNCH_HOLE | FALLOC_ZERO_RANGE | FALLOC_COLLAPSE_RANGE)) {
		if ((r = write_and_wait(m, in, f->ino, off / PAGE, (off + len - 1) / PAGE)))
			return r;
		m_drop_pages(in, off / PAGE, (off + len - 1) / PAGE);
	}
	if (mode & FALLOC_PUNCH_HOLE)
		return 0;
	if (mode & FALLOC_COLLAPSE_RANGE) {
		if ((off | len) % PAGE || off + len >= in->size)
			return -EINVAL;
		if ((r = write_and_wait(m, in, f->ino, off / PAGE, MAX_PAGES - 1)))
			return r;
		m_drop_pages(in, off / PAGE, MAX_PAGES - 1);
		return xfs_setsize(m, f, in->size - len, w);
	}
	if (mode & FALLOC_INSERT_RANGE) {
		if ((off | len) % PAGE || off >= in->size)
			return -EINVAL;
		if ((r = xfs_setsize(m, f, in->size + len, w)))
			return r;
		if ((r = write_and_wait(m, in, f->ino, off / PAGE, MAX_PAGES - 1)))
			return r;
		m_drop_pages(in, off / PAGE, MAX_PAGES - 1);
		return 0;
	}
	if (!(mode & FALLOC_KEEP_SIZE) && off + len > in->size)
		return xfs_setsize(m, f, off + len, w);
	return 0;
}

/* fs/xfs/xfs_file.c:681 xfs_file_dio_write(): the sector alignment first
 * (EINVAL), then iomap_dio_rw() (the AS flag, invalidation, the I/O) */
static long long xfs_dio_write(struct m_state *m, struct m_fd *f, long long len, struct out *w)
{
	(void)w;
	if ((f->pos | len) & 511)
		return -EINVAL;
	return m_iomap_dio_write(m, f, len, 0);
}

/* fs/xfs/xfs_file.c:70 xfs_dir_fsync(): xfs_log_force_inode() only, no cursor
 * read or advanced: a directory's fsync reports no writeback error */
static int xfs_dir_fsync(struct m_state *m, struct m_fd *f, struct out *w)
{
	(void)m;
	(void)f;
	(void)w;
	return 0;
}

const struct dt_fs_rules dt_fs_xfs = {
	.name = "xfs",
	.dirsync_err = EOPNOTSUPP,
	.has_bdev = 1,
	.stable_ino = 1,
	.wb_err_record = 1,
	.remount = xfs_remount,
	.fsync = xfs_file_fsync,
	.dir_fsync = xfs_dir_fsync,
	.setsize = xfs_setsize,
	.fallocate = xfs_fallocate,
	.dio_write = xfs_dio_write,
	.dio_read = m_iomap_dio_read,
};
