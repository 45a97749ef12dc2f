// SPDX-License-Identifier: GPL-2.0
/*
 * The model's rules for names (fs/namei.c): unlink, link, rename. A name
 * refers to an inode on disk; the last name's going frees its blocks, and the
 * inode with its unseen error when no one holds it open (vfs.c m_name_drop()).
 *
 * The test directory: its inode (m->tdir), which an error can be injected
 * into ("error data" on a descriptor of it, "open dN dir"), which leaves
 * memory at evict when nothing in it is open, and whose changes write it out
 * on ext2 (m_dir_change()): stock ext2 then fails a new name with an earlier
 * write-back's error and undoes it in memory while its entry is on disk (a
 * stale entry, m_lookup()).
 */
#include <errno.h>
#include <string.h>

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

/* the test directory's inode: made with the state, in memory while anything
 * in it is (m_tdir_evict()), never freed */
void m_tdir_init(struct m_state *m)
{
	struct m_inode *in = &m->ino[2];

	memset(in, 0, sizeof(*in));
	in->used = 1;
	in->dir = 1;
	in->dino = -1;
	in->label = -1;
	in->linked = 1;
	m->tdir = 2;
	for (int i = 0; i < DT_MAX_FILES; i++)
		m->stale_no[i] = -1;
}

/*
 * evict's drop_caches (and cycle's umount): unused dentries go, the
 * negative ones of stale names among them; the directory's dentry, pinned
 * by its children's, goes when no file in it is open (shrink_dentry_list()
 * kills a parent whose count drops to 0), nor the directory itself, nor held
 * by failread. Its inode goes with its mapping's error (stock), or the
 * patched record keeps an unseen one, errno and AS flags, for the inode read
 * in next (kernel-port 0004: any inode with a link, directories too).
 */
void m_tdir_evict(struct m_state *m)
{
	struct m_inode *in = &m->ino[m->tdir];
	errseq_t e = in->wb_err, fresh = 0;

	memset(m->stale_neg, 0, sizeof(m->stale_neg));
	if (m->readfail)
		return;
	for (int k = 0; k < DT_MAX_FDS; k++)
		if (m->fd[k].refs && !m->ino[m->fd[k].ino].bdev)
			return;
	if (m->c.keep_unseen && m->fsr->wb_err_record && (e & ERRSEQ_ERRNO_MASK) &&
	    !(e & ERRSEQ_SEEN_FLAG)) {
		errseq_set(&fresh, -(int)(e & ERRSEQ_ERRNO_MASK));
		in->wb_err = fresh;
		return;
	}
	in->wb_err = 0;
	in->as = 0;
}

/* the inode number ext2_new_inode() gives now: the lowest no inode holds */
int m_ino_no_free(const struct m_state *m)
{
	for (int n = 0;; n++) {
		int held = 0;

		for (int d = 0; d < MAX_DINODES && !held; d++)
			held = m->dino[d].used && m->dino[d].ino_no == n;
		if (!held)
			return n;
	}
}

/*
 * The lookup of name @file (fs/namei.c lookup_open(), ext2_lookup()): 0 when
 * m->name[@file] names an inode now, else -errno. A stale entry (an undone
 * change's, on disk) is negative while the dcache holds the name so
 * (ENOENT); read from disk, it names whatever inode has its number now (the
 * number ext2 freed goes to the next new inode), or none: ext2_iget() of a
 * freed inode is ESTALE, which ext2_lookup() turns into EIO after
 * ext2_error() (errors=continue: nothing else). No dentry stays after EIO.
 */
int m_lookup(struct m_state *m, int file)
{
	if (m->name[file] >= 0)
		return 0;
	if (m->stale_no[file] < 0 || m->stale_neg[file])
		return -ENOENT;
	for (int d = 0; d < MAX_DINODES; d++)
		if (m->dino[d].used && m->dino[d].ino_no == m->stale_no[file]) {
			m->name[file] = d;
			m->dino[d].nlink++;
			m->stale_no[file] = -1;
			return 0;
		}
	return -EIO;
}

/*
 * A change of the test directory (a new name): what its write-out returns
 * on ext2 (dir_pagecache), 0 or -errno. 6.1: ext2_commit_chunk() under
 * IS_DIRSYNC, write_one_page() -> filemap_check_errors(); 6.12:
 * ext2_handle_dirsync() after every change, filemap_write_and_wait() ->
 * filemap_check_errors(). The directory's own pages do not fail here (no
 * "fail" of a directory): only an AS flag an earlier write-back left
 * ("error data" on the directory) does, once. Patched (dir_own, kernel-port
 * 0012): ext2_prepare_chunk() clears the flags first, under the same
 * condition. Other filesystems keep directories elsewhere: 0.
 */
int m_dir_change(struct m_state *m)
{
	struct m_inode *in = &m->ino[m->tdir];

	if (!m->fsr->dir_pagecache || (!m->tdirsync && !m->k->ext2_dir_write_always))
		return 0;
	if (m->c.dir_own) {
		in->as = 0;
		return 0;
	}
	return m_filemap_check_errors(&in->as);
}

/*
 * dirsync: the guest's FS_IOC_GETFLAGS, then FS_IOC_SETFLAGS with
 * FS_DIRSYNC_FL, of the test directory (chattr +D). fs/ioctl.c: no
 * ->fileattr_get falls through to ->unlocked_ioctl, which knows neither
 * (ENOTTY); ioctl_setflags(): mnt_want_write_file() (EROFS), then
 * ->fileattr_set (xfs refuses the flag: EOPNOTSUPP).
 */
void m_op_dirsync(struct m_state *m, const struct dt_op *op, struct out *w)
{
	(void)op;
	if (m->fsr->dirsync_err == ENOTTY) {
		m_fail(w, ENOTTY);
		return;
	}
	if (m->rdonly) {
		m_fail(w, EROFS);
		return;
	}
	if (m->fsr->dirsync_err) {
		m_fail(w, m->fsr->dirsync_err);
		return;
	}
	m->tdirsync = 1;
	m_put(w, 0, 0);
}
