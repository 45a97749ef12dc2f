// SPDX-License-Identifier: GPL-2.0
/* difftest script parser and printer; see script.h for the format. */
#define _GNU_SOURCE
#include "script.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const opnames[OP__COUNT] = {
	[OP_OPEN] = "open",	    [OP_WRITE] = "write",   [OP_FSYNC] = "fsync",
	[OP_FDATASYNC] = "fdatasync", [OP_SFR] = "sfr",     [OP_SYNCFS] = "syncfs",
	[OP_CLOSE] = "close",	    [OP_UNLINK] = "unlink", [OP_EVICT] = "evict",
	[OP_READ] = "read", [OP_FTRUNCATE] = "ftruncate", [OP_DUP] = "dup", [OP_FALLOCATE] = "fallocate", [OP_CYCLE] = "cycle", [OP_LINK] = "link", [OP_RENAME] = "rename", [OP_CHILD] = "child",
	[OP_MMAP] = "mmap", [OP_MWRITE] = "mwrite", [OP_MSYNC] = "msync", [OP_MUNMAP] = "munmap", [OP_REMOUNT] = "remount",
	[OP_SYNC] = "sync",	    [OP_ERR_DATA] = "error", [OP_ERR_META] = "error",
	[OP_PAR] = "par",	    [OP_FAIL] = "fail",     [OP_HEAL] = "heal",
};

const char *dt_opname(enum dt_opcode c)
{
	return (unsigned)c < OP__COUNT ? opnames[c] : "?";
}

static const struct {
	const char *name;
	int num;
} errnames[] = {
	{"EPERM", EPERM},   {"ENOENT", ENOENT}, {"EIO", EIO},	    {"ENXIO", ENXIO},
	{"EBADF", EBADF},   {"EAGAIN", EAGAIN}, {"ENOMEM", ENOMEM}, {"EACCES", EACCES},
	{"EFAULT", EFAULT}, {"EBUSY", EBUSY},	{"EEXIST", EEXIST}, {"ENODEV", ENODEV},
	{"EINVAL", EINVAL}, {"EFBIG", EFBIG},	{"ENOSPC", ENOSPC}, {"ESPIPE", ESPIPE},
	{"EROFS", EROFS},   {"EPIPE", EPIPE},	{"EDQUOT", EDQUOT}, {"ENOLINK", ENOLINK},
	{"EREMOTEIO", EREMOTEIO}, {"ENODATA", ENODATA}, {"ETIMEDOUT", ETIMEDOUT},
	{"EUCLEAN", EUCLEAN}, {"EOPNOTSUPP", EOPNOTSUPP},
};

void dt_script_class(const char *name, char *buf, size_t len)
{
	size_t n;

	if (!strncmp(name, "scn.", 4))
		name += 4;
	n = strcspn(name, ".~");
	if (n >= len)
		n = len - 1;
	memcpy(buf, name, n);
	buf[n] = 0;
}

const char *dt_errname(int err, char *buf, size_t len)
{
	if (err == 0)
		return "0";
	for (size_t i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (errnames[i].num == err)
			return errnames[i].name;
	snprintf(buf, len, "%d", err);
	return buf;
}

int dt_errnum(const char *name)
{
	char *end;
	long v;

	for (size_t i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (!strcasecmp(errnames[i].name, name))
			return errnames[i].num;
	v = strtol(name, &end, 10);
	if (*name && !*end && v >= 1 && v <= 4095)
		return (int)v;
	return -1;
}

struct flagname {
	const char *name, *abbr;
	unsigned flag;
};

static const struct flagname fallocs[] = {
	{"KEEP_SIZE", "KEEP", FALLOC_KEEP_SIZE},
	{"PUNCH_HOLE", "PUNCH", FALLOC_PUNCH_HOLE},
	{"COLLAPSE_RANGE", "COLLAPSE", FALLOC_COLLAPSE_RANGE},
	{"ZERO_RANGE", "ZERO", FALLOC_ZERO_RANGE},
	{"INSERT_RANGE", "INSERT", FALLOC_INSERT_RANGE},
};

static const struct flagname sfrs[] = {
	{"WAIT_BEFORE", "WB", SFR_WAIT_BEFORE},
	{"WRITE", "W", SFR_WRITE},
	{"WAIT_AFTER", "WA", SFR_WAIT_AFTER},
};

/* "NAME|ABBR|..." over table @t, or a number 0..@max; -1 on error */
static long flags_parse(const char *s, const struct flagname *t, size_t n, long max)
{
	long flags = 0;
	char buf[128], *tok, *save = NULL;
	char *end;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	if (isdigit((unsigned char)buf[0])) {
		long v = strtol(buf, &end, 0);

		return (*end || v < 0 || v > max) ? -1 : v;
	}
	for (tok = strtok_r(buf, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
		size_t i;

		for (i = 0; i < n && strcmp(tok, t[i].name) && strcmp(tok, t[i].abbr); i++)
			;
		if (i == n)
			return -1;
		flags |= t[i].flag;
	}
	return flags;
}

long dt_falloc_flags(const char *s)
{
	return flags_parse(s, fallocs, sizeof(fallocs) / sizeof(fallocs[0]), 0xff);
}

void dt_falloc_format(unsigned flags, char *buf, size_t len)
{
	size_t o = 0;
	unsigned rest = flags;

	if (len)
		buf[0] = 0;
	for (unsigned i = 0; i < sizeof(fallocs) / sizeof(fallocs[0]); i++)
		if (flags & fallocs[i].flag) {
			o += snprintf(buf + o, o < len ? len - o : 0, "%s%s", o ? "|" : "",
				      fallocs[i].abbr);
			rest &= ~fallocs[i].flag;
		}
	if (!flags || rest)
		snprintf(buf, len, "%u", flags); /* 0, or bits without a name: the number */
}

long dt_sfr_flags(const char *s)
{
	return flags_parse(s, sfrs, sizeof(sfrs) / sizeof(sfrs[0]), 0xffff);
}

void dt_sfr_format(unsigned flags, char *buf, size_t len)
{
	static const char *const n[] = {"WAIT_BEFORE", "WRITE", "WAIT_AFTER"};
	size_t o = 0;

	buf[0] = 0;
	if (flags & ~7u) {
		snprintf(buf, len, "%u", flags);
		return;
	}
	if (!flags) {
		snprintf(buf, len, "0");
		return;
	}
	for (int i = 0; i < 3; i++)
		if (flags & (1u << i))
			o += snprintf(buf + o, o < len ? len - o : 0, "%s%s", o ? "|" : "", n[i]);
}

void dt_op_format(const struct dt_op *op, char *buf, size_t len)
{
	char e[16], f[64], a[128], b[128];

	switch (op->code) {
	case OP_OPEN:
		if (op->file == DT_FILE_RAW || op->file == DT_FILE_DEV)
			snprintf(f, sizeof(f), op->file == DT_FILE_RAW ? "raw" : "dev");
		else
			snprintf(f, sizeof(f), "f%d", op->file);
		snprintf(buf, len, "open d%d %s%s%s%s%s%s%s", op->fd, f,
			 op->flags & OPEN_CREAT ? " creat" : "",
			 op->flags & OPEN_TRUNC ? " trunc" : "",
			 op->flags & OPEN_RDONLY ? " rdonly" : "",
			 op->flags & OPEN_SYNC ? " sync" : "",
			 op->flags & OPEN_DSYNC ? " dsync" : "",
			 op->flags & OPEN_DIRECT ? " direct" : "");
		break;
	case OP_WRITE:
	case OP_READ:
	case OP_FTRUNCATE:
		snprintf(buf, len, "%s d%d %lld", dt_opname(op->code), op->fd, op->len);
		break;
	case OP_FSYNC:
	case OP_FDATASYNC:
	case OP_SYNCFS:
	case OP_CLOSE:
	case OP_MMAP:
	case OP_MUNMAP:
		snprintf(buf, len, "%s d%d", dt_opname(op->code), op->fd);
		break;
	case OP_MWRITE:
		snprintf(buf, len, "mwrite d%d %lld %lld", op->fd, op->off, op->len);
		break;
	case OP_REMOUNT:
		snprintf(buf, len, "remount %s", op->flags & REMOUNT_RO ? "ro" : "rw");
		break;
	case OP_MSYNC:
		snprintf(buf, len, "msync d%d %s", op->fd, op->flags & MSYNC_SYNC ? "sync" : "async");
		break;
	case OP_SFR:
		dt_sfr_format(op->flags, f, sizeof(f));
		if (op->off || op->len)
			snprintf(buf, len, "sfr d%d %s %lld %lld", op->fd, f, op->off, op->len);
		else
			snprintf(buf, len, "sfr d%d %s", op->fd, f);
		break;
	case OP_UNLINK:
		snprintf(buf, len, "unlink f%d", op->file);
		break;
	case OP_LINK:
	case OP_RENAME:
		snprintf(buf, len, "%s f%d f%d", dt_opname(op->code), op->file, op->file2);
		break;
	case OP_FAIL:
		snprintf(buf, len, "fail d%d", op->fd);
		break;
	case OP_HEAL:
	case OP_EVICT:
	case OP_SYNC:
	case OP_CYCLE:
		snprintf(buf, len, "%s", dt_opname(op->code));
		break;
	case OP_ERR_DATA:
		if (op->file >= 0)
			snprintf(buf, len, "error data f%d %s", op->file,
				 dt_errname(op->err, e, sizeof(e)));
		else
			snprintf(buf, len, "error data d%d %s", op->fd,
				 dt_errname(op->err, e, sizeof(e)));
		break;
	case OP_ERR_META:
		snprintf(buf, len, "error meta %s", dt_errname(op->err, e, sizeof(e)));
		break;
	case OP_DUP:
		snprintf(buf, len, "dup d%d d%d", op->fd, op->fd2);
		break;
	case OP_FALLOCATE:
		dt_falloc_format(op->flags, f, sizeof(f));
		snprintf(buf, len, "fallocate d%d %s %lld %lld", op->fd, f, op->off, op->len);
		break;
	case OP_CHILD:
		dt_op_format(&op->sub[0], a, sizeof(a));
		snprintf(buf, len, "child %s", a);
		break;
	case OP_PAR:
		dt_op_format(&op->sub[0], a, sizeof(a));
		dt_op_format(&op->sub[1], b, sizeof(b));
		snprintf(buf, len, "par %s ; %s", a, b);
		break;
	default:
		snprintf(buf, len, "?");
	}
}

void dt_script_print(FILE *f, const struct dt_script *s)
{
	char buf[300];

	fprintf(f, "script %s\n", s->name);
	for (int i = 0; i < s->nops; i++) {
		dt_op_format(&s->ops[i], buf, sizeof(buf));
		fprintf(f, "%s\n", buf);
	}
	fprintf(f, "end\n");
}

/* ---- parsing ---- */

struct pctx {
	const char *fname;
	int line;
	char *err;
	size_t errlen;
	int failed;
};

static int perr(struct pctx *c, const char *fmt, ...)
{
	va_list ap;
	size_t o;

	if (c->failed)
		return -1;
	c->failed = 1;
	o = (size_t)snprintf(c->err, c->errlen, "%s:%d: ", c->fname, c->line);
	va_start(ap, fmt);
	if (o < c->errlen)
		vsnprintf(c->err + o, c->errlen - o, fmt, ap);
	va_end(ap);
	return -1;
}

static int parse_idx(struct pctx *c, const char *tok, char prefix, int max, const char *what)
{
	char *end;
	long v;

	if (!tok)
		return perr(c, "missing %s (%c0..%c%d)", what, prefix, prefix, max - 1);
	if (tok[0] != prefix || !isdigit((unsigned char)tok[1]))
		return perr(c, "bad %s '%s' (want %c0..%c%d)", what, tok, prefix, prefix, max - 1);
	v = strtol(tok + 1, &end, 10);
	if (*end || v < 0 || v >= max)
		return perr(c, "bad %s '%s' (want %c0..%c%d)", what, tok, prefix, prefix, max - 1);
	return (int)v;
}

static int parse_num(struct pctx *c, const char *tok, long long *out, const char *what)
{
	char *end;

	if (!tok)
		return perr(c, "missing %s", what);
	errno = 0;
	*out = strtoll(tok, &end, 0);
	if (*end || errno)
		return perr(c, "bad %s '%s'", what, tok);
	return 0;
}

#define MAXTOK 16

/* Parse one op from tokens tok[0..n). */
static int parse_op(struct pctx *c, char **tok, int n, struct dt_op *op)
{
	const char *w = tok[0];
	int i;

	memset(op, 0, sizeof(*op));
	op->line = c->line;
	op->fd = -1;
	op->fd2 = -1;
	op->file = -1;
	op->file2 = -1;
	if (!strcmp(w, "link") || !strcmp(w, "rename")) {
		op->code = !strcmp(w, "link") ? OP_LINK : OP_RENAME;
		if ((op->file = parse_idx(c, n > 1 ? tok[1] : NULL, 'f', DT_MAX_FILES, "file")) < 0 ||
		    (op->file2 = parse_idx(c, n > 2 ? tok[2] : NULL, 'f', DT_MAX_FILES, "file")) < 0)
			return -1;
		if (n > 3)
			return perr(c, "too many arguments to %s", w);
		return 0;
	}
	if (!strcmp(w, "dup")) {
		op->code = OP_DUP;
		if ((op->fd = parse_idx(c, n > 1 ? tok[1] : NULL, 'd', DT_MAX_FDS, "descriptor")) < 0 ||
		    (op->fd2 = parse_idx(c, n > 2 ? tok[2] : NULL, 'd', DT_MAX_FDS, "descriptor")) < 0)
			return -1;
		if (n > 3)
			return perr(c, "too many arguments to dup");
		return 0;
	}
	if (!strcmp(w, "open")) {
		op->code = OP_OPEN;
		if ((op->fd = parse_idx(c, n > 1 ? tok[1] : NULL, 'd', DT_MAX_FDS, "descriptor")) < 0)
			return -1;
		if (n > 2 && !strcmp(tok[2], "raw"))
			op->file = DT_FILE_RAW;
		else if (n > 2 && !strcmp(tok[2], "dev"))
			op->file = DT_FILE_DEV;
		else if ((op->file = parse_idx(c, n > 2 ? tok[2] : NULL, 'f', DT_MAX_FILES,
					       "file (or raw, dev)")) < 0)
			return -1;
		for (i = 3; i < n; i++) {
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
				return perr(c, "unknown open flag '%s' (want creat, trunc, rdonly, sync, "
					    "dsync, direct)", tok[i]);
		}
		if (op->file == DT_FILE_RAW && (op->flags & (OPEN_CREAT | OPEN_TRUNC)))
			return perr(c, "open raw takes rdonly, sync, dsync, direct (not creat, trunc)");
		if (op->file == DT_FILE_DEV && op->flags)
			return perr(c, "open dev takes no flags (it is read-only)");
		if (op->file == DT_FILE_DEV)
			op->flags = OPEN_RDONLY;
		return 0;
	}
	if (!strcmp(w, "write") || !strcmp(w, "read")) {
		op->code = !strcmp(w, "write") ? OP_WRITE : OP_READ;
		if ((op->fd = parse_idx(c, n > 1 ? tok[1] : NULL, 'd', DT_MAX_FDS, "descriptor")) < 0)
			return -1;
		op->len = 4096;
		if (n > 2 && parse_num(c, tok[2], &op->len, "length"))
			return -1;
		if (op->len < 0 || op->len > (1 << 20))
			return perr(c, "%s length %lld out of range (0..1048576)", w, op->len);
		if (n > 3)
			return perr(c, "too many arguments to %s", w);
		return 0;
	}
	if (!strcmp(w, "remount")) {
		op->code = OP_REMOUNT;
		if (n != 2 || (strcmp(tok[1], "ro") && strcmp(tok[1], "rw")))
			return perr(c, "remount takes: ro|rw");
		op->flags = !strcmp(tok[1], "ro") ? REMOUNT_RO : 0;
		return 0;
	}
	if (!strcmp(w, "mmap") || !strcmp(w, "munmap") || !strcmp(w, "mwrite") ||
	    !strcmp(w, "msync")) {
		op->code = !strcmp(w, "mmap") ? OP_MMAP : !strcmp(w, "munmap") ? OP_MUNMAP
			   : !strcmp(w, "mwrite") ? OP_MWRITE : OP_MSYNC;
		if ((op->fd = parse_idx(c, n > 1 ? tok[1] : NULL, 'd', DT_MAX_FDS, "descriptor")) < 0)
			return -1;
		if (op->code == OP_MWRITE) {
			if (n != 4)
				return perr(c, "mwrite takes: dN OFFSET LENGTH");
			if (parse_num(c, tok[2], &op->off, "offset") ||
			    parse_num(c, tok[3], &op->len, "length"))
				return -1;
			if (op->off < 0 || op->len < 1 || op->off + op->len > DT_MAX_FILE_SIZE)
				return perr(c, "mwrite offset and length must lie in the first %lld MiB",
					    DT_MAX_FILE_SIZE >> 20);
			return 0;
		}
		if (op->code == OP_MSYNC) {
			if (n != 3 || (strcmp(tok[2], "sync") && strcmp(tok[2], "async")))
				return perr(c, "msync takes: dN sync|async");
			op->flags = !strcmp(tok[2], "sync") ? MSYNC_SYNC : MSYNC_ASYNC;
			return 0;
		}
		if (n > 2)
			return perr(c, "too many arguments to %s", w);
		return 0;
	}
	if (!strcmp(w, "fallocate")) {
		long fl;

		op->code = OP_FALLOCATE;
		if ((op->fd = parse_idx(c, n > 1 ? tok[1] : NULL, 'd', DT_MAX_FDS, "descriptor")) < 0)
			return -1;
		if (n != 5)
			return perr(c, "fallocate takes: dN MODE OFFSET LENGTH");
		fl = dt_falloc_flags(tok[2]);
		if (fl < 0)
			return perr(c, "bad fallocate mode '%s' (KEEP_SIZE|PUNCH_HOLE|COLLAPSE_RANGE|"
				    "ZERO_RANGE|INSERT_RANGE, or a number)", tok[2]);
		op->flags = (unsigned)fl;
		if (parse_num(c, tok[3], &op->off, "offset") || parse_num(c, tok[4], &op->len, "length"))
			return -1;
		/* the model's page cache holds 4 MiB of a file; an insert moves
		 * its end by LEN */
		if (op->off < -1 || op->len < -1 || op->off > (1 << 20) || op->len > (1 << 20))
			return perr(c, "fallocate offset and length must be in -1..1048576");
		return 0;
	}
	if (!strcmp(w, "ftruncate")) {
		op->code = OP_FTRUNCATE;
		if ((op->fd = parse_idx(c, n > 1 ? tok[1] : NULL, 'd', DT_MAX_FDS, "descriptor")) < 0)
			return -1;
		if (n != 3)
			return perr(c, "ftruncate takes: dN LENGTH");
		if (parse_num(c, tok[2], &op->len, "length"))
			return -1;
		if (op->len < 0 || op->len > DT_MAX_FILE_SIZE)
			return perr(c, "ftruncate length %lld out of range (0..%lld): the model's page "
				    "cache holds %lld MiB of a file", op->len, DT_MAX_FILE_SIZE,
				    DT_MAX_FILE_SIZE >> 20);
		return 0;
	}
	if (!strcmp(w, "fsync") || !strcmp(w, "fdatasync") || !strcmp(w, "syncfs") ||
	    !strcmp(w, "close") || !strcmp(w, "fail")) {
		op->code = !strcmp(w, "fsync") ? OP_FSYNC
			   : !strcmp(w, "fdatasync") ? OP_FDATASYNC
			   : !strcmp(w, "syncfs") ? OP_SYNCFS
			   : !strcmp(w, "fail") ? OP_FAIL : OP_CLOSE;
		if ((op->fd = parse_idx(c, n > 1 ? tok[1] : NULL, 'd', DT_MAX_FDS, "descriptor")) < 0)
			return -1;
		if (n > 2)
			return perr(c, "too many arguments to %s", w);
		return 0;
	}
	if (!strcmp(w, "sfr")) {
		long fl;

		op->code = OP_SFR;
		if ((op->fd = parse_idx(c, n > 1 ? tok[1] : NULL, 'd', DT_MAX_FDS, "descriptor")) < 0)
			return -1;
		if (n < 3)
			return perr(c, "sfr needs flags (WAIT_BEFORE|WRITE|WAIT_AFTER, or a number)");
		fl = dt_sfr_flags(tok[2]);
		if (fl < 0)
			return perr(c, "bad sync_file_range flags '%s'", tok[2]);
		op->flags = (unsigned)fl;
		if (n == 5) {
			if (parse_num(c, tok[3], &op->off, "offset") ||
			    parse_num(c, tok[4], &op->len, "length"))
				return -1;
		} else if (n != 3) {
			return perr(c, "sfr takes: dN FLAGS [OFFSET LENGTH]");
		}
		return 0;
	}
	if (!strcmp(w, "unlink")) {
		op->code = OP_UNLINK;
		if ((op->file = parse_idx(c, n > 1 ? tok[1] : NULL, 'f', DT_MAX_FILES, "file")) < 0)
			return -1;
		if (n > 2)
			return perr(c, "too many arguments to unlink");
		return 0;
	}
	if (!strcmp(w, "evict") || !strcmp(w, "sync") || !strcmp(w, "heal") || !strcmp(w, "cycle")) {
		op->code = !strcmp(w, "evict") ? OP_EVICT : !strcmp(w, "sync") ? OP_SYNC
			   : !strcmp(w, "cycle") ? OP_CYCLE : OP_HEAL;
		if (n > 1)
			return perr(c, "%s takes no arguments", w);
		return 0;
	}
	if (!strcmp(w, "error")) {
		const char *e;

		if (n < 2)
			return perr(c, "error needs 'data fN|dN ERRNO' or 'meta ERRNO'");
		if (!strcmp(tok[1], "data")) {
			op->code = OP_ERR_DATA;
			if (n != 4)
				return perr(c, "error data takes: fN|dN ERRNO");
			if (tok[2][0] == 'f') {
				if ((op->file = parse_idx(c, tok[2], 'f', DT_MAX_FILES, "file")) < 0)
					return -1;
			} else if ((op->fd = parse_idx(c, tok[2], 'd', DT_MAX_FDS, "descriptor")) < 0) {
				return -1;
			}
			e = tok[3];
		} else if (!strcmp(tok[1], "meta")) {
			op->code = OP_ERR_META;
			if (n != 3)
				return perr(c, "error meta takes: ERRNO");
			e = tok[2];
		} else {
			return perr(c, "unknown error kind '%s' (want data or meta)", tok[1]);
		}
		op->err = dt_errnum(e);
		if (op->err < 0)
			return perr(c, "bad errno '%s' (a name like EIO, or 1..4095)", e);
		return 0;
	}
	return perr(c, "unknown operation '%s'", w);
}

static int tokenize(char *line, char **tok)
{
	int n = 0;
	char *p = line;

	while (*p) {
		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			break;
		if (n == MAXTOK)
			return -1;
		tok[n++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = 0;
	}
	return n;
}

/* Descriptor discipline: ops use only open descriptors; open only closed ones. */
struct vstate {
	unsigned char open[DT_MAX_FDS];
	unsigned char mapped[DT_MAX_FDS]; /* the descriptor has a mapping (mmap .. munmap) */
	int desc[DT_MAX_FDS];       /* the open file description a descriptor names */
	long long pos[DT_MAX_FDS];  /* per description: bytes written or read since open */
	unsigned char raw[DT_MAX_FDS]; /* the descriptor names a block device: 1 the raw
					  one, 2 the filesystem's (dev) */
};

/* A description no open descriptor names (there is one: at most 16 are open). */
static int free_desc(const struct vstate *v)
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

static int check_op(struct pctx *c, struct vstate *v, const struct dt_op *op, int in_par)
{
	c->line = op->line;
	switch (op->code) {
	case OP_OPEN:
		if (in_par)
			return perr(c, "open cannot run inside par");
		if (v->open[op->fd])
			return perr(c, "descriptor d%d is already open", op->fd);
		v->desc[op->fd] = free_desc(v);
		v->open[op->fd] = 1;
		v->raw[op->fd] = op->file == DT_FILE_RAW ? 1 : op->file == DT_FILE_DEV ? 2 : 0;
		v->pos[v->desc[op->fd]] = 0;
		return 0;
	case OP_CYCLE:
		if (in_par)
			return perr(c, "cycle cannot run inside par");
		for (int i = 0; i < DT_MAX_FDS; i++)
			if (v->open[i] && !v->raw[i])
				return perr(c, "cycle with d%d open (umount would fail: EBUSY); close "
					    "every descriptor but the block devices' first", i);
		return 0;
	case OP_DUP:
		if (in_par)
			return perr(c, "dup cannot run inside par");
		if (!v->open[op->fd])
			return perr(c, "bad descriptor d%d: not open here", op->fd);
		if (v->open[op->fd2])
			return perr(c, "descriptor d%d is already open", op->fd2);
		v->open[op->fd2] = 1;
		v->desc[op->fd2] = v->desc[op->fd];
		v->raw[op->fd2] = v->raw[op->fd];
		return 0;
	case OP_CHILD:
		if (in_par)
			return perr(c, "child cannot run inside par");
		switch (op->sub[0].code) {
		case OP_WRITE: case OP_READ: case OP_FTRUNCATE: case OP_FSYNC: case OP_FDATASYNC:
		case OP_SFR: case OP_SYNCFS:
			return check_op(c, v, &op->sub[0], 0);
		default:
			return perr(c, "child runs a descriptor op (write, read, ftruncate, fsync, "
				    "fdatasync, sfr, syncfs), not %s", dt_opname(op->sub[0].code));
		}
	case OP_MMAP:
	case OP_MWRITE:
	case OP_MSYNC:
	case OP_MUNMAP:
		if (in_par)
			return perr(c, "%s cannot run inside par", dt_opname(op->code));
		if (!v->open[op->fd])
			return perr(c, "bad descriptor d%d: not open here", op->fd);
		if (v->raw[op->fd])
			return perr(c, "%s of d%d, a block device: not modelled",
				    dt_opname(op->code), op->fd);
		if (op->code == OP_MMAP && v->mapped[op->fd])
			return perr(c, "d%d is mapped already (munmap it first)", op->fd);
		if (op->code != OP_MMAP && !v->mapped[op->fd])
			return perr(c, "d%d has no mapping here (mmap it first)", op->fd);
		v->mapped[op->fd] = op->code != OP_MUNMAP;
		return 0;
	case OP_CLOSE:
		if (in_par)
			return perr(c, "close cannot run inside par");
		if (v->mapped[op->fd])
			return perr(c, "close of d%d while it is mapped: munmap it first", op->fd);
		/* fall through */
	case OP_FAIL:
		if (in_par)
			return perr(c, "fail cannot run inside par");
		/* fall through */
	case OP_READ:
	case OP_FTRUNCATE:
	case OP_FALLOCATE:
		if (in_par)
			return perr(c, "%s cannot run inside par", dt_opname(op->code));
		/* fall through */
	case OP_WRITE:
	case OP_FSYNC:
	case OP_FDATASYNC:
	case OP_SFR:
	case OP_SYNCFS:
		if (!v->open[op->fd])
			return perr(c, "bad descriptor d%d: not open here", op->fd);
		if (op->code == OP_FALLOCATE && v->raw[op->fd])
			return perr(c, "fallocate of d%d, a block device: not modelled", op->fd);
		if ((op->code == OP_READ || op->code == OP_FAIL) && v->raw[op->fd] == 2)
			return perr(c, "%s of d%d, the filesystem's device: not modelled",
				    dt_opname(op->code), op->fd);
		if (op->code == OP_CLOSE)
			v->open[op->fd] = 0;
		if (op->code == OP_WRITE || op->code == OP_READ) {
			long long *pos = &v->pos[v->desc[op->fd]];

			/* a read advances the offset by at most LEN */
			*pos += op->len;
			if (*pos > DT_MAX_FILE_SIZE)
				return perr(c, "%s past %lld MiB on d%d (offset %lld): the model's "
					    "page cache holds %lld MiB of a file", dt_opname(op->code),
					    DT_MAX_FILE_SIZE >> 20, op->fd, *pos, DT_MAX_FILE_SIZE >> 20);
		}
		return 0;
	case OP_ERR_DATA:
		/* par is for descriptor ops, sync and error meta (README) */
		if (in_par)
			return perr(c, "error data cannot run inside par");
		if (op->fd >= 0 && !v->open[op->fd])
			return perr(c, "bad descriptor d%d: not open here", op->fd);
		if (op->fd >= 0 && v->raw[op->fd] == 2)
			return perr(c, "error data on d%d, the filesystem's device: use error meta",
				    op->fd);
		return 0;
	case OP_PAR:
		if (in_par)
			return perr(c, "par cannot nest");
		if (check_op(c, v, &op->sub[0], 1) || check_op(c, v, &op->sub[1], 1))
			return -1;
		return 0;
	default:
		if (in_par && op->code != OP_SYNC && op->code != OP_ERR_META)
			return perr(c, "%s cannot run inside par", dt_opname(op->code));
		return 0;
	}
}

static int check_script(struct pctx *c, const struct dt_script *s)
{
	struct vstate v;
	int line = c->line;

	memset(&v, 0, sizeof(v));
	for (int i = 0; i < s->nops; i++)
		if (check_op(c, &v, &s->ops[i], 0))
			return -1;
	c->line = line;
	return 0;
}

int dt_script_valid(const struct dt_script *s)
{
	char buf[256];
	struct pctx c = {"script", 0, buf, sizeof(buf), 0};

	return check_script(&c, s);
}

static int push_op(struct pctx *c, struct dt_script *s, const struct dt_op *op)
{
	if (s->nops >= DT_MAX_OPS)
		return perr(c, "script %s has more than %d operations", s->name, DT_MAX_OPS);
	if (s->nops == s->cap) {
		int ncap = s->cap ? s->cap * 2 : 16;
		struct dt_op *n = realloc(s->ops, (size_t)ncap * sizeof(*n));

		if (!n)
			return perr(c, "out of memory");
		s->ops = n;
		s->cap = ncap;
	}
	s->ops[s->nops++] = *op;
	return 0;
}

static int push_script(struct pctx *c, struct dt_batch *b, struct dt_script *s)
{
	struct dt_script *n;

	for (int i = 0; i < b->nscripts; i++)
		if (!strcmp(b->scripts[i].name, s->name)) {
			c->line = s->line;
			return perr(c, "a second script named %s (the first at line %d)", s->name,
				    b->scripts[i].line);
		}
	n = realloc(b->scripts, (size_t)(b->nscripts + 1) * sizeof(*n));
	if (!n)
		return perr(c, "out of memory");
	b->scripts = n;
	b->scripts[b->nscripts++] = *s;
	memset(s, 0, sizeof(*s));
	return 0;
}

int dt_parse(const char *text, const char *fname, struct dt_batch *out, char *errbuf,
	     size_t errlen)
{
	struct pctx c = {fname, 0, errbuf, errlen, 0};
	struct dt_script cur;
	int in_script = 0, implicit = 0;
	const char *p = text;
	char line[1024];
	char *tok[MAXTOK];

	memset(out, 0, sizeof(*out));
	memset(&cur, 0, sizeof(cur));
	errbuf[0] = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		int n;

		c.line++;
		if (l >= sizeof(line)) {
			perr(&c, "line too long");
			goto fail;
		}
		memcpy(line, p, l);
		line[l] = 0;
		p += l + (nl ? 1 : 0);
		n = tokenize(line, tok);
		if (n < 0) {
			perr(&c, "too many words on a line");
			goto fail;
		}
		if (n == 0)
			continue;
		if (!strcmp(tok[0], "script")) {
			if (in_script && !implicit) {
				perr(&c, "'script' inside script %s (missing 'end')", cur.name);
				goto fail;
			}
			if (in_script && implicit) {
				perr(&c, "'script' after operations outside any script");
				goto fail;
			}
			if (n != 2 || strlen(tok[1]) >= DT_NAME_MAX) {
				perr(&c, "'script' takes one name (< %d characters)", DT_NAME_MAX);
				goto fail;
			}
			for (const char *q = tok[1]; *q; q++)
				if (!isalnum((unsigned char)*q) && !strchr("-_.:~", *q)) {
					perr(&c, "bad script name '%s' (letters, digits, -_.:~)", tok[1]);
					goto fail;
				}
			strcpy(cur.name, tok[1]);
			cur.line = c.line;
			in_script = 1;
			continue;
		}
		if (!strcmp(tok[0], "end")) {
			if (!in_script || implicit) {
				perr(&c, "'end' outside a script");
				goto fail;
			}
			if (check_script(&c, &cur) || push_script(&c, out, &cur))
				goto fail;
			in_script = 0;
			continue;
		}
		if (!in_script) {
			if (out->nscripts) {
				perr(&c, "operation outside a script (after 'end')");
				goto fail;
			}
			in_script = implicit = 1;
			{
				const char *base = strrchr(fname, '/');
				size_t bl;

				base = base ? base + 1 : fname;
				bl = strcspn(base, ".");
				if (bl >= DT_NAME_MAX)
					bl = DT_NAME_MAX - 1;
				memcpy(cur.name, base, bl);
				cur.name[bl] = 0;
				if (!cur.name[0])
					strcpy(cur.name, "script");
			}
			cur.line = c.line;
		}
		if (!strcmp(tok[0], "child")) {
			struct dt_op op;

			if (n < 2) {
				perr(&c, "child takes: OP");
				goto fail;
			}
			memset(&op, 0, sizeof(op));
			op.code = OP_CHILD;
			op.line = c.line;
			op.fd = op.fd2 = op.file = op.file2 = -1;
			op.sub = calloc(2, sizeof(*op.sub));
			if (!op.sub || parse_op(&c, tok + 1, n - 1, &op.sub[0]) ||
			    push_op(&c, &cur, &op)) {
				free(op.sub);
				goto fail;
			}
			op.sub[1] = op.sub[0];
			continue;
		}
		if (!strcmp(tok[0], "par")) {
			struct dt_op op;
			int semi = -1;

			for (int i = 1; i < n; i++)
				if (!strcmp(tok[i], ";"))
					semi = i;
			if (semi < 2 || semi == n - 1) {
				perr(&c, "par takes: OP ; OP");
				goto fail;
			}
			memset(&op, 0, sizeof(op));
			op.code = OP_PAR;
			op.line = c.line;
			op.fd = op.fd2 = op.file = op.file2 = -1;
			op.sub = calloc(2, sizeof(*op.sub));
			if (!op.sub || parse_op(&c, tok + 1, semi - 1, &op.sub[0]) ||
			    parse_op(&c, tok + semi + 1, n - semi - 1, &op.sub[1]) ||
			    push_op(&c, &cur, &op)) {
				free(op.sub);
				goto fail;
			}
			if (op.sub[0].code == OP_PAR || op.sub[1].code == OP_PAR) {
				perr(&c, "par cannot nest");
				goto fail;
			}
			continue;
		}
		{
			struct dt_op op;

			if (parse_op(&c, tok, n, &op) || push_op(&c, &cur, &op))
				goto fail;
		}
	}
	if (in_script && !implicit) {
		c.line = cur.line;
		perr(&c, "script %s has no 'end'", cur.name);
		goto fail;
	}
	if (in_script && implicit) {
		if (check_script(&c, &cur) || push_script(&c, out, &cur))
			goto fail;
	}
	if (!out->nscripts) {
		c.line = c.line ? c.line : 1;
		perr(&c, "no script in the file");
		goto fail;
	}
	return 0;
fail:
	dt_script_free(&cur);
	dt_batch_free(out);
	return -1;
}

int dt_parse_file(const char *path, struct dt_batch *out, char *errbuf, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0, len = 0, r;
	int ret;

	if (!f) {
		snprintf(errbuf, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	do {
		if (len + 65536 > cap) {
			char *n = realloc(text, cap = (cap + 65536) * 2);

			if (!n) {
				free(text);
				fclose(f);
				snprintf(errbuf, errlen, "%s: out of memory", path);
				return -1;
			}
			text = n;
		}
		r = fread(text + len, 1, cap - len - 1, f);
		len += r;
	} while (r > 0);
	if (ferror(f)) {
		snprintf(errbuf, errlen, "%s: %s", path, strerror(errno));
		fclose(f);
		free(text);
		return -1;
	}
	fclose(f);
	text[len] = 0;
	if (strlen(text) < len) {
		/* the parser would stop there without a word */
		int line = 1;

		for (const char *q = text; *q; q++)
			line += *q == '\n';
		snprintf(errbuf, errlen, "%s:%d: a NUL byte", path, line);
		free(text);
		return -1;
	}
	ret = dt_parse(text, path, out, errbuf, errlen);
	free(text);
	return ret;
}

void dt_script_free(struct dt_script *s)
{
	if (!s->ops)
		return;
	for (int i = 0; i < s->nops; i++)
		free(s->ops[i].sub);
	free(s->ops);
	s->ops = NULL;
	s->nops = s->cap = 0;
}

void dt_batch_free(struct dt_batch *b)
{
	for (int i = 0; i < b->nscripts; i++)
		dt_script_free(&b->scripts[i]);
	free(b->scripts);
	b->scripts = NULL;
	b->nscripts = 0;
}

void dt_script_copy(struct dt_script *dst, const struct dt_script *src)
{
	*dst = *src;
	dst->cap = src->nops > 0 ? src->nops : 1;
	dst->ops = calloc((size_t)dst->cap, sizeof(*dst->ops));
	if (!dst->ops)
		abort();
	for (int i = 0; i < src->nops; i++) {
		dst->ops[i] = src->ops[i];
		if (src->ops[i].sub) {
			dst->ops[i].sub = calloc(2, sizeof(struct dt_op));
			if (!dst->ops[i].sub)
				abort();
			memcpy(dst->ops[i].sub, src->ops[i].sub, 2 * sizeof(struct dt_op));
		}
	}
}
