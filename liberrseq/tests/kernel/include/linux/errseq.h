/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim for include/linux/errseq.h. The kernel's word is a u32;
 * with KERNEL_ERRSEQ_64 the same lib/errseq.c is built over a u64, to
 * compare with errseq64_t. The functions are renamed on the command line
 * (-Derrseq_set=kernel_errseq_set, ...): see kernel_errseq.h.
 */
#ifndef _KERNEL_SHIM_LINUX_ERRSEQ_H
#define _KERNEL_SHIM_LINUX_ERRSEQ_H
#include <linux/types.h>
#include "kernel_errseq.h"
#ifdef KERNEL_ERRSEQ_64
typedef u64	errseq_t;
#else
typedef u32	errseq_t;
#endif
#endif
