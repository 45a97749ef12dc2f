// SPDX-License-Identifier: GPL-2.0
/*
 * difftest report: what a campaign found, from the files campaign.sh leaves in its
 * --out directory:
 *
 *   campaign.info        KEY=VALUE lines: the campaign's options (seed, ops, per, fs,
 *                        kernels, line, contract, scenarios, scripts, bug, source,
 *                        custom), shard=I, shards=N, wall=SECONDS, status=0|1
 *   rows.tsv             compare -t's rows: kernel, filesystem mode, contract, scenario
 *                        class, ops, scripts, divergent scripts, divergent ops, and the
 *                        attribution NAME:COUNT,... (a switch, several_switches, unexplained)
 *   speed.tsv            kernel, mode, ops, guest seconds: a row per guest and batch
 *   wall.tsv             kernel, ops, wall seconds, guests: a row per kernel's main run
 *   compare-K-C-FS.txt   compare's output: DIVERGE, MISSING, INCOMPLETE, CUT lines and
 *                        its summary (compare-final-*: the minimal scripts', not read)
 *   div-K-C-FS.dt        the divergent scripts (a "# ..." line before each: compare's
 *                        divergence), shrunk in place; cases-K-C-FS.dt: the minimal
 *                        ones, compared again
 *
 * Several directories are the shards of one campaign (campaign.sh --shard): their rows
 * are summed by kernel, mode, contract and class, their other files read one after the
 * other, so that the report is the one a single run would have written.
 *
 * The Markdown: a table per kernel, mode and contract (and its chart, drawn by gnuplot
 * with difftest/chart.gp), the guests' speed, the scripts a per-line rule cut short, a
 * table per scenario class, the minimal divergent scripts. The JSON: the same rows, and
 * every divergence of the compare output with its results and its trace's errseq words
 * decoded (report_word_decode()).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "model.h"
#include "report.h"

/* ---- small helpers ---- */

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		abort();
	return p;
}

static char *xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);

	if (!d)
		abort();
	return d;
}

static char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *xasprintf(const char *fmt, ...)
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

/* Room for one more element at the end of array @a of @n (then counted). */
#define PUSH(a, n) ((a) = xrealloc((a), ((size_t)(n) + 1) * sizeof(*(a))), &(a)[(n)++])

/* Say what is wrong, as "difftest report: ...": the exit status is 2. */
static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int fail(const char *fmt, ...)
{
	va_list ap;

	fputs("difftest report: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

/* The whole of @path, NUL-terminated, into *@buf (*@len bytes, NULL allowed).
 * Returns 0, 1 when there is no such file and @must is 0, or 2 (said). */
static int slurp(const char *path, int must, char **buf, size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0, cap = 4096, r;
	char *b;

	*buf = NULL;
	if (!f) {
		if (errno == ENOENT && !must)
			return 1;
		return fail("%s: %s", path, strerror(errno));
	}
	b = xrealloc(NULL, cap);
	while ((r = fread(b + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n - 1 == 0)
			b = xrealloc(b, cap *= 2);
	}
	if (ferror(f)) {
		fclose(f);
		free(b);
		return fail("%s: %s", path, strerror(errno));
	}
	fclose(f);
	b[n] = 0;
	*buf = b;
	if (len)
		*len = n;
	return 0;
}

/* The next line of *@p (cut at '\n' in place), or NULL at the end. */
static char *next_line(char **p)
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

/* @s as a whole number (decimal digits only, no sign) in *@v; -1 if it is not one. */
static int whole(const char *s, long *v)
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
		return fail("%s: %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (l > lp + ls && !strncmp(e->d_name, pre, lp) && !strcmp(e->d_name + l - ls, suf))
			*PUSH(*out, *n) = xstrdup(e->d_name);
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

/* ---- what is read ---- */

/* campaign.info */
struct info {
	char *buf;
	int n;
	char **key, **val;
};

static const char *info_get(const struct info *in, const char *key)
{
	for (int i = 0; i < in->n; i++)
		if (!strcmp(in->key[i], key))
			return in->val[i];
	return NULL;
}

static const char *info_str(const struct info *in, const char *key)
{
	const char *v = info_get(in, key);

	return v ? v : "";
}

static long info_num(const struct info *in, const char *key)
{
	long v = 0;

	whole(info_str(in, key), &v);
	return v;
}

/* One row of rows.tsv (several shards' rows of one key: summed). */
struct why {
	char *name;
	long n;
};

struct row {
	char *key[4];		/* kernel, filesystem mode, contract, class */
	long v[4];		/* ops, scripts, divergent scripts, divergent ops */
	struct why *why;	/* in the order the rows name them */
	int nwhy;
};

/* speed.tsv per kernel and mode; wall.tsv per kernel (wall: mode NULL, guests) */
struct speed {
	char *kernel, *fs;
	long ops, guests;
	double secs;
};

/* A divergent script of a compare output (DIVERGE, MISSING or INCOMPLETE). */
struct divline {
	char *kind;		/* "divergent", "missing", "incomplete" */
	char *script;
	char *why;		/* the attribution, NULL but for DIVERGE */
	char *what;
};

/* A script a per-line rule cut short (CUT NAME: ops A..B not compared: WHY). */
struct cutline {
	char *script;
	long from, to;
	char *why;
};

/* One compare-K-C-FS.txt */
struct cmpfile {
	char *path, *name;	/* name: K-C-FS */
	const char *dir;
	char *kernel, *fs, *contract, *last;	/* from its summary, its last line */
	struct divline *div;
	int ndiv;
	struct cutline *cut;
	int ncut;
};

/* The divergent or minimal scripts of one name (div-* or cases-*), all shards'. */
struct sfile {
	char *name;		/* div-K-C-FS.dt, cases-K-C-FS.dt */
	int cases;
	char *text;
	size_t len;
};

struct campaign {
	int ndirs, merged;	/* merged: the report of several shards */
	char **dirs;
	struct info *info;	/* per directory */
	struct row *row;
	int nrow;
	struct speed *speed, *wall;
	int nspeed, nwall;
	struct cmpfile *cmp;
	int ncmp;
	struct sfile *sf;
	int nsf;
	int status;		/* the worst of the directories' */
	long wall_sum, wall_max;
};

/* The keys a campaign.info must have; and those the shards of one campaign share. */
static const char *const info_needs[] = {"line", "shard", "shards", "wall", "status"};
static const char *const shard_keys[] = {
	"seed", "ops", "per", "fs", "kernels", "line", "contract", "scenarios", "scripts", "bug",
	"shards", "source", "custom",
};

/* DIR/campaign.info into @in; 2 (said) when there is none or it does not parse. */
static int info_read(const char *dir, struct info *in)
{
	char *path = xasprintf("%s/campaign.info", dir), *p, *l;
	int r, ln = 0;

	memset(in, 0, sizeof(*in));
	r = slurp(path, 0, &in->buf, NULL);
	if (r == 1)
		r = fail("no %s (not a finished campaign --out directory)", path);
	for (p = in->buf; !r && (l = next_line(&p));) {
		char *eq = strchr(l, '=');

		ln++;
		if (!eq || eq == l) {
			r = fail("%s:%d: not KEY=VALUE", path, ln);
			break;
		}
		*eq = 0;
		*PUSH(in->key, in->n) = l;
		in->val = xrealloc(in->val, (size_t)in->n * sizeof(*in->val));
		in->val[in->n - 1] = eq + 1;
	}
	for (size_t i = 0; !r && i < sizeof(info_needs) / sizeof(info_needs[0]); i++) {
		const char *v = info_get(in, info_needs[i]);
		long n;

		if (!v)
			r = fail("%s: no %s= (not a finished campaign --out directory)", path,
				 info_needs[i]);
		else if (strcmp(info_needs[i], "line") && whole(v, &n))
			r = fail("%s: %s=%s: want a whole number", path, info_needs[i], v);
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
	*PUSH(r->why, r->nwhy) = (struct why){xstrdup(name), n};
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
			r->key[i] = xstrdup(f[i]);
	}
	for (int i = 0; i < 4; i++)
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
		if (whole(num, &v))
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
	char *path = xasprintf("%s/rows.tsv", dir), *buf, *p, *l;
	int r = slurp(path, 0, &buf, NULL), ln = 0;

	if (r == 1)
		r = 0;
	for (p = buf; !r && (l = next_line(&p));) {
		char *f[10];
		long v[4];

		ln++;
		if (split_tabs(l, f, 9) != 9) {
			r = fail("%s:%d: want 9 tab-separated fields (kernel, mode, contract, class, "
				 "ops, scripts, divergent scripts, divergent ops, attribution)", path, ln);
			break;
		}
		for (int i = 0; i < 4 && !r; i++)
			if (whole(f[4 + i], &v[i]))
				r = fail("%s:%d: field %d '%s': want a whole number", path, ln, 5 + i,
					 f[4 + i]);
		if (!r && !whys_valid(f[8]))
			r = fail("%s:%d: field 9 '%s': want NAME:COUNT,...", path, ln, f[8]);
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
	char *path = xasprintf("%s/%s", dir, wall ? "wall.tsv" : "speed.tsv"), *buf, *p, *l;
	int r = slurp(path, 0, &buf, NULL), ln = 0;
	struct speed **arr = wall ? &c->wall : &c->speed;
	int *n = wall ? &c->nwall : &c->nspeed;

	if (r == 1)
		r = 0;
	for (p = buf; !r && (l = next_line(&p));) {
		struct speed *s = NULL;
		char *f[5];
		long ops, w = 0, guests = 0;
		double secs = 0;
		int bad = split_tabs(l, f, 4) != 4;

		ln++;
		if (!bad && wall)
			bad = whole(f[1], &ops) || whole(f[2], &w) || whole(f[3], &guests);
		else if (!bad)
			bad = whole(f[2], &ops) || seconds(f[3], &secs);
		if (bad) {
			r = fail("%s:%d: want %s (tab-separated)", path, ln, wall ?
				 "kernel, ops, wall seconds, guests" : "kernel, mode, ops, guest seconds");
			break;
		}
		for (int i = 0; i < *n && !s; i++)
			if (!strcmp((*arr)[i].kernel, f[0]) && (wall || !strcmp((*arr)[i].fs, f[1])))
				s = &(*arr)[i];
		if (!s) {
			s = PUSH(*arr, *n);
			memset(s, 0, sizeof(*s));
			s->kernel = xstrdup(f[0]);
			s->fs = wall ? NULL : xstrdup(f[1]);
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

/* "DIVERGE NAME [WHY]: WHAT", "MISSING NAME: WHAT", "INCOMPLETE NAME: WHAT" */
static int div_parse(char *l, struct divline *d)
{
	static const struct {
		const char *word, *kind;
	} kinds[] = {
		{"DIVERGE ", "divergent"}, {"MISSING ", "missing"}, {"INCOMPLETE ", "incomplete"},
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
			d->script = xstrndup(name, (size_t)(w - name));
			d->why = xstrndup(w + 2, (size_t)(end - w - 2));
			d->what = xstrdup(end + 3);
		} else {
			end = strstr(name, ": ");
			if (!end)
				return -1;
			d->script = xstrndup(name, (size_t)(end - name));
			d->what = xstrdup(end + 2);
		}
		d->kind = xstrdup(kinds[i].kind);
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
	cf->kernel = xstrndup(on, (size_t)(fs - on));
	cf->fs = xstrndup(fs + 2, (size_t)(ct - fs - 2));
	cf->contract = xstrndup(ct + 11, (size_t)(end - ct - 11));
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
		cf->path = xasprintf("%s/%s", dir, names[i]);
		cf->name = xstrndup(names[i] + 8, strlen(names[i]) - 8 - 4);
		cf->dir = dir;
		r = slurp(cf->path, 1, &buf, NULL);
		for (p = buf; !r && (l = next_line(&p));) {
			struct divline d;
			int k = div_parse(l, &d);

			ln++;
			last = l;
			if (k < 0) {
				r = fail("%s:%d: a divergence line that is not compare's: %s", cf->path,
					 ln, l);
			} else if (k) {
				*PUSH(cf->div, cf->ndiv) = d;
			} else if (!strncmp(l, "CUT ", 4)) {
				struct cutline *cl = PUSH(cf->cut, cf->ncut);
				char *colon = strstr(l + 4, ": ops "), *why;

				memset(cl, 0, sizeof(*cl));
				why = colon ? strstr(colon, " not compared: ") : NULL;
				if (!why || sscanf(colon, ": ops %ld..%ld", &cl->from, &cl->to) != 2) {
					r = fail("%s:%d: a CUT line that is not compare's: %s", cf->path,
						 ln, l);
					break;
				}
				cl->script = xstrndup(l + 4, (size_t)(colon - l - 4));
				cl->why = xstrdup(why + 15);
			}
		}
		if (!r && (!last || summary_parse(last, cf)))
			r = fail("%s: no summary line at its end (compared N script(s) on KERNEL, "
				 "FS, contract C: ...): compare did not finish", cf->path);
		if (!r)
			cf->last = xstrdup(last);
		free(buf);
	}
	free_list(names, n);
	return r;
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
			char *path = xasprintf("%s/%s", dir, names[i]), *buf;
			struct sfile *s = NULL;
			size_t len = 0;

			r = slurp(path, 1, &buf, &len);
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
				*s = (struct sfile){xstrdup(names[i]), !k, NULL, 0};
			}
			s->text = xrealloc(s->text, s->len + len + 1);
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

/* The minimal scripts of div-X (cases-X, when shrinking confirmed them), or NULL. */
static const struct sfile *cases_of(const struct campaign *c, const struct sfile *div)
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

	c->info = xrealloc(NULL, (size_t)c->ndirs * sizeof(*c->info));
	memset(c->info, 0, (size_t)c->ndirs * sizeof(*c->info));
	for (int i = 0; merge && i < c->ndirs; i++)
		if (same_dir(merge, c->dirs[i]))
			return fail("%s is one of the shards: the merge goes into a directory of its "
				    "own", merge);
	r = info_read(c->dirs[0], &c->info[0]);
	if (r || !c->merged)
		return r;
	sn = info_num(&c->info[0], "shards");
	if (sn != c->ndirs)
		return fail("%s/campaign.info says %ld shard(s), %d director(ies) given",
			    c->dirs[0], sn, c->ndirs);
	got = xrealloc(NULL, (size_t)(sn + 1) * sizeof(*got));
	memset(got, 0, (size_t)(sn + 1) * sizeof(*got));
	for (int i = 0; !r && i < c->ndirs; i++) {
		long s;

		if (i)
			r = info_read(c->dirs[i], &c->info[i]);
		for (size_t k = 0; !r && k < sizeof(shard_keys) / sizeof(shard_keys[0]); k++) {
			const char *v = info_str(&c->info[i], shard_keys[k]);
			const char *v0 = info_str(&c->info[0], shard_keys[k]);

			if (strcmp(v, v0))
				r = fail("%s and %s differ in %s (%s / %s): not shards of one campaign",
					 c->dirs[i], c->dirs[0], shard_keys[k], v, v0);
		}
		s = info_num(&c->info[i], "shard");
		if (!r && (s < 1 || s > sn))
			r = fail("%s/campaign.info: shard=%ld of %ld", c->dirs[i], s, sn);
		else if (!r && got[s])
			r = fail("shard %ld/%ld given twice (%s, %s)", s, sn, got[s], c->dirs[i]);
		else if (!r)
			got[s] = c->dirs[i];
	}
	free(got);
	return r;
}

static int campaign_read(struct campaign *c, const struct report_opts *o, int ndirs,
			 char **dirs)
{
	int r;

	memset(c, 0, sizeof(*c));
	c->ndirs = ndirs;
	c->merged = ndirs > 1 || o->merge;
	c->dirs = xrealloc(NULL, (size_t)ndirs * sizeof(*c->dirs));
	for (int i = 0; i < ndirs; i++) {
		size_t n = strlen(dirs[i]);

		/* "DIR/" names DIR: said as DIR */
		while (n > 1 && dirs[i][n - 1] == '/')
			n--;
		c->dirs[i] = xstrndup(dirs[i], n);
	}
	r = infos_read(c, o->merge);
	for (int i = 0; !r && i < ndirs; i++) {
		long w = info_num(&c->info[i], "wall");

		r = rows_read(c, c->dirs[i]);
		if (!r)
			r = speed_read(c, c->dirs[i], 0);
		if (!r)
			r = speed_read(c, c->dirs[i], 1);
		if (!r)
			r = compares_read(c, c->dirs[i]);
		if (!r)
			r = scripts_read(c, c->dirs[i]);
		c->wall_sum += w;
		if (w > c->wall_max || !i)
			c->wall_max = w;
		if (info_num(&c->info[i], "status"))
			c->status = 1;
	}
	if (!r)
		qsort(c->sf, (size_t)c->nsf, sizeof(*c->sf), sfile_order);
	return r;
}

static void campaign_free(struct campaign *c)
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

/* A row of the first table: a kernel, mode and contract; its classes' rows. */
struct group {
	const char *kernel, *fs, *contract;
	char cname[64];		/* the contract's name, without its switches */
	long ops, scripts, div, unexplained;
	int *rows, nrows;	/* indexes into campaign.row, sorted by class */
	const struct speed *speed;
};

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

/* The first table, in the order the rows name its keys (the order the campaign ran). */
static struct group *groups_make(const struct campaign *c, int *ng)
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
		*PUSH(x->rows, x->nrows) = i;
	}
	sort_c = c;
	for (int k = 0; k < *ng; k++)
		qsort(g[k].rows, (size_t)g[k].nrows, sizeof(int), by_class);
	return g;
}

static void groups_free(struct group *g, int ng)
{
	for (int k = 0; k < ng; k++)
		free(g[k].rows);
	free(g);
}

/* The guests' ops/s on a mode's batch, "-" without a time. */
static void ops_per_s(const struct group *g, char *buf, size_t len)
{
	if (g->speed && g->speed->secs > 0)
		snprintf(buf, len, "%.1f", (double)g->speed->ops / g->speed->secs);
	else
		snprintf(buf, len, "-");
}

/* ---- the chart ---- */

/* Is @prog a program that runs (a path, or a name on PATH)? */
static int runnable(const char *prog)
{
	const char *path = getenv("PATH");

	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	while (path && *path) {
		size_t n = strcspn(path, ":");
		char *f = xasprintf("%.*s/%s", (int)n, n ? path : ".", prog);
		int ok = !access(f, X_OK);

		free(f);
		if (ok)
			return 1;
		path += n + (path[n] == ':');
	}
	return 0;
}

/* @s in gnuplot's single quotes (a quote doubled) appended to @out. */
static char *gp_quote(const char *s)
{
	size_t n = strlen(s), q = 0;
	char *o;

	for (size_t i = 0; i < n; i++)
		q += s[i] == '\'';
	o = xrealloc(NULL, n + q + 3);
	q = 0;
	o[q++] = '\'';
	for (size_t i = 0; i < n; i++) {
		o[q++] = s[i];
		if (s[i] == '\'')
			o[q++] = '\'';
	}
	o[q++] = '\'';
	o[q] = 0;
	return o;
}

/* Run @gp on @script: @dat drawn into @svg, titled for Linux @line; its messages
 * into @err. Returns 0 when it exited 0. */
static int gnuplot(const char *gp, const char *script, const char *dat, const char *svg,
		   const char *line, const char *err)
{
	char *qd = gp_quote(dat), *qs = gp_quote(svg), *title = xasprintf("difftest: Linux %s", line);
	char *qt = gp_quote(title), *e = xasprintf("dat=%s; out=%s; ttl=%s", qd, qs, qt);
	int st = -1;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
		execlp(gp, gp, "-e", e, script, (char *)NULL);
		fprintf(stderr, "%s: %s\n", gp, strerror(errno));
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	free(qd);
	free(qs);
	free(title);
	free(qt);
	free(e);
	return pid > 0 && WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1;
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_size;
}

/*
 * The chart of the first table, as @md's report would link it: MD-chart-LINE.svg next
 * to @md (MD without its .md), drawn with gnuplot (DT_GNUPLOT, else gnuplot) and
 * @script from MD-chart-LINE.dat, one line per row of the table. Its paragraph into
 * @para; *@svg_out: the SVG drawn, or NULL. Nothing the chart lacks fails the report:
 * a missing or failing gnuplot is said in the paragraph and on stderr.
 */
static int chart(const struct campaign *c, const struct group *g, int ng, const char *md,
		 const char *script, char **para, char **svg_out)
{
	const char *gp = getenv("DT_GNUPLOT"), *line = info_str(&c->info[0], "line");
	const char *slash = strrchr(md, '/');
	size_t dl = slash ? (size_t)(slash - md) : 1;
	char *base, *dat, *svg, *err;
	size_t bl;
	FILE *f;

	if (!gp || !*gp)
		gp = "gnuplot";
	base = xstrdup(slash ? slash + 1 : md);
	bl = strlen(base);
	if (bl > 3 && !strcmp(base + bl - 3, ".md"))
		base[bl - 3] = 0;
	dat = xasprintf("%.*s/%s-chart-%s.dat", (int)dl, slash ? md : ".", base, line);
	svg = xasprintf("%.*s/%s-chart-%s.svg", (int)dl, slash ? md : ".", base, line);
	err = xasprintf("%s.err", dat);
	*svg_out = NULL;
	unlink(dat);
	unlink(svg);
	if (!ng) {
		*para = xasprintf("Chart: none (no rows).");
		goto out;
	}
	f = fopen(dat, "w");
	if (!f) {
		int r = fail("%s: %s", dat, strerror(errno));

		free(base);
		free(dat);
		free(svg);
		free(err);
		return r;
	}
	fprintf(f, "# mode kernel/contract, ops, scripts, divergent, attributed, unexplained\n");
	for (int k = 0; k < ng; k++)
		fprintf(f, "\"%s %s/%s\" %ld %ld %ld %ld %ld\n", g[k].fs, g[k].kernel, g[k].cname,
			g[k].ops, g[k].scripts, g[k].div, g[k].div - g[k].unexplained,
			g[k].unexplained);
	fclose(f);
	if (!runnable(gp)) {
		*para = xasprintf("Chart: not drawn: gnuplot is not installed (Debian: gnuplot-nox); "
				  "its data: [%s-chart-%s.dat](%s-chart-%s.dat).", base, line, base, line);
		fprintf(stderr, "difftest report: warning: no chart in the report: gnuplot is not "
			"installed (Debian: gnuplot-nox)\n");
	} else if (!gnuplot(gp, script, dat, svg, line, err) && file_size(svg) > 0) {
		*para = xasprintf("![ops and divergent scripts (attributed, unexplained) per filesystem "
				  "mode, kernel and contract](%s-chart-%s.svg)", base, line);
	} else {
		char *msg = NULL, *p, *l, *first = NULL;

		/* the first line gnuplot said anything on */
		if (!slurp(err, 0, &msg, NULL))
			for (p = msg; (l = next_line(&p)) && !first;)
				first = *l ? l : NULL;
		*para = first ? xasprintf("Chart: not drawn: gnuplot failed: %s; its data: "
					  "[%s-chart-%s.dat](%s-chart-%s.dat).", first, base, line,
					  base, line) :
				xasprintf("Chart: not drawn: gnuplot failed: no %s; its data: "
					  "[%s-chart-%s.dat](%s-chart-%s.dat).", svg, base, line, base,
					  line);
		free(msg);
		fprintf(stderr, "difftest report: warning: no chart in the report: gnuplot failed (its "
			"messages: %s)\n", err);
	}
	if (file_size(svg) > 0) {
		unlink(err);
		*svg_out = svg;
		svg = NULL;
	}
out:
	free(base);
	free(dat);
	free(svg);
	free(err);
	return 0;
}

/* ---- the Markdown ---- */

/* The report's date: now, or SOURCE_DATE_EPOCH's (reproducible reports). */
static void generated(char *buf, size_t len)
{
	const char *e = getenv("SOURCE_DATE_EPOCH");
	time_t t = time(NULL);
	struct tm tm;
	long v;

	if (e && !whole(e, &v))
		t = (time_t)v;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm);
}

/* "A, B, C": the switches of the patched contract. */
static void patched_switches(char *buf, size_t len)
{
	struct dt_contract p;
	size_t o = 0;

	buf[0] = 0;
	dt_contract_patched(&p);
	for (int i = 0; i < DT_NSWITCHES && o < len; i++)
		if (*dt_contract_switch(&p, i))
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", dt_switch_name(i));
}

/* A class's attribution without the zero counts: "md_cursor:2,unexplained:1" */
static void why_text(const struct row *r, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (int i = 0; i < r->nwhy && o < len; i++)
		if (r->why[i].n)
			o += (size_t)snprintf(buf + o, len - o, "%s%s:%ld", o ? "," : "", r->why[i].name,
					      r->why[i].n);
}

/* The summary of a compare output after its count of divergent scripts: what a
 * per-line rule cut short, "N cut short by a per-line rule (M ops not compared)". */
static const char *cut_summary(const struct cmpfile *cf)
{
	const char *p = cf->last, *q;

	while ((q = strstr(p, "divergent, ")))
		p = q + 11;
	return p;
}

static void markdown(FILE *f, const struct campaign *c, const struct group *g, int ng,
		     const char *chart_para)
{
	const struct info *in = &c->info[0];
	const char *line = info_str(in, "line"), *custom = info_str(in, "custom");
	const char *scripts = info_str(in, "scripts"), *bug = info_str(in, "bug");
	char date[64], sw[512], why[1024];
	int any = 0, ncut = 0;

	generated(date, sizeof(date));
	fprintf(f, "# difftest report: Linux %s\n\n", line);
	fprintf(f, "Generated %s by difftest/campaign.sh on ", date);
	if (*custom)
		fprintf(f, "the kernel %s", custom);
	else
		fprintf(f, "Debian's %s (stock, and patched with kernel-port/%s)",
			info_str(in, "source"), line);
	if (*scripts)
		fprintf(f, ": the scripts of %s", scripts);
	else
		fprintf(f, ": seed %s, %s random ops per filesystem mode (%s per script)",
			info_str(in, "seed"), info_str(in, "ops"), info_str(in, "per"));
	if (!strcmp(info_str(in, "scenarios"), "1"))
		fprintf(f, ", plus the scenarios in difftest/scenarios");
	if (*bug)
		fprintf(f, ", model with planted bug **%s**", bug);
	/* a shard's own report; a merge's is one run's */
	if (!c->merged && info_num(in, "shards") != 1)
		fprintf(f, ", shard %s of %s", info_str(in, "shard"), info_str(in, "shards"));
	fprintf(f, ".\n\n");

	/* the one table first: per kernel, mode and contract (attributed: explained by
	 * contract switches; unexplained: by none); ops/s of the guests on the batch */
	fprintf(f, "| kernel | filesystem mode | contract | ops | scripts | divergent scripts | "
		"attributed | unexplained | guest ops/s |\n");
	fprintf(f, "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	for (int k = 0; k < ng; k++) {
		char r[32];

		ops_per_s(&g[k], r, sizeof(r));
		fprintf(f, "| %s | %s | %s | %ld | %ld | %ld | %ld | %ld | %s |\n", g[k].kernel,
			g[k].fs, g[k].cname, g[k].ops, g[k].scripts, g[k].div,
			g[k].div - g[k].unexplained, g[k].unexplained, r);
	}
	fprintf(f, "\n");
	if (chart_para)
		fprintf(f, "%s\n\n", chart_para);

	/* the campaign's own speed: ops over the wall time of the guest runs (boots
	 * included; guests run at once), per kernel (summed over a merge's shards) */
	if (c->nwall) {
		fprintf(f, "Guest ops/s: ops per second of a guest on the batch (its own clock). Wall:");
		for (int k = 0; k < c->nwall; k++) {
			const struct speed *w = &c->wall[k];

			fprintf(f, "%s %s %ld ops in %ld s, %.1f ops/s (%ld guest(s) at once, boots "
				"included)", k ? ";" : "", w->kernel, w->ops, (long)w->secs,
				w->secs > 0 ? (double)w->ops / w->secs : 0.0, w->guests);
		}
		fprintf(f, ".\n\n");
	}
	patched_switches(sw, sizeof(sw));
	fprintf(f, "Contract `stock`: Linux %s as released. Contract `patched`: %s (see "
		"difftest/README.md). Divergent scripts are attributed to the smallest set of "
		"contract switches that, turned off, makes the kernel agree (the first such set "
		"in the order above).\n", line, sw);

	/* scripts a per-line rule cut short (the model stops where the kernel leaves what
	 * it follows): counted, never passed silently; a merge's, one line per shard */
	for (int k = 0; k < c->ncmp; k++) {
		const struct cmpfile *cf = &c->cmp[k];

		if (!cf->ncut)
			continue;
		if (!ncut++)
			fprintf(f, "\nCut short by a per-line rule (difftest/README.md, \"Kernel "
				"lines\"); the ops after the cut were not compared:\n\n");
		fprintf(f, "- %s", cf->name);
		if (c->merged)
			fprintf(f, " (shard %s)", cf->dir);
		fprintf(f, ": %s\n", cut_summary(cf));
	}
	fprintf(f, "\n");

	/* a table per kernel, mode and contract: its classes by name, so that a merge of
	 * shards and one run print the same table */
	for (int k = 0; k < ng; k++) {
		long to = 0, ts = 0, td = 0;

		fprintf(f, "## kernel %s, %s, contract %s\n\n", g[k].kernel, g[k].fs, g[k].contract);
		fprintf(f, "| scenario class | ops | scripts | divergent scripts | attributed to |\n");
		fprintf(f, "| --- | ---: | ---: | ---: | --- |\n");
		for (int j = 0; j < g[k].nrows; j++) {
			const struct row *r = &c->row[g[k].rows[j]];

			why_text(r, why, sizeof(why));
			fprintf(f, "| %s | %ld | %ld | %ld | %s |\n", r->key[3], r->v[0], r->v[1],
				r->v[2], r->v[2] > 0 ? why : "");
			to += r->v[0];
			ts += r->v[1];
			td += r->v[2];
		}
		fprintf(f, "| **total** | **%ld** | **%ld** | **%ld** | |\n\n", to, ts, td);
	}

	/* the minimal scripts; the divergent ones where shrinking did not confirm any */
	for (int k = 0; k < c->nsf; k++) {
		const struct sfile *s = &c->sf[k];
		const char *name = s->name + (s->cases ? 6 : 4);

		if (!s->cases && cases_of(c, s))
			continue;
		if (!any++)
			fprintf(f, "## Divergences: minimal scripts\n\n");
		fprintf(f, "### %.*s\n\n```\n", (int)(strlen(name) - 3), name);
		fwrite(s->text, 1, s->len, f);
		fprintf(f, "```\n\n");
	}
	if (!any)
		fprintf(f, "No divergences.\n\n");
	if (c->merged)
		fprintf(f, "Wall time: %d shards, the longest %ld s, %ld s in all.\n", c->ndirs,
			c->wall_max, c->wall_sum);
	else
		fprintf(f, "Wall time: %s s.\n", info_str(in, "wall"));
}

/* ---- parsing compare's divergence text ---- */

void report_word_decode(unsigned int word, struct report_word *out)
{
	out->word = word;
	out->err = (int)(word & ERRSEQ_ERRNO_MASK);
	out->seen = !!(word & ERRSEQ_SEEN_FLAG);
	out->counter = word >> ERRSEQ_COUNTER_SHIFT;
}

/* "RET ERRNO" or "(none)" at *@p; *@p moved past it. */
static int parse_result(const char **p, struct report_result *r)
{
	const char *s = *p;
	char *end;
	size_t n;

	memset(r, 0, sizeof(*r));
	if (!strncmp(s, "(none)", 6)) {
		*p = s + 6;
		return 0;
	}
	errno = 0;
	r->ret = strtol(s, &end, 10);
	if (end == s || *end != ' ' || errno)
		return -1;
	s = end + 1;
	n = strcspn(s, " ,;");
	if (!n || n >= sizeof(r->err))
		return -1;
	if (strncmp(s, "0", n) || n != 1)
		memcpy(r->err, s, n);
	r->present = 1;
	*p = s + n;
	return 0;
}

/* "EVENT, EVENT]" at *@p into @ev (at most DT_MAX_TRACE); *@p moved past the ']'. */
static int parse_events(const char **p, struct report_event *ev, int *nev)
{
	const char *s = *p;

	*nev = 0;
	while (*s != ']') {
		size_t n = strcspn(s, ",]");
		struct report_event *e;
		unsigned int w[2];
		int k;

		if (!s[n] || *nev == DT_MAX_TRACE || n >= sizeof(e->text))
			return -1;
		e = &ev[(*nev)++];
		memset(e, 0, sizeof(*e));
		memcpy(e->text, s, n);
		k = sscanf(e->text, "%15s %31s 0x%x 0x%x", e->kind, e->obj, &w[0], &w[1]);
		if (k >= 3 && (strcmp(e->kind, "set") ? k == 4 : k == 3)) {
			e->nwords = k - 2;
			for (int i = 0; i < e->nwords; i++)
				report_word_decode(w[i], &e->word[i]);
		}
		s += n;
		if (!strncmp(s, ", ", 2))
			s += 2;
	}
	*p = s + 1;
	return 0;
}

/* "op I (line L) `OP`" anywhere in @what: into @w, and where its text ends. */
static const char *parse_op(const char *what, struct report_what *w)
{
	for (const char *s = what; (s = strstr(s, "op ")); s++) {
		const char *q, *end;
		int n = 0;

		if (s != what && s[-1] != ' ')
			continue;
		if (sscanf(s, "op %d (line %d) `%n", &w->op, &w->line, &n) != 2 || !n)
			continue;
		q = s + n;
		end = strchr(q, '`');
		if (!end)
			continue;
		snprintf(w->op_text, sizeof(w->op_text), "%.*s", (int)(end - q), q);
		return end + 1;
	}
	w->op = w->line = -1;
	return NULL;
}

int report_parse_what(const char *what, struct report_what *w)
{
	const char *p, *note;
	int par;

	memset(w, 0, sizeof(*w));
	p = parse_op(what, w);
	if (!p || strncmp(p, ": model ", 8))
		return -1;
	p += 8;
	par = !strncmp(w->op_text, "par ", 4);
	w->nres = par ? 2 : 1;
	for (int side = 0; side < 2; side++) {
		struct report_result *r = side ? w->kernel : w->model;

		if (side) {
			if (strncmp(p, ", kernel ", 9))
				return -1;
			p += 9;
		}
		if (parse_result(&p, &r[0]))
			return -1;
		if (par && (strncmp(p, " ; ", 3) || (p += 3, parse_result(&p, &r[1]))))
			return -1;
	}
	w->results = 1;
	/* a par line's outcome: " (...)" */
	if (!strncmp(p, " (", 2) && (note = strchr(p, ')'))) {
		snprintf(w->note, sizeof(w->note), "%.*s", (int)(note - p - 2), p + 2);
		p = note + 1;
	}
	if (!*p)
		return 0;
	if (strncmp(p, "; trace model [", 15))
		return -1;
	p += 15;
	if (parse_events(&p, w->ev[0], &w->nev[0]) || strncmp(p, " kernel [", 9))
		return -1;
	p += 9;
	if (parse_events(&p, w->ev[1], &w->nev[1]) || *p)
		return -1;
	w->trace = 1;
	return 0;
}

/* ---- the JSON ---- */

static void json_word(struct json *j, const char *key, const struct report_word *w)
{
	char hex[16], e[16];

	snprintf(hex, sizeof(hex), "0x%x", w->word);
	json_object(j, key);
	json_string(j, "word", hex);
	json_string(j, "errno", w->err ? dt_errname(w->err, e, sizeof(e)) : NULL);
	json_int(j, "errno_value", w->err);
	json_bool(j, "seen", w->seen);
	json_int(j, "counter", w->counter);
	json_end(j);
}

static void json_side(struct json *j, const char *key, const struct report_what *w, int side)
{
	const struct report_result *r = side ? w->kernel : w->model;

	json_object(j, key);
	json_array(j, "results");
	for (int i = 0; i < w->nres; i++) {
		if (!r[i].present) {
			json_null(j, NULL);
			continue;
		}
		json_object(j, NULL);
		json_int(j, "ret", r[i].ret);
		json_string(j, "errno", r[i].err[0] ? r[i].err : NULL);
		json_end(j);
	}
	json_end(j);
	if (!w->trace) {
		json_null(j, "trace");
	} else {
		json_array(j, "trace");
		for (int i = 0; i < w->nev[side]; i++) {
			const struct report_event *e = &w->ev[side][i];

			json_object(j, NULL);
			json_string(j, "text", e->text);
			json_string(j, "event", e->nwords ? e->kind : NULL);
			json_string(j, "object", e->nwords ? e->obj : NULL);
			if (e->nwords == 1)
				json_word(j, "word", &e->word[0]);
			if (e->nwords == 2) {
				json_word(j, "old", &e->word[0]);
				json_word(j, "new", &e->word[1]);
			}
			json_end(j);
		}
		json_end(j);
	}
	json_end(j);
}

/* A divergence's text, decoded, into the open object; its attribution @why ("A+B",
 * "unexplained"; NULL: none, a script the guest did not run or finish). */
static void json_divergence(struct json *j, const char *why, const char *what)
{
	struct report_what w;
	int full = !report_parse_what(what, &w);

	if (!why) {
		json_null(j, "attributed_to");
	} else {
		json_array(j, "attributed_to");
		for (const char *s = why; *s && strcmp(why, "unexplained");) {
			size_t n = strcspn(s, "+");

			json_stringn(j, NULL, s, n);
			s += n + (s[n] == '+');
		}
		json_end(j);
	}
	if (w.op < 0) {
		json_null(j, "op");
		json_null(j, "line");
		json_null(j, "op_text");
	} else {
		json_int(j, "op", w.op);
		json_int(j, "line", w.line);
		json_string(j, "op_text", w.op_text);
	}
	if (full) {
		json_side(j, "model", &w, 0);
		json_side(j, "observed", &w, 1);
		json_string(j, "note", w.note[0] ? w.note : NULL);
	} else {
		json_null(j, "model");
		json_null(j, "observed");
		json_null(j, "note");
	}
	json_string(j, "text", what);
}

/* Where a row or a divergence is: the kernel, the mode, the contract ("NAME (k=v ...)":
 * its name, and its full text). */
static void json_where(struct json *j, const char *kernel, const char *fs, const char *full)
{
	json_string(j, "kernel", kernel);
	json_string(j, "fs", fs);
	json_stringn(j, "contract", full, strcspn(full, " "));
	json_string(j, "contract_full", full);
}

/* A minimal script file: each script, with the divergence of its "# ..." line. */
static void json_scripts(struct json *j, const struct sfile *s)
{
	char *text = xstrndup(s->text, s->len), *p = text, *l, *head = NULL;

	json_array(j, "scripts");
	while ((l = next_line(&p))) {
		/* "# KERNEL FS contract CONTRACT [WHY]: WHAT" (keep_divergent()) */
		if (!strncmp(l, "# ", 2)) {
			head = l + 2;
			continue;
		}
		if (strncmp(l, "script ", 7))
			continue;
		json_object(j, NULL);
		json_string(j, "script", l + 7);
		if (head) {
			char kernel[64], fs[32], *ct = strstr(head, " contract ");
			char *w = ct ? strstr(ct, " [") : NULL, *e = w ? strstr(w, "]: ") : NULL;

			if (e && sscanf(head, "%63s %31s", kernel, fs) == 2) {
				json_object(j, "divergence");
				*w = 0;
				json_where(j, kernel, fs, ct + 10);
				*e = 0;
				json_divergence(j, w + 2, e + 3);
				json_end(j);
			} else {
				json_string(j, "divergence_text", head);
			}
		} else {
			json_null(j, "divergence");
		}
		json_end(j);
		head = NULL;
	}
	json_end(j);
	free(text);
}

static void json_report(FILE *f, const struct campaign *c, const struct group *g, int ng)
{
	const struct info *in = &c->info[0];
	struct json j;
	char date[64];

	generated(date, sizeof(date));
	json_init(&j, f);
	json_object(&j, NULL);
	json_string(&j, "format", "difftest report");
	json_int(&j, "version", 1);
	json_string(&j, "generated", date);
	json_string(&j, "line", info_str(in, "line"));

	json_object(&j, "campaign");
	json_array(&j, "dirs");
	for (int i = 0; i < c->ndirs; i++)
		json_string(&j, NULL, c->dirs[i]);
	json_end(&j);
	json_bool(&j, "merged", c->merged);
	json_int(&j, "status", c->status);
	json_int(&j, "wall_seconds", c->wall_sum);
	json_int(&j, "wall_longest", c->wall_max);
	json_object(&j, "info");
	for (int i = 0; i < in->n; i++)
		json_string(&j, in->key[i], in->val[i]);
	json_end(&j);
	json_end(&j);

	json_array(&j, "rows");
	for (int k = 0; k < ng; k++) {
		json_object(&j, NULL);
		json_where(&j, g[k].kernel, g[k].fs, g[k].contract);
		json_int(&j, "ops", g[k].ops);
		json_int(&j, "scripts", g[k].scripts);
		json_int(&j, "divergent", g[k].div);
		json_int(&j, "attributed", g[k].div - g[k].unexplained);
		json_int(&j, "unexplained", g[k].unexplained);
		if (g[k].speed) {
			json_object(&j, "guest");
			json_int(&j, "ops", g[k].speed->ops);
			json_double(&j, "seconds", g[k].speed->secs, 2);
			if (g[k].speed->secs > 0)
				json_double(&j, "ops_per_s", (double)g[k].speed->ops / g[k].speed->secs, 1);
			else
				json_null(&j, "ops_per_s");
			json_end(&j);
		} else {
			json_null(&j, "guest");
		}
		json_array(&j, "classes");
		for (int i = 0; i < g[k].nrows; i++) {
			const struct row *r = &c->row[g[k].rows[i]];

			json_object(&j, NULL);
			json_string(&j, "class", r->key[3]);
			json_int(&j, "ops", r->v[0]);
			json_int(&j, "scripts", r->v[1]);
			json_int(&j, "divergent", r->v[2]);
			json_int(&j, "divergent_ops", r->v[3]);
			json_object(&j, "attribution");
			for (int w = 0; w < r->nwhy; w++)
				json_int(&j, r->why[w].name, r->why[w].n);
			json_end(&j);
			json_end(&j);
		}
		json_end(&j);
		json_end(&j);
	}
	json_end(&j);

	json_array(&j, "wall");
	for (int k = 0; k < c->nwall; k++) {
		const struct speed *w = &c->wall[k];

		json_object(&j, NULL);
		json_string(&j, "kernel", w->kernel);
		json_int(&j, "ops", w->ops);
		json_int(&j, "seconds", (long long)w->secs);
		json_int(&j, "guests", w->guests);
		json_double(&j, "ops_per_s", w->secs > 0 ? (double)w->ops / w->secs : 0.0, 1);
		json_end(&j);
	}
	json_end(&j);

	json_array(&j, "cut");
	for (int k = 0; k < c->ncmp; k++) {
		const struct cmpfile *cf = &c->cmp[k];

		for (int i = 0; i < cf->ncut; i++) {
			json_object(&j, NULL);
			json_where(&j, cf->kernel, cf->fs, cf->contract);
			json_string(&j, "script", cf->cut[i].script);
			json_int(&j, "from_op", cf->cut[i].from);
			json_int(&j, "to_op", cf->cut[i].to);
			json_string(&j, "why", cf->cut[i].why);
			json_string(&j, "file", cf->path);
			json_end(&j);
		}
	}
	json_end(&j);

	json_array(&j, "divergences");
	for (int k = 0; k < c->ncmp; k++) {
		const struct cmpfile *cf = &c->cmp[k];

		for (int i = 0; i < cf->ndiv; i++) {
			const struct divline *d = &cf->div[i];
			char cls[DT_NAME_MAX];

			dt_script_class(d->script, cls, sizeof(cls));
			json_object(&j, NULL);
			json_where(&j, cf->kernel, cf->fs, cf->contract);
			json_string(&j, "kind", d->kind);
			json_string(&j, "script", d->script);
			json_string(&j, "class", cls);
			json_divergence(&j, d->why, d->what);
			json_string(&j, "file", cf->path);
			json_end(&j);
		}
	}
	json_end(&j);

	json_array(&j, "minimal_scripts");
	for (int k = 0; k < c->nsf; k++) {
		const struct sfile *s = &c->sf[k];

		if (!s->cases && cases_of(c, s))
			continue;
		json_object(&j, NULL);
		json_stringn(&j, "name", s->name + (s->cases ? 6 : 4),
			     strlen(s->name) - (s->cases ? 6 : 4) - 3);
		json_string(&j, "from", s->cases ? "cases" : "div");
		json_scripts(&j, s);
		json_stringn(&j, "text", s->text, s->len);
		json_end(&j);
	}
	json_end(&j);
	json_finish(&j);
}

/* ---- the merge ---- */

/* The shards' files, merged, into @out: a campaign directory like one run's but for its
 * campaign.info (rows.tsv summed; speed.tsv, wall.tsv, the scripts one after another). */
static int merge_write(const struct campaign *c, const char *out)
{
	char *path;
	FILE *f;
	int r = 0;

	if (mkdir(out, 0777) && errno != EEXIST)
		return fail("%s: %s", out, strerror(errno));
	path = xasprintf("%s/rows.tsv", out);
	f = fopen(path, "w");
	if (!f) {
		r = fail("%s: %s", path, strerror(errno));
		free(path);
		return r;
	}
	for (int i = 0; i < c->nrow; i++) {
		const struct row *w = &c->row[i];

		fprintf(f, "%s\t%s\t%s\t%s\t%ld\t%ld\t%ld\t%ld\t", w->key[0], w->key[1], w->key[2],
			w->key[3], w->v[0], w->v[1], w->v[2], w->v[3]);
		for (int k = 0; k < w->nwhy; k++)
			fprintf(f, "%s%s:%ld", k ? "," : "", w->why[k].name, w->why[k].n);
		fputc('\n', f);
	}
	if (fclose(f))
		r = fail("%s: %s", path, strerror(errno));
	free(path);
	for (int k = 0; k < 2 && !r; k++) {
		const char *name = k ? "wall.tsv" : "speed.tsv";
		FILE *o = NULL;

		for (int i = 0; i < c->ndirs && !r; i++) {
			char *src = xasprintf("%s/%s", c->dirs[i], name), *buf;
			size_t len;

			if (!slurp(src, 0, &buf, &len)) {
				path = xasprintf("%s/%s", out, name);
				if (!o && !(o = fopen(path, "w")))
					r = fail("%s: %s", path, strerror(errno));
				if (o)
					fwrite(buf, 1, len, o);
				free(path);
				free(buf);
			}
			free(src);
		}
		if (o && fclose(o))
			r = fail("%s/%s: %s", out, name, strerror(errno));
	}
	for (int k = 0; k < c->nsf && !r; k++) {
		path = xasprintf("%s/%s", out, c->sf[k].name);
		f = fopen(path, "w");
		if (!f || fwrite(c->sf[k].text, 1, c->sf[k].len, f) != c->sf[k].len || fclose(f))
			r = fail("%s: %s", path, strerror(errno));
		free(path);
	}
	return r;
}

/* ---- the command ---- */

/* Open @path for writing, into *@f: 0, or 2 (said). */
static int write_file(const char *path, FILE **f)
{
	*f = fopen(path, "w");
	return *f ? 0 : fail("%s: %s", path, strerror(errno));
}

static int close_file(const char *path, FILE *f)
{
	int bad = ferror(f);

	if (fclose(f) || bad)
		return fail("%s: %s", path, strerror(errno ? errno : EIO));
	return 0;
}

int report_run(const struct report_opts *o, int ndirs, char **dirs)
{
	struct campaign c;
	struct group *g = NULL;
	char *para = NULL, *svg = NULL;
	FILE *md = o->markdown || o->json ? NULL : stdout, *js = NULL;
	int ng = 0, r;

	r = campaign_read(&c, o, ndirs, dirs);
	if (!r)
		g = groups_make(&c, &ng);
	/* the merge's directory, where the reports may go; then the reports' files, before
	 * the chart's next to them: a path that cannot be written is said as given */
	if (!r && o->merge)
		r = merge_write(&c, o->merge);
	if (!r && o->markdown)
		r = write_file(o->markdown, &md);
	if (!r && o->json)
		r = write_file(o->json, &js);
	if (!r && o->markdown && o->chart)
		r = chart(&c, g, ng, o->markdown, o->chart, &para, &svg);
	if (!r && md)
		markdown(md, &c, g, ng, para);
	if (!r && js)
		json_report(js, &c, g, ng);
	if (md && o->markdown && close_file(o->markdown, md))
		r = 2;
	if (js && close_file(o->json, js))
		r = 2;
	/* what was written, when it went to files */
	if (!r && o->merge)
		printf("merged: %s\n", o->merge);
	if (!r && o->markdown)
		printf("report: %s\n", o->markdown);
	if (!r && svg)
		printf("chart: %s\n", svg);
	if (!r && o->json)
		printf("json: %s\n", o->json);
	free(para);
	free(svg);
	groups_free(g, ng);
	campaign_free(&c);
	return r;
}
