/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fault: the guest programs' fault injector, writeback errors on demand
 * (vm/guest's dm-eio, difftest's dtguest, pgtest's pgguest, kernel-port's
 * kptest). A device-mapper device, linear over a lower block device,
 * carries the file system; a write fails where its table has the "error"
 * target: over the whole device, over chosen files' extents (FIEMAP), or
 * wherever a test's own table says. Eviction drops a set of files' inodes
 * from memory. No libdevmapper: ioctls on /dev/mapper/control.
 *
 * Every table is made live with no fs freeze (its sync would write back,
 * and report, the very pages a test wants to fail) and no flush: dirty pages
 * stay dirty until the test writes them back.
 *
 * Static, and single-threaded: the control device's buffer is shared.
 */
#ifndef LIBERRSEQ_FAULT_H
#define LIBERRSEQ_FAULT_H

#include <stddef.h>
#include <sys/types.h>

/*
 * A block device: its number (DEV) and size in 512-byte sectors (SECTORS).
 * Returns 0, or -1 with the reason in WHY (errno set).
 */
int fault_blkdev(const char *path, dev_t *dev, unsigned long long *sectors, char *why,
		 size_t len);

/*
 * dm devices by name, their tables in dmsetup's text: "START LENGTH TYPE
 * [PARAMS]" per target (sectors), targets separated by newlines or ';', e.g.
 * "0 2048 linear 254:0 0;2048 8 error;2056 129016 linear 254:0 2056".
 * Each returns 0, or -1 with the reason in WHY (errno set).
 */
/* Create dm device NAME with TABLE, live; its number in DEV (devtmpfs: /dev/dm-MINOR). */
int fault_dev_create(const char *name, const char *table, dev_t *dev, char *why, size_t len);
/* Swap dm device NAME's live table for TABLE. */
int fault_dev_load(const char *name, const char *table, char *why, size_t len);
int fault_dev_remove(const char *name, char *why, size_t len);

/*
 * The file system's device: one at a time, made and failed per file.
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
 * live. SYNC_FIRST: FIEMAP_FLAG_SYNC, i.e. write the file out before
 * mapping it; without it, dirty pages stay dirty and every extent must
 * already be allocated. Returns 0 or -errno (-EAGAIN: an extent not
 * allocated yet).
 */
int fault_dm_fail_fd(int fd, int sync_first);
/* Put "error" over LEN sectors from sector START too; 0 or -errno. */
int fault_dm_fail_range(unsigned long long start, unsigned long long len);
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
