/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Results of running a script, from the guest or the model, and their text
 * form (what the guest prints and the host reads back):
 *
 *   S NAME [trace]          a script starts; "trace": errseq events captured
 *   R I RET ERRNO           op I (0-based) returned RET; ERRNO name or 0
 *   R I.1 RET ERRNO         second op of a "par" line
 *   T I set OBJ 0xWORD      filemap_set_wb_err on OBJ (fN: a file, bdev)
 *   T I adv OBJ 0xOLD 0xNEW file_check_and_advance_wb_err
 *   T I mdadv OBJ 0xOLD 0xNEW  file_check_and_advance_md_wb_err (patched kernel)
 *   T I lost N              N more events of op I than DT_MAX_TRACE were dropped
 *   X MESSAGE               a step of the guest's harness failed: set-up (in a block
 *                           without results), or any other (the block is not judged)
 *   E NAME                  the script ended
 *
 * Other guest lines (B, Z, I, DONE) are skipped; any other "DT" line is an error.
 */
#ifndef DIFFTEST_RESULTS_H
#define DIFFTEST_RESULTS_H

#include <stdio.h>

#include "script.h"

/* Events kept per op; more are counted (tr_lost), and the op is not comparable. */
#define DT_MAX_TRACE 32
#define DT_TRACE_LEN 48

struct dt_opres {
	long ret[2];
	int err[2];        /* positive errno or 0 */
	int done;          /* bit 0: first result present, bit 1: second (par) */
	int ntr;
	int tr_lost;       /* events dropped past DT_MAX_TRACE */
	char tr[DT_MAX_TRACE][DT_TRACE_LEN];
};

struct dt_sresult {
	char name[DT_NAME_MAX];
	int trace;         /* trace events were captured */
	int complete;      /* saw E */
	int line;          /* line of the S line in the log (0: no block) */
	int nres;          /* R lines read */
	int nops;
	struct dt_opres *ops;
	char fail[256];    /* the first X line's message ("(no message)" for a bare
			      one), if any */
	int fail_line;     /* its line in the log */
};

/* A guest log's results for a batch: s[k] holds those of script k. */
struct dt_results {
	int n;
	struct dt_sresult *s;
};

void dt_sresult_init(struct dt_sresult *r, const char *name, int nops);
void dt_sresult_free(struct dt_sresult *r);
void dt_results_free(struct dt_results *r);
void dt_opres_trace(struct dt_opres *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void dt_sresult_print(FILE *f, const struct dt_sresult *r);
/* The same, each op's results after a "# op I (line L): OP" line from @s. */
void dt_sresult_print_ops(FILE *f, const struct dt_sresult *r, const struct dt_script *s);
/*
 * Read the S..E blocks of a guest log (@fname names it in errors) for the
 * scripts of @b: at most one block per script, one result per op (two for a
 * "par" line), none past the script's end, so memory is bounded by the batch.
 * On error returns -1 and writes "FNAME:LINE: message" into @err.
 */
int dt_results_read(FILE *f, const char *fname, const struct dt_batch *b,
		    struct dt_results *out, char *err, size_t errlen);
/* The results of script @k of the batch, NULL if the log had no block for it. */
const struct dt_sresult *dt_results_get(const struct dt_results *r, int k);
/* "ret errno" text of one result */
void dt_opres_format(const struct dt_opres *o, int which, char *buf, size_t len);

#endif
