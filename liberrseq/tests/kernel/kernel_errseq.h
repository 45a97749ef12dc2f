/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own lib/errseq.c (Linux 6.1), built in userspace under the
 * shims of include/linux/, with its functions renamed so that it links
 * beside liberrseq (../../cmake/KernelErrseq.cmake). kernel_errseq_*64 is
 * the same file over a u64 word. Used by the differential test and bench/;
 * kernel-port's vectors check reads only the WARN() counter.
 */
#ifndef KERNEL_ERRSEQ_H
#define KERNEL_ERRSEQ_H
#include <stdint.h>

uint32_t kernel_errseq_set(uint32_t *eseq, int err);
uint32_t kernel_errseq_sample(uint32_t *eseq);
int kernel_errseq_check(uint32_t *eseq, uint32_t since);
int kernel_errseq_check_and_advance(uint32_t *eseq, uint32_t *since);

uint64_t kernel_errseq_set64(uint64_t *eseq, int err);
uint64_t kernel_errseq_sample64(uint64_t *eseq);
int kernel_errseq_check64(uint64_t *eseq, uint64_t since);
int kernel_errseq_check_and_advance64(uint64_t *eseq, uint64_t *since);

/* How many times WARN() fired (an invalid err), both widths together (warn.c). */
extern unsigned long kernel_errseq_warnings;
#endif
