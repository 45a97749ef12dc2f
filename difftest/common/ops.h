/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The op registry: one descriptor per script operation (common/ops.c), with
 * everything the script language knows of it: its word, parser, printer, the
 * script's rules for it (descriptors open, mappings), whether it can run in a
 * "par" line (race) or a forked child, and its share of the random scripts.
 * The two other layers keep one table each, indexed by the same code: the
 * model's rule (model/step.c, the functions in the model file of the layer
 * they model) and the guest's handler (guest/dtguest.c, g_ops[]).
 *
 * Adding an op:
 *   1. its code in enum dt_opcode (script.h) and its descriptor in ops.c;
 *   2. its model rule, named in model/step.c's table;
 *   3. its guest handler, named in dtguest.c's table;
 *   4. its line in difftest/doc/scripts.md ("Script format"), a scenario, a test.
 * test_model.c checks that every op has a model rule; dtguest --check, that
 * every op has a handler.
 */
#ifndef DIFFTEST_OPS_H
#define DIFFTEST_OPS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "script.h"

/* ---- what an op's parser and checks use (script.c) ---- */

/* Where a parse is: "FILE:LINE: message" goes to err; the first error sticks. */
struct dt_pctx {
	const char *fname;
	int line;
	char *err;
	size_t errlen;
	int failed;
};

/* The script's state for the descriptor discipline, op by op. */
struct dt_vstate {
	unsigned char open[DT_MAX_FDS];
	unsigned char mapped[DT_MAX_FDS]; /* the descriptor has a mapping (mmap .. munmap) */
	int desc[DT_MAX_FDS];       /* the open file description a descriptor names */
	long long pos[DT_MAX_FDS];  /* per description: bytes written or read since open */
	unsigned char raw[DT_MAX_FDS]; /* the descriptor names a block device: 1 the raw
					  one, 2 the filesystem's (dev) */
	unsigned char dir[DT_MAX_FDS]; /* the descriptor names the test directory */
	unsigned char failing;  /* a "fail" since the last "heal" */
	unsigned char readfail; /* a "failread" since the last "heal" */
	unsigned char direrr;   /* an "error data" on a directory's descriptor: no
				   unlink, link, rename from then on */
};

/* The error at the current line; returns -1. */
int dt_perr(struct dt_pctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "dN" or "fN" (@prefix) below @max; @tok NULL: missing. The index, or -1. */
int dt_parse_idx(struct dt_pctx *c, const char *tok, char prefix, int max, const char *what);
/* A number (C syntax); 0, or -1. */
int dt_parse_num(struct dt_pctx *c, const char *tok, long long *out, const char *what);
/* One op from words tok[0..n); @nested: inside a par or child line */
int dt_parse_op(struct dt_pctx *c, char **tok, int n, struct dt_op *op, int nested);
/* The script's rules for @op at this point of the script (@in_par: in a par line) */
int dt_check_op(struct dt_pctx *c, struct dt_vstate *v, const struct dt_op *op, int in_par);

/* ---- the random scripts (gen.c) ---- */

#define DT_GEN_FILES 3 /* f0 .. f2 */
#define DT_GEN_FDS 6   /* d0 .. d5 */
/*
 * The most steps (gen -o) a random script takes. A step prints one line, but a
 * cycle and most evicts first close (and munmap) every open descriptor, and a
 * close munmaps first: each such extra line undoes an earlier step's open, dup
 * or mmap (a par line's too), so N steps print at most 2N - 1 lines, within the
 * DT_MAX_OPS a script holds.
 */
#define DT_GEN_MAX_OPS (DT_MAX_OPS / 2)

/*
 * An op's share of the random scripts. Each step draws a number of 100: an op
 * of tier FIRST takes it when it falls in [lo, hi) or when no descriptor is
 * open; else 24 draws of 100 go to the EXTRA tier, whose ops share 14 slots
 * (slots [lo, hi), equally likely); else the op of tier MAIN whose [lo, hi) holds the
 * draw, the first in code order whose generator takes it (ranges may overlap:
 * an op declines where another takes its place). The draws are the random
 * stream of a seed: changing a share changes every script made after it.
 */
enum dt_gen_tier { DT_GEN_NONE, DT_GEN_FIRST, DT_GEN_EXTRA, DT_GEN_MAIN };
#define DT_GEN_EXTRA_SLOTS 14

struct dt_genshare {
	enum dt_gen_tier tier;
	unsigned char lo, hi;
};

/* A random script being made. */
/* What the model says of the descriptors after the script so far (dt_gen.look). */
struct dt_gen_view {
	long long map_len[DT_MAX_FDS]; /* dN's shared mapping's length, 0: none */
	long long size[DT_MAX_FDS];    /* the size of dN's file, -1: dN not open */
	int rdonly[DT_MAX_FDS];        /* dN open read-only */
};

struct dt_gen {
	FILE *f;
	uint64_t rng;
	int real;       /* real I/O errors (fail, heal): no op that frees blocks */
	int has_bdev;   /* the filesystem has a block device ("error meta") */
	int d;          /* this step's descriptor: a random open one, -1: none */
	int open[DT_MAX_FDS];
	int mapped[DT_MAX_FDS]; /* an "mmap dN" line without its munmap (the script's rule) */
	int raw[DT_MAX_FDS]; /* the raw block device's (1), the filesystem's device's (2) */
	int file[DT_MAX_FDS]; /* the file dN opened (fM), -1: a block device */
	int dir[DT_MAX_FDS];  /* dN is the test directory's (never the step's descriptor) */
	int dirstep;    /* the steps after "open dN dir" (dt_gen_dir_step()): 1 to 4 */
	int dir_fd;     /* ... its descriptor */
	int direrr;     /* an "error data" on the directory: no unlink, link, rename */
	int err_file;   /* the file of the last "error data", -1: none since an open took it */
	int failing;    /* a "fail" line since the last "heal" */
	int readfail;   /* the steps after "failread" (dt_gen_readfail_step()): 1 to 4 */
	int rf_fd, rf_file; /* their descriptor and file */
	int last_file;  /* the file of the last "open dN fM", -1: none */
	int after_err;  /* the steps after an error (dt_gen_after_err_step()): 1 to 3 after
			   "error data dN", 4 or 5 to 7 after "error meta" */
	int ae_fd;      /* ... their descriptor */
	/*
	 * The model's eyes (difftest gen sets them; NULL: blind): the script so
	 * far (its "script" line and ops, no "end") into @v: 0, or -1 when it
	 * does not parse.  With them a mapping's stores and msync come only
	 * after an mmap that succeeded, inside its length.
	 */
	int (*look)(void *ctx, const char *text, struct dt_gen_view *v);
	void *look_ctx;
	char *text;     /* dt_gen_script's buffer of the script so far, with look */
	size_t text_len;
	FILE *out;      /* where the script goes when it is whole, with look */
};

/* The stream of script @i of @seed. */
void dt_gen_seed(struct dt_gen *g, unsigned long long seed, long i);
/* Print "script NAME", @nops ops (and the closes a cycle needs), "end" to g->f;
 * @nops at most DT_GEN_MAX_OPS, so that the script parses. */
void dt_gen_script(struct dt_gen *g, const char *name, int nops);
/* The model's view after the script so far into @v: 0, or -1 (blind, or the
 * text does not parse: a generator bug) */
int dt_gen_look(struct dt_gen *g, struct dt_gen_view *v);
/* 0 .. @n-1 */
uint32_t dt_gen_rnd(struct dt_gen *g, uint32_t n);
/* an errno for an injected error: EIO, ENOSPC, EDQUOT, EROFS */
int dt_gen_err(struct dt_gen *g);
/* the first closed descriptor of the generator's, -1: none */
int dt_gen_free_fd(const struct dt_gen *g);
/* a random open descriptor of the generator's, -1: none */
int dt_gen_pick_open(struct dt_gen *g);
/* a step after a "failread" (g->readfail): an open, its close, "heal", the open again */
void dt_gen_readfail_step(struct dt_gen *g);
/* a step after an error (g->after_err): a write, a fallocate, a sync; a remount */
void dt_gen_after_err_step(struct dt_gen *g);
/* a step after "open dN dir" (g->dirstep): dirsync, an error of the directory, a
 * new name, a sync of the directory or an evict */
void dt_gen_dir_step(struct dt_gen *g);

/* ---- the registry ---- */

struct dt_opdesc {
	const char *name;  /* its first word (dt_opname()) */
	const char *label; /* its name in messages where two ops share the word
			      ("error data", "error meta"); NULL: name */
	/* words tok[0..n) (tok[0]: the name) into @op, whose code, line and
	 * descriptor and file fields (-1) are set: 0, or dt_perr() */
	int (*parse)(struct dt_pctx *c, char **tok, int n, struct dt_op *op);
	/* @op in the script's syntax, without a newline */
	void (*format)(const struct dt_op *op, char *buf, size_t len);
	/* the script's rules at @op past "cannot run inside par", updating @v;
	 * NULL: none */
	int (*check)(struct dt_pctx *c, struct dt_vstate *v, const struct dt_op *op);
	unsigned par : 1;       /* may run in a par line: it can race */
	unsigned child : 1;     /* may run in a forked child ("child OP") */
	unsigned line_only : 1; /* holds ops itself (par, child): never inside one */
	struct dt_genshare gen;
	/* print one random line of it (g->d: the step's descriptor); 0: declines,
	 * the draw goes on to the next op (consume no random number before) */
	int (*gen_line)(struct dt_gen *g);
};

extern const struct dt_opdesc dt_ops[OP__COUNT];

/* its name in messages */
const char *dt_oplabel(enum dt_opcode c);

#endif
