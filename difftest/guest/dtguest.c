// SPDX-License-Identifier: GPL-2.0
/*
 * dtguest: runs difftest scripts with real syscalls inside the QEMU guest and
 * prints each result (return value and errno), plus the errseq values the
 * kernel's filemap tracepoints report, in the format of common/results.h.
 *
 * usage: dtguest --fs FS --dev /dev/vdX [--raw /dev/vdY] [--mnt DIR] [--inject PATH]
 *                [--out FILE] BATCH...
 *        FS: ext2, ext4-ordered, ext4-journal, vfat, exfat, xfs, btrfs (over DEV), tmpfs (no DEV)
 *        --raw: the disk under the raw block device of "open dN raw" (default /dev/vdg)
 *
 * Per batch: one dm device over DEV (not for tmpfs). Per script: reset the dm device's wb_err
 * (errseq_inject "reset"), mount a fresh superblock, run the ops in DIR/t on
 * files f0..f7, read the trace after each op, close everything, remove the
 * files, unmount. Errors are injected
 * through the errseq_inject module (difftest/kmod), which calls the kernel's
 * own mapping_set_error()/errseq_set(). A script that opens "raw" gets a second
 * dm device over the --raw disk (one per batch, reset per script like the first,
 * readahead off), opened through its node: the raw block device.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fault.h"
#include "results.h"
#include "script.h"

static const char *opt_fs = "ext4-ordered";

/* How each --fs is mounted. */
static const struct gfs {
	const char *name, *type, *opts;
	int bdev;      /* over the dm device; tmpfs: none ("error meta" -> ENOTBLK) */
	int journal;   /* ext4: settle after "error meta" (a journal write access) */
	int itable;    /* ext2, ext4: failread finds an inode's block (itable_sectors()) */
} gfs_table[] = {
	{"ext2", "ext2", "errors=continue", 1, 0, 1},
	/* commit=600: no periodic journal commit in the middle of a script (in
	 * data=ordered a commit writes back data at a time of its own) */
	{"ext4-ordered", "ext4", "data=ordered,errors=continue,commit=600", 1, 1, 1},
	{"ext4-journal", "ext4", "data=journal,errors=continue,commit=600", 1, 1, 1},
	{"vfat", "vfat", "errors=continue", 1, 0},
	{"exfat", "exfat", "errors=continue", 1, 0},
	{"xfs", "xfs", "", 1, 0},
	{"btrfs", "btrfs", "", 1, 0},
	{"tmpfs", "tmpfs", "size=64m", 0, 0},
};
static const struct gfs *gfs;
static const char *opt_dev = "/dev/vda";
static const char *opt_raw = "/dev/vdg";
static const char *opt_mnt = "/mnt/dt";
static const char *opt_inject = "/sys/kernel/debug/errseq_inject";
static const char *tracedir;
static int tracefd = -1; /* tracedir/trace_pipe, non-blocking */
static FILE *out;
static dev_t fs_dev;

static int fds[DT_MAX_FDS];
static int held_dir = -1; /* failread .. heal: the test directory, held in memory */
static struct dt_sresult *cur_res; /* the running script's results (harness_failed()) */

/* a step of the guest's own failed: the block gets "DT X MESSAGE" (the first) and is
 * not judged */
static void __attribute__((format(printf, 1, 2))) harness_failed(const char *fmt, ...)
{
	va_list ap;

	if (!cur_res || cur_res->fail[0])
		return;
	va_start(ap, fmt);
	vsnprintf(cur_res->fail, sizeof(cur_res->fail), fmt, ap);
	va_end(ap);
}
static unsigned char fd_raw[DT_MAX_FDS]; /* the descriptor is the raw device's (1) or
					   the filesystem's device's (2) */

/* guest seconds per phase of a batch, for "DT I phases" (where the time goes) */
enum { PH_SETUP, PH_OPS, PH_TRACE, PH_TEARDOWN, PH_N };
static double phase[PH_N];
static double optime[OP__COUNT];
static int opcount[OP__COUNT];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#define DM_NAME "difftest"
#define DM_NODE "/dev/difftest-dm"
#define RAW_NAME "difftest-raw"
#define RAW_NODE "/dev/difftest-raw"
static int dm_live, raw_live;
static unsigned long raw_kdev; /* its dev_t as the kernel writes it: the bdev inode's i_ino */
static long ncpus;

static struct {
	ino_t ino;
	int label;      /* fN, or LABEL_DIR */
} inomap[64];
#define LABEL_DIR (-1) /* the test directory (fsyncdir): "dir" */
static int ninomap;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "DT I dtguest: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

#define write_file fault_write_file

static void fpath(char *buf, size_t len, int file)
{
	snprintf(buf, len, "%s/t/f%d", opt_mnt, file);
}

/*
 * Trace objects: an inode number is labelled fN after the name it was
 * created under (@created: an open that made the file; a number an old
 * inode had is labelled anew), else after the name it is first seen
 * through (vfat and exfat give an inode a new number each time it is read
 * in). The model labels alike (model/vfs.c inode_get()).
 */
static void label_ino(ino_t ino, int label, int created)
{
	for (int i = 0; i < ninomap; i++)
		if (inomap[i].ino == ino) {
			if (created)
				inomap[i].label = label;
			return;
		}
	if (ninomap < 64) {
		inomap[ninomap].ino = ino;
		inomap[ninomap++].label = label;
	}
}

static int inject(const char *cmd)
{
	return write_file(opt_inject, cmd);
}

/* ---- tracing ---- */

static int trace_setup(void)
{
	static const char *const cands[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
	char p[256];

	for (size_t i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/events/filemap/filemap_set_wb_err/enable", cands[i]);
		if (access(p, W_OK) == 0) {
			tracedir = cands[i];
			break;
		}
	}
	if (!tracedir) {
		mkdir("/sys/kernel/tracing", 0755);
		mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
		snprintf(p, sizeof(p), "/sys/kernel/tracing/events/filemap/filemap_set_wb_err/enable");
		if (access(p, W_OK) == 0)
			tracedir = "/sys/kernel/tracing";
	}
	if (!tracedir)
		return -1;
	snprintf(p, sizeof(p), "%s/events/filemap/filemap_set_wb_err/enable", tracedir);
	write_file(p, "1");
	snprintf(p, sizeof(p), "%s/events/filemap/file_check_and_advance_wb_err/enable", tracedir);
	if (write_file(p, "1"))
		return (tracedir = NULL), -1;
	/* the patched kernel's metadata cursor (kernel-port 0007), where present */
	snprintf(p, sizeof(p), "%s/events/filemap/file_check_and_advance_md_wb_err/enable", tracedir);
	if (access(p, W_OK) == 0)
		write_file(p, "1");
	/* a smaller ring buffer, to show that what it loses is counted (DT_TRACE_KB) */
	if (getenv("DTGUEST_TRACE_KB")) {
		snprintf(p, sizeof(p), "%s/buffer_size_kb", tracedir);
		if (write_file(p, getenv("DTGUEST_TRACE_KB")))
			die("%s: cannot set it to %s", p, getenv("DTGUEST_TRACE_KB"));
	}
	snprintf(p, sizeof(p), "%s/tracing_on", tracedir);
	write_file(p, "1");
	snprintf(p, sizeof(p), "%s/trace_pipe", tracedir);
	tracefd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (tracefd < 0)
		return (tracedir = NULL), -1;
	return 0;
}

/*
 * What the ring buffer lost so far: over every CPU's stats, "overrun:" (events
 * overwritten before trace_pipe read them) and "dropped events:" (refused when full),
 * kernel/trace/trace.c tracing_stats_read(). A script's events the kernel did not keep
 * are counted as its op's "lost" ones: its trace is then not compared.
 */
static long trace_losses(void)
{
	char p[256], buf[1024], *q;
	long sum = 0;

	DIR *dir;
	struct dirent *de;

	if (!tracedir)
		return 0;
	/* every CPU the buffer has, whatever their numbers (a hole: an offline one) */
	snprintf(p, sizeof(p), "%s/per_cpu", tracedir);
	dir = opendir(p);
	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		ssize_t n;
		int fd;

		if (strncmp(de->d_name, "cpu", 3))
			continue;
		snprintf(p, sizeof(p), "%s/per_cpu/%.32s/stats", tracedir, de->d_name);
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		if ((q = strstr(buf, "overrun: ")))
			sum += strtol(q + 9, NULL, 10);
		if ((q = strstr(buf, "dropped events: ")))
			sum += strtol(q + 16, NULL, 10);
	}
	closedir(dir);
	return sum;
}

static const char *label_of(unsigned maj, unsigned min, unsigned long ino, char *buf, size_t len)
{
	/* a block device's page cache: its host is the bdev inode (numbered
	 * after the device) on the bdev pseudo-filesystem */
	if (makedev(maj, min) != fs_dev)
		return raw_live && ino == raw_kdev ? "raw" : "bdev";
	for (int i = 0; i < ninomap; i++)
		if (inomap[i].ino == ino) {
			if (inomap[i].label == LABEL_DIR)
				return "dir";
			snprintf(buf, len, "f%d", inomap[i].label);
			return buf;
		}
	snprintf(buf, len, "ino0x%lx", ino);
	return buf;
}

static void trace_line(struct dt_opres *o, const char *line)
{
	unsigned maj, min, a, b;
	unsigned long ino;
	const char *q;
	char lb[32];

	if (getenv("DTGUEST_RAWTRACE"))
		printf("DT I raw %s\n", line);
	if ((q = strstr(line, "filemap_set_wb_err: ")) &&
	    sscanf(q, "filemap_set_wb_err: dev=%u:%u ino=0x%lx errseq=0x%x", &maj, &min, &ino,
		   &a) == 4) {
		dt_opres_trace(o, "set %s 0x%x", label_of(maj, min, ino, lb, sizeof(lb)), a);
	} else if ((q = strstr(line, "file_check_and_advance_md_wb_err: ")) &&
		   (q = strstr(q, "dev=")) &&
		   sscanf(q, "dev=%u:%u ino=0x%lx md_dev=%*u:%*u old=0x%x new=0x%x", &maj, &min,
			  &ino, &a, &b) == 5) {
		dt_opres_trace(o, "mdadv %s 0x%x 0x%x", label_of(maj, min, ino, lb, sizeof(lb)), a, b);
	} else if ((q = strstr(line, "file_check_and_advance_wb_err: ")) &&
		   (q = strstr(q, "dev=")) &&
		   sscanf(q, "dev=%u:%u ino=0x%lx old=0x%x new=0x%x", &maj, &min, &ino, &a, &b) == 5) {
		dt_opres_trace(o, "adv %s 0x%x 0x%x", label_of(maj, min, ino, lb, sizeof(lb)), a, b);
	}
}

/*
 * Consume the events recorded since the last call from trace_pipe, into @o
 * (NULL: drop them). A consuming read, not "trace" plus a clear: writing the
 * trace file resets the ring buffers, a synchronize_rcu() that cost about 27 ms
 * an op under QEMU TCG, over 80% of a campaign's guest time.
 */
static void trace_collect(struct dt_opres *o)
{
	static char buf[1 << 16];
	size_t have = 0;

	if (tracefd < 0)
		return;
	for (;;) {
		ssize_t n = read(tracefd, buf + have, sizeof(buf) - 1 - have);
		char *line, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0)
			die("read %s/trace_pipe: %s", tracedir, strerror(errno));
		if (n == 0)
			break;
		have += (size_t)n;
		buf[have] = '\0';
		for (line = buf; (nl = strchr(line, '\n')); line = nl + 1) {
			*nl = '\0';
			if (o)
				trace_line(o, line);
		}
		have -= (size_t)(line - buf);
		memmove(buf, line, have);
		if (have == sizeof(buf) - 1)
			die("%s/trace_pipe: a line of %zu bytes", tracedir, have);
	}
	if (have && o) {
		buf[have] = '\0';
		trace_line(o, buf);
	}
}

/* ---- one op ---- */

static void result(struct dt_opres *o, int which, long ret, int err)
{
	o->ret[which] = ret;
	o->err[which] = ret < 0 ? err : 0;
	/*
	 * The two threads of a "par" op finish together: a plain |= here lost
	 * one thread's bit now and then, and the campaign reported the missing
	 * result as a kernel divergence (par-syncfs, any kernel).  pthread_join
	 * orders the rest; the read-modify-write itself must be atomic.
	 */
	__atomic_fetch_or(&o->done, 1 << which, __ATOMIC_RELAXED);
}

/* page-aligned: O_DIRECT wants the buffer aligned to the device's logical block */
static char wbuf[1 << 20] __attribute__((aligned(4096)));

/* each descriptor's shared mapping (mmap .. munmap) */
static struct {
	char *p;
	size_t len;
} maps[DT_MAX_FDS];

static sigjmp_buf bus_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(bus_jmp, 1);
}
static char rbuf[1 << 20] __attribute__((aligned(4096)));

static int fs_mount(char *why, size_t len);
static int tdir_open(void);

/* ---- one op: a handler each, named in g_ops[] ---- */

static void run_op(const struct dt_op *op, struct dt_opres *o, int which);

/* @op's descriptor: the real one, -1 where it has none */
static int fd_of(const struct dt_op *op)
{
	return op->fd >= 0 ? fds[op->fd] : -1;
}

static void g_open(const struct dt_op *op, struct dt_opres *o, int which)
{
	char p[256];
	int fl = (op->flags & OPEN_RDONLY) ? O_RDONLY : O_RDWR, created;
	struct stat st;

	if (op->flags & OPEN_CREAT)
		fl |= O_CREAT;
	if (op->flags & OPEN_TRUNC)
		fl |= O_TRUNC;
	if (op->flags & OPEN_SYNC)
		fl |= O_SYNC;
	if (op->flags & OPEN_DSYNC)
		fl |= O_DSYNC;
	if (op->flags & OPEN_DIRECT)
		fl |= O_DIRECT;
	if (op->file == DT_FILE_RAW) {
		fds[op->fd] = open(RAW_NODE, fl | O_CLOEXEC);
		fd_raw[op->fd] = 1;
		result(o, which, fds[op->fd] < 0 ? -1 : 0, errno);
		return;
	}
	if (op->file == DT_FILE_DEV) {
		/* the filesystem's own device, read-only beside the mount;
		 * tmpfs has none (the model: the same) */
		fds[op->fd] = gfs->bdev ? open(DM_NODE, O_RDONLY | O_CLOEXEC) : -1;
		fd_raw[op->fd] = 2;
		result(o, which, fds[op->fd] < 0 ? -1 : 0, gfs->bdev ? errno : ENOTBLK);
		return;
	}
	fd_raw[op->fd] = 0;
	if (op->file == DT_FILE_DIR) {
		fds[op->fd] = tdir_open();
		result(o, which, fds[op->fd] < 0 ? -1 : 0, errno);
		return;
	}
	fpath(p, sizeof(p), op->file);
	created = (fl & O_CREAT) && lstat(p, &st) < 0 && errno == ENOENT;
	fds[op->fd] = open(p, fl | O_CLOEXEC, 0644);
	if (fds[op->fd] >= 0) {
		if (fstat(fds[op->fd], &st) == 0)
			label_ino(st.st_ino, op->file, created);
		result(o, which, 0, 0);
	} else {
		int e = errno;

		/* an open can fail after O_CREAT made the file (O_DIRECT on
		 * 6.1's tmpfs: EINVAL): label the new inode all the same */
		if (created && lstat(p, &st) == 0)
			label_ino(st.st_ino, op->file, 1);
		result(o, which, -1, e);
	}
}

static void g_write(const struct dt_op *op, struct dt_opres *o, int which)
{
	long r = write(fd_of(op), wbuf, (size_t)op->len);

	result(o, which, r, errno);
}

static void g_read(const struct dt_op *op, struct dt_opres *o, int which)
{
	long r = read(fd_of(op), rbuf, (size_t)op->len);

	result(o, which, r, errno);
}

static void g_ftruncate(const struct dt_op *op, struct dt_opres *o, int which)
{
	long r = ftruncate(fd_of(op), (off_t)op->len);

	result(o, which, r, errno);
}

static void g_remount(const struct dt_op *op, struct dt_opres *o, int which)
{
	long r;

	r = mount(gfs->bdev ? DM_NODE : "tmpfs", opt_mnt, gfs->type,
		  MS_REMOUNT | (op->flags & REMOUNT_RO ? MS_RDONLY : 0), gfs->opts);
	result(o, which, r, errno);
}

static void g_cycle(const struct dt_op *op, struct dt_opres *o, int which)
{
	char why[300];
	long r;

	(void)op;
	/* umount and mount again: no reset of the device's wb_err here */
	if (umount(opt_mnt)) {
		result(o, which, -1, errno);
		return;
	}
	r = fs_mount(why, sizeof(why));
	if (r)
		fprintf(stderr, "DT I dtguest: cycle: %s\n", why);
	/* a new superblock: tmpfs numbers its inodes from the start again */
	if (!gfs->bdev)
		ninomap = 0;
	result(o, which, r ? -1 : 0, EIO);
}

static void g_mmap(const struct dt_op *op, struct dt_opres *o, int which)
{
	int fd = fd_of(op);
	struct stat st;
	size_t len = fd >= 0 && fstat(fd, &st) == 0 ? (size_t)st.st_size : 0;
	void *a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (a == MAP_FAILED) {
		result(o, which, -1, errno);
		return;
	}
	maps[op->fd].p = a;
	maps[op->fd].len = (len + 4095) / 4096 * 4096;
	result(o, which, 0, 0);
}

static void g_mwrite(const struct dt_op *op, struct dt_opres *o, int which)
{
	long r;
	struct sigaction sa, old;

	if (!maps[op->fd].p) {
		result(o, which, -1, EINVAL); /* harness: no mapping */
		return;
	}
	if ((size_t)(op->off + op->len) > maps[op->fd].len) {
		result(o, which, -1, ERANGE); /* harness: past the mapping */
		return;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(bus_jmp, 1) == 0) {
		/* page by page, in order, as the model says */
		for (long long q = op->off; q < op->off + op->len; q += 4096 - q % 4096) {
			long long n = 4096 - q % 4096;

			if (q + n > op->off + op->len)
				n = op->off + op->len - q;
			memcpy(maps[op->fd].p + q, wbuf, (size_t)n);
		}
		r = 0;
	} else {
		r = -1; /* SIGBUS: a page past the end of the file */
		errno = EFAULT;
	}
	sigaction(SIGBUS, &old, NULL);
	result(o, which, r, errno);
}

static void g_msync(const struct dt_op *op, struct dt_opres *o, int which)
{
	long r;

	if (!maps[op->fd].p) {
		result(o, which, -1, EINVAL);
		return;
	}
	r = msync(maps[op->fd].p, maps[op->fd].len,
		  op->flags & MSYNC_SYNC ? MS_SYNC : MS_ASYNC);
	result(o, which, r, errno);
}

static void g_munmap(const struct dt_op *op, struct dt_opres *o, int which)
{
	long r;

	if (!maps[op->fd].p) {
		result(o, which, -1, EINVAL);
		return;
	}
	r = munmap(maps[op->fd].p, maps[op->fd].len);
	maps[op->fd].p = NULL;
	result(o, which, r, errno);
}

static void g_fallocate(const struct dt_op *op, struct dt_opres *o, int which)
{
	long r = fallocate(fd_of(op), (int)op->flags, (off_t)op->off, (off_t)op->len);

	result(o, which, r, errno);
}

static void g_dup(const struct dt_op *op, struct dt_opres *o, int which)
{
	int fd = fd_of(op);
	long r;

	r = dup(fd);
	fds[op->fd2] = r >= 0 ? (int)r : -1;
	fd_raw[op->fd2] = fd_raw[op->fd];
	result(o, which, r < 0 ? -1 : 0, errno);
}

static void g_child(const struct dt_op *op, struct dt_opres *o, int which)
{
	/* the op in a forked child: its descriptors name our struct files */
	struct dt_opres c;
	long rv[2] = {-1, EPROTO};
	int pfd[2], st;
	pid_t pid;

	if (pipe(pfd))
		die("pipe: %s", strerror(errno));
	fflush(out);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		memset(&c, 0, sizeof(c));
		run_op(&op->sub[0], &c, 0);
		rv[0] = c.ret[0];
		rv[1] = c.err[0];
		_exit(write(pfd[1], rv, sizeof(rv)) == sizeof(rv) ? 0 : 1);
	}
	close(pfd[1]);
	if (read(pfd[0], rv, sizeof(rv)) != sizeof(rv))
		rv[0] = -1, rv[1] = EPROTO; /* the child died: a result no kernel gives here */
	close(pfd[0]);
	waitpid(pid, &st, 0);
	result(o, which, rv[0], (int)rv[1]);
}

static void g_fsync(const struct dt_op *op, struct dt_opres *o, int which)
{
	long r = fsync(fd_of(op));

	result(o, which, r, errno);
}

/* The test directory opened O_RDONLY | O_DIRECTORY: a descriptor, or -1 (errno). Its
 * events are "dir"'s, whatever number it has now (vfat, exfat: a new one each time it
 * is read in). */
static int tdir_open(void)
{
	char p[256];
	struct stat st;
	int dfd, e;

	snprintf(p, sizeof(p), "%s/t", opt_mnt);
	dfd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	e = errno;
	if (fstat(dfd, &st) == 0)
		label_ino(st.st_ino, LABEL_DIR, 1);
	errno = e;
	return dfd;
}

/* fsyncdir: the test directory opened, fsync'ed and closed: fsync's result
 * (open's, if it fails) */
static void g_fsyncdir(const struct dt_op *op, struct dt_opres *o, int which)
{
	int dfd = tdir_open(), e;
	long r;

	(void)op;
	if (dfd < 0) {
		result(o, which, -1, errno);
		return;
	}
	r = fsync(dfd);
	e = errno;
	close(dfd);
	result(o, which, r, e);
}

/* dirsync: chattr +D of the test directory: FS_IOC_GETFLAGS, then
 * FS_IOC_SETFLAGS with FS_DIRSYNC_FL (the first ioctl's error, if it fails) */
static void g_dirsync(const struct dt_op *op, struct dt_opres *o, int which)
{
	int dfd = tdir_open(), fl = 0, e = 0;
	long r;

	(void)op;
	if (dfd < 0) {
		result(o, which, -1, errno);
		return;
	}
	r = ioctl(dfd, FS_IOC_GETFLAGS, &fl);
	if (r == 0) {
		fl |= FS_DIRSYNC_FL;
		r = ioctl(dfd, FS_IOC_SETFLAGS, &fl);
	}
	if (r)
		e = errno;
	close(dfd);
	result(o, which, r ? -1 : 0, e);
}

static void g_fdatasync(const struct dt_op *op, struct dt_opres *o, int which)
{
	long r = fdatasync(fd_of(op));

	result(o, which, r, errno);
}

static void g_sfr(const struct dt_op *op, struct dt_opres *o, int which)
{
	long r = sync_file_range(fd_of(op), op->off, op->len, op->flags);

	result(o, which, r, errno);
}

static void g_syncfs(const struct dt_op *op, struct dt_opres *o, int which)
{
	long r = syncfs(fd_of(op));

	result(o, which, r, errno);
}

static void g_close(const struct dt_op *op, struct dt_opres *o, int which)
{
	long r = close(fd_of(op));

	result(o, which, r, errno);
	fds[op->fd] = -1;
}

static void g_unlink(const struct dt_op *op, struct dt_opres *o, int which)
{
	char p[256];
	long r;

	fpath(p, sizeof(p), op->file);
	r = unlink(p);
	result(o, which, r, errno);
}

static void g_link(const struct dt_op *op, struct dt_opres *o, int which)
{
	char p[256], q[256];
	long r;

	fpath(p, sizeof(p), op->file);
	fpath(q, sizeof(q), op->file2);
	r = op->code == OP_LINK ? link(p, q) : rename(p, q);
	result(o, which, r, errno);
}

/* a failed step shows as the evict op's result: the model says 0 */
static void g_evict(const struct dt_op *op, struct dt_opres *o, int which)
{
	char paths[DT_MAX_FILES][256];
	const char *pp[DT_MAX_FILES + 1];
	int n = DT_MAX_FILES;
	long r;

	(void)op;
	for (int i = 0; i < DT_MAX_FILES; i++) {
		fpath(paths[i], sizeof(paths[i]), i);
		pp[i] = paths[i];
	}
	/* the raw device's clean pages too (drop_caches alone may miss
	 * pages in a CPU's LRU cache; fadvise drains them) */
	if (raw_live)
		pp[n++] = RAW_NODE;
	r = fault_evict(pp, n);
	result(o, which, r ? -1 : 0, (int)r);
}

static void g_sync(const struct dt_op *op, struct dt_opres *o, int which)
{
	(void)op;
	sync();
	result(o, which, 0, 0);
}

static void g_error_data(const struct dt_op *op, struct dt_opres *o, int which)
{
	int fd = fd_of(op);
	char p[256], cmd[320];
	long r;
	struct stat st;

	if (op->file >= 0) {
		fpath(p, sizeof(p), op->file);
		if (stat(p, &st) < 0) {
			result(o, which, -1, errno);
			return;
		}
		label_ino(st.st_ino, op->file, 0);
	} else {
		if (fd < 0) {
			result(o, which, -1, EBADF);
			return;
		}
		snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	}
	if (op->file < 0 && fd_raw[op->fd] == 1)
		snprintf(cmd, sizeof(cmd), "fd %d %d", fd, op->err); /* the bdev's mapping */
	else
		snprintf(cmd, sizeof(cmd), "data %s %d", p, op->err);
	r = inject(cmd);
	result(o, which, r ? -1 : 0, -(int)r);
}

static void g_fail(const struct dt_op *op, struct dt_opres *o, int which)
{
	int fd = fd_of(op);
	long r;

	if (fd < 0) {
		result(o, which, -1, EBADF);
		return;
	}
	if (fd_raw[op->fd] == 1)
		r = fault_raw_fail(); /* the whole raw device, nothing written out */
	else
		r = fault_dm_fail_fd(fd, 1); /* write the file out, then fail its extents */
	result(o, which, r ? -1 : 0, -(int)r);
}

static void held_dir_close(void)
{
	if (held_dir >= 0)
		close(held_dir);
	held_dir = -1;
}

static unsigned le16(const unsigned char *p)
{
	return p[0] | (unsigned)p[1] << 8;
}

static unsigned long le32(const unsigned char *p)
{
	return le16(p) | (unsigned long)le16(p + 2) << 16;
}

/*
 * The sectors of the block that holds inode @ino of the ext2 or ext4
 * filesystem on @fd: the inode table its group descriptor names
 * (fs/ext4/inode.c __ext4_get_inode_loc(), fs/ext2/inode.c ext2_get_inode()).
 * Returns 0 or -errno.
 */
static int itable_sectors(int fd, unsigned long ino, unsigned long long *first,
			  unsigned long long *n)
{
	unsigned char sb[1024], gd[64];
	unsigned long ipg, bsize, isize, dsize, group;
	unsigned long long table, block;

	if (pread(fd, sb, sizeof(sb), 1024) != (ssize_t)sizeof(sb))
		return -EIO;
	if (le16(sb + 0x38) != 0xEF53 || (le32(sb + 0x60) & 0x10)) /* magic; META_BG */
		return -EOPNOTSUPP;
	ipg = le32(sb + 0x28);
	bsize = 1024ul << le32(sb + 0x18);
	isize = le32(sb + 0x4c) ? le16(sb + 0x58) : 128;
	dsize = (le32(sb + 0x60) & 0x80) ? le16(sb + 0xfe) : 32; /* INCOMPAT_64BIT */
	if (!ipg || ino < 1 || dsize < 32 || dsize > sizeof(gd) || !isize || bsize > 65536)
		return -EINVAL;
	group = (ino - 1) / ipg;
	if (pread(fd, gd, dsize, (off_t)((le32(sb + 0x14) + 1) * bsize + group * dsize)) !=
	    (ssize_t)dsize)
		return -EIO;
	table = le32(gd + 8) | (dsize >= 64 ? (unsigned long long)le32(gd + 0x28) << 32 : 0);
	block = table + (ino - 1) % ipg * isize / bsize;
	*first = block * (bsize / 512);
	*n = bsize / 512;
	return 0;
}

/*
 * failread (model/inject.c m_op_failread()): freeze and thaw (a checkpoint),
 * evict, hold the test directory, then "error" over the inode block of each
 * fN the directory lists (its entries' numbers: no inode is read in).
 */
static void g_failread(const struct dt_op *op, struct dt_opres *o, int which)
{
	char p[256], paths[DT_MAX_FILES][256];
	const char *pp[DT_MAX_FILES + 1], *step = "FITHAW";
	struct dirent *de;
	DIR *dd = NULL;
	int mfd, dfd = -1, n = DT_MAX_FILES, r = 0;

	(void)op;
	if (!gfs->itable) {
		result(o, which, -1, EOPNOTSUPP);
		return;
	}
	/* the freeze's sync_filesystem() fails it: the kernel's result */
	mfd = open(opt_mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mfd < 0 || ioctl(mfd, FIFREEZE, 0)) {
		result(o, which, -1, errno);
		if (mfd >= 0)
			close(mfd);
		return;
	}
	/* from here on a failure is the harness's (DT X): the script is not
	 * judged (a thaw that failed leaves the filesystem frozen) */
	if (ioctl(mfd, FITHAW, 0))
		r = errno;
	close(mfd);
	/* the directory's inode stays in memory (it may share the failing
	 * block); O_NOATIME: reading it must not dirty that inode */
	snprintf(p, sizeof(p), "%s/t", opt_mnt);
	held_dir_close();
	if (!r) {
		step = "open of the test directory";
		held_dir = open(p, O_RDONLY | O_DIRECTORY | O_NOATIME | O_CLOEXEC);
		if (held_dir < 0)
			r = errno;
	}
	for (int i = 0; i < DT_MAX_FILES; i++) {
		fpath(paths[i], sizeof(paths[i]), i);
		pp[i] = paths[i];
	}
	/* the raw device's clean pages too, as g_evict() (6.1's drop_caches
	 * does not drain the CPUs' LRU caches; fadvise does) */
	if (raw_live)
		pp[n++] = RAW_NODE;
	if (!r) {
		step = "evict";
		r = fault_evict(pp, n);
	}
	/* BLKFLSBUF: invalidate_bdev() drains the CPUs' LRU caches first,
	 * where the inode blocks evict's fadvise read in may sit, which
	 * drop_caches passes over (its sync_filesystem() finds nothing) */
	if (!r) {
		int bfd = open(DM_NODE, O_RDONLY | O_CLOEXEC);

		step = "BLKFLSBUF";
		if (bfd < 0 || ioctl(bfd, BLKFLSBUF, 0))
			r = errno;
		if (bfd >= 0)
			close(bfd);
	}
	if (!r) {
		step = "readdir";
		dfd = dup(held_dir);
		if (dfd < 0 || !(dd = fdopendir(dfd)))
			r = errno;
		if (!dd && dfd >= 0)
			close(dfd);
	}
	while (!r && dd) {
		unsigned long long first = 0, len = 0;
		int f, fd;
		char c;

		errno = 0;
		if (!(de = readdir(dd))) {
			r = errno;
			break;
		}
		if (sscanf(de->d_name, "f%d%c", &f, &c) != 1)
			continue;
		step = "the inode block of a script file";
		fd = open(DM_NODE, O_RDONLY | O_CLOEXEC);
		r = fd < 0 ? errno : -itable_sectors(fd, de->d_ino, &first, &len);
		if (fd >= 0)
			close(fd);
		if (!r) {
			step = "the dm table";
			r = -fault_dm_fail_range(first, len);
		}
	}
	if (dd)
		closedir(dd);
	if (r)
		harness_failed("failread: %s: %s", step, strerror(r));
	result(o, which, r ? -1 : 0, r);
}

static void g_heal(const struct dt_op *op, struct dt_opres *o, int which)
{
	long r;

	(void)op;
	held_dir_close();
	r = gfs->bdev ? fault_dm_heal() : 0;
	if (!r && raw_live)
		r = fault_raw_heal();
	result(o, which, r ? -1 : 0, -(int)r);
}

static void g_error_meta(const struct dt_op *op, struct dt_opres *o, int which)
{
	char p[256], cmd[320];
	long r;

	if (!gfs->bdev) {
		/* no block device, no metadata buffers (the model: the same) */
		result(o, which, -1, ENOTBLK);
		return;
	}
	snprintf(cmd, sizeof(cmd), "meta %s %d", opt_mnt, op->err);
	r = inject(cmd);
	if (!r && gfs->journal) {
		/* settle: a journal write access, so ext4's own reader of
		 * the bdev error (ext4_check_bdev_write_error) runs now and
		 * not at some later time of the flusher's choosing */
		snprintf(p, sizeof(p), "%s/.settle", opt_mnt);
		int sfd = open(p, O_CREAT | O_RDWR | O_CLOEXEC, 0644);

		if (sfd >= 0)
			close(sfd);
		unlink(p);
	}
	result(o, which, r ? -1 : 0, -(int)r);
}

struct par_arg {
	const struct dt_op *op;
	struct dt_opres *o;
	int which;
	pthread_barrier_t *bar;
	double t0, t1; /* when its op began and ended (CLOCK_MONOTONIC) */
};

/* A script's par lines, and how many of them ran their two ops at once (the threads'
 * times overlapped), said after it: "DT I par-overlap NAME OVERLAPPED/LINES" */
static int par_lines, par_overlaps;

static void *par_thread(void *a)
{
	struct par_arg *pa = a;

	pthread_barrier_wait(pa->bar);
	pa->t0 = now();
	run_op(pa->op, pa->o, pa->which);
	pa->t1 = now();
	return NULL;
}

static void run_par(const struct dt_op *op, struct dt_opres *o)
{
	pthread_t t[2];
	pthread_barrier_t bar;
	struct par_arg a[2];

	pthread_barrier_init(&bar, NULL, 2);
	for (int i = 0; i < 2; i++) {
		pthread_attr_t at;
		cpu_set_t set;

		/*
		 * Each thread on a CPU of its own where there are two: left to
		 * the scheduler, both often ran on one CPU, one after the other.
		 * Pinned, stock 6.1 reported one syncfs error to both threads in
		 * 71 of 200 rounds (kernel-port races test, no probe).
		 */
		a[i] = (struct par_arg){&op->sub[i], o, i, &bar};
		CPU_ZERO(&set);
		CPU_SET(i, &set);
		if (pthread_attr_init(&at))
			die("pthread_attr_init");
		if (ncpus > 1 && pthread_attr_setaffinity_np(&at, sizeof(set), &set))
			die("pthread_attr_setaffinity_np");
		if (pthread_create(&t[i], &at, par_thread, &a[i]))
			die("pthread_create");
		pthread_attr_destroy(&at);
	}
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&bar);
	par_lines++;
	if ((a[0].t0 > a[1].t0 ? a[0].t0 : a[1].t0) < (a[0].t1 < a[1].t1 ? a[0].t1 : a[1].t1))
		par_overlaps++;
}

/* par OP ; OP: each in a thread of its own */
static void g_par(const struct dt_op *op, struct dt_opres *o, int which)
{
	(void)which;
	run_par(op, o);
}

/* Each op's handler: runs it with real syscalls, its result through result(). */
typedef void g_handler(const struct dt_op *op, struct dt_opres *o, int which);

static g_handler *const g_ops[OP__COUNT] = {
	[OP_OPEN] = g_open,
	[OP_WRITE] = g_write,
	[OP_FSYNC] = g_fsync,
	[OP_FDATASYNC] = g_fdatasync,
	[OP_SFR] = g_sfr,
	[OP_SYNCFS] = g_syncfs,
	[OP_CLOSE] = g_close,
	[OP_UNLINK] = g_unlink,
	[OP_EVICT] = g_evict,
	[OP_SYNC] = g_sync,
	[OP_ERR_DATA] = g_error_data,
	[OP_ERR_META] = g_error_meta,
	[OP_PAR] = g_par,
	[OP_FAIL] = g_fail,
	[OP_HEAL] = g_heal,
	[OP_READ] = g_read,
	[OP_FTRUNCATE] = g_ftruncate,
	[OP_DUP] = g_dup,
	[OP_FALLOCATE] = g_fallocate,
	[OP_CYCLE] = g_cycle,
	[OP_LINK] = g_link,
	[OP_RENAME] = g_link,
	[OP_CHILD] = g_child,
	[OP_MMAP] = g_mmap,
	[OP_MWRITE] = g_mwrite,
	[OP_MSYNC] = g_msync,
	[OP_MUNMAP] = g_munmap,
	[OP_REMOUNT] = g_remount,
	[OP_FSYNCDIR] = g_fsyncdir,
	[OP_FAILREAD] = g_failread,
	[OP_DIRSYNC] = g_dirsync,
};

static void run_op(const struct dt_op *op, struct dt_opres *o, int which)
{
	if ((unsigned)op->code >= OP__COUNT || !g_ops[op->code]) {
		result(o, which, -1, EINVAL);
		return;
	}
	g_ops[op->code](op, o, which);
}

/* ---- one script ---- */

/* Mount the filesystem of --fs on the mount point (over the dm device, or
 * tmpfs), with its test directory; fs_dev names its device for the trace. */
static int fs_mount(char *why, size_t len)
{
	char p[256];
	struct stat st;

	mkdir(opt_mnt, 0755);
	if (mount(gfs->bdev ? DM_NODE : "tmpfs", opt_mnt, gfs->type, 0, gfs->opts)) {
		snprintf(why, len, "mount %s %s (over %s) on %s (%s): %s", gfs->type,
			 gfs->bdev ? DM_NODE : "tmpfs", gfs->bdev ? opt_dev : "-", opt_mnt, gfs->opts,
			 strerror(errno));
		return -1;
	}
	snprintf(p, sizeof(p), "%s/t", opt_mnt);
	mkdir(p, 0755);
	if (stat(opt_mnt, &st)) {
		snprintf(why, len, "stat %s: %s", opt_mnt, strerror(errno));
		return -1;
	}
	fs_dev = st.st_dev;
	/* the superblock's s_dev, which the tracepoints print: /proc/self/mountinfo's
	 * MAJ:MIN; st_dev differs on btrfs (a subvolume's anonymous device) */
	{
		FILE *mi = fopen("/proc/self/mountinfo", "r");
		char line[1024], mp[512];
		unsigned maj, min;

		while (mi && fgets(line, sizeof(line), mi))
			if (sscanf(line, "%*d %*d %u:%u %*s %511s", &maj, &min, mp) == 3 &&
			    !strcmp(mp, opt_mnt))
				fs_dev = makedev(maj, min); /* the last mount there */
		if (mi)
			fclose(mi);
	}
	return 0;
}

/*
 * Unlink the script's files, each inode at most as many times as its link count. A
 * name may be stale (stock ext2 undid a change whose entry is written, model/namei.c):
 * lstat() fails (a negative dentry, or ESTALE's EIO), or it names an inode another name
 * names too while its link count says one; unlinking both would drop the count below
 * zero (drop_nlink()'s warning, a corrupt inode).
 */
static void tdir_empty(void)
{
	ino_t ino[DT_MAX_FILES];
	nlink_t left[DT_MAX_FILES];
	int n = 0, k;
	struct stat st;
	char p[256];

	for (int i = 0; i < DT_MAX_FILES; i++) {
		fpath(p, sizeof(p), i);
		if (lstat(p, &st))
			continue;
		for (k = 0; k < n && ino[k] != st.st_ino; k++)
			;
		if (k == n) {
			ino[n] = st.st_ino;
			left[n++] = st.st_nlink;
		}
		if (left[k] && unlink(p) == 0)
			left[k]--;
	}
}

/*
 * Each script has a test directory of its own, made here (no FS_DIRSYNC_FL, no error,
 * nothing in it): the last one, emptied, goes; one that stale entries keep from being
 * emptied is moved aside (old.N at the mount's root, its entries naming freed inodes).
 */
static void tdir_renew(void)
{
	char p[256], q[256];

	tdir_empty();
	snprintf(p, sizeof(p), "%s/t", opt_mnt);
	if (rmdir(p) && errno != ENOENT)
		for (int n = 0; n < 100000; n++) {
			snprintf(q, sizeof(q), "%s/old.%d", opt_mnt, n);
			if (rename(p, q) == 0)
				break;
			if (errno != EEXIST && errno != ENOTEMPTY) {
				fprintf(stderr, "DT I dtguest: rename %s %s: %s\n", p, q,
					strerror(errno));
				break;
			}
		}
	mkdir(p, 0755);
}

static int uses_raw(const struct dt_script *s)
{
	for (int i = 0; i < s->nops; i++)
		if (s->ops[i].code == OP_OPEN && s->ops[i].file == DT_FILE_RAW)
			return 1;
	return 0;
}

/*
 * The raw device for a script that opens it: a dm device over --raw, made
 * once a batch, with readahead off (fault.c: after every table load), and its
 * wb_err reset before each script. Between scripts nothing holds it open, so
 * its page cache went at the last close (kill_bdev()).
 */
static int raw_setup(char *why, size_t len)
{
	char cmd[300];
	struct stat st;
	int r;

	if (!raw_live) {
		if (fault_raw_up(RAW_NAME, RAW_NODE, opt_raw, why, len))
			return -1;
		raw_live = 1;
		if (stat(RAW_NODE, &st)) {
			snprintf(why, len, "stat %s: %s", RAW_NODE, strerror(errno));
			return -1;
		}
		raw_kdev = ((unsigned long)major(st.st_rdev) << 20) | minor(st.st_rdev);
	}
	snprintf(cmd, sizeof(cmd), "reset %s", RAW_NODE);
	if ((r = inject(cmd))) {
		snprintf(why, len, "reset of %s through %s failed: %s", RAW_NODE, opt_inject,
			 strerror(-r));
		return -1;
	}
	return 0;
}

static void raw_down(void)
{
	if (raw_live)
		fault_raw_down();
	raw_live = 0;
}

static int setup(const struct dt_script *s, char *why, size_t len)
{
	char cmd[300];
	int r;

	if (uses_raw(s) && raw_setup(why, len))
		return -1;
	/*
	 * One dm device for the whole batch: creating and removing one per
	 * script cost more than its ops under TCG. Between scripts it is all
	 * linear (teardown heals it) and unmounted, so its page cache was
	 * dropped at the last close; its wb_err is reset below.
	 */
	if (!gfs->bdev)
		goto mount;
	if (!dm_live) {
		if (fault_dm_up(DM_NAME, DM_NODE, opt_dev, why, len))
			return -1;
		dm_live = 1;
	}
	snprintf(cmd, sizeof(cmd), "reset %s", DM_NODE);
	if ((r = inject(cmd))) {
		snprintf(why, len, "reset of %s through %s failed: %s", DM_NODE, opt_inject,
			 strerror(-r));
		return -1;
	}
mount:
	if (fs_mount(why, len))
		return -1;
	tdir_renew();
	return 0;
}

static void dm_down(void);

static void teardown(void)
{
	int heal_failed = 0;

	/* a device left with failed extents is made anew for the next script;
	 * the raw device is healed before its descriptors close (the last
	 * close writes its dirty pages out) */
	held_dir_close();
	if (fault_dm_nfail() && fault_dm_heal())
		heal_failed = 1;
	if (raw_live && fault_raw_nfail() && fault_raw_heal())
		heal_failed |= 2;
	for (int i = 0; i < DT_MAX_FDS; i++) {
		if (maps[i].p)
			munmap(maps[i].p, maps[i].len);
		maps[i].p = NULL;
		if (fds[i] >= 0) {
			close(fds[i]);
			fds[i] = -1;
		}
	}
	tdir_empty();
	if (umount(opt_mnt))
		fprintf(stderr, "DT I dtguest: umount %s: %s\n", opt_mnt, strerror(errno));
	if (heal_failed & 1)
		dm_down();
	if (heal_failed & 2)
		raw_down();
}

static void dm_down(void)
{
	if (dm_live)
		fault_dm_down();
	dm_live = 0;
}

static void run_script(const struct dt_script *s)
{
	struct dt_sresult r;
	double t = now(), t1;
	long losses, ring_lost = 0;

	par_lines = par_overlaps = 0;
	dt_sresult_init(&r, s->name, s->nops);
	cur_res = &r;
	for (int i = 0; i < DT_MAX_FDS; i++)
		fds[i] = -1;
	ninomap = 0;
	for (int i = 0; i < DT_MAX_FDS; i++)
		fd_raw[i] = 0;
	if (setup(s, r.fail, sizeof(r.fail))) {
		r.nops = 0;
		dt_sresult_print(out, &r);
		fflush(out);
		cur_res = NULL;
		dt_sresult_free(&r);
		umount(opt_mnt);
		dm_down();
		raw_down();
		return;
	}
	r.trace = tracedir != NULL;
	trace_collect(NULL);	/* what set-up recorded */
	losses = trace_losses();
	t1 = now();
	phase[PH_SETUP] += t1 - t;
	for (int i = 0; i < s->nops; i++) {
		t = now();
		run_op(&s->ops[i], &r.ops[i], 0);
		t1 = now();
		phase[PH_OPS] += t1 - t;
		optime[s->ops[i].code] += t1 - t;
		opcount[s->ops[i].code]++;
		trace_collect(&r.ops[i]);
		if (r.trace) {
			long l = trace_losses();

			if (l > losses) {
				r.ops[i].tr_lost += (int)(l - losses > INT_MAX / 2 ? INT_MAX / 2 :
							  l - losses);
				ring_lost += l - losses;
				losses = l;
			}
		}
		phase[PH_TRACE] += now() - t1;
	}
	t = now();
	teardown();
	phase[PH_TEARDOWN] += now() - t;
	r.complete = 1;
	if (par_lines)
		fprintf(out, "DT I par-overlap %s %d/%d\n", s->name, par_overlaps, par_lines);
	/* said apart from the ops' "lost" counts, which hold these too */
	if (ring_lost)
		fprintf(out, "DT I trace-losses %s %ld\n", s->name, ring_lost);
	dt_sresult_print(out, &r);
	fflush(out);
	cur_res = NULL;
	dt_sresult_free(&r);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{"fs", 1, NULL, 'f'},  {"dev", 1, NULL, 'd'}, {"mnt", 1, NULL, 'm'}, {"raw", 1, NULL, 'r'},
		{"inject", 1, NULL, 'i'}, {"out", 1, NULL, 'o'}, {"no-trace", 0, NULL, 'n'},
		{"check", 0, NULL, 'c'}, {"itable", 1, NULL, 't'}, {NULL, 0, NULL, 0},
	};
	int c, notrace = 0, check = 0, status = 0;
	const char *itable = NULL;

	out = stdout;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'f': opt_fs = optarg; break;
		case 'd': opt_dev = optarg; break;
		case 'r': opt_raw = optarg; break;
		case 'm': opt_mnt = optarg; break;
		case 'i': opt_inject = optarg; break;
		case 'o':
			out = fopen(optarg, "a");
			if (!out)
				die("%s: %s", optarg, strerror(errno));
			break;
		case 'n': notrace = 1; break;
		case 'c': check = 1; break;
		case 't': itable = optarg; break;
		default:
			fprintf(stderr, "usage: dtguest [--check] --fs FS --dev DEV [--raw DEV] "
					"[--mnt DIR] [--inject PATH] [--out FILE] [--no-trace] "
					"BATCH...\n"
					"       dtguest --itable IMAGE INO...  (failread's sectors of "
					"each ext2/ext4 inode)\n");
			return 2;
		}
	}
	if (itable) {
		/* "INO FIRST COUNT" a line: where failread puts the error target */
		int fd = open(itable, O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			die("%s: %s", itable, strerror(errno));
		for (int a = optind; a < argc; a++) {
			unsigned long long first, n;
			char *end;
			unsigned long ino = strtoul(argv[a], &end, 10);
			int r = *end ? -EINVAL : itable_sectors(fd, ino, &first, &n);

			if (r)
				die("inode %s of %s: %s", argv[a], itable, strerror(-r));
			printf("%lu %llu %llu\n", ino, first, n);
		}
		close(fd);
		return 0;
	}
	for (int c = 0; c < OP__COUNT; c++)
		if (!g_ops[c])
			die("op %s has no handler in g_ops[]", dt_opname(c));
	for (size_t i = 0; i < sizeof(gfs_table) / sizeof(gfs_table[0]) && !gfs; i++)
		if (!strcmp(opt_fs, gfs_table[i].name))
			gfs = &gfs_table[i];
	if (!gfs)
		die("unknown --fs %s (ext2, ext4-ordered, ext4-journal, vfat, exfat, xfs, btrfs, tmpfs)",
		    opt_fs);
	if (optind >= argc)
		die("no batch file");
	memset(wbuf, 'x', sizeof(wbuf));
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (!check) {
		write_file("/proc/sys/vm/dirty_writeback_centisecs", "0");
		if (!notrace && trace_setup())
			fprintf(stderr, "DT I dtguest: no filemap tracepoints; results without trace\n");
	}
	for (int a = optind; a < argc; a++) {
		struct dt_batch b;
		char err[512];

		if (dt_parse_file(argv[a], &b, err, sizeof(err))) {
			fprintf(stderr, "DT I dtguest: %s\n", err);
			status = 2;
			continue;
		}
		if (check) {
			printf("%s: %d script(s) ok\n", argv[a], b.nscripts);
			dt_batch_free(&b);
			continue;
		}
		fprintf(out, "DT B %s fs=%s scripts=%d\n", argv[a], opt_fs, b.nscripts);
		memset(phase, 0, sizeof(phase));
		memset(optime, 0, sizeof(optime));
		memset(opcount, 0, sizeof(opcount));
		for (int i = 0; i < b.nscripts; i++)
			run_script(&b.scripts[i]);
		dm_down();
		raw_down();
		fprintf(out, "DT I phases %s setup=%.2f ops=%.2f trace=%.2f teardown=%.2f\n", opt_fs,
			phase[PH_SETUP], phase[PH_OPS], phase[PH_TRACE], phase[PH_TEARDOWN]);
		fprintf(out, "DT I optime %s", opt_fs);
		for (int c = 0; c < OP__COUNT; c++)
			if (opcount[c])
				fprintf(out, " %s=%d/%.2f", dt_opname(c), opcount[c], optime[c]);
		fprintf(out, "\n");
		fprintf(out, "DT Z %s\n", argv[a]);
		fflush(out);
		dt_batch_free(&b);
	}
	return status;
}
