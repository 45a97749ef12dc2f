/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim for include/linux/errseq.h. The kernel's word is a u32;
 * with KERNEL_ERRSEQ_64 the same lib/errseq.c is built over a u64, to
 * compare with errseq64_t. A build that links beside liberrseq renames the
 * functions on the command line (-Derrseq_set=kernel_errseq_set, ...: see
 * kernel_errseq.h); kernel-port's vectors check calls them by their own names.
 */
#ifndef _KERNEL_SHIM_LINUX_ERRSEQ_H
#define _KERNEL_SHIM_LINUX_ERRSEQ_H
#include <linux/types.h>
#ifdef KERNEL_ERRSEQ_64
typedef u64	errseq_t;
#else
typedef u32	errseq_t;
#endif

errseq_t errseq_set(errseq_t *eseq, int err);
errseq_t errseq_sample(errseq_t *eseq);
int errseq_check(errseq_t *eseq, errseq_t since);
int errseq_check_and_advance(errseq_t *eseq, errseq_t *since);
#endif
