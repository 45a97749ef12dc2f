/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fault: writeback errors on chosen files, for guest programs (difftest's
 * dtguest, pgtest's pgguest). A device-mapper device, linear over a lower
 * block device, carries the file system; "failing" a file puts the dm
 * "error" target over the file's extents (FIEMAP). Eviction drops a set of
 * files' inodes from memory. No libdevmapper: ioctls on /dev/mapper/control.
 */
#ifndef DT_FAULT_H
#define DT_FAULT_H

#include <stddef.h>

/*
 * Create dm device NAME, linear over LOWER, with a block node at NODE.
 * Returns 0, or -1 with the reason in WHY.
 */
int fault_dm_up(const char *name, const char *node, const char *lower, char *why, size_t len);
/*
 * Take over dm device NAME (made by fault_dm_up() in another process) with
 * nothing failed yet: the next table load is linear over LOWER plus what
 * fault_dm_fail_fd() adds. Returns 0, or -1 with the reason in WHY.
 */
int fault_dm_attach(const char *name, const char *lower, char *why, size_t len);
/*
 * Put "error" over the extents of the file open as FD and make the table
 * live (no fs freeze, no flush). SYNC_FIRST: FIEMAP_FLAG_SYNC, i.e. write
 * the file out before mapping it; without it, dirty pages stay dirty and
 * every extent must already be allocated. Returns 0 or -errno (-EAGAIN: an
 * extent not allocated yet).
 */
int fault_dm_fail_fd(int fd, int sync_first);
/* Number of failed segments in the live table (0: all linear). */
int fault_dm_nfail(void);
/* Linear everywhere again. Returns 0 or -errno. */
int fault_dm_heal(void);
void fault_dm_down(void);
/*
 * A second dm device NAME at NODE, linear over LOWER, used as a raw block
 * device (no filesystem), with readahead off after every table load: failed
 * as a whole (an "error" table) and healed.
 * Returns 0 or -1 with the reason in WHY (up), 0 or -errno (fail, heal).
 */
int fault_raw_up(const char *name, const char *node, const char *lower, char *why, size_t len);
int fault_raw_fail(void);
int fault_raw_heal(void);
int fault_raw_nfail(void);
void fault_raw_down(void);
/*
 * Evict the inodes of PATHS (N of them; missing files are skipped): sync,
 * sync, POSIX_FADV_DONTNEED on each file, drop_caches 3 twice (see fault.c
 * for why each step). Returns 0 or the first failure as a positive errno.
 */
int fault_evict(const char *const *paths, int n);
/* Write S to PATH (sysfs, procfs). Returns 0 or -errno. */
int fault_write_file(const char *path, const char *s);

#endif
