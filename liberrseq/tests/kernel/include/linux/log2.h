/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: ilog2() of a constant folds, as the kernel's does. */
#ifndef _KERNEL_SHIM_LINUX_LOG2_H
#define _KERNEL_SHIM_LINUX_LOG2_H
#define ilog2(n)	(63 - __builtin_clzll(n))
#endif
