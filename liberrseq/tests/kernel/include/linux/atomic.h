/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: cmpxchg() is fully ordered, as the kernel's is; it
 * returns the value found, equal to @o exactly when it swapped.
 */
#ifndef _KERNEL_SHIM_LINUX_ATOMIC_H
#define _KERNEL_SHIM_LINUX_ATOMIC_H
#include <linux/compiler.h>
#include <linux/types.h>
#define cmpxchg(p, o, n) ({						\
	__typeof__(*(p)) __old = (o);					\
	__atomic_compare_exchange_n((p), &__old, (n), 0,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);\
	__old;								\
})
#endif
