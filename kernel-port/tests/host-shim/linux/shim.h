/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel for compiling lib/errseq.c in userspace
 * (kernel-port/tests/vectors_check.c). Single-threaded use only: cmpxchg is
 * a GCC builtin, WARN counts and prints.
 */
#ifndef KPORT_HOST_SHIM_H
#define KPORT_HOST_SHIM_H
#include <stdint.h>
#include <stdio.h>

typedef uint32_t u32;
#define MAX_ERRNO	4095
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define ilog2(n)	(63 - __builtin_clzll(n))
#define BUILD_BUG_ON_NOT_POWER_OF_2(n) \
	_Static_assert(((n) & ((n) - 1)) == 0, #n " is not a power of 2")
#define EXPORT_SYMBOL(sym)	_Static_assert(1, #sym)
#define READ_ONCE(x)		(*(volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define cmpxchg(p, o, n) ({ __typeof__(*(p)) __o = (o); \
	__atomic_compare_exchange_n((p), &__o, (n), 0, __ATOMIC_SEQ_CST, \
				    __ATOMIC_SEQ_CST); __o; })
extern unsigned long shim_warn_count;
#define WARN(cond, fmt, ...) ({ int __c = !!(cond); \
	if (__c) { shim_warn_count++; \
		fprintf(stderr, "shim WARN: " fmt, __VA_ARGS__); } __c; })
#endif
