/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The difftest model: the kernel objects that carry errseq_t values, built on
 * liberrseq, predicting what each script operation returns on Linux 6.1.
 */
#ifndef DIFFTEST_MODEL_H
#define DIFFTEST_MODEL_H

#include <errseq.h>

#include "results.h"
#include "script.h"

/* The filesystems the model knows (model/fs.c's table; each one's rules in model/fs-*.c). */
enum dt_fs {
	FS_EXT2, FS_EXT4_ORDERED, FS_EXT4_JOURNAL, FS_VFAT, FS_EXFAT, FS_XFS, FS_BTRFS, FS_TMPFS,
	FS__COUNT
};

/* ext2, ext4-ordered, ext4-journal, vfat, exfat, xfs, btrfs, tmpfs */
const char *dt_fs_name(enum dt_fs fs);
/* 1: the superblock has a block device ("error meta" possible); 0: tmpfs, btrfs */
int dt_fs_has_bdev(enum dt_fs fs);
int dt_fs_parse(const char *s, enum dt_fs *out);

/*
 * Deliberately wrong behaviours, for showing that the checker bites. Each
 * breaks one rule of stock 6.1 that the scenarios exercise.
 */
enum dt_bug {
	BUG_NONE,
	BUG_SAMPLE_RAW,   /* open samples wb_err raw: an error unseen at open is never reported */
	BUG_NO_SB_ERR,    /* mapping_set_error does not record in sb->s_wb_err */
	BUG_NO_AS_FLAGS,  /* metadata errors leave no AS_EIO/AS_ENOSPC on the bdev mapping */
	BUG_SFR_ANY,      /* sync_file_range reports errors for every flag combination */
	BUG_ENOSPC_AS_EIO,/* ENOSPC is recorded as EIO */
	BUG_RAW_SETS_SB,  /* the raw block device's errors reach the filesystem's s_wb_err */
	BUG__COUNT
};
const char *dt_bug_name(enum dt_bug b);

/* The kernel lines the model has facts for (model/line.c), oldest first. */
enum dt_line { DT_LINE_6_1, DT_LINE_6_12, DT_LINE__COUNT };
/* "6.1" or "6.12" -> *out; -1 for anything else */
int dt_line_parse(const char *s, enum dt_line *out);
/*
 * A kernel version "MAJOR.MINOR" (anything after it: ".PATCH", "-rc1", ... ignored) ->
 * *out: its line (returns 0), or, for a version the model has no facts for, the line
 * nearest to it, the older of two as near (returns 1); -1: not a version.
 */
int dt_line_nearest(const char *s, enum dt_line *out);
const char *dt_line_name(enum dt_line l);
int dt_bug_parse(const char *s, enum dt_bug *out);

/*
 * The contract a run holds the kernel to: one switch per place where stock
 * 6.1 and the patched kernel are meant to differ.
 */
struct dt_contract {
	int md_cursor;     /* fsync/fdatasync also report metadata (bdev mapping) errors,
			      through a per-file cursor f_md_wb_err sampled at open */
	int keep_unseen;   /* an unseen writeback error survives eviction (0004: errno restored on a fresh word) */
	int syncfs_locked; /* syncfs advances f_sb_err under f_lock: two threads calling
			      syncfs on one descriptor never both report one error */
	int syncfs_cursor_only; /* syncfs reports the bdev's writeback errors through
				   f_sb_err only, not from the bdev mapping's AS_EIO/
				   AS_ENOSPC flags (which it still clears): the latest
				   errno, and never one report per channel */
	int syncfs_bdev_cursor; /* syncfs also reports through a second cursor,
				   f_sb_bdev_err, on the bdev mapping's wb_err, advanced with
				   f_sb_err in one f_lock section (0018 as redone after the
				   review): it marks a metadata error seen there as well */
	int md_once;       /* ext2: an fsync whose data wait fails consumes the metadata
			      cursor too (one failed indirect block is recorded in
			      both), so the next fsync does not report it again */
	int fat_md_once;   /* exfat, vfat: fsync's own write-out of the block device
			      (exfat sync_blockdev()) or of the FAT (vfat) reports through
			      f_md_wb_err only (kernel-port 0019/0020); off: exfat's
			      sync_blockdev() also returns the bdev mapping's AS_EIO/
			      AS_ENOSPC flags, a second report of one failure */
	int falloc_cursor; /* ext4 fallocate: punch hole (over a file with dirty pages),
			      collapse and insert range wait with
			      file_write_and_wait_range(): a descriptor's error once,
			      f_wb_err advanced (kernel-port 0013 from the second review to
			      the third, which found that it takes fsync's report: not in
			      "patched" since); off (stock and the series):
			      filemap_write_and_wait_range(), the mapping's AS_EIO/AS_ENOSPC
			      flag, to the first caller of any descriptor */
	int mount_forgets; /* a mount marks an error left unseen on the block device seen
			      and clears its AS flags (kernel-port 0008 since the review,
			      bdev_forget_wb_err()): nothing reports it through the new
			      filesystem; off: the patched md cursor samples it unseen
			      and the first fsync of any file reports it */
	int remount_since; /* ext4's remount read-only syncs with sync_filesystem_since():
			      an error seen before the remount neither fails it nor is
			      consumed; one no one has seen fails it once and is marked
			      seen (kernel-port 0014); off: sync_filesystem()'s bdev AS
			      flag fails the remount (EIO), which stays read-write */
	int md_locked;     /* fsync advances f_wb_err and f_md_wb_err in one f_lock
			      section (kernel-port 0025): two fsyncs of one struct file
			      report a pending data and metadata error once between them;
			      off (the series before 0025): one thread can take the data
			      cursor's error and the other the metadata cursor's */
	int dir_own;       /* ext2: a change of a directory (a new name) reports the
			      failure of its own write-out only: ext2_prepare_chunk()
			      clears the directory mapping's AS_EIO/AS_ENOSPC first
			      (kernel-port 0012); off (stock): write_one_page() (6.1,
			      under DIRSYNC) or ext2_handle_dirsync() (6.12, every
			      change) returns an earlier write-back's flag, and ext2
			      undoes the change although its entry is written */
	enum dt_bug bug;
	/* Not a switch but a fact about the kernel under test: its line (contract token
	 * linux=6.1, the default, or linux=6.12). Where 6.12 really behaves differently
	 * from 6.1, the model follows the line (difftest/doc/kernels.md, "Kernel lines"). */
	enum dt_line line;
};

/* The switches above, in this order (reports list them so). */
#define DT_NSWITCHES 12
const char *dt_switch_name(int i);
int *dt_contract_switch(struct dt_contract *c, int i);

void dt_contract_stock(struct dt_contract *c);
void dt_contract_patched(struct dt_contract *c);
/* "stock", "patched", or a comma list of switches: md_cursor,keep_unseen,syncfs_locked,
 * syncfs_cursor_only,syncfs_bdev_cursor,md_once,fat_md_once,falloc_cursor,mount_forgets,remount_since,
 * md_locked,dir_own, each optionally prefixed with "no-"; applied over the current
 * value. */
int dt_contract_parse(const char *s, struct dt_contract *c);
void dt_contract_format(const struct dt_contract *c, char *buf, size_t len);

/* One divergence: the first op of a script where the kernel and model differ. */
struct dt_divergence {
	int op;            /* op index, -1: none */
	int incomplete;    /* not the kernel's divergence: the guest did not finish the
			      script (no results from op on), lost trace events, or said
			      its harness failed (DT X) */
	char what[512];    /* human-readable: expected vs got */
	int cut_op;        /* ops from this index on were not compared: the kernel left what
			      the model follows (a per-line rule, cut_why); -1: none */
	char cut_why[96];
};

/*
 * Run @s through the model. If @obs (the guest's results) is given, compare
 * op by op (choosing among the outcomes the model allows for "par" lines)
 * and fill @div with the first divergence; returns the number of divergent
 * ops (0: the kernel kept the contract); a per-line rule may stop the comparison
 * early (@div->cut_op, @div->cut_why), which the caller must report. @pred receives the predictions
 * (for "par": those of the outcome chosen). @pred may be NULL.
 */
int dt_model_run(const struct dt_contract *c, enum dt_fs fs, const struct dt_script *s,
		 const struct dt_sresult *obs, struct dt_sresult *pred,
		 struct dt_divergence *div);

/*
 * Run @s through the model under @c (no comparison, up to a per-line cut) and
 * say what its descriptors are after it (common/ops.h, struct dt_gen_view):
 * difftest gen's eyes.
 */
struct dt_gen_view;
void dt_model_view(const struct dt_contract *c, enum dt_fs fs, const struct dt_script *s,
		   struct dt_gen_view *v);

/* 1: the model has a rule for ops of code @c (model/step.c) */
int dt_model_has_rule(enum dt_opcode c);

#endif
