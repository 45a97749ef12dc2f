// SPDX-License-Identifier: GPL-2.0
/* difftest script parser and printer; see script.h for the format. */
#define _GNU_SOURCE
#include "script.h"
#include "ops.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
	{"EUCLEAN", EUCLEAN}, {"EOPNOTSUPP", EOPNOTSUPP}, {"ENOTTY", ENOTTY}, {"ESTALE", ESTALE},
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
	if ((unsigned)op->code < OP__COUNT)
		dt_ops[op->code].format(op, buf, len);
	else
		snprintf(buf, len, "?");
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

int dt_perr(struct dt_pctx *c, const char *fmt, ...)
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

int dt_parse_idx(struct dt_pctx *c, const char *tok, char prefix, int max, const char *what)
{
	char *end;
	long v;

	if (!tok)
		return dt_perr(c, "missing %s (%c0..%c%d)", what, prefix, prefix, max - 1);
	if (tok[0] != prefix || !isdigit((unsigned char)tok[1]))
		return dt_perr(c, "bad %s '%s' (want %c0..%c%d)", what, tok, prefix, prefix, max - 1);
	v = strtol(tok + 1, &end, 10);
	if (*end || v < 0 || v >= max)
		return dt_perr(c, "bad %s '%s' (want %c0..%c%d)", what, tok, prefix, prefix, max - 1);
	return (int)v;
}

int dt_parse_num(struct dt_pctx *c, const char *tok, long long *out, const char *what)
{
	char *end;

	if (!tok)
		return dt_perr(c, "missing %s", what);
	errno = 0;
	*out = strtoll(tok, &end, 0);
	if (*end || errno)
		return dt_perr(c, "bad %s '%s'", what, tok);
	return 0;
}

#define MAXTOK 16

/* Parse one op from tokens tok[0..n): its descriptor's parser, found by its word. */
int dt_parse_op(struct dt_pctx *c, char **tok, int n, struct dt_op *op, int nested)
{
	int i;

	memset(op, 0, sizeof(*op));
	op->line = c->line;
	op->fd = -1;
	op->fd2 = -1;
	op->file = -1;
	op->file2 = -1;
	for (i = 0; i < OP__COUNT && strcmp(tok[0], dt_ops[i].name); i++)
		;
	if (i == OP__COUNT || (nested && dt_ops[i].line_only))
		return dt_perr(c, "unknown operation '%s'", tok[0]);
	op->code = (enum dt_opcode)i;
	return dt_ops[i].parse(c, tok, n, op);
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

/* The script's rules at @op: "cannot run inside par", then its descriptor's checks. */
int dt_check_op(struct dt_pctx *c, struct dt_vstate *v, const struct dt_op *op, int in_par)
{
	const struct dt_opdesc *d = &dt_ops[op->code];

	c->line = op->line;
	if (in_par && !d->par)
		return dt_perr(c, "%s cannot run inside par", dt_oplabel(op->code));
	/* between failread and heal nothing may write an inode block that fails
	 * (ops.c check_failread()); not even a close (the last close of an
	 * unlinked file frees its inode, writing the block) */
	if (v->readfail && op->code != OP_EVICT && op->code != OP_HEAL &&
	    (op->code != OP_OPEN || (op->flags & (OPEN_CREAT | OPEN_TRUNC))))
		return dt_perr(c, "%s between failread and heal: only open (without creat or "
			       "trunc), evict and heal", dt_oplabel(op->code));
	/* a directory's descriptor: the sync calls, close, dup and an injected
	 * error; nothing in a par line or a child (the model's races are a
	 * file's) */
	if (op->fd >= 0 && op->code != OP_OPEN && v->open[op->fd] && v->dir[op->fd] &&
	    (in_par || (op->code != OP_FSYNC && op->code != OP_FDATASYNC &&
			op->code != OP_SYNCFS && op->code != OP_CLOSE && op->code != OP_DUP &&
			op->code != OP_ERR_DATA)))
		return dt_perr(c, "%s of d%d, the directory's descriptor%s: only fsync, "
			       "fdatasync, syncfs, close, dup and error data", dt_oplabel(op->code),
			       op->fd, in_par ? ", in a par line" : "");
	/* stock ext2 undoes a change that failed of the directory's earlier
	 * write-back error while its entry is written; the names that leaves
	 * behind after unlink, link and rename are not followed (an open
	 * ... creat is: model/namei.c) */
	if (v->direrr && (op->code == OP_UNLINK || op->code == OP_LINK || op->code == OP_RENAME))
		return dt_perr(c, "%s after an error injected into the directory (error data on "
			       "a directory's descriptor): not modelled", dt_oplabel(op->code));
	return d->check ? d->check(c, v, op) : 0;
}

static int check_script(struct dt_pctx *c, const struct dt_script *s)
{
	struct dt_vstate v;
	int line = c->line;

	memset(&v, 0, sizeof(v));
	for (int i = 0; i < s->nops; i++)
		if (dt_check_op(c, &v, &s->ops[i], 0))
			return -1;
	c->line = line;
	return 0;
}

int dt_script_valid(const struct dt_script *s)
{
	char buf[256];
	struct dt_pctx c = {"script", 0, buf, sizeof(buf), 0};

	return check_script(&c, s);
}

static int push_op(struct dt_pctx *c, struct dt_script *s, const struct dt_op *op)
{
	if (s->nops >= DT_MAX_OPS)
		return dt_perr(c, "script %s has more than %d operations", s->name, DT_MAX_OPS);
	if (s->nops == s->cap) {
		int ncap = s->cap ? s->cap * 2 : 16;
		struct dt_op *n = realloc(s->ops, (size_t)ncap * sizeof(*n));

		if (!n)
			return dt_perr(c, "out of memory");
		s->ops = n;
		s->cap = ncap;
	}
	s->ops[s->nops++] = *op;
	return 0;
}

static int push_script(struct dt_pctx *c, struct dt_batch *b, struct dt_script *s)
{
	struct dt_script *n;

	for (int i = 0; i < b->nscripts; i++)
		if (!strcmp(b->scripts[i].name, s->name)) {
			c->line = s->line;
			return dt_perr(c, "a second script named %s (the first at line %d)", s->name,
				    b->scripts[i].line);
		}
	n = realloc(b->scripts, (size_t)(b->nscripts + 1) * sizeof(*n));
	if (!n)
		return dt_perr(c, "out of memory");
	b->scripts = n;
	b->scripts[b->nscripts++] = *s;
	memset(s, 0, sizeof(*s));
	return 0;
}

int dt_parse(const char *text, const char *fname, struct dt_batch *out, char *errbuf,
	     size_t errlen)
{
	struct dt_pctx c = {fname, 0, errbuf, errlen, 0};
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
			dt_perr(&c, "line too long");
			goto fail;
		}
		memcpy(line, p, l);
		line[l] = 0;
		p += l + (nl ? 1 : 0);
		n = tokenize(line, tok);
		if (n < 0) {
			dt_perr(&c, "too many words on a line");
			goto fail;
		}
		if (n == 0)
			continue;
		if (!strcmp(tok[0], "script")) {
			if (in_script && !implicit) {
				dt_perr(&c, "'script' inside script %s (missing 'end')", cur.name);
				goto fail;
			}
			if (in_script && implicit) {
				dt_perr(&c, "'script' after operations outside any script");
				goto fail;
			}
			if (n != 2 || strlen(tok[1]) >= DT_NAME_MAX) {
				dt_perr(&c, "'script' takes one name (< %d characters)", DT_NAME_MAX);
				goto fail;
			}
			for (const char *q = tok[1]; *q; q++)
				if (!isalnum((unsigned char)*q) && !strchr("-_.:~", *q)) {
					dt_perr(&c, "bad script name '%s' (letters, digits, -_.:~)", tok[1]);
					goto fail;
				}
			strcpy(cur.name, tok[1]);
			cur.line = c.line;
			in_script = 1;
			continue;
		}
		if (!strcmp(tok[0], "end")) {
			if (!in_script || implicit) {
				dt_perr(&c, "'end' outside a script");
				goto fail;
			}
			if (check_script(&c, &cur) || push_script(&c, out, &cur))
				goto fail;
			in_script = 0;
			continue;
		}
		if (!in_script) {
			if (out->nscripts) {
				dt_perr(&c, "operation outside a script (after 'end')");
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
		{
			struct dt_op op;

			if (dt_parse_op(&c, tok, n, &op, 0) || push_op(&c, &cur, &op)) {
				free(op.sub);
				goto fail;
			}
		}
	}
	if (in_script && !implicit) {
		c.line = cur.line;
		dt_perr(&c, "script %s has no 'end'", cur.name);
		goto fail;
	}
	if (in_script && implicit) {
		if (check_script(&c, &cur) || push_script(&c, out, &cur))
			goto fail;
	}
	if (!out->nscripts) {
		c.line = c.line ? c.line : 1;
		dt_perr(&c, "no script in the file");
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
