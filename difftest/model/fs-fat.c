// SPDX-License-Identifier: GPL-2.0
/*
 * vfat (fs/fat) and exfat (fs/exfat): both fsync through
 * __generic_file_fsync() and then write the filesystem's own metadata through
 * the block device, after the patched metadata check (kernel-port 0019, 0020).
 * Neither sets FS_WB_ERR_RECORD (kernel-port 0004: inode numbers from
 * iunique() name no file across eviction), so the patched kernel loses an
 * evicted inode's unseen error here as stock does (scn.pg-evict,
 * scn.evict-reerror, scn.evict-unsynced in recordings/6.1/{vfat,exfat}/ci-patched).
 */
#include <errno.h>

#include "internal.h"

/*
 * fs/fat/file.c fat_file_fsync(): __generic_file_fsync() (its error returned
 * at once), then sync_mapping_buffers() of the FAT inode's mapping (a FAT
 * block's write failure; the deterministic injections fail no buffer, so 0),
 * then blkdev_issue_flush().  fat_md_once (0020): the md cursor is checked
 * again after the FAT write-out (finds nothing new in a serial order); since
 * 0025 with f_wb_err in the same section, which finds nothing new either.
 */
static int fat_file_fsync(struct m_state *m, struct m_fd *f, long long first, long long last,
			  struct out *w)
{
	int ret = m_generic_file_fsync(m, f, first, last, w);

	if (ret)
		return ret;
	if (m->c.md_cursor && m->c.fat_md_once)
		ret = m_file_check_and_advance_md_wb_err(m, f, w);
	return ret;
}

/*
 * fs/exfat/file.c exfat_file_fsync(): __generic_file_fsync() (its error
 * returned at once), then sync_blockdev(sb->s_bdev), whose
 * filemap_check_errors() returns and clears the bdev mapping's AS_EIO/
 * AS_ENOSPC: on stock 6.1 the first fsync after a metadata error, on any
 * descriptor of any file, gets it (EIO for any errno but ENOSPC), and no
 * other.  fat_md_once (0019): sync_blockdev_errseq() writes and clears the
 * flags without reporting them, and the md cursor is checked again; without
 * it (the series before the review) a metadata error was reported twice:
 * through f_md_wb_err, then by the flags on the next fsync.
 */
static int exfat_file_fsync(struct m_state *m, struct m_fd *f, long long first, long long last,
			    struct out *w)
{
	int ret = m_generic_file_fsync(m, f, first, last, w);

	if (ret)
		return ret;
	if (m->c.md_cursor && m->c.fat_md_once) {
		M_BDEV(m).as = 0;
		return m_file_check_and_advance_md_wb_err(m, f, w);
	}
	return m_filemap_check_errors(&M_BDEV(m).as);
}

/*
 * fs/exfat/super.c exfat_sync_fs(sb, 1): sync_blockdev(sb->s_bdev) with its
 * result ignored: the bdev mapping's AS_* flags are cleared and nobody gets
 * them, so on exfat syncfs reports a metadata error through f_sb_err alone
 * (6.1: mark_buffer_write_io_error() set s_wb_err; on 6.12 nothing reaches it),
 * and sync(2) (sync_fs_one_sb()) takes the flag from the next fsync
 * (recordings/6.1/exfat/ci-stock, random.s1001.2: "evict" before the
 * fsync).
 */
static int exfat_sync_fs(struct m_state *m)
{
	M_BDEV(m).as = 0;
	return 0;
}

/*
 * fs/fat/file.c fat_fallocate(): KEEP_SIZE alone preallocates clusters; mode
 * 0 past the end is an expanding truncate (fat_cont_expand(): zeros through
 * the page cache, no write-out unless IS_SYNC); anything else EOPNOTSUPP.
 * exfat (6.1) has no ->fallocate.
 */
static int fat_fallocate(struct m_state *m, struct m_fd *f, unsigned mode, long long off,
			 long long len, struct out *w)
{
	struct m_inode *in = &m->ino[f->ino];

	(void)w;
	if (mode & ~FALLOC_KEEP_SIZE)
		return -EOPNOTSUPP;
	if (!(mode & FALLOC_KEEP_SIZE) && off + len > in->size)
		m_set_size(m, in, off + len);
	return 0;
}

/*
 * fs/fat/inode.c fat_direct_IO(), fs/exfat/inode.c exfat_direct_IO(): after
 * generic_file_direct_write()'s write-out (the AS flag) and invalidation, a
 * write reaching past the initialized size (vfat mmu_private: the size;
 * exfat i_size_aligned: the size rounded to 512) returns 0 and the whole
 * write is a buffered one, written back and dropped; else
 * blockdev_direct_IO() (512-byte alignment).
 */
static long long fat_dio(struct m_state *m, struct m_fd *f, long long len, long long limit)
{
	int r = m_dio_flush(m, f, len);

	if (r)
		return r;
	m_drop_pages(&m->ino[f->ino], f->pos / PAGE, (f->pos + len - 1) / PAGE);
	if (f->pos + len > limit) {
		/* mm/filemap.c __generic_file_write_iter(): the buffered write,
		 * then its range written back (the AS flag was cleared just
		 * above) and dropped, as O_DIRECT wants */
		long long n = m_buffered_write(m, f, len);

		if (n > 0) {
			m_writeback(m, f->ino, (f->pos - n) / PAGE, (f->pos - 1) / PAGE);
			m_filemap_check_errors(&m->ino[f->ino].as);
			m_drop_pages(&m->ino[f->ino], (f->pos - n) / PAGE, (f->pos - 1) / PAGE);
		}
		return n;
	}
	if ((f->pos | len) & 511)
		return -EINVAL;
	return m_direct_write(m, f, len);
}

static long long vfat_dio_write(struct m_state *m, struct m_fd *f, long long len, struct out *w)
{
	(void)w;
	return fat_dio(m, f, len, m->ino[f->ino].size);
}

static long long exfat_dio_write(struct m_state *m, struct m_fd *f, long long len, struct out *w)
{
	(void)w;
	/* 6.12: the alignment first, then generic_file_direct_write() with
	 * no buffered fallback (exfat_direct_IO() extends valid_size itself) */
	if (m->k->exfat_dio_align_first) {
		if ((f->pos | len) & 511)
			return -EINVAL;
		return m_generic_dio_write(m, f, len, w);
	}
	return fat_dio(m, f, len, (m->ino[f->ino].size + 511) / 512 * 512);
}

const struct dt_fs_rules dt_fs_vfat = {
	.name = "vfat",
	.dirsync_err = ENOTTY,
	.has_bdev = 1,
	.no_link = 1,
	.no_fiemap = 1, /* fs/fat: no ->fiemap */
	.remount = m_remount_sync_ignored, /* fat_remount(): sync_filesystem() */
	.fsync = fat_file_fsync,
	.fallocate = fat_fallocate,
	.dio_write = vfat_dio_write,
	.dio_read = m_generic_dio_read,
};

const struct dt_fs_rules dt_fs_exfat = {
	.name = "exfat",
	.dirsync_err = ENOTTY,
	.has_bdev = 1,
	.no_link = 1,
	.no_fiemap = 1, /* fs/exfat: no ->fiemap */
	.remount = m_remount_sync_ignored, /* exfat_reconfigure() */
	.fsync = exfat_file_fsync,
	.sync_fs = exfat_sync_fs,
	.dio_write = exfat_dio_write,
	.dio_read = m_generic_dio_read,
};
