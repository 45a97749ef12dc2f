// SPDX-License-Identifier: GPL-2.0
/*
 * The out-of-line half of the shim's WARN() (include/linux/bug.h): count
 * instead of printing. The differential test compares the count with
 * errseq_invalid_count(); kernel-port's vectors check (vectors_check.c)
 * requires one WARN per invalid-errno vector.
 */
#include <linux/bug.h>
#include "kernel_errseq.h"

unsigned long kernel_errseq_warnings;

void kernel_warn_slowpath(const char *fmt, ...)
{
	(void)fmt;
	__atomic_add_fetch(&kernel_errseq_warnings, 1, __ATOMIC_RELAXED);
}
