// SPDX-License-Identifier: GPL-2.0
/* The out-of-line half of the shim's WARN(): count, print once. */
#include <stdarg.h>
#include <stdio.h>
#include <linux/bug.h>
#include "kernel_errseq.h"

static unsigned long warn_count;

void kernel_warn_slowpath(const char *fmt, ...)
{
	va_list ap;

	if (__atomic_fetch_add(&warn_count, 1, __ATOMIC_RELAXED))
		return;
	va_start(ap, fmt);
	fputs("kernel errseq WARN: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

unsigned long kernel_warn_count(void)
{
	return __atomic_load_n(&warn_count, __ATOMIC_RELAXED);
}
