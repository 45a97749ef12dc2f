// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "results.h"

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

	if (o->ntr >= DT_MAX_TRACE)
		return;
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
	char e[16];

	fprintf(f, "DT S %s%s\n", r->name, r->trace ? " trace" : "");
	for (int i = 0; i < r->nops; i++) {
		const struct dt_opres *o = &r->ops[i];

		for (int w = 0; w < 2; w++)
			if (o->done & (1 << w))
				fprintf(f, "DT R %d%s %ld %s\n", i, w ? ".1" : "", o->ret[w],
					dt_errname(o->err[w], e, sizeof(e)));
		for (int t = 0; t < o->ntr; t++)
			fprintf(f, "DT T %d %s\n", i, o->tr[t]);
	}
	if (r->fail[0])
		fprintf(f, "DT X %s\n", r->fail);
	fprintf(f, "DT E %s\n", r->name);
}

int dt_results_read(FILE *f, struct dt_results *out)
{
	char line[512];
	struct dt_sresult *cur = NULL;

	memset(out, 0, sizeof(*out));
	while (fgets(line, sizeof(line), f)) {
		char *p = line, name[DT_NAME_MAX], a[64], b[64];
		int i;

		line[strcspn(line, "\r\n")] = 0;
		/* the guest's lines may follow a console prefix */
		if (!strncmp(p, "DT ", 3))
			p += 3;
		else
			continue;
		if (p[0] == 'S' && p[1] == ' ') {
			struct dt_sresult *n = realloc(out->s, (size_t)(out->n + 1) * sizeof(*n));

			if (!n)
				return -1;
			out->s = n;
			cur = &out->s[out->n++];
			if (sscanf(p + 2, "%63s", name) != 1)
				name[0] = 0;
			dt_sresult_init(cur, name, 0);
			cur->trace = strstr(p + 2, " trace") != NULL;
			continue;
		}
		if (!cur)
			continue;
		if (p[0] == 'E') {
			cur->complete = 1;
			cur = NULL;
			continue;
		}
		if (p[0] == 'X') {
			snprintf(cur->fail, sizeof(cur->fail), "%.250s", p + 2);
			continue;
		}
		if ((p[0] == 'R' || p[0] == 'T') && sscanf(p + 2, "%d", &i) == 1 && i >= 0 &&
		    i < DT_MAX_OPS) {
			struct dt_opres *o;

			if (i >= cur->nops) {
				struct dt_opres *n = realloc(cur->ops, (size_t)(i + 1) * sizeof(*n));

				if (!n)
					return -1;
				memset(n + cur->nops, 0, (size_t)(i + 1 - cur->nops) * sizeof(*n));
				cur->ops = n;
				cur->nops = i + 1;
			}
			o = &cur->ops[i];
			if (p[0] == 'R') {
				long ret;
				int w = 0, e;

				if (sscanf(p + 2, "%63s %ld %63s", a, &ret, b) != 3)
					continue;
				if (strstr(a, ".1"))
					w = 1;
				e = strcmp(b, "0") ? dt_errnum(b) : 0;
				o->ret[w] = ret;
				o->err[w] = e < 0 ? 4095 : e;
				o->done |= 1 << w;
			} else {
				char *q = strchr(p + 2, ' ');

				if (q)
					dt_opres_trace(o, "%s", q + 1);
			}
		}
	}
	return 0;
}

const struct dt_sresult *dt_results_find(const struct dt_results *r, const char *name)
{
	for (int i = 0; i < r->n; i++)
		if (!strcmp(r->s[i].name, name))
			return &r->s[i];
	return NULL;
}
