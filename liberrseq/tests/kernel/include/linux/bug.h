/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: WARN() with the kernel's shape (asm-generic/bug.h): the
 * condition is tested inline and only a true one calls out of line
 * (kernel_warn_slowpath() in ../../warn.c, which counts).
 */
#ifndef _KERNEL_SHIM_LINUX_BUG_H
#define _KERNEL_SHIM_LINUX_BUG_H
#include <linux/compiler.h>
#include <linux/export.h>

void __cold kernel_warn_slowpath(const char *fmt, ...);

#define WARN(condition, format...) ({				\
	int __ret_warn_on = !!(condition);			\
	if (unlikely(__ret_warn_on))				\
		kernel_warn_slowpath(format);			\
	unlikely(__ret_warn_on);				\
})

#define BUILD_BUG_ON_NOT_POWER_OF_2(n)				\
	_Static_assert(((n) & ((n) - 1)) == 0, #n " is not a power of 2")
#endif
