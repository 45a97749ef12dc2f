// SPDX-License-Identifier: GPL-2.0
/*
 * ext2 (the real ext2 driver, CONFIG_EXT2_FS): ext2_fsync() is
 * generic_file_fsync() -> __generic_file_fsync() (fs/ext2/file.c); no
 * ->sync_fs error of its own, no reader of the block device's error.
 */
#include "internal.h"

/* 6.1 ext2_direct_IO(): blockdev_direct_IO(); 6.12 ext2_dio_write_iter():
 * iomap, with its buffered fallback written back and dropped */
static long long ext2_dio_write(struct m_state *m, struct m_fd *f, long long len, struct out *w)
{
	if (m->k->ext2_iomap_dio)
		return m_iomap_dio_write(m, f, len, 1);
	return m_generic_dio_write(m, f, len, w);
}

/* 6.1 generic_file_read_iter() -> blockdev_direct_IO(); 6.12
 * ext2_dio_read_iter(): iomap_dio_rw(), the end-of-file check first */
static long long ext2_dio_read(struct m_state *m, struct m_fd *f, long long len)
{
	if (m->k->ext2_iomap_dio)
		return m_iomap_dio_read(m, f, len);
	return m_generic_dio_read(m, f, len);
}

const struct dt_fs_rules dt_fs_ext2 = {
	.name = "ext2",
	.has_bdev = 1,
	.stable_ino = 1,
	.copy_by_page = 1,
	.itable = 1,
	.dir_pagecache = 1,
	.wb_err_record = 1,
	.remount = m_remount_sync_ignored,
	.fsync = m_generic_file_fsync,
	.dio_write = ext2_dio_write,
	.dio_read = ext2_dio_read,
};
