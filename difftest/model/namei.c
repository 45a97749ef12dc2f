// SPDX-License-Identifier: GPL-2.0
/*
 * The model's rules for names (fs/namei.c): unlink, link, rename. A name
 * refers to an inode on disk; the last name's going frees its blocks, and the
 * inode with its unseen error when no one holds it open (vfs.c m_name_drop()).
 */
#include <errno.h>

#include "internal.h"

/* unlink fM */
void m_op_unlink(struct m_state *m, const struct dt_op *op, struct out *w)
{
	if (m->rdonly) {
		m_fail(w, EROFS); /* do_unlinkat(): mnt_want_write() before the lookup */
		return;
	}
	if (m->name[op->file] < 0) {
		m_fail(w, ENOENT);
		return;
	}
	m_name_drop(m, op->file);
	m_put(w, 0, 0);
}

/* link fM fN */
void m_op_link(struct m_state *m, const struct dt_op *op, struct out *w)
{
	/* fs/namei.c do_linkat() -> vfs_link(): a second name for the inode */
	if (m->name[op->file] < 0) {
		m_fail(w, ENOENT);
		return;
	}
	if (m->name[op->file2] >= 0) {
		m_fail(w, EEXIST);
		return;
	}
	if (m->rdonly) {
		m_fail(w, EROFS); /* filename_create(): after the lookups */
		return;
	}
	if (m->fsr->no_link) {
		m_fail(w, EPERM); /* vfs_link(): no ->link */
		return;
	}
	m->name[op->file2] = m->name[op->file];
	m->dino[m->name[op->file]].nlink++;
	m_put(w, 0, 0);
}

/* rename fM fN */
void m_op_rename(struct m_state *m, const struct dt_op *op, struct out *w)
{
	/* fs/namei.c do_renameat2() -> vfs_rename(): the new name refers to
	 * the inode, the old one goes; a target that was another inode
	 * loses that name (its error goes with it when nothing else holds
	 * it; syncfs still has it in s_wb_err). Two names of one inode:
	 * nothing happens (vfs_rename(): source == target) */
	if (m->rdonly) {
		m_fail(w, EROFS); /* do_renameat2(): mnt_want_write() first */
		return;
	}
	if (m->name[op->file] < 0) {
		m_fail(w, ENOENT);
		return;
	}
	if (m->name[op->file] != m->name[op->file2]) {
		if (m->name[op->file2] >= 0)
			m_name_drop(m, op->file2);
		m->name[op->file2] = m->name[op->file];
		m->name[op->file] = -1;
	}
	m_put(w, 0, 0);
}
