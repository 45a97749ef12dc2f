// SPDX-License-Identifier: GPL-2.0
/*
 * difftest report's JSON (report.c): the rows and classes of the first table, the wall
 * time, the cut scripts, every divergence of the compare outputs with its results and
 * the errseq words of its trace decoded (report_word_decode(): errno, SEEN, counter),
 * difftest judge's counts and lines per kernel and mode, the minimal scripts; and
 * compare's divergence text read back (report_parse_what()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign.h"
#include "json.h"
#include "model.h"

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
 * "unexplained"; NULL: none, a script the guest did not run or finish: MISSING,
 * INCOMPLETE, NOTRACE, SETUP). */
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
	char *text = rp_strndup(s->text, s->len), *p = text, *l, *head = NULL;

	json_array(j, "scripts");
	while ((l = rp_next_line(&p))) {
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

void rp_json(FILE *f, const struct campaign *c, const struct group *g, int ng)
{
	const struct info *in = &c->info[0];
	struct json j;
	char date[64];

	rp_date(date, sizeof(date));
	json_init(&j, f);
	json_object(&j, NULL);
	json_string(&j, "format", "difftest report");
	json_int(&j, "version", 1);
	json_string(&j, "generated", date);
	json_string(&j, "line", rp_info_str(in, "line"));

	json_object(&j, "campaign");
	json_array(&j, "dirs");
	for (int i = 0; i < c->ndirs; i++)
		json_string(&j, NULL, c->dirs[i]);
	json_end(&j);
	json_bool(&j, "merged", c->merged);
	json_int(&j, "status", c->status);
	json_string(&j, "verdict", c->status ? "failed" : "passed");
	if (!c->fail_said) {
		json_null(&j, "failures");
	} else {
		json_array(&j, "failures");
		for (int i = 0; i < c->nfail; i++) {
			char *text = rp_failure_text(&c->fail[i]);

			json_object(&j, NULL);
			json_string(&j, "what", c->fail[i].what);
			json_string(&j, "kernel", c->fail[i].kernel);
			json_string(&j, "fs", c->fail[i].fs);
			json_string(&j, "text", text);
			json_end(&j);
			free(text);
		}
		json_end(&j);
	}
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
		json_int(&j, "not_run", g[k].notrun);
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
			json_int(&j, "not_run", r->v[4]);
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

	json_array(&j, "judge");
	for (int k = 0; k < c->njudge; k++) {
		const struct judgefile *jf = &c->judge[k];

		json_object(&j, NULL);
		json_string(&j, "kernel", jf->kernel);
		json_string(&j, "fs", jf->fs);
		json_string(&j, "known_deviations_of", jf->known_of);
		json_int(&j, "judged", jf->judged);
		json_int(&j, "breaking", jf->breaking);
		if (jf->known_of)
			json_int(&j, "known", jf->known);
		else
			json_null(&j, "known");
		json_int(&j, "not_judged", jf->unjudged);
		json_int(&j, "ops", jf->ops);
		json_bool(&j, "fails_campaign", rp_judge_fails(jf));
		json_array(&j, "files");
		for (int i = 0; i < jf->npath; i++)
			json_string(&j, NULL, jf->path[i]);
		json_end(&j);
		json_array(&j, "lines");
		for (int i = 0; i < jf->nline; i++) {
			const struct report_judge_line *l = &jf->line[i].j;
			int judge = !strcmp(l->kind, "judge"), known = !strcmp(l->kind, "known");

			json_object(&j, NULL);
			json_string(&j, "kind", l->kind);
			json_string(&j, "script", l->script);
			if (judge) {
				json_int(&j, "op", l->op);
				json_int(&j, "line", l->line);
				json_string(&j, "op_text", l->op_text);
				json_string(&j, "violation", l->violation);
			} else {
				json_null(&j, "op");
				json_null(&j, "line");
				json_null(&j, "op_text");
				json_null(&j, "violation");
			}
			if (known) {
				json_array(&j, "switches");
				for (const char *s = l->what; *s;) {
					size_t n = strcspn(s, "+");

					json_stringn(&j, NULL, s, n);
					s += n + (s[n] == '+');
				}
				json_end(&j);
				json_null(&j, "what");
			} else {
				json_null(&j, "switches");
				json_string(&j, "what", l->what);
			}
			json_string(&j, "text", jf->line[i].text);
			json_string(&j, "file", jf->line[i].path);
			json_end(&j);
		}
		json_end(&j);
		json_end(&j);
	}
	json_end(&j);

	json_array(&j, "minimal_scripts");
	for (int k = 0; k < c->nsf; k++) {
		const struct sfile *s = &c->sf[k];

		if (!s->cases && rp_cases_of(c, s))
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
