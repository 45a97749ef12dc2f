// SPDX-License-Identifier: GPL-2.0
/*
 * The contract checker: see judge.h, and difftest/doc/judge.md for the contract it
 * checks. It walks the script once, op by op, over the set of states the ops seen so
 * far allow (one state, but after a "par" line, whose two ops and whose errors may
 * have come in any order). A state says, per open file description, what it is owed
 * and what it may still be told, per inode what no sync call has reported yet.
 */
#define _GNU_SOURCE
#include "judge.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A set of errnos, for messages: bit E for E < 62, bit 62 any larger one, bit 63 "an
 * error" (a real failure, whose errno the trace does not give). */
typedef uint64_t jmask;
#define J_ANY (1ULL << 63)

static jmask bit(int err)
{
	return err > 0 && err < 62 ? 1ULL << err : 1ULL << 62;
}

/* Inodes: the raw block device, the filesystem's block device, the test directory,
 * then the files the script makes. */
#define J_INO_RAW 0
#define J_INO_DEV 1
#define J_INO_DIR 2
#define J_INO_FIRST 3
#define J_INO_GONE (-2) /* an event's inode that left (no name, no description) */
#define J_MAX_INO (J_INO_FIRST + DT_MAX_FILES + DT_MAX_FDS + 1)
#define J_MAX_STATES 128
#define J_MAX_EV 256

/* A set of errors (events), by their index in jstate.ev[] */
struct jbits {
	uint64_t w[J_MAX_EV / 64];
};

static void b_set(struct jbits *b, int i)
{
	b->w[i / 64] |= 1ULL << (i % 64);
}

static int b_has(const struct jbits *b, int i)
{
	return (int)(b->w[i / 64] >> (i % 64)) & 1;
}

static int b_any(const struct jbits *b)
{
	for (size_t k = 0; k < sizeof(b->w) / sizeof(b->w[0]); k++)
		if (b->w[k])
			return 1;
	return 0;
}

/* A description's two channels: its file's (fsync and the calls like it, of a file, the
 * directory, the filesystem's block device or the raw one) and the filesystem's (syncfs) */
enum { CH_FILE, CH_FS, CH_N };

/* Who has been told of an error: an fsync-like call of a file or the directory, syncfs,
 * of the filesystem's block device, of the raw one */
#define SEEN_FILE 1u
#define SEEN_FS 2u
#define SEEN_DEV 4u
#define SEEN_RAW 8u

/* One error: an injection, or a failure the trace recorded */
struct jev {
	signed char ino;        /* a data error's inode (J_INO_GONE once it left); -1: metadata */
	unsigned char fsdata;   /* a data error of a file or the directory */
	unsigned char seen;     /* SEEN_*: the channels that have reported it to someone */
	unsigned char dead;     /* from before the last mount */
	unsigned char evicted;  /* unseen when its inode left memory (opts.evict_forgets) */
	unsigned char pad[3];
	jmask err;              /* its errno, for messages */
};

struct jdesc {
	signed char ino;        /* -1: no description */
	unsigned char flags;    /* OPEN_* */
	struct jbits owed[CH_N]; /* errors its next sync call of the channel must report */
	struct jbits may[CH_N];  /* errors it may be told, once */
	struct jbits told[CH_N]; /* errors it was told */
};

struct jino {
	unsigned char used, nnames;
	unsigned char labels;   /* bit N: the trace names it fN */
	unsigned char pad;
};

struct jstate {
	signed char fd[DT_MAX_FDS];      /* descriptor -> description, -1 */
	signed char name[DT_MAX_FILES];  /* fN -> inode, -1 */
	struct jdesc d[DT_MAX_FDS];
	struct jino ino[J_MAX_INO];
	unsigned char meta_failed;       /* a metadata write failed: the filesystem may stop */
	unsigned char real;              /* a fail of a file's extents worked: from then on a
					    write may fail with an EIO of its own */
	unsigned char overflow;          /* more than J_MAX_EV errors */
	unsigned char dir_told;          /* a new name has failed with the directory's error */
	unsigned char rdonly;            /* a remount read-only worked (no cycle since) */
	jmask dir_errs;                  /* the errnos injected into the directory */
	short nev;
	struct jev ev[J_MAX_EV];
};

struct jctx {
	const struct dt_judge_opts *o;
	jmask injected;    /* the errnos the script injects: never a call's own error */
	int bad;
	enum dt_judge_kind kind;
	char why[160];
};

static void __attribute__((format(printf, 3, 4)))
violation(struct jctx *c, enum dt_judge_kind k, const char *fmt, ...)
{
	va_list ap;

	if (c->bad++)
		return;
	c->kind = k;
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
}

/* The errnos of the errors in @b, for messages */
static const char *errs(const struct jstate *st, const struct jbits *b, char *buf, size_t len)
{
	jmask m = 0;
	size_t n = 0;
	char e[24];

	for (int i = 0; i < st->nev; i++)
		if (b_has(b, i))
			m |= st->ev[i].err;
	buf[0] = '\0';
	for (int i = 1; i < 64 && n < len; i++) {
		if (!(m & (1ULL << i)))
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "|" : "",
				      i == 63 ? "an error" : i == 62 ? "an errno>61" :
				      dt_errname(i, e, sizeof(e)));
	}
	return buf;
}

const char *dt_judge_kind_name(enum dt_judge_kind k)
{
	static const char *const n[] = {"lost", "repeat", "invented"};

	return n[k];
}

/* ---- the state ---- */

static int is_fs_ino(int ino)
{
	return ino >= J_INO_FIRST || ino == J_INO_DIR;
}

/* The channel a description's slot @ch reports on (SEEN_*) */
static unsigned chan(int ino, int ch)
{
	if (ch == CH_FS)
		return SEEN_FS;
	return ino == J_INO_DEV ? SEEN_DEV : ino == J_INO_RAW ? SEEN_RAW : SEEN_FILE;
}

/* What error @e is to a description of inode @ino on its channel @ch: 0 nothing, 1 it
 * may be told, 2 it must be (doc/judge.md, rules 1 and 5, and what each filesystem is) */
static int concerns(const struct jctx *c, const struct jev *e, int ino, int ch)
{
	if (ch == CH_FS)
		return is_fs_ino(ino) && (e->fsdata || e->ino == -1) ? 2 : 0;
	if (ino == J_INO_DEV)
		return e->ino == -1 ? 2 : 0;
	if (ino == J_INO_RAW)
		return e->ino == J_INO_RAW ? 2 : 0;
	if (e->ino == -1)
		return 1; /* a metadata error: no file owns it */
	if (e->ino != ino)
		return 0;
	if (ino == J_INO_DIR && !c->o->dir_pagecache)
		return 1;
	return c->o->no_writeback ? 1 : 2;
}

static void ino_gc(struct jstate *st, int ino)
{
	if (ino < J_INO_FIRST || st->ino[ino].nnames)
		return;
	for (int k = 0; k < DT_MAX_FDS; k++)
		if (st->d[k].ino == ino)
			return;
	memset(&st->ino[ino], 0, sizeof(st->ino[ino]));
	/* nobody can open it again; its number may serve another file */
	for (int i = 0; i < st->nev; i++)
		if (st->ev[i].ino == ino)
			st->ev[i].ino = J_INO_GONE;
}

static int ino_new(struct jstate *st, int file)
{
	for (int i = J_INO_FIRST; i < J_MAX_INO; i++)
		if (!st->ino[i].used) {
			memset(&st->ino[i], 0, sizeof(st->ino[i]));
			st->ino[i].used = 1;
			st->ino[i].labels = (unsigned char)(1u << file);
			return i;
		}
	return -1; /* cannot happen: 8 names and 16 descriptions hold at most 24 */
}

static void desc_close(struct jstate *st, int fd)
{
	int k = st->fd[fd], ino;

	if (k < 0)
		return;
	st->fd[fd] = -1;
	for (int i = 0; i < DT_MAX_FDS; i++)
		if (st->fd[i] == k)
			return;
	ino = st->d[k].ino;
	memset(&st->d[k], 0, sizeof(st->d[k]));
	st->d[k].ino = -1;
	ino_gc(st, ino);
}

static struct jdesc *desc_of(struct jstate *st, int fd)
{
	if (fd < 0 || st->fd[fd] < 0)
		return NULL;
	return &st->d[(int)st->fd[fd]];
}

/* What a description of @ino opened now is owed and may be told (rule 1: an error no
 * channel has reported is owed; one another channel has, or one its filesystem could
 * not keep, may be told; one this channel has reported to someone, never again) */
static void desc_init(const struct jctx *c, const struct jstate *st, struct jdesc *d, int ino)
{
	for (int ch = 0; ch < CH_N; ch++)
		for (int i = 0; i < st->nev; i++) {
			const struct jev *e = &st->ev[i];
			int how = concerns(c, e, ino, ch);

			if (!how || (e->seen & chan(ino, ch)))
				continue;
			if (e->dead && ino != J_INO_DEV && ino != J_INO_RAW)
				continue; /* rule 4: an error from before the mount */
			/* eviction forgets an inode's error (vfat, exfat), not the
			 * superblock's (syncfs) */
			if (e->seen || (e->evicted && ch == CH_FILE) || e->dead ||
			    (ino == J_INO_DEV && c->o->reads_dev))
				how = 1;
			b_set(how == 2 ? &d->owed[ch] : &d->may[ch], i);
		}
}

/* A new error: what every open description is owed or may be told (rules 1, 5) */
static void error_add(struct jctx *c, struct jstate *st, int ino, jmask m)
{
	struct jev *e;
	int i;

	if (st->nev == J_MAX_EV) {
		st->overflow = 1;
		return;
	}
	i = st->nev++;
	e = &st->ev[i];
	memset(e, 0, sizeof(*e));
	e->ino = (signed char)ino;
	e->fsdata = ino == J_INO_GONE || (ino >= 0 && is_fs_ino(ino));
	e->err = m;
	if (ino == -1)
		st->meta_failed = 1;
	for (int k = 0; k < DT_MAX_FDS; k++)
		for (int ch = 0; ch < CH_N; ch++) {
			struct jdesc *d = &st->d[k];
			int how = d->ino >= 0 ? concerns(c, e, d->ino, ch) : 0;

			if (how)
				b_set(how == 2 ? &d->owed[ch] : &d->may[ch], i);
		}
}

/* ---- the sync calls ---- */

/* A stopped filesystem (opts.stops, after a metadata error) fails every sync call */
static int stopped(const struct jctx *c, const struct jstate *st, int ino, int err)
{
	return c->o->stops && st->meta_failed && is_fs_ino(ino) && (err == EIO || err == EROFS);
}

/* An error of the call's own, not a report: unless the script injects that errno */
static int own_cause(const struct jctx *c, int err)
{
	return (err == EBADF || err == EINVAL || err == EOPNOTSUPP || err == ENOSYS ||
		err == ENODEV || err == EACCES || err == EPERM) && !(c->injected & bit(err));
}

/* A sync call of description @d on its channel @ch: @must, it must report what is owed;
 * @data_only, it reports data errors only (sync_file_range: a file's, never metadata).
 * A failed write's error of its own is the other way run_seq() follows. */
static void sync_call(struct jctx *c, struct jstate *st, struct jdesc *d, int ch, long ret,
		      int err, int must, int data_only)
{
	struct jbits owed = d->owed[ch], any = {{0}};
	unsigned seen = chan(d->ino, ch);
	int told = 0;
	char b[96], e[24];

	for (int i = 0; i < st->nev; i++) {
		int meta = st->ev[i].ino == -1 && is_fs_ino(d->ino);

		if (data_only && meta) {
			owed.w[i / 64] &= ~(1ULL << (i % 64));
			continue;
		}
		if (b_has(&d->owed[ch], i) || b_has(&d->may[ch], i))
			b_set(&any, i);
	}
	if (ret >= 0) {
		if (must && b_any(&owed)) {
			violation(c, DT_JUDGE_LOST, "%sreturned %ld; owed %s",
				  ch == CH_FS ? "syncfs " : "", ret, errs(st, &owed, b, sizeof(b)));
			/* a later report is late, not a repeat */
			for (size_t k = 0; k < sizeof(owed.w) / sizeof(owed.w[0]); k++) {
				d->may[ch].w[k] |= owed.w[k];
				d->owed[ch].w[k] &= ~owed.w[k];
			}
		}
		return;
	}
	if (own_cause(c, err))
		return;
	if (b_any(&any)) {
		/* one report tells of all it had: the errors are seen on this channel */
		for (int i = 0; i < st->nev; i++)
			if (b_has(&any, i))
				st->ev[i].seen |= (unsigned char)seen;
		for (size_t k = 0; k < sizeof(any.w) / sizeof(any.w[0]); k++) {
			d->told[ch].w[k] |= any.w[k];
			d->owed[ch].w[k] &= ~any.w[k];
			d->may[ch].w[k] &= ~any.w[k];
		}
		return;
	}
	if (stopped(c, st, d->ino, err))
		return;
	told = b_any(&d->told[ch]);
	for (int i = 0; i < st->nev && !told; i++)
		told = (st->ev[i].seen & seen) && !st->ev[i].dead &&
		       concerns(c, &st->ev[i], d->ino, ch);
	if (told)
		violation(c, DT_JUDGE_REPEAT, "%sreported %s again", ch == CH_FS ? "syncfs " : "",
			  dt_errname(err, e, sizeof(e)));
	else
		violation(c, DT_JUDGE_INVENTED, "%sreported %s; none owed",
			  ch == CH_FS ? "syncfs " : "", dt_errname(err, e, sizeof(e)));
}

/* fsync of the test directory through a description of its own */
static void sync_dir(struct jctx *c, struct jstate *st, long ret, int err)
{
	struct jdesc d;

	memset(&d, 0, sizeof(d));
	d.ino = J_INO_DIR;
	desc_init(c, st, &d, J_INO_DIR);
	sync_call(c, st, &d, CH_FILE, ret, err, 1, 0);
}

/* ---- the ops ---- */

static void op_open(struct jctx *c, struct jstate *st, const struct dt_op *op, long ret)
{
	struct jdesc *d;
	int ino, k;

	if (ret < 0)
		return;
	if (op->file == DT_FILE_RAW) {
		ino = J_INO_RAW;
	} else if (op->file == DT_FILE_DEV) {
		ino = J_INO_DEV;
	} else if (op->file == DT_FILE_DIR) {
		ino = J_INO_DIR;
	} else {
		ino = st->name[op->file];
		if (ino < 0) {
			ino = ino_new(st, op->file);
			if (ino < 0)
				return;
			st->name[op->file] = (signed char)ino;
			st->ino[ino].nnames = 1;
		}
		/* vfat and exfat number an inode anew when it is read in: the
		 * trace then names it after the name it is opened through; other
		 * filesystems keep the number, and the name it was made under */
		if (c->o->evict_forgets)
			st->ino[ino].labels |= (unsigned char)(1u << op->file);
	}
	for (k = 0; k < DT_MAX_FDS && st->d[k].ino >= 0; k++)
		;
	if (k == DT_MAX_FDS)
		return;
	desc_close(st, op->fd);
	st->fd[op->fd] = (signed char)k;
	d = &st->d[k];
	memset(d, 0, sizeof(*d));
	d->ino = (signed char)ino;
	d->flags = (unsigned char)op->flags;
	desc_init(c, st, d, ino);
}

/*
 * A new name (open ... creat of a name no op has shown) changes the directory: it may
 * fail of its own write only. Failing with an error the directory's write-back
 * recorded before (EIO, its AS flag's; or the errno it was given) is a report on no sync call's
 * channel, of an error the change did not cause, and the filesystem undoes a change
 * that is written (ext2: an entry on disk whose inode is freed). Not judged where the
 * change could fail of its own: a fail of a file's extents worked (real I/O errors), a
 * stopped filesystem.
 */
static void new_name(struct jctx *c, struct jstate *st, const struct dt_op *op, long ret,
		     int err)
{
	char e[24];

	if (ret >= 0 || !(op->flags & OPEN_CREAT) || op->file >= DT_MAX_FILES ||
	    st->name[op->file] >= 0 || st->real || stopped(c, st, J_INO_DIR, err))
		return;
	/* EIO (the mapping's AS_EIO stands for any errno but ENOSPC) or an errno the
	 * directory was given; not the mount's EROFS */
	if (!st->dir_errs || (err != EIO && !(st->dir_errs & bit(err))) ||
	    (err == EROFS && st->rdonly))
		return;
	if (st->dir_told)
		violation(c, DT_JUDGE_REPEAT, "a new name failed again with %s, the directory's "
			  "earlier write-back error", dt_errname(err, e, sizeof(e)));
	else
		violation(c, DT_JUDGE_INVENTED, "a new name failed with %s, the directory's "
			  "earlier write-back error, not its own", dt_errname(err, e, sizeof(e)));
	st->dir_told = 1;
}

static void name_drop(struct jstate *st, int file)
{
	int ino = st->name[file];

	if (ino < 0)
		return;
	st->name[file] = -1;
	st->ino[ino].nnames--;
	ino_gc(st, ino);
}

/* @own: the op's error is its own, not a report (an O_SYNC write that failed before
 * generic_write_sync(), a stopped filesystem's refusal of a sync call: two_ways()) */
static void op_step(struct jctx *c, struct jstate *st, const struct dt_op *op, long ret, int err,
		    int own)
{
	struct jdesc *d = desc_of(st, op->fd);
	int ino, must = d && !(c->o->no_writeback && is_fs_ino(d->ino));

	switch (op->code) {
	case OP_OPEN:
		new_name(c, st, op, ret, err);
		op_open(c, st, op, ret);
		break;
	case OP_CLOSE:
		desc_close(st, op->fd);
		break;
	case OP_DUP:
		if (ret >= 0 && d) {
			desc_close(st, op->fd2);
			st->fd[op->fd2] = st->fd[op->fd];
		}
		break;
	case OP_WRITE:
		/* generic_write_sync() after a write of at least one byte */
		if (d && (d->flags & (OPEN_SYNC | OPEN_DSYNC)) && op->len > 0 && !(own && ret < 0))
			sync_call(c, st, d, CH_FILE, ret, err, must, 0);
		break;
	case OP_FSYNC:
	case OP_FDATASYNC:
		if (d && !own)
			sync_call(c, st, d, CH_FILE, ret, err, must, 0);
		break;
	case OP_MSYNC:
		if (d && (op->flags & MSYNC_SYNC) && !own)
			sync_call(c, st, d, CH_FILE, ret, err, must, 0);
		break;
	case OP_SFR:
		if (d && (op->flags & (SFR_WAIT_BEFORE | SFR_WAIT_AFTER)) && !own)
			sync_call(c, st, d, CH_FILE, ret, err, 0, 1);
		break;
	case OP_SYNCFS:
		/* a block device's syncfs: the bdev pseudo-filesystem's, not judged */
		if (d && is_fs_ino(d->ino) && !own)
			sync_call(c, st, d, CH_FS, ret, err, 1, 0);
		break;
	case OP_FSYNCDIR:
		sync_dir(c, st, ret, err);
		break;
	case OP_UNLINK:
		if (ret == 0)
			name_drop(st, op->file);
		break;
	case OP_LINK:
		if (ret == 0 && st->name[op->file] >= 0) {
			ino = st->name[op->file];
			name_drop(st, op->file2);
			st->name[op->file2] = (signed char)ino;
			st->ino[ino].nnames++;
		}
		break;
	case OP_RENAME:
		if (ret == 0 && st->name[op->file] >= 0 && st->name[op->file] != st->name[op->file2]) {
			ino = st->name[op->file];
			name_drop(st, op->file2);
			st->name[op->file2] = (signed char)ino;
			st->name[op->file] = -1;
		}
		break;
	case OP_ERR_DATA:
		if (ret != 0)
			break; /* not injected (tmpfs has no block device: ENOTBLK, 15) */
		ino = op->fd >= 0 ? (d ? d->ino : -1) : st->name[op->file];
		if (ino < 0 && op->fd < 0) {
			/* the name exists: a failed open made it (tmpfs refuses O_DIRECT
			 * after creating the file) */
			ino = ino_new(st, op->file);
			if (ino >= 0) {
				st->name[op->file] = (signed char)ino;
				st->ino[ino].nnames = 1;
			}
		}
		if (ino >= 0)
			error_add(c, st, ino, bit(op->err));
		if (ino == J_INO_DIR)
			st->dir_errs |= bit(op->err);
		break;
	case OP_ERR_META:
		if (ret == 0)
			error_add(c, st, -1, bit(op->err));
		break;
	case OP_CYCLE:
		/* rule 4: what the old mount did not report is nobody's now */
		for (int i = 0; i < st->nev; i++)
			if (st->ev[i].ino != J_INO_RAW) /* the raw device is not remounted */
				st->ev[i].dead = 1;
		st->meta_failed = 0; /* a new mount has not stopped */
		st->rdonly = 0;
		break;
	case OP_EVICT:
		/* no identity to keep an evicted inode's error by (vfat, exfat): a
		 * later opener may be told, need not */
		if (c->o->evict_forgets)
			for (int i = 0; i < st->nev; i++) {
				struct jev *e = &st->ev[i];
				int open = 0;

				for (int k = 0; k < DT_MAX_FDS; k++)
					open |= e->ino >= J_INO_FIRST && st->d[k].ino == e->ino;
				if (e->ino >= J_INO_FIRST && !open && !e->seen)
					e->evicted = 1;
			}
		break;
	case OP_FAIL:
		/* a file's extents under the dm error target (not the raw device's: no
		 * write to a file fails of it; not where FIEMAP failed) */
		if (ret == 0 && d && is_fs_ino(d->ino))
			st->real = 1;
		break;
	case OP_REMOUNT:
		if (ret == 0)
			st->rdonly = !!(op->flags & REMOUNT_RO);
		break;
	case OP_CHILD:
		op_step(c, st, &op->sub[0], ret, err, own);
		break;
	default:
		break;
	}
}

/* ---- the trace's errors ---- */

/* The inode a trace object names, -1: none the script knows. */
/* The inode a trace object names: J_INO_GONE for one the script does not know (an
 * "inoNNN", a file no name of the script leads to: its error is still the
 * filesystem's), -3 when two live inodes carry the label (a name unlinked or renamed
 * away while open, and made again: the trace cannot say which). */
static int trace_ino(const struct jstate *st, const char *obj)
{
	int n, found = -1;

	if (!strcmp(obj, "bdev"))
		return J_INO_DEV;
	if (!strcmp(obj, "raw"))
		return J_INO_RAW;
	if (!strcmp(obj, "dir"))
		return J_INO_DIR;
	if (obj[0] != 'f' || obj[1] < '0' || obj[1] > '7' || obj[2])
		return J_INO_GONE;
	n = obj[1] - '0';
	for (int i = J_INO_FIRST; i < J_MAX_INO; i++)
		if (st->ino[i].used && (st->ino[i].labels & (1u << n))) {
			if (found >= 0)
				return -3;
			found = i;
		}
	return found >= 0 ? found : J_INO_GONE;
}

/* The trace's "set" events of an op: errors recorded while it ran. An injection's own
 * event ("error data": its inode's, "error meta": bdev's; @own) is not another error. */
struct jevents {
	int n;
	char obj[DT_MAX_TRACE][16];
};

/* Whether trace object @obj names inode @ino (J_INO_DEV: "bdev"). The guest labels an
 * inode after the name it was created under (or first seen through): any of its labels. */
static int names_ino(const struct jstate *st, const char *obj, int ino)
{
	if (ino == J_INO_DEV)
		return !strcmp(obj, "bdev");
	if (ino == J_INO_RAW)
		return !strcmp(obj, "raw");
	if (ino == J_INO_DIR)
		return !strcmp(obj, "dir");
	return ino >= J_INO_FIRST && obj[0] == 'f' && obj[1] >= '0' && obj[1] <= '7' && !obj[2] &&
	       (st->ino[ino].labels & (1u << (obj[1] - '0')));
}

static void events_of(const struct jstate *st, const struct dt_opres *o, int own,
		      struct jevents *ev)
{
	ev->n = 0;
	for (int t = 0; t < o->ntr; t++) {
		char obj[16];

		if (sscanf(o->tr[t], "set %15s", obj) != 1)
			continue;
		if (own != -1 && names_ino(st, obj, own)) {
			own = -1;
			continue;
		}
		snprintf(ev->obj[ev->n++], sizeof(ev->obj[0]), "%s", obj);
	}
}

static void events_apply(struct jctx *c, struct jstate *st, const struct jevents *ev)
{
	for (int i = 0; i < ev->n; i++) {
		int ino = trace_ino(st, ev->obj[i]);

		if (ino == -3)
			continue; /* dt_judge() stops before: not judged */
		if (ino == J_INO_DEV)
			error_add(c, st, -1, J_ANY);
		else
			error_add(c, st, ino, J_ANY);
	}
}

/* The inode an injection of @op records its error on (J_INO_DEV: "error meta"); -1: none.
 * A file not known yet (a failed open made it) has no label to match: -1. */
static int own_event(const struct jstate *st, const struct dt_op *op)
{
	const struct dt_op *x = op;

	if (op->code == OP_PAR)
		x = op->sub[0].code == OP_ERR_META || op->sub[0].code == OP_ERR_DATA ?
			    &op->sub[0] : &op->sub[1];
	if (x->code == OP_ERR_META)
		return J_INO_DEV;
	if (x->code != OP_ERR_DATA)
		return -1;
	if (x->fd >= 0)
		return st->fd[x->fd] >= 0 ? st->d[(int)st->fd[x->fd]].ino : -1;
	return st->name[x->file];
}

/* ---- the walk ---- */

struct jset {
	int n;
	struct jstate *s;
};

static int set_add(struct jset *set, const struct jstate *st)
{
	for (int i = 0; i < set->n; i++)
		if (!memcmp(&set->s[i], st, sizeof(*st)))
			return 0;
	if (set->n == J_MAX_STATES)
		return -1;
	memcpy(&set->s[set->n++], st, sizeof(*st));
	return 0;
}

/*
 * Whether sub-op @op's result (@ret, @err) may be an error of its own rather than a
 * report, so that both are followed: a write, O_SYNC or not, that failed (ENOSPC...;
 * EIO only once a fail of a file's extents worked); on a stopped filesystem
 * (opts.stops), an error its file channel returns before it looks at the cursor: ext4
 * 6.12's shutdown test at the top of ext4_sync_file() (fsync, fdatasync, msync: EIO)
 * and of ext4_file_write_iter() (an O_SYNC write: EIO), and ext4_writepages()'s under
 * sync_file_range's WRITE when no WAIT_BEFORE came first (EIO, or EROFS from the first
 * handle after the abort). Not syncfs (it advances f_sb_err after sync_filesystem()
 * whatever that returned), not fsync's EROFS (its write-out failed inside
 * file_write_and_wait_range(), which then advanced the cursor), not a WAIT_BEFORE
 * (file_fdatawait_range() first).
 */
static int two_ways(const struct jctx *c, const struct jstate *st, const struct dt_op *op,
		    long ret, int err)
{
	const struct jdesc *d;

	if (op->code == OP_CHILD)
		op = &op->sub[0];
	if (op->code == OP_WRITE && ret < 0 && (err != EIO || st->real))
		return 1;
	if (ret >= 0 || op->fd < 0 || st->fd[op->fd] < 0)
		return 0;
	d = &st->d[(int)st->fd[op->fd]];
	switch (op->code) {
	case OP_WRITE:
	case OP_FSYNC:
	case OP_FDATASYNC:
	case OP_MSYNC:
		return err == EIO && stopped(c, st, d->ino, err);
	case OP_SFR:
		return (op->flags & SFR_WRITE) && !(op->flags & SFR_WAIT_BEFORE) &&
		       stopped(c, st, d->ino, err);
	default:
		return 0;
	}
}

/* How many ways op @op may have run from @st (run_seq()'s @seq from 0 to that) */
static int nways(const struct jctx *c, const struct jstate *st, const struct dt_op *op,
		 const struct dt_opres *o)
{
	if (op->code != OP_PAR)
		return two_ways(c, st, op, o->ret[0], o->err[0]) ? 2 : 1;
	return 4 << (two_ways(c, st, &op->sub[0], o->ret[0], o->err[0]) +
		     two_ways(c, st, &op->sub[1], o->ret[1], o->err[1]));
}

/* One way op @op may have run from @from into @to: 0, or -1 where that way cannot
 * have been. A par line's two ops, in either order (not a close before an op on its
 * descriptor that did not fail EBADF), and its errors, recorded before both or between
 * them (not after both: each op waits for the write-back it starts); a failed write,
 * a report or its own error. */
static int run_seq(struct jctx *c, const struct jstate *from, struct jstate *to,
		   const struct dt_op *op, const struct dt_opres *o, const struct jevents *ev,
		   int seq)
{
	int a, between, own[2];

	memcpy(to, from, sizeof(*to));
	if (op->code != OP_PAR) {
		events_apply(c, to, ev);
		op_step(c, to, op, o->ret[0], o->err[0], seq & 1);
		return 0;
	}
	a = seq & 1;
	between = (seq >> 1) & 1;
	seq >>= 2;
	/* a close first takes the descriptor from the other op, which then can only
	 * have failed EBADF: with any other result it got the file first */
	if (op->sub[a].code == OP_CLOSE && op->sub[!a].fd == op->sub[a].fd &&
	    !(o->ret[!a] < 0 && o->err[!a] == EBADF))
		return -1;
	for (int k = 0; k < 2; k++) {
		own[k] = 0;
		if (two_ways(c, from, &op->sub[k], o->ret[k], o->err[k])) {
			own[k] = seq & 1;
			seq >>= 1;
		}
	}
	if (!between)
		events_apply(c, to, ev);
	op_step(c, to, &op->sub[a], o->ret[a], o->err[a], own[a]);
	if (between)
		events_apply(c, to, ev);
	op_step(c, to, &op->sub[!a], o->ret[!a], o->err[!a], own[!a]);
	return 0;
}

static int judgeable(const struct dt_script *s, const struct dt_sresult *r,
		     const struct dt_judge_opts *o, char *why, size_t len)
{
	int real = 0;

	if (!r || !r->line)
		return snprintf(why, len, "no results"), 0;
	if (r->fail[0])
		return snprintf(why, len, "the guest could not run it: %s", r->fail), 0;
	if (!r->complete)
		return snprintf(why, len, "the guest did not finish it"), 0;
	for (int i = 0; i < s->nops; i++) {
		const struct dt_op *op = &s->ops[i];
		int want = op->code == OP_PAR ? 3 : 1;

		if ((r->ops[i].done & want) != want)
			return snprintf(why, len, "op %d has no results", i), 0;
		if (r->ops[i].tr_lost)
			return snprintf(why, len, "op %d: trace events lost", i), 0;
		real |= op->code == OP_FAIL;
	}
	if (!r->trace && (real || o->need_trace))
		return snprintf(why, len, "no trace events: %s", real ?
				"the errors of \"fail\" are known only from them" :
				"the kernel has the tracepoints"), 0;
	return 1;
}

void dt_judge(const struct dt_script *s, const struct dt_sresult *r,
	      const struct dt_judge_opts *o, FILE *out, struct dt_judge_result *res)
{
	struct jset cur = {0}, next = {0};
	struct jctx base = {.o = o};
	struct jstate *tmp;

	memset(res, 0, sizeof(*res));
	res->first_op = -1;
	if (!judgeable(s, r, o, res->why, sizeof(res->why))) {
		res->unjudged = 1;
		return;
	}
	cur.s = calloc(J_MAX_STATES, sizeof(*cur.s));
	next.s = calloc(J_MAX_STATES, sizeof(*next.s));
	tmp = calloc(1, sizeof(*tmp));
	if (!cur.s || !next.s || !tmp) {
		snprintf(res->why, sizeof(res->why), "out of memory");
		res->unjudged = 1;
		goto out;
	}
	memset(tmp->fd, -1, sizeof(tmp->fd));
	memset(tmp->name, -1, sizeof(tmp->name));
	for (int k = 0; k < DT_MAX_FDS; k++)
		tmp->d[k].ino = -1;
	tmp->ino[J_INO_RAW].used = tmp->ino[J_INO_DEV].used = tmp->ino[J_INO_DIR].used = 1;
	set_add(&cur, tmp);
	for (int i = 0; i < s->nops; i++)
		for (int k = 0; k < (s->ops[i].code == OP_PAR ? 2 : 1); k++) {
			const struct dt_op *x = s->ops[i].code == OP_PAR ? &s->ops[i].sub[k] :
					    &s->ops[i];

			if (x->code == OP_ERR_DATA || x->code == OP_ERR_META)
				base.injected |= bit(x->err);
		}

	for (int i = 0; i < s->nops; i++) {
		const struct dt_op *op = &s->ops[i];
		const struct dt_opres *or = &r->ops[i];
		struct jctx first = base;
		struct jevents ev;

		next.n = 0;
		for (int k = 0; k < cur.n; k++) {
			int nseq = nways(&base, &cur.s[k], op, or);

			events_of(&cur.s[k], or, own_event(&cur.s[k], op), &ev);
			for (int t = 0; t < ev.n; t++)
				if (trace_ino(&cur.s[k], ev.obj[t]) == -3) {
					snprintf(res->why, sizeof(res->why),
						 "op %d: the trace's %s names two inodes (a name made "
						 "again while the old file was open): whose error it "
						 "was cannot be told", i, ev.obj[t]);
					res->unjudged = 1;
					goto out;
				}
			for (int q = 0; q < nseq; q++) {
				struct jctx x = base;

				if (run_seq(&x, &cur.s[k], tmp, op, or, &ev, q))
					continue;
				if (!x.bad && set_add(&next, tmp)) {
					snprintf(res->why, sizeof(res->why),
						 "op %d: more than %d outcomes of its races", i,
						 J_MAX_STATES);
					res->unjudged = 1;
					goto out;
				}
				if (x.bad && !first.bad)
					first = x;
			}
		}
		res->judged++;
		if (!next.n) {
			/* every way it may have run breaks the contract: say the first
			 * way's, and go on from what each way made of it */
			char text[256];

			dt_op_format(op, text, sizeof(text));
			if (out)
				fprintf(out, "JUDGE %s op %d (line %d): %s: %s: %s\n", s->name, i,
					op->line, text, dt_judge_kind_name(first.kind), first.why);
			if (!res->violations++) {
				res->first_op = i;
				res->first_kind = first.kind;
			}
			for (int k = 0; k < cur.n; k++) {
				int nseq = nways(&base, &cur.s[k], op, or);

				events_of(&cur.s[k], or, own_event(&cur.s[k], op), &ev);
				for (int q = 0; q < nseq; q++) {
					struct jctx x = base;

					if (run_seq(&x, &cur.s[k], tmp, op, or, &ev, q))
						continue;
					if (set_add(&next, tmp)) {
						snprintf(res->why, sizeof(res->why),
							 "op %d: more than %d outcomes of its races",
							 i, J_MAX_STATES);
						res->unjudged = 1;
						goto out;
					}
				}
			}
		}
		{
			struct jset t = cur;

			cur = next;
			next = t;
		}
		if (cur.n && cur.s[0].overflow) {
			snprintf(res->why, sizeof(res->why), "op %d: more than %d errors", i,
				 J_MAX_EV);
			res->unjudged = 1;
			goto out;
		}

	}
out:
	free(cur.s);
	free(next.s);
	free(tmp);
}
