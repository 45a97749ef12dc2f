// SPDX-License-Identifier: GPL-2.0
/*
 * The difftest model of Linux 6.1's writeback error reporting, on liberrseq.
 *
 * Objects (each errseq_t is a liberrseq word, updated with the same four
 * functions the kernel uses):
 *   - inode: mapping->wb_err, mapping->flags AS_EIO/AS_ENOSPC, link and open counts;
 *   - superblock: s_wb_err;
 *   - block device: bd_inode->i_mapping->wb_err and its AS_* flags; and ext4's
 *     own reader of it, sbi->s_bdev_wb_err;
 *   - open file: f_wb_err, f_sb_err (and the patched kernel's f_md_wb_err).
 * Each function below names the 6.1 code it stands for.
 */
#define _GNU_SOURCE
#include "model.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define AS_EIO 1u
#define AS_ENOSPC 2u
#define MAX_INODES 64
#define PAGE 4096
#define MAX_PAGES ((int)(DT_MAX_FILE_SIZE / PAGE)) /* the parser keeps writes within */

static const char *const fsnames[FS__COUNT] = {"ext2", "ext4-ordered", "ext4-journal"};

const char *dt_fs_name(enum dt_fs fs)
{
	return (unsigned)fs < FS__COUNT ? fsnames[fs] : "?";
}

int dt_fs_parse(const char *s, enum dt_fs *out)
{
	for (int i = 0; i < FS__COUNT; i++)
		if (!strcmp(s, fsnames[i])) {
			*out = (enum dt_fs)i;
			return 0;
		}
	return -1;
}

static const char *const bugnames[BUG__COUNT] = {
	"none", "sample_raw", "no_sb_err", "no_as_flags", "sfr_any", "enospc_as_eio",
};

const char *dt_bug_name(enum dt_bug b)
{
	return (unsigned)b < BUG__COUNT ? bugnames[b] : "?";
}

int dt_bug_parse(const char *s, enum dt_bug *out)
{
	for (int i = 0; i < BUG__COUNT; i++)
		if (!strcmp(s, bugnames[i])) {
			*out = (enum dt_bug)i;
			return 0;
		}
	return -1;
}

int dt_line_parse(const char *s, enum dt_line *out)
{
	if (!strcmp(s, "6.1"))
		*out = DT_LINE_6_1;
	else if (!strcmp(s, "6.12"))
		*out = DT_LINE_6_12;
	else
		return -1;
	return 0;
}

const char *dt_line_name(enum dt_line l)
{
	return l == DT_LINE_6_12 ? "6.12" : "6.1";
}

static const struct {
	const char *name;
	size_t off;
} switches[DT_NSWITCHES] = {
	{"md_cursor", offsetof(struct dt_contract, md_cursor)},
	{"keep_unseen", offsetof(struct dt_contract, keep_unseen)},
	{"syncfs_locked", offsetof(struct dt_contract, syncfs_locked)},
	{"syncfs_cursor_only", offsetof(struct dt_contract, syncfs_cursor_only)},
	{"syncfs_bdev_cursor", offsetof(struct dt_contract, syncfs_bdev_cursor)},
	{"md_once", offsetof(struct dt_contract, md_once)},
};

const char *dt_switch_name(int i)
{
	return switches[i].name;
}

int *dt_contract_switch(struct dt_contract *c, int i)
{
	return (int *)((char *)c + switches[i].off);
}

void dt_contract_stock(struct dt_contract *c)
{
	memset(c, 0, sizeof(*c));
}

void dt_contract_patched(struct dt_contract *c)
{
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < DT_NSWITCHES; i++)
		*dt_contract_switch(c, i) = 1;
}

int dt_contract_parse(const char *s, struct dt_contract *c)
{
	char buf[256], *tok, *save = NULL;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int v = 1, i;
		char *w = tok;

		if (!strncmp(w, "no-", 3)) {
			v = 0;
			w += 3;
		}
		if (!strcmp(w, "stock") && v) {
			dt_contract_stock(c);
			continue;
		}
		if (!strcmp(w, "patched") && v) {
			dt_contract_patched(c);
			continue;
		}
		for (i = 0; i < DT_NSWITCHES && strcmp(w, switches[i].name); i++)
			;
		if (i == DT_NSWITCHES)
			return -1;
		*dt_contract_switch(c, i) = v;
	}
	return 0;
}

void dt_contract_format(const struct dt_contract *c, char *buf, size_t len)
{
	struct dt_contract t = *c;
	const char *name = "custom";
	int on = 0;
	size_t o;

	for (int i = 0; i < DT_NSWITCHES; i++)
		on += !!*dt_contract_switch(&t, i);
	if (on == DT_NSWITCHES)
		name = "patched";
	else if (!on)
		name = "stock";
	o = (size_t)snprintf(buf, len, "%s (", name);
	for (int i = 0; i < DT_NSWITCHES && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s=%d", i ? " " : "", switches[i].name,
				      *dt_contract_switch(&t, i));
	if (o < len && c->line != DT_LINE_6_1)
		o += (size_t)snprintf(buf + o, len - o, " linux=%s", dt_line_name(c->line));
	if (o < len)
		snprintf(buf + o, len - o, "%s%s)", c->bug ? " bug=" : "",
			 c->bug ? dt_bug_name(c->bug) : "");
}

/* ---- state ---- */

struct m_inode {
	int used;
	int label;      /* file index it was created under (trace object fN) */
	int linked;     /* has a name */
	int nopen;
	errseq_t wb_err;
	unsigned as;    /* AS_EIO / AS_ENOSPC in mapping->flags */
	long long size;
	int fail_pages; /* pages [0, fail_pages) sit on a dm error target (copy of disk_fail) */
	uint64_t dirty[MAX_PAGES / 64]; /* dirty page-cache pages */
	uint64_t cached[MAX_PAGES / 64];/* pages in the page cache (uptodate) */
};

struct m_fd {
	int state;      /* 0 closed, 1 open, 2 open failed (guest holds -1: EBADF) */
	int ino;
	int rdonly;
	long long pos;
	errseq_t f_wb_err, f_sb_err, f_md_wb_err, f_sb_bdev_err;
};

struct m_state {
	enum dt_fs fs;
	struct dt_contract c;
	int cut;                    /* the kernel left what the model follows (a per-line
				       rule): the ops after this one are not compared */
	int exists[DT_MAX_FILES];   /* a name on disk */
	int cached[DT_MAX_FILES];   /* in-memory inode of the name, or -1 */
	int disk_fail[DT_MAX_FILES];/* pages of the file's blocks under the dm error target */
	long long disk_size[DT_MAX_FILES];
	struct m_inode ino[MAX_INODES];
	struct m_fd fd[DT_MAX_FDS];
	errseq_t s_wb_err;          /* sb->s_wb_err */
	errseq_t bdev_wb_err;       /* sb->s_bdev->bd_inode->i_mapping->wb_err */
	unsigned bdev_as;
	errseq_t ext4_bdev_cursor;  /* EXT4_SB(sb)->s_bdev_wb_err */
};

static void state_init(struct m_state *m, const struct dt_contract *c, enum dt_fs fs)
{
	memset(m, 0, sizeof(*m));
	m->fs = fs;
	m->c = *c;
	for (int i = 0; i < DT_MAX_FILES; i++)
		m->cached[i] = -1;
	/* The guest starts each script on a fresh mount over a block device whose
	 * wb_err it reset to 0 (as invalidate_disk() does); ext4's mount then
	 * samples it (errseq_check_and_advance from 0: stays 0). */
}

static int is_ext4(const struct m_state *m)
{
	return m->fs == FS_EXT4_ORDERED || m->fs == FS_EXT4_JOURNAL;
}

static int inode_new(struct m_state *m, int label)
{
	for (int i = 0; i < MAX_INODES; i++)
		if (!m->ino[i].used) {
			memset(&m->ino[i], 0, sizeof(m->ino[i]));
			m->ino[i].used = 1;
			m->ino[i].label = label;
			m->ino[i].linked = 1;
			/* inode_init_always(): mapping->wb_err = 0, flags 0 */
			return i;
		}
	abort(); /* scripts have <= 8 names and 16 descriptors */
}

/* iget: the in-memory inode of a name, read from disk if not cached */
static int inode_get(struct m_state *m, int file)
{
	if (m->cached[file] < 0) {
		m->cached[file] = inode_new(m, file);
		m->ino[m->cached[file]].fail_pages = m->disk_fail[file];
		m->ino[m->cached[file]].size = m->disk_size[file];
	}
	return m->cached[file];
}

static void inode_maybe_free(struct m_state *m, int i)
{
	/* iput_final(): an unlinked inode goes when its last user does */
	if (!m->ino[i].linked && m->ino[i].nopen == 0)
		m->ino[i].used = 0;
}

struct out {
	struct dt_opres *o;  /* where predictions go; NULL: nowhere */
	int which;
};

static void put(struct out *w, long ret, int err)
{
	if (!w->o)
		return;
	w->o->ret[w->which] = ret;
	w->o->err[w->which] = err;
	w->o->done |= 1 << w->which;
}

static long fail(struct out *w, int err)
{
	put(w, -1, err);
	return -1;
}

/* include/linux/pagemap.h mapping_set_error() */
static void mapping_set_error(struct m_state *m, errseq_t *wb_err, unsigned *as,
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

/*
 * Write back the dirty pages of an inode in [first, last]; those on a failed
 * (dm error) range complete with EIO: the bio end_io's mapping_set_error()
 * (ext4_finish_bio, mpage_end_io, end_buffer_async_write).
 */
static void writeback(struct m_state *m, int i, long long first, long long last,
		      struct out *w)
{
	struct m_inode *in = &m->ino[i];
	int failed = 0;
	char obj[16];

	if (last >= MAX_PAGES)
		last = MAX_PAGES - 1;
	for (long long p = first < 0 ? 0 : first; p <= last; p++) {
		uint64_t bit = 1ULL << (p % 64);

		if (!(in->dirty[p / 64] & bit))
			continue;
		in->dirty[p / 64] &= ~bit;
		if (p < in->fail_pages)
			failed = 1;
	}
	if (failed) {
		/* the bio end_io's filemap_set_wb_err events are not compared:
		 * their number depends on how the pages went out in bios (ext4
		 * calls mapping_set_error() per bio and per page), and the trace
		 * of an I/O completion can miss the window of the syscall;
		 * the adv events that follow check the resulting word */
		struct out nw = {NULL, 0};

		(void)w;

		snprintf(obj, sizeof(obj), "f%d", in->label);
		mapping_set_error(m, &in->wb_err, &in->as, &m->s_wb_err, obj, &nw, EIO);
	}
}

static void writeback_all(struct m_state *m, struct out *w)
{
	for (int i = 0; i < MAX_INODES; i++)
		if (m->ino[i].used)
			writeback(m, i, 0, MAX_PAGES - 1, w);
}

/* mm/filemap.c file_check_and_advance_wb_err() */
static int file_check_and_advance_wb_err(struct m_state *m, struct m_fd *f, struct out *w)
{
	struct m_inode *in = &m->ino[f->ino];
	int err = 0;

	if (errseq_check(&in->wb_err, f->f_wb_err)) {
		errseq_t old = f->f_wb_err;

		err = errseq_check_and_advance(&in->wb_err, &f->f_wb_err);
		if (w->o)
			dt_opres_trace(w->o, "adv f%d 0x%x 0x%x", in->label, old, f->f_wb_err);
	}
	in->as = 0; /* clear_bit(AS_EIO), clear_bit(AS_ENOSPC) */
	return err;
}

/* mm/filemap.c filemap_check_errors(): test_and_clear, EIO checked last */
static int filemap_check_errors(unsigned *as)
{
	int ret = 0;

	if (*as & AS_ENOSPC)
		ret = -ENOSPC;
	if (*as & AS_EIO)
		ret = -EIO;
	*as = 0;
	return ret;
}

static struct m_fd *fd_of(struct m_state *m, const struct dt_op *op)
{
	return &m->fd[op->fd];
}

static int do_fsync(struct m_state *m, struct m_fd *f, struct out *w)
{
	int ret;

	/* ext4_sync_file(), ext2_fsync() -> __generic_file_fsync(): both
	 * file_write_and_wait_range() -> file_check_and_advance_wb_err(), then
	 * check again after the metadata (finds nothing new). The data written
	 * out completes without error: the injected errors are recorded, not
	 * caused by this writeback. */
	writeback(m, f->ino, 0, MAX_PAGES - 1, w);
	ret = file_check_and_advance_wb_err(m, f, w);
	/* patched: file_check_and_advance_md_wb_err() at the end of
	 * ext4_sync_file() (reached by its "goto out" too) and of
	 * __generic_file_fsync() (ext2), which returns early when the data
	 * wait failed.  md_once (kernel-port 0008/0012 since the review):
	 * ext2_fsync() then consumes the metadata cursor before returning the
	 * data error (one failed indirect block is in both); without it the
	 * metadata cursor stays for the next fsync */
	if (m->c.md_cursor && (m->c.md_once || !(m->fs == FS_EXT2 && ret))) {
		int err = 0;

		if (errseq_check(&m->bdev_wb_err, f->f_md_wb_err)) {
			errseq_t old = f->f_md_wb_err;

			err = errseq_check_and_advance(&m->bdev_wb_err, &f->f_md_wb_err);
			if (w->o)
				dt_opres_trace(w->o, "mdadv f%d 0x%x 0x%x", m->ino[f->ino].label, old,
					       f->f_md_wb_err);
		}
		if (!ret)
			ret = err;
	}
	return ret;
}

/*
 * syncfs's cursors: f_sb_err on sb->s_wb_err and, patched
 * (syncfs_bdev_cursor: file_check_and_advance_sb_errs(), kernel-port 0014),
 * f_sb_bdev_err on the bdev mapping's wb_err, in one f_lock section; the
 * sb's error first.  Advancing the bdev cursor marks the bdev error SEEN.
 */
static int sb_errs(struct m_state *m, struct m_fd *f)
{
	int err = errseq_check_and_advance(&m->s_wb_err, &f->f_sb_err), bdev_err = 0;

	if (m->c.syncfs_bdev_cursor)
		bdev_err = errseq_check_and_advance(&m->bdev_wb_err, &f->f_sb_bdev_err);
	return err ? err : bdev_err;
}

static int do_syncfs(struct m_state *m, struct m_fd *f, struct out *w)
{
	int ret, ret2;

	/* fs/sync.c syncfs(): sync_filesystem() ends with sync_blockdev(sb->s_bdev)
	 * = filemap_write_and_wait() on the bdev mapping, whose
	 * filemap_check_errors() consumes AS_EIO/AS_ENOSPC there.  Patched
	 * (syncfs_cursor_only, kernel-port 0014): the flags are cleared, not
	 * returned; the error comes from f_sb_err. */
	writeback_all(m, w);
	ret = filemap_check_errors(&m->bdev_as);
	if (m->c.syncfs_cursor_only)
		ret = 0;
	ret2 = sb_errs(m, f);
	return ret ? ret : ret2;
}

/* One op (not par). Returns the result through @w. */
static void step(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct m_fd *f;
	int r;

	switch (op->code) {
	case OP_OPEN: {
		int i;

		f = fd_of(m, op);
		if (!m->exists[op->file]) {
			if (!(op->flags & OPEN_CREAT)) {
				f->state = 2;
				fail(w, ENOENT);
				return;
			}
			m->exists[op->file] = 1;
			m->disk_size[op->file] = 0;
			m->disk_fail[op->file] = 0;
			m->cached[op->file] = inode_new(m, op->file);
		}
		i = inode_get(m, op->file);
		f->state = 1;
		f->ino = i;
		f->pos = 0;
		f->rdonly = !!(op->flags & OPEN_RDONLY);
		if (op->flags & OPEN_TRUNC) {
			/* truncate_pagecache(): dirty pages go, unwritten; blocks freed */
			memset(m->ino[i].dirty, 0, sizeof(m->ino[i].dirty));
			memset(m->ino[i].cached, 0, sizeof(m->ino[i].cached));
			m->ino[i].size = 0;
			m->ino[i].fail_pages = 0;
			m->disk_fail[op->file] = 0;
			m->disk_size[op->file] = 0;
		}
		/* fs/open.c do_dentry_open(): f_wb_err = filemap_sample_wb_err(),
		 * f_sb_err = file_sample_sb_err() */
		if (m->c.bug == BUG_SAMPLE_RAW)
			f->f_wb_err = m->ino[i].wb_err;
		else
			f->f_wb_err = errseq_sample(&m->ino[i].wb_err);
		f->f_sb_err = errseq_sample(&m->s_wb_err);
		/* patched: f_md_wb_err = filemap_sample_wb_err(bdev mapping) */
		f->f_md_wb_err = errseq_sample(&m->bdev_wb_err);
		/* patched: f_sb_bdev_err = file_sample_sb_bdev_err(), the same */
		f->f_sb_bdev_err = f->f_md_wb_err;
		m->ino[i].nopen++;
		put(w, 0, 0);
		return;
	}
	case OP_WRITE:
		f = fd_of(m, op);
		if (f->state != 1 || f->rdonly) {
			fail(w, EBADF);
			return;
		}
		if (op->len > 0) {
			struct m_inode *in = &m->ino[f->ino];
			long long done = 0;

			/* generic_perform_write(), page by page: write_begin reads a
			 * block it only partly overwrites when it is not in the page
			 * cache; on a failed (dm error) block that read gets EIO: a
			 * short write, or -EIO if nothing was written */
			for (long long p = f->pos / PAGE; p <= (f->pos + op->len - 1) / PAGE && p < MAX_PAGES; p++) {
				long long from = p * PAGE > f->pos ? p * PAGE : f->pos;
				long long to = (p + 1) * PAGE < f->pos + op->len ? (p + 1) * PAGE
										 : f->pos + op->len;
				uint64_t bit = 1ULL << (p % 64);
				int partial = from > p * PAGE || to < (p + 1) * PAGE;

				if (partial && !(in->cached[p / 64] & bit) && p < in->fail_pages)
					break;
				in->dirty[p / 64] |= bit;
				in->cached[p / 64] |= bit;
				done += to - from;
			}
			f->pos += done;
			if (f->pos > in->size)
				in->size = f->pos;
			if (in->linked)
				m->disk_size[in->label] = in->size;
			if (done == 0) {
				fail(w, EIO);
				return;
			}
			put(w, done, 0);
			return;
		}
		put(w, op->len, 0);
		return;
	case OP_FSYNC:
	case OP_FDATASYNC:
		f = fd_of(m, op);
		if (f->state != 1) {
			fail(w, EBADF);
			return;
		}
		r = do_fsync(m, f, w);
		put(w, r ? -1 : 0, -r);
		return;
	case OP_SFR: {
		long long end;

		f = fd_of(m, op);
		if (f->state != 1) {
			fail(w, EBADF);
			return;
		}
		/* fs/sync.c sync_file_range() */
		if ((op->flags & ~7u) || op->off < 0 || op->len < 0 ||
		    __builtin_add_overflow(op->off, op->len, &end)) {
			fail(w, EINVAL);
			return;
		}
		r = 0;
		if (m->c.bug == BUG_SFR_ANY) {
			r = file_check_and_advance_wb_err(m, f, w);
		} else {
			if (op->flags & SFR_WAIT_BEFORE) {
				/* file_fdatawait_range() */
				r = file_check_and_advance_wb_err(m, f, w);
				if (r < 0)
					goto sfr_out;
			}
			if (op->flags & SFR_WRITE) {
				/* __filemap_fdatawrite_range(): no error check; a failed
				 * page's error is recorded at completion (scripts wait
				 * with WAIT_AFTER for it to land in this op) */
				long long last = op->len ? (op->off + op->len - 1) / PAGE : MAX_PAGES - 1;

				writeback(m, f->ino, op->off / PAGE, last, w);
				r = 0;
			}
			if (op->flags & SFR_WAIT_AFTER)
				r = file_check_and_advance_wb_err(m, f, w);
		}
sfr_out:
		put(w, r ? -1 : 0, -r);
		return;
	}
	case OP_SYNCFS:
		f = fd_of(m, op);
		if (f->state != 1) {
			fail(w, EBADF);
			return;
		}
		r = do_syncfs(m, f, w);
		put(w, r ? -1 : 0, -r);
		return;
	case OP_CLOSE:
		f = fd_of(m, op);
		if (f->state != 1) {
			f->state = 0;
			fail(w, EBADF);
			return;
		}
		/* filp_close(): ext2/ext4 have no ->flush; close returns 0 */
		f->state = 0;
		m->ino[f->ino].nopen--;
		inode_maybe_free(m, f->ino);
		put(w, 0, 0);
		return;
	case OP_UNLINK: {
		int i;

		if (!m->exists[op->file]) {
			fail(w, ENOENT);
			return;
		}
		m->exists[op->file] = 0;
		m->disk_fail[op->file] = 0;
		i = m->cached[op->file];
		m->cached[op->file] = -1;
		if (i >= 0) {
			m->ino[i].linked = 0;
			inode_maybe_free(m, i);
		}
		put(w, 0, 0);
		return;
	}
	case OP_EVICT:
		/* sync(); drop_caches=3: every unused inode goes (evict()),
		 * its mapping with its wb_err and flags. The patched kernel
		 * (kernel-port 0004) first keeps an unseen error in the
		 * superblock's record: inode_keep_wb_err() stores its errno and
		 * AS_EIO/AS_ENOSPC, and inode_restore_wb_err() gives them to the
		 * inode read in next for the file, errseq_set() on its fresh
		 * word: the counter starts again from 0. The model keeps the
		 * inode with that word; nothing else of it is observable. */
		writeback_all(m, w);
		/* drop_caches 1: clean pages of every inode leave the page cache */
		for (int i = 0; i < MAX_INODES; i++)
			memcpy(m->ino[i].cached, m->ino[i].dirty, sizeof(m->ino[i].cached));
		for (int fl = 0; fl < DT_MAX_FILES; fl++) {
			int i = m->cached[fl];
			errseq_t e;

			if (i < 0 || m->ino[i].nopen)
				continue;
			e = m->ino[i].wb_err;
			if (m->c.keep_unseen && (e & ERRSEQ_ERRNO_MASK) &&
			    !(e & ERRSEQ_SEEN_FLAG)) {
				errseq_t fresh = 0;

				errseq_set(&fresh, -(int)(e & ERRSEQ_ERRNO_MASK));
				m->ino[i].wb_err = fresh;
				continue;
			}
			m->ino[i].used = 0;
			m->cached[fl] = -1;
		}
		put(w, 0, 0);
		return;
	case OP_SYNC:
		/* ksys_sync(): writeback and wait with *_keep_errors: no reader */
		writeback_all(m, w);
		put(w, 0, 0);
		return;
	case OP_ERR_DATA: {
		int i;
		char obj[16];

		if (op->file >= 0) {
			if (!m->exists[op->file]) {
				fail(w, ENOENT);
				return;
			}
			i = inode_get(m, op->file);
		} else {
			f = fd_of(m, op);
			if (f->state != 1) {
				fail(w, EBADF);
				return;
			}
			i = f->ino;
		}
		snprintf(obj, sizeof(obj), "f%d", m->ino[i].label);
		mapping_set_error(m, &m->ino[i].wb_err, &m->ino[i].as, &m->s_wb_err, obj, w,
				  op->err);
		put(w, 0, 0);
		return;
	}
	case OP_ERR_META: {
		unsigned dummy = 0;

		/* fs/buffer.c mark_buffer_write_io_error() on a metadata buffer:
		 * mapping_set_error(bdev mapping) (whose host's sb is the bdev
		 * pseudo-fs: not ours), then on 6.1 errseq_set(&bd_super->s_wb_err).
		 * 6.12 has no bd_super: it sets s_wb_err only for a buffer on an
		 * inode's b_assoc_map list (fs/buffer.c:1220), so a metadata block's
		 * failure never reaches the superblock (scenarios/meta.dt, scn.meta). */
		mapping_set_error(m, &m->bdev_wb_err, m->c.bug == BUG_NO_AS_FLAGS ? &dummy : &m->bdev_as,
				  NULL, "bdev", w, op->err);
		if (m->c.bug != BUG_NO_SB_ERR && m->c.line == DT_LINE_6_1)
			errseq_set(&m->s_wb_err, -(m->c.bug == BUG_ENOSPC_AS_EIO && op->err == ENOSPC
						   ? EIO : op->err));
		/* ext4: the next journal write access (the guest makes one at
		 * once) runs ext4_check_bdev_write_error(), a reader that marks
		 * the bdev error SEEN (and logs an ext4 error). 6.12 runs it only
		 * without a journal (fs/ext4/ext4_jbd2.c:246); with one,
		 * jbd2_journal_get_write_access() sees the error instead
		 * (errseq_check, nothing marked SEEN) and aborts the journal
		 * (fs/jbd2/transaction.c:1226): the filesystem is shut down, and
		 * the model does not follow it past this op (m->cut). */
		if (is_ext4(m) && m->c.line == DT_LINE_6_12)
			m->cut = 1;
		else if (is_ext4(m))
			errseq_check_and_advance(&m->bdev_wb_err, &m->ext4_bdev_cursor);
		put(w, 0, 0);
		return;
	}
	case OP_FAIL: {
		struct m_inode *in;

		f = fd_of(m, op);
		if (f->state != 1) {
			fail(w, EBADF);
			return;
		}
		in = &m->ino[f->ino];
		/* FIEMAP_FLAG_SYNC: fiemap_prep() runs filemap_write_and_wait()
		 * first, whose filemap_check_errors() returns (and clears) the
		 * file's AS_EIO/AS_ENOSPC: then the ioctl fails and the guest
		 * changes no table. Else the extents of [0, size) go to a dm
		 * error target. */
		writeback(m, f->ino, 0, MAX_PAGES - 1, w);
		r = filemap_check_errors(&in->as);
		if (r) {
			fail(w, -r);
			return;
		}
		in->fail_pages = (int)((in->size + PAGE - 1) / PAGE);
		if (in->linked)
			m->disk_fail[in->label] = in->fail_pages;
		put(w, 0, 0);
		return;
	}
	case OP_HEAL:
		for (int i = 0; i < MAX_INODES; i++)
			m->ino[i].fail_pages = 0;
		memset(m->disk_fail, 0, sizeof(m->disk_fail));
		put(w, 0, 0);
		return;
	default:
		fail(w, EINVAL);
	}
}

/* ---- comparison ---- */

static int opres_equal(const struct dt_opres *a, const struct dt_opres *b, int which)
{
	if ((a->done & (1 << which)) != (b->done & (1 << which)))
		return 0;
	return a->ret[which] == b->ret[which] && a->err[which] == b->err[which];
}

static int trace_cmp(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* Compare trace events as multisets (par lines interleave them). */
static int trace_equal(const struct dt_opres *a, const struct dt_opres *b, int sorted)
{
	char x[DT_MAX_TRACE][DT_TRACE_LEN], y[DT_MAX_TRACE][DT_TRACE_LEN];

	if (a->ntr != b->ntr)
		return 0;
	memcpy(x, a->tr, sizeof(x));
	memcpy(y, b->tr, sizeof(y));
	if (sorted) {
		qsort(x, (size_t)a->ntr, DT_TRACE_LEN, trace_cmp);
		qsort(y, (size_t)b->ntr, DT_TRACE_LEN, trace_cmp);
	}
	for (int i = 0; i < a->ntr; i++)
		if (strcmp(x[i], y[i]))
			return 0;
	return 1;
}

/*
 * A "par" line's trace: as trace_equal(@pred, @obs), but when both threads
 * use one descriptor @obs may also hold, per cursor, one "adv"/"mdadv" event whose old and new words are equal, when
 * @pred advanced that cursor to that word.  It is the other thread of a race
 * in which both passed the lockless errseq_check() of
 * file_check_and_advance_wb_err() (or its md twin) before either took
 * f_lock: the second finds the cursor advanced, reports 0 and still emits the
 * tracepoint.  Its return values are those of a serial order.
 */
static int trace_equal_par(const struct dt_op *op, const struct dt_opres *pred,
			   const struct dt_opres *obs)
{
	char seen[DT_MAX_TRACE][DT_TRACE_LEN];
	struct dt_opres x = *obs;
	int nseen = 0;

	if (trace_equal(pred, obs, 1))
		return 1;
	/* two descriptors: two cursors, each checked by one thread only */
	if (op->sub[0].fd < 0 || op->sub[0].fd != op->sub[1].fd)
		return 0;
	for (int t = 0; t < x.ntr; t++) {
		char kind[8], label[32], key[DT_TRACE_LEN];
		unsigned int a, b;
		int ok = 0;

		if (sscanf(x.tr[t], "%7s %31s 0x%x 0x%x", kind, label, &a, &b) != 4 || a != b ||
		    (strcmp(kind, "adv") && strcmp(kind, "mdadv")))
			continue;
		/* the winning thread's advance of that cursor to that word */
		for (int k = 0; k < pred->ntr && !ok; k++) {
			char pk[8], pl[32];
			unsigned int pa, pb;

			ok = sscanf(pred->tr[k], "%7s %31s 0x%x 0x%x", pk, pl, &pa, &pb) == 4 &&
			     !strcmp(pk, kind) && !strcmp(pl, label) && pb == b && pa != pb;
		}
		/* at most one loser per cursor: a par line has two threads */
		snprintf(key, sizeof(key), "%s %s", kind, label);
		for (int u = 0; u < nseen && ok; u++)
			ok = strcmp(seen[u], key) != 0;
		if (!ok)
			continue;
		memcpy(seen[nseen++], key, sizeof(key));
		memmove(x.tr[t], x.tr[t + 1], (size_t)(x.ntr - t - 1) * DT_TRACE_LEN);
		x.ntr--;
		t--;
	}
	return nseen && trace_equal(pred, &x, 1);
}

/* @op writes dirty pages back (README: real errors), or one of a par line's does. */
static int writes_back(const struct dt_op *op)
{
	switch (op->code) {
	case OP_FSYNC: case OP_FDATASYNC: case OP_SYNCFS: case OP_SYNC: case OP_EVICT:
	case OP_FAIL:
		return 1;
	case OP_SFR:
		return !!(op->flags & SFR_WRITE);
	case OP_PAR:
		return writes_back(&op->sub[0]) || writes_back(&op->sub[1]);
	default:
		return 0;
	}
}

static int uses_fail(const struct dt_script *s)
{
	for (int i = 0; i < s->nops; i++)
		if (s->ops[i].code == OP_FAIL)
			return 1;
	return 0;
}

/*
 * The observed trace of op @op, without the set events of real writeback
 * failures on files (@real: the script uses "fail"), which are not compared
 * (see writeback()); every other event is.
 */
static void filter_obs(const struct dt_op *op, int real, const struct dt_opres *o,
		       struct dt_opres *out)
{
	int drop = real && writes_back(op);

	*out = *o;
	out->ntr = 0;
	for (int t = 0; t < o->ntr; t++)
		if (!drop || strncmp(o->tr[t], "set f", 5))
			memcpy(out->tr[out->ntr++], o->tr[t], DT_TRACE_LEN);
}

/* Append to @div's text; a text that would overflow is cut, never overrun. */
static void what_add(struct dt_divergence *div, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void what_add(struct dt_divergence *div, const char *fmt, ...)
{
	size_t o = strlen(div->what);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(div->what + o, sizeof(div->what) - o, fmt, ap);
	va_end(ap);
}

static void what_add_trace(struct dt_divergence *div, const struct dt_opres *r)
{
	for (int t = 0; t < r->ntr; t++)
		what_add(div, "%s%s", t ? ", " : "", r->tr[t]);
}

static void describe(const struct dt_script *s, int i, const struct dt_opres *exp,
		     const struct dt_opres *got, int trace, const char *note,
		     struct dt_divergence *div)
{
	char opt[300], e0[48], e1[48], g0[48], g1[48];

	if (!div || div->op >= 0)
		return;
	div->op = i;
	div->what[0] = 0;
	dt_op_format(&s->ops[i], opt, sizeof(opt));
	dt_opres_format(exp, 0, e0, sizeof(e0));
	dt_opres_format(got, 0, g0, sizeof(g0));
	what_add(div, "op %d (line %d) `%s`: model %s", i, s->ops[i].line, opt, e0);
	if (s->ops[i].code == OP_PAR) {
		dt_opres_format(exp, 1, e1, sizeof(e1));
		dt_opres_format(got, 1, g1, sizeof(g1));
		what_add(div, " ; %s, kernel %s ; %s%s", e1, g0, g1, note);
	} else {
		what_add(div, ", kernel %s", g0);
	}
	if (trace) {
		what_add(div, "; trace model [");
		what_add_trace(div, exp);
		what_add(div, "] kernel [");
		what_add_trace(div, got);
		what_add(div, "]");
	}
}

/*
 * A "par" line: the outcomes the model allows are the two orders, and, for
 * two syncfs() on one descriptor, the races of its two reporting channels
 * (below); trace_equal_par() admits a racing checker's no-op event.
 */
static int run_par(struct m_state *m, const struct dt_op *op, const struct dt_opres *obs,
		   struct dt_opres *pred, int trace, char *note, size_t notelen)
{
	struct m_state cand[4];
	struct dt_opres res[4];
	int n = 0, best;

	for (int order = 0; order < 2; order++) {
		struct out w0, w1;

		cand[n] = *m;
		memset(&res[n], 0, sizeof(res[n]));
		w0.o = &res[n];
		w0.which = order;
		w1.o = &res[n];
		w1.which = !order;
		step(&cand[n], &op->sub[order], &w0);
		step(&cand[n], &op->sub[!order], &w1);
		n++;
	}
	if (op->sub[0].code == OP_SYNCFS && op->sub[1].code == OP_SYNCFS &&
	    op->sub[0].fd == op->sub[1].fd && m->fd[op->sub[0].fd].state == 1) {
		/*
		 * syncfs() reports through two channels: sync_filesystem()'s
		 * test-and-clear of AS_EIO/AS_ENOSPC on the bdev mapping (one
		 * caller in the system gets it) and the f_sb_err cursor.  Racing,
		 * the flag can go to one thread and the cursor's report to the
		 * other, even with the cursor advanced under f_lock (0003): one
		 * metadata error, returned by both; syncfs_cursor_only (0014)
		 * takes the flags out of syncfs's result.  Unlocked (stock),
		 * both may also read the same f_sb_err and both report it.
		 */
		for (int first = 0; first < 2; first++) {
			struct m_state t = *m;
			struct m_fd *f = &t.fd[op->sub[0].fd];
			struct out wb = {&res[n], first};
			int fl[2], r2[2];

			memset(&res[n], 0, sizeof(res[n]));
			writeback_all(&t, &wb);
			fl[first] = filemap_check_errors(&t.bdev_as);
			if (m->c.syncfs_cursor_only)
				fl[first] = 0;
			fl[!first] = 0;
			r2[!first] = sb_errs(&t, f);
			/* locked: the other thread finds the cursor advanced */
			r2[first] = m->c.syncfs_locked ? 0 : r2[!first];
			for (int k = 0; k < 2; k++) {
				int r = fl[k] ? fl[k] : r2[k];

				res[n].ret[k] = r ? -1 : 0;
				res[n].err[k] = -r;
				res[n].done |= 1 << k;
			}
			cand[n] = t;
			n++;
		}
	}
	if (m->c.md_cursor && (op->sub[0].code == OP_FSYNC || op->sub[0].code == OP_FDATASYNC) &&
	    (op->sub[1].code == OP_FSYNC || op->sub[1].code == OP_FDATASYNC) &&
	    op->sub[0].fd == op->sub[1].fd && m->fd[op->sub[0].fd].state == 1) {
		/*
		 * Two fsyncs on one descriptor check two cursors, f_wb_err then
		 * f_md_wb_err, each advanced under f_lock: one thread can win
		 * the data cursor and the other the metadata cursor, so a data
		 * and a metadata error go one to each thread (each reported
		 * once, as the contract asks).  Modelled as the winner of the
		 * data cursor running without its metadata check.
		 */
		for (int first = 0; first < 2; first++) {
			struct out w0 = {&res[n], first}, w1 = {&res[n], !first};

			cand[n] = *m;
			memset(&res[n], 0, sizeof(res[n]));
			cand[n].c.md_cursor = 0;
			step(&cand[n], &op->sub[first], &w0);
			cand[n].c.md_cursor = 1;
			step(&cand[n], &op->sub[!first], &w1);
			n++;
		}
	}
	for (int k = 0; k < n; k++) {
		if (!obs || (opres_equal(&res[k], obs, 0) && opres_equal(&res[k], obs, 1) &&
			     (!trace || trace_equal_par(op, &res[k], obs)))) {
			*m = cand[k];
			*pred = res[k];
			return 0;
		}
	}
	/* show the outcome with the kernel's results, if one has them */
	for (best = 0; best < n && !(opres_equal(&res[best], obs, 0) &&
				      opres_equal(&res[best], obs, 1)); best++)
		;
	if (best < n)
		snprintf(note, notelen, " (the allowed outcome with the kernel's results, of %d; "
			 "only the trace differs)", n);
	else
		snprintf(note, notelen, " (the first of %d allowed outcomes; none has the kernel's "
			 "results)", n);
	best = best < n ? best : 0;
	*m = cand[best];
	*pred = res[best];
	return 1;
}

static int has_results(const struct dt_op *op, const struct dt_opres *o)
{
	int want = op->code == OP_PAR ? 3 : 1;

	return (o->done & want) == want;
}

/* Where a block without "DT E" was cut: its last op with any output. */
static int cut_at(const struct dt_script *s, const struct dt_sresult *obs)
{
	int last = 0;

	if (obs->complete)
		return s->nops;
	for (int i = 0; i < obs->nops && i < s->nops; i++)
		if (obs->ops[i].done || obs->ops[i].ntr)
			last = i;
	return last;
}

/* Op @i lacks results (or, in a cut log, may have lost some). */
static void describe_missing(const struct dt_script *s, int i, const struct dt_sresult *obs,
			     struct dt_divergence *div)
{
	char opt[300];

	if (!div || div->op >= 0)
		return;
	div->op = i;
	div->incomplete = !obs->complete;
	dt_op_format(&s->ops[i], opt, sizeof(opt));
	snprintf(div->what, sizeof(div->what), "%s op %d (line %d) `%s`%s%s%s",
		 obs->complete ? "no result from the guest for" :
		 "guest did not finish the script: its results end at", i, s->ops[i].line, opt,
		 obs->fail[0] ? " (guest: " : "", obs->fail, obs->fail[0] ? ")" : "");
}

/*
 * Op @i has more trace events than DT_MAX_TRACE (the guest's or the model's):
 * the dropped ones cannot be compared, so the script is not judged; like a
 * cut log, that is no divergence of the kernel.
 */
static void describe_lost(const struct dt_script *s, int i, const char *who, int lost,
			  struct dt_divergence *div)
{
	char opt[300];

	if (!div || div->op >= 0)
		return;
	div->op = i;
	div->incomplete = 1;
	dt_op_format(&s->ops[i], opt, sizeof(opt));
	snprintf(div->what, sizeof(div->what),
		 "%s dropped %d trace event(s) of op %d (line %d) `%s` past %d: not comparable",
		 who, lost, i, s->ops[i].line, opt, DT_MAX_TRACE);
}

int dt_model_run(const struct dt_contract *c, enum dt_fs fs, const struct dt_script *s,
		 const struct dt_sresult *obs, struct dt_sresult *pred, struct dt_divergence *div)
{
	struct m_state *m = malloc(sizeof(*m));
	struct dt_sresult local;
	int ndiv = 0, trace = obs ? obs->trace : 1, cut = obs ? cut_at(s, obs) : s->nops;
	int real = uses_fail(s);

	if (!m)
		abort();
	state_init(m, c, fs);
	if (!pred)
		pred = &local;
	dt_sresult_init(pred, s->name, s->nops);
	pred->trace = trace;
	pred->complete = 1;
	if (div) {
		div->op = -1;
		div->incomplete = 0;
		div->what[0] = 0;
		div->cut_op = -1;
		div->cut_why[0] = 0;
	}
	for (int i = 0; i < s->nops; i++) {
		const struct dt_op *op = &s->ops[i];
		struct dt_opres *p = &pred->ops[i];
		static const struct dt_opres none;
		struct dt_opres ofilt;
		const struct dt_opres *o = NULL;
		char note[96];
		int bad;

		if (obs) {
			filter_obs(op, real, i < obs->nops ? &obs->ops[i] : &none, &ofilt);
			o = &ofilt;
		}
		note[0] = 0;
		if (op->code == OP_PAR) {
			bad = run_par(m, op, o, p, trace, note, sizeof(note));
		} else {
			struct out w = {p, 0};

			step(m, op, &w);
			bad = o && (!opres_equal(p, o, 0) || (trace && !trace_equal(p, o, 0)));
		}
		if (m->cut && div && i + 1 < s->nops) {
			div->cut_op = i + 1;
			snprintf(div->cut_why, sizeof(div->cut_why),
				 "ext4 journal aborted after a metadata error (linux=6.12)");
		}
		if (o && trace && (o->tr_lost || p->tr_lost)) {
			ndiv++;
			describe_lost(s, i, o->tr_lost ? "guest" : "model",
				      o->tr_lost ? o->tr_lost : p->tr_lost, div);
		} else if (o && (!has_results(op, o) || (bad && i >= cut))) {
			ndiv++;
			describe_missing(s, i, obs, div);
		} else if (bad) {
			ndiv++;
			describe(s, i, p, o, trace, note, div);
		}
		if (m->cut)
			break;
	}
	if (obs && !obs->complete && !ndiv) {
		ndiv++;
		if (div) {
			div->op = s->nops;
			div->incomplete = 1;
			snprintf(div->what, sizeof(div->what), "guest did not finish the script%s%s",
				 obs->fail[0] ? ": " : " (no 'DT E')", obs->fail);
		}
	}
	if (pred == &local)
		dt_sresult_free(&local);
	free(m);
	return ndiv;
}
