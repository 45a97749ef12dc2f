// SPDX-License-Identifier: GPL-2.0
/*
 * "par" lines: two ops at once in two threads. The outcomes the model allows
 * are the two serial orders plus the races the kernel really has
 * (difftest/doc/model.md, "The model", par).
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"


/* the most outcomes of a par line: two orders, two races, a split O_SYNC write's end
 * and page boundaries (past them, outcomes are left out: a false divergence, never a
 * kernel's result passed that no outcome has) */
#define PAR_MAX 24

/*
 * Outcome @t of an O_SYNC write (sub-op @wi, on struct file @ks) split after its
 * first @a bytes: the copy of those, the other op, the copy of the rest, then the
 * write's sync of every page it wrote. 0: not an outcome (a copy fell short, or
 * the other op closed the struct file: the write holds it, as the serial order).
 */
static int par_split_write(const struct m_state *m, struct m_state *t, struct dt_opres *res,
			   const struct dt_op *op, int wi, int ks, long long a)
{
	struct dt_op part = op->sub[wi];
	struct out ww = {res, wi}, wo = {res, !wi};
	long long start = m->fd[ks].pos, len = part.len, end;
	struct m_fd *f;
	int r;

	*t = *m;
	memset(res, 0, sizeof(*res));
	t->fd[ks].osync = 0;
	part.len = a;
	m_step(t, &part, &ww);
	if (res->ret[wi] != a)
		return 0;
	m_step(t, &op->sub[!wi], &wo);
	if (t->fd[ks].state != 1)
		return 0;
	if (len > a) {
		part.len = len - a;
		m_step(t, &part, &ww);
		if (res->ret[wi] != len - a)
			return 0;
	}
	f = &t->fd[ks];
	f->osync = 1;
	end = f->pos;
	if (end != start + len)
		return 0;
	r = m_file_fsync(t, f, start / PAGE, (end - 1) / PAGE, &ww);
	if (r) {
		f->pos = start;
		m_fail(&ww, -r);
	} else {
		m_put(&ww, len, 0);
	}
	return 1;
}

/*
 * A "par" line: the outcomes the model allows are the two orders; for two
 * syncfs() on one struct file, the races of its two reporting channels; for
 * two fsyncs without md_locked, the split of the two cursors; for an O_SYNC
 * write, the write split around the other op (below); trace_equal_par()
 * admits a racing checker's no-op event.
 */
int m_run_par(struct m_state *m, const struct dt_op *op, const struct dt_opres *obs,
	      struct dt_opres *pred, int trace, char *note, size_t notelen)
{
	/* both threads on one struct file (one descriptor, or two that dup or
	 * fork made from one): one set of cursors */
	int k0 = op->sub[0].fd >= 0 ? m->slot[op->sub[0].fd] : -1;
	int one = k0 >= 0 && op->sub[1].fd >= 0 && k0 == m->slot[op->sub[1].fd] &&
		  m->fd[k0].state == 1;
	static struct m_state cand[PAR_MAX];
	static struct dt_opres res[PAR_MAX];
	int n = 0, best;

	for (int order = 0; order < 2; order++) {
		struct out w0, w1;

		cand[n] = *m;
		memset(&res[n], 0, sizeof(res[n]));
		w0.o = &res[n];
		w0.which = order;
		w1.o = &res[n];
		w1.which = !order;
		m_step(&cand[n], &op->sub[order], &w0);
		m_step(&cand[n], &op->sub[!order], &w1);
		n++;
	}
	/* (a block device's syncfs syncs devtmpfs: no channel at all) */
	if (op->sub[0].code == OP_SYNCFS && op->sub[1].code == OP_SYNCFS && one &&
	    !m->ino[m->fd[k0].ino].bdev) {
		/*
		 * syncfs() reports through two channels: sync_filesystem()'s
		 * test-and-clear of AS_EIO/AS_ENOSPC on the bdev mapping (one
		 * caller in the system gets it) and the f_sb_err cursor.  Racing,
		 * the flag can go to one thread and the cursor's report to the
		 * other, even with the cursor advanced under f_lock (0003): one
		 * metadata error, returned by both; syncfs_cursor_only (0018)
		 * takes the flags out of syncfs's result.  Unlocked (stock),
		 * both may also read the same f_sb_err and both report it.
		 */
		for (int first = 0; first < 2; first++) {
			struct m_state t = *m;
			struct m_fd *f = &t.fd[k0];
			int fl[2], r2[2];

			memset(&res[n], 0, sizeof(res[n]));
			fl[first] = m_sync_filesystem(&t, 1);
			fl[!first] = 0;
			r2[!first] = m_sb_errs(&t, f);
			/* locked: the other thread finds the cursor advanced */
			r2[first] = m->c.syncfs_locked ? 0 : r2[!first];
			for (int k = 0; k < 2; k++) {
				int r = fl[k] ? fl[k] : r2[k];

				res[n].ret[k] = r ? -1 : 0;
				res[n].err[k] = -r;
				res[n].done |= 1 << k;
			}
			cand[n] = t;
			n++;
		}
	}
	if (m->c.md_cursor && !m->c.md_locked &&
	    (op->sub[0].code == OP_FSYNC || op->sub[0].code == OP_FDATASYNC) &&
	    (op->sub[1].code == OP_FSYNC || op->sub[1].code == OP_FDATASYNC) &&
	    one) {
		/*
		 * Two fsyncs on one descriptor check two cursors, f_wb_err then
		 * f_md_wb_err, each advanced under its own hold of f_lock (the
		 * series before 0025, md_locked off): one thread can win the
		 * data cursor and the other the metadata cursor, so a data and
		 * a metadata error go one to each thread: one description told
		 * twice.  Modelled as the winner of the data cursor running
		 * without its metadata check.
		 */
		for (int first = 0; first < 2; first++) {
			struct out w0 = {&res[n], first}, w1 = {&res[n], !first};

			cand[n] = *m;
			memset(&res[n], 0, sizeof(res[n]));
			cand[n].c.md_cursor = 0;
			m_step(&cand[n], &op->sub[first], &w0);
			cand[n].c.md_cursor = 1;
			m_step(&cand[n], &op->sub[!first], &w1);
			n++;
		}
	}
	for (int wi = 0; wi < 2; wi++) {
		const struct dt_op *wop = &op->sub[wi], *other = &op->sub[!wi];
		int ks = wop->code == OP_WRITE && wop->fd >= 0 ? m->slot[wop->fd] : -1;
		long long start, a;

		if (ks < 0 || m->fd[ks].state != 1 || !m->fd[ks].osync || m->fd[ks].odirect ||
		    m->fd[ks].rdonly || wop->len <= 0)
			continue;
		/* a read or write of the same struct file waits for the whole
		 * write: fdget_pos() holds f_pos_lock through its sync */
		if ((other->code == OP_WRITE || other->code == OP_READ) && other->fd >= 0 &&
		    m->slot[other->fd] == ks)
			continue;
		/*
		 * An O_SYNC or O_DSYNC write is two steps: the copy into the page
		 * cache, page by page, then generic_write_sync() ->
		 * vfs_fsync_range() of what it wrote. The other thread can run
		 * after any page of the copy: its fsync writes the pages copied
		 * so far back and, on one struct file, takes the error the
		 * write's own sync would have reported; that sync then finds
		 * those pages clean and the cursor advanced, and reports only a
		 * failure of the pages after them (a new error): the write
		 * returns its length when there is none
		 * (recordings/6.1/ext2/par-osync-write-patched). Each page
		 * boundary of the write, and its end, is one outcome.
		 */
		if (n < PAR_MAX && par_split_write(m, &cand[n], &res[n], op, wi, ks, wop->len))
			n++;
		/* inside the write only where the copy goes page by page with no
		 * lock the other op takes (a sync call; ext2, ext4, a block
		 * device; not btrfs, which copies a batch of pages under the
		 * inode lock its fsync takes, nor 6.12 xfs's one large folio) */
		if (!m->fsr->copy_by_page && !m->ino[m->fd[ks].ino].bdev)
			continue;
		if (other->code != OP_FSYNC && other->code != OP_FDATASYNC &&
		    other->code != OP_SFR && other->code != OP_SYNCFS && other->code != OP_SYNC)
			continue;
		start = m->fd[ks].pos;
		for (a = (start / PAGE + 1) * PAGE - start; a < wop->len && n < PAR_MAX; a += PAGE)
			if (par_split_write(m, &cand[n], &res[n], op, wi, ks, a))
				n++;
	}
	for (int k = 0; k < n; k++) {
		if (!obs || (m_opres_equal(&res[k], obs, 0) && m_opres_equal(&res[k], obs, 1) &&
			     (!trace || m_trace_equal_par(one, &res[k], obs)))) {
			*m = cand[k];
			*pred = res[k];
			return 0;
		}
	}
	/* show the outcome with the kernel's results, if one has them */
	for (best = 0; best < n && !(m_opres_equal(&res[best], obs, 0) &&
				      m_opres_equal(&res[best], obs, 1)); best++)
		;
	if (best < n)
		snprintf(note, notelen, " (the allowed outcome with the kernel's results, of %d; "
			 "only the trace differs)", n);
	else
		snprintf(note, notelen, " (the first of %d allowed outcomes; none has the kernel's "
			 "results)", n);
	best = best < n ? best : 0;
	*m = cand[best];
	*pred = res[best];
	return 1;
}

