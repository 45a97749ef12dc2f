// SPDX-License-Identifier: GPL-2.0
/*
 * ext4, data=ordered and data=journal (the difference the model sees is in
 * which scripts the campaign gives each: real errors need explicit writeback
 * points, and data=journal writes data home at checkpoint time).
 */
#include <errno.h>

#include "internal.h"

/*
 * A journal commit under data=journal: jbd2 marks the data buffers it journaled
 * dirty for their checkpoint (__jbd2_journal_unfile_buffer(): jbddirty ->
 * mark_buffer_dirty()), so their pages are tagged dirty in the page cache until
 * written home (recordings/6.1/ext4-journal/journal-commit-tags-*). A commit is
 * the whole transaction: every inode's.
 */
static void ext4_commit(struct m_state *m)
{
	if (!m->fsr->journal_data)
		return;
	for (int i = 0; i < MAX_INODES; i++)
		for (int k = 0; k < MAX_PAGES / 64; k++) {
			m->ino[i].jtag[k] |= m->ino[i].jpend[k];
			m->ino[i].jpend[k] = 0;
		}
}

/* ->sync_fs: jbd2 commits (sync_fs_one_sb(), syncfs's sync_filesystem()) */
static int ext4_sync_fs(struct m_state *m)
{
	ext4_commit(m);
	return 0;
}

/*
 * fs/ext4/fsync.c ext4_sync_file(): file_write_and_wait_range() ->
 * file_check_and_advance_wb_err(); patched: file_check_and_advance_md_wb_err()
 * at its end, which its "goto out" on a data error reaches too.
 */
static int ext4_sync_file(struct m_state *m, struct m_fd *f, long long first, long long last,
			  struct out *w)
{
	int ret;

	/* read-only: no write-out and no commit, the cursor at "out" */
	if (!m->rdonly)
		m_writeback(m, f->ino, first, last);
	ret = m_file_check_and_advance_wb_err(m, f, w);
	/* then, with no data error, data=journal's ext4_force_commit() */
	if (!ret && !m->rdonly)
		ext4_commit(m);
	if (m->c.md_cursor) {
		int err = m_file_check_and_advance_md_wb_err(m, f, w);

		if (!ret)
			ret = err;
	}
	return ret;
}

/*
 * fs/ext4/super.c __ext4_remount() going read-only: sync_filesystem(), whose
 * error fails the remount (:6503); patched (remount_since, kernel-port 0014):
 * sync_filesystem_since() a sample taken at the start (errseq_sample(): 0 for
 * an error no one has seen), the AS flags left alone; an error it reports is
 * then marked seen, so that it fails this remount only.
 */
static int ext4_remount(struct m_state *m, int ro)
{
	unsigned keep = M_BDEV(m).as;
	errseq_t since;
	int r;

	if (!ro) {
		/* 6.12: a metadata error recorded while read-only aborts the
		 * journal at its first write access after the remount rw (the
		 * next create: EIO; recordings/6.12/ext4-ordered/
		 * remount-rw-abort-*): the model stops there, as after one
		 * read-write (ext4_meta_error()) */
		if (m->rdonly && m->ext4_ro_meta_err)
			m->cut = 1;
		return 0;
	}
	if (m->rdonly)
		return 0;
	if (!m->c.remount_since)
		return m_sync_filesystem(m, 0);
	since = errseq_sample(&M_BDEV(m).wb_err);
	(void)m_sync_filesystem(m, 0);
	M_BDEV(m).as = keep;
	r = errseq_check(&M_BDEV(m).wb_err, since);
	if (r)
		errseq_check_and_advance(&M_BDEV(m).wb_err, &since);
	return r;
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
	if (m->rdonly) {
		/* the guest's settling create fails (EROFS): no journal access;
		 * 6.12 aborts at the first one after remount rw (ext4_remount()) */
		m->ext4_ro_meta_err = m->k->jbd2_aborts_on_bdev_err;
		return;
	}
	if (m->k->jbd2_aborts_on_bdev_err)
		m->cut = 1;
	else
		errseq_check_and_advance(&M_BDEV(m).wb_err, &m->ext4_bdev_cursor);
}

static int any_dirty(const struct m_inode *in)
{
	for (int i = 0; i < MAX_PAGES / 64; i++)
		if (in->dirty[i])
			return 1;
	return 0;
}

/* data=journal: a page a commit tagged dirty (ext4_commit()) */
static int any_tagged(const struct m_inode *in)
{
	for (int i = 0; i < MAX_PAGES / 64; i++)
		if (in->jtag[i])
			return 1;
	return 0;
}

/*
 * Write back and wait on pages [first, last] before changing the layout:
 * stock, filemap_write_and_wait_range() (mm/filemap.c), whose
 * filemap_check_errors() returns and clears the mapping's AS flags, for
 * whichever descriptor calls; falloc_cursor (kernel-port 0013 since the
 * review), file_write_and_wait_range(): the descriptor's f_wb_err.
 */
static int falloc_wait(struct m_state *m, struct m_fd *f, long long first, long long last,
		       struct out *w)
{
	m_writeback(m, f->ino, first, last);
	if (m->c.falloc_cursor)
		return m_file_check_and_advance_wb_err(m, f, w);
	return m_filemap_check_errors(&m->ino[f->ino].as);
}

/* fs/ext4/extents.c ext4_fallocate() (4 KiB blocks, extent files) */
static int ext4_fallocate(struct m_state *m, struct m_fd *f, unsigned mode, long long off,
			  long long len, struct out *w)
{
	struct m_inode *in = &m->ino[f->ino];
	long long last = MAX_PAGES - 1;
	int r;

	if ((mode & (FALLOC_PUNCH_HOLE | FALLOC_ZERO_RANGE)) && m->k->ext4_punch_journal_only) {
		/* 6.12: ext4_punch_hole() returns at once past the size; then,
		 * and in ext4_zero_range(), ext4_truncate_page_cache_block_range()
		 * writes back and waits only under data=journal (the range, the
		 * hole cut at the page holding the size), then drops the whole
		 * pages inside, dirty ones unwritten */
		long long end = off + len;

		if ((mode & FALLOC_PUNCH_HOLE) && off >= in->size)
			return 0;
		if ((mode & FALLOC_PUNCH_HOLE) && end > in->size)
			end = (in->size + PAGE - 1) / PAGE * PAGE;
		if (m->fsr->journal_data && (r = falloc_wait(m, f, off / PAGE, (end - 1) / PAGE, w)))
			return r;
		m_drop_pages(in, (off + PAGE - 1) / PAGE, end / PAGE - 1);
		if ((mode & FALLOC_ZERO_RANGE) && !(mode & FALLOC_KEEP_SIZE) && off + len > in->size)
			m_set_size(m, in, off + len);
		return 0;
	}
	if (mode & FALLOC_PUNCH_HOLE) {
		/* fs/ext4/inode.c ext4_punch_hole(): the write-out only when the
		 * mapping has a dirty page anywhere (mapping_tagged DIRTY); under
		 * data=journal a write() tags none (journal_data), only a commit
		 * does (ext4_commit(); recordings/6.1/ext4-journal/
		 * fallocate-punch-patched, journal-commit-tags-*) */
		if ((m->fsr->journal_data ? any_tagged(in) : any_dirty(in)) &&
		    (r = falloc_wait(m, f, off / PAGE, (off + len - 1) / PAGE, w)))
			return r;
		if (off >= in->size)
			return 0;
		/* truncate_pagecache_range() of the whole blocks inside; the
		 * partial ones are zeroed in place, data=journal journaling them
		 * (ext4_zero_partial_blocks(); journal-commit-tags-more-*) */
		if (m->fsr->journal_data) {
			long long end = off + len < in->size ? off + len : in->size;

			if (off % PAGE)
				in->jpend[off / PAGE / 64] |= 1ULL << (off / PAGE % 64);
			if (end % PAGE && end / PAGE < MAX_PAGES)
				in->jpend[end / PAGE / 64] |= 1ULL << (end / PAGE % 64);
		}
		m_drop_pages(in, (off + PAGE - 1) / PAGE, (off + len) / PAGE - 1);
		return 0;
	}
	if (mode & (FALLOC_COLLAPSE_RANGE | FALLOC_INSERT_RANGE)) {
		/* ext4_collapse_range(), ext4_insert_range(): block-aligned, then
		 * (data=journal: ext4_force_commit(), no writeback error) the
		 * size check, the write-out, and the page cache from the first
		 * page changed is dropped */
		if ((off | len) % PAGE)
			return -EINVAL;
		ext4_commit(m);
		if (mode & FALLOC_COLLAPSE_RANGE) {
			if (off + len >= in->size)
				return -EINVAL;
			if ((r = falloc_wait(m, f, off / PAGE, off / PAGE, w)) ||
			    (r = falloc_wait(m, f, (off + len) / PAGE, last, w)))
				return r;
			m_drop_pages(in, off / PAGE, last);
			m_set_size(m, in, in->size - len);
		} else {
			if (off >= in->size)
				return -EINVAL;
			if ((r = falloc_wait(m, f, off / PAGE, last, w)))
				return r;
			m_drop_pages(in, off / PAGE, last);
			m_set_size(m, in, in->size + len);
		}
		return 0;
	}
	if (mode & FALLOC_ZERO_RANGE) {
		/* ext4_zero_range(): data=journal's ext4_force_commit() first;
		 * no write-out; the whole blocks inside are dropped from the
		 * page cache (dirty ones unwritten) */
		ext4_commit(m);
		m_drop_pages(in, (off + PAGE - 1) / PAGE, (off + len) / PAGE - 1);
	}
	/* preallocation and zero range: the size grows unless KEEP_SIZE */
	if (!(mode & FALLOC_KEEP_SIZE) && off + len > in->size)
		m_set_size(m, in, off + len);
	return 0;
}

/*
 * fs/ext4/super.c ext4_fill_super(): errseq_check_and_advance() of the bdev
 * mapping's wb_err into sbi->s_bdev_wb_err from 0: an error left on the
 * device before the mount is marked seen (ext4 always forgot it).
 */
static void ext4_mount(struct m_state *m)
{
	m->ext4_bdev_cursor = 0;
	errseq_check_and_advance(&M_BDEV(m).wb_err, &m->ext4_bdev_cursor);
}

/*
 * fs/ext4/file.c ext4_dio_write_iter(): under data=journal ext4_dio_supported()
 * is false and the write is a buffered one (ext4_buffered_write_iter());
 * else iomap_dio_rw() as generic_file_direct_write().
 */
static long long ext4_dio_write(struct m_state *m, struct m_fd *f, long long len, struct out *w)
{
	(void)w;
	if (m->fsr->journal_data)
		return m_buffered_write(m, f, len);
	return m_iomap_dio_write(m, f, len, 1);
}

/* fs/ext4/file.c ext4_dio_read_iter(): data=journal reads through the page
 * cache (IOCB_DIRECT cleared); else iomap */
static long long ext4_dio_read(struct m_state *m, struct m_fd *f, long long len)
{
	if (m->fsr->journal_data)
		return m_buffered_read(m, f, len);
	return m_iomap_dio_read(m, f, len);
}

/* one driver, two data modes: the rules differ only in data=journal's */
#define EXT4_RULES(mode, journal)                                              \
	{                                                                      \
		.name = "ext4-" mode, .has_bdev = 1, .stable_ino = 1,          \
		.journal_data = (journal), .copy_by_page = 1, .itable = 1,     \
		.wb_err_record = 1,                                            \
		.remount = ext4_remount, .fsync = ext4_sync_file,              \
		.fallocate = ext4_fallocate, .dio_write = ext4_dio_write,      \
		.dio_read = ext4_dio_read, .mount = ext4_mount,                \
		.meta_error = ext4_meta_error, .sync_fs = ext4_sync_fs,        \
	}

const struct dt_fs_rules dt_fs_ext4_ordered = EXT4_RULES("ordered", 0);
const struct dt_fs_rules dt_fs_ext4_journal = EXT4_RULES("journal", 1);
