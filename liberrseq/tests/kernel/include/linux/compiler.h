/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: as include/linux/compiler.h and asm-generic/rwonce.h. */
#ifndef _KERNEL_SHIM_LINUX_COMPILER_H
#define _KERNEL_SHIM_LINUX_COMPILER_H
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define __cold		__attribute__((cold))
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val) \
	do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)
#endif
