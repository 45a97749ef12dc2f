// SPDX-License-Identifier: GPL-2.0
/*
 * The difftest model of Linux's writeback error reporting, on liberrseq: the
 * kernel objects and the generic VFS / page-cache rules (mm/filemap.c,
 * fs/libfs.c, fs/sync.c, fs/open.c, fs/inode.c), and the rules of the file
 * syscalls (open, write, read, fsync, ...; model/step.c has the table of every
 * op's rule). What a filesystem does its own way is in model/fs-*.c, what a
 * kernel line does its own way in model/line.c (model/internal.h has the map).
 *
 * Objects (each errseq_t is a liberrseq word, updated with the same four
 * functions the kernel uses):
 *   - inode: mapping->wb_err, mapping->flags AS_EIO/AS_ENOSPC, link and open counts;
 *   - superblock: s_wb_err;
 *   - block device: bd_inode->i_mapping->wb_err and its AS_* flags; and ext4's
 *     own reader of it, sbi->s_bdev_wb_err;
 *   - open file: f_wb_err, f_sb_err (and the patched kernel's f_md_wb_err,
 *     f_sb_bdev_err).
 * Each function below names the 6.1 code it stands for.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void m_state_init(struct m_state *m, const struct dt_contract *c, enum dt_fs fs)
{
	memset(m, 0, sizeof(*m));
	m->fs = fs;
	m->fsr = dt_fs_rules_of(fs);
	m->k = dt_line_rules_of(c->line);
	m->c = *c;
	for (int i = 0; i < DT_MAX_FILES; i++)
		m->name[i] = -1;
	for (int i = 0; i < DT_MAX_FDS; i++)
		m->slot[i] = -1;
	m_bdev_init(m); /* the block devices' inodes (model/bdev.c) */
	m_tdir_init(m); /* the test directory's (model/namei.c) */
	/* The guest starts each script on a fresh mount over a block device whose
	 * wb_err it reset to 0 (as invalidate_disk() does); ext4's mount then
	 * samples it (errseq_check_and_advance from 0: stays 0). */
}

static int dino_new(struct m_state *m, int label)
{
	int no = m_ino_no_free(m);

	for (int d = 0; d < MAX_DINODES; d++)
		if (!m->dino[d].used) {
			memset(&m->dino[d], 0, sizeof(m->dino[d]));
			m->dino[d].used = 1;
			m->dino[d].ino_no = no;
			m->dino[d].nlink = 1;
			m->dino[d].label = label;
			m->dino[d].mem = -1;
			return d;
		}
	abort(); /* 8 names, 16 descriptors: at most 24 live */
}

/* an inode on disk without names or an in-memory inode is gone */
static void dino_put(struct m_state *m, int d)
{
	if (!m->dino[d].nlink && m->dino[d].mem < 0)
		m->dino[d].used = 0;
}

static int inode_new(struct m_state *m, int label, int d)
{
	for (int i = 0; i < MAX_INODES; i++)
		if (!m->ino[i].used) {
			memset(&m->ino[i], 0, sizeof(m->ino[i]));
			m->ino[i].used = 1;
			m->ino[i].dino = d;
			m->ino[i].label = label;
			m->ino[i].linked = m->dino[d].nlink > 0;
			m->ino[i].size = m->dino[d].size;
			m->ino[i].disk_isize = m->dino[d].size;
			m->ino[i].fail_pages = m->dino[d].fail_pages;
			m->dino[d].mem = i;
			/* inode_init_always(): mapping->wb_err = 0, flags 0 */
			return i;
		}
	abort(); /* scripts have <= 8 names and 16 descriptors */
}

/* iget: the in-memory inode of a name, read from disk if not cached */
int m_inode_get(struct m_state *m, int file)
{
	struct m_dinode *d = &m->dino[m->name[file]];

	/* failread: the inode's block fails to read (ext4_iget(), ext2_iget():
	 * EIO); iget_failed() drops the new inode. The patched kernel's
	 * record of an evicted inode's error stays for the next read
	 * (kernel-port 0004 inode_restore_wb_err(): nothing for a bad inode) */
	if (m->readfail && (d->mem < 0 || m->ino[d->mem].evicted))
		return -1;
	if (d->mem < 0)
		inode_new(m, m->fsr->stable_ino ? d->label : file, m->name[file]);
	m->ino[d->mem].evicted = 0;
	return d->mem;
}

/* the inode leaves memory (evict()); its disk inode stays while named */
void m_inode_drop(struct m_state *m, int i)
{
	int d = m->ino[i].dino;

	m->ino[i].used = 0;
	m->dino[d].mem = -1;
	dino_put(m, d);
}

static void inode_maybe_free(struct m_state *m, int i)
{
	/* iput_final(): an unlinked inode goes when its last user does */
	if (!m->ino[i].linked && m->ino[i].nopen == 0)
		m_inode_drop(m, i);
}

/* a name goes (unlink, or rename over it): the last one frees the inode's
 * blocks (a failed extent with them) */
void m_name_drop(struct m_state *m, int file)
{
	int d = m->name[file];

	m->name[file] = -1;
	if (--m->dino[d].nlink > 0)
		return;
	m->dino[d].fail_pages = 0;
	if (m->dino[d].mem >= 0) {
		m->ino[m->dino[d].mem].linked = 0;
		inode_maybe_free(m, m->dino[d].mem);
	} else {
		dino_put(m, d);
	}
}

const char *m_obj(const struct m_state *m, int i, char *buf, size_t len)
{
	if (m->ino[i].bdev)
		return m->ino[i].raw ? "raw" : "bdev";
	if (m->ino[i].dir)
		return "dir";
	snprintf(buf, len, "f%d", m->ino[i].label);
	return buf;
}

struct m_fd *m_fd_new(struct m_state *m, const struct dt_op *op, int ino)
{
	struct m_fd *f;
	int k;

	for (k = 0; m->fd[k].refs; k++)
		;
	m->slot[op->fd] = k;
	f = &m->fd[k];
	memset(f, 0, sizeof(*f));
	f->refs = 1;
	f->state = 1;
	f->ino = ino;
	f->rdonly = !!(op->flags & OPEN_RDONLY);
	f->osync = !!(op->flags & (OPEN_SYNC | OPEN_DSYNC));
	f->odirect = !!(op->flags & OPEN_DIRECT);
	return f;
}

void m_put(struct out *w, long ret, int err)
{
	if (!w->o)
		return;
	w->o->ret[w->which] = ret;
	w->o->err[w->which] = err;
	w->o->done |= 1 << w->which;
}

long m_fail(struct out *w, int err)
{
	m_put(w, -1, err);
	return -1;
}

/* include/linux/pagemap.h mapping_set_error() */
void m_mapping_set_error(struct m_state *m, errseq_t *wb_err, unsigned *as,
			 errseq_t *host_sb_err, const char *obj, struct out *w, int err)
{
	errseq_t eseq;

	if (m->c.bug == BUG_ENOSPC_AS_EIO && err == ENOSPC)
		err = EIO;
	/* __filemap_set_wb_err(): errseq_set + trace_filemap_set_wb_err(mapping, eseq) */
	eseq = errseq_set(wb_err, -err);
	if (w->o)
		dt_opres_trace(w->o, "set %s 0x%x", obj, eseq);
	/* errseq_set(&mapping->host->i_sb->s_wb_err, error) */
	if (host_sb_err && m->c.bug != BUG_NO_SB_ERR)
		errseq_set(host_sb_err, -err);
	if (err == ENOSPC)
		*as |= AS_ENOSPC;
	else
		*as |= AS_EIO;
}

/* mapping->host->i_sb->s_wb_err: the filesystem's, or, for the raw device, the
 * bdev pseudo-filesystem's (not modelled: nothing reads it) */
errseq_t *m_host_sb_err(struct m_state *m, const struct m_inode *in)
{
	if (in->raw && m->c.bug != BUG_RAW_SETS_SB)
		return NULL;
	return &m->s_wb_err;
}

/*
 * Write back the dirty pages of an inode in [first, last]; those on a failed
 * (dm error) range complete with EIO: the bio end_io's mapping_set_error()
 * (ext4_finish_bio, mpage_end_io, end_buffer_async_write).
 */
void m_writeback(struct m_state *m, int i, long long first, long long last)
{
	struct m_inode *in = &m->ino[i];
	int failed = 0;
	char obj[16];

	if (last >= MAX_PAGES)
		last = MAX_PAGES - 1;
	for (long long p = first < 0 ? 0 : first; p <= last; p++) {
		uint64_t bit = 1ULL << (p % 64);
		long long end;

		/* data=journal: a page a commit tagged goes home */
		in->jtag[p / 64] &= ~bit;
		if (!(in->dirty[p / 64] & bit))
			continue;
		in->dirty[p / 64] &= ~bit;
		/* the I/O completion moves the size written back (xfs_setfilesize(),
		 * btrfs's ordered extents) */
		end = (p + 1) * PAGE < in->size ? (p + 1) * PAGE : in->size;
		if (end > in->disk_isize)
			in->disk_isize = end;
		/* a size not logged (xfs_setsize()'s failed write-out) is, up to there */
		if (in->size_unlogged && m->dino[in->dino].size < in->disk_isize)
			m->dino[in->dino].size = in->disk_isize;
		if (p < in->fail_pages) {
			failed = 1;
			m->wb_failed |= in->raw ? WB_FAILED_RAW : WB_FAILED_FILE;
		}
	}
	if (failed) {
		/* the bio end_io's filemap_set_wb_err events are not compared:
		 * their number depends on how the pages went out in bios (ext4
		 * calls mapping_set_error() per bio and per page), and the trace
		 * of an I/O completion can miss the window of the syscall;
		 * the adv events that follow check the resulting word */
		struct out nw = {NULL, 0};

		/* a raw device's buffers: mark_buffer_write_io_error(), whose
		 * bd_super is NULL (not mounted) */
		m_mapping_set_error(m, &in->wb_err, &in->as, m_host_sb_err(m, in),
				    m_obj(m, i, obj, sizeof(obj)), &nw, EIO);
	}
}

/* every inode of the filesystem (not the raw device's) */
void m_writeback_all(struct m_state *m)
{
	for (int i = 0; i < MAX_INODES; i++)
		if (m->ino[i].used && !m->ino[i].bdev)
			m_writeback(m, i, 0, MAX_PAGES - 1);
}

/* mm/filemap.c file_check_and_advance_wb_err() */
int m_file_check_and_advance_wb_err(struct m_state *m, struct m_fd *f, struct out *w)
{
	struct m_inode *in = &m->ino[f->ino];
	int err = 0;

	if (errseq_check(&in->wb_err, f->f_wb_err)) {
		errseq_t old = f->f_wb_err;

		char obj[16];

		err = errseq_check_and_advance(&in->wb_err, &f->f_wb_err);
		if (w->o)
			dt_opres_trace(w->o, "adv %s 0x%x 0x%x", m_obj(m, f->ino, obj, sizeof(obj)),
				       old, f->f_wb_err);
	}
	in->as = 0; /* clear_bit(AS_EIO), clear_bit(AS_ENOSPC) */
	return err;
}

/* mm/filemap.c filemap_check_errors(): test_and_clear, EIO checked last */
int m_filemap_check_errors(unsigned *as)
{
	int ret = 0;

	if (*as & AS_ENOSPC)
		ret = -ENOSPC;
	if (*as & AS_EIO)
		ret = -EIO;
	*as = 0;
	return ret;
}

struct m_fd *m_fd_of(struct m_state *m, const struct dt_op *op)
{
	int k = m->slot[op->fd];

	m->none.state = 0;
	return k >= 0 ? &m->fd[k] : &m->none;
}

struct m_fd *m_fd_open(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct m_fd *f = m_fd_of(m, op);

	if (f->state != 1) {
		m_fail(w, EBADF);
		return NULL;
	}
	return f;
}

void m_drop_pages(struct m_inode *in, long long first, long long last)
{
	if (first < 0)
		first = 0;
	for (long long p = first; p <= last && p < MAX_PAGES; p++) {
		uint64_t bit = 1ULL << (p % 64);

		in->dirty[p / 64] &= ~bit;
		in->cached[p / 64] &= ~bit;
		in->jpend[p / 64] &= ~bit;
		in->jtag[p / 64] &= ~bit;
	}
}

void m_set_size(struct m_state *m, struct m_inode *in, long long size)
{
	in->size = size;
	m->dino[in->dino].size = size;
}

/*
 * mm/filemap.c generic_perform_write(), page by page, at the file offset:
 * write_begin reads a block it only partly overwrites when it is not in the
 * page cache; on a failed (dm error) block that read gets EIO: a short write,
 * or -EIO if nothing was written. Returns the bytes written or -errno.
 */
long long m_buffered_write(struct m_state *m, struct m_fd *f, long long len)
{
	struct m_inode *in = &m->ino[f->ino];
	long long done = 0;

	for (long long p = f->pos / PAGE; p <= (f->pos + len - 1) / PAGE && p < MAX_PAGES; p++) {
		long long from = p * PAGE > f->pos ? p * PAGE : f->pos;
		long long to = (p + 1) * PAGE < f->pos + len ? (p + 1) * PAGE : f->pos + len;
		uint64_t bit = 1ULL << (p % 64);
		int partial = from > p * PAGE || to < (p + 1) * PAGE;

		if (partial && !(in->cached[p / 64] & bit) && p < in->fail_pages)
			break;
		in->dirty[p / 64] |= bit;
		in->cached[p / 64] |= bit;
		if (m->fsr->journal_data)
			in->jpend[p / 64] |= bit;
		done += to - from;
	}
	f->pos += done;
	if (f->pos > in->size)
		m_set_size(m, in, f->pos);
	return done ? done : -EIO;
}

/*
 * mm/filemap.c filemap_read(): copies from uptodate pages; a page not in the
 * page cache is read from disk, and on a failed (dm error) block that read
 * fails: a short read, or -EIO if nothing was read. It reads no writeback
 * error: a page whose writeback failed stays uptodate in the cache
 * (mpage_write_end_io(), ext4_finish_bio() end its writeback without clearing
 * it), so the data written is read back until the page leaves memory.
 */
long long m_buffered_read(struct m_state *m, struct m_fd *f, long long len)
{
	struct m_inode *in = &m->ino[f->ino];
	long long done = 0, end = f->pos + len < in->size ? f->pos + len : in->size;

	for (long long p = f->pos / PAGE; f->pos + done < end; p++) {
		long long to = (p + 1) * PAGE < end ? (p + 1) * PAGE : end;
		uint64_t bit = 1ULL << (p % 64);

		/* past the 4 MiB the model tracks (an insert range can move the
		 * end there): never on a failed extent, so readable */
		if (p < MAX_PAGES) {
			if (!(in->cached[p / 64] & bit) && p < in->fail_pages)
				break;
			in->cached[p / 64] |= bit;
		}
		done = to - f->pos;
	}
	if (done == 0 && f->pos < end)
		return -EIO;
	f->pos += done;
	return done;
}

/* the O_DIRECT read itself: from disk, up to the end of the file; the page
 * cache is not filled (the generator reads no O_DIRECT in real mode) */
static long long direct_read(struct m_state *m, struct m_fd *f, long long len)
{
	long long n = m->ino[f->ino].size - f->pos;

	n = n < 0 ? 0 : n < len ? n : len;
	f->pos += n;
	return n;
}

/*
 * mm/filemap.c generic_file_read_iter() with IOCB_DIRECT (ext2, vfat,
 * exfat): filemap_write_and_wait_range() of the range first (the AS flag),
 * then fs/direct-io.c __blockdev_direct_IO(): at or past the end of the file
 * 0, else 512-byte alignment (EINVAL), then the read up to the end
 * (recordings/6.1/exfat/odirect-read-eof-stock: the EOF check comes first).
 */
long long m_generic_dio_read(struct m_state *m, struct m_fd *f, long long len)
{
	int r = m_dio_flush(m, f, len);

	if (r)
		return r;
	if (f->pos >= m->ino[f->ino].size)
		return 0;
	if ((f->pos | len) & 511)
		return -EINVAL;
	return direct_read(m, f, len);
}

/* iomap's order: the end-of-file check before the write-out */
static long long iomap_read_checked(struct m_state *m, struct m_fd *f, long long len)
{
	int r = m_dio_flush(m, f, len);

	if (r)
		return r;
	if ((f->pos | len) & 511)
		return -EINVAL;
	return direct_read(m, f, len);
}

/*
 * fs/iomap/direct-io.c __iomap_dio_rw() reading (ext4, xfs, btrfs): at or
 * past the end of the file nothing, not even the write-out; else the write-out
 * (the AS flag), then the alignment (EINVAL), then the read.
 */
long long m_iomap_dio_read(struct m_state *m, struct m_fd *f, long long len)
{
	if (f->pos >= m->ino[f->ino].size)
		return 0;
	return iomap_read_checked(m, f, len);
}

/*
 * The O_DIRECT write itself, after the filesystem's checks: the page cache
 * of the range was written back and is invalidated
 * (invalidate_inode_pages2_range()), the data goes to disk (never on a failed
 * extent: the generator writes no O_DIRECT in real mode), the size grows.
 */
long long m_direct_write(struct m_state *m, struct m_fd *f, long long len)
{
	struct m_inode *in = &m->ino[f->ino];

	m_drop_pages(in, f->pos / PAGE, (f->pos + len - 1) / PAGE);
	f->pos += len;
	if (f->pos > in->size)
		m_set_size(m, in, f->pos);
	return len;
}

/*
 * 6.12 (iomap_dio_write_fallback): an iomap O_DIRECT write whose write-out of
 * the range fails falls back to a buffered write; ext2 and ext4 then write
 * that back and drop it (@then_flush), xfs leaves it dirty. The AS flag is
 * gone, unreported.
 */
long long m_iomap_dio_write(struct m_state *m, struct m_fd *f, long long len, int then_flush)
{
	long long n;

	if (!m->k->iomap_dio_write_fallback)
		return m_generic_dio_write(m, f, len, NULL);
	if (!m_dio_flush(m, f, len))
		return m_dio_write_after_flush(m, f, len);
	n = m_buffered_write(m, f, len);
	if (n > 0 && then_flush) {
		m_writeback(m, f->ino, (f->pos - n) / PAGE, (f->pos - 1) / PAGE);
		m_filemap_check_errors(&m->ino[f->ino].as);
		m_drop_pages(&m->ino[f->ino], (f->pos - n) / PAGE, (f->pos - 1) / PAGE);
	}
	return n;
}

/* filemap_write_and_wait_range() of the range an O_DIRECT write covers: the AS flag */
int m_dio_flush(struct m_state *m, struct m_fd *f, long long len)
{
	m_writeback(m, f->ino, f->pos / PAGE, (f->pos + len - 1) / PAGE);
	return m_filemap_check_errors(&m->ino[f->ino].as);
}

/*
 * mm/filemap.c generic_file_direct_write() (ext2, and ext4's and xfs's iomap
 * in this order): filemap_write_and_wait_range() of the range (the AS flag:
 * the error, nothing written), invalidate it, then the direct I/O, which
 * refuses an offset or length not aligned to the device's 512-byte logical
 * block (blockdev_direct_IO(), iomap_dio_bio_iter(): EINVAL).
 */
long long m_generic_dio_write(struct m_state *m, struct m_fd *f, long long len, struct out *w)
{
	int r = m_dio_flush(m, f, len);

	(void)w;
	if (r)
		return r;
	return m_dio_write_after_flush(m, f, len);
}

/* the rest of an O_DIRECT write once its range was written back */
long long m_dio_write_after_flush(struct m_state *m, struct m_fd *f, long long len)
{
	m_drop_pages(&m->ino[f->ino], f->pos / PAGE, (f->pos + len - 1) / PAGE);
	if ((f->pos | len) & 511)
		return -EINVAL;
	return m_direct_write(m, f, len);
}

void m_truncate(struct m_state *m, struct m_inode *in, long long size)
{
	long long keep = (size + PAGE - 1) / PAGE;

	if (size < in->size) {
		m_drop_pages(in, keep, MAX_PAGES - 1);
		if (in->fail_pages > keep)
			in->fail_pages = (int)keep;
		if (m->dino[in->dino].fail_pages > keep)
			m->dino[in->dino].fail_pages = (int)keep;
	}
	m_set_size(m, in, size);
}

/* 6.12 fs/open.c:265 vfs_fallocate(): the modes are exclusive */
static int falloc_mode_612(unsigned mode)
{
	const unsigned mask = FALLOC_PUNCH_HOLE | FALLOC_COLLAPSE_RANGE | FALLOC_ZERO_RANGE |
			      FALLOC_INSERT_RANGE | 0x40u /* UNSHARE */;

	if (mode & ~(mask | FALLOC_KEEP_SIZE))
		return -EOPNOTSUPP;
	switch (mode & mask) {
	case 0:
	case 0x40u:
	case FALLOC_ZERO_RANGE:
		return 0;
	case FALLOC_PUNCH_HOLE:
		return mode & FALLOC_KEEP_SIZE ? 0 : -EOPNOTSUPP;
	case FALLOC_COLLAPSE_RANGE:
	case FALLOC_INSERT_RANGE:
		return mode & FALLOC_KEEP_SIZE ? -EOPNOTSUPP : 0;
	default:
		return -EOPNOTSUPP;
	}
}

/* patched (kernel-port 0007): file_check_and_advance_md_wb_err() */
int m_file_check_and_advance_md_wb_err(struct m_state *m, struct m_fd *f, struct out *w)
{
	int err = 0;

	if (errseq_check(&M_BDEV(m).wb_err, f->f_md_wb_err)) {
		errseq_t old = f->f_md_wb_err;
		char obj[16];

		err = errseq_check_and_advance(&M_BDEV(m).wb_err, &f->f_md_wb_err);
		if (w->o)
			dt_opres_trace(w->o, "mdadv %s 0x%x 0x%x", m_obj(m, f->ino, obj, sizeof(obj)),
				       old, f->f_md_wb_err);
	}
	return err;
}

/*
 * fs/libfs.c __generic_file_fsync() (ext2, vfat, exfat):
 * file_write_and_wait_range() -> file_check_and_advance_wb_err(), returning
 * at once when it fails; then the metadata, and a second check (finds nothing
 * new). The data written out completes without error unless its blocks sit
 * on a failed extent ("fail"): the injected errors are recorded, not caused
 * by this writeback.  Patched (0010): file_check_and_advance_md_wb_err() at
 * the end, skipped when the data wait failed; md_once (0010/0015 since the
 * review): consumed then too (one failed indirect block is in both words),
 * and the data error returned.
 */
int m_generic_file_fsync(struct m_state *m, struct m_fd *f, long long first, long long last,
			 struct out *w)
{
	int ret;

	m_writeback(m, f->ino, first, last);
	ret = m_file_check_and_advance_wb_err(m, f, w);
	if (m->c.md_cursor && (m->c.md_once || !ret)) {
		int err = m_file_check_and_advance_md_wb_err(m, f, w);

		if (!ret)
			ret = err;
	}
	return ret;
}

/*
 * syncfs's cursors: f_sb_err on sb->s_wb_err and, patched
 * (syncfs_bdev_cursor: file_check_and_advance_sb_errs(), kernel-port 0018),
 * f_sb_bdev_err on the bdev mapping's wb_err, in one f_lock section; the
 * sb's error first.  Advancing the bdev cursor marks the bdev error SEEN.
 */
int m_sb_errs(struct m_state *m, struct m_fd *f)
{
	int err = errseq_check_and_advance(&m->s_wb_err, &f->f_sb_err), bdev_err = 0;

	if (m->c.syncfs_bdev_cursor)
		bdev_err = errseq_check_and_advance(&M_BDEV(m).wb_err, &f->f_sb_bdev_err);
	return err ? err : bdev_err;
}

/*
 * fs/sync.c sync_filesystem(): nothing on a read-only superblock; else write
 * the inodes, ->sync_fs (whose error ends it), then sync_blockdev(sb->s_bdev)
 * = filemap_write_and_wait() on the bdev mapping, whose filemap_check_errors()
 * consumes AS_EIO/AS_ENOSPC there (EIO for any errno but ENOSPC). @syncfs:
 * syncfs(2)'s own variant, which patched (syncfs_cursor_only, kernel-port
 * 0018) clears the flags without returning them: the error comes from the
 * cursors. Other callers (remount) keep sync_filesystem() on both kernels.
 */
int m_sync_filesystem(struct m_state *m, int syncfs)
{
	int ret;

	if (m->rdonly)
		return 0;
	m_writeback_all(m);
	if (m->fsr->sync_fs && (ret = m->fsr->sync_fs(m)))
		return ret;
	if (!m->fsr->has_bdev)
		return 0; /* sync_blockdev(NULL) */
	ret = m_filemap_check_errors(&M_BDEV(m).as);
	return syncfs && m->c.syncfs_cursor_only ? 0 : ret;
}

/* ext2, fat, exfat, btrfs: every remount starts with sync_filesystem() and
 * drops its result (ext2_remount(), fat_remount(), exfat_reconfigure(),
 * btrfs_remount()): the flags it consumes are lost */
int m_remount_sync_ignored(struct m_state *m, int ro)
{
	(void)ro;
	m_sync_filesystem(m, 0);
	return 0;
}

/* fs/sync.c syncfs(): sync_filesystem(), then errseq_check_and_advance(&sb->s_wb_err) */
static int do_syncfs(struct m_state *m, struct m_fd *f)
{
	int ret = m_sync_filesystem(m, 1), ret2 = m_sb_errs(m, f);

	return ret ? ret : ret2;
}

/* vfs_fsync_range() of pages [first, last]: the file's ->fsync, a block
 * device's blkdev_fsync() (model/bdev.c), the directory's, or the
 * filesystem's */
int m_file_fsync(struct m_state *m, struct m_fd *f, long long first, long long last,
		 struct out *w)
{
	if (m->ino[f->ino].bdev)
		return m_bdev_fsync(m, f, first, last, w);
	if (m->ino[f->ino].dir && m->fsr->dir_fsync)
		return m->fsr->dir_fsync(m, f, w);
	return m->fsr->fsync(m, f, first, last, w);
}

/* ---- the rules of the file syscalls (model/step.c's table names them) ---- */

/* a new struct file of inode @i samples its cursors; it holds the inode */
static void fd_sample(struct m_state *m, struct m_fd *f, int i)
{
	/* fs/open.c do_dentry_open(): f_wb_err = filemap_sample_wb_err(),
	 * f_sb_err = file_sample_sb_err() */
	if (m->c.bug == BUG_SAMPLE_RAW)
		f->f_wb_err = m->ino[i].wb_err;
	else
		f->f_wb_err = errseq_sample(&m->ino[i].wb_err);
	f->f_sb_err = errseq_sample(&m->s_wb_err);
	/* patched: f_md_wb_err = filemap_sample_wb_err(bdev mapping) */
	f->f_md_wb_err = errseq_sample(&M_BDEV(m).wb_err);
	/* patched: f_sb_bdev_err = file_sample_sb_bdev_err(), the same */
	f->f_sb_bdev_err = f->f_md_wb_err;
	m->ino[i].nopen++;
}

/* open dN fM|raw|dev|dir [FLAGS] */
void m_op_open(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct m_fd *f;
	int i, r;

	if (op->file == DT_FILE_RAW || op->file == DT_FILE_DEV) {
		m_bdev_open(m, op, w);
		return;
	}
	if (op->file == DT_FILE_DIR) {
		/* O_RDONLY | O_DIRECTORY: a description of the test directory,
		 * sampled as a file's */
		f = m_fd_new(m, op, m->tdir);
		fd_sample(m, f, m->tdir);
		m_put(w, 0, 0);
		return;
	}
	/* a stale entry read from disk (namei.c) */
	if (m_lookup(m, op->file) == -EIO) {
		m->slot[op->fd] = -1;
		m_fail(w, EIO);
		return;
	}
	/* the lookup reads a named inode in before anything asks for write
	 * access (fs/namei.c open_last_lookups() before do_open()): a read
	 * that fails (failread) is EIO even on a read-only mount */
	if (m->name[op->file] >= 0 && m_inode_get(m, op->file) < 0) {
		m->slot[op->fd] = -1;
		m_fail(w, EIO);
		return;
	}
	/* read-only: creating, opening for writing, truncating: EROFS
	 * (lookup_open(), may_open(), handle_truncate()) */
	if (m->rdonly && ((m->name[op->file] < 0 && (op->flags & OPEN_CREAT)) ||
			  (m->name[op->file] >= 0 &&
			   (!(op->flags & OPEN_RDONLY) || (op->flags & OPEN_TRUNC))))) {
		m->slot[op->fd] = -1;
		m_fail(w, EROFS);
		return;
	}
	if (m->name[op->file] < 0) {
		if (!(op->flags & OPEN_CREAT)) {
			m->slot[op->fd] = -1; /* the guest holds -1: EBADF from now on */
			m_fail(w, ENOENT);
			return;
		}
		/* a stale entry the dcache holds negative: ->create finds the
		 * name in the directory (ext2_add_link(): EEXIST) */
		if (m->stale_no[op->file] >= 0) {
			m->slot[op->fd] = -1;
			m_fail(w, EEXIST);
			return;
		}
		/* ext2_create(): a new inode, then the entry (m_dir_change());
		 * when that fails, ext2_add_nondir() frees the inode while the
		 * entry naming its number is written: the name is stale */
		r = m_dir_change(m);
		if (r) {
			m->stale_no[op->file] = m_ino_no_free(m);
			m->stale_neg[op->file] = 1;
			m->slot[op->fd] = -1;
			m_fail(w, -r);
			return;
		}
		m->name[op->file] = dino_new(m, op->file);
		inode_new(m, op->file, m->name[op->file]);
	}
	i = m_inode_get(m, op->file);
	/* fs/open.c do_dentry_open(): O_DIRECT without FMODE_CAN_ODIRECT (no
	 * ->direct_IO: tmpfs before 6.6) is EINVAL, after O_CREAT made the file */
	if ((op->flags & OPEN_DIRECT) &&
	    (!m->fsr->dio_write || (m->fsr->no_disk && !m->k->shmem_odirect))) {
		m->slot[op->fd] = -1;
		m_fail(w, EINVAL);
		return;
	}
	/* a new struct file (fs/file_table.c alloc_empty_file()) */
	f = m_fd_new(m, op, i);
	if ((op->flags & OPEN_TRUNC) && m->fsr->setsize) {
		/* fs/namei.c handle_truncate() -> do_truncate(), after the
		 * open: a ->setattr that fails (xfs, btrfs: the AS flag) fails
		 * the open, and the new struct file is dropped */
		r = m->fsr->setsize(m, f, 0, w);
		if (r) {
			f->refs = 0;
			f->state = 0;
			m->slot[op->fd] = -1;
			m_fail(w, -r);
			return;
		}
	} else if (op->flags & OPEN_TRUNC) {
		/* truncate_pagecache(): dirty pages go, unwritten; blocks freed */
		m_drop_pages(&m->ino[i], 0, MAX_PAGES - 1);
		m->ino[i].size = 0;
		m->ino[i].fail_pages = 0;
		m->dino[m->ino[i].dino].fail_pages = 0;
		m->dino[m->ino[i].dino].size = 0;
	}
	fd_sample(m, f, i);
	m_put(w, 0, 0);
}

/* write dN LEN */
void m_op_write(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct m_fd *f = m_fd_of(m, op);
	int r;
	long long n;

	if (f->state != 1 || f->rdonly) {
		m_fail(w, EBADF);
		return;
	}
	if (op->len == 0) {
		m_put(w, 0, 0); /* generic_write_checks(): nothing to do */
		return;
	}
	if (m->ino[f->ino].bdev)
		n = m_bdev_write(m, f, op->len);
	else if (f->odirect)
		n = m->fsr->dio_write(m, f, op->len, w);
	else
		n = m_buffered_write(m, f, op->len);
	/* O_SYNC/O_DSYNC: generic_write_sync() -> vfs_fsync_range() of the
	 * bytes written (include/linux/fs.h; every write_iter here ends in
	 * it): its error is the write's result. The bytes stay written (the
	 * size grew), but the offset does not move: fs/read_write.c
	 * new_sync_write() sets *ppos = ki_pos only when the result is > 0
	 * (recordings/6.1/ext4-journal/osync-offset-patched) */
	if (n > 0 && f->osync) {
		r = m_file_fsync(m, f, (f->pos - n) / PAGE, (f->pos - 1) / PAGE, w);
		if (r) {
			f->pos -= n;
			n = r;
		}
	}
	if (n < 0)
		m_fail(w, (int)-n);
	else
		m_put(w, n, 0);
}

/* read dN LEN */
void m_op_read(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct m_fd *f = m_fd_open(m, op, w);
	long long n;

	if (!f)
		return;
	if (!op->len) {
		m_put(w, 0, 0); /* generic_file_read_iter(), ext4: nothing to read */
		return;
	}
	if (m->ino[f->ino].bdev)
		n = m_bdev_read(m, f, op->len);
	else if (f->odirect)
		n = m->fsr->dio_read(m, f, op->len);
	else
		n = m_buffered_read(m, f, op->len);
	if (n < 0)
		m_fail(w, (int)-n);
	else
		m_put(w, n, 0);
}

/* ftruncate dN LEN */
void m_op_ftruncate(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct m_fd *f = m_fd_open(m, op, w);
	int r;
	struct m_inode *in;

	if (!f)
		return;
	/* fs/open.c do_sys_ftruncate(): a descriptor not open for writing,
	 * or not of a regular file (the raw device), gets EINVAL */
	if (f->rdonly || m->ino[f->ino].bdev) {
		m_fail(w, EINVAL);
		return;
	}
	/* do_truncate() -> ->setattr (ext2_setattr, ext4_setattr,
	 * fat_setattr, exfat_setattr, shmem_setattr): no writeback error
	 * is read or cleared. Shrinking, truncate_pagecache() drops the
	 * pages past the new size, dirty ones unwritten, and their blocks
	 * are freed; growing adds a hole (vfat and exfat write zeros
	 * through the page cache: dirty, not failed, as their new
	 * clusters are not on a failed extent). A size inside a page
	 * keeps that page (block_truncate_page() zeroes its tail; the
	 * generator uses page multiples, so it need not read a failed
	 * block). */
	in = &m->ino[f->ino];
	if (m->fsr->setsize) {
		r = m->fsr->setsize(m, f, op->len, w);
		m_put(w, r ? -1 : 0, -r);
		return;
	}
	m_truncate(m, in, op->len);
	m_put(w, 0, 0);
}

/* fallocate dN MODE OFF LEN */
void m_op_fallocate(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct m_fd *f = m_fd_open(m, op, w);
	int r;
	unsigned mode = op->flags;

	if (!f)
		return;
	/* fs/open.c vfs_fallocate(), its checks in its order */
	r = 0;
	if (op->off < 0 || op->len <= 0)
		r = -EINVAL;
	else if (m->k->falloc_modes_exclusive)
		r = falloc_mode_612(mode);
	else if (mode & ~(FALLOC_KEEP_SIZE | FALLOC_PUNCH_HOLE | FALLOC_COLLAPSE_RANGE |
			  FALLOC_ZERO_RANGE | FALLOC_INSERT_RANGE | 0x40u /* UNSHARE */))
		r = -EOPNOTSUPP;
	else if ((mode & (FALLOC_PUNCH_HOLE | FALLOC_ZERO_RANGE)) ==
		 (FALLOC_PUNCH_HOLE | FALLOC_ZERO_RANGE))
		r = -EOPNOTSUPP;
	else if ((mode & FALLOC_PUNCH_HOLE) && !(mode & FALLOC_KEEP_SIZE))
		r = -EOPNOTSUPP;
	else if ((mode & FALLOC_COLLAPSE_RANGE) && (mode & ~FALLOC_COLLAPSE_RANGE))
		r = -EINVAL;
	else if ((mode & FALLOC_INSERT_RANGE) && (mode & ~FALLOC_INSERT_RANGE))
		r = -EINVAL;
	else if ((mode & 0x40u) && (mode & ~(0x40u | FALLOC_KEEP_SIZE)))
		r = -EINVAL;
	if (!r && f->rdonly)
		r = -EBADF;
	if (!r && !m->fsr->fallocate)
		r = -EOPNOTSUPP;
	else if (!r)
		r = m->fsr->fallocate(m, f, mode, op->off, op->len, w);
	m_put(w, r ? -1 : 0, -r);
}

/* fsync dN, fdatasync dN (alike here) */
void m_op_fsync(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct m_fd *f = m_fd_open(m, op, w);
	int r;

	if (!f)
		return;
	r = m_file_fsync(m, f, 0, MAX_PAGES - 1, w);
	m_put(w, r ? -1 : 0, -r);
}

/*
 * fsyncdir: do_sys_open() of the test directory (O_RDONLY | O_DIRECTORY),
 * vfs_fsync() of it, close(): what an application does to make a new name
 * durable (PostgreSQL's fsync_fname() of a parent). Its inode (m->tdir) has
 * no pages; its wb_err is what "error data" on a descriptor of it recorded.
 * The new struct file samples its cursors as open does: an error of its
 * mapping or (patched: f_md_wb_err) of the block device that no one has seen
 * is reported by its fsync, once; stock reads no metadata error there. The directory's ->fsync is the file's
 * (ext2_fsync(), ext4_sync_file(), fat_file_fsync(), exfat_file_fsync() with
 * its sync_blockdev(), btrfs_sync_file(), noop_fsync() on tmpfs) but on xfs
 * (dir_fsync); close reports nothing.
 */
void m_op_fsyncdir(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct m_fd f = {.state = 1, .refs = 1, .rdonly = 1};
	int r;

	(void)op;
	f.ino = m->tdir;
	f.f_wb_err = errseq_sample(&m->ino[f.ino].wb_err);
	f.f_sb_err = errseq_sample(&m->s_wb_err);
	f.f_md_wb_err = errseq_sample(&M_BDEV(m).wb_err);
	f.f_sb_bdev_err = f.f_md_wb_err;
	r = m_file_fsync(m, &f, 0, MAX_PAGES - 1, w);
	m_put(w, r ? -1 : 0, -r);
}

/* sfr dN FLAGS [OFF LEN] */
void m_op_sfr(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct m_fd *f = m_fd_open(m, op, w);
	int r;
	long long end;

	if (!f)
		return;
	/* fs/sync.c sync_file_range() */
	if ((op->flags & ~7u) || op->off < 0 || op->len < 0 ||
	    __builtin_add_overflow(op->off, op->len, &end)) {
		m_fail(w, EINVAL);
		return;
	}
	r = 0;
	if (m->c.bug == BUG_SFR_ANY) {
		r = m_file_check_and_advance_wb_err(m, f, w);
	} else {
		if (op->flags & SFR_WAIT_BEFORE) {
			/* file_fdatawait_range() */
			r = m_file_check_and_advance_wb_err(m, f, w);
			if (r < 0)
				goto out;
		}
		if (op->flags & SFR_WRITE) {
			/* __filemap_fdatawrite_range(): no error check; a failed
			 * page's error is recorded at completion (scripts wait
			 * with WAIT_AFTER for it to land in this op) */
			long long last = op->len ? (op->off + op->len - 1) / PAGE : MAX_PAGES - 1;

			m_writeback(m, f->ino, op->off / PAGE, last);
			r = 0;
		}
		if (op->flags & SFR_WAIT_AFTER)
			r = m_file_check_and_advance_wb_err(m, f, w);
	}
out:
	m_put(w, r ? -1 : 0, -r);
}

/* syncfs dN */
void m_op_syncfs(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct m_fd *f = m_fd_open(m, op, w);
	int r;

	if (!f)
		return;
	/* the raw device's node is on devtmpfs: syncfs(2) syncs that, no
	 * block device, no error (nor on the patched kernel) */
	r = m->ino[f->ino].bdev ? 0 : do_syncfs(m, f);
	m_put(w, r ? -1 : 0, -r);
}

/* close dN */
void m_op_close(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct m_fd *f = m_fd_open(m, op, w);

	if (!f)
		return;
	/* filp_close(): none of the modelled filesystems has ->flush, so
	 * close returns 0; the struct file goes with its last descriptor
	 * (fput()) */
	m->slot[op->fd] = -1;
	if (--f->refs == 0) {
		f->state = 0;
		m->ino[f->ino].nopen--;
		if (m->ino[f->ino].raw && !m->ino[f->ino].nopen)
			m_bdev_last_close(m);
		inode_maybe_free(m, f->ino);
	}
	m_put(w, 0, 0);
}

/* dup dN dM */
void m_op_dup(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct m_fd *f = m_fd_open(m, op, w);

	/* fs/file.c dup(): a second descriptor for the same struct file:
	 * one f_wb_err, f_sb_err, f_md_wb_err, one offset */
	if (!f)
		return;
	m->slot[op->fd2] = m->slot[op->fd];
	f->refs++;
	m_put(w, 0, 0);
}

/* child OP */
void m_op_child(struct m_state *m, const struct dt_op *op, struct out *w)
{
	/* kernel/fork.c dup_fd(): the child's descriptors name the
	 * parent's struct files; its op reads and advances their cursors */
	m_step(m, &op->sub[0], w);
}
