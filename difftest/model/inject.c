// SPDX-License-Identifier: GPL-2.0
/*
 * The model's rules for the harness's error injection (difftest/doc/model.md, "Two
 * kinds of error injection"): the errseq_inject module's mapping_set_error() on a
 * file's or the block device's mapping ("error data", "error meta"), and the
 * dm error target over a file's extents or the raw device ("fail", "heal").
 */
#include <errno.h>

#include "internal.h"

/* error data fM|dN ERRNO */
void m_op_error_data(struct m_state *m, const struct dt_op *op, struct out *w)
{
	char obj[16];
	int i;

	if (op->file >= 0) {
		int r = m_lookup(m, op->file); /* the guest's stat() */

		if (r) {
			m_fail(w, -r);
			return;
		}
		i = m_inode_get(m, op->file);
		if (i < 0) {
			m_fail(w, EIO); /* the guest's stat() */
			return;
		}
	} else {
		struct m_fd *f = m_fd_open(m, op, w);

		if (!f)
			return;
		i = f->ino;
	}
	m_mapping_set_error(m, &m->ino[i].wb_err, &m->ino[i].as, m_host_sb_err(m, &m->ino[i]),
			    m_obj(m, i, obj, sizeof(obj)), w, op->err);
	m_put(w, 0, 0);
}

/* error meta ERRNO */
void m_op_error_meta(struct m_state *m, const struct dt_op *op, struct out *w)
{
	unsigned dummy = 0;

	/* a filesystem without a block device has no metadata buffers:
	 * the guest refuses the op (ENOTBLK) without asking the module */
	if (!m->fsr->has_bdev) {
		m_fail(w, ENOTBLK);
		return;
	}
	/* fs/buffer.c mark_buffer_write_io_error() on a metadata buffer:
	 * mapping_set_error(bdev mapping) (whose host's sb is the bdev
	 * pseudo-fs: not ours), then on 6.1 errseq_set(&bd_super->s_wb_err).
	 * 6.12 has no bd_super: it sets s_wb_err only for a buffer on an
	 * inode's b_assoc_map list (fs/buffer.c:1220), so a metadata block's
	 * failure never reaches the superblock (scenarios/meta.dt, scn.meta). */
	m_mapping_set_error(m, &M_BDEV(m).wb_err,
			    m->c.bug == BUG_NO_AS_FLAGS ? &dummy : &M_BDEV(m).as, NULL, "bdev", w,
			    op->err);
	if (m->c.bug != BUG_NO_SB_ERR && m->k->meta_sets_sb_err)
		errseq_set(&m->s_wb_err, -(m->c.bug == BUG_ENOSPC_AS_EIO && op->err == ENOSPC
					   ? EIO : op->err));
	if (m->fsr->meta_error)
		m->fsr->meta_error(m);
	m_put(w, 0, 0);
}

/* fail dN */
void m_op_fail(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct m_fd *f = m_fd_open(m, op, w);
	int r;
	struct m_inode *in;

	if (!f)
		return;
	in = &m->ino[f->ino];
	if (in->raw) {
		m_bdev_fail(m);
		m_put(w, 0, 0);
		return;
	}
	/* fs/ioctl.c ioctl_fiemap(): no ->fiemap (tmpfs, vfat, exfat):
	 * EOPNOTSUPP before anything is written back; the guest changes no table */
	if (m->fsr->no_fiemap) {
		m_fail(w, EOPNOTSUPP);
		return;
	}
	/* FIEMAP_FLAG_SYNC: fiemap_prep() runs filemap_write_and_wait()
	 * first, whose filemap_check_errors() returns (and clears) the
	 * file's AS_EIO/AS_ENOSPC: then the ioctl fails and the guest
	 * changes no table. Else the extents of [0, size) go to a dm
	 * error target. */
	m_writeback(m, f->ino, 0, MAX_PAGES - 1);
	r = m_filemap_check_errors(&in->as);
	if (r) {
		m_fail(w, -r);
		return;
	}
	in->fail_pages = (int)((in->size + PAGE - 1) / PAGE);
	m->dino[in->dino].fail_pages = in->fail_pages;
	m_put(w, 0, 0);
}

/* heal */
void m_op_heal(struct m_state *m, const struct dt_op *op, struct out *w)
{
	(void)op;
	for (int i = 0; i < MAX_INODES; i++)
		m->ino[i].fail_pages = 0;
	for (int d = 0; d < MAX_DINODES; d++)
		m->dino[d].fail_pages = 0;
	m->readfail = 0;
	m_put(w, 0, 0);
}

/*
 * failread: FIFREEZE and FITHAW (freeze_super()'s sync_filesystem(), whose
 * error fails the freeze and stops the op; ext4_freeze() checkpoints the
 * journal: no buffer of an inode block stays pinned), the evict op's steps,
 * then the dm error target over the blocks of every script file's inode (the
 * test directory's inode is held in memory until heal). Reading an evicted
 * inode in fails from now until heal (m_inode_get()).
 */
void m_op_failread(struct m_state *m, const struct dt_op *op, struct out *w)
{
	struct out nowhere = {NULL, 0};
	int r;

	/* the guest finds inode blocks only through ext2's and ext4's group
	 * descriptors: anywhere else it refuses, doing nothing */
	if (!m->fsr->itable) {
		m_fail(w, EOPNOTSUPP);
		return;
	}
	r = m_sync_filesystem(m, 0);
	if (r) {
		m_fail(w, -r);
		return;
	}
	m->readfail = 1; /* the guest holds the test directory first */
	m_op_evict(m, op, &nowhere);
	m_put(w, 0, 0);
}
