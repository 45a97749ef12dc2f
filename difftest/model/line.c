// SPDX-License-Identifier: GPL-2.0
/*
 * What differs between the kernel lines the model follows: each a named fact,
 * with the source it comes from (difftest/doc/kernels.md, "Kernel lines").
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const struct dt_line_rules lines[DT_LINE__COUNT] = {
	[DT_LINE_6_1] = {
		.name = "6.1",
		/* fs/buffer.c mark_buffer_write_io_error(): errseq_set(&bd_super->s_wb_err) */
		.meta_sets_sb_err = 1,
		/* fs/ext4/ext4_jbd2.c __ext4_journal_get_write_access():
		 * ext4_check_bdev_write_error() */
		.jbd2_aborts_on_bdev_err = 0,
		/* fs/open.c vfs_fallocate(): one check per flag */
		.falloc_modes_exclusive = 0,
		/* fs/ext4/inode.c ext4_punch_hole(): mapping_tagged(DIRTY) ->
		 * filemap_write_and_wait_range() of the range, first */
		.ext4_punch_journal_only = 0,
		/* mm/shmem.c: no ->direct_IO; fs/open.c:903 */
		.shmem_odirect = 0,
		/* fs/iomap/direct-io.c __iomap_dio_rw(): filemap_write_and_wait_range()'s
		 * error fails the write; ext2 on blockdev_direct_IO() */
		.iomap_dio_write_fallback = 0,
		/* fs/exfat/inode.c exfat_direct_IO(): past i_size_aligned, buffered */
		.exfat_dio_align_first = 0,
		.xfs_shrink_waits = 1,
		/* fs/xfs/xfs_file.c xfs_file_fallocate(): xfs_flush_unmap_range() first */
		.xfs_collapse_checks_first = 0,
		/* fs/ext2/inode.c ext2_direct_IO(): blockdev_direct_IO() */
		.ext2_iomap_dio = 0,
		/* fs/ext2/dir.c:98 ext2_commit_chunk(): if (IS_DIRSYNC(dir)) */
		.ext2_dir_write_always = 0,
	},
	[DT_LINE_6_12] = {
		.name = "6.12",
		/* fs/buffer.c:1214 (6.12.118): no bd_super; s_wb_err only for a
		 * buffer on an inode's b_assoc_map list */
		.meta_sets_sb_err = 0,
		/* fs/jbd2/transaction.c:1226 jbd2_check_fs_dev_write_error() ->
		 * jbd2_journal_abort(); ext4_check_bdev_write_error() only without
		 * a journal (fs/ext4/ext4_jbd2.c:246) */
		.jbd2_aborts_on_bdev_err = 1,
		/* fs/open.c:265 vfs_fallocate(): switch (mode & FALLOC_FL_MODE_MASK) */
		.falloc_modes_exclusive = 1,
		/* fs/ext4/inode.c:4015 ext4_punch_hole(), fs/ext4/extents.c:4629
		 * ext4_zero_range() -> inode.c:3933
		 * ext4_truncate_page_cache_block_range(): filemap_write_and_wait_range()
		 * only if ext4_should_journal_data() */
		.ext4_punch_journal_only = 1,
		/* mm/shmem.c:2847 shmem_file_open(): FMODE_CAN_ODIRECT */
		.shmem_odirect = 1,
		/* fs/iomap/direct-io.c:667 kiocb_invalidate_pages() failing -> -ENOTBLK;
		 * fs/ext2/file.c:242, fs/ext4/file.c:586, fs/xfs/xfs_file.c:863 fall
		 * back to buffered I/O */
		.iomap_dio_write_fallback = 1,
		/* fs/exfat/file.c:596 exfat_file_write_iter(): EINVAL unless aligned
		 * to the block or the device's logical block */
		.exfat_dio_align_first = 1,
		/* fs/xfs/xfs_iops.c:873: xfs_truncate_page() only */
		.xfs_shrink_waits = 0,
		/* fs/xfs/xfs_file.c:927 xfs_falloc_collapse_range(): EINVAL checks,
		 * then xfs_collapse_file_space()'s flushes
		 * (recordings/6.12/xfs/fallocate-collapse-einval-*) */
		.xfs_collapse_checks_first = 1,
		/* fs/ext2/file.c:166 ext2_dio_read_iter(): iomap_dio_rw()
		 * (recordings/6.12/ext2/odirect-read-eof-*) */
		.ext2_iomap_dio = 1,
		/* fs/ext2/dir.c:440 ext2_handle_dirsync(), called by every change
		 * (ext2_set_link(), ext2_add_link(), ext2_delete_entry(),
		 * ext2_make_empty()) without a test of IS_DIRSYNC */
		.ext2_dir_write_always = 1,
	},
};

const struct dt_line_rules *dt_line_rules_of(enum dt_line l)
{
	return &lines[(unsigned)l < DT_LINE__COUNT ? l : DT_LINE_6_1];
}

int dt_line_parse(const char *s, enum dt_line *out)
{
	for (int i = 0; i < DT_LINE__COUNT; i++)
		if (!strcmp(s, lines[i].name)) {
			*out = (enum dt_line)i;
			return 0;
		}
	return -1;
}

/* Digits at *@p (at most 3) -> their value, *@p past them; -1: none */
static long digits(const char **p)
{
	long v = 0;
	int n = 0;

	while (**p >= '0' && **p <= '9' && n < 3) {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	return n && !(**p >= '0' && **p <= '9') ? v : -1;
}

/* "MAJOR.MINOR[.PATCH|-EXTRA|+EXTRA]" -> MAJOR * 1000 + MINOR; -1: not a version */
static long version_key(const char *s)
{
	long maj = digits(&s), min;

	if (maj < 0 || *s++ != '.')
		return -1;
	min = digits(&s);
	if (min < 0 || (*s && *s != '.' && *s != '-' && *s != '+'))
		return -1;
	return maj * 1000 + min;
}

int dt_line_nearest(const char *s, enum dt_line *out)
{
	long want = version_key(s), best_d = -1;

	if (want < 0)
		return -1;
	for (int i = 0; i < DT_LINE__COUNT; i++) {
		long d = labs(version_key(lines[i].name) - want);

		/* strictly nearer only: of two lines as near, the older (first) */
		if (best_d < 0 || d < best_d) {
			best_d = d;
			*out = (enum dt_line)i;
		}
	}
	return best_d ? 1 : 0;
}

const char *dt_line_name(enum dt_line l)
{
	return dt_line_rules_of(l)->name;
}
