// SPDX-License-Identifier: GPL-2.0
/*
 * racetest: drives the errseq_race module (errseq_race.c) from real syscalls in
 * the QEMU guest and counts what each descriptor was told.
 *
 * usage: racetest loss DIR ROUNDS MS
 *        racetest syncfs DIR ROUNDS MS     (MS = 0: no probe, the bare race)
 *        racetest fsync DIR DEV ROUNDS MS  (DEV: the block device under DIR)
 *
 * loss, one round (a new file in DIR, two descriptors fd0 and fd1 on it):
 *   set ENOSPC on the file; thread R0 fsync(fd0) is held at the cmpxchg of
 *   errseq_check_and_advance() (pause); meanwhile set EIO; release; R0 returns.
 *   Then set ENOSPC: this set runs entirely after R0's report. fsync(fd1),
 *   fsync(fd0): each must report it (0 = lost). A second fsync on each must
 *   return 0 (anything else = reported twice).
 * syncfs, one round (a new file in DIR, one descriptor): set EIO; two threads
 *   call syncfs() on the descriptor at once, the first to reach the cmpxchg
 *   waits there for the second (meet); then the main thread calls syncfs()
 *   again. Exactly one of the three calls must report the error: two = reported
 *   twice, none = lost.
 * fsync, one round (a new file in DIR, one descriptor): set EIO on the file (a
 *   data error) and on DEV (a metadata error: the block device's page cache);
 *   thread R0 calls fsync() and is held (hold, for R0's thread only) where it
 *   reaches the metadata cursor: at the entry of
 *   file_check_and_advance_md_wb_err(), outside f_lock, in the series before
 *   its 0025; since 0025, inside the one f_lock section of both cursors, at
 *   errseq_check_and_advance() on the block device's wb_err, until the time
 *   limit (the main thread waits for f_lock meanwhile). Meanwhile the main
 *   thread calls fsync() on the same descriptor; release; then the main thread
 *   calls fsync() once more. One description is told once: exactly one of the
 *   three calls must fail (two = reported twice, none = lost). widened: rounds
 *   in which R0 was held. Stock kernels have no metadata cursor: the hold is
 *   refused and the calls run one after another.
 * Prints "KPTEST race-NAME rounds=N widened=W lost=L twice=T ..." (widened:
 * rounds in which the probe held a task as planned).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CTL "/sys/kernel/debug/errseq_race"

static void die(const char *what)
{
	fprintf(stderr, "racetest: %s: %s\n", what, strerror(errno));
	exit(2);
}

/*
 * Write one command to the module: any failure is fatal but @ok, which is
 * returned (ENOENT: the module has no such probe), as is 0.
 */
static int ctlx(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int ctlx(int ok, const char *fmt, ...)
{
	char buf[64];
	va_list ap;
	int fd, n, err = 0;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fd = open(CTL, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		die(CTL);
	if (write(fd, buf, (size_t)n) != n)
		err = errno ? errno : EIO;
	close(fd);
	if (err && err != ok) {
		errno = err;
		die(buf);
	}
	return err;
}

#define ctl(...) ((void)ctlx(0, __VA_ARGS__))
#define ctl_try(...) ctlx(ENOENT, __VA_ARGS__)

/* The module's counters: hits, waited, timeouts. */
static void stats(int *hits, int *waited, int *timeouts)
{
	char buf[128];
	int fd = open(CTL, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		die(CTL);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		die("read " CTL);
	buf[n] = '\0';
	if (sscanf(buf, "cas=+%*x hits=%d waited=%d timeouts=%d md=%*d", hits, waited,
		   timeouts) != 3) {
		fprintf(stderr, "racetest: unexpected %s: %s", CTL, buf);
		exit(2);
	}
}

static const char *cas_off(void)
{
	static char buf[128];
	int fd = open(CTL, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return "?";
	buf[n] = '\0';
	buf[strcspn(buf, " \n")] = '\0';
	return buf + 4;	/* after "cas=" */
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int newfile(const char *dir, const char *tag, int round, char *path, size_t len)
{
	int fd;

	snprintf(path, len, "%s/%s%d", dir, tag, round);
	fd = open(path, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0644);
	if (fd < 0)
		die(path);
	return fd;
}

/*
 * Start @fn on CPU @cpu. A task held in the probe spins with preemption off: a
 * task it waits for must be on another CPU, or it could not run until the
 * time limit.
 */
static void start_on(pthread_t *t, int cpu, void *(*fn)(void *), void *arg)
{
	pthread_attr_t a;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_attr_init(&a) || pthread_attr_setaffinity_np(&a, sizeof(set), &set) ||
	    pthread_create(t, &a, fn, arg))
		die("pthread_create");
	pthread_attr_destroy(&a);
}

/* Keep the calling thread on @cpu. */
static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static int errof(int r)
{
	return r ? errno : 0;
}

/* Count a round whose calls reported @n times: once, twice (or more), none (lost). */
static void count_reports(int n, int *once, int *twice, int *lost)
{
	*once += n == 1;
	*twice += n >= 2;
	*lost += n == 0;
}

/* ---- loss */

static int loss_fd, loss_res;

static void *loss_reader(void *arg)
{
	(void)arg;
	loss_res = errof(fsync(loss_fd));
	return NULL;
}

static int cmd_loss(const char *dir, int rounds, int ms)
{
	int widened = 0, lost = 0, twice = 0, first_enospc = 0, first_eio = 0, timeouts = 0;
	char path[256];

	for (int i = 0; i < rounds; i++) {
		int fd0 = newfile(dir, "l", i, path, sizeof(path));
		int fd1 = open(path, O_RDWR | O_CLOEXEC);
		int hits = 0, waited, to, r0, r1, r0b, r1b;
		pthread_t t;
		double end;

		if (fd1 < 0)
			die(path);
		ctl("set %d %d", fd0, ENOSPC);
		ctl("pause %d %d", getpid(), ms);
		loss_fd = fd0;
		start_on(&t, 1, loss_reader, NULL);
		/* R0 is held between its load and its swap: another errno now */
		for (end = now() + ms / 1000.0; now() < end;) {
			stats(&hits, &waited, &to);
			if (hits)
				break;
		}
		if (hits)
			ctl("set %d %d", fd1, EIO);
		ctl("release");
		pthread_join(t, NULL);
		stats(&hits, &waited, &to);
		ctl("off");
		timeouts += to;
		widened += hits >= 1 && to == 0;
		first_enospc += loss_res == ENOSPC;
		first_eio += loss_res == EIO;
		/* after R0's report: one more error, on the file both descriptors watch */
		ctl("set %d %d", fd1, ENOSPC);
		r1 = errof(fsync(fd1));
		r0 = errof(fsync(fd0));
		r1b = errof(fsync(fd1));
		r0b = errof(fsync(fd0));
		lost += (r0 == 0) + (r1 == 0);
		twice += (r0b != 0) + (r1b != 0);
		close(fd0);
		close(fd1);
		unlink(path);
	}
	printf("KPTEST race-loss rounds=%d widened=%d lost=%d twice=%d first_enospc=%d first_eio=%d "
	       "timeouts=%d pause_ms=%d probe=errseq_check_and_advance%s\n",
	       rounds, widened, lost, twice, first_enospc, first_eio, timeouts, ms, cas_off());
	return 0;
}

/* ---- syncfs */

static pthread_barrier_t sb_start;
static int sb_fd, sb_res[2];

static void *sb_thread(void *arg)
{
	int i = (int)(long)arg;

	pthread_barrier_wait(&sb_start);
	sb_res[i] = errof(syncfs(sb_fd));
	return NULL;
}

static int cmd_syncfs(const char *dir, int rounds, int ms)
{
	int widened = 0, lost = 0, twice = 0, once = 0, timeouts = 0;
	char path[256];

	if (pthread_barrier_init(&sb_start, NULL, 2))
		die("pthread_barrier_init");
	for (int i = 0; i < rounds; i++) {
		int fd = newfile(dir, "s", i, path, sizeof(path));
		int hits = 0, waited = 0, to = 0, third, n;
		pthread_t t[2];

		/* whatever an earlier round left unseen is reported now, not counted */
		syncfs(fd);
		ctl("set %d %d", fd, EIO);
		if (ms)
			ctl("meet %d %d", getpid(), ms);
		sb_fd = fd;
		for (long k = 0; k < 2; k++)
			start_on(&t[k], (int)k, sb_thread, (void *)k);
		for (int k = 0; k < 2; k++)
			pthread_join(t[k], NULL);
		if (ms) {
			stats(&hits, &waited, &to);
			ctl("off");
		}
		third = errof(syncfs(fd));
		n = (sb_res[0] == EIO) + (sb_res[1] == EIO) + (third == EIO);
		widened += hits >= 2;
		timeouts += to;
		count_reports(n, &once, &twice, &lost);
		close(fd);
		unlink(path);
	}
	printf("KPTEST race-syncfs rounds=%d widened=%d lost=%d twice=%d once=%d timeouts=%d "
	       "meet_ms=%d probe=%s%s\n",
	       rounds, widened, lost, twice, once, timeouts, ms,
	       ms ? "errseq_check_and_advance" : "none", ms ? cas_off() : "");
	return 0;
}

/* ---- fsync */

static int fs_fd, fs_res, fs_ms, fs_held;
static volatile int fs_armed;

static void *fs_reader(void *arg)
{
	(void)arg;
	fs_held = fs_ms && !ctl_try("hold %d %d %d", (int)gettid(), fs_ms, fs_fd);
	__atomic_store_n(&fs_armed, 1, __ATOMIC_SEQ_CST);
	fs_res = errof(fsync(fs_fd));
	return NULL;
}

static int cmd_fsync(const char *dir, const char *dev, int rounds, int ms)
{
	int widened = 0, lost = 0, twice = 0, once = 0, timeouts = 0, held = 0;
	int bfd = open(dev, O_RDONLY | O_CLOEXEC);
	char path[256];

	if (bfd < 0)
		die(dev);
	for (int i = 0; i < rounds; i++) {
		int fd = newfile(dir, "f", i, path, sizeof(path));
		int hits = 0, waited = 0, to = 0, second, third, n;
		pthread_t t;
		double end;

		/* whatever an earlier round left unseen is reported now, not counted */
		fsync(fd);
		ctl("set %d %d", fd, EIO);
		ctl("set %d %d", bfd, EIO);
		fs_fd = fd;
		fs_ms = ms;
		fs_armed = 0;
		start_on(&t, 1, fs_reader, NULL);
		while (!__atomic_load_n(&fs_armed, __ATOMIC_SEQ_CST))
			sched_yield();
		held = fs_held;
		/* R0 is held between the data and the metadata cursor, if it gets there */
		for (end = now() + ms / 1000.0; held && now() < end;) {
			stats(&hits, &waited, &to);
			if (hits)
				break;
		}
		second = errof(fsync(fd));
		if (held) {
			ctl("release");
			pthread_join(t, NULL);
			stats(&hits, &waited, &to);
			ctl("off");
		} else {
			pthread_join(t, NULL);
		}
		third = errof(fsync(fd));
		n = (fs_res != 0) + (second != 0) + (third != 0);
		widened += hits >= 1;
		timeouts += to;
		count_reports(n, &once, &twice, &lost);
		close(fd);
		unlink(path);
	}
	close(bfd);
	printf("KPTEST race-fsync rounds=%d widened=%d lost=%d twice=%d once=%d timeouts=%d "
	       "hold_ms=%d probe=%s\n",
	       rounds, widened, lost, twice, once, timeouts, ms,
	       held ? "file_check_and_advance_md_wb_err" : "none(refused)");
	return 0;
}

int main(int argc, char **argv)
{
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		fprintf(stderr, "racetest: needs two CPUs (one task waits in the probe, spinning)\n");
		return 2;
	}
	pin(0);	/* the main thread; the held reader of "loss" runs on CPU 1 */
	if (argc == 5 && !strcmp(argv[1], "loss"))
		return cmd_loss(argv[2], atoi(argv[3]), atoi(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "syncfs"))
		return cmd_syncfs(argv[2], atoi(argv[3]), atoi(argv[4]));
	if (argc == 6 && !strcmp(argv[1], "fsync"))
		return cmd_fsync(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]));
	fprintf(stderr, "usage: racetest loss|syncfs DIR ROUNDS MS | fsync DIR DEV ROUNDS MS\n");
	return 2;
}
