/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model's inside, shared by its files:
 *
 *   step.c       the model's step: one rule per script op, named in a table; the
 *                rules live in the files of the layers they model:
 *   vfs.c        the kernel objects and the generic VFS / page-cache rules
 *                (mm/filemap.c, fs/libfs.c, fs/sync.c, fs/open.c); the file syscalls
 *   mmap.c, namei.c, super.c, inject.c
 *                shared mappings; names; the whole filesystem (sync, evict, umount
 *                and mount, remount); the harness's error injection
 *   fs.c         the filesystem table: enum dt_fs -> struct dt_fs_rules
 *   fs-ext2.c, fs-ext4.c, fs-fat.c (vfat, exfat), fs-tmpfs.c
 *                each filesystem's own rules (its ->fsync, ->sync_fs, what it does
 *                when a metadata buffer fails)
 *   line.c       what differs between kernel lines (6.1, 6.12), as named switches
 *   contract.c   the contract switches (stock vs patched) and the planted bugs
 *   par.c        "par" lines: the two orders and the races the kernel really has
 *   compare.c    the comparison with the guest's results (dt_model_run)
 *
 * Adding a filesystem is a file with its struct dt_fs_rules and an entry in
 * fs.c's table (and enum dt_fs in model.h).
 */
#ifndef DIFFTEST_MODEL_INTERNAL_H
#define DIFFTEST_MODEL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

#define AS_EIO 1u
#define AS_ENOSPC 2u
#define MAX_INODES 64
#define MAX_DINODES 32
#define PAGE 4096
#define MAX_PAGES ((int)(DT_MAX_FILE_SIZE / PAGE)) /* the parser keeps writes within */

/* An inode on disk: what names refer to (link, rename). */
struct m_dinode {
	int used;
	int nlink;      /* names referring to it */
	int label;      /* the name it was created under */
	int mem;        /* its in-memory inode, or -1 */
	long long size;
	int fail_pages; /* pages of its blocks under the dm error target */
	int ino_no;     /* its inode number, as ext2 gives them: the lowest free one
			   (ext2_new_inode(): find_next_zero_bit() from 0 in the
			   parent's group), counted from 0 */
};

/* An inode in memory (struct inode and its address_space). */
struct m_inode {
	int used;
	int dino;       /* its inode on disk */
	int label;      /* trace object fN: the name it was created under, or (inode
			   numbers not stable: vfat, exfat) read in through */
	int linked;     /* has a name */
	int nopen;
	errseq_t wb_err;
	unsigned as;    /* AS_EIO / AS_ENOSPC in mapping->flags */
	long long size;
	long long disk_isize; /* the size written back (xfs i_disk_size, btrfs disk_i_size):
				 raised by writeback of the pages below the size */
	int size_unlogged;    /* xfs: a grow whose write-out failed left the size on disk
				 at disk_isize, raised by write-back up to the size */
	int fail_pages; /* pages [0, fail_pages) sit on a dm error target (copy of disk_fail) */
	uint64_t dirty[MAX_PAGES / 64]; /* dirty page-cache pages */
	uint64_t jpend[MAX_PAGES / 64]; /* data=journal: pages journaled since the last
					   commit (the page cache not tagged dirty) */
	uint64_t jtag[MAX_PAGES / 64];  /* data=journal: pages a commit tagged dirty for
					   their checkpoint, until written home */
	uint64_t cached[MAX_PAGES / 64];/* pages in the page cache (uptodate) */
	int bdev;       /* a block device's inode (model/bdev.c): no name, never evicted,
			   not one of the filesystem's files */
	int raw;        /* ... the raw block device's (m->raw), else the filesystem's (m->dev) */
	int dir;        /* the test directory's (m->tdir): no name, no pages, no disk
			   inode of the model's (it is never freed); its trace
			   object is "dir" */
	int evicted;    /* the kernel evicted it: the model keeps the patched kernel's record
			   of its unseen error here (keep_unseen), read in at the next iget */
};

/* the filesystem's block device's mapping: sb->s_bdev->bd_inode->i_mapping */
#define M_BDEV(m) ((m)->ino[(m)->dev])

/* An open file description (struct file); descriptors name one through m_state.slot. */
struct m_fd {
	int state;      /* 0 closed, 1 open */
	int refs;       /* descriptors naming it (dup, fork share one) */
	int ino;
	int rdonly;
	int osync;      /* O_SYNC or O_DSYNC: each write ends in vfs_fsync_range() */
	int odirect;    /* O_DIRECT: writes go through the filesystem's dio_write */
	long long pos;
	errseq_t f_wb_err, f_sb_err, f_md_wb_err, f_sb_bdev_err;
};

struct dt_fs_rules;
struct dt_line_rules;

struct m_state {
	enum dt_fs fs;
	const struct dt_fs_rules *fsr;
	const struct dt_line_rules *k;
	struct dt_contract c;
	int rdonly;                 /* mounted read-only (remount ro) */
	int wb_failed;              /* the current op wrote back a page over a failed
				       extent: WB_FAILED_FILE (its "set fN" events are
				       the I/O's), WB_FAILED_RAW ("set raw") */
	int raw;                    /* the raw block device's inode in ino[] */
	int cut;                    /* the kernel left what the model follows (a per-line
				       rule): the ops after this one are not compared */
	int name[DT_MAX_FILES];     /* fN -> its inode on disk, -1: no such name */
	struct m_dinode dino[MAX_DINODES];
	struct m_inode ino[MAX_INODES];
	struct m_fd fd[DT_MAX_FDS]; /* open file descriptions */
	int slot[DT_MAX_FDS];       /* descriptor dN -> its description, -1: none (never
				       opened, closed, or its open failed: EBADF) */
	struct m_fd none;           /* what a descriptor without one reads: closed */
	long long map_len[DT_MAX_FDS]; /* dN's shared mapping (mmap .. munmap), 0: none */
	errseq_t s_wb_err;          /* sb->s_wb_err */
	int dev;                    /* the filesystem's block device's inode in ino[]: its
				       wb_err and as are sb->s_bdev->bd_inode->i_mapping's
				       (M_BDEV()), and "open dN dev" opens it */
	errseq_t ext4_bdev_cursor;  /* EXT4_SB(sb)->s_bdev_wb_err */
	int ext4_ro_meta_err;       /* 6.12 ext4: a metadata error recorded while read-only,
				       which the journal has not seen (no journal access) */
	int readfail;               /* failread until heal: reading an inode in fails EIO */
	int tdir;                   /* the test directory's inode in ino[] (namei.c) */
	int tdirsync;               /* "dirsync" set FS_DIRSYNC_FL on it (on disk: it stays) */
	int stale_no[DT_MAX_FILES]; /* fN has no name (name[] -1) but an entry on disk that
				       names this inode number (a change ext2 undid after
				       writing it, namei.c); -1: none */
	unsigned char stale_neg[DT_MAX_FILES]; /* ... and the dcache holds fN negative
						  (until evict or cycle) */
};

#define WB_FAILED_FILE 1
#define WB_FAILED_RAW 2

/* Where an op's predicted results go (NULL: nowhere). */
struct out {
	struct dt_opres *o;
	int which;
};

/*
 * A filesystem's own rules. The generic ones (vfs.c) apply where a hook is
 * NULL or a flag is 0.
 */
struct dt_fs_rules {
	const char *name;               /* the --fs name */
	unsigned has_bdev : 1;          /* sb->s_bdev set: "error meta", sync_blockdev(),
					   the patched md cursors; tmpfs and btrfs (an
					   anonymous superblock device) have none */
	unsigned no_disk : 1;           /* files live in memory only (tmpfs): umount
					   takes them with the superblock */
	unsigned pins_inodes : 1;       /* drop_caches frees none of its inodes (tmpfs:
					   every inode is pinned by its dentry) */
	unsigned stable_ino : 1;        /* an inode keeps its number when read in again (not
					   vfat, exfat: iunique()); the guest labels a number
					   when it first sees it */
	unsigned no_link : 1;           /* no ->link (vfat, exfat): link(2) fails EPERM */
	unsigned no_fiemap : 1;         /* no ->fiemap (tmpfs, vfat, exfat): FS_IOC_FIEMAP
					   fails EOPNOTSUPP (fs/ioctl.c ioctl_fiemap()) */
	unsigned journal_data : 1;      /* ext4 data=journal: write() journals the data
					   buffers (write_end_fn(): ext4_handle_dirty_metadata())
					   and never tags the page cache dirty */
	unsigned copy_by_page : 1;      /* a buffered write copies page by page, each page
					   dirty at once, and ->fsync reports without a lock
					   the writer holds (ext2, ext4): a concurrent fsync
					   can take part of an O_SYNC write (par.c) */
	unsigned itable : 1;            /* the guest finds a file's inode block (ext2, ext4:
					   the group descriptors' inode tables): failread */
	unsigned dir_pagecache : 1;     /* a directory's blocks are written through its
					   own page cache (ext2: fs/ext2/dir.c); the others
					   keep them in the block device's buffers (ext4,
					   vfat, exfat), in xfs_bufs or btrfs's tree, or
					   nowhere (tmpfs): an error of the directory's
					   mapping ("error data" on its descriptor) is
					   then not a failed write of its blocks */
	int dirsync_err;                /* "dirsync" (FS_IOC_GETFLAGS, then SETFLAGS with
					   FS_DIRSYNC_FL): 0 (ext2, ext4, btrfs),
					   EOPNOTSUPP (xfs_fileattr_set()), ENOTTY (no
					   ->fileattr_get: vfat, exfat, tmpfs without
					   CONFIG_TMPFS_XATTR; GETFLAGS fails first) */
	unsigned wb_err_record : 1;     /* FS_WB_ERR_RECORD (kernel-port 0004): the patched
					   kernel keeps an evicted inode's unseen error
					   (keep_unseen) only where inode number and
					   i_generation name one file: ext2, ext4, xfs,
					   btrfs (per subvolume); not FAT or exfat
					   (iunique() numbers) */
	/* ->fsync (fsync and fdatasync alike here) of pages [first, last]: fsync(2)
	 * asks for all, an O_SYNC write for those it wrote; returns 0 or -errno */
	int (*fsync)(struct m_state *m, struct m_fd *f, long long first, long long last,
		     struct out *w);
	/* a directory's ->fsync where it is not the file's (xfs_dir_fsync()): 0 or
	 * -errno; NULL: ->fsync (ext2, ext4, vfat, exfat, btrfs, tmpfs) */
	int (*dir_fsync)(struct m_state *m, struct m_fd *f, struct out *w);
	/* ->sync_fs(sb, 1): within sync_filesystem() (syncfs; its error is
	 * returned first: sync_filesystem() stops there), and within sync(2)
	 * (sync_fs_one_sb(), result ignored: "sync" and "evict"); NULL: none */
	int (*sync_fs)(struct m_state *m);
	/* a write through an O_DIRECT descriptor (len > 0): bytes written or
	 * -errno; NULL: O_DIRECT cannot be opened (EINVAL) */
	long long (*dio_write)(struct m_state *m, struct m_fd *f, long long len, struct out *w);
	/* a read through an O_DIRECT descriptor (len > 0): bytes or -errno */
	long long (*dio_read)(struct m_state *m, struct m_fd *f, long long len);
	/* ftruncate's ->setattr(ATTR_SIZE) where it can fail (xfs, btrfs): returns 0
	 * or -errno and changes the size itself (m_truncate()); NULL: never fails */
	int (*setsize)(struct m_state *m, struct m_fd *f, long long size, struct out *w);
	/* ->fallocate (after vfs_fallocate()'s checks); NULL: none (EOPNOTSUPP) */
	int (*fallocate)(struct m_state *m, struct m_fd *f, unsigned mode, long long off,
			 long long len, struct out *w);
	/* a remount's reconfigure (@ro: the mode asked; m->rdonly is still the
	 * mode it was in): 0 or the error that fails it; NULL: nothing is
	 * synced (tmpfs) */
	int (*remount)(struct m_state *m, int ro);
	/* at mount, after the generic set-up: the filesystem's own readers of
	 * the bdev error (ext4 samples it); NULL: none */
	void (*mount)(struct m_state *m);
	/* right after a metadata buffer's write failed ("error meta"): the
	 * filesystem's own readers of the bdev error (ext4), NULL: none */
	void (*meta_error)(struct m_state *m);
};

extern const struct dt_fs_rules dt_fs_ext2, dt_fs_ext4_ordered, dt_fs_ext4_journal, dt_fs_vfat,
	dt_fs_exfat, dt_fs_xfs, dt_fs_btrfs, dt_fs_tmpfs;
const struct dt_fs_rules *dt_fs_rules_of(enum dt_fs fs);

/*
 * What differs between kernel lines, each a named fact with the source line
 * it follows (line.c); the model asks these, never the line's number.
 */
struct dt_line_rules {
	const char *name;
	/* mark_buffer_write_io_error() also sets bd_super->s_wb_err (6.1;
	 * 6.12 has no bd_super: only for a buffer on an inode's b_assoc_map) */
	unsigned meta_sets_sb_err : 1;
	/* jbd2_journal_get_write_access() aborts the journal on a bdev write
	 * error (6.12); on 6.1 ext4_check_bdev_write_error() marks it seen */
	unsigned jbd2_aborts_on_bdev_err : 1;
	/* vfs_fallocate() takes the modes as exclusive (6.12): COLLAPSE or
	 * INSERT with KEEP_SIZE, or two modes at once, are EOPNOTSUPP; 6.1
	 * checks flag by flag (collapse or insert with another flag: EINVAL) */
	unsigned falloc_modes_exclusive : 1;
	/* ext4 punch hole and zero range write back only under data=journal,
	 * the range, after the size check (6.12); 6.1 punch hole wrote back
	 * the range whenever the file had a dirty page, zero range never */
	unsigned ext4_punch_journal_only : 1;
	/* tmpfs opens O_DIRECT (6.12: shmem_file_open() sets FMODE_CAN_ODIRECT;
	 * its writes stay buffered); 6.1: no ->direct_IO, EINVAL */
	unsigned shmem_odirect : 1;
	/* an iomap O_DIRECT write (ext2 uses iomap since 6.7, ext4, xfs) whose
	 * page-cache write-out fails falls back to a buffered write (ENOTBLK):
	 * the AS flag is consumed unreported (6.12); 6.1 returned its error */
	unsigned iomap_dio_write_fallback : 1;
	/* exfat checks an O_DIRECT write's alignment first (exfat_file_write_iter())
	 * and writes past the size directly (6.12); 6.1 fell back to buffered */
	unsigned exfat_dio_align_first : 1;
	/* xfs checks a collapse's alignment and range before any write-out
	 * (6.12 xfs_falloc_collapse_range()); 6.1's xfs_file_fallocate()
	 * flushed the range first (xfs_flush_unmap_range()) */
	unsigned xfs_collapse_checks_first : 1;
	/* xfs_setattr_size() writes back and waits on the page at the new size
	 * before shrinking or keeping it (6.1 fs/xfs/xfs_iops.c:850); 6.12 does
	 * not (its only wait is the one after, fs/xfs/xfs_iops.c:910) */
	unsigned xfs_shrink_waits : 1;
	/* ext2 reads and writes O_DIRECT through iomap (ext2_dio_read_iter(),
	 * ext2_dio_write_iter(), 6.12): a read at or past the end of the file
	 * does nothing, not even the write-out; 6.1: blockdev_direct_IO() after
	 * generic_file_read_iter()'s write-out */
	unsigned ext2_iomap_dio : 1;
	/* every change of an ext2 directory writes its pages out and waits
	 * (fs/ext2/dir.c ext2_handle_dirsync(), 6.12: filemap_write_and_wait()
	 * whatever IS_DIRSYNC says); 6.1's ext2_commit_chunk() only under
	 * IS_DIRSYNC (write_one_page()) */
	unsigned ext2_dir_write_always : 1;
};
const struct dt_line_rules *dt_line_rules_of(enum dt_line l);

/* the raw block device (model/bdev.c) */
void m_bdev_init(struct m_state *m);
void m_bdev_open(struct m_state *m, const struct dt_op *op, struct out *w);
long long m_bdev_write(struct m_state *m, struct m_fd *f, long long len);
long long m_bdev_read(struct m_state *m, struct m_fd *f, long long len);
int m_bdev_fsync(struct m_state *m, struct m_fd *f, long long first, long long last,
		 struct out *w);
void m_bdev_last_close(struct m_state *m);
void m_bdev_fail(struct m_state *m);
void m_bdev_sync(struct m_state *m);

/* step.c: the rule of each op */
struct m_rule {
	/* run @op: its result and trace events through @w */
	void (*step)(struct m_state *m, const struct dt_op *op, struct out *w);
	/* @op writes dirty pages back, where a real failure's "set" events are
	 * the I/O's and not compared (compare.c); NULL: never */
	int (*writes_back)(const struct dt_op *op);
};
void m_step(struct m_state *m, const struct dt_op *op, struct out *w);
int m_writes_back(const struct dt_op *op);

/* the rules (step.c names them in its table) */
/* vfs.c */
void m_op_fsyncdir(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_open(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_write(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_read(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_ftruncate(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_fallocate(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_fsync(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_sfr(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_syncfs(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_close(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_dup(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_child(struct m_state *m, const struct dt_op *op, struct out *w);
/* mmap.c */
void m_op_mmap(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_mwrite(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_msync(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_munmap(struct m_state *m, const struct dt_op *op, struct out *w);
/* namei.c */
void m_op_unlink(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_link(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_rename(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_dirsync(struct m_state *m, const struct dt_op *op, struct out *w);
void m_tdir_init(struct m_state *m);
void m_tdir_evict(struct m_state *m);
int m_lookup(struct m_state *m, int file);
int m_dir_change(struct m_state *m);
int m_ino_no_free(const struct m_state *m);
/* super.c */
void m_op_sync(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_evict(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_cycle(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_remount(struct m_state *m, const struct dt_op *op, struct out *w);
/* inject.c */
void m_op_error_data(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_error_meta(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_fail(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_heal(struct m_state *m, const struct dt_op *op, struct out *w);
void m_op_failread(struct m_state *m, const struct dt_op *op, struct out *w);

/* vfs.c */
void m_state_init(struct m_state *m, const struct dt_contract *c, enum dt_fs fs);
void m_put(struct out *w, long ret, int err);
/* the op fails with @err (m_put(w, -1, err)); returns -1 */
long m_fail(struct out *w, int err);
/* @op's descriptor's open file description (a closed one, m->none, when it has none) */
struct m_fd *m_fd_of(struct m_state *m, const struct dt_op *op);
/* ... open: NULL when it has none, and the op fails with EBADF */
struct m_fd *m_fd_open(struct m_state *m, const struct dt_op *op, struct out *w);
/* iget: the in-memory inode of name @file, read in from disk if not in memory;
 * -1 when that read fails (failread) */
int m_inode_get(struct m_state *m, int file);
/* the inode leaves memory (evict()); its inode on disk stays while it has a name */
void m_inode_drop(struct m_state *m, int i);
/* name @file goes (unlink, or rename over it): the last name frees the blocks */
void m_name_drop(struct m_state *m, int file);
/* include/linux/pagemap.h mapping_set_error(), traced as @obj through @w */
void m_mapping_set_error(struct m_state *m, errseq_t *wb_err, unsigned *as,
			 errseq_t *host_sb_err, const char *obj, struct out *w, int err);
/* the s_wb_err a mapping's errors reach (NULL: the raw device's, not modelled) */
errseq_t *m_host_sb_err(struct m_state *m, const struct m_inode *in);
/* vfs_fsync_range() of pages [first, last]: the filesystem's ->fsync, or a
 * block device's blkdev_fsync() */
int m_file_fsync(struct m_state *m, struct m_fd *f, long long first, long long last,
		 struct out *w);
/* a new struct file for @op's descriptor on inode @ino (alloc_empty_file()): one
 * reference, open, with @op's open flags */
struct m_fd *m_fd_new(struct m_state *m, const struct dt_op *op, int ino);
/* the trace object of inode @i: "fN" (its label) or "raw" */
const char *m_obj(const struct m_state *m, int i, char *buf, size_t len);
void m_writeback(struct m_state *m, int i, long long first, long long last);
void m_writeback_all(struct m_state *m);
int m_filemap_check_errors(unsigned *as);
int m_file_check_and_advance_wb_err(struct m_state *m, struct m_fd *f, struct out *w);
int m_file_check_and_advance_md_wb_err(struct m_state *m, struct m_fd *f, struct out *w);
int m_generic_file_fsync(struct m_state *m, struct m_fd *f, long long first, long long last,
			 struct out *w);
int m_sb_errs(struct m_state *m, struct m_fd *f);
int m_sync_filesystem(struct m_state *m, int syncfs);
int m_remount_sync_ignored(struct m_state *m, int ro);
/* truncate_pagecache_range(): drop pages [first, last], dirty ones unwritten */
void m_drop_pages(struct m_inode *in, long long first, long long last);
/* the inode's size changed (the on-disk size follows while it has a name) */
void m_set_size(struct m_state *m, struct m_inode *in, long long size);
/* writes: the page cache (generic_perform_write()), the O_DIRECT pieces */
long long m_buffered_write(struct m_state *m, struct m_fd *f, long long len);
long long m_buffered_read(struct m_state *m, struct m_fd *f, long long len);
long long m_generic_dio_read(struct m_state *m, struct m_fd *f, long long len);
long long m_iomap_dio_read(struct m_state *m, struct m_fd *f, long long len);
long long m_direct_write(struct m_state *m, struct m_fd *f, long long len);
int m_dio_flush(struct m_state *m, struct m_fd *f, long long len);
long long m_generic_dio_write(struct m_state *m, struct m_fd *f, long long len, struct out *w);
long long m_dio_write_after_flush(struct m_state *m, struct m_fd *f, long long len);
long long m_iomap_dio_write(struct m_state *m, struct m_fd *f, long long len, int then_flush);
/* truncate_setsize(): the new size; shrinking drops the pages past it, dirty
 * ones unwritten, and frees the blocks (a failed extent with them) */
void m_truncate(struct m_state *m, struct m_inode *in, long long size);

/* par.c: a "par" line against the kernel's results @obs (NULL: predict only) */
int m_run_par(struct m_state *m, const struct dt_op *op, const struct dt_opres *obs,
	      struct dt_opres *pred, int trace, char *note, size_t notelen);
/* compare.c, for par.c */
int m_opres_equal(const struct dt_opres *a, const struct dt_opres *b, int which);
/* @one_file: both threads use one struct file (par.c knows from the state) */
int m_trace_equal_par(int one_file, const struct dt_opres *pred, const struct dt_opres *obs);

#endif
