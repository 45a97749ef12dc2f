/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The contract checker ("difftest judge"): holds what a guest saw to the
 * user-level contract of writeback-error reporting, reading only the script, the
 * guest's results and the errors injected or recorded (the trace's "set"
 * events). It knows nothing of the kernel series and nothing of the model: it
 * links only difftest/common. The contract it checks, rule by rule, is in
 * difftest/doc/judge.md.
 */
#ifndef DIFFTEST_JUDGE_H
#define DIFFTEST_JUDGE_H

#include <stdio.h>

#include "results.h"
#include "script.h"

struct dt_judge_opts {
	/* The filesystem has no writeback (tmpfs): its fsync has nothing to fail and
	 * reports nothing; an error recorded on one of its files is owed only to syncfs. */
	int no_writeback;
	/* A clean verdict needs the trace's events (the kernel has the filemap
	 * tracepoints): a block without them is not judged. */
	int need_trace;
	/* The filesystem stops at a failed metadata write (6.12's ext4 aborts its
	 * journal): after one, until the next mount, its sync calls may fail with EIO or
	 * EROFS, each time. */
	int stops;
	/* The filesystem has no identity by which to keep an evicted inode's error
	 * (vfat, exfat renumber an inode each time it is read in): after an eviction, a
	 * later opener may be told of an unseen error, need not. */
	int evict_forgets;
	/* The filesystem writes a directory's blocks through the directory's own page
	 * cache (ext2): an error recorded there is a failed write of the directory, owed
	 * to its fsync; elsewhere (directories in the block device's buffers, xfs_bufs,
	 * btrfs's tree, tmpfs) it is no failed write of the directory: its fsync may
	 * tell it, need not (syncfs must: the superblock's). */
	int dir_pagecache;
	/* The filesystem reads its block device's errors itself and marks them seen
	 * (6.1's ext4: ext4_check_bdev_write_error() at its next journal access): a
	 * later opener of the device may be told of one, need not. */
	int reads_dev;
};

enum dt_judge_kind {
	DT_JUDGE_LOST,     /* a sync call returned 0 where an error was owed */
	DT_JUDGE_REPEAT,   /* a sync call reported again what it had reported */
	DT_JUDGE_INVENTED, /* a sync call reported an error nobody made */
};

struct dt_judge_result {
	int violations;    /* ops that broke the contract */
	int judged;        /* ops judged */
	int unjudged;      /* 1: the block could not be judged (why) */
	int first_op;      /* the first violation's op, -1: none */
	enum dt_judge_kind first_kind;
	char why[200];
};

/* Judge the guest's results @r of script @s; print a line per violation to @out
 * (NULL: silent), each "JUDGE NAME op I (line L): OP: KIND: details". */
void dt_judge(const struct dt_script *s, const struct dt_sresult *r,
	      const struct dt_judge_opts *o, FILE *out, struct dt_judge_result *res);

const char *dt_judge_kind_name(enum dt_judge_kind k);

#endif
