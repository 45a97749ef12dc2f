// SPDX-License-Identifier: GPL-2.0
/*
 * Block devices opened through their nodes, so the file's page cache is the
 * block device's (bd_inode's mapping): the raw one ("open dN raw"), a 4 MiB
 * disk of its own, apart from the filesystem under test, and the filesystem's
 * own ("open dN dev", read-only), whose mapping holds the metadata buffers
 * (its wb_err and AS flags are those "error meta" sets: M_BDEV()). Rules of
 * 6.1's block/fops.c and block/bdev.c; 6.12 reads the same for every op here
 * (blkdev_write_iter(), blkdev_read_iter(), blkdev_fsync(), bdev_release()).
 *
 * The device node lives on devtmpfs, so the descriptor's superblock is
 * devtmpfs's: syncfs(2) syncs that (nothing of ours) and its s_wb_err never
 * moves; the bdev inode's own superblock is the bdev pseudo-filesystem's.
 * The bdev inode lives as long as the disk: nothing evicts it, and its wb_err
 * outlives every descriptor (a later opener samples it). The guest turns its
 * readahead off (BLKRASET 0): a buffered read brings in the pages it reads.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

/* the bdev inodes: made with the state (m_state_init()), never freed; the
 * filesystem's size is not modelled (nothing reads or writes it) */
void m_bdev_init(struct m_state *m)
{
	for (int i = 0; i < 2; i++) {
		struct m_inode *in = &m->ino[i];

		memset(in, 0, sizeof(*in));
		in->used = 1;
		in->bdev = 1;
		in->raw = i == 0;
		in->dino = -1;
		in->label = -1;
		in->linked = 1; /* never "unlinked and open" */
		in->size = in->raw ? DT_MAX_FILE_SIZE : 0;
		in->disk_isize = in->size;
	}
	m->raw = 0;
	m->dev = 1;
}

/*
 * block/fops.c blkdev_open(): a struct file on the device node, whose
 * f_mapping becomes the bdev's and f_wb_err is sampled from it again
 * (filemap_sample_wb_err()); the first opener sets the block size
 * (set_init_blocksize(): 4096 for this disk). f_sb_err, f_md_wb_err (patched)
 * sample devtmpfs, which has no block device and no error: never consulted.
 * The filesystem's device is opened read-only beside the mount (no exclusive
 * claim: no conflict with the filesystem's); tmpfs has none (the guest:
 * ENOTBLK, without opening anything).
 */
void m_bdev_open(struct m_state *m, const struct dt_op *op, struct out *w)
{
	int i = op->file == DT_FILE_DEV ? m->dev : m->raw;
	struct m_inode *in = &m->ino[i];
	struct m_fd *f;

	if (i == m->dev && m->fsr->no_disk) {
		m->slot[op->fd] = -1;
		m_put(w, -1, ENOTBLK);
		return;
	}
	f = m_fd_new(m, op, i);
	f->f_wb_err = m->c.bug == BUG_SAMPLE_RAW ? in->wb_err : errseq_sample(&in->wb_err);
	in->nopen++;
	m_put(w, 0, 0);
}

/*
 * block/fops.c blkdev_write_iter() and blkdev_read_iter() (len > 0; a write
 * on a descriptor open for writing). At or past the end of the device a write
 * is ENOSPC, a read 0; across it both are shortened. Buffered: a write is
 * generic_perform_write() through blkdev_write_begin() = block_write_begin()
 * (6.12: iomap_file_buffered_write() with IOMAP_F_BUFFER_HEAD, the same
 * __block_write_begin_int()), which reads a block (4096 bytes) it only partly
 * overwrites unless its page is uptodate; a page whose writeback failed still
 * is (its buffer is not, end_buffer_async_write(): clear_buffer_uptodate(),
 * but __block_write_begin_int() marks the buffers of an uptodate folio
 * uptodate without a read: recordings/6.1/ext2/raw-partial-write-*); a read is
 * filemap_read() (readahead off: only the pages read come in). O_DIRECT
 * (6.1 generic_file_direct_write(), 6.12 blkdev_direct_write(); reads alike):
 * write-out of the range (the AS flag: the error, nothing done), a write
 * invalidates the range, then blkdev_direct_IO(): 512-byte alignment, then a
 * bio that fails on the dm error target (the whole request: EIO). Bytes or
 * -errno.
 */
static long long bdev_rw(struct m_state *m, struct m_fd *f, long long len, int write)
{
	struct m_inode *in = &m->ino[f->ino];
	int r;

	if (f->pos >= in->size)
		return write ? -ENOSPC : 0;
	if (len > in->size - f->pos)
		len = in->size - f->pos;
	if (!f->odirect)
		return write ? m_buffered_write(m, f, len) : m_buffered_read(m, f, len);
	r = m_dio_flush(m, f, len);
	if (r)
		return r;
	if (write)
		m_drop_pages(in, f->pos / PAGE, (f->pos + len - 1) / PAGE);
	if ((f->pos | len) & 511)
		return -EINVAL;
	if (f->pos / PAGE < in->fail_pages)
		return -EIO;
	f->pos += len;
	return len;
}

long long m_bdev_write(struct m_state *m, struct m_fd *f, long long len)
{
	return bdev_rw(m, f, len, 1);
}

long long m_bdev_read(struct m_state *m, struct m_fd *f, long long len)
{
	return bdev_rw(m, f, len, 0);
}

/*
 * block/fops.c blkdev_fsync(): file_write_and_wait_range() of the range, i.e.
 * write-out, then file_check_and_advance_wb_err() (returned first), then
 * blkdev_issue_flush() (the dm error target takes no flush bio: it succeeds).
 * The patched series leaves it as it is: no metadata cursor here.
 */
int m_bdev_fsync(struct m_state *m, struct m_fd *f, long long first, long long last,
		 struct out *w)
{
	m_writeback(m, f->ino, first, last);
	return m_file_check_and_advance_wb_err(m, f, w);
}

/*
 * The last struct file of the device goes: block/bdev.c blkdev_put() with
 * bd_openers 1 runs sync_blockdev() (write-out and wait; its
 * filemap_check_errors() clears AS_EIO/AS_ENOSPC, the result dropped), then
 * blkdev_put_whole() -> blkdev_flush_mapping() -> kill_bdev(): every page
 * leaves the page cache. wb_err stays (6.12 bdev_release(): the same).
 */
void m_bdev_last_close(struct m_state *m)
{
	struct m_inode *in = &m->ino[m->raw];

	m_writeback(m, m->raw, 0, MAX_PAGES - 1);
	m_filemap_check_errors(&in->as);
	m_drop_pages(in, 0, MAX_PAGES - 1);
}

/* "fail dN" on the raw device: the guest loads a dm table that is one error
 * target over the whole disk; nothing is written out first */
void m_bdev_fail(struct m_state *m)
{
	m->ino[m->raw].fail_pages = MAX_PAGES;
}

/*
 * sync(2): sync_bdevs() writes back and waits (filemap_fdatawait_keep_errors():
 * no flag cleared) every block device someone holds open; one nobody holds
 * has no page (kill_bdev() at its last close).
 */
void m_bdev_sync(struct m_state *m)
{
	m_writeback(m, m->raw, 0, MAX_PAGES - 1);
}
