/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A campaign's --out directory (or the N shards of one), read: what difftest report
 * (report.c) writes its reports from. campaign.c reads it and writes a merge of shards;
 * report-md.c writes the Markdown and its chart, report-json.c the JSON. Internal to
 * the report: report.h is what the command line and the unit tests see.
 */
#ifndef DIFFTEST_CAMPAIGN_H
#define DIFFTEST_CAMPAIGN_H

#include <stddef.h>
#include <stdio.h>

#include "report.h"

/* campaign.info: KEY=VALUE lines */
struct info {
	char *buf;
	int n;
	char **key, **val;
};

/* One row of rows.tsv (several shards' rows of one key: summed). */
struct why {
	char *name;
	long n;
};

struct row {
	char *key[4];		/* kernel, filesystem mode, contract, class */
	long v[5];		/* ops, scripts, divergent scripts, divergent ops, scripts not run */
	struct why *why;	/* in the order the rows name them */
	int nwhy;
};

/* speed.tsv per kernel and mode; wall.tsv per kernel (wall: mode NULL, guests) */
struct speed {
	char *kernel, *fs;
	long ops, guests;
	double secs;
};

/* A divergent script of a compare output (DIVERGE), or one not run (MISSING, INCOMPLETE,
 * NOTRACE, SETUP). */
struct divline {
	char *kind;		/* "divergent"; "missing", "incomplete", "no trace", "setup" */
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

/* A reason the campaign failed (campaign.info's failures=, lib.sh's dt_fail):
 * WHAT:KERNEL[:FS]. */
struct failure {
	char *what;		/* diverged, no-divergence, not-run, broke-contract, not-judged,
				 * guest-failed */
	char *kernel;
	char *fs;		/* NULL for no-divergence, guest-failed */
};

/* A line of a judge output, parsed; its text and file. */
struct judgeline {
	struct report_judge_line j;
	char *text;
	const char *path;
};

/* The judge outputs of one kernel and mode (judge-K-FS.txt; a merge's: every shard's,
 * counted together, their lines one shard's after another). */
struct judgefile {
	char *kernel, *fs;
	char *known_of;		/* the contract whose switches are its known deviations, or NULL */
	long judged, breaking, known, unjudged, ops;
	struct judgeline *line;
	int nline;
	char **path;		/* its files, a shard's each */
	int npath;
};

struct campaign {
	int ndirs, merged;	/* merged: the report of several shards */
	char **dirs;
	struct info *info;	/* per directory */
	struct row *row;
	int nrow;
	struct speed *speed, *wall;
	int nspeed, nwall;
	struct cmpfile *cmp;	/* every directory's, but compare-final-* */
	int ncmp;
	struct sfile *sf;	/* the minimal scripts first, then the divergent, by name */
	int nsf;
	struct judgefile *judge;	/* in the order of the rows' kernels and modes */
	int njudge;
	int status;		/* the worst of the directories' */
	struct failure *fail;	/* why: every directory's, each once, in their order */
	int nfail;
	int fail_said;		/* some campaign.info has failures= (a campaign.sh before
				 * did not say why) */
	long wall_sum, wall_max;
};

/* A row of the first table: a kernel, mode and contract; its classes' rows. */
struct group {
	const char *kernel, *fs, *contract;
	char cname[64];		/* the contract's name, without its switches */
	long ops, scripts, div, unexplained, notrun;
	int *rows, nrows;	/* indexes into campaign.row, sorted by class */
	const struct speed *speed;
};

/* Read @dirs (one campaign, or with @o->merge or several, the shards of one) into @c;
 * 0, or 2 said on stderr. rp_campaign_free() it either way. */
int rp_campaign_read(struct campaign *c, const struct report_opts *o, int ndirs, char **dirs);
void rp_campaign_free(struct campaign *c);
/* The first table, in the order the rows name its keys (the order the campaign ran). */
struct group *rp_groups_make(const struct campaign *c, int *ng);
void rp_groups_free(struct group *g, int ng);
/* Write the shards' merge into the directory @out: 0, or 2 said. */
int rp_merge_write(const struct campaign *c, const char *out);

/* The chart of the first table next to the Markdown file @md: its paragraph into
 * *@para, the SVG drawn (or NULL) into *@svg (report-md.c). 0, or 2 said. */
int rp_chart(const struct campaign *c, const struct group *g, int ng, const char *md,
	     const char *script, char **para, char **svg);
void rp_markdown(FILE *f, const struct campaign *c, const struct group *g, int ng,
		 const char *chart_para);
void rp_json(FILE *f, const struct campaign *c, const struct group *g, int ng);

/* campaign.info's value of @key ("" when it has none), as a number (0 when not one) */
const char *rp_info_str(const struct info *in, const char *key);
long rp_info_num(const struct info *in, const char *key);
/* A sentence saying @f (the kernel, what of it, where). */
char *rp_failure_text(const struct failure *f);
/* Does @j's kernel fail the campaign for what judge said (campaign.sh's dt_contract_check):
 * a script not judged, or, judged without known deviations, one breaking the contract? */
int rp_judge_fails(const struct judgefile *j);
/* The minimal scripts of div-X (cases-X, when shrinking confirmed them), or NULL. */
const struct sfile *rp_cases_of(const struct campaign *c, const struct sfile *div);
/* The report's date: now, or SOURCE_DATE_EPOCH's (reproducible reports). */
void rp_date(char *buf, size_t len);

/* Helpers: memory (aborts when there is none), "difftest report: ..." on stderr (returns
 * the exit status, 2), whole files and their lines, whole numbers. */
void *rp_realloc(void *p, size_t n);
char *rp_strndup(const char *s, size_t n);
char *rp_strdup(const char *s);
char *rp_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int rp_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The whole of @path, NUL-terminated, into *@buf (*@len bytes, NULL allowed).
 * Returns 0, 1 when there is no such file and @must is 0, or 2 (said). */
int rp_slurp(const char *path, int must, char **buf, size_t *len);
/* The next line of *@p (cut at '\n' in place), or NULL at the end. */
char *rp_next_line(char **p);
/* @s as a whole number (decimal digits only, no sign) in *@v; -1 if it is not one. */
int rp_whole(const char *s, long *v);

/* Room for one more element at the end of array @a of @n (then counted). */
#define PUSH(a, n) ((a) = rp_realloc((a), ((size_t)(n) + 1) * sizeof(*(a))), &(a)[(n)++])

#endif
