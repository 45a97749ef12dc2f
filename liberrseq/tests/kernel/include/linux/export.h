/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: symbols are exported by the linker, not by a table. */
#ifndef _KERNEL_SHIM_LINUX_EXPORT_H
#define _KERNEL_SHIM_LINUX_EXPORT_H
#define EXPORT_SYMBOL(sym)	extern int kernel_export_##sym
#endif
