/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: the kernel types lib/errseq.c uses. */
#ifndef _KERNEL_SHIM_LINUX_TYPES_H
#define _KERNEL_SHIM_LINUX_TYPES_H
#include <stdint.h>
typedef uint32_t u32;
typedef uint64_t u64;
#endif
