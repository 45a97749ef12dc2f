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

/* A set of errnos: bit E for E < 62, bit 62 any larger one, bit 63 "any errno" (a
 * real failure, whose errno the trace does not give). */
typedef uint64_t jmask;
#define J_ANY (1ULL << 63)

static jmask bit(int err)
{
	return err > 0 && err < 62 ? 1ULL << err : 1ULL << 62;
}

/* A report covers whatever was owed, whatever its errno: errseq keeps only the latest
 * of several, a filesystem may report a failure of its own for one (6.12's ext4 answers
 * a metadata ENOSPC with the aborted journal's EIO); the model holds the errno. */
static int match(int err, jmask m)
{
	(void)err;
	return m != 0;
}

/* Inodes: the raw block device, the filesystem's block device, the test directory,
 * then the files the script makes. */
#define J_INO_RAW 0
#define J_INO_DEV 1
#define J_INO_DIR 2
#define J_INO_FIRST 3
#define J_MAX_INO (J_INO_FIRST + DT_MAX_FILES + DT_MAX_FDS + 1)
#define J_MAX_STATES 128

struct jdesc {
	signed char ino;   /* -1: no description */
	unsigned char flags; /* OPEN_* */
	jmask owed;        /* errors its next fsync must report */
	jmask may;         /* errors its fsync may report, once */
	jmask fs_owed;     /* errors its next syncfs must report */
	jmask fs_may;      /* errors its syncfs may report, once */
	jmask told;        /* what its fsync reported: again is a repeat */
	jmask fs_told;
};

struct jino {
	unsigned char used, nnames;
	unsigned char labels;   /* bit N: the trace names it fN */
	unsigned char pad;
	jmask unseen;           /* errors no fsync reported: a later opener is owed them */
	jmask evicted_may;      /* unseen when the inode left memory (opts.evict_forgets) */
	jmask told;
};

struct jstate {
	signed char fd[DT_MAX_FDS];      /* descriptor -> description, -1 */
	signed char name[DT_MAX_FILES];  /* fN -> inode, -1 */
	struct jdesc d[DT_MAX_FDS];
	struct jino ino[J_MAX_INO];
	jmask fs_unseen;   /* errors on the filesystem no syncfs reported */
	jmask meta_unseen; /* metadata errors no fsync reported */
	jmask dev_may;     /* the block device's errors from before the last mount */
	unsigned char meta_failed; /* a metadata write failed: the filesystem may stop */
};

struct jctx {
	const struct dt_judge_opts *o;
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

static const char *errs(jmask m, char *buf, size_t len)
{
	size_t n = 0;
	char e[24];

	buf[0] = '\0';
	for (int i = 1; i < 64 && n < len; i++) {
		if (!(m & (1ULL << i)))
			continue;
		n += snprintf(buf + n, len - n, "%s%s", n ? "|" : "",
			      i == 63 ? "an error" : i == 62 ? "an errno>61" : dt_errname(i, e, sizeof(e)));
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

static void ino_gc(struct jstate *st, int ino)
{
	if (ino < J_INO_FIRST || st->ino[ino].nnames)
		return;
	for (int k = 0; k < DT_MAX_FDS; k++)
		if (st->d[k].ino == ino)
			return;
	memset(&st->ino[ino], 0, sizeof(st->ino[ino]));
}

static int ino_new(struct jstate *st, int file)
{
	for (int i = J_INO_FIRST; i < J_MAX_INO; i++)
		if (!st->ino[i].used) {
			memset(&st->ino[i], 0, sizeof(st->ino[i]));
			st->ino[i].used = 1;
			st->ino[i].labels = 1u << file;
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

/* An error on inode @ino's pages (a file, the directory, a block device). */
static void error_data(struct jctx *c, struct jstate *st, int ino, jmask m)
{
	int fsfile = is_fs_ino(ino);

	for (int k = 0; k < DT_MAX_FDS; k++) {
		struct jdesc *d = &st->d[k];

		if (d->ino == ino) {
			if (fsfile && c->o->no_writeback)
				d->may |= m;
			else
				d->owed |= m;
		}
		if (fsfile && d->ino >= 0 && is_fs_ino(d->ino))
			d->fs_owed |= m;
	}
	st->ino[ino].unseen |= m;
	if (fsfile)
		st->fs_unseen |= m;
}

/* A failed metadata write: the filesystem's block device's pages. */
static void error_meta(struct jctx *c, struct jstate *st, jmask m)
{
	for (int k = 0; k < DT_MAX_FDS; k++) {
		struct jdesc *d = &st->d[k];

		if (d->ino >= 0 && is_fs_ino(d->ino)) {
			d->may |= m;
			d->fs_owed |= m;
		}
	}
	st->meta_unseen |= m;
	st->fs_unseen |= m;
	st->meta_failed = 1;
	error_data(c, st, J_INO_DEV, m);
}

/* ---- the sync calls ---- */

/* A stopped filesystem (opts.stops, after a metadata error) fails every sync call */
static int stopped(const struct jctx *c, const struct jstate *st, const struct jdesc *d, int err)
{
	return c->o->stops && st->meta_failed && is_fs_ino(d->ino) && (err == EIO || err == EROFS);
}

static int own_cause(int err)
{
	return err == EBADF || err == EINVAL || err == EOPNOTSUPP || err == ENOSYS ||
	       err == ENODEV || err == EACCES || err == EPERM;
}

/* A call that reports through the file's cursor (fsync, fdatasync, msync MS_SYNC, a
 * write of an O_SYNC or O_DSYNC description): @must, it must report what is owed;
 * @is_write, an error of its own may be the write's (ENOSPC...), not a report. */
static void sync_file(struct jctx *c, struct jstate *st, struct jdesc *d, long ret, int err,
		      int must, int is_write)
{
	struct jino *in = &st->ino[(int)d->ino];
	char b[96];

	if (ret >= 0) {
		if (must && d->owed) {
			violation(c, DT_JUDGE_LOST, "returned %ld; owed %s", ret,
				  errs(d->owed, b, sizeof(b)));
			d->may |= d->owed; /* a later report is late, not a repeat */
			d->owed = 0;
		}
		return;
	}
	if (own_cause(err))
		return;
	if (match(err, d->owed | d->may)) {
		if (!d->owed && d->may && is_fs_ino(d->ino))
			st->meta_unseen = 0;
		if (d->ino == J_INO_DEV)
			st->dev_may = 0;
		d->told |= d->owed | d->may;
		in->told |= d->owed | d->may;
		d->owed = d->may = 0;
		in->unseen = in->evicted_may = 0;
		return;
	}
	if (is_write || stopped(c, st, d, err))
		return;
	if ((d->told | in->told) & (bit(err) | J_ANY))
		violation(c, DT_JUDGE_REPEAT, "reported %s again", dt_errname(err, b, sizeof(b)));
	else
		violation(c, DT_JUDGE_INVENTED, "reported %s; none owed",
			  dt_errname(err, b, sizeof(b)));
}

static void sync_fs(struct jctx *c, struct jstate *st, struct jdesc *d, long ret, int err)
{
	char b[96];

	if (!is_fs_ino(d->ino))
		return; /* a block device's syncfs: the bdev pseudo-filesystem, not judged */
	if (ret >= 0) {
		if (d->fs_owed) {
			violation(c, DT_JUDGE_LOST, "syncfs returned %ld; owed %s", ret,
				  errs(d->fs_owed, b, sizeof(b)));
			d->fs_may |= d->fs_owed;
			d->fs_owed = 0;
		}
		return;
	}
	if (own_cause(err))
		return;
	if (match(err, d->fs_owed | d->fs_may)) {
		d->fs_told |= d->fs_owed | d->fs_may;
		d->fs_owed = d->fs_may = 0;
		st->fs_unseen = 0;
		return;
	}
	if (stopped(c, st, d, err))
		return;
	if (d->fs_told & (bit(err) | J_ANY))
		violation(c, DT_JUDGE_REPEAT, "syncfs reported %s again",
			  dt_errname(err, b, sizeof(b)));
	else
		violation(c, DT_JUDGE_INVENTED, "syncfs reported %s; none owed",
			  dt_errname(err, b, sizeof(b)));
}

/* fsync of the test directory through a description of its own */
static void sync_dir(struct jctx *c, struct jstate *st, long ret, int err)
{
	struct jdesc d = {.ino = J_INO_DIR};

	d.owed = st->ino[J_INO_DIR].unseen;
	d.may = st->meta_unseen;
	sync_file(c, st, &d, ret, err, 1, 0);
}

/* ---- the ops ---- */

static void op_open(struct jstate *st, const struct dt_op *op, long ret)
{
	struct jdesc *d;
	int ino, k;

	if (ret < 0)
		return;
	if (op->file == DT_FILE_RAW) {
		ino = J_INO_RAW;
	} else if (op->file == DT_FILE_DEV) {
		ino = J_INO_DEV;
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
		 * trace then names it after the name it is opened through */
		st->ino[ino].labels |= 1u << op->file;
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
	if (ino == J_INO_DEV) {
		d->owed = st->ino[ino].unseen;
		d->may = st->dev_may;
	} else if (ino == J_INO_RAW) {
		d->owed = st->ino[ino].unseen;
	} else {
		d->owed = st->ino[ino].unseen;
		d->may = st->meta_unseen | st->ino[ino].evicted_may;
		d->fs_owed = st->fs_unseen;
	}
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

static void op_step(struct jctx *c, struct jstate *st, const struct dt_op *op, long ret, int err)
{
	struct jdesc *d = desc_of(st, op->fd);
	int ino;

	switch (op->code) {
	case OP_OPEN:
		op_open(st, op, ret);
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
		if (d && (d->flags & (OPEN_SYNC | OPEN_DSYNC)) && op->len > 0)
			sync_file(c, st, d, ret, err, 1, 1);
		break;
	case OP_FSYNC:
	case OP_FDATASYNC:
		if (d)
			sync_file(c, st, d, ret, err, !(c->o->no_writeback && is_fs_ino(d->ino)), 0);
		break;
	case OP_MSYNC:
		if (d && (op->flags & MSYNC_SYNC))
			sync_file(c, st, d, ret, err, !(c->o->no_writeback && is_fs_ino(d->ino)), 0);
		break;
	case OP_SFR:
		if (d && (op->flags & (SFR_WAIT_BEFORE | SFR_WAIT_AFTER)))
			sync_file(c, st, d, ret, err, 0, 0);
		break;
	case OP_SYNCFS:
		if (d)
			sync_fs(c, st, d, ret, err);
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
			break; /* not injected (tmpfs has no block device: ENOTBLK) */
		ino = op->fd >= 0 ? (d ? d->ino : -1) : st->name[op->file];
		if (ino >= 0)
			error_data(c, st, ino, bit(op->err));
		break;
	case OP_ERR_META:
		if (ret == 0)
			error_meta(c, st, bit(op->err));
		break;
	case OP_CYCLE:
		/* a new mount: what the old one did not report is nobody's now (an
		 * error from before a mount is never reported after it); the block
		 * device's may still reach a later opener of the device */
		st->dev_may |= st->ino[J_INO_DEV].unseen;
		st->ino[J_INO_DEV].unseen = 0;
		for (int i = J_INO_DIR; i < J_MAX_INO; i++)
			st->ino[i].unseen = 0;
		st->fs_unseen = st->meta_unseen = 0;
		break;
	case OP_EVICT:
		/* no identity to keep an evicted inode's error by (vfat, exfat): a
		 * later opener may be told, need not */
		if (c->o->evict_forgets)
			for (int i = J_INO_FIRST; i < J_MAX_INO; i++) {
				int open = 0;

				for (int k = 0; k < DT_MAX_FDS; k++)
					open |= st->d[k].ino == i;
				if (!open) {
					st->ino[i].evicted_may |= st->ino[i].unseen;
					st->ino[i].unseen = 0;
				}
			}
		break;
	case OP_CHILD:
		op_step(c, st, &op->sub[0], ret, err);
		break;
	default:
		break;
	}
}

/* ---- the trace's errors ---- */

/* The inode a trace object names, -1: none the script knows. */
static int trace_ino(const struct jstate *st, const char *obj)
{
	int n;

	if (!strcmp(obj, "bdev"))
		return J_INO_DEV;
	if (!strcmp(obj, "raw"))
		return J_INO_RAW;
	if (!strcmp(obj, "dir"))
		return J_INO_DIR;
	if (obj[0] != 'f' || obj[1] < '0' || obj[1] > '7' || obj[2])
		return -1;
	n = obj[1] - '0';
	if (st->name[n] >= 0 && (st->ino[(int)st->name[n]].labels & (1u << n)))
		return st->name[n];
	for (int i = J_INO_FIRST; i < J_MAX_INO; i++)
		if (st->ino[i].used && (st->ino[i].labels & (1u << n)))
			return i;
	return -1;
}

/* The trace's "set" events of an op: errors recorded while it ran. @skip: an
 * injection's own event ("error data": its file's, "error meta": bdev's), not
 * another error. */
struct jevents {
	int n;
	char obj[DT_MAX_TRACE][16];
};

static void events_of(const struct dt_opres *o, const char *skip, struct jevents *ev)
{
	ev->n = 0;
	for (int t = 0; t < o->ntr; t++) {
		char obj[16];

		if (sscanf(o->tr[t], "set %15s", obj) != 1)
			continue;
		if (skip && !strcmp(obj, skip)) {
			skip = NULL;
			continue;
		}
		snprintf(ev->obj[ev->n++], sizeof(ev->obj[0]), "%s", obj);
	}
}

static void events_apply(struct jctx *c, struct jstate *st, const struct jevents *ev)
{
	for (int i = 0; i < ev->n; i++) {
		int ino = trace_ino(st, ev->obj[i]);

		if (ino == J_INO_DEV)
			error_meta(c, st, J_ANY);
		else if (ino >= 0)
			error_data(c, st, ino, J_ANY);
	}
}

/* The object an injection's own event names, into @buf; NULL: none. */
static const char *own_event(const struct jstate *st, const struct dt_op *op, char *buf,
			     size_t len)
{
	const struct dt_op *x = op;

	if (op->code == OP_PAR)
		x = op->sub[0].code == OP_ERR_META || op->sub[0].code == OP_ERR_DATA ?
			    &op->sub[0] : &op->sub[1];
	if (x->code == OP_ERR_META)
		return "bdev";
	if (x->code != OP_ERR_DATA)
		return NULL;
	if (x->fd >= 0) {
		int k = st->fd[x->fd];

		if (k >= 0 && st->d[k].ino == J_INO_RAW)
			return "raw";
		if (k < 0 || st->d[k].ino < J_INO_FIRST)
			return NULL;
		for (int n = 0; n < DT_MAX_FILES; n++)
			if (st->ino[(int)st->d[k].ino].labels & (1u << n)) {
				snprintf(buf, len, "f%d", n);
				return buf;
			}
		return NULL;
	}
	snprintf(buf, len, "f%d", x->file);
	return buf;
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

/* One way op @i may have run from @from into @to: @seq says which (for a par line:
 * which of its ops ran first, and where its errors came). */
static void run_seq(struct jctx *c, const struct jstate *from, struct jstate *to,
		    const struct dt_op *op, const struct dt_opres *o, const struct jevents *ev,
		    int seq)
{
	memcpy(to, from, sizeof(*to));
	if (op->code != OP_PAR) {
		events_apply(c, to, ev);
		op_step(c, to, op, o->ret[0], o->err[0]);
		return;
	}
	/* seq 0..5: (first, where the errors came: before, between, after) */
	int a = seq / 3, at = seq % 3;

	if (at == 0)
		events_apply(c, to, ev);
	op_step(c, to, &op->sub[a], o->ret[a], o->err[a]);
	if (at == 1)
		events_apply(c, to, ev);
	op_step(c, to, &op->sub[!a], o->ret[!a], o->err[!a]);
	if (at == 2)
		events_apply(c, to, ev);
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

	for (int i = 0; i < s->nops; i++) {
		const struct dt_op *op = &s->ops[i];
		const struct dt_opres *or = &r->ops[i];
		int nseq = op->code == OP_PAR ? 6 : 1;
		struct jctx first = {.o = o};
		struct jevents ev;
		char own[8];

		next.n = 0;
		for (int k = 0; k < cur.n; k++) {
			events_of(or, own_event(&cur.s[k], op, own, sizeof(own)), &ev);
			for (int q = 0; q < nseq; q++) {
				struct jctx x = {.o = o};

				run_seq(&x, &cur.s[k], tmp, op, or, &ev, q);
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
				struct jctx x = {.o = o};

				events_of(or, own_event(&cur.s[k], op, own, sizeof(own)), &ev);
				run_seq(&x, &cur.s[k], tmp, op, or, &ev, 0);
				set_add(&next, tmp);
			}
		}
		{
			struct jset t = cur;

			cur = next;
			next = t;
		}
	}
out:
	free(cur.s);
	free(next.s);
	free(tmp);
}
