// SPDX-License-Identifier: GPL-2.0
/*
 * The model's rules for shared mappings (mm/mmap.c, mm/memory.c, mm/msync.c):
 * mmap, stores through the mapping, msync, munmap. A store dirties pages and
 * reads no error; msync(MS_SYNC) is the filesystem's fsync of the mapped range.
 */
#include <errno.h>

#include "internal.h"

/* mmap dN */
void m_op_mmap(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct m_fd *f = m_fd_open(m, op, w);

	/* mm/mmap.c ksys_mmap_pgoff() -> do_mmap(): EBADF, then a length of
	 * 0 (the file's size) EINVAL, then PROT_WRITE|MAP_SHARED on a file
	 * not open for writing EACCES */
	if (!f)
		return;
	if (!m->ino[f->ino].size) {
		m_fail(w, EINVAL);
		return;
	}
	if (f->rdonly) {
		m_fail(w, EACCES);
		return;
	}
	m->map_len[op->fd] = (m->ino[f->ino].size + PAGE - 1) / PAGE * PAGE;
	m_put(w, 0, 0);
}

/* mwrite dN OFF LEN */
void m_op_mwrite(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct m_fd *f;
	struct m_inode *in;
	long long eof;

	/* stores through the mapping: each page faults in (read if not
	 * cached; page_mkwrite reads no error) and becomes dirty. A page
	 * past the one holding the current size is SIGBUS (the guest
	 * catches it: EFAULT); the harness refuses a mapping it does not
	 * have (EINVAL) or a store past its length (ERANGE) */
	if (!m->map_len[op->fd]) {
		m_fail(w, EINVAL);
		return;
	}
	if (op->off + op->len > m->map_len[op->fd]) {
		m_fail(w, ERANGE);
		return;
	}
	f = m_fd_of(m, op);
	in = &m->ino[f->ino];
	eof = (in->size + PAGE - 1) / PAGE;
	for (long long p = op->off / PAGE; p <= (op->off + op->len - 1) / PAGE; p++) {
		uint64_t bit = 1ULL << (p % 64);

		if (p >= eof) {
			m_fail(w, EFAULT);
			return;
		}
		in->dirty[p / 64] |= bit;
		/* data=journal: ext4_page_mkwrite() journals the page and the
		 * fault tags it dirty at once (ext4_journalled_dirty_folio()) */
		if (m->fsr->journal_data) {
			in->jpend[p / 64] |= bit;
			in->jtag[p / 64] |= bit;
		}
		in->cached[p / 64] |= bit;
	}
	m_put(w, 0, 0);
}

/* msync dN sync|async */
void m_op_msync(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct m_fd *f;
	int r;

	/* mm/msync.c: MS_ASYNC does nothing; MS_SYNC runs vfs_fsync_range()
	 * of the mapped range, datasync, on the mapping's file: the
	 * filesystem's fsync and its cursors */
	if (!m->map_len[op->fd]) {
		m_fail(w, EINVAL);
		return;
	}
	f = m_fd_of(m, op);
	r = op->flags & MSYNC_SYNC ? m_file_fsync(m, f, 0, m->map_len[op->fd] / PAGE - 1, w) : 0;
	m_put(w, r ? -1 : 0, -r);
}

/* munmap dN */
void m_op_munmap(struct m_state *m, const struct dt_op *op, struct out *w)
{
	/* no error; the dirty pages stay in the page cache */
	if (!m->map_len[op->fd]) {
		m_fail(w, EINVAL);
		return;
	}
	m->map_len[op->fd] = 0;
	m_put(w, 0, 0);
}
