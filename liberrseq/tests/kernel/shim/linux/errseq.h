/* Shim: just enough of the kernel for lib/errseq.c to compile in userspace. */
#ifndef SHIM_LINUX_ERRSEQ_H
#define SHIM_LINUX_ERRSEQ_H
#include <stdint.h>
typedef uint32_t u32;
typedef u32 errseq_t;
errseq_t errseq_set(errseq_t *eseq, int err);
errseq_t errseq_sample(errseq_t *eseq);
int errseq_check(errseq_t *eseq, errseq_t since);
int errseq_check_and_advance(errseq_t *eseq, errseq_t *since);
#endif
