/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: as include/linux/err.h. */
#ifndef _KERNEL_SHIM_LINUX_ERR_H
#define _KERNEL_SHIM_LINUX_ERR_H
#include <linux/compiler.h>
#define MAX_ERRNO	4095
#endif
