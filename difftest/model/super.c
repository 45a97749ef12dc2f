// SPDX-License-Identifier: GPL-2.0
/*
 * The model's rules for the whole filesystem (fs/super.c, fs/sync.c,
 * fs/drop_caches.c): sync(2), the eviction of unused inodes, umount and
 * mount, remount.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

/* remount ro|rw */
void m_op_remount(struct m_state *m, const struct dt_op *op, struct out *w)
{
	int ro = !!(op->flags & REMOUNT_RO), r;

	/* fs/super.c reconfigure_super(): shrink_dcache_sb() first, every
	 * remount: unused dentries go, a stale name's negative one too (its
	 * inodes stay cached) */
	memset(m->stale_neg, 0, sizeof(m->stale_neg));
	/* going read-only,
	 * sb_prepare_remount_readonly() refuses while a file is open for
	 * writing or an unlinked inode is still open (EBUSY); then the
	 * filesystem's reconfigure, on every remount (m->fsr->remount:
	 * its sync_filesystem() and whether its error fails it;
	 * recordings/6.1/vfat/remount-rw-stock: vfat syncs on "remount rw") */
	if (ro && !m->rdonly) {
		/* (a descriptor of the raw device is on devtmpfs's mount) */
		for (int k = 0; k < DT_MAX_FDS; k++)
			if (m->fd[k].refs && !m->fd[k].rdonly && !m->ino[m->fd[k].ino].bdev) {
				m_fail(w, EBUSY);
				return;
			}
		for (int i = 0; i < MAX_INODES; i++)
			if (m->ino[i].used && !m->ino[i].linked) {
				m_fail(w, EBUSY);
				return;
			}
	}
	r = m->fsr->remount ? m->fsr->remount(m, ro) : 0;
	if (r) {
		m_fail(w, -r);
		return;
	}
	m->rdonly = ro;
	m_put(w, 0, 0);
}

/* cycle: umount, then mount again */
void m_op_cycle(struct m_state *m, const struct dt_op *op, struct out *w)
{
	errseq_t since = 0;

	(void)op;
	/* umount: fs/super.c generic_shutdown_super(): sync_filesystem()
	 * (its result dropped), evict_inodes(): every inode goes, with its
	 * wb_err and flags (the patched record of evicted errors is freed
	 * with the superblock, kernel-port 0004) */
	m_writeback_all(m);
	if (m->fsr->sync_fs)
		m->fsr->sync_fs(m);
	for (int i = 0; i < MAX_INODES; i++)
		if (m->ino[i].used && !m->ino[i].bdev && !m->ino[i].dir)
			m_inode_drop(m, i);
	/* the directory's inode and the dentries go too; its flags stay on
	 * disk (dirsync) */
	memset(m->stale_neg, 0, sizeof(m->stale_neg));
	m->ino[m->tdir].wb_err = 0;
	m->ino[m->tdir].as = 0;
	if (m->fsr->no_disk) { /* tmpfs: the files went with the superblock */
		for (int fl = 0; fl < DT_MAX_FILES; fl++)
			m->name[fl] = -1;
		memset(m->dino, 0, sizeof(m->dino));
	}
	/* kill_block_super() -> blkdev_put(): the last opener's
	 * blkdev_flush_mapping() -> sync_blockdev(): the bdev's AS flags
	 * are cleared, the result dropped; its wb_err stays with the device */
	M_BDEV(m).as = 0;
	/* mount: a new super_block (alloc_super(): s_wb_err 0), read-write */
	m->s_wb_err = 0;
	m->rdonly = 0;
	/* the new journal samples the device's error (6.12 journal_init_common()
	 * -> jbd2_init_fs_dev_write_error()): no abort for an older one */
	m->ext4_ro_meta_err = 0;
	/* patched (mount_forgets, 0008): set_bdev_super() ->
	 * bdev_forget_wb_err(): errseq_check_and_advance() from 0 marks an
	 * unseen error seen; filemap_check_errors() clears the flags */
	if (m->fsr->has_bdev && m->c.mount_forgets) {
		errseq_check_and_advance(&M_BDEV(m).wb_err, &since);
		M_BDEV(m).as = 0;
	}
	if (m->fsr->mount)
		m->fsr->mount(m);
	m_put(w, 0, 0);
}

/* evict: sync(2), then drop_caches=3 */
void m_op_evict(struct m_state *m, const struct dt_op *op, struct out *w)
{
	(void)op;
	/* sync(); drop_caches=3: every unused inode goes (evict()),
	 * its mapping with its wb_err and flags. The patched kernel
	 * (kernel-port 0004) first keeps an unseen error in the
	 * superblock's record: inode_keep_wb_err() stores its errno and
	 * AS_EIO/AS_ENOSPC, and inode_restore_wb_err() gives them to the
	 * inode read in next for the file, errseq_set() on its fresh
	 * word: the counter starts again from 0. The model keeps the
	 * inode with that word and the size on disk (what the inode
	 * read in has: recordings/6.1/xfs/fallocate-grow-eio-evict-*);
	 * nothing else of it is observable. */
	m_writeback_all(m);
	if (m->fsr->sync_fs)
		m->fsr->sync_fs(m); /* sync(2): sync_fs_one_sb(), result ignored */
	/* the second sync(2) (and POSIX_FADV_DONTNEED) writes home what the
	 * first one's commit tagged (data=journal: ext4_commit()) */
	m_writeback_all(m);
	/* sync(2)'s sync_bdevs(); drop_caches also runs over the bdev
	 * pseudo-filesystem: the raw device's clean pages go (the guest
	 * also fadvises it), its inode stays */
	m_bdev_sync(m);
	memcpy(m->ino[m->raw].cached, m->ino[m->raw].dirty, sizeof(m->ino[m->raw].cached));
	/* tmpfs: drop_caches frees none of its pages or inodes (each
	 * inode is pinned by its dentry, mm/shmem.c shmem_mknod() dget()) */
	if (m->fsr->pins_inodes) {
		m_put(w, 0, 0);
		return;
	}
	/* the dentries, then the test directory when nothing in it is open */
	m_tdir_evict(m);
	/* drop_caches 1: clean pages of every inode leave the page cache */
	for (int i = 0; i < MAX_INODES; i++)
		memcpy(m->ino[i].cached, m->ino[i].dirty, sizeof(m->ino[i].cached));
	for (int i = 0; i < MAX_INODES; i++) {
		errseq_t e;

		if (!m->ino[i].used || m->ino[i].nopen || m->ino[i].bdev || m->ino[i].dir)
			continue;
		e = m->ino[i].wb_err;
		if (m->c.keep_unseen && m->fsr->wb_err_record && (e & ERRSEQ_ERRNO_MASK) &&
		    !(e & ERRSEQ_SEEN_FLAG)) {
			errseq_t fresh = 0;

			errseq_set(&fresh, -(int)(e & ERRSEQ_ERRNO_MASK));
			m->ino[i].wb_err = fresh;
			m->ino[i].size = m->ino[i].disk_isize = m->dino[m->ino[i].dino].size;
			m->ino[i].evicted = 1;
			continue;
		}
		m_inode_drop(m, i);
	}
	m_put(w, 0, 0);
}

/* sync */
void m_op_sync(struct m_state *m, const struct dt_op *op, struct out *w)
{
	(void)op;
	/* ksys_sync(): writeback and wait with *_keep_errors: no reader;
	 * but each ->sync_fs(sb, 1) runs (sync_fs_one_sb(), its result
	 * ignored), and exfat's consumes the bdev AS flags */
	m_writeback_all(m);
	if (m->fsr->sync_fs)
		m->fsr->sync_fs(m);
	m_bdev_sync(m); /* sync_bdevs() */
	m_put(w, 0, 0);
}
