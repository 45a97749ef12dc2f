// SPDX-License-Identifier: GPL-2.0
/*
 * ext4, data=ordered and data=journal (the difference the model sees is in
 * which scripts the campaign gives each: real errors need explicit writeback
 * points, and data=journal writes data home at checkpoint time).
 */
#include "internal.h"

/*
 * fs/ext4/fsync.c ext4_sync_file(): file_write_and_wait_range() ->
 * file_check_and_advance_wb_err(); patched: file_check_and_advance_md_wb_err()
 * at its end, which its "goto out" on a data error reaches too.
 */
static int ext4_sync_file(struct m_state *m, struct m_fd *f, long long first, long long last,
			  struct out *w)
{
	int ret;

	m_writeback(m, f->ino, first, last);
	ret = m_file_check_and_advance_wb_err(m, f, w);
	if (m->c.md_cursor) {
		int err = m_file_check_and_advance_md_wb_err(m, f, w);

		if (!ret)
			ret = err;
	}
	return ret;
}

/*
 * After a metadata buffer failed, the next journal write access (the guest
 * makes one at once) runs ext4_check_bdev_write_error() (6.1,
 * fs/ext4/ext4_jbd2.c), a reader that marks the bdev error SEEN (and logs an
 * ext4 error). 6.12 runs it only without a journal (fs/ext4/ext4_jbd2.c:246);
 * with one, jbd2_journal_get_write_access() sees the error instead
 * (errseq_check, nothing marked SEEN) and aborts the journal
 * (fs/jbd2/transaction.c:1226): the filesystem is shut down, and the model
 * does not follow it past this op (m->cut).
 */
static void ext4_meta_error(struct m_state *m)
{
	if (m->k->jbd2_aborts_on_bdev_err)
		m->cut = 1;
	else
		errseq_check_and_advance(&m->bdev_wb_err, &m->ext4_bdev_cursor);
}

const struct dt_fs_rules dt_fs_ext4_ordered = {
	.name = "ext4-ordered",
	.has_bdev = 1,
	.wb_err_record = 1,
	.fsync = ext4_sync_file,
	.meta_error = ext4_meta_error,
};

const struct dt_fs_rules dt_fs_ext4_journal = {
	.name = "ext4-journal",
	.has_bdev = 1,
	.wb_err_record = 1,
	.fsync = ext4_sync_file,
	.meta_error = ext4_meta_error,
};
