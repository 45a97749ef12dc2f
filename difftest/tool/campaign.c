// SPDX-License-Identifier: GPL-2.0
/*
 * A campaign's --out directory, read for difftest report (report.c) into campaign.h's
 * structures: the files campaign.sh leaves there,
 *
 *   campaign.info        KEY=VALUE lines: the campaign's options (seed, ops, per, fs,
 *                        kernels, line, contract, scenarios, scripts, bug, source,
 *                        custom), shard=I, shards=N, wall=SECONDS, status=0|1, and
 *                        failures=WHAT:KERNEL[:FS] ... (why it failed: lib.sh's dt_fail)
 *   rows.tsv             compare -t's rows: kernel, filesystem mode, contract, scenario
 *                        class, ops, scripts, divergent scripts, divergent ops, the
 *                        attribution NAME:COUNT,... (a switch, several_switches,
 *                        unexplained), scripts not run (none of the others)
 *   speed.tsv            kernel, mode, ops, guest seconds: a row per guest and batch
 *   wall.tsv             kernel, ops, wall seconds, guests: a row per kernel's main run
 *   compare-K-C-FS.txt   compare's output: DIVERGE, MISSING, INCOMPLETE, NOTRACE, SETUP,
 *                        CUT lines and its summary (compare-final-*: the minimal
 *                        scripts', not read)
 *   div-K-C-FS.dt        the divergent scripts (a "# ..." line before each: compare's
 *                        divergence), shrunk in place; cases-K-C-FS.dt: the minimal
 *                        ones, compared again
 *   judge-K-FS.txt       difftest judge's output: kernel K's results held to the contract
 *                        itself (JUDGE, UNJUDGED, KNOWN, UNEXPLAINED lines, its summary)
 *
 * Several directories are the shards of one campaign (campaign.sh --shard): their rows
 * are summed by kernel, mode, contract and class, their other files read one after the
 * other, so that the report is the one a single run would have written.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "campaign.h"

/* ---- small helpers ---- */

void *rp_realloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		abort();
	return p;
}

char *rp_strndup(const char *s, size_t n)
{
	char *d = strndup(s, n);

	if (!d)
		abort();
	return d;
}

char *rp_strdup(const char *s)
{
	return rp_strndup(s, strlen(s));
}

char *rp_asprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		abort();
	return s;
}

/* Say what is wrong, as "difftest report: ...": the exit status is 2. */
int rp_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("difftest report: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

int rp_slurp(const char *path, int must, char **buf, size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0, cap = 4096, r;
	char *b;

	*buf = NULL;
	if (!f) {
		if (errno == ENOENT && !must)
			return 1;
		return rp_fail("%s: %s", path, strerror(errno));
	}
	b = rp_realloc(NULL, cap);
	while ((r = fread(b + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n - 1 == 0)
			b = rp_realloc(b, cap *= 2);
	}
	if (ferror(f)) {
		fclose(f);
		free(b);
		return rp_fail("%s: %s", path, strerror(errno));
	}
	fclose(f);
	b[n] = 0;
	*buf = b;
	if (len)
		*len = n;
	return 0;
}

char *rp_next_line(char **p)
{
	char *s = *p, *nl;

	if (!s || !*s)
		return NULL;
	nl = strchr(s, '\n');
	if (nl) {
		*nl = 0;
		*p = nl + 1;
	} else {
		*p = s + strlen(s);
	}
	return s;
}

/* Split @s at tabs into @f (at most @max fields, in place); returns the fields. */
static int split_tabs(char *s, char **f, int max)
{
	int n = 0;

	for (;;) {
		char *t = strchr(s, '\t');

		if (n == max)
			return max + 1;
		f[n++] = s;
		if (!t)
			return n;
		*t = 0;
		s = t + 1;
	}
}

int rp_whole(const char *s, long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtol(s, &end, 10);
	return *end || errno ? -1 : 0;
}

/* @s as a number of seconds (digits and a point) in *@v; -1 if it is not one. */
static int seconds(const char *s, double *v)
{
	char *end;

	if (*s < '0' || *s > '9' || strspn(s, "0123456789.") != strlen(s))
		return -1;
	*v = strtod(s, &end);
	return *end ? -1 : 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in @dir that start with @pre and end with @suf, sorted, into *@out. */
static int list_dir(const char *dir, const char *pre, const char *suf, char ***out, int *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t lp = strlen(pre), ls = strlen(suf);

	*out = NULL;
	*n = 0;
	if (!d)
		return rp_fail("%s: %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (l > lp + ls && !strncmp(e->d_name, pre, lp) && !strcmp(e->d_name + l - ls, suf))
			*PUSH(*out, *n) = rp_strdup(e->d_name);
	}
	closedir(d);
	qsort(*out, (size_t)*n, sizeof(**out), by_name);
	return 0;
}

static void free_list(char **l, int n)
{
	for (int i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

void rp_date(char *buf, size_t len)
{
	const char *e = getenv("SOURCE_DATE_EPOCH");
	time_t t = time(NULL);
	struct tm tm;
	long v;

	if (e && !rp_whole(e, &v))
		t = (time_t)v;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm);
}

/* ---- what is read ---- */

static const char *info_get(const struct info *in, const char *key)
{
	for (int i = 0; i < in->n; i++)
		if (!strcmp(in->key[i], key))
			return in->val[i];
	return NULL;
}

const char *rp_info_str(const struct info *in, const char *key)
{
	const char *v = info_get(in, key);

	return v ? v : "";
}

long rp_info_num(const struct info *in, const char *key)
{
	long v = 0;

	rp_whole(rp_info_str(in, key), &v);
	return v;
}

/* The keys a campaign.info must have; and those the shards of one campaign share. */
static const char *const info_needs[] = {"line", "shard", "shards", "wall", "status"};
static const char *const shard_keys[] = {
	"seed", "ops", "per", "fs", "kernels", "line", "contract", "scenarios", "scripts", "bug",
	"shards", "source", "custom",
};

/* DIR/campaign.info into @in; 2 (said) when there is none or it does not parse. */
static int info_read(const char *dir, struct info *in)
{
	char *path = rp_asprintf("%s/campaign.info", dir), *p, *l;
	int r, ln = 0;

	memset(in, 0, sizeof(*in));
	r = rp_slurp(path, 0, &in->buf, NULL);
	if (r == 1)
		r = rp_fail("no %s (not a finished campaign --out directory)", path);
	for (p = in->buf; !r && (l = rp_next_line(&p));) {
		char *eq = strchr(l, '=');

		ln++;
		if (!eq || eq == l) {
			r = rp_fail("%s:%d: not KEY=VALUE", path, ln);
			break;
		}
		*eq = 0;
		*PUSH(in->key, in->n) = l;
		in->val = rp_realloc(in->val, (size_t)in->n * sizeof(*in->val));
		in->val[in->n - 1] = eq + 1;
	}
	for (size_t i = 0; !r && i < sizeof(info_needs) / sizeof(info_needs[0]); i++) {
		const char *v = info_get(in, info_needs[i]);
		long n;

		if (!v)
			r = rp_fail("%s: no %s= (not a finished campaign --out directory)", path,
				 info_needs[i]);
		else if (strcmp(info_needs[i], "line") && rp_whole(v, &n))
			r = rp_fail("%s: %s=%s: want a whole number", path, info_needs[i], v);
	}
	free(path);
	return r;
}

static void why_add(struct row *r, const char *name, long n)
{
	for (int i = 0; i < r->nwhy; i++)
		if (!strcmp(r->why[i].name, name)) {
			r->why[i].n += n;
			return;
		}
	*PUSH(r->why, r->nwhy) = (struct why){rp_strdup(name), n};
}

/* Add a row: to the row of its key if there is one (a shard's), else as a new one. */
static void row_add(struct campaign *c, char **f, const long *v, char *whys)
{
	struct row *r = NULL;
	char *save = NULL, *w;

	for (int i = 0; i < c->nrow && !r; i++)
		if (!strcmp(c->row[i].key[0], f[0]) && !strcmp(c->row[i].key[1], f[1]) &&
		    !strcmp(c->row[i].key[2], f[2]) && !strcmp(c->row[i].key[3], f[3]))
			r = &c->row[i];
	if (!r) {
		r = PUSH(c->row, c->nrow);
		memset(r, 0, sizeof(*r));
		for (int i = 0; i < 4; i++)
			r->key[i] = rp_strdup(f[i]);
	}
	for (int i = 0; i < 5; i++)
		r->v[i] += v[i];
	for (w = strtok_r(whys, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		/* (checked by whys_valid()) */
		char *colon = strrchr(w, ':');

		*colon = 0;
		why_add(r, w, strtol(colon + 1, NULL, 10));
	}
}

/* Is @s "NAME:COUNT,..." (the attribution column)? */
static int whys_valid(const char *s)
{
	while (*s) {
		size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz_0123456789");
		long v;
		char num[24];
		size_t d;

		if (!n || s[n] != ':')
			return 0;
		s += n + 1;
		d = strspn(s, "0123456789");
		if (!d || d >= sizeof(num))
			return 0;
		memcpy(num, s, d);
		num[d] = 0;
		if (rp_whole(num, &v))
			return 0;
		s += d;
		if (*s == ',')
			s++;
		else if (*s)
			return 0;
	}
	return 1;
}

/* DIR/rows.tsv (none: no rows, a campaign whose guests all failed) */
static int rows_read(struct campaign *c, const char *dir)
{
	char *path = rp_asprintf("%s/rows.tsv", dir), *buf, *p, *l;
	int r = rp_slurp(path, 0, &buf, NULL), ln = 0;

	if (r == 1)
		r = 0;
	for (p = buf; !r && (l = rp_next_line(&p));) {
		char *f[11];
		long v[5];

		ln++;
		if (split_tabs(l, f, 10) != 10) {
			r = rp_fail("%s:%d: want 10 tab-separated fields (kernel, mode, contract, class, "
				 "ops, scripts, divergent scripts, divergent ops, attribution, scripts "
				 "not run)", path, ln);
			break;
		}
		for (int i = 0; i < 4 && !r; i++)
			if (rp_whole(f[4 + i], &v[i]))
				r = rp_fail("%s:%d: field %d '%s': want a whole number", path, ln, 5 + i,
					 f[4 + i]);
		if (!r && !whys_valid(f[8]))
			r = rp_fail("%s:%d: field 9 '%s': want NAME:COUNT,...", path, ln, f[8]);
		if (!r && rp_whole(f[9], &v[4]))
			r = rp_fail("%s:%d: field 10 '%s': want a whole number", path, ln, f[9]);
		if (!r)
			row_add(c, f, v, f[8]);
	}
	free(buf);
	free(path);
	return r;
}

/* DIR/speed.tsv (@wall 0: kernel, mode, ops, guest seconds) or DIR/wall.tsv (@wall 1:
 * kernel, ops, wall seconds, guests), summed per kernel (and mode). */
static int speed_read(struct campaign *c, const char *dir, int wall)
{
	char *path = rp_asprintf("%s/%s", dir, wall ? "wall.tsv" : "speed.tsv"), *buf, *p, *l;
	int r = rp_slurp(path, 0, &buf, NULL), ln = 0;
	struct speed **arr = wall ? &c->wall : &c->speed;
	int *n = wall ? &c->nwall : &c->nspeed;

	if (r == 1)
		r = 0;
	for (p = buf; !r && (l = rp_next_line(&p));) {
		struct speed *s = NULL;
		char *f[5];
		long ops, w = 0, guests = 0;
		double secs = 0;
		int bad = split_tabs(l, f, 4) != 4;

		ln++;
		if (!bad && wall)
			bad = rp_whole(f[1], &ops) || rp_whole(f[2], &w) || rp_whole(f[3], &guests);
		else if (!bad)
			bad = rp_whole(f[2], &ops) || seconds(f[3], &secs);
		if (bad) {
			r = rp_fail("%s:%d: want %s (tab-separated)", path, ln, wall ?
				 "kernel, ops, wall seconds, guests" : "kernel, mode, ops, guest seconds");
			break;
		}
		for (int i = 0; i < *n && !s; i++)
			if (!strcmp((*arr)[i].kernel, f[0]) && (wall || !strcmp((*arr)[i].fs, f[1])))
				s = &(*arr)[i];
		if (!s) {
			s = PUSH(*arr, *n);
			memset(s, 0, sizeof(*s));
			s->kernel = rp_strdup(f[0]);
			s->fs = wall ? NULL : rp_strdup(f[1]);
		}
		s->ops += ops;
		s->secs += wall ? (double)w : secs;
		/* the guests at once of the last run (a merge: the last shard's) */
		s->guests = guests;
	}
	free(buf);
	free(path);
	return r;
}

/* "DIVERGE NAME [WHY]: WHAT", "MISSING NAME: WHAT", "INCOMPLETE NAME: WHAT",
 * "NOTRACE NAME: WHAT", "SETUP NAME: WHAT" */
static int div_parse(char *l, struct divline *d)
{
	static const struct {
		const char *word, *kind;
	} kinds[] = {
		{"DIVERGE ", "divergent"}, {"MISSING ", "missing"}, {"INCOMPLETE ", "incomplete"},
		{"NOTRACE ", "no trace"}, {"SETUP ", "setup"},
	};
	char *name, *end;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t n = strlen(kinds[i].word);

		if (strncmp(l, kinds[i].word, n))
			continue;
		name = l + n;
		memset(d, 0, sizeof(*d));
		if (i == 0) {
			char *w = strstr(name, " [");

			end = w ? strstr(w, "]: ") : NULL;
			if (!end)
				return -1;
			d->script = rp_strndup(name, (size_t)(w - name));
			d->why = rp_strndup(w + 2, (size_t)(end - w - 2));
			d->what = rp_strdup(end + 3);
		} else {
			end = strstr(name, ": ");
			if (!end)
				return -1;
			d->script = rp_strndup(name, (size_t)(end - name));
			d->what = rp_strdup(end + 2);
		}
		d->kind = rp_strdup(kinds[i].kind);
		return 1;
	}
	return 0;
}

/* "compared N script(s) on KERNEL, FS, contract CONTRACT: N divergent..." */
static int summary_parse(const char *l, struct cmpfile *cf)
{
	const char *on = strstr(l, " script(s) on "), *ct, *fs, *end;

	if (strncmp(l, "compared ", 9) || !on)
		return -1;
	on += 14;
	ct = strstr(on, ", contract ");
	if (!ct)
		return -1;
	/* a mode has no comma; the kernel's name might */
	for (fs = ct - 1; fs > on && strncmp(fs, ", ", 2); fs--)
		;
	end = strstr(ct + 11, ": ");
	if (fs <= on || !end)
		return -1;
	cf->kernel = rp_strndup(on, (size_t)(fs - on));
	cf->fs = rp_strndup(fs + 2, (size_t)(ct - fs - 2));
	cf->contract = rp_strndup(ct + 11, (size_t)(end - ct - 11));
	return 0;
}

/* DIR's compare-*.txt (but compare-final-*, the minimal scripts' compare). */
static int compares_read(struct campaign *c, const char *dir)
{
	char **names;
	int n, r = list_dir(dir, "compare-", ".txt", &names, &n);

	for (int i = 0; !r && i < n; i++) {
		struct cmpfile *cf;
		char *buf, *p, *l, *last = NULL;
		int ln = 0;

		if (!strncmp(names[i], "compare-final-", 14))
			continue;
		cf = PUSH(c->cmp, c->ncmp);
		memset(cf, 0, sizeof(*cf));
		cf->path = rp_asprintf("%s/%s", dir, names[i]);
		cf->name = rp_strndup(names[i] + 8, strlen(names[i]) - 8 - 4);
		cf->dir = dir;
		r = rp_slurp(cf->path, 1, &buf, NULL);
		for (p = buf; !r && (l = rp_next_line(&p));) {
			struct divline d;
			int k = div_parse(l, &d);

			ln++;
			last = l;
			if (k < 0) {
				r = rp_fail("%s:%d: a divergence line that is not compare's: %s", cf->path,
					 ln, l);
			} else if (k) {
				*PUSH(cf->div, cf->ndiv) = d;
			} else if (!strncmp(l, "CUT ", 4)) {
				struct cutline *cl = PUSH(cf->cut, cf->ncut);
				char *colon = strstr(l + 4, ": ops "), *why;

				memset(cl, 0, sizeof(*cl));
				why = colon ? strstr(colon, " not compared: ") : NULL;
				if (!why || sscanf(colon, ": ops %ld..%ld", &cl->from, &cl->to) != 2) {
					r = rp_fail("%s:%d: a CUT line that is not compare's: %s", cf->path,
						 ln, l);
					break;
				}
				cl->script = rp_strndup(l + 4, (size_t)(colon - l - 4));
				cl->why = rp_strdup(why + 15);
			}
		}
		if (!r && (!last || summary_parse(last, cf)))
			r = rp_fail("%s: no summary line at its end (compared N script(s) on KERNEL, "
				 "FS, contract C: ...): compare did not finish", cf->path);
		if (!r)
			cf->last = rp_strdup(last);
		free(buf);
	}
	free_list(names, n);
	return r;
}

/* ---- judge-K-FS.txt ---- */

/* Copy @n bytes of @s into @d (@size bytes), NUL-terminated; -1 if they do not fit. */
static int copy_part(char *d, size_t size, const char *s, size_t n)
{
	if (n >= size)
		return -1;
	memcpy(d, s, n);
	d[n] = 0;
	return 0;
}

int report_parse_judge_line(const char *l, struct report_judge_line *j)
{
	static const struct {
		const char *word, *kind;
	} kinds[] = {
		{"JUDGE ", "judge"}, {"UNJUDGED ", "unjudged"}, {"KNOWN ", "known"},
		{"UNEXPLAINED ", "unexplained"},
	};
	static const char *const violations[] = {"lost", "repeat", "invented"};
	const char *name, *end, *op = NULL;
	size_t k, n;
	int used = 0;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (!strncmp(l, kinds[k].word, strlen(kinds[k].word)))
			break;
	if (k == sizeof(kinds) / sizeof(kinds[0]))
		return 0;
	memset(j, 0, sizeof(*j));
	j->op = j->line = -1;
	strcpy(j->kind, kinds[k].kind);
	name = l + strlen(kinds[k].word);
	n = strcspn(name, " :[");
	if (!n || copy_part(j->script, sizeof(j->script), name, n))
		return -1;
	end = name + n;
	switch (k) {
	case 0:
		/* " op I (line L): OP: KIND: WHAT" */
		if (sscanf(end, " op %d (line %d): %n", &j->op, &j->line, &used) != 2 || !used ||
		    j->op < 0 || j->line < 1)
			return -1;
		end += used;
		for (size_t v = 0; v < sizeof(violations) / sizeof(violations[0]); v++) {
			char mark[24];
			const char *m;

			snprintf(mark, sizeof(mark), ": %s: ", violations[v]);
			m = strstr(end, mark);
			if (m && (!op || m < op)) {
				op = m;
				strcpy(j->violation, violations[v]);
			}
		}
		if (!op || op == end || copy_part(j->op_text, sizeof(j->op_text), end,
						   (size_t)(op - end)))
			return -1;
		end = op + strlen(j->violation) + 4;
		break;
	case 2:
		/* " [SWITCHES]" */
		n = strlen(end);
		if (strncmp(end, " [", 2) || n < 4 || end[n - 1] != ']')
			return -1;
		return copy_part(j->what, sizeof(j->what), end + 2, n - 3) ? -1 : 1;
	default:
		/* ": WHY" */
		if (strncmp(end, ": ", 2))
			return -1;
		end += 2;
		break;
	}
	if (!*end || copy_part(j->what, sizeof(j->what), end, strlen(end)))
		return -1;
	return 1;
}

/* A whole number at the start of @s, then @then: the number into *@v, where it ends. */
static const char *number_then(const char *s, const char *then, long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return NULL;
	errno = 0;
	*v = strtol(s, &end, 10);
	if (errno || strncmp(end, then, strlen(then)))
		return NULL;
	return end + strlen(then);
}

int report_parse_judge_summary(const char *l, struct report_judge_summary *s)
{
	const char *p, *colon, *fs, *tail, *q;
	size_t n = strlen(l), k;

	memset(s, 0, sizeof(*s));
	p = strncmp(l, "judged ", 7) ? NULL : number_then(l + 7, " script(s) on ", &s->judged);
	colon = p ? strstr(p, ": ") : NULL;
	if (!colon)
		return -1;
	/* "KERNEL, FS": a mode has no comma */
	for (fs = colon - 1; fs > p && strncmp(fs, ", ", 2); fs--)
		;
	if (fs <= p || copy_part(s->kernel, sizeof(s->kernel), p, (size_t)(fs - p)) ||
	    copy_part(s->fs, sizeof(s->fs), fs + 2, (size_t)(colon - fs - 2)))
		return -1;
	p = number_then(colon + 2, " breaking the contract", &s->breaking);
	if (!p)
		return -1;
	/* the end: ", U not judged, O ops judged" */
	k = strlen(" ops judged");
	if (n < k || strcmp(l + n - k, " ops judged"))
		return -1;
	for (tail = l + n - k; tail > p && strncmp(tail, ", ", 2); tail--)
		;
	for (tail--; tail > p && strncmp(tail, ", ", 2); tail--)
		;
	if (tail < p || strncmp(tail, ", ", 2))
		return -1;
	q = number_then(tail + 2, " not judged, ", &s->unjudged);
	if (!q || !(q = number_then(q, " ops judged", &s->ops)) || *q)
		return -1;
	if (tail == p)
		return 0;
	/* " (K of them known deviations of CONTRACT)" */
	q = strncmp(p, " (", 2) ? NULL : number_then(p + 2, " of them known deviations of ",
						     &s->known);
	if (!q || tail[-1] != ')' || tail - 1 <= q ||
	    copy_part(s->known_of, sizeof(s->known_of), q, (size_t)(tail - 1 - q)))
		return -1;
	return 0;
}

int rp_judge_fails(const struct judgefile *j)
{
	return j->unjudged > 0 || (!j->known_of && j->breaking > 0);
}

/* The judge output @buf of @path into @c: to the kernel and mode's (another shard's) or
 * as a new one. 0, or 2 (said). */
static int judge_add(struct campaign *c, const char *path, const char *name, char *buf)
{
	struct report_judge_summary sum;
	struct judgeline *lines = NULL;
	struct judgefile *jf = NULL;
	long known = 0, unexplained = 0, unjudged = 0, breaking = 0;
	char *p, *l, *want;
	int n = 0, ln = 0, r = 0, last = 0, prev = -1;

	for (p = buf; !r && (l = rp_next_line(&p));) {
		struct report_judge_line j;
		int k = report_parse_judge_line(l, &j);

		ln++;
		if (k == 1) {
			struct judgeline *x = PUSH(lines, n);

			x->j = j;
			x->text = rp_strdup(l);
			x->path = NULL;
			known += !strcmp(j.kind, "known");
			unexplained += !strcmp(j.kind, "unexplained");
			unjudged += !strcmp(j.kind, "unjudged");
			/* a breaking script's JUDGE lines come one after the other */
			if (!strcmp(j.kind, "judge")) {
				if (prev < 0 || strcmp(lines[prev].j.script, j.script))
					breaking++;
				prev = n - 1;
			}
		} else if (*p || report_parse_judge_summary(l, &sum)) {
			r = rp_fail("%s:%d: not a line of difftest judge's (JUDGE, UNJUDGED, KNOWN, "
				 "UNEXPLAINED, its summary last): %s", path, ln, l);
		} else {
			last = 1;
		}
	}
	if (!r && !last)
		r = rp_fail("%s: no summary line at its end (judged N script(s) on KERNEL, FS: ...): "
			 "judge did not finish", path);
	want = r ? NULL : rp_asprintf("judge-%s-%s.txt", sum.kernel, sum.fs);
	if (!r && strcmp(want, name))
		r = rp_fail("%s: its summary names %s, %s (a file of theirs is %s)", path, sum.kernel,
			 sum.fs, want);
	if (!r && (unjudged != sum.unjudged || breaking != sum.breaking || known != sum.known ||
		   (*sum.known_of ? known + unexplained != breaking : known + unexplained > 0)))
		r = rp_fail("%s: its lines do not add up to its summary (%ld breaking, %ld known, "
			 "%ld unexplained, %ld not judged)", path, breaking, known, unexplained,
			 unjudged);
	free(want);
	for (int i = 0; !r && i < c->njudge && !jf; i++)
		if (!strcmp(c->judge[i].kernel, sum.kernel) && !strcmp(c->judge[i].fs, sum.fs))
			jf = &c->judge[i];
	if (!r && jf && strcmp(jf->known_of ? jf->known_of : "", sum.known_of))
		r = rp_fail("%s: known deviations of '%s', %s's of '%s'", path, sum.known_of,
			 jf->path[0], jf->known_of ? jf->known_of : "");
	if (r) {
		for (int i = 0; i < n; i++)
			free(lines[i].text);
		free(lines);
		return r;
	}
	if (!jf) {
		jf = PUSH(c->judge, c->njudge);
		memset(jf, 0, sizeof(*jf));
		jf->kernel = rp_strdup(sum.kernel);
		jf->fs = rp_strdup(sum.fs);
		jf->known_of = *sum.known_of ? rp_strdup(sum.known_of) : NULL;
	}
	*PUSH(jf->path, jf->npath) = rp_strdup(path);
	jf->judged += sum.judged;
	jf->breaking += sum.breaking;
	jf->known += sum.known;
	jf->unjudged += sum.unjudged;
	jf->ops += sum.ops;
	for (int i = 0; i < n; i++) {
		lines[i].path = jf->path[jf->npath - 1];
		*PUSH(jf->line, jf->nline) = lines[i];
	}
	free(lines);
	return 0;
}

/* DIR's judge-*.txt */
static int judges_read(struct campaign *c, const char *dir)
{
	char **names;
	int n, r = list_dir(dir, "judge-", ".txt", &names, &n);

	for (int i = 0; !r && i < n; i++) {
		char *path = rp_asprintf("%s/%s", dir, names[i]), *buf;

		r = rp_slurp(path, 1, &buf, NULL);
		if (!r)
			r = judge_add(c, path, names[i], buf);
		free(buf);
		free(path);
	}
	free_list(names, n);
	return r;
}

/* Where the rows first name @j's kernel and mode (c->nrow: they do not). */
static int judge_rank(const struct campaign *c, const struct judgefile *j)
{
	for (int i = 0; i < c->nrow; i++)
		if (!strcmp(c->row[i].key[0], j->kernel) && !strcmp(c->row[i].key[1], j->fs))
			return i;
	return c->nrow;
}

static const struct campaign *judge_c;

static int judge_order(const void *a, const void *b)
{
	const struct judgefile *x = a, *y = b;
	int rx = judge_rank(judge_c, x), ry = judge_rank(judge_c, y);

	if (rx != ry)
		return rx - ry;
	return strcmp(x->path[0], y->path[0]);
}

/* DIR's div-*.dt and cases-*.dt, each added to the file of its name (a merge's). */
static int scripts_read(struct campaign *c, const char *dir)
{
	static const char *const pre[] = {"cases-", "div-"};
	int r = 0;

	for (int k = 0; k < 2 && !r; k++) {
		char **names;
		int n;

		r = list_dir(dir, pre[k], ".dt", &names, &n);
		for (int i = 0; !r && i < n; i++) {
			char *path = rp_asprintf("%s/%s", dir, names[i]), *buf;
			struct sfile *s = NULL;
			size_t len = 0;

			r = rp_slurp(path, 1, &buf, &len);
			free(path);
			if (r || !len) {
				free(buf);
				continue;
			}
			for (int j = 0; j < c->nsf && !s; j++)
				if (!strcmp(c->sf[j].name, names[i]))
					s = &c->sf[j];
			if (!s) {
				s = PUSH(c->sf, c->nsf);
				*s = (struct sfile){rp_strdup(names[i]), !k, NULL, 0};
			}
			s->text = rp_realloc(s->text, s->len + len + 1);
			memcpy(s->text + s->len, buf, len + 1);
			s->len += len;
			free(buf);
		}
		free_list(names, n);
	}
	return r;
}

static int sfile_order(const void *a, const void *b)
{
	const struct sfile *x = a, *y = b;

	/* the minimal scripts first, then the divergent ones, each by name */
	if (x->cases != y->cases)
		return y->cases - x->cases;
	return strcmp(x->name, y->name);
}

const struct sfile *rp_cases_of(const struct campaign *c, const struct sfile *div)
{
	for (int i = 0; i < c->nsf; i++)
		if (c->sf[i].cases && !strcmp(c->sf[i].name + 6, div->name + 4))
			return &c->sf[i];
	return NULL;
}

/* Are @a and @b the same directory? */
static int same_dir(const char *a, const char *b)
{
	struct stat x, y;

	return !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* The directories' campaign.info: one campaign, or (@c->merged) the N shards of one. */
static int infos_read(struct campaign *c, const char *merge)
{
	const char **got;
	long sn;
	int r;

	c->info = rp_realloc(NULL, (size_t)c->ndirs * sizeof(*c->info));
	memset(c->info, 0, (size_t)c->ndirs * sizeof(*c->info));
	for (int i = 0; merge && i < c->ndirs; i++)
		if (same_dir(merge, c->dirs[i]))
			return rp_fail("%s is one of the shards: the merge goes into a directory of its "
				    "own", merge);
	r = info_read(c->dirs[0], &c->info[0]);
	if (r || !c->merged)
		return r;
	sn = rp_info_num(&c->info[0], "shards");
	if (sn != c->ndirs)
		return rp_fail("%s/campaign.info says %ld shard(s), %d director(ies) given",
			    c->dirs[0], sn, c->ndirs);
	got = rp_realloc(NULL, (size_t)(sn + 1) * sizeof(*got));
	memset(got, 0, (size_t)(sn + 1) * sizeof(*got));
	for (int i = 0; !r && i < c->ndirs; i++) {
		long s;

		if (i)
			r = info_read(c->dirs[i], &c->info[i]);
		for (size_t k = 0; !r && k < sizeof(shard_keys) / sizeof(shard_keys[0]); k++) {
			const char *v = rp_info_str(&c->info[i], shard_keys[k]);
			const char *v0 = rp_info_str(&c->info[0], shard_keys[k]);

			if (strcmp(v, v0))
				r = rp_fail("%s and %s differ in %s (%s / %s): not shards of one campaign",
					 c->dirs[i], c->dirs[0], shard_keys[k], v, v0);
		}
		s = rp_info_num(&c->info[i], "shard");
		if (!r && (s < 1 || s > sn))
			r = rp_fail("%s/campaign.info: shard=%ld of %ld", c->dirs[i], s, sn);
		else if (!r && got[s])
			r = rp_fail("shard %ld/%ld given twice (%s, %s)", s, sn, got[s], c->dirs[i]);
		else if (!r)
			got[s] = c->dirs[i];
	}
	free(got);
	return r;
}

/* The reasons a campaign fails (lib.sh, dt_fail), in the order the report says them,
 * and whether each names a mode. */
static const struct {
	const char *what;
	int fs;
} fail_whats[] = {
	{"diverged", 1}, {"no-divergence", 0}, {"not-run", 1}, {"guest-failed", 0},
	{"broke-contract", 1}, {"not-judged", 1},
};

static size_t fail_rank(const char *what)
{
	size_t i = 0;

	while (i < sizeof(fail_whats) / sizeof(fail_whats[0]) && strcmp(fail_whats[i].what, what))
		i++;
	return i;
}

char *rp_failure_text(const struct failure *f)
{
	if (!strcmp(f->what, "diverged"))
		return rp_asprintf("%s diverged from its own contract on %s (difftest compare)",
				   f->kernel, f->fs);
	if (!strcmp(f->what, "no-divergence"))
		return rp_asprintf("the model with the planted bug showed no divergence on %s",
				   f->kernel);
	if (!strcmp(f->what, "not-run"))
		return rp_asprintf("%s's guest did not run or finish every script on %s, or its "
				   "harness failed (not run)", f->kernel, f->fs);
	if (!strcmp(f->what, "broke-contract"))
		return rp_asprintf("%s broke the contract itself on %s (difftest judge)", f->kernel,
				   f->fs);
	if (!strcmp(f->what, "not-judged"))
		return rp_asprintf("difftest judge could not judge every script of %s on %s",
				   f->kernel, f->fs);
	return rp_asprintf("%s's guest run failed: no results", f->kernel);
}

/* DIR's campaign.info failures= (if any), each reason added once. */
static int failures_read(struct campaign *c, const char *dir, const struct info *in)
{
	const char *v = info_get(in, "failures");
	char *buf, *save = NULL, *w;
	int r = 0;

	if (!v)
		return 0;
	c->fail_said = 1;
	buf = rp_strdup(v);
	for (w = strtok_r(buf, " ", &save); w && !r; w = strtok_r(NULL, " ", &save)) {
		char *k = strchr(w, ':'), *fs;
		size_t i, n = sizeof(fail_whats) / sizeof(fail_whats[0]);
		int dup = 0;

		if (k)
			*k++ = 0;
		i = fail_rank(w);
		fs = k && i < n && fail_whats[i].fs ? strrchr(k, ':') : NULL;
		if (fs)
			*fs++ = 0;
		if (!k || i == n || !*k || (fail_whats[i].fs && (!fs || !*fs)) ||
		    (!fail_whats[i].fs && strchr(k, ':'))) {
			if (k)
				k[-1] = ':';
			if (fs)
				fs[-1] = ':';
			r = rp_fail("%s/campaign.info: failures=: '%s' is not WHAT:KERNEL:FS (WHAT: "
				 "diverged, not-run, broke-contract, not-judged) or WHAT:KERNEL "
				 "(no-divergence, guest-failed)", dir, w);
			break;
		}
		for (int j = 0; j < c->nfail && !dup; j++)
			dup = !strcmp(c->fail[j].what, w) && !strcmp(c->fail[j].kernel, k) &&
			      !strcmp(c->fail[j].fs ? c->fail[j].fs : "", fs ? fs : "");
		if (!dup)
			*PUSH(c->fail, c->nfail) = (struct failure){rp_strdup(w), rp_strdup(k),
								    fs ? rp_strdup(fs) : NULL};
	}
	free(buf);
	return r;
}

int rp_campaign_read(struct campaign *c, const struct report_opts *o, int ndirs, char **dirs)
{
	int r;

	memset(c, 0, sizeof(*c));
	c->ndirs = ndirs;
	c->merged = ndirs > 1 || o->merge;
	c->dirs = rp_realloc(NULL, (size_t)ndirs * sizeof(*c->dirs));
	for (int i = 0; i < ndirs; i++) {
		size_t n = strlen(dirs[i]);

		/* "DIR/" names DIR: said as DIR */
		while (n > 1 && dirs[i][n - 1] == '/')
			n--;
		c->dirs[i] = rp_strndup(dirs[i], n);
	}
	r = infos_read(c, o->merge);
	for (int i = 0; !r && i < ndirs; i++) {
		long w = rp_info_num(&c->info[i], "wall");

		r = failures_read(c, c->dirs[i], &c->info[i]);
		if (!r)
			r = rows_read(c, c->dirs[i]);
		if (!r)
			r = speed_read(c, c->dirs[i], 0);
		if (!r)
			r = speed_read(c, c->dirs[i], 1);
		if (!r)
			r = compares_read(c, c->dirs[i]);
		if (!r)
			r = scripts_read(c, c->dirs[i]);
		if (!r)
			r = judges_read(c, c->dirs[i]);
		c->wall_sum += w;
		if (w > c->wall_max || !i)
			c->wall_max = w;
		if (rp_info_num(&c->info[i], "status"))
			c->status = 1;
	}
	/* the reasons by kind, each kind in the order the directories name them */
	for (int i = 1; !r && i < c->nfail; i++)
		for (int k = i; k > 0; k--) {
			struct failure x = c->fail[k];

			if (fail_rank(c->fail[k - 1].what) <= fail_rank(x.what))
				break;
			c->fail[k] = c->fail[k - 1];
			c->fail[k - 1] = x;
		}
	if (!r) {
		qsort(c->sf, (size_t)c->nsf, sizeof(*c->sf), sfile_order);
		judge_c = c;
		qsort(c->judge, (size_t)c->njudge, sizeof(*c->judge), judge_order);
	}
	return r;
}

void rp_campaign_free(struct campaign *c)
{
	for (int i = 0; i < c->nrow; i++) {
		for (int k = 0; k < 4; k++)
			free(c->row[i].key[k]);
		for (int k = 0; k < c->row[i].nwhy; k++)
			free(c->row[i].why[k].name);
		free(c->row[i].why);
	}
	free(c->row);
	for (int i = 0; i < c->nspeed; i++) {
		free(c->speed[i].kernel);
		free(c->speed[i].fs);
	}
	for (int i = 0; i < c->nwall; i++)
		free(c->wall[i].kernel);
	free(c->speed);
	free(c->wall);
	for (int i = 0; i < c->ncmp; i++) {
		struct cmpfile *cf = &c->cmp[i];

		for (int k = 0; k < cf->ndiv; k++) {
			free(cf->div[k].kind);
			free(cf->div[k].script);
			free(cf->div[k].why);
			free(cf->div[k].what);
		}
		for (int k = 0; k < cf->ncut; k++) {
			free(cf->cut[k].script);
			free(cf->cut[k].why);
		}
		free(cf->div);
		free(cf->cut);
		free(cf->path);
		free(cf->name);
		free(cf->kernel);
		free(cf->fs);
		free(cf->contract);
		free(cf->last);
	}
	free(c->cmp);
	for (int i = 0; i < c->nsf; i++) {
		free(c->sf[i].name);
		free(c->sf[i].text);
	}
	free(c->sf);
	for (int i = 0; i < c->njudge; i++) {
		struct judgefile *j = &c->judge[i];

		for (int k = 0; k < j->nline; k++)
			free(j->line[k].text);
		free(j->line);
		free_list(j->path, j->npath);
		free(j->kernel);
		free(j->fs);
		free(j->known_of);
	}
	free(c->judge);
	for (int i = 0; i < c->nfail; i++) {
		free(c->fail[i].what);
		free(c->fail[i].kernel);
		free(c->fail[i].fs);
	}
	free(c->fail);
	for (int i = 0; i < c->ndirs; i++) {
		if (c->info) {
			free(c->info[i].buf);
			free(c->info[i].key);
			free(c->info[i].val);
		}
		free(c->dirs[i]);
	}
	free(c->info);
	free(c->dirs);
}

/* ---- the tables ---- */

static long why_count(const struct row *r, const char *name)
{
	for (int i = 0; i < r->nwhy; i++)
		if (!strcmp(r->why[i].name, name))
			return r->why[i].n;
	return 0;
}

static const struct campaign *sort_c;

static int by_class(const void *a, const void *b)
{
	return strcmp(sort_c->row[*(const int *)a].key[3], sort_c->row[*(const int *)b].key[3]);
}

struct group *rp_groups_make(const struct campaign *c, int *ng)
{
	struct group *g = NULL;

	*ng = 0;
	for (int i = 0; i < c->nrow; i++) {
		const struct row *r = &c->row[i];
		struct group *x = NULL;

		for (int k = 0; k < *ng && !x; k++)
			if (!strcmp(g[k].kernel, r->key[0]) && !strcmp(g[k].fs, r->key[1]) &&
			    !strcmp(g[k].contract, r->key[2]))
				x = &g[k];
		if (!x) {
			x = PUSH(g, *ng);
			memset(x, 0, sizeof(*x));
			x->kernel = r->key[0];
			x->fs = r->key[1];
			x->contract = r->key[2];
			snprintf(x->cname, sizeof(x->cname), "%.*s", (int)strcspn(r->key[2], " "),
				 r->key[2]);
			for (int k = 0; k < c->nspeed && !x->speed; k++)
				if (!strcmp(c->speed[k].kernel, x->kernel) &&
				    !strcmp(c->speed[k].fs, x->fs))
					x->speed = &c->speed[k];
		}
		x->ops += r->v[0];
		x->scripts += r->v[1];
		x->div += r->v[2];
		x->unexplained += why_count(r, "unexplained");
		x->notrun += r->v[4];
		*PUSH(x->rows, x->nrows) = i;
	}
	sort_c = c;
	for (int k = 0; k < *ng; k++)
		qsort(g[k].rows, (size_t)g[k].nrows, sizeof(int), by_class);
	return g;
}

void rp_groups_free(struct group *g, int ng)
{
	for (int k = 0; k < ng; k++)
		free(g[k].rows);
	free(g);
}

/* ---- the merge ---- */

/* The shards' files, merged, into @out: a campaign directory like one run's but for its
 * campaign.info and compare outputs, which stay the shards' (rows.tsv summed;
 * speed.tsv, wall.tsv, the scripts one shard's after another; the judge outputs' lines
 * one shard's after another, their summaries summed into one). */
int rp_merge_write(const struct campaign *c, const char *out)
{
	char *path;
	FILE *f;
	int r = 0;

	if (mkdir(out, 0777) && errno != EEXIST)
		return rp_fail("%s: %s", out, strerror(errno));
	path = rp_asprintf("%s/rows.tsv", out);
	f = fopen(path, "w");
	if (!f) {
		r = rp_fail("%s: %s", path, strerror(errno));
		free(path);
		return r;
	}
	for (int i = 0; i < c->nrow; i++) {
		const struct row *w = &c->row[i];

		fprintf(f, "%s\t%s\t%s\t%s\t%ld\t%ld\t%ld\t%ld\t", w->key[0], w->key[1], w->key[2],
			w->key[3], w->v[0], w->v[1], w->v[2], w->v[3]);
		for (int k = 0; k < w->nwhy; k++)
			fprintf(f, "%s%s:%ld", k ? "," : "", w->why[k].name, w->why[k].n);
		fprintf(f, "\t%ld\n", w->v[4]);
	}
	if (fclose(f))
		r = rp_fail("%s: %s", path, strerror(errno));
	free(path);
	for (int k = 0; k < 2 && !r; k++) {
		const char *name = k ? "wall.tsv" : "speed.tsv";
		FILE *o = NULL;

		for (int i = 0; i < c->ndirs && !r; i++) {
			char *src = rp_asprintf("%s/%s", c->dirs[i], name), *buf;
			size_t len;

			if (!rp_slurp(src, 0, &buf, &len)) {
				path = rp_asprintf("%s/%s", out, name);
				if (!o && !(o = fopen(path, "w")))
					r = rp_fail("%s: %s", path, strerror(errno));
				if (o)
					fwrite(buf, 1, len, o);
				free(path);
				free(buf);
			}
			free(src);
		}
		if (o && fclose(o))
			r = rp_fail("%s/%s: %s", out, name, strerror(errno));
	}
	for (int k = 0; k < c->nsf && !r; k++) {
		path = rp_asprintf("%s/%s", out, c->sf[k].name);
		f = fopen(path, "w");
		if (!f || fwrite(c->sf[k].text, 1, c->sf[k].len, f) != c->sf[k].len || fclose(f))
			r = rp_fail("%s: %s", path, strerror(errno));
		free(path);
	}
	for (int k = 0; k < c->njudge && !r; k++) {
		const struct judgefile *j = &c->judge[k];

		int bad;

		path = rp_asprintf("%s/judge-%s-%s.txt", out, j->kernel, j->fs);
		f = fopen(path, "w");
		if (!f) {
			r = rp_fail("%s: %s", path, strerror(errno));
			free(path);
			break;
		}
		for (int i = 0; i < j->nline; i++)
			fprintf(f, "%s\n", j->line[i].text);
		fprintf(f, "judged %ld script(s) on %s, %s: %ld breaking the contract", j->judged,
			j->kernel, j->fs, j->breaking);
		if (j->known_of)
			fprintf(f, " (%ld of them known deviations of %s)", j->known, j->known_of);
		fprintf(f, ", %ld not judged, %ld ops judged\n", j->unjudged, j->ops);
		bad = ferror(f);
		if (fclose(f) || bad)
			r = rp_fail("%s: %s", path, strerror(errno ? errno : EIO));
		free(path);
	}
	return r;
}
