/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The op registry: one descriptor per script operation (common/ops.c), with
 * everything the script language knows of it: its word, parser, printer, the
 * script's rules for it (descriptors open, mappings), whether it can run in a
 * "par" line (race) or a forked child.
 * The two other layers keep one table each, indexed by the same code: the
 * model's rule (model/step.c, the functions in the model file of the layer
 * they model) and the guest's handler (guest/dtguest.c, g_ops[]).
 *
 * Adding an op:
 *   1. its code in enum dt_opcode (script.h) and its descriptor in ops.c;
 *   2. its model rule, named in model/step.c's table;
 *   3. its guest handler, named in dtguest.c's table;
 *   4. its line in difftest/README.md ("Script format"), a scenario, a test.
 * test_model.c checks that every op has a model rule; dtguest --check, that
 * every op has a handler.
 */
#ifndef DIFFTEST_OPS_H
#define DIFFTEST_OPS_H

#include <stddef.h>

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
};

extern const struct dt_opdesc dt_ops[OP__COUNT];

/* its name in messages */
const char *dt_oplabel(enum dt_opcode c);

#endif
