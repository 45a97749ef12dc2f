// SPDX-License-Identifier: GPL-2.0
/*
 * tmpfs (mm/shmem.c): the control without writeback. Its pages are never
 * written back, but mapping_set_error() records in its mappings and its
 * superblock as anywhere ("error data").
 */
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

const struct dt_fs_rules dt_fs_tmpfs = {
	.name = "tmpfs",
	.has_bdev = 0,
	.pins_inodes = 1,
	.fsync = noop_fsync,
};
