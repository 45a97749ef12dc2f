// SPDX-License-Identifier: GPL-2.0
/*
 * The op registry (ops.h): each script operation's word, parser, printer, the
 * script's rules for it and its random lines, one section an op (ops of one
 * shape share theirs), and the table at the end: what may race, what may run
 * in a child, each op's share of the random scripts.
 */
#define _GNU_SOURCE
#include "ops.h"

#include <stdlib.h>
#include <string.h>

/* ---- shapes several ops share ---- */

static int parse_fd_arg(struct dt_pctx *c, char **tok, int n, struct dt_op *op)
{
	return (op->fd = dt_parse_idx(c, n > 1 ? tok[1] : NULL, 'd', DT_MAX_FDS, "descriptor"));
}

/* "NAME dN" */
static int parse_fd(struct dt_pctx *c, char **tok, int n, struct dt_op *op)
{
	if (parse_fd_arg(c, tok, n, op) < 0)
		return -1;
	if (n > 2)
		return dt_perr(c, "too many arguments to %s", tok[0]);
	return 0;
}

static void format_fd(const struct dt_op *op, char *buf, size_t len)
{
	snprintf(buf, len, "%s d%d", dt_opname(op->code), op->fd);
}

/* "NAME" */
static int parse_none(struct dt_pctx *c, char **tok, int n, struct dt_op *op)
{
	(void)op;
	if (n > 1)
		return dt_perr(c, "%s takes no arguments", tok[0]);
	return 0;
}

static void format_none(const struct dt_op *op, char *buf, size_t len)
{
	snprintf(buf, len, "%s", dt_opname(op->code));
}

/* "NAME dN LEN" */
static void format_fd_len(const struct dt_op *op, char *buf, size_t len)
{
	snprintf(buf, len, "%s d%d %lld", dt_opname(op->code), op->fd, op->len);
}

/* "NAME fM fN" */
static int parse_two_files(struct dt_pctx *c, char **tok, int n, struct dt_op *op)
{
	if ((op->file = dt_parse_idx(c, n > 1 ? tok[1] : NULL, 'f', DT_MAX_FILES, "file")) < 0 ||
	    (op->file2 = dt_parse_idx(c, n > 2 ? tok[2] : NULL, 'f', DT_MAX_FILES, "file")) < 0)
		return -1;
	if (n > 3)
		return dt_perr(c, "too many arguments to %s", tok[0]);
	return 0;
}

static void format_two_files(const struct dt_op *op, char *buf, size_t len)
{
	snprintf(buf, len, "%s f%d f%d", dt_opname(op->code), op->file, op->file2);
}

/* an op on an open descriptor: of a file (fallocate), or of a file or the raw
 * device (read, fail), or any (write, fsync, fdatasync, sfr, syncfs, close) */
static int check_fd(struct dt_pctx *c, struct dt_vstate *v, const struct dt_op *op)
{
	if (!v->open[op->fd])
		return dt_perr(c, "bad descriptor d%d: not open here", op->fd);
	if (op->code == OP_FALLOCATE && v->raw[op->fd])
		return dt_perr(c, "fallocate of d%d, a block device: not modelled", op->fd);
	if ((op->code == OP_READ || op->code == OP_FAIL) && v->raw[op->fd] == 2)
		return dt_perr(c, "%s of d%d, the filesystem's device: not modelled",
			       dt_opname(op->code), op->fd);
	if (op->code == OP_CLOSE)
		v->open[op->fd] = 0;
	if (op->code == OP_WRITE || op->code == OP_READ) {
		long long *pos = &v->pos[v->desc[op->fd]];

		/* a read advances the offset by at most LEN */
		*pos += op->len;
		if (*pos > DT_MAX_FILE_SIZE)
			return dt_perr(c, "%s past %lld MiB on d%d (offset %lld): the model's "
				       "page cache holds %lld MiB of a file", dt_opname(op->code),
				       DT_MAX_FILE_SIZE >> 20, op->fd, *pos, DT_MAX_FILE_SIZE >> 20);
	}
	return 0;
}

/*
 * Generators: one line of the op on g->d, a random open descriptor. Where an
 * op cannot be made there it prints another op in its place, or declines (0).
 * Where one line draws several numbers, they are drawn in the order gcc
 * evaluated the arguments of the fprintf() that made it (right to left): the
 * seeds' scripts stay what they were.
 */

/* real mode, or a raw block device's descriptor: fail or heal in place of unlink */
static int fails_here(const struct dt_gen *g)
{
	return (g->real && g->raw[g->d] != 2) || g->raw[g->d] == 1;
}

/* the generator's view of descriptor @d after a line opened (or dup'ed) it:
 * @raw as in g->raw, @file the file, -1 a block device */
static void gen_opened(struct dt_gen *g, int d, int raw, int file)
{
	g->open[d] = 1;
	g->raw[d] = raw;
	g->file[d] = file;
	g->dir[d] = 0;
}

/* ---- open dN fM|raw|dev [creat] [trunc] [rdonly] [sync] [dsync] [direct] ---- */

static int parse_open(struct dt_pctx *c, char **tok, int n, struct dt_op *op)
{
	if (parse_fd_arg(c, tok, n, op) < 0)
		return -1;
	if (n > 2 && !strcmp(tok[2], "raw"))
		op->file = DT_FILE_RAW;
	else if (n > 2 && !strcmp(tok[2], "dev"))
		op->file = DT_FILE_DEV;
	else if (n > 2 && !strcmp(tok[2], "dir"))
		op->file = DT_FILE_DIR;
	else if ((op->file = dt_parse_idx(c, n > 2 ? tok[2] : NULL, 'f', DT_MAX_FILES,
					  "file (or raw, dev, dir)")) < 0)
		return -1;
	for (int i = 3; i < n; i++) {
		if (!strcmp(tok[i], "creat"))
			op->flags |= OPEN_CREAT;
		else if (!strcmp(tok[i], "trunc"))
			op->flags |= OPEN_TRUNC;
		else if (!strcmp(tok[i], "rdonly"))
			op->flags |= OPEN_RDONLY;
		else if (!strcmp(tok[i], "sync"))
			op->flags |= OPEN_SYNC;
		else if (!strcmp(tok[i], "dsync"))
			op->flags |= OPEN_DSYNC;
		else if (!strcmp(tok[i], "direct"))
			op->flags |= OPEN_DIRECT;
		else
			return dt_perr(c, "unknown open flag '%s' (want creat, trunc, rdonly, sync, "
				       "dsync, direct)", tok[i]);
	}
	if (op->file == DT_FILE_RAW && (op->flags & (OPEN_CREAT | OPEN_TRUNC)))
		return dt_perr(c, "open raw takes rdonly, sync, dsync, direct (not creat, trunc)");
	if ((op->file == DT_FILE_DEV || op->file == DT_FILE_DIR) && op->flags)
		return dt_perr(c, "open %s takes no flags (it is read-only)", tok[2]);
	if (op->file == DT_FILE_DEV || op->file == DT_FILE_DIR)
		op->flags = OPEN_RDONLY;
	return 0;
}

static void format_open(const struct dt_op *op, char *buf, size_t len)
{
	char f[16];

	if (op->file == DT_FILE_DEV || op->file == DT_FILE_DIR) {
		/* read-only, its only way (OPEN_RDONLY): the line takes no flags */
		snprintf(buf, len, "open d%d %s", op->fd, op->file == DT_FILE_DEV ? "dev" : "dir");
		return;
	}
	if (op->file == DT_FILE_RAW)
		snprintf(f, sizeof(f), "raw");
	else
		snprintf(f, sizeof(f), "f%d", op->file);
	snprintf(buf, len, "open d%d %s%s%s%s%s%s%s", op->fd, f,
		 op->flags & OPEN_CREAT ? " creat" : "",
		 op->flags & OPEN_TRUNC ? " trunc" : "",
		 op->flags & OPEN_RDONLY ? " rdonly" : "",
		 op->flags & OPEN_SYNC ? " sync" : "",
		 op->flags & OPEN_DSYNC ? " dsync" : "",
		 op->flags & OPEN_DIRECT ? " direct" : "");
}

/* A description no open descriptor names (there is one: at most 16 are open). */
static int free_desc(const struct dt_vstate *v)
{
	for (int d = 0; d < DT_MAX_FDS; d++) {
		int used = 0;

		for (int i = 0; i < DT_MAX_FDS && !used; i++)
			used = v->open[i] && v->desc[i] == d;
		if (!used)
			return d;
	}
	return 0;
}

static int check_open(struct dt_pctx *c, struct dt_vstate *v, const struct dt_op *op)
{
	if (v->open[op->fd])
		return dt_perr(c, "descriptor d%d is already open", op->fd);
	v->desc[op->fd] = free_desc(v);
	v->open[op->fd] = 1;
	v->raw[op->fd] = op->file == DT_FILE_RAW ? 1 : op->file == DT_FILE_DEV ? 2 : 0;
	v->dir[op->fd] = op->file == DT_FILE_DIR;
	v->pos[v->desc[op->fd]] = 0;
	return 0;
}

static int gen_open(struct dt_gen *g)
{
	int nd = dt_gen_free_fd(g), rdonly, creat, trunc;
	uint32_t sy, file;

	if (nd < 0)
		return 0;
	if (dt_gen_rnd(g, 8) == 0) {
		/* the raw block device (a disk of its own): in every mode, O_DIRECT
		 * too (the model follows its I/O to the failed device) */
		sy = dt_gen_rnd(g, 8);
		if (sy == 7) {
			/* one in eight of them: the filesystem's own device */
			fprintf(g->f, "open d%d dev\n", nd);
			gen_opened(g, nd, 2, -1);
			return 1;
		}
		fprintf(g->f, "open d%d raw%s%s\n", nd, dt_gen_rnd(g, 8) == 0 ? " rdonly" : "",
			sy == 0 ? " sync" : sy == 1 ? " dsync" : sy == 2 ? " direct" : "");
		gen_opened(g, nd, 1, -1);
		return 1;
	}
	sy = dt_gen_rnd(g, 12);
	if (sy == 11) {
		/* one in twelve: the test directory, and its steps (dt_gen_dir_step()) */
		fprintf(g->f, "open d%d dir\n", nd);
		gen_opened(g, nd, 0, -1);
		g->dir[nd] = 1;
		g->dir_fd = nd;
		g->dirstep = 1;
		return 1;
	}
	rdonly = dt_gen_rnd(g, 12) == 0;
	creat = dt_gen_rnd(g, 10) < 8;
	file = dt_gen_rnd(g, DT_GEN_FILES);
	/* with nothing open (an evict may have just taken its inode), the file
	 * of the last data error: is it still told? */
	if (g->err_file >= 0 && dt_gen_pick_open(g) < 0) {
		file = (uint32_t)g->err_file;
		g->err_file = -1;
	}
	/* O_TRUNC one time in eight, not read-only; not in real mode (it frees
	 * the file's blocks, which a failed extent could then be reused from) */
	trunc = !rdonly && !g->real && dt_gen_rnd(g, 8) == 0;
	/* O_DIRECT not in real mode: its I/O to a failed extent fails the
	 * syscall, which the model does not follow */
	fprintf(g->f, "open d%d f%u%s%s%s%s%s\n", nd, file, creat ? " creat" : "",
		trunc ? " trunc" : "", rdonly ? " rdonly" : "",
		sy == 0 ? " sync" : sy == 1 ? " dsync" : "", sy == 2 && !g->real ? " direct" : "");
	gen_opened(g, nd, 0, (int)file);
	g->last_file = (int)file;
	return 1;
}

/* ---- write dN [LEN], read dN [LEN] ---- */

static int parse_rw(struct dt_pctx *c, char **tok, int n, struct dt_op *op)
{
	if (parse_fd_arg(c, tok, n, op) < 0)
		return -1;
	op->len = 4096;
	if (n > 2 && dt_parse_num(c, tok[2], &op->len, "length"))
		return -1;
	if (op->len < 0 || op->len > (1 << 20))
		return dt_perr(c, "%s length %lld out of range (0..1048576)", tok[0], op->len);
	if (n > 3)
		return dt_perr(c, "too many arguments to %s", tok[0]);
	return 0;
}

static int gen_write(struct dt_gen *g)
{
	fprintf(g->f, "write d%d %u\n", g->d, dt_gen_rnd(g, 4) ? 4096 : 1 + dt_gen_rnd(g, 16384));
	return 1;
}

static int gen_fsync(struct dt_gen *g);

/* on the filesystem's device (no read on it): fsync */
static int gen_read(struct dt_gen *g)
{
	if (g->raw[g->d] == 2)
		return gen_fsync(g);
	fprintf(g->f, "read d%d %u\n", g->d, dt_gen_rnd(g, 4) ? 4096 : 1 + dt_gen_rnd(g, 16384));
	return 1;
}

/* ---- fsync dN, fdatasync dN, syncfs dN ---- */

static int gen_fsync(struct dt_gen *g)
{
	fprintf(g->f, "fsync d%d\n", g->d);
	return 1;
}

static int gen_fdatasync(struct dt_gen *g)
{
	fprintf(g->f, "fdatasync d%d\n", g->d);
	return 1;
}

static int gen_syncfs(struct dt_gen *g)
{
	fprintf(g->f, "syncfs d%d\n", g->d);
	return 1;
}

/* ---- sfr dN FLAGS [OFF LEN] ---- */

static int parse_sfr(struct dt_pctx *c, char **tok, int n, struct dt_op *op)
{
	long fl;

	if (parse_fd_arg(c, tok, n, op) < 0)
		return -1;
	if (n < 3)
		return dt_perr(c, "sfr needs flags (WAIT_BEFORE|WRITE|WAIT_AFTER, or a number)");
	fl = dt_sfr_flags(tok[2]);
	if (fl < 0)
		return dt_perr(c, "bad sync_file_range flags '%s'", tok[2]);
	op->flags = (unsigned)fl;
	if (n == 5) {
		if (dt_parse_num(c, tok[3], &op->off, "offset") ||
		    dt_parse_num(c, tok[4], &op->len, "length"))
			return -1;
	} else if (n != 3) {
		return dt_perr(c, "sfr takes: dN FLAGS [OFFSET LENGTH]");
	}
	return 0;
}

static void format_sfr(const struct dt_op *op, char *buf, size_t len)
{
	char f[64];

	dt_sfr_format(op->flags, f, sizeof(f));
	if (op->off || op->len)
		snprintf(buf, len, "sfr d%d %s %lld %lld", op->fd, f, op->off, op->len);
	else
		snprintf(buf, len, "sfr d%d %s", op->fd, f);
}

static int gen_sfr(struct dt_gen *g)
{
	uint32_t fl = dt_gen_rnd(g, 20) ? dt_gen_rnd(g, 8) : 8 + dt_gen_rnd(g, 8), off, len;
	char fb[64];

	/* real mode: an async write's failure must land within the op */
	if (g->real && (fl & SFR_WRITE))
		fl |= SFR_WAIT_AFTER;
	dt_sfr_format(fl, fb, sizeof(fb));
	if (dt_gen_rnd(g, 4)) {
		fprintf(g->f, "sfr d%d %s\n", g->d, fb);
		return 1;
	}
	len = dt_gen_rnd(g, 3) * 4096;
	off = dt_gen_rnd(g, 3) * 4096;
	fprintf(g->f, "sfr d%d %s %u %u\n", g->d, fb, off, len);
	return 1;
}

/* ---- close dN ---- */

static int check_close(struct dt_pctx *c, struct dt_vstate *v, const struct dt_op *op)
{
	if (v->mapped[op->fd])
		return dt_perr(c, "close of d%d while it is mapped: munmap it first", op->fd);
	return check_fd(c, v, op);
}

static int gen_mmap(struct dt_gen *g);

/* a mapped descriptor: half the time its mapping's op instead (a store, an
 * msync: a mapping lives a few steps) */
static int gen_close(struct dt_gen *g)
{
	if (g->mapped[g->d] && g->look && dt_gen_rnd(g, 2))
		return gen_mmap(g);
	if (g->mapped[g->d])
		fprintf(g->f, "munmap d%d\n", g->d);
	fprintf(g->f, "close d%d\n", g->d);
	g->open[g->d] = g->mapped[g->d] = 0;
	return 1;
}

/* ---- unlink fM ---- */

static int parse_unlink(struct dt_pctx *c, char **tok, int n, struct dt_op *op)
{
	if ((op->file = dt_parse_idx(c, n > 1 ? tok[1] : NULL, 'f', DT_MAX_FILES, "file")) < 0)
		return -1;
	if (n > 2)
		return dt_perr(c, "too many arguments to unlink");
	return 0;
}

static void format_unlink(const struct dt_op *op, char *buf, size_t len)
{
	snprintf(buf, len, "unlink f%d", op->file);
}

/* not in real mode: freed failed blocks could be reused (fail, heal instead) */
static int gen_unlink(struct dt_gen *g)
{
	if (fails_here(g))
		return 0;
	if (g->direrr) {
		fprintf(g->f, "fsyncdir\n"); /* no unlink after an error of the directory */
		return 1;
	}
	fprintf(g->f, "unlink f%u\n", dt_gen_rnd(g, DT_GEN_FILES));
	return 1;
}

/* ---- evict, sync ---- */

/* every open descriptor closed (its mapping removed first) */
static void gen_close_all(struct dt_gen *g)
{
	for (int i = 0; i < DT_GEN_FDS; i++)
		if (g->open[i]) {
			if (g->mapped[i])
				fprintf(g->f, "munmap d%d\n", i);
			fprintf(g->f, "close d%d\n", i);
			g->open[i] = g->mapped[i] = 0;
		}
}

/* three times in four every descriptor closed first: an inode with an error
 * no one has seen then leaves memory (keep_unseen) */
/*
 * One evict in four reads its inodes back through failing blocks: failread
 * (not while fail's extents fail), then four steps (dt_gen_readfail_step()).
 */
static int gen_evict(struct dt_gen *g)
{
	if (dt_gen_rnd(g, 4))
		gen_close_all(g);
	if (!g->failing && dt_gen_rnd(g, 4) == 0) {
		fprintf(g->f, "failread\n");
		g->readfail = 1;
		return 1;
	}
	fprintf(g->f, "evict\n");
	return 1;
}

/*
 * After failread: an open of the file of the last data error (else of the
 * last open) on a free descriptor (EIO, or 0 where the inode stayed in
 * memory), heal, the descriptor's close, and the open again: it reads the
 * inode in, with its error or without.
 */
void dt_gen_readfail_step(struct dt_gen *g)
{
	switch (g->readfail) {
	case 1:
		g->rf_fd = dt_gen_free_fd(g);
		if (g->rf_fd < 0)
			break;
		g->rf_file = g->err_file >= 0 ? g->err_file : g->last_file >= 0 ? g->last_file :
			     (int)dt_gen_rnd(g, DT_GEN_FILES);
		/* fall through */
	case 4:
		fprintf(g->f, "open d%d f%d%s\n", g->rf_fd, g->rf_file,
			dt_gen_rnd(g, 4) ? "" : " rdonly");
		gen_opened(g, g->rf_fd, 0, g->rf_file);
		g->d = g->rf_fd;
		g->readfail = g->readfail == 1 ? 2 : 0;
		if (!g->readfail && g->err_file == g->rf_file)
			g->err_file = -1;
		return;
	case 3:
		fprintf(g->f, "close d%d\n", g->rf_fd);
		g->open[g->rf_fd] = 0;
		g->readfail = 4;
		return;
	}
	fprintf(g->f, "heal\n");
	g->readfail = g->readfail == 2 ? 3 : 0;
}

/*
 * After "open dN dir": FS_DIRSYNC_FL one time in two (dirsync), an error of the
 * directory's mapping (error data dN), a new name (open ... creat on a free
 * descriptor: ext2 writes the directory out), then an fsync of the directory's
 * descriptor, an fsyncdir or an evict.
 */
void dt_gen_dir_step(struct dt_gen *g)
{
	char eb[16];
	uint32_t f;
	int nd;

	switch (g->dirstep) {
	case 1:
		g->dirstep = 2;
		if (dt_gen_rnd(g, 2)) {
			fprintf(g->f, "dirsync\n");
			return;
		}
		/* fall through */
	case 2:
		fprintf(g->f, "error data d%d %s\n", g->dir_fd,
			dt_errname(dt_gen_err(g), eb, sizeof(eb)));
		g->direrr = 1;
		g->dirstep = 3;
		return;
	case 3:
		g->dirstep = 4;
		nd = dt_gen_free_fd(g);
		if (nd >= 0) {
			f = dt_gen_rnd(g, DT_GEN_FILES);
			fprintf(g->f, "open d%d f%u creat\n", nd, f);
			gen_opened(g, nd, 0, (int)f);
			g->last_file = (int)f;
			return;
		}
		/* fall through */
	default:
		g->dirstep = 0;
		switch (dt_gen_rnd(g, 3)) {
		case 0:
			fprintf(g->f, "fsync d%d\n", g->dir_fd);
			break;
		case 1:
			fprintf(g->f, "fsyncdir\n");
			break;
		default:
			gen_evict(g);
		}
	}
}

static int gen_sync(struct dt_gen *g)
{
	fprintf(g->f, "sync\n");
	return 1;
}

/* ---- error data fM|dN ERRNO, error meta ERRNO (one word, two ops) ---- */

static int parse_error(struct dt_pctx *c, char **tok, int n, struct dt_op *op)
{
	const char *e;

	if (n < 2)
		return dt_perr(c, "error needs 'data fN|dN ERRNO' or 'meta ERRNO'");
	if (!strcmp(tok[1], "data")) {
		op->code = OP_ERR_DATA;
		if (n != 4)
			return dt_perr(c, "error data takes: fN|dN ERRNO");
		if (tok[2][0] == 'f') {
			if ((op->file = dt_parse_idx(c, tok[2], 'f', DT_MAX_FILES, "file")) < 0)
				return -1;
		} else if ((op->fd = dt_parse_idx(c, tok[2], 'd', DT_MAX_FDS, "descriptor")) < 0) {
			return -1;
		}
		e = tok[3];
	} else if (!strcmp(tok[1], "meta")) {
		op->code = OP_ERR_META;
		if (n != 3)
			return dt_perr(c, "error meta takes: ERRNO");
		e = tok[2];
	} else {
		return dt_perr(c, "unknown error kind '%s' (want data or meta)", tok[1]);
	}
	op->err = dt_errnum(e);
	if (op->err < 0)
		return dt_perr(c, "bad errno '%s' (a name like EIO, or 1..4095)", e);
	return 0;
}

static void format_error(const struct dt_op *op, char *buf, size_t len)
{
	char e[16];

	if (op->code == OP_ERR_META)
		snprintf(buf, len, "error meta %s", dt_errname(op->err, e, sizeof(e)));
	else if (op->file >= 0)
		snprintf(buf, len, "error data f%d %s", op->file, dt_errname(op->err, e, sizeof(e)));
	else
		snprintf(buf, len, "error data d%d %s", op->fd, dt_errname(op->err, e, sizeof(e)));
}

static int check_err_data(struct dt_pctx *c, struct dt_vstate *v, const struct dt_op *op)
{
	if (op->fd >= 0 && !v->open[op->fd])
		return dt_perr(c, "bad descriptor d%d: not open here", op->fd);
	if (op->fd >= 0 && v->raw[op->fd] == 2)
		return dt_perr(c, "error data on d%d, the filesystem's device: use error meta",
			       op->fd);
	if (op->fd >= 0 && v->dir[op->fd])
		v->direrr = 1;
	return 0;
}

static void gen_falloc_args(struct dt_gen *g, int d, char *buf, size_t len);

static int gen_err_data(struct dt_gen *g)
{
	char eb[16];
	int e = dt_gen_err(g);

	if (dt_gen_rnd(g, 2) || g->raw[g->d] == 2) {
		g->err_file = (int)dt_gen_rnd(g, DT_GEN_FILES);
		fprintf(g->f, "error data f%d %s\n", g->err_file, dt_errname(e, eb, sizeof(eb)));
	} else {
		fprintf(g->f, "error data d%d %s\n", g->d, dt_errname(e, eb, sizeof(eb)));
		g->err_file = g->file[g->d];
		/* one in four on a file: a write, a fallocate, a sync follow */
		if (g->err_file >= 0 && !g->real && !g->raw[g->d] && dt_gen_rnd(g, 4) == 0) {
			g->after_err = 1;
			g->ae_fd = g->d;
		}
	}
	return 1;
}

/*
 * After "error data dN" (after_err 1 to 3): a write (a dirty page: 6.1's
 * ext4 punch waits only then), a fallocate of a mode that waits on the range
 * (gen_falloc_args()), and fsync or fdatasync of dN: is the error still there
 * for the sync (falloc_cursor)? The descriptor stays open: nothing else runs
 * between. After "error meta": "remount ro" (after_err 4), or syncfs, an
 * open of the filesystem's own device and its fsync (5 to 7).
 */
void dt_gen_after_err_step(struct dt_gen *g)
{
	char a[64];
	int d = g->ae_fd;

	g->d = d;
	switch (g->after_err++) {
	case 4:
		fprintf(g->f, "remount ro\n");
		g->after_err = 0;
		return;
	case 5:
		fprintf(g->f, "syncfs d%d\n", d);
		return;
	case 6:
		g->ae_fd = dt_gen_free_fd(g);
		fprintf(g->f, "open d%d dev\n", g->ae_fd);
		gen_opened(g, g->ae_fd, 2, -1);
		g->d = g->ae_fd;
		return;
	case 7:
		fprintf(g->f, "fsync d%d\n", d);
		g->after_err = 0;
		return;
	case 1:
		fprintf(g->f, "write d%d\n", d);
		return;
	case 2:
		gen_falloc_args(g, d, a, sizeof(a));
		fprintf(g->f, "fallocate d%d %s\n", d, a);
		return;
	}
	fprintf(g->f, "%s d%d\n", dt_gen_rnd(g, 2) ? "fsync" : "fdatasync", d);
	g->after_err = 0;
}

static int gen_err_meta(struct dt_gen *g)
{
	char eb[16];

	/* no block device (tmpfs): a data error in its place */
	if (g->has_bdev || g->raw[g->d] == 2) {
		fprintf(g->f, "error meta %s\n", dt_errname(dt_gen_err(g), eb, sizeof(eb)));
		/* one in four: a remount read-only next (does the error fail it,
		 * how often: remount_since) */
		if (dt_gen_rnd(g, 4) == 0)
			g->after_err = 4;
		/* one in eight: syncfs, then the filesystem's own device opened
		 * and fsync'ed (is the error seen there: syncfs_bdev_cursor) */
		else if (dt_gen_rnd(g, 8) == 0 && g->d >= 0 && dt_gen_free_fd(g) >= 0) {
			g->after_err = 5;
			g->ae_fd = g->d;
		}
	} else
		fprintf(g->f, "error data d%d %s\n", g->d, dt_errname(dt_gen_err(g), eb, sizeof(eb)));
	return 1;
}

/* ---- par OP ; OP ---- */

static int parse_par(struct dt_pctx *c, char **tok, int n, struct dt_op *op)
{
	int semi = -1;

	for (int i = 1; i < n; i++)
		if (!strcmp(tok[i], ";"))
			semi = i;
	if (semi < 2 || semi == n - 1)
		return dt_perr(c, "par takes: OP ; OP");
	op->sub = calloc(2, sizeof(*op->sub));
	if (!op->sub)
		return dt_perr(c, "out of memory");
	if (dt_parse_op(c, tok + 1, semi - 1, &op->sub[0], 1) ||
	    dt_parse_op(c, tok + semi + 1, n - semi - 1, &op->sub[1], 1))
		return -1;
	return 0;
}

static void format_par(const struct dt_op *op, char *buf, size_t len)
{
	char a[128], b[128];

	dt_op_format(&op->sub[0], a, sizeof(a));
	dt_op_format(&op->sub[1], b, sizeof(b));
	snprintf(buf, len, "par %s ; %s", a, b);
}

static int check_par(struct dt_pctx *c, struct dt_vstate *v, const struct dt_op *op)
{
	if (dt_check_op(c, v, &op->sub[0], 1) || dt_check_op(c, v, &op->sub[1], 1))
		return -1;
	return 0;
}


/*
 * An op that can race a sync, on @d, into @buf (no newline): a write, an
 * ftruncate, a fallocate, a close, an mmap; a write where the op does not fit
 * (a block device; real mode: no op that frees blocks, no mapping; close and
 * mmap of a mapped descriptor).
 */
static void gen_racer(struct dt_gen *g, int d, char *buf, size_t len)
{
	uint32_t q = dt_gen_rnd(g, 5);
	char a[64];

	if (g->raw[d] || (g->real && q != 3) || (g->mapped[d] && q >= 3))
		q = 0;
	switch (q) {
	case 1:
		snprintf(buf, len, "ftruncate d%d %u", d, dt_gen_rnd(g, 4) * 4096);
		break;
	case 2:
		gen_falloc_args(g, d, a, sizeof(a));
		snprintf(buf, len, "fallocate d%d %s", d, a);
		break;
	case 3:
		snprintf(buf, len, "close d%d", d);
		g->open[d] = 0;
		break;
	case 4:
		snprintf(buf, len, "mmap d%d", d);
		g->mapped[d] = 1;
		break;
	default:
		snprintf(buf, len, "write d%d %u", d,
			 dt_gen_rnd(g, 4) ? 4096 : 1 + dt_gen_rnd(g, 16384));
	}
}

/*
 * Two ops racing, on one descriptor half the time: two syncs, or a sync and
 * an op that changes what it writes back or where its report goes
 * (gen_racer(); a close second, so that the script's rules hold in either
 * thread's order).
 */
static int gen_par(struct dt_gen *g)
{
	static const char *const ops[] = {"syncfs", "fsync", "fdatasync", "syncfs"};
	int d2 = dt_gen_pick_open(g);
	const char *a, *b;
	char r[96];

	if (dt_gen_rnd(g, 2))
		d2 = g->d;
	b = ops[dt_gen_rnd(g, 4)];
	a = ops[dt_gen_rnd(g, 4)];
	if (dt_gen_rnd(g, 2)) {
		fprintf(g->f, "par %s d%d ; %s d%d\n", a, g->d, b, d2);
		return 1;
	}
	gen_racer(g, d2, r, sizeof(r));
	if (!strncmp(r, "close", 5) || dt_gen_rnd(g, 2))
		fprintf(g->f, "par %s d%d ; %s\n", a, g->d, r);
	else
		fprintf(g->f, "par %s ; %s d%d\n", r, a, g->d);
	return 1;
}

/* ---- fail dN, heal ---- */

static void format_fail(const struct dt_op *op, char *buf, size_t len)
{
	snprintf(buf, len, "fail d%d", op->fd);
}

static int check_fail(struct dt_pctx *c, struct dt_vstate *v, const struct dt_op *op)
{
	if (check_fd(c, v, op))
		return -1;
	v->failing = 1;
	return 0;
}

static int check_heal(struct dt_pctx *c, struct dt_vstate *v, const struct dt_op *op)
{
	(void)c;
	(void)op;
	v->failing = v->readfail = 0;
	return 0;
}

/*
 * failread: the guest freezes and thaws the filesystem (a checkpoint: ext4's
 * journal lets go of the inode blocks) and evicts, then the dm error target
 * goes over the block of every script file's inode. Not while fail's extents
 * fail: the freeze would write pages over them back. Until heal, only ops
 * that write no inode block (script.c dt_check_op()).
 */
static int check_failread(struct dt_pctx *c, struct dt_vstate *v, const struct dt_op *op)
{
	(void)op;
	if (v->failing)
		return dt_perr(c, "failread after fail: heal first (its freeze would write back "
			       "over the failed extents)");
	v->readfail = 1;
	return 0;
}

/* in place of unlink (fails_here()); a raw device's descriptor fails the whole device */
static int gen_fail(struct dt_gen *g)
{
	if (!fails_here(g))
		return 0;
	g->failing = dt_gen_rnd(g, 3) != 0;
	if (g->failing)
		fprintf(g->f, "fail d%d\n", g->d);
	else
		fprintf(g->f, "heal\n");
	return 1;
}

/* ---- ftruncate dN LEN ---- */

static int parse_ftruncate(struct dt_pctx *c, char **tok, int n, struct dt_op *op)
{
	if (parse_fd_arg(c, tok, n, op) < 0)
		return -1;
	if (n != 3)
		return dt_perr(c, "ftruncate takes: dN LENGTH");
	if (dt_parse_num(c, tok[2], &op->len, "length"))
		return -1;
	if (op->len < 0 || op->len > DT_MAX_FILE_SIZE)
		return dt_perr(c, "ftruncate length %lld out of range (0..%lld): the model's page "
			       "cache holds %lld MiB of a file", op->len, DT_MAX_FILE_SIZE,
			       DT_MAX_FILE_SIZE >> 20);
	return 0;
}

/* page multiples (a size inside a page would read a failed block to zero its
 * tail); none in real mode (freed failed blocks could be reused): a read */
static int gen_ftruncate(struct dt_gen *g)
{
	if (g->real)
		return gen_read(g);
	fprintf(g->f, "ftruncate d%d %u\n", g->d, dt_gen_rnd(g, 4) * 4096);
	return 1;
}

/* ---- dup dN dM ---- */

static int parse_dup(struct dt_pctx *c, char **tok, int n, struct dt_op *op)
{
	if (parse_fd_arg(c, tok, n, op) < 0 ||
	    (op->fd2 = dt_parse_idx(c, n > 2 ? tok[2] : NULL, 'd', DT_MAX_FDS, "descriptor")) < 0)
		return -1;
	if (n > 3)
		return dt_perr(c, "too many arguments to dup");
	return 0;
}

static void format_dup(const struct dt_op *op, char *buf, size_t len)
{
	snprintf(buf, len, "dup d%d d%d", op->fd, op->fd2);
}

static int check_dup(struct dt_pctx *c, struct dt_vstate *v, const struct dt_op *op)
{
	if (!v->open[op->fd])
		return dt_perr(c, "bad descriptor d%d: not open here", op->fd);
	if (v->open[op->fd2])
		return dt_perr(c, "descriptor d%d is already open", op->fd2);
	v->open[op->fd2] = 1;
	v->desc[op->fd2] = v->desc[op->fd];
	v->raw[op->fd2] = v->raw[op->fd];
	v->dir[op->fd2] = v->dir[op->fd];
	return 0;
}

/* every generated descriptor open: an op in a child instead */
static int gen_child(struct dt_gen *g);

static int gen_dup(struct dt_gen *g)
{
	int nd = dt_gen_free_fd(g);

	if (nd < 0)
		return gen_child(g);
	fprintf(g->f, "dup d%d d%d\n", g->d, nd);
	gen_opened(g, nd, g->raw[g->d], g->file[g->d]);
	return 1;
}

/* ---- fallocate dN MODE OFF LEN ---- */

static int parse_fallocate(struct dt_pctx *c, char **tok, int n, struct dt_op *op)
{
	long fl;

	if (parse_fd_arg(c, tok, n, op) < 0)
		return -1;
	if (n != 5)
		return dt_perr(c, "fallocate takes: dN MODE OFFSET LENGTH");
	fl = dt_falloc_flags(tok[2]);
	if (fl < 0)
		return dt_perr(c, "bad fallocate mode '%s' (KEEP_SIZE|PUNCH_HOLE|COLLAPSE_RANGE|"
			       "ZERO_RANGE|INSERT_RANGE, or a number)", tok[2]);
	op->flags = (unsigned)fl;
	if (dt_parse_num(c, tok[3], &op->off, "offset") ||
	    dt_parse_num(c, tok[4], &op->len, "length"))
		return -1;
	/* the model's page cache holds 4 MiB of a file; an insert moves its end by LEN */
	if (op->off < -1 || op->len < -1 || op->off > (1 << 20) || op->len > (1 << 20))
		return dt_perr(c, "fallocate offset and length must be in -1..1048576");
	return 0;
}

static void format_fallocate(const struct dt_op *op, char *buf, size_t len)
{
	char f[64];

	dt_falloc_format(op->flags, f, sizeof(f));
	snprintf(buf, len, "fallocate d%d %s %lld %lld", op->fd, f, op->off, op->len);
}

/* "MODE OFF LEN" of a random fallocate on @d: with the model's eyes, half the
 * time whole pages inside the file (where collapse and insert take them, and a
 * punch has something to cut) */
static void gen_falloc_args(struct dt_gen *g, int d, char *buf, size_t len)
{
	static const char *const modes[] = {
		"0", "KEEP", "PUNCH|KEEP", "COLLAPSE", "INSERT", "ZERO", "ZERO|KEEP", "PUNCH",
	};
	static const uint32_t waits[] = {2, 3, 4, 7};
	struct dt_gen_view v;
	uint32_t mi, off, n, pages;
	int err;

	/* on the file of the last data error: a mode that waits on the range
	 * (punch, collapse, insert), on whole pages inside the file: does the
	 * error stay for fsync (falloc_cursor)? */
	err = g->err_file >= 0 && g->err_file == g->file[d];
	mi = err ? waits[dt_gen_rnd(g, 4)] : dt_gen_rnd(g, 8);
	if (g->look && !dt_gen_look(g, &v) && v.size[d] > 4096 && (err || dt_gen_rnd(g, 2))) {
		/* at most 1 MiB in (the parser's bound) */
		pages = v.size[d] > (1 << 20) ? 256 : (uint32_t)((v.size[d] + 4095) / 4096);
		off = dt_gen_rnd(g, pages - 1);
		n = 1 + dt_gen_rnd(g, pages - 1 - off);
		snprintf(buf, len, "%s %u %u", modes[mi], off * 4096, n * 4096);
		return;
	}
	off = dt_gen_rnd(g, 8) ? dt_gen_rnd(g, 4) * 4096 : dt_gen_rnd(g, 9000);
	n = dt_gen_rnd(g, 10) ? (1 + dt_gen_rnd(g, 3)) * 4096 : dt_gen_rnd(g, 6000);
	snprintf(buf, len, "%s %u %u", modes[mi], off, n);
}

/* none in real mode (it frees and moves blocks), nor on a block device: a read */
static int gen_fallocate(struct dt_gen *g)
{
	char a[64];

	if (g->real || g->raw[g->d])
		return gen_read(g);
	gen_falloc_args(g, g->d, a, sizeof(a));
	fprintf(g->f, "fallocate d%d %s\n", g->d, a);
	return 1;
}

/* ---- cycle ---- */

static int check_cycle(struct dt_pctx *c, struct dt_vstate *v, const struct dt_op *op)
{
	(void)op;
	for (int i = 0; i < DT_MAX_FDS; i++)
		if (v->open[i] && !v->raw[i])
			return dt_perr(c, "cycle with d%d open (umount would fail: EBUSY); close "
				       "every descriptor but the block devices' first", i);
	return 0;
}

/* umount + mount: every descriptor closed first */
static int gen_cycle(struct dt_gen *g)
{
	gen_close_all(g);
	fprintf(g->f, "cycle\n");
	return 1;
}

/* ---- link fM fN, rename fM fN ---- */

/* real mode: no rename (it frees the target's blocks) */
static int gen_link(struct dt_gen *g)
{
	uint32_t to, from;
	int link;

	if (g->direrr) {
		fprintf(g->f, "fsyncdir\n"); /* no link, rename after an error of the directory */
		return 1;
	}
	to = dt_gen_rnd(g, DT_GEN_FILES);
	from = dt_gen_rnd(g, DT_GEN_FILES);
	link = dt_gen_rnd(g, 2) || g->real;

	fprintf(g->f, "%s f%u f%u\n", link ? "link" : "rename", from, to);
	return 1;
}

/* ---- child OP ---- */

static int parse_child(struct dt_pctx *c, char **tok, int n, struct dt_op *op)
{
	if (n < 2)
		return dt_perr(c, "child takes: OP");
	op->sub = calloc(2, sizeof(*op->sub));
	if (!op->sub)
		return dt_perr(c, "out of memory");
	if (dt_parse_op(c, tok + 1, n - 1, &op->sub[0], 1))
		return -1;
	op->sub[1] = op->sub[0];
	return 0;
}

static void format_child(const struct dt_op *op, char *buf, size_t len)
{
	char a[128];

	dt_op_format(&op->sub[0], a, sizeof(a));
	snprintf(buf, len, "child %s", a);
}

static int check_child(struct dt_pctx *c, struct dt_vstate *v, const struct dt_op *op)
{
	if (!dt_ops[op->sub[0].code].child)
		return dt_perr(c, "child runs a descriptor op (write, read, ftruncate, fallocate, "
			       "fsync, fdatasync, sfr, syncfs), not %s", dt_opname(op->sub[0].code));
	if (op->sub[0].fd >= 0 && v->open[op->sub[0].fd] && v->dir[op->sub[0].fd])
		return dt_perr(c, "child on d%d, the directory's descriptor: not modelled",
			       op->sub[0].fd);
	return dt_check_op(c, v, &op->sub[0], 0);
}

/*
 * A descriptor op in a forked child: a sync, a write, an ftruncate or a
 * fallocate on the parent's struct file (not in real mode, nor on a block
 * device: a sync or a write). Not close or mmap: what a child closes or maps
 * goes with it, nothing the parent's descriptors see.
 */
static int gen_child(struct dt_gen *g)
{
	static const char *const cops[] = {"fsync", "fdatasync", "syncfs", "write"};
	uint32_t q = dt_gen_rnd(g, 6);
	char a[64];

	if (q == 4 && !g->real && !g->raw[g->d]) {
		fprintf(g->f, "child ftruncate d%d %u\n", g->d, dt_gen_rnd(g, 4) * 4096);
	} else if (q == 5 && !g->real && !g->raw[g->d]) {
		gen_falloc_args(g, g->d, a, sizeof(a));
		fprintf(g->f, "child fallocate d%d %s\n", g->d, a);
	} else {
		fprintf(g->f, "child %s d%d\n", cops[q % 4], g->d);
	}
	return 1;
}

/* ---- mmap dN, mwrite dN OFF LEN, msync dN sync|async, munmap dN ---- */

static int parse_mwrite(struct dt_pctx *c, char **tok, int n, struct dt_op *op)
{
	if (parse_fd_arg(c, tok, n, op) < 0)
		return -1;
	if (n != 4)
		return dt_perr(c, "mwrite takes: dN OFFSET LENGTH");
	if (dt_parse_num(c, tok[2], &op->off, "offset") ||
	    dt_parse_num(c, tok[3], &op->len, "length"))
		return -1;
	if (op->off < 0 || op->len < 1)
		return dt_perr(c, "mwrite offset %lld and length %lld: want OFFSET >= 0, LENGTH >= 1",
			       op->off, op->len);
	/* OFFSET + LENGTH without computing it: the sum of two long longs can overflow */
	if (op->off > DT_MAX_FILE_SIZE || op->len > DT_MAX_FILE_SIZE - op->off)
		return dt_perr(c, "mwrite offset %lld and length %lld end past %lld: a store lies "
			       "in the first %lld MiB (the model's page cache of a file)", op->off,
			       op->len, DT_MAX_FILE_SIZE, DT_MAX_FILE_SIZE >> 20);
	return 0;
}

static void format_mwrite(const struct dt_op *op, char *buf, size_t len)
{
	snprintf(buf, len, "mwrite d%d %lld %lld", op->fd, op->off, op->len);
}

static int parse_msync(struct dt_pctx *c, char **tok, int n, struct dt_op *op)
{
	if (parse_fd_arg(c, tok, n, op) < 0)
		return -1;
	if (n != 3 || (strcmp(tok[2], "sync") && strcmp(tok[2], "async")))
		return dt_perr(c, "msync takes: dN sync|async");
	op->flags = !strcmp(tok[2], "sync") ? MSYNC_SYNC : MSYNC_ASYNC;
	return 0;
}

static void format_msync(const struct dt_op *op, char *buf, size_t len)
{
	snprintf(buf, len, "msync d%d %s", op->fd, op->flags & MSYNC_SYNC ? "sync" : "async");
}

/* a mapping is made on a file's descriptor, used and removed while it exists */
static int check_map(struct dt_pctx *c, struct dt_vstate *v, const struct dt_op *op)
{
	if (!v->open[op->fd])
		return dt_perr(c, "bad descriptor d%d: not open here", op->fd);
	if (v->raw[op->fd])
		return dt_perr(c, "%s of d%d, a block device: not modelled", dt_opname(op->code),
			       op->fd);
	if (op->code == OP_MMAP && v->mapped[op->fd])
		return dt_perr(c, "d%d is mapped already (munmap it first)", op->fd);
	if (op->code != OP_MMAP && !v->mapped[op->fd])
		return dt_perr(c, "d%d has no mapping here (mmap it first)", op->fd);
	v->mapped[op->fd] = op->code != OP_MUNMAP;
	return 0;
}

/* a store inside a mapping of @maplen bytes, page-aligned three times in four */
static void gen_mwrite(struct dt_gen *g, int d, long long maplen)
{
	long long off = (long long)dt_gen_rnd(g, (uint32_t)(maplen / 4096)) * 4096;
	long long room;

	off += dt_gen_rnd(g, 4) ? 0 : dt_gen_rnd(g, 4096);
	room = maplen - off;
	fprintf(g->f, "mwrite d%d %lld %u\n", d, off,
		1 + dt_gen_rnd(g, (uint32_t)(room < 8192 ? room : 8192)));
}

/*
 * A shared mapping: mmap, stores, msync, munmap (not in real mode: a fault
 * reading a failed block is SIGBUS; not on a block device). With the model's
 * eyes, an mmap the model would refuse (an empty file: EINVAL; read-only:
 * EACCES; not open: EBADF) one time in sixteen, else first what makes it
 * succeed (a write; a read, a close); stores and msync only in a mapping that
 * exists, and the munmap of one that does not.
 */
static int gen_mmap(struct dt_gen *g)
{
	struct dt_gen_view v;
	uint32_t q, off, len;
	int d = g->d;

	if (g->raw[d])
		return gen_read(g);
	if (g->real)
		return gen_child(g);
	q = dt_gen_rnd(g, 6);
	if (g->look) {
		if (dt_gen_look(g, &v))
			abort(); /* the tool's look says why */
		/* a mapping made, three times in four: its descriptor */
		for (int i = 0, n = 0; i < DT_GEN_FDS; i++)
			if (g->mapped[i] && v.map_len[i] && dt_gen_rnd(g, ++n) == 0)
				d = i;
		if (d != g->d && dt_gen_rnd(g, 4) == 0)
			d = g->d;
		g->d = d;
		if (!g->mapped[d]) {
			if ((v.size[d] <= 0 || v.rdonly[d]) && dt_gen_rnd(g, 16)) {
				if (v.size[d] < 0)
					return gen_close(g);
				return v.rdonly[d] ? gen_read(g) : gen_write(g);
			}
			fprintf(g->f, "mmap d%d\n", d);
			g->mapped[d] = 1;
		} else if (v.map_len[d] && q < 3) {
			gen_mwrite(g, d, v.map_len[d]);
		} else if (v.map_len[d] && q < 5) {
			fprintf(g->f, "msync d%d %s\n", d, q == 3 ? "sync" : "async");
		} else {
			fprintf(g->f, "munmap d%d\n", d);
			g->mapped[d] = 0;
		}
		return 1;
	}
	if (!g->mapped[d]) {
		fprintf(g->f, "mmap d%d\n", d);
		g->mapped[d] = 1;
	} else if (q < 3) {
		len = 1 + dt_gen_rnd(g, 8192);
		off = dt_gen_rnd(g, 3) * 4096;
		off += dt_gen_rnd(g, 4) ? 0 : dt_gen_rnd(g, 4096);
		fprintf(g->f, "mwrite d%d %u %u\n", d, off, len);
	} else if (q < 5) {
		fprintf(g->f, "msync d%d %s\n", d, q == 3 ? "sync" : "async");
	} else {
		fprintf(g->f, "munmap d%d\n", d);
		g->mapped[d] = 0;
	}
	return 1;
}

/* ---- remount ro|rw ---- */

static int parse_remount(struct dt_pctx *c, char **tok, int n, struct dt_op *op)
{
	if (n != 2 || (strcmp(tok[1], "ro") && strcmp(tok[1], "rw")))
		return dt_perr(c, "remount takes: ro|rw");
	op->flags = !strcmp(tok[1], "ro") ? REMOUNT_RO : 0;
	return 0;
}

static void format_remount(const struct dt_op *op, char *buf, size_t len)
{
	snprintf(buf, len, "remount %s", op->flags & REMOUNT_RO ? "ro" : "rw");
}

static int gen_remount(struct dt_gen *g)
{
	fprintf(g->f, "remount %s\n", dt_gen_rnd(g, 2) ? "ro" : "rw");
	return 1;
}

/* ---- fsyncdir ----
 * The test directory opened, fsync'ed and closed in one op (an application's
 * fsync of a file's parent directory): no descriptor, so nothing to check;
 * its own struct file in each thread would race outside the model's orders,
 * and the generator makes none (a share would change every seed's scripts).
 */

/* ---- the registry ---- */

/* a share of the random scripts (ops.h): of 100 draws, first or main; a slot of the extra tier */
#define FIRST(lo, hi) .gen = {DT_GEN_FIRST, lo, hi}
#define MAIN(lo, hi) .gen = {DT_GEN_MAIN, lo, hi}
#define EXTRA(slot) .gen = {DT_GEN_EXTRA, slot, slot + 1}
#define EXTRAS(lo, hi) .gen = {DT_GEN_EXTRA, lo, hi}

const struct dt_opdesc dt_ops[OP__COUNT] = {
	[OP_OPEN] = {"open", NULL, parse_open, format_open, check_open,
		     FIRST(0, 14), .gen_line = gen_open},
	/* below 14 too: open's draws with every descriptor open */
	[OP_WRITE] = {"write", NULL, parse_rw, format_fd_len, check_fd, .par = 1, .child = 1,
		      MAIN(0, 26), .gen_line = gen_write},
	[OP_FSYNC] = {"fsync", NULL, parse_fd, format_fd, check_fd, .par = 1, .child = 1,
		      MAIN(26, 36), .gen_line = gen_fsync},
	[OP_FDATASYNC] = {"fdatasync", NULL, parse_fd, format_fd, check_fd, .par = 1, .child = 1,
			  MAIN(36, 41), .gen_line = gen_fdatasync},
	[OP_SFR] = {"sfr", NULL, parse_sfr, format_sfr, check_fd, .par = 1, .child = 1,
		    MAIN(41, 48), .gen_line = gen_sfr},
	[OP_SYNCFS] = {"syncfs", NULL, parse_fd, format_fd, check_fd, .par = 1, .child = 1,
		       MAIN(48, 55), .gen_line = gen_syncfs},
	[OP_CLOSE] = {"close", NULL, parse_fd, format_fd, check_close, .par = 1,
		      MAIN(55, 64), .gen_line = gen_close},
	[OP_UNLINK] = {"unlink", NULL, parse_unlink, format_unlink, NULL,
		       MAIN(64, 68), .gen_line = gen_unlink},
	[OP_EVICT] = {"evict", NULL, parse_none, format_none, NULL,
		      MAIN(68, 74), .gen_line = gen_evict},
	[OP_SYNC] = {"sync", NULL, parse_none, format_none, NULL, .par = 1,
		     MAIN(74, 76), .gen_line = gen_sync},
	/* one word, two ops: the first entry's parser tells them apart */
	[OP_ERR_DATA] = {"error", "error data", parse_error, format_error, check_err_data,
			 MAIN(76, 88), .gen_line = gen_err_data},
	[OP_ERR_META] = {"error", "error meta", parse_error, format_error, NULL, .par = 1,
			 MAIN(88, 93), .gen_line = gen_err_meta},
	[OP_PAR] = {"par", NULL, parse_par, format_par, check_par, .line_only = 1,
		    MAIN(93, 100), .gen_line = gen_par},
	/* where unlink declines (fails_here()); heal too */
	[OP_FAIL] = {"fail", NULL, parse_fd, format_fail, check_fail,
		     MAIN(64, 68), .gen_line = gen_fail},
	[OP_HEAL] = {"heal", NULL, parse_none, format_none, check_heal},
	[OP_READ] = {"read", NULL, parse_rw, format_fd_len, check_fd, .child = 1,
		     EXTRA(0), .gen_line = gen_read},
	[OP_FTRUNCATE] = {"ftruncate", NULL, parse_ftruncate, format_fd_len, check_fd, .par = 1,
			  .child = 1,
			  EXTRA(1), .gen_line = gen_ftruncate},
	[OP_DUP] = {"dup", NULL, parse_dup, format_dup, check_dup,
		    EXTRA(2), .gen_line = gen_dup},
	[OP_FALLOCATE] = {"fallocate", NULL, parse_fallocate, format_fallocate, check_fd,
			  .par = 1, .child = 1, EXTRAS(4, 6), .gen_line = gen_fallocate},
	[OP_CYCLE] = {"cycle", NULL, parse_none, format_none, check_cycle,
		      EXTRA(6), .gen_line = gen_cycle},
	/* rename too */
	[OP_LINK] = {"link", NULL, parse_two_files, format_two_files, NULL,
		     EXTRA(7), .gen_line = gen_link},
	[OP_RENAME] = {"rename", NULL, parse_two_files, format_two_files, NULL},
	[OP_CHILD] = {"child", NULL, parse_child, format_child, check_child, .line_only = 1,
		      EXTRA(3), .gen_line = gen_child},
	/* mwrite, msync, munmap too */
	[OP_MMAP] = {"mmap", NULL, parse_fd, format_fd, check_map, .par = 1,
		     EXTRAS(8, 12), .gen_line = gen_mmap},
	[OP_MWRITE] = {"mwrite", NULL, parse_mwrite, format_mwrite, check_map},
	[OP_MSYNC] = {"msync", NULL, parse_msync, format_msync, check_map},
	[OP_MUNMAP] = {"munmap", NULL, parse_fd, format_fd, check_map},
	[OP_REMOUNT] = {"remount", NULL, parse_remount, format_remount, NULL,
			EXTRAS(12, 14), .gen_line = gen_remount},
	[OP_FSYNCDIR] = {"fsyncdir", NULL, parse_none, format_none, NULL},
	[OP_FAILREAD] = {"failread", NULL, parse_none, format_none, check_failread},
	[OP_DIRSYNC] = {"dirsync", NULL, parse_none, format_none, NULL},
};

const char *dt_opname(enum dt_opcode c)
{
	return (unsigned)c < OP__COUNT ? dt_ops[c].name : "?";
}

const char *dt_oplabel(enum dt_opcode c)
{
	return (unsigned)c < OP__COUNT && dt_ops[c].label ? dt_ops[c].label : dt_opname(c);
}
