/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: as include/linux/err.h. */
#ifndef _BENCH_LINUX_ERR_H
#define _BENCH_LINUX_ERR_H
#include <linux/compiler.h>
#define MAX_ERRNO	4095
#endif
