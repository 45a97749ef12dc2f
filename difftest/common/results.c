// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "results.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void dt_sresult_init(struct dt_sresult *r, const char *name, int nops)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->nops = nops;
	r->ops = calloc(nops > 0 ? (size_t)nops : 1, sizeof(*r->ops));
	if (!r->ops)
		abort();
}

void dt_sresult_free(struct dt_sresult *r)
{
	free(r->ops);
	r->ops = NULL;
}

void dt_results_free(struct dt_results *r)
{
	for (int i = 0; i < r->n; i++)
		dt_sresult_free(&r->s[i]);
	free(r->s);
	r->s = NULL;
	r->n = 0;
}

void dt_opres_trace(struct dt_opres *o, const char *fmt, ...)
{
	va_list ap;

	if (o->ntr >= DT_MAX_TRACE) {
		o->tr_lost++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(o->tr[o->ntr++], DT_TRACE_LEN, fmt, ap);
	va_end(ap);
}

void dt_opres_format(const struct dt_opres *o, int which, char *buf, size_t len)
{
	char e[16];

	if (!(o->done & (1 << which))) {
		snprintf(buf, len, "(none)");
		return;
	}
	snprintf(buf, len, "%ld %s", o->ret[which], dt_errname(o->err[which], e, sizeof(e)));
}

void dt_sresult_print(FILE *f, const struct dt_sresult *r)
{
	dt_sresult_print_ops(f, r, NULL);
}

void dt_sresult_print_ops(FILE *f, const struct dt_sresult *r, const struct dt_script *s)
{
	char e[16], opt[300];

	fprintf(f, "DT S %s%s\n", r->name, r->trace ? " trace" : "");
	for (int i = 0; i < r->nops; i++) {
		const struct dt_opres *o = &r->ops[i];

		if (s && i < s->nops) {
			dt_op_format(&s->ops[i], opt, sizeof(opt));
			fprintf(f, "# op %d (line %d): %s\n", i, s->ops[i].line, opt);
		}

		for (int w = 0; w < 2; w++)
			if (o->done & (1 << w))
				fprintf(f, "DT R %d%s %ld %s\n", i, w ? ".1" : "", o->ret[w],
					dt_errname(o->err[w], e, sizeof(e)));
		for (int t = 0; t < o->ntr; t++)
			fprintf(f, "DT T %d %s\n", i, o->tr[t]);
		if (o->tr_lost)
			fprintf(f, "DT T %d lost %d\n", i, o->tr_lost);
	}
	if (r->fail[0])
		fprintf(f, "DT X %s\n", r->fail);
	fprintf(f, "DT E %s\n", r->name);
}

/* ---- reading a guest log ---- */

struct reader {
	const char *fname;
	int line;
	const struct dt_batch *b;
	struct dt_results *out;
	struct dt_sresult *cur;     /* the open block, or NULL */
	const struct dt_script *script; /* its script */
	char *err;
	size_t errlen;
};

static int rd_err(struct reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int rd_err(struct reader *rd, const char *fmt, ...)
{
	va_list ap;
	int o = snprintf(rd->err, rd->errlen, "%s:%d: ", rd->fname, rd->line);

	va_start(ap, fmt);
	if (o >= 0 && (size_t)o < rd->errlen)
		vsnprintf(rd->err + o, rd->errlen - (size_t)o, fmt, ap);
	va_end(ap);
	return -1;
}

/* S NAME [trace] */
static int rd_start(struct reader *rd, const char *args)
{
	char name[DT_NAME_MAX + 1], extra[16] = "", more[2];
	struct dt_sresult *r;
	int k, n;

	if (rd->cur)
		return rd_err(rd, "block of script %s has no 'DT E'", rd->cur->name);
	/* NAME, then "trace" or nothing: a third word is an error */
	n = sscanf(args, "%64s %15s %1s", name, extra, more);
	if (n < 1 || n > 2 || (n == 2 && strcmp(extra, "trace")) || strlen(name) >= DT_NAME_MAX)
		return rd_err(rd, "bad script start 'DT S %s'", args);
	for (k = 0; k < rd->b->nscripts && strcmp(rd->b->scripts[k].name, name); k++)
		;
	if (k == rd->b->nscripts)
		return rd_err(rd, "results for script %s, which is not in the batch", name);
	r = &rd->out->s[k];
	if (r->line)
		return rd_err(rd, "a second block for script %s (the first at line %d)", name,
			      r->line);
	rd->script = &rd->b->scripts[k];
	dt_sresult_init(r, name, rd->script->nops);
	r->line = rd->line;
	r->trace = n == 2;
	rd->cur = r;
	return 0;
}

/* E NAME */
static int rd_end(struct reader *rd, const char *args)
{
	if (strcmp(args, rd->cur->name))
		return rd_err(rd, "'DT E %s' ends the block of script %s", args, rd->cur->name);
	rd->cur->complete = 1;
	rd->cur = NULL;
	return 0;
}

/* "I" or "I.1": the op and which of its results; -1 on error */
static int rd_op(struct reader *rd, const char *tok, int *which)
{
	char *end;
	long i;

	if (!isdigit((unsigned char)tok[0]))
		return rd_err(rd, "bad op number '%s'", tok);
	i = strtol(tok, &end, 10);
	*which = 0;
	if (!strcmp(end, ".1"))
		*which = 1;
	else if (*end)
		return rd_err(rd, "bad op number '%s'", tok);
	if (i >= rd->script->nops)
		return rd_err(rd, "result for op %ld past the end of script %s (%d ops)", i,
			      rd->script->name, rd->script->nops);
	if (*which && rd->script->ops[i].code != OP_PAR)
		return rd_err(rd, "result %s for op %ld, which is not a par line", tok, i);
	return (int)i;
}

/* R I[.1] RET ERRNO */
static int rd_result(struct reader *rd, const char *args)
{
	char a[32], b[32], c[2];
	struct dt_opres *o;
	long ret;
	int i, w, e;

	if (sscanf(args, "%31s %ld %31s %1s", a, &ret, b, c) != 3)
		return rd_err(rd, "bad result line 'DT R %s'", args);
	if ((i = rd_op(rd, a, &w)) < 0)
		return -1;
	e = strcmp(b, "0") ? dt_errnum(b) : 0;
	if (e < 0)
		return rd_err(rd, "bad errno '%s'", b);
	o = &rd->cur->ops[i];
	if (o->done & (1 << w))
		return rd_err(rd, "a second result for op %s of %s", a, rd->cur->name);
	o->ret[w] = ret;
	o->err[w] = e;
	o->done |= 1 << w;
	rd->cur->nres++;
	return 0;
}

/* T I EVENT */
static int rd_trace(struct reader *rd, const char *args)
{
	char a[32];
	const char *ev = strchr(args, ' ');
	struct dt_opres *o;
	int i, w;

	if (!ev || sscanf(args, "%31s", a) != 1)
		return rd_err(rd, "bad trace line 'DT T %s'", args);
	if ((i = rd_op(rd, a, &w)) < 0)
		return -1;
	if (w)
		return rd_err(rd, "trace event for op %s: events belong to the op", a);
	o = &rd->cur->ops[i];
	if (!strncmp(ev + 1, "lost ", 5)) {
		const char *num = ev + 6;
		char *end = NULL;
		long n;

		if (o->tr_lost)
			return rd_err(rd, "bad trace line 'DT T %s'", args);
		/* digits only, and the number read checked: sscanf's %d is undefined
		 * past an int (glibc wraps it) */
		errno = 0;
		n = isdigit((unsigned char)*num) ? strtol(num, &end, 10) : 0;
		if (n < 1 || n > INT_MAX || *end || errno)
			return rd_err(rd, "bad lost count '%s' of op %d (want 1 to %d)", num, i,
				      INT_MAX);
		o->tr_lost = (int)n;
		return 0;
	}
	if (!strcmp(ev + 1, "lost"))
		return rd_err(rd, "bad trace event 'lost' of op %d: lost wants a count", i);
	if (strncmp(ev + 1, "set ", 4) && strncmp(ev + 1, "adv ", 4) && strncmp(ev + 1, "mdadv ", 6))
		return rd_err(rd, "bad trace event '%s' of op %d: set, adv, mdadv or lost", ev + 1,
			      i);
	if (o->ntr == DT_MAX_TRACE || strlen(ev + 1) >= DT_TRACE_LEN)
		return rd_err(rd, "more than %d trace events for op %d, or one longer than %d",
			      DT_MAX_TRACE, i, DT_TRACE_LEN - 1);
	dt_opres_trace(o, "%s", ev + 1);
	return 0;
}

/* X MESSAGE: the first is kept; a bare X is a failure too */
static int rd_fail(struct reader *rd, const char *args)
{
	if (rd->cur->fail[0])
		return 0;
	snprintf(rd->cur->fail, sizeof(rd->cur->fail), "%.250s", *args ? args : "(no message)");
	rd->cur->fail_line = rd->line;
	return 0;
}

static const struct {
	const char *tag;
	int (*fn)(struct reader *rd, const char *args); /* NULL: skipped */
	int in_block;   /* only inside a script block */
} rd_lines[] = {
	{"S", rd_start, 0},  {"E", rd_end, 1},  {"R", rd_result, 1}, {"T", rd_trace, 1},
	{"X", rd_fail, 1},   {"B", NULL, 0},    {"Z", NULL, 0},      {"I", NULL, 0},
	{"DONE", NULL, 0},
};

/* One "DT ..." line, without the "DT ". */
static int rd_line(struct reader *rd, const char *p)
{
	size_t n = strcspn(p, " ");

	for (size_t k = 0; k < sizeof(rd_lines) / sizeof(rd_lines[0]); k++) {
		if (strlen(rd_lines[k].tag) != n || strncmp(p, rd_lines[k].tag, n))
			continue;
		if (!rd_lines[k].fn)
			return 0;
		if (rd_lines[k].in_block && !rd->cur)
			return rd_err(rd, "'DT %.60s' outside a script block", p);
		return rd_lines[k].fn(rd, p + n + !!p[n]);
	}
	return rd_err(rd, "unknown line 'DT %.60s'", p);
}

/*
 * One line of @f, without its newline, into @buf (@len bytes, NUL-terminated);
 * the rest of a longer line is read and dropped. Returns the line's length
 * (@len or more: cut), -1 at the end of the file; *@nul is 1 when the line
 * holds a NUL byte (which would end @buf's string early).
 */
static long rd_getline(FILE *f, char *buf, size_t len, int *nul)
{
	long n = 0;
	int ch;

	*nul = 0;
	while ((ch = getc(f)) != EOF && ch != '\n') {
		*nul |= !ch;
		if ((size_t)n < len - 1)
			buf[n] = (char)ch;
		n++;
	}
	if (ch == EOF && !n)
		return -1;
	buf[(size_t)n < len ? (size_t)n : len - 1] = 0;
	return n;
}

int dt_results_read(FILE *f, const char *fname, const struct dt_batch *b,
		    struct dt_results *out, char *err, size_t errlen)
{
	struct reader rd = {fname, 0, b, out, NULL, NULL, err, errlen};
	char line[512];
	long l;
	int nul;

	memset(out, 0, sizeof(*out));
	err[0] = 0;
	out->s = calloc(b->nscripts > 0 ? (size_t)b->nscripts : 1, sizeof(*out->s));
	if (!out->s)
		abort();
	out->n = b->nscripts;
	while ((l = rd_getline(f, line, sizeof(line), &nul)) >= 0) {
		/* the guest's lines but DT I: the console's others (noise, a long DT I
		 * line, a NUL byte in either) are skipped */
		int dt = !strncmp(line, "DT ", 3) && strncmp(line, "DT I ", 5);

		rd.line++;
		if (dt && nul) {
			rd_err(&rd, "a NUL byte");
			goto fail;
		}
		if (dt && l > (long)sizeof(line) - 2) {
			rd_err(&rd, "line longer than %zu characters", sizeof(line) - 2);
			goto fail;
		}
		line[strcspn(line, "\r")] = 0;
		if (dt && rd_line(&rd, line + 3))
			goto fail;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", fname, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	dt_results_free(out);
	return -1;
}

const struct dt_sresult *dt_results_get(const struct dt_results *r, int k)
{
	return k >= 0 && k < r->n && r->s[k].line ? &r->s[k] : NULL;
}
