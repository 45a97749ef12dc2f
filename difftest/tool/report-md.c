// SPDX-License-Identifier: GPL-2.0
/*
 * difftest report's Markdown (report.c): a table per kernel, mode and contract, difftest
 * judge's table per kernel and mode, the first table's chart (drawn by gnuplot with
 * difftest/chart.gp), the guests' speed, the scripts a per-line rule cut short, judge's
 * lines but the known deviations, a table per scenario class, the minimal divergent
 * scripts (tests/report/expected*.md; first the text campaign.sh's awk programs wrote).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "campaign.h"
#include "model.h"

/* ---- the chart ---- */

/* Is @prog a program that runs (a path, or a name on PATH)? */
static int runnable(const char *prog)
{
	const char *path = getenv("PATH");

	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	while (path && *path) {
		size_t n = strcspn(path, ":");
		char *f = rp_asprintf("%.*s/%s", (int)n, n ? path : ".", prog);
		int ok = !access(f, X_OK);

		free(f);
		if (ok)
			return 1;
		path += n + (path[n] == ':');
	}
	return 0;
}

/* @s in gnuplot's single quotes (a quote in it doubled), a new string. */
static char *gp_quote(const char *s)
{
	size_t n = strlen(s), q = 0;
	char *o;

	for (size_t i = 0; i < n; i++)
		q += s[i] == '\'';
	o = rp_realloc(NULL, n + q + 3);
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
	char *qd = gp_quote(dat), *qs = gp_quote(svg), *title = rp_asprintf("difftest: Linux %s", line);
	char *qt = gp_quote(title), *e = rp_asprintf("dat=%s; out=%s; ttl=%s", qd, qs, qt);
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
int rp_chart(const struct campaign *c, const struct group *g, int ng, const char *md,
	     const char *script, char **para, char **svg_out)
{
	const char *gp = getenv("DT_GNUPLOT"), *line = rp_info_str(&c->info[0], "line");
	const char *slash = strrchr(md, '/');
	size_t dl = slash ? (size_t)(slash - md) : 1;
	char *base, *dat, *svg, *err;
	size_t bl;
	FILE *f;

	if (!gp || !*gp)
		gp = "gnuplot";
	base = rp_strdup(slash ? slash + 1 : md);
	bl = strlen(base);
	if (bl > 3 && !strcmp(base + bl - 3, ".md"))
		base[bl - 3] = 0;
	dat = rp_asprintf("%.*s/%s-chart-%s.dat", (int)dl, slash ? md : ".", base, line);
	svg = rp_asprintf("%.*s/%s-chart-%s.svg", (int)dl, slash ? md : ".", base, line);
	err = rp_asprintf("%s.err", dat);
	*svg_out = NULL;
	unlink(dat);
	unlink(svg);
	if (!ng) {
		*para = rp_asprintf("Chart: none (no rows).");
		goto out;
	}
	f = fopen(dat, "w");
	if (!f) {
		int r = rp_fail("%s: %s", dat, strerror(errno));

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
		*para = rp_asprintf("Chart: not drawn: gnuplot is not installed (Debian: gnuplot-nox); "
				  "its data: [%s-chart-%s.dat](%s-chart-%s.dat).", base, line, base, line);
		fprintf(stderr, "difftest report: warning: no chart in the report: gnuplot is not "
			"installed (Debian: gnuplot-nox)\n");
	} else if (!gnuplot(gp, script, dat, svg, line, err) && file_size(svg) > 0) {
		*para = rp_asprintf("![ops and divergent scripts (attributed, unexplained) per filesystem "
				  "mode, kernel and contract](%s-chart-%s.svg)", base, line);
	} else {
		char *msg = NULL, *p, *l, *first = NULL;

		/* the first line gnuplot said anything on */
		if (!rp_slurp(err, 0, &msg, NULL))
			for (p = msg; (l = rp_next_line(&p)) && !first;)
				first = *l ? l : NULL;
		*para = first ? rp_asprintf("Chart: not drawn: gnuplot failed: %s; its data: "
					  "[%s-chart-%s.dat](%s-chart-%s.dat).", first, base, line,
					  base, line) :
				rp_asprintf("Chart: not drawn: gnuplot failed: no %s; its data: "
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

/* The guests' ops/s on a mode's batch, "-" without a time. */
static void ops_per_s(const struct group *g, char *buf, size_t len)
{
	if (g->speed && g->speed->secs > 0)
		snprintf(buf, len, "%.1f", (double)g->speed->ops / g->speed->secs);
	else
		snprintf(buf, len, "-");
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

/* What a per-line rule cut short, from the summary of a compare output: its last
 * clause, "N cut short by a per-line rule (M ops not compared)". */
static const char *cut_summary(const struct cmpfile *cf)
{
	const char *p = cf->last, *q;

	while ((q = strstr(p, ", ")))
		p = q + 2;
	return p;
}

/* The judge lines of a kernel and mode the report shows: every one but the known
 * deviations (KNOWN, and the JUDGE lines of their scripts), which it counts. */
static int judge_shown(const struct judgefile *j, const struct judgeline *l)
{
	if (!strcmp(l->j.kind, "known"))
		return 0;
	if (strcmp(l->j.kind, "judge"))
		return 1;
	for (int i = 0; i < j->nline; i++)
		if (!strcmp(j->line[i].j.kind, "known") && !strcmp(j->line[i].j.script, l->j.script))
			return 0;
	return 1;
}

/* How many judge lines a kernel and mode shows at most (compare's divergences are
 * bounded by the minimal scripts kept; these by number). */
#define RP_JUDGE_SHOWN 10

/* The judge's table: a row per kernel and mode, those of the first table it has no
 * output for said. */
static void judge_table(FILE *f, const struct campaign *c, const struct group *g, int ng)
{
	if (!c->njudge) {
		fprintf(f, "The contract itself: no judge-*.txt, so the kernels' results were not "
			"held to it (difftest judge, difftest/doc/judge.md).\n\n");
		return;
	}
	fprintf(f, "| kernel | filesystem mode | scripts judged | breaking the contract | known "
		"deviations | not judged | ops judged |\n");
	fprintf(f, "| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
	for (int k = 0; k < c->njudge; k++) {
		const struct judgefile *j = &c->judge[k];
		char known[24];

		snprintf(known, sizeof(known), j->known_of ? "%ld" : "-", j->known);
		fprintf(f, "| %s | %s | %ld | %ld | %s | %ld | %ld |\n", j->kernel, j->fs, j->judged,
			j->breaking, known, j->unjudged, j->ops);
	}
	for (int k = 0; k < ng; k++) {
		int seen = 0;

		for (int i = 0; i < c->njudge && !seen; i++)
			seen = !strcmp(c->judge[i].kernel, g[k].kernel) &&
			       !strcmp(c->judge[i].fs, g[k].fs);
		for (int i = 0; i < k && !seen; i++)
			seen = !strcmp(g[i].kernel, g[k].kernel) && !strcmp(g[i].fs, g[k].fs);
		if (!seen)
			fprintf(f, "| %s | %s | no judge-%s-%s.txt | | | | |\n", g[k].kernel, g[k].fs,
				g[k].kernel, g[k].fs);
	}
	fprintf(f, "\nThe contract itself (difftest judge, difftest/doc/judge.md), whatever the model "
		"says: the scripts judged, those that break it, of those the known deviations (a "
		"kernel judged with the patched contract's switches as its known deviations: the "
		"stock kernel; -: judged without, its every breaking script a finding), the scripts "
		"it could not judge. A breaking script that is not a known deviation fails the "
		"campaign, but the stock kernel's, which are said, not failed; a script not judged "
		"fails it too.\n\n");
}

/* The judge's lines but the known deviations, the first RP_JUDGE_SHOWN per kernel and
 * mode; nothing when there are none. */
static void judge_lines(FILE *f, const struct campaign *c)
{
	int any = 0;

	for (int k = 0; k < c->njudge; k++) {
		const struct judgefile *j = &c->judge[k];
		int n = 0;

		for (int i = 0; i < j->nline; i++)
			n += judge_shown(j, &j->line[i]);
		if (!n)
			continue;
		if (!any++)
			fprintf(f, "## The contract itself: what breaks it, what was not judged\n\n"
				"difftest judge's lines but the known deviations (KNOWN, with the JUDGE "
				"lines of their scripts: counted above): an op that breaks the contract "
				"(JUDGE), a script it could not judge (UNJUDGED), a breaking script of the "
				"stock kernel that no switch accounts for (UNEXPLAINED); the first %d per "
				"kernel and mode, all of them in judge-KERNEL-FS.txt and the JSON "
				"report.\n\n", RP_JUDGE_SHOWN);
		fprintf(f, "### %s, %s\n\n```\n", j->kernel, j->fs);
		for (int i = 0, shown = 0; i < j->nline && shown < RP_JUDGE_SHOWN; i++)
			if (judge_shown(j, &j->line[i])) {
				fprintf(f, "%s\n", j->line[i].text);
				shown++;
			}
		fprintf(f, "```\n\n");
		if (n > RP_JUDGE_SHOWN)
			fprintf(f, "%d more: judge-%s-%s.txt%s.\n\n", n - RP_JUDGE_SHOWN, j->kernel,
				j->fs, c->merged ? " of each shard" : "");
	}
}

/* The reasons of @c's verdict, the modes of a kernel's reason together ("on ext2, xfs
 * and btrfs"), "; " between them. */
static void failures_text(FILE *f, const struct campaign *c)
{
	for (int i = 0; i < c->nfail; i++) {
		const struct failure *x = &c->fail[i];
		struct failure one = *x;
		char *fs = NULL, *text;
		size_t len = 0;
		FILE *m;
		int dup = 0, n = 0, last = i;

		for (int k = 0; k < i && !dup; k++)
			dup = !strcmp(c->fail[k].what, x->what) && !strcmp(c->fail[k].kernel, x->kernel);
		if (dup)
			continue;
		for (int k = i; k < c->nfail; k++)
			if (!strcmp(c->fail[k].what, x->what) && !strcmp(c->fail[k].kernel, x->kernel))
				last = k;
		m = open_memstream(&fs, &len);
		if (!m)
			abort();
		for (int k = i; x->fs && k < c->nfail; k++) {
			if (strcmp(c->fail[k].what, x->what) || strcmp(c->fail[k].kernel, x->kernel))
				continue;
			fprintf(m, "%s%s", !n++ ? "" : k == last ? " and " : ", ", c->fail[k].fs);
		}
		fclose(m);
		one.fs = fs;
		text = rp_failure_text(&one);
		fprintf(f, "%s%s", i ? "; " : "", text);
		free(text);
		free(fs);
	}
}

/* The campaign's verdict (campaign.info's status) and why (its failures=). */
static void verdict(FILE *f, const struct campaign *c)
{
	const char *stocklike = NULL;

	if (c->status) {
		fprintf(f, "**Verdict: failed** (campaign.sh's exit status 1): ");
		if (c->nfail)
			failures_text(f, c);
		else
			fprintf(f, "campaign.info %s; see the tables below", c->fail_said ?
				"names no reason" : "does not say why (a campaign.sh from before it did)");
		fprintf(f, ".\n\n");
		return;
	}
	/* a kernel judged with known deviations (the stock kernel): its violations are
	 * counted, not failed */
	for (int k = 0; k < c->njudge && !stocklike; k++)
		if (c->judge[k].known_of)
			stocklike = c->judge[k].kernel;
	fprintf(f, "**Verdict: passed** (campaign.sh's exit status 0): %s, ",
		*rp_info_str(&c->info[0], "bug") ? "the model with the planted bug diverged from "
		"every kernel held to its own contract, as it must" :
		"every kernel kept its own contract (difftest compare)");
	if (!c->njudge)
		fprintf(f, "the contract itself was not judged (no judge-*.txt)");
	else if (stocklike)
		fprintf(f, "no kernel but %s broke the contract itself (difftest judge; %s's "
			"violations are counted below, not failed)", stocklike, stocklike);
	else
		fprintf(f, "every kernel kept the contract itself (difftest judge)");
	fprintf(f, ", and the guests ran every script.");
	if (c->nfail) {
		fprintf(f, " Yet campaign.info names failures: ");
		failures_text(f, c);
		fprintf(f, ".");
	}
	fprintf(f, "\n\n");
}

void rp_markdown(FILE *f, const struct campaign *c, const struct group *g, int ng,
		 const char *chart_para)
{
	const struct info *in = &c->info[0];
	const char *line = rp_info_str(in, "line"), *custom = rp_info_str(in, "custom");
	const char *scripts = rp_info_str(in, "scripts"), *bug = rp_info_str(in, "bug");
	char date[64], sw[512], why[1024];
	int any = 0, ncut = 0;

	rp_date(date, sizeof(date));
	fprintf(f, "# difftest report: Linux %s\n\n", line);
	fprintf(f, "Generated %s by difftest/campaign.sh on ", date);
	if (*custom)
		fprintf(f, "the kernel %s", custom);
	else
		fprintf(f, "Debian's %s (stock, and patched with kernel-port/%s)",
			rp_info_str(in, "source"), line);
	if (*scripts)
		fprintf(f, ": the scripts of %s", scripts);
	else
		fprintf(f, ": seed %s, %s random ops per filesystem mode (%s per script)",
			rp_info_str(in, "seed"), rp_info_str(in, "ops"), rp_info_str(in, "per"));
	if (!strcmp(rp_info_str(in, "scenarios"), "1"))
		fprintf(f, ", plus the scenarios in difftest/scenarios");
	if (*bug)
		fprintf(f, ", model with planted bug **%s**", bug);
	/* a shard's own report; a merge's is one run's */
	if (!c->merged && rp_info_num(in, "shards") != 1)
		fprintf(f, ", shard %s of %s", rp_info_str(in, "shard"), rp_info_str(in, "shards"));
	fprintf(f, ".\n\n");
	verdict(f, c);

	/* the one table first: per kernel, mode and contract (attributed: explained by
	 * contract switches; unexplained: by none; not run: scripts the guest did not run
	 * or finish, neither); ops/s of the guests on the batch */
	fprintf(f, "| kernel | filesystem mode | contract | ops | scripts | divergent scripts | "
		"attributed | unexplained | not run | guest ops/s |\n");
	fprintf(f, "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	for (int k = 0; k < ng; k++) {
		char r[32];

		ops_per_s(&g[k], r, sizeof(r));
		fprintf(f, "| %s | %s | %s | %ld | %ld | %ld | %ld | %ld | %ld | %s |\n", g[k].kernel,
			g[k].fs, g[k].cname, g[k].ops, g[k].scripts, g[k].div,
			g[k].div - g[k].unexplained, g[k].unexplained, g[k].notrun, r);
	}
	fprintf(f, "\n");
	/* the contract itself, per kernel and mode, right after */
	judge_table(f, c, g, ng);
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
		"difftest/doc/contracts.md). A divergent script is attributed to the smallest set of "
		"contract switches that, turned off, makes the kernel agree (the first such set "
		"in the order above): a deviation of a kernel from a contract not its own that the "
		"contracts document. A kernel held to its own contract is never attributed: its "
		"divergences are unexplained, findings.\n", line, sw);

	/* scripts a per-line rule cut short (the model stops where the kernel leaves what
	 * it follows): counted, never passed silently; a merge's, one line per shard */
	for (int k = 0; k < c->ncmp; k++) {
		const struct cmpfile *cf = &c->cmp[k];

		if (!cf->ncut)
			continue;
		if (!ncut++)
			fprintf(f, "\nCut short by a per-line rule (difftest/doc/kernels.md, \"Kernel "
				"lines\"); the ops after the cut were not compared:\n\n");
		fprintf(f, "- %s", cf->name);
		if (c->merged)
			fprintf(f, " (shard %s)", cf->dir);
		fprintf(f, ": %s\n", cut_summary(cf));
	}
	fprintf(f, "\n");
	judge_lines(f, c);

	/* a table per kernel, mode and contract: its classes by name, so that a merge of
	 * shards and one run print the same table */
	for (int k = 0; k < ng; k++) {
		long to = 0, ts = 0, td = 0, tn = 0;

		fprintf(f, "## kernel %s, %s, contract %s\n\n", g[k].kernel, g[k].fs, g[k].contract);
		fprintf(f, "| scenario class | ops | scripts | divergent scripts | attributed to | "
			"not run |\n");
		fprintf(f, "| --- | ---: | ---: | ---: | --- | ---: |\n");
		for (int j = 0; j < g[k].nrows; j++) {
			const struct row *r = &c->row[g[k].rows[j]];

			why_text(r, why, sizeof(why));
			fprintf(f, "| %s | %ld | %ld | %ld | %s | %ld |\n", r->key[3], r->v[0], r->v[1],
				r->v[2], r->v[2] > 0 ? why : "", r->v[4]);
			to += r->v[0];
			ts += r->v[1];
			td += r->v[2];
			tn += r->v[4];
		}
		fprintf(f, "| **total** | **%ld** | **%ld** | **%ld** | | **%ld** |\n\n", to, ts, td,
			tn);
	}

	/* the minimal scripts; the divergent ones where shrinking did not confirm any */
	for (int k = 0; k < c->nsf; k++) {
		const struct sfile *s = &c->sf[k];
		const char *name = s->name + (s->cases ? 6 : 4);

		if (!s->cases && rp_cases_of(c, s))
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
		fprintf(f, "Wall time: %s s.\n", rp_info_str(in, "wall"));
}
