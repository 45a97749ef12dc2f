// SPDX-License-Identifier: GPL-2.0
/* What errseq_set() does instead of the kernel's WARN on an invalid errno. */
#include "port.h"

static unsigned long invalid_count;
static errseq_invalid_handler_t invalid_handler;

/* Called only for an invalid errno. */
void errseq_port_warn(int err)
{
	errseq_invalid_handler_t fn;

	__atomic_add_fetch(&invalid_count, 1, __ATOMIC_RELAXED);
	fn = __atomic_load_n(&invalid_handler, __ATOMIC_ACQUIRE);
	if (fn)
		fn(err);
}

unsigned long errseq_invalid_count(void)
{
	return __atomic_load_n(&invalid_count, __ATOMIC_RELAXED);
}

errseq_invalid_handler_t
errseq_set_invalid_handler(errseq_invalid_handler_t handler)
{
	return __atomic_exchange_n(&invalid_handler, handler, __ATOMIC_ACQ_REL);
}
