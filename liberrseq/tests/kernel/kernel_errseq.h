/* Linux 6.1 lib/errseq.c, compiled unchanged in userspace with renamed symbols. */
#ifndef KERNEL_ERRSEQ_H
#define KERNEL_ERRSEQ_H
#include <stdint.h>
uint32_t kernel_errseq_set(uint32_t *eseq, int err);
uint32_t kernel_errseq_sample(uint32_t *eseq);
int kernel_errseq_check(uint32_t *eseq, uint32_t since);
int kernel_errseq_check_and_advance(uint32_t *eseq, uint32_t *since);
extern unsigned long kernel_errseq_warnings;
#endif
