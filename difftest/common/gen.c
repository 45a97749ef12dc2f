// SPDX-License-Identifier: GPL-2.0
/*
 * The random scripts ("difftest gen"): each step draws an op by the shares in
 * the op registry (ops.h, struct dt_genshare), whose gen_line prints a line
 * of it. A seed's scripts are its random stream: the same seed, the same
 * scripts, as long as no share and no rule of the model changes (the
 * generator looks through the model, and picks by its predictions).
 */
#define _GNU_SOURCE
#include "ops.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* of 100 steps, those that draw from the EXTRA tier */
#define DT_GEN_EXTRA_SHARE 24

uint32_t dt_gen_rnd(struct dt_gen *g, uint32_t n)
{
	/* xorshift64* */
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return (uint32_t)((g->rng * 0x2545F4914F6CDD1DULL) >> 32) % n;
}

void dt_gen_seed(struct dt_gen *g, unsigned long long seed, long i)
{
	/* each script has its own stream, so a script is reproducible alone */
	g->rng = (seed * 0x9E3779B97F4A7C15ULL) ^ ((unsigned long long)(i + 1) << 32) ^
		 0xD1B54A32D192ED03ULL;
	for (int w = 0; w < 4; w++)
		dt_gen_rnd(g, 2);
}

int dt_gen_err(struct dt_gen *g)
{
	uint32_t r = dt_gen_rnd(g, 10);

	return r < 6 ? EIO : r < 9 ? ENOSPC : (dt_gen_rnd(g, 2) ? EDQUOT : EROFS);
}

int dt_gen_free_fd(const struct dt_gen *g)
{
	for (int i = 0; i < DT_GEN_FDS; i++)
		if (!g->open[i])
			return i;
	return -1;
}

int dt_gen_pick_open(struct dt_gen *g)
{
	int c[DT_MAX_FDS], n = 0;

	/* not the directory's: its steps are dt_gen_dir_step()'s */
	for (int i = 0; i < DT_GEN_FDS; i++)
		if (g->open[i] && !g->dir[i])
			c[n++] = i;
	return n ? c[dt_gen_rnd(g, (uint32_t)n)] : -1;
}

/* The first op of @tier, in code order, whose range holds @r (@any: any
 * range) and whose generator takes the step; 0: none did. */
static int draw(struct dt_gen *g, enum dt_gen_tier tier, uint32_t r, int any)
{
	for (int i = 0; i < OP__COUNT; i++) {
		const struct dt_genshare *s = &dt_ops[i].gen;

		if (s->tier == tier && (any || (r >= s->lo && r < s->hi)) && dt_ops[i].gen_line(g))
			return 1;
	}
	return 0;
}

int dt_gen_look(struct dt_gen *g, struct dt_gen_view *v)
{
	if (!g->look || fflush(g->f))
		return -1;
	return g->look(g->look_ctx, g->text, v);
}

void dt_gen_script(struct dt_gen *g, const char *name, int nops)
{
	if (g->look) {
		/* the script so far, for the model's eyes */
		g->out = g->f;
		g->text = NULL;
		g->f = open_memstream(&g->text, &g->text_len);
		if (!g->f)
			abort();
	}
	memset(g->open, 0, sizeof(g->open));
	memset(g->mapped, 0, sizeof(g->mapped));
	memset(g->raw, 0, sizeof(g->raw));
	memset(g->dir, 0, sizeof(g->dir));
	g->err_file = -1;
	g->failing = g->readfail = g->after_err = g->dirstep = g->direrr = 0;
	g->last_file = -1;
	fprintf(g->f, "script %s\n", name);
	g->d = -1;
	for (int k = 0; k < nops; k++) {
		int prev = g->d;
		uint32_t r;

		if (g->readfail) {
			dt_gen_readfail_step(g);
			continue;
		}
		if (g->after_err) {
			dt_gen_after_err_step(g);
			continue;
		}
		if (g->dirstep) {
			dt_gen_dir_step(g);
			continue;
		}
		/* half the time the last step's descriptor again (an error, then
		 * what that descriptor does next), else a random open one */
		g->d = dt_gen_pick_open(g);
		if (prev >= 0 && g->open[prev] && !g->dir[prev] && dt_gen_rnd(g, 2))
			g->d = prev;
		r = dt_gen_rnd(g, 100);
		/* with nothing open, the FIRST tier (open) whatever the draw */
		if (draw(g, DT_GEN_FIRST, r, g->d < 0))
			continue;
		if (dt_gen_rnd(g, 100) < DT_GEN_EXTRA_SHARE) {
			if (!draw(g, DT_GEN_EXTRA, dt_gen_rnd(g, DT_GEN_EXTRA_SLOTS), 0))
				abort(); /* a slot without an op (test_model.c checks) */
			continue;
		}
		if (!draw(g, DT_GEN_MAIN, r, 0))
			abort(); /* a draw without an op (test_model.c checks) */
	}
	fprintf(g->f, "end\n");
	if (g->look) {
		if (fclose(g->f))
			abort();
		fputs(g->text, g->out);
		free(g->text);
		g->text = NULL;
		g->f = g->out;
	}
}
