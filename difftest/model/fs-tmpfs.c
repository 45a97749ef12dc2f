// SPDX-License-Identifier: GPL-2.0
/*
 * tmpfs (mm/shmem.c): the control without writeback. Its pages are never
 * written back, but mapping_set_error() records in its mappings and its
 * superblock as anywhere ("error data").
 */
#include <errno.h>

#include "internal.h"

/*
 * shmem_file_operations .fsync = noop_fsync (fs/libfs.c): returns 0 and
 * reads no error: fsync and fdatasync never report one on tmpfs, while
 * sync_file_range() with a WAIT flag (file_fdatawait_range() ->
 * file_check_and_advance_wb_err()) and syncfs (f_sb_err) do.
 */
static int noop_fsync(struct m_state *m, struct m_fd *f, long long first, long long last,
		      struct out *w)
{
	(void)m;
	(void)f;
	(void)first;
	(void)last;
	(void)w;
	return 0;
}

/*
 * mm/shmem.c shmem_fallocate(): KEEP_SIZE and PUNCH_HOLE only; a hole drops
 * the whole pages inside (shmem_truncate_range(), dirty or not: tmpfs
 * writes nothing back); preallocation grows the size unless KEEP_SIZE.
 */
static int shmem_fallocate(struct m_state *m, struct m_fd *f, unsigned mode, long long off,
			   long long len, struct out *w)
{
	struct m_inode *in = &m->ino[f->ino];

	(void)w;
	if (mode & ~(FALLOC_KEEP_SIZE | FALLOC_PUNCH_HOLE))
		return -EOPNOTSUPP;
	if (mode & FALLOC_PUNCH_HOLE) {
		m_drop_pages(in, (off + PAGE - 1) / PAGE, (off + len) / PAGE - 1);
		return 0;
	}
	if (!(mode & FALLOC_KEEP_SIZE) && off + len > in->size)
		m_set_size(m, in, off + len);
	return 0;
}

/* 6.12 (shmem_odirect): O_DIRECT opens, shmem_file_write_iter() writes through
 * the page cache as ever */
static long long shmem_dio_write(struct m_state *m, struct m_fd *f, long long len, struct out *w)
{
	(void)w;
	return m_buffered_write(m, f, len);
}

const struct dt_fs_rules dt_fs_tmpfs = {
	.name = "tmpfs",
	.dirsync_err = ENOTTY,
	.has_bdev = 0,
	.no_disk = 1,
	.no_fiemap = 1, /* mm/shmem.c: no ->fiemap */
	.stable_ino = 1,
	.pins_inodes = 1,
	.fsync = noop_fsync,
	.fallocate = shmem_fallocate,
	.dio_write = shmem_dio_write,
	.dio_read = m_buffered_read,
};
