/* SPDX-License-Identifier: GPL-2.0 */
/*
 * difftest operation scripts: the text format shared by the host model and the
 * guest program. One operation a line; see difftest/doc/scripts.md for the grammar.
 *
 *   script NAME              starts a script (optional for a one-script file)
 *   open dN fM [creat] [trunc] [rdonly] [sync] [dsync] [direct]
 *   open dN raw [rdonly] [sync] [dsync] [direct]
 *                            the raw block device (a 4 MiB disk of its own, apart
 *                            from the filesystem); its descriptors take no mmap,
 *                            fallocate; "fail dN" fails the whole device
 *   open dN dev              the filesystem's own block device, read-only: its
 *                            page cache holds the metadata buffers; fsync,
 *                            fdatasync, sfr, syncfs, close, dup, child, par only
 *   write dN [LEN]           write LEN bytes (default 4096) at the file offset
 *   read dN [LEN]            read LEN bytes (default 4096) at the file offset
 *   ftruncate dN LEN         ftruncate() to LEN bytes
 *   dup dN dM                dM = dup(dN): the same open file description
 *   fallocate dN MODE OFF LEN  MODE: KEEP_SIZE|PUNCH_HOLE|COLLAPSE_RANGE|ZERO_RANGE|
 *                            INSERT_RANGE (or KEEP|PUNCH|COLLAPSE|ZERO|INSERT, a number, 0)
 *   child OP                 OP (a descriptor op) in a forked child process
 *   cycle                    umount and mount again (every descriptor closed)
 *   mmap dN | munmap dN      map the file's current size shared (one mapping per descriptor)
 *   mwrite dN OFF LEN        store LEN bytes at OFF into it
 *   msync dN sync|async      msync(MS_SYNC or MS_ASYNC) of the whole mapping
 *   remount ro|rw            mount -o remount,ro (or rw)
 *   link fM fN | rename fM fN  link(2), rename(2) in the test directory
 *   fsync dN | fdatasync dN | syncfs dN | close dN
 *   fsyncdir                 fsync of the test directory: open(O_RDONLY|O_DIRECTORY),
 *                            fsync, close; fsync's result
 *   sfr dN FLAGS [OFF LEN]   sync_file_range; FLAGS: WAIT_BEFORE|WRITE|WAIT_AFTER
 *                            (or WB|W|WA, or a number, or 0)
 *   unlink fM
 *   evict                    sync(2), then drop_caches=3 (page cache, dentries, inodes)
 *   sync                     sync(2)
 *   error data fM|dN ERRNO   record a writeback error on a file's mapping
 *   error meta ERRNO         record a metadata writeback error on the block device
 *   par OP ; OP              two operations at once, in two threads
 *   fail dN                  real errors: the file's blocks (FIEMAP, after writing it
 *                            out) become a dm "error" target: its writeback fails
 *   heal                     the dm table back to linear everywhere
 *   end                      ends a script
 *
 * It contains no kernel or libc specifics beyond errno names, so the guest
 * (static, no liberrseq) and the host (model, generator) share it.
 */
#ifndef DIFFTEST_SCRIPT_H
#define DIFFTEST_SCRIPT_H

#include <stddef.h>
#include <stdio.h>

#define DT_MAX_FILES 8     /* f0 .. f7 */
#define DT_MAX_FDS 16      /* d0 .. d15 */
#define DT_MAX_OPS 4096
#define DT_NAME_MAX 64
/* The model's page cache holds this much of each file: a script that writes
 * past it through one descriptor is refused (the model would predict EIO). */
#define DT_MAX_FILE_SIZE (4LL << 20)
/* "open dN raw": op->file of the raw block device, whose size is DT_MAX_FILE_SIZE */
#define DT_FILE_RAW DT_MAX_FILES
/* "open dN dev": op->file of the filesystem's own block device (opened O_RDONLY) */
#define DT_FILE_DEV (DT_MAX_FILES + 1)
/* "open dN dir": op->file of the test directory (opened O_RDONLY | O_DIRECTORY) */
#define DT_FILE_DIR (DT_MAX_FILES + 2)

/* The operations; each has a descriptor in the op registry (ops.h, ops.c). */
enum dt_opcode {
	OP_OPEN,
	OP_WRITE,
	OP_FSYNC,
	OP_FDATASYNC,
	OP_SFR,
	OP_SYNCFS,
	OP_CLOSE,
	OP_UNLINK,
	OP_EVICT,
	OP_SYNC,
	OP_ERR_DATA,   /* target: file (file>=0) or descriptor (fd>=0) */
	OP_ERR_META,
	OP_PAR,        /* sub[0] and sub[1] run concurrently */
	OP_FAIL,       /* real I/O errors: dm error target over fd's file's blocks */
	OP_HEAL,       /* dm table back to all-linear */
	OP_READ,       /* read() LEN bytes at the file offset */
	OP_FTRUNCATE,  /* ftruncate() to LEN */
	OP_DUP,        /* fd2 = dup(fd): one open file description, one cursor */
	OP_FALLOCATE,  /* fallocate(fd, flags, off, len) */
	OP_CYCLE,      /* umount, then mount the same device again (no descriptor open) */
	OP_LINK,       /* link(file, file2) */
	OP_RENAME,     /* rename(file, file2) */
	OP_CHILD,      /* sub[0] run in a forked child (descriptors shared across fork) */
	OP_MMAP,       /* mmap(size, PROT_READ|PROT_WRITE, MAP_SHARED, fd) */
	OP_MWRITE,     /* store LEN bytes at OFF into fd's mapping */
	OP_MSYNC,      /* msync(MS_SYNC or MS_ASYNC) of fd's whole mapping */
	OP_MUNMAP,     /* munmap of fd's mapping */
	OP_REMOUNT,    /* mount(MS_REMOUNT [| MS_RDONLY]) */
	OP_FSYNCDIR,   /* open(2) of the test directory, fsync(2) of it, close(2) */
	OP_FAILREAD,   /* evict, then the dm error target over every script file's inode
			  block: the next read of an evicted inode fails (until heal) */
	OP_DIRSYNC,    /* FS_IOC_SETFLAGS FS_DIRSYNC_FL on the test directory (chattr +D) */
	OP__COUNT
};

#define OPEN_CREAT  1u
#define OPEN_TRUNC  2u
#define OPEN_RDONLY 4u
#define OPEN_SYNC 8u    /* O_SYNC: each write ends in vfs_fsync_range() */
#define OPEN_DSYNC 16u  /* O_DSYNC: the same, datasync */
#define OPEN_DIRECT 32u /* O_DIRECT */

#define REMOUNT_RO 1u

/* msync flags, as in <sys/mman.h> */
#define MSYNC_ASYNC 1u
#define MSYNC_SYNC 4u

/* fallocate modes, as in <linux/falloc.h> */
#define FALLOC_KEEP_SIZE 0x01u
#define FALLOC_PUNCH_HOLE 0x02u
#define FALLOC_COLLAPSE_RANGE 0x08u
#define FALLOC_ZERO_RANGE 0x10u
#define FALLOC_INSERT_RANGE 0x20u

/* sync_file_range flags, as in <linux/fs.h> */
#define SFR_WAIT_BEFORE 1u
#define SFR_WRITE 2u
#define SFR_WAIT_AFTER 4u

struct dt_op {
	enum dt_opcode code;
	int line;            /* line number in the source text (1-based) */
	int fd;              /* descriptor slot, -1 if none */
	int fd2;             /* OP_DUP: the new descriptor slot; else -1 */
	int file;            /* file index, -1 if none */
	int file2;           /* OP_LINK, OP_RENAME: the new name; else -1 */
	unsigned flags;      /* OPEN_* or SFR_* */
	long long off, len;  /* write length; sfr range */
	int err;             /* positive errno for OP_ERR_* */
	struct dt_op *sub;   /* OP_PAR: two ops; OP_CHILD: sub[0] */
};

struct dt_script {
	char name[DT_NAME_MAX];
	int line;            /* line of the "script" header (or 1) */
	int nops, cap;
	struct dt_op *ops;
};

struct dt_batch {
	int nscripts;
	struct dt_script *scripts;
};

/*
 * Parse @text (NUL-terminated). On error returns -1 and writes
 * "FILE:LINE: message" into @errbuf. Checks: unknown operation, bad or
 * unopened descriptor, bad file name, bad errno, bad flags, nesting.
 */
int dt_parse(const char *text, const char *fname, struct dt_batch *out,
	     char *errbuf, size_t errlen);
int dt_parse_file(const char *path, struct dt_batch *out, char *errbuf,
		  size_t errlen);
void dt_batch_free(struct dt_batch *b);
void dt_script_free(struct dt_script *s);
/* Deep copy of a script (for shrinking). */
void dt_script_copy(struct dt_script *dst, const struct dt_script *src);

/* Print one op in the source syntax (no newline). */
void dt_op_format(const struct dt_op *op, char *buf, size_t len);
void dt_script_print(FILE *f, const struct dt_script *s);
/* Re-check the descriptor discipline of a script (after shrinking). 0 = ok. */
int dt_script_valid(const struct dt_script *s);
/* The scenario class of a script named @name (compare's tables, the report): a scenario
 * scn.NAME[.I][~rRcN] is NAME; a random script PREFIX.sSEED.I is PREFIX. */
void dt_script_class(const char *name, char *buf, size_t len);

/* its first word (ops.c) */
const char *dt_opname(enum dt_opcode c);
/* errno <-> name ("EIO", "ENOSPC", ..., or a decimal number). */
const char *dt_errname(int err, char *buf, size_t len);
int dt_errnum(const char *name); /* -1 if unknown */
/* "PUNCH|KEEP" etc. -> fallocate mode; -1 on error */
long dt_falloc_flags(const char *s);
void dt_falloc_format(unsigned flags, char *buf, size_t len);
/* "WAIT_BEFORE|WRITE" etc. -> flags; -1 on error */
long dt_sfr_flags(const char *s);
void dt_sfr_format(unsigned flags, char *buf, size_t len);

#endif
