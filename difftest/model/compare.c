// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison: run a script through the model and hold the guest's results
 * to it, op by op (results, then trace events), and say where and why they
 * part (dt_model_run()).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ops.h"

/* ---- comparison ---- */

int m_opres_equal(const struct dt_opres *a, const struct dt_opres *b, int which)
{
	if ((a->done & (1 << which)) != (b->done & (1 << which)))
		return 0;
	return a->ret[which] == b->ret[which] && a->err[which] == b->err[which];
}

static int trace_cmp(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* Compare trace events as multisets (par lines interleave them). */
static int trace_equal(const struct dt_opres *a, const struct dt_opres *b, int sorted)
{
	char x[DT_MAX_TRACE][DT_TRACE_LEN], y[DT_MAX_TRACE][DT_TRACE_LEN];

	if (a->ntr != b->ntr)
		return 0;
	memcpy(x, a->tr, sizeof(x));
	memcpy(y, b->tr, sizeof(y));
	if (sorted) {
		qsort(x, (size_t)a->ntr, DT_TRACE_LEN, trace_cmp);
		qsort(y, (size_t)b->ntr, DT_TRACE_LEN, trace_cmp);
	}
	for (int i = 0; i < a->ntr; i++)
		if (strcmp(x[i], y[i]))
			return 0;
	return 1;
}

/*
 * A "par" line's trace: as trace_equal(@pred, @obs), but when both threads
 * use one struct file (@one_file) @obs may also hold, per cursor, one
 * "adv"/"mdadv" event whose old and new words are equal, when
 * @pred advanced that cursor to that word.  It is the other thread of a race
 * in which both passed the lockless errseq_check() of
 * file_check_and_advance_wb_err() (or its md twin) before either took
 * f_lock: the second finds the cursor advanced, reports 0 and still emits the
 * tracepoint.  Its return values are those of a serial order.
 */
int m_trace_equal_par(int one_file, const struct dt_opres *pred, const struct dt_opres *obs)
{
	char seen[DT_MAX_TRACE][DT_TRACE_LEN];
	struct dt_opres x = *obs;
	int nseen = 0;

	if (trace_equal(pred, obs, 1))
		return 1;
	/* two descriptors: two cursors, each checked by one thread only */
	if (!one_file)
		return 0;
	for (int t = 0; t < x.ntr; t++) {
		char kind[8], label[32], key[DT_TRACE_LEN];
		unsigned int a, b;
		int ok = 0;

		if (sscanf(x.tr[t], "%7s %31s 0x%x 0x%x", kind, label, &a, &b) != 4 || a != b ||
		    (strcmp(kind, "adv") && strcmp(kind, "mdadv")))
			continue;
		/* the winning thread's advance of that cursor to that word */
		for (int k = 0; k < pred->ntr && !ok; k++) {
			char pk[8], pl[32];
			unsigned int pa, pb;

			ok = sscanf(pred->tr[k], "%7s %31s 0x%x 0x%x", pk, pl, &pa, &pb) == 4 &&
			     !strcmp(pk, kind) && !strcmp(pl, label) && pb == b && pa != pb;
		}
		/* at most one loser per cursor: a par line has two threads */
		snprintf(key, sizeof(key), "%s %s", kind, label);
		for (int u = 0; u < nseen && ok; u++)
			ok = strcmp(seen[u], key) != 0;
		if (!ok)
			continue;
		memcpy(seen[nseen++], key, sizeof(key));
		memmove(x.tr[t], x.tr[t + 1], (size_t)(x.ntr - t - 1) * DT_TRACE_LEN);
		x.ntr--;
		t--;
	}
	return nseen && trace_equal(pred, &x, 1);
}

/* What the script's "fail" lines fail: WB_FAILED_FILE (a file's extents),
 * WB_FAILED_RAW (the raw device), or 0: none */
static int fail_kinds(const struct dt_script *s)
{
	unsigned char raw[DT_MAX_FDS] = {0};
	int kinds = 0;

	for (int i = 0; i < s->nops; i++) {
		const struct dt_op *op = &s->ops[i];

		if (op->code == OP_OPEN)
			raw[op->fd] = op->file == DT_FILE_RAW;
		else if (op->code == OP_DUP)
			raw[op->fd2] = raw[op->fd];
		else if (op->code == OP_FAIL)
			kinds |= raw[op->fd] ? WB_FAILED_RAW : WB_FAILED_FILE;
	}
	return kinds;
}

/* The raw device, in wb_files()'s bits (no file's label) */
#define WB_RAW_BIT (1u << 31)

/* The trace label (bit K: "fK") of inode @i of the model: the name it was made under,
 * as the guest labels it (model/vfs.c); the raw device: WB_RAW_BIT */
static unsigned label_bit(const struct m_state *m, int i)
{
	int l = i >= 0 ? m->ino[i].label : -1;

	if (i >= 0 && i == m->raw)
		return WB_RAW_BIT;
	return l >= 0 && l < DT_MAX_FILES ? 1u << l : 0;
}

/* The files whose extents are under the dm error target now (a fail before this op, no
 * heal since), by their trace labels: an inode on disk, or in memory (an unlinked file
 * still open keeps its blocks, and its failure, until its last close) */
static unsigned failed_files(const struct m_state *m)
{
	unsigned b = 0;

	for (int d = 0; d < MAX_DINODES; d++) {
		const struct m_dinode *di = &m->dino[d];

		if (!di->used || !di->fail_pages)
			continue;
		if (di->mem >= 0)
			b |= label_bit(m, di->mem);
		else if (di->label >= 0 && di->label < DT_MAX_FILES)
			b |= 1u << di->label;
	}
	for (int i = 0; i < MAX_INODES; i++)
		if (m->ino[i].used && m->ino[i].fail_pages && i != m->raw)
			b |= label_bit(m, i);
	return b;
}

/* The files whose pages op @op writes back, by trace label, in the model's state before
 * it (0: none): a sync of one descriptor (fsync, fdatasync, sfr with WRITE, msync), or an
 * O_SYNC or O_DIRECT write through it, its file (a child's too); a par line, either op's;
 * the other ops that write back (sync, syncfs, evict, fail, ...), every file. */
static unsigned wb_files(const struct m_state *m, const struct dt_op *op)
{
	int k = op->fd >= 0 ? m->slot[op->fd] : -1;

	switch (op->code) {
	case OP_FSYNC:
	case OP_FDATASYNC:
	case OP_SFR:
	case OP_MSYNC:
		return k >= 0 && (op->code != OP_SFR || m_writes_back(op)) &&
		       (op->code != OP_MSYNC || (op->flags & MSYNC_SYNC)) ?
			       label_bit(m, m->fd[k].ino) : 0;
	case OP_WRITE:
		return k >= 0 && (m->fd[k].osync || m->fd[k].odirect) ? label_bit(m, m->fd[k].ino) : 0;
	case OP_CHILD:
		return wb_files(m, &op->sub[0]);
	case OP_PAR:
		return wb_files(m, &op->sub[0]) | wb_files(m, &op->sub[1]);
	default:
		return m_writes_back(op) ? ~0u : 0;
	}
}

/*
 * The observed trace of op @op, without the set events of real writeback
 * failures, which are not compared (see m_writeback()): on a file failed now
 * ("set fK", K in @failed) that the op writes back (@files, wb_files()) when the
 * script fails a file's extents, on the raw device ("set raw") when it fails that
 * (@real: fail_kinds()) and the op writes back, or in which the model wrote back a page
 * over a failed extent (@wb_failed: an O_SYNC write, a child's syncfs, a remount, the raw
 * device's last close, ...); every other event is compared: one on a file nobody failed,
 * or not now, or that the op does not write back, could not have come from the failed
 * extents.
 */
static void filter_obs(int real, int wb_failed, unsigned failed, unsigned files,
		       const struct dt_opres *o, struct dt_opres *out)
{
	int drop = (files ? real : 0) | wb_failed;

	files &= failed;
	*out = *o;
	out->ntr = 0;
	for (int t = 0; t < o->ntr; t++) {
		const char *e = o->tr[t];
		int k = !strncmp(e, "set f", 5) && e[5] >= '0' && e[5] <= '7' && e[6] == ' ' ?
				e[5] - '0' : -1;

		if (!((drop & WB_FAILED_FILE) && k >= 0 && (files & (1u << k))) &&
		    !((drop & WB_FAILED_RAW) && !strncmp(e, "set raw ", 8)))
			memcpy(out->tr[out->ntr++], e, DT_TRACE_LEN);
	}
}

/* Append to @div's text; a text that would overflow is cut, never overrun. */
static void what_add(struct dt_divergence *div, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void what_add(struct dt_divergence *div, const char *fmt, ...)
{
	size_t o = strlen(div->what);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(div->what + o, sizeof(div->what) - o, fmt, ap);
	va_end(ap);
}

static void what_add_trace(struct dt_divergence *div, const struct dt_opres *r)
{
	for (int t = 0; t < r->ntr; t++)
		what_add(div, "%s%s", t ? ", " : "", r->tr[t]);
}

static void describe(const struct dt_script *s, int i, const struct dt_opres *exp,
		     const struct dt_opres *got, int trace, const char *note,
		     struct dt_divergence *div)
{
	char opt[300], e0[48], e1[48], g0[48], g1[48];

	if (!div || div->op >= 0)
		return;
	div->op = i;
	div->what[0] = 0;
	dt_op_format(&s->ops[i], opt, sizeof(opt));
	dt_opres_format(exp, 0, e0, sizeof(e0));
	dt_opres_format(got, 0, g0, sizeof(g0));
	what_add(div, "op %d (line %d) `%s`: model %s", i, s->ops[i].line, opt, e0);
	if (s->ops[i].code == OP_PAR) {
		dt_opres_format(exp, 1, e1, sizeof(e1));
		dt_opres_format(got, 1, g1, sizeof(g1));
		what_add(div, " ; %s, kernel %s ; %s%s", e1, g0, g1, note);
	} else {
		what_add(div, ", kernel %s", g0);
	}
	if (trace) {
		what_add(div, "; trace model [");
		what_add_trace(div, exp);
		what_add(div, "] kernel [");
		what_add_trace(div, got);
		what_add(div, "]");
	}
}
static int has_results(const struct dt_op *op, const struct dt_opres *o)
{
	int want = op->code == OP_PAR ? 3 : 1;

	return (o->done & want) == want;
}

/* Where a block without "DT E" was cut: its last op with any output. */
static int cut_at(const struct dt_script *s, const struct dt_sresult *obs)
{
	int last = 0;

	if (obs->complete)
		return s->nops;
	for (int i = 0; i < obs->nops && i < s->nops; i++)
		if (obs->ops[i].done || obs->ops[i].ntr)
			last = i;
	return last;
}

/* Op @i lacks results (or, in a cut log, may have lost some). */
static void describe_missing(const struct dt_script *s, int i, const struct dt_sresult *obs,
			     struct dt_divergence *div)
{
	char opt[300];

	if (!div || div->op >= 0)
		return;
	div->op = i;
	div->incomplete = !obs->complete;
	dt_op_format(&s->ops[i], opt, sizeof(opt));
	snprintf(div->what, sizeof(div->what), "%s op %d (line %d) `%s`",
		 obs->complete ? "no result from the guest for" :
		 "guest did not finish the script: its results end at", i, s->ops[i].line, opt);
}

/*
 * Op @i has more trace events than DT_MAX_TRACE (the guest's or the model's):
 * the dropped ones cannot be compared, so the script is not judged; like a
 * cut log, that is no divergence of the kernel.
 */
static void describe_lost(const struct dt_script *s, int i, const char *who, int lost,
			  struct dt_divergence *div)
{
	char opt[300];

	if (!div || div->op >= 0)
		return;
	div->op = i;
	div->incomplete = 1;
	dt_op_format(&s->ops[i], opt, sizeof(opt));
	snprintf(div->what, sizeof(div->what),
		 "%s dropped %d trace event(s) of op %d (line %d) `%s` (past %d, or lost by the "
		 "kernel's ring buffer): not comparable", who, lost, i, s->ops[i].line, opt,
		 DT_MAX_TRACE);
}

int dt_model_run(const struct dt_contract *c, enum dt_fs fs, const struct dt_script *s,
		 const struct dt_sresult *obs, struct dt_sresult *pred, struct dt_divergence *div)
{
	struct m_state *m = malloc(sizeof(*m));
	struct dt_sresult local;
	int ndiv = 0, trace = obs ? obs->trace : 1, cut = obs ? cut_at(s, obs) : s->nops;
	int real = fail_kinds(s);

	if (!m)
		abort();
	m_state_init(m, c, fs);
	if (!pred)
		pred = &local;
	dt_sresult_init(pred, s->name, s->nops);
	pred->trace = trace;
	pred->complete = 1;
	if (div) {
		div->op = -1;
		div->incomplete = 0;
		div->what[0] = 0;
		div->cut_op = -1;
		div->cut_why[0] = 0;
	}
	for (int i = 0; i < s->nops; i++) {
		const struct dt_op *op = &s->ops[i];
		struct dt_opres *p = &pred->ops[i];
		static const struct dt_opres none;
		struct dt_opres ofilt;
		const struct dt_opres *o = NULL;
		char note[96];
		unsigned failed, files;
		int bad;

		note[0] = 0;
		m->wb_failed = 0;
		/* what is failed, and what the op writes back, as it begins */
		failed = failed_files(m);
		files = wb_files(m, op);
		if (op->code == OP_PAR) {
			if (obs) {
				filter_obs(real, 0, failed, files, i < obs->nops ? &obs->ops[i] : &none,
					   &ofilt);
				o = &ofilt;
			}
			bad = m_run_par(m, op, o, p, trace, note, sizeof(note));
		} else {
			struct out w = {p, 0};

			m_step(m, op, &w);
			if (obs) {
				filter_obs(real, m->wb_failed, failed,
					   m->wb_failed & WB_FAILED_FILE ? ~0u : files,
					   i < obs->nops ? &obs->ops[i] : &none, &ofilt);
				o = &ofilt;
			}
			bad = o && (!m_opres_equal(p, o, 0) || (trace && !trace_equal(p, o, 0)));
		}
		if (m->cut && div && i + 1 < s->nops) {
			div->cut_op = i + 1;
			snprintf(div->cut_why, sizeof(div->cut_why),
				 "ext4 journal aborted after a metadata error (linux=6.12)");
		}
		if (o && trace && (o->tr_lost || p->tr_lost)) {
			ndiv++;
			describe_lost(s, i, o->tr_lost ? "guest" : "model",
				      o->tr_lost ? o->tr_lost : p->tr_lost, div);
		} else if (o && (!has_results(op, o) || (bad && i >= cut))) {
			ndiv++;
			describe_missing(s, i, obs, div);
		} else if (bad) {
			ndiv++;
			describe(s, i, p, o, trace, note, div);
		}
		if (m->cut)
			break;
	}
	if (obs && !obs->complete && !ndiv) {
		ndiv++;
		if (div) {
			div->op = s->nops;
			div->incomplete = 1;
			snprintf(div->what, sizeof(div->what),
				 "guest did not finish the script (no 'DT E')");
		}
	}
	if (obs && obs->fail[0]) {
		/* the guest said a step of its own harness failed (DT X): whatever its
		 * results, they are not the kernel's answer to the script, so the block
		 * is not judged (nor its divergences blamed on the kernel) */
		ndiv += !ndiv;
		if (div) {
			div->op = s->nops;
			div->incomplete = 1;
			snprintf(div->what, sizeof(div->what),
				 "the guest's harness failed (DT X at log line %d): %s, its results "
				 "not judged%s", obs->fail_line, obs->fail,
				 obs->complete ? "" : " (and no 'DT E')");
		}
	}
	if (pred == &local)
		dt_sresult_free(&local);
	free(m);
	return ndiv;
}

void dt_model_view(const struct dt_contract *c, enum dt_fs fs, const struct dt_script *s,
		   struct dt_gen_view *v)
{
	struct m_state *m = malloc(sizeof(*m));
	struct dt_sresult pred;

	if (!m)
		abort();
	m_state_init(m, c, fs);
	dt_sresult_init(&pred, s->name, s->nops);
	for (int i = 0; i < s->nops && !m->cut; i++) {
		const struct dt_op *op = &s->ops[i];
		char note[96];

		if (op->code == OP_PAR) {
			m_run_par(m, op, NULL, &pred.ops[i], 1, note, sizeof(note));
		} else {
			struct out w = {&pred.ops[i], 0};

			m_step(m, op, &w);
		}
	}
	for (int d = 0; d < DT_MAX_FDS; d++) {
		int k = m->slot[d];
		int open = k >= 0 && m->fd[k].state == 1;

		v->map_len[d] = m->map_len[d];
		v->size[d] = open ? m->ino[m->fd[k].ino].size : -1;
		v->rdonly[d] = open && m->fd[k].rdonly;
	}
	dt_sresult_free(&pred);
	free(m);
}
