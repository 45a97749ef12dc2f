// SPDX-License-Identifier: GPL-2.0
/*
 * The model's step: one rule per script op, each in the file of the layer it
 * models (the op registry, common/ops.h, has the rest of an op):
 *
 *   vfs.c     the file syscalls: open, write, read, ftruncate, fallocate, fsync
 *             and fdatasync, sync_file_range, syncfs, close, dup, an op in a
 *             forked child, fsync of the test directory
 *   mmap.c    shared mappings: mmap, stores, msync, munmap
 *   namei.c   names: unlink, link, rename
 *   super.c   the whole filesystem: sync, evict, umount + mount, remount
 *   inject.c  the harness's error injection: error data, error meta, fail, heal,
 *             failread
 *   par.c     par lines: every outcome the kernel allows (compare.c runs them)
 *
 * A rule reads and changes the model's state (internal.h) and puts the op's
 * result, and its trace events, through @w.
 */
#include <errno.h>

#include "internal.h"

static int always(const struct dt_op *op)
{
	(void)op;
	return 1;
}

/* sync_file_range() writes back only with SYNC_FILE_RANGE_WRITE */
static int sfr_writes(const struct dt_op *op)
{
	return !!(op->flags & SFR_WRITE);
}

static int par_writes(const struct dt_op *op)
{
	return m_writes_back(&op->sub[0]) || m_writes_back(&op->sub[1]);
}

static const struct m_rule rules[OP__COUNT] = {
	[OP_OPEN] = {m_op_open},
	[OP_WRITE] = {m_op_write},
	[OP_FSYNC] = {m_op_fsync, always},
	[OP_FDATASYNC] = {m_op_fsync, always},
	[OP_SFR] = {m_op_sfr, sfr_writes},
	[OP_SYNCFS] = {m_op_syncfs, always},
	[OP_CLOSE] = {m_op_close},
	[OP_UNLINK] = {m_op_unlink},
	[OP_EVICT] = {m_op_evict, always},
	[OP_SYNC] = {m_op_sync, always},
	[OP_ERR_DATA] = {m_op_error_data},
	[OP_ERR_META] = {m_op_error_meta},
	/* two rules at once: m_run_par() (par.c), which dt_model_run() calls
	 * with the kernel's results to choose among the outcomes */
	[OP_PAR] = {NULL, par_writes},
	[OP_FAIL] = {m_op_fail, always},
	[OP_HEAL] = {m_op_heal},
	[OP_READ] = {m_op_read},
	[OP_FTRUNCATE] = {m_op_ftruncate},
	[OP_DUP] = {m_op_dup},
	[OP_FALLOCATE] = {m_op_fallocate},
	[OP_CYCLE] = {m_op_cycle},
	[OP_LINK] = {m_op_link},
	[OP_RENAME] = {m_op_rename},
	[OP_CHILD] = {m_op_child},
	[OP_MMAP] = {m_op_mmap},
	[OP_MWRITE] = {m_op_mwrite},
	[OP_MSYNC] = {m_op_msync},
	[OP_MUNMAP] = {m_op_munmap},
	[OP_REMOUNT] = {m_op_remount},
	[OP_FSYNCDIR] = {m_op_fsyncdir},
	[OP_FAILREAD] = {m_op_failread, always},
	[OP_DIRSYNC] = {m_op_dirsync},
};

int dt_model_has_rule(enum dt_opcode c)
{
	return (unsigned)c < OP__COUNT && (rules[c].step || c == OP_PAR);
}

void m_step(struct m_state *m, const struct dt_op *op, struct out *w)
{
	if ((unsigned)op->code >= OP__COUNT || !rules[op->code].step) {
		m_fail(w, EINVAL);
		return;
	}
	rules[op->code].step(m, op, w);
}

int m_writes_back(const struct dt_op *op)
{
	return (unsigned)op->code < OP__COUNT && rules[op->code].writes_back &&
	       rules[op->code].writes_back(op);
}
