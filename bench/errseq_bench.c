// SPDX-License-Identifier: GPL-2.0
/*
 * errseq_bench: errseq_t's set and check fast paths, side by side in one run,
 * for liberrseq, the kernel's own lib/errseq.c (built in userspace with the
 * same compiler and flags), a pthread mutex, and the legacy AS_EIO/AS_ENOSPC
 * flags. Prints CSV on stdout; bench/run.sh turns it into tables and a plot.
 *
 *   errseq_bench [--quick] [--runs N] [--iters N] [--truns N] [--ms N]
 *                [--threads N] [--only single|threads] [--icount]
 *
 * Single thread: --runs timed runs of --iters iterations of each loop,
 * median ns/op. Threads: --truns runs of --ms milliseconds, median of the
 * mean ops/s per reader; 1, 2, 4, ... up to --threads (default: the CPUs we
 * may run on) readers. Times are each thread's own CPU time, so that time
 * preempted by other work on a shared machine does not count.
 *
 * --icount runs each (implementation, operation) loop once, for
 * valgrind --tool=callgrind --collect-atstart=no: each loop is collected
 * alone and dumped as "impl/op" (see run.sh).
 *
 * Every measured loop is a noinline function, aligned to a cache line so
 * that code placement treats every implementation alike, whose body is one
 * operation,
 * an optional "pre" store restoring the state it needs, and a compiler
 * barrier; the library calls are real calls into other objects, and the
 * inline ones see their arguments through an empty asm, so nothing folds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "errseq.h"
#include "kernel_errseq.h"
#include "alt.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_TOGGLE_COLLECT	/* no valgrind headers: --icount just runs */
#define CALLGRIND_TOGGLE_COLLECT	do { } while (0)
#define CALLGRIND_DUMP_STATS_AT(name)	((void)(name))
#endif

/* The test name of the single-thread rows in the CSV. */
#ifndef BENCH_TEST_SINGLE
#define BENCH_TEST_SINGLE	"single"
#endif

#define noinline	__attribute__((noinline))
#define barrier()	__asm__ __volatile__("" ::: "memory")
#define hide(x)		__asm__ __volatile__("" : "+r"(x))
#define RELAXED		__ATOMIC_RELAXED
#define PAGE		4096
#define MAXT		64	/* most threads of a test */

/* Word values (errseq layout): the current word, seen or not, and an older one. */
#define SEEN		0x1000u
#define CTR		0x2000u
#define W_NOW		(3 * CTR | SEEN | EIO)
#define W_UNSEEN	(3 * CTR | EIO)
#define W_PREV		(2 * CTR | SEEN | EIO)

struct ctx {
	void *word;		/* shared: errseq word, mtx_obj or flags; own page */
	void *since;		/* this reader's since */
	void *cursor;		/* this reader's cursor */
	unsigned long phase;	/* the alternating writer's parity */
};

typedef uint64_t (*loop_fn)(struct ctx *c, uint64_t n);

enum op {
	OP_EMPTY,		/* the loop alone: the baseline */
	OP_RECORD0,		/* errseq_record(e, 0): the no-error path */
	OP_SET_UNSEEN,		/* set the error already there, unseen: no write */
	OP_SET_SEEN,		/* restore a seen word, set: the counter bump */
	OP_SET_CHANGED,		/* alternate EIO/ENOSPC on an unseen word: a CAS */
	OP_CHECK_SAME,		/* errseq_check(), nothing new */
	OP_CHECK_CHANGED,	/* errseq_check(), an error since the sample */
	OP_CNA_SAME,		/* errseq_check_and_advance(), nothing new */
	OP_CNA_CHANGED,		/* restore, check_and_advance: marks SEEN */
	OP_REPORT_SAME,		/* errseq_cursor_report(), nothing new */
	OP_FAST_SAME,		/* errseq_check_fast(), nothing new */
	OP_FAST_CHANGED,	/* errseq_check_fast(), an error since the sample */
	OP_REPORT_CALL,		/* 1.0's cursor report (calls errseq_check()) */
	NOPS,
	OP_T_CHECK = NOPS,	/* prep only: the interference test's readers */
};

static const char *const op_name[NOPS] = {
	"empty", "record0", "set_unseen", "set_seen", "set_changed",
	"check_same", "check_changed", "cna_same", "cna_changed", "report_same",
	"fast_same", "fast_changed", "report_same_call",
};

/*
 * The value each loop must add up to per iteration, checked before timing so
 * that a broken build cannot produce numbers. 1 means "not checked".
 */
static const int64_t op_expect[NOPS] = {
	0, 0, 1, 1, 1, 0, -EIO, 0, -EIO, 0, 0, -EIO, 0,
};

#define LOOP(name, T, pre, expr)					\
static noinline __attribute__((aligned(64))) uint64_t		\
loop_##name(struct ctx *c, uint64_t n)					\
{									\
	T *w = c->word;							\
	uint64_t acc = 0;						\
									\
	(void)w;							\
	for (uint64_t i = 0; i < n; i++) {				\
		pre;							\
		acc += (uint64_t)(int64_t)(expr);			\
		barrier();						\
	}								\
	return acc;							\
}

#define ALT_ERR(c, i)	(((i) + (c)->phase) & 1 ? -ENOSPC : -EIO)

/*
 * One errseq-shaped implementation: its loops and its state set-up. The
 * same text serves liberrseq and the kernel's code, at both widths.
 */
#define ES_IMPL(tag, T, SET, CHECK, CNA, RECORD, CUR, CUR_INIT, REPORT,	\
		FAST, REPORT_CALL)					\
LOOP(tag##_empty, T, , 0)						\
LOOP(tag##_record0, T, int zero = 0; hide(zero), (RECORD(w, zero), 0))	\
LOOP(tag##_set, T, , SET(w, -EIO))					\
LOOP(tag##_set_seen, T, __atomic_store_n(w, (T)W_NOW, RELAXED),	\
     SET(w, -EIO))							\
LOOP(tag##_set_changed, T, , SET(w, ALT_ERR(c, i)))			\
LOOP(tag##_check, T, ,							\
     CHECK(w, __atomic_load_n((T *)c->since, RELAXED)))		\
LOOP(tag##_cna, T, , CNA(w, (T *)c->since))				\
LOOP(tag##_cna_changed, T,						\
     __atomic_store_n(w, (T)W_UNSEEN, RELAXED);			\
     __atomic_store_n((T *)c->since, (T)W_PREV, RELAXED),		\
     CNA(w, (T *)c->since))						\
LOOP(tag##_report, T, , REPORT((CUR *)c->cursor, w))			\
LOOP(tag##_fast, T, ,							\
     FAST(w, __atomic_load_n((T *)c->since, RELAXED)))		\
LOOP(tag##_report_call, T, , REPORT_CALL((CUR *)c->cursor, w))	\
									\
static void tag##_prep(struct ctx *c, int op)				\
{									\
	T *w = c->word, *since = c->since;				\
									\
	switch (op) {							\
	case OP_SET_UNSEEN:						\
	case OP_SET_CHANGED:						\
	case OP_T_CHECK:						\
		*w = W_UNSEEN;						\
		break;							\
	default:							\
		*w = W_NOW;						\
	}								\
	*since = (op == OP_CHECK_CHANGED || op == OP_FAST_CHANGED ||	\
		  op == OP_T_CHECK) ? W_PREV : *w;			\
	CUR_INIT((CUR *)c->cursor, w);					\
}									\
									\
static const loop_fn tag##_loops[NOPS] = {				\
	loop_##tag##_empty, loop_##tag##_record0, loop_##tag##_set,	\
	loop_##tag##_set_seen, loop_##tag##_set_changed,		\
	loop_##tag##_check, loop_##tag##_check, loop_##tag##_cna,	\
	loop_##tag##_cna_changed, loop_##tag##_report,			\
	loop_##tag##_fast, loop_##tag##_fast, loop_##tag##_report_call,	\
};

/*
 * The kernel has no cursor type: file_check_and_advance_wb_err() is the
 * pattern. Here it is with the same shape as errseq_cursor_report(), over
 * the kernel's functions (the kernel's own also does two clear_bit()s of the
 * legacy flags, which we leave out: we compare the errseq algorithm).
 */
#define KCURSOR(tag, T, CHECK, CNA, SAMPLE)				\
struct tag {								\
	T since;							\
	pthread_mutex_t lock;						\
};									\
static noinline int tag##_report_slow(struct tag *cur, T *e)		\
{									\
	int err;							\
									\
	pthread_mutex_lock(&cur->lock);					\
	err = CNA(e, &cur->since);					\
	pthread_mutex_unlock(&cur->lock);				\
	return err;							\
}									\
static inline int tag##_report(struct tag *cur, T *e)			\
{									\
	T since = __atomic_load_n(&cur->since, RELAXED);		\
									\
	if (likely(CHECK(e, since) == 0))				\
		return 0;						\
	return tag##_report_slow(cur, e);				\
}									\
static void tag##_init(struct tag *cur, T *e)				\
{									\
	pthread_mutex_init(&cur->lock, NULL);				\
	cur->since = SAMPLE(e);						\
}

KCURSOR(kcursor32, uint32_t, kernel_errseq_check,
	kernel_errseq_check_and_advance, kernel_errseq_sample)
KCURSOR(kcursor64, uint64_t, kernel_errseq_check64,
	kernel_errseq_check_and_advance64, kernel_errseq_sample64)

/* The kernel's callers' no-error fast path, as mapping_set_error()'s. */
static inline void kern_record32(uint32_t *e, int err)
{
	if (unlikely(err))
		kernel_errseq_set(e, err);
}

static inline void kern_record64(uint64_t *e, int err)
{
	if (unlikely(err))
		kernel_errseq_set64(e, err);
}

static inline void lcursor32_init(struct errseq_cursor *cur, errseq_t *e)
{
	if (errseq_cursor_init(cur, e))
		abort();
}

static inline void lcursor64_init(struct errseq64_cursor *cur, errseq64_t *e)
{
	if (errseq64_cursor_init(cur, e))
		abort();
}

/*
 * liberrseq 1.0's inline errseq_cursor_report(), as programs built against
 * the 1.0 header still run it: the lockless check is a call of the
 * out-of-line errseq_check(). Measured side by side with today's
 * errseq_cursor_report(), whose errseq_check_fast() compares inline.
 */
static inline int lcursor32_report_call(struct errseq_cursor *cur, errseq_t *e)
{
	errseq_t since = __atomic_load_n(&cur->since, RELAXED);

	if (likely(errseq_check(e, since) == 0))
		return 0;
	return errseq_cursor_report_slow(cur, e);
}

static inline int lcursor64_report_call(struct errseq64_cursor *cur,
					errseq64_t *e)
{
	errseq64_t since = __atomic_load_n(&cur->since, RELAXED);

	if (likely(errseq_check64(e, since) == 0))
		return 0;
	return errseq64_cursor_report_slow(cur, e);
}

/*
 * The kernel has no inline check: its callers call errseq_check(), so its
 * "fast" loops are errseq_check() again, and its cursor keeps the shape of
 * file_check_and_advance_wb_err() in both report loops.
 */
ES_IMPL(lib32, errseq_t, errseq_set, errseq_check, errseq_check_and_advance,
	errseq_record, struct errseq_cursor, lcursor32_init,
	errseq_cursor_report, errseq_check_fast, lcursor32_report_call)
ES_IMPL(kern32, uint32_t, kernel_errseq_set, kernel_errseq_check,
	kernel_errseq_check_and_advance, kern_record32, struct kcursor32,
	kcursor32_init, kcursor32_report, kernel_errseq_check,
	kcursor32_report)
ES_IMPL(lib64, errseq64_t, errseq_set64, errseq_check64,
	errseq_check_and_advance64, errseq_record64, struct errseq64_cursor,
	lcursor64_init, errseq64_cursor_report, errseq_check_fast64,
	lcursor64_report_call)
ES_IMPL(kern64, uint64_t, kernel_errseq_set64, kernel_errseq_check64,
	kernel_errseq_check_and_advance64, kern_record64, struct kcursor64,
	kcursor64_init, kcursor64_report, kernel_errseq_check64,
	kcursor64_report)

/* The mutex: each reader's since (and cursor) is the counter it last saw. */
#define M struct mtx_obj
LOOP(mtx_empty, M, , 0)
LOOP(mtx_record0, M, int zero = 0; hide(zero), (mtx_record(w, zero), 0))
LOOP(mtx_set, M, , (mtx_set(w, -EIO), 1))
LOOP(mtx_set_seen, M, __atomic_store_n(&w->err, -EIO, RELAXED),
     (mtx_set(w, -EIO), 1))
LOOP(mtx_set_changed, M, , (mtx_set(w, ALT_ERR(c, i)), 1))
LOOP(mtx_check, M, , mtx_check(w, __atomic_load_n((unsigned long *)c->since,
						   RELAXED)))
LOOP(mtx_cna, M, , mtx_check_and_advance(w, c->since))
LOOP(mtx_cna_changed, M,
     __atomic_store_n((unsigned long *)c->since, 0, RELAXED),
     mtx_check_and_advance(w, c->since))
#undef M

static void mtx_prep(struct ctx *c, int op)
{
	struct mtx_obj *m = c->word;
	unsigned long *since = c->since;

	pthread_mutex_init(&m->lock, NULL);
	m->err = -EIO;
	m->seq = 3;
	*since = (op == OP_CHECK_CHANGED || op == OP_FAST_CHANGED ||
		  op == OP_T_CHECK) ? 2 : 3;
}

static const loop_fn mtx_loops[NOPS] = {
	loop_mtx_empty, loop_mtx_record0, loop_mtx_set, loop_mtx_set_seen,
	loop_mtx_set_changed, loop_mtx_check, loop_mtx_check, loop_mtx_cna,
	loop_mtx_cna_changed, loop_mtx_cna, loop_mtx_check, loop_mtx_check,
	loop_mtx_cna,
};

/* The legacy flags: one word, no since; "seen" means consumed. */
#define F unsigned long
LOOP(flags_empty, F, , 0)
LOOP(flags_record0, F, int zero = 0; hide(zero), (flags_record(w, zero), 0))
LOOP(flags_set, F, , (flags_set(w, -EIO), 1))
LOOP(flags_set_seen, F, __atomic_store_n(w, 0, RELAXED),
     (flags_set(w, -EIO), 1))
LOOP(flags_set_changed, F, , (flags_set(w, ALT_ERR(c, i)), 1))
LOOP(flags_check, F, , flags_check(w))
LOOP(flags_cna, F, , flags_check_and_clear(w))
LOOP(flags_cna_changed, F, __atomic_store_n(w, 1UL << AS_EIO, RELAXED),
     flags_check_and_clear(w))
#undef F

static void flags_prep(struct ctx *c, int op)
{
	unsigned long *f = c->word;

	switch (op) {
	case OP_SET_UNSEEN:
	case OP_SET_CHANGED:
	case OP_CHECK_CHANGED:
	case OP_FAST_CHANGED:
	case OP_T_CHECK:
		*f = 1UL << AS_EIO;
		break;
	default:
		*f = 0;
	}
}

static const loop_fn flags_loops[NOPS] = {
	loop_flags_empty, loop_flags_record0, loop_flags_set,
	loop_flags_set_seen, loop_flags_set_changed, loop_flags_check,
	loop_flags_check, loop_flags_cna, loop_flags_cna_changed,
	loop_flags_cna, loop_flags_check, loop_flags_check, loop_flags_cna,
};

struct impl {
	const char *name;
	const loop_fn *loop;
	void (*prep)(struct ctx *c, int op);
};

static const struct impl impls[] = {
	{ "liberrseq", lib32_loops, lib32_prep },
	{ "kernel", kern32_loops, kern32_prep },
	{ "liberrseq64", lib64_loops, lib64_prep },
	{ "kernel64", kern64_loops, kern64_prep },
	{ "mutex", mtx_loops, mtx_prep },
	{ "flags", flags_loops, flags_prep },
};
#define NIMPL	((int)(sizeof(impls) / sizeof(impls[0])))

static struct {
	int runs, truns, ms, threads, icount;
	uint64_t iters;
	const char *only;
} opt = { .runs = 11, .truns = 5, .ms = 200, .iters = 2000000 };

static int cpus[CPU_SETSIZE], ncpus;
static char *shared_pages;	/* one page per implementation */

static void die(const char *msg)
{
	fprintf(stderr, "errseq_bench: %s\n", msg);
	exit(1);
}

static void *page_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap failed");
	return p;
}

/* A reader's private state: since at 0, cursor at 64, its own page. */
static void ctx_init(struct ctx *c, int impl)
{
	char *priv = page_alloc(PAGE);

	c->word = shared_pages + (size_t)impl * PAGE;
	c->since = priv;
	c->cursor = priv + 64;
	c->phase = 0;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/*
 * The calling thread's CPU time: the machine is shared, and time spent
 * preempted by someone else's build is not ours to count.
 */
static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts @v in place; prints median,min,max. */
static void print_stats(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	printf("%.4f,%.4f,%.4f,%d", n % 2 ? v[n / 2] :
	       (v[n / 2 - 1] + v[n / 2]) / 2, v[0], v[n - 1], n);
}

static void self_check(const struct impl *im, struct ctx *c)
{
	for (int op = 0; op < NOPS; op++) {
		uint64_t acc;

		im->prep(c, op);
		acc = im->loop[op](c, 4);
		if (op_expect[op] != 1 && acc != (uint64_t)(op_expect[op] * 4)) {
			fprintf(stderr, "errseq_bench: %s %s: wrong result %lld\n",
				im->name, op_name[op], (long long)acc);
			exit(1);
		}
	}
}

/*
 * Does this operation write the shared word's page? Run it with the page
 * read-only: a store or a locked instruction (even a failed cmpxchg) faults.
 */
static sigjmp_buf probe_jmp;

static void probe_segv(int sig)
{
	(void)sig;
	siglongjmp(probe_jmp, 1);
}

static int probe_writes(const struct impl *im, struct ctx *c, int op)
{
	struct sigaction sa = { .sa_handler = probe_segv }, old;
	volatile int wrote = 0;

	im->prep(c, op);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old);
	if (mprotect(c->word, PAGE, PROT_READ))
		die("mprotect failed");
	if (sigsetjmp(probe_jmp, 1) == 0)
		im->loop[op](c, 1000);
	else
		wrote = 1;
	mprotect(c->word, PAGE, PROT_READ | PROT_WRITE);
	sigaction(SIGSEGV, &old, NULL);
	return wrote;
}

static void bench_single(void)
{
	double (*ns)[NOPS][opt.runs] = calloc(NIMPL, sizeof(*ns));
	struct ctx c[NIMPL];

	pin(cpus[0]);
	for (int i = 0; i < NIMPL; i++) {
		ctx_init(&c[i], i);
		self_check(&impls[i], &c[i]);
	}
	/* Warm up caches, branch predictors and lazy binding. */
	for (int op = 0; op < NOPS; op++)
		for (int i = 0; i < NIMPL; i++) {
			impls[i].prep(&c[i], op);
			impls[i].loop[op](&c[i], opt.iters / 10 + 1);
		}
	/* Round robin, so drift on a shared machine hits everyone alike. */
	for (int r = 0; r < opt.runs; r++)
		for (int op = 0; op < NOPS; op++)
			for (int i = 0; i < NIMPL; i++) {
				double t0, t1;

				impls[i].prep(&c[i], op);
				t0 = now_ns();
				impls[i].loop[op](&c[i], opt.iters);
				t1 = now_ns();
				ns[i][op][r] = (t1 - t0) / opt.iters;
			}
	for (int i = 0; i < NIMPL; i++)
		for (int op = 0; op < NOPS; op++) {
			int wrote = probe_writes(&impls[i], &c[i], op);

			printf(BENCH_TEST_SINGLE ",%s,%s,,1,ns_per_op,",
			       impls[i].name, op_name[op]);
			print_stats(ns[i][op], opt.runs);
			printf(",%s\n", wrote ? "yes" : "no");
		}
	free(ns);
}

/* One loop per dump, for callgrind --collect-atstart=no. */
static void bench_icount(void)
{
	for (int i = 0; i < NIMPL; i++) {
		struct ctx c;

		ctx_init(&c, i);
		self_check(&impls[i], &c);
		for (int op = 0; op < NOPS; op++) {
			char name[64];

			impls[i].prep(&c, op);
			impls[i].loop[op](&c, 100);
			impls[i].prep(&c, op);
			CALLGRIND_TOGGLE_COLLECT;
			impls[i].loop[op](&c, opt.iters);
			CALLGRIND_TOGGLE_COLLECT;
			snprintf(name, sizeof(name), "%s/%s", impls[i].name,
				 op_name[op]);
			CALLGRIND_DUMP_STATS_AT(name);
		}
	}
	printf("icount_iters,%llu\n", (unsigned long long)opt.iters);
}

/*
 * Threads: each runs its loop in chunks until told to stop.
 *
 * On a shared machine our threads often do not run at the same time, and a
 * writer that is not running slows nobody. So in the interference test the
 * writer beats a heartbeat (a counter on its own cache line) every HB_NS
 * while it runs, and a reader counts apart the chunks (about 4 us each)
 * during which the writer kept beating and the reader itself was not
 * preempted: its rate over those is its rate while both ran.
 */
#define HB_NS		1000.0
/* A reader's chunk longer than this was preempted (or slept): not counted. */
#define CHUNK_MAX_NS	50000.0

struct worker {
	struct ctx c;
	loop_fn fn;
	struct worker *peer;	/* a reader's writer, whose heartbeat it watches */
	int cpu;		/* -1: not pinned */
	int chunk;
	int sleep_us;		/* >0: a periodic writer */
	int heartbeat;		/* beat every HB_NS */
	uint64_t ops, co_ops;	/* all, and while the peer ran */
	double ns;		/* CPU time */
	double wall, co_ns;	/* wall-clock time, all and while the peer ran */
	pthread_t tid;
	uint64_t hb __attribute__((aligned(64)));
};

static pthread_barrier_t start_barrier;
static int stop_flag;

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct timespec nap = { 0, w->sleep_us * 1000L };
	uint64_t ops = 0, co_ops = 0;
	double t0, w0, last = 0, co_ns = 0;

	if (w->cpu >= 0)
		pin(w->cpu);
	pthread_barrier_wait(&start_barrier);
	t0 = now_ns();
	w0 = wall_ns();
	while (!__atomic_load_n(&stop_flag, RELAXED)) {
		uint64_t h0 = 0, beats;
		double c0 = 0, c1;

		if (w->peer) {
			h0 = __atomic_load_n(&w->peer->hb, RELAXED);
			c0 = wall_ns();
		}
		w->fn(&w->c, w->chunk);
		ops += w->chunk;
		if (w->peer) {
			beats = __atomic_load_n(&w->peer->hb, RELAXED) - h0;
			c1 = wall_ns();
			if (beats >= 1 && beats >= 0.6 * (c1 - c0) / HB_NS &&
			    c1 - c0 < CHUNK_MAX_NS) {
				co_ops += w->chunk;
				co_ns += c1 - c0;
			}
			/* Keep chunks near 4 us, whatever an operation costs. */
			if (c1 - c0 < 2000 && w->chunk < (1 << 20))
				w->chunk *= 2;
			else if (c1 - c0 > 8000 && w->chunk > 1)
				w->chunk /= 2;
		}
		if (w->heartbeat) {
			double t = wall_ns();

			if (t - last >= HB_NS) {
				__atomic_store_n(&w->hb, w->hb + 1, RELAXED);
				last = t;
			}
		}
		if (w->sleep_us) {
			w->c.phase++;
			nanosleep(&nap, NULL);
		}
	}
	w->ns = now_ns() - t0;
	w->wall = wall_ns() - w0;
	w->ops = ops;
	w->co_ops = co_ops;
	w->co_ns = co_ns;
	return NULL;
}

static struct worker *workers_alloc(void)
{
	size_t size = (MAXT + 1) * sizeof(struct worker);
	struct worker *w = aligned_alloc(64, size);

	if (!w)
		die("out of memory");
	return memset(w, 0, size);
}

static void run_workers(struct worker *w, int n, int ms)
{
	struct timespec d = { ms / 1000, (ms % 1000) * 1000000L };

	__atomic_store_n(&stop_flag, 0, RELAXED);
	pthread_barrier_init(&start_barrier, NULL, n + 1);
	for (int i = 0; i < n; i++)
		if (pthread_create(&w[i].tid, NULL, worker_main, &w[i]))
			die("pthread_create failed");
	pthread_barrier_wait(&start_barrier);
	nanosleep(&d, NULL);
	__atomic_store_n(&stop_flag, 1, RELAXED);
	for (int i = 0; i < n; i++)
		pthread_join(w[i].tid, NULL);
	pthread_barrier_destroy(&start_barrier);
}

/* Mean operations per second per reader, in millions; w[0..n-1] are readers. */
static double reader_mops(struct worker *w, int n)
{
	double sum = 0;

	for (int i = 0; i < n; i++)
		sum += w[i].ops / w[i].ns * 1e3;
	return sum / n;
}

/* The same over the chunks during which the reader's writer ran (0: none). */
static double reader_co_mops(struct worker *w, int n)
{
	double sum = 0;

	for (int i = 0; i < n; i++)
		sum += w[i].co_ns > 0 ? w[i].co_ops / w[i].co_ns * 1e3 : 0;
	return sum / n;
}

/*
 * Scaling: 1..N readers, each with its own cursor, report on one word while
 * a writer sets a new error every 100 us (so readers do take the slow path
 * now and then, as a reader of a failing file would).
 */
static int next_threads(int n)
{
	if (n == opt.threads)
		return 0;
	return 2 * n < opt.threads ? 2 * n : opt.threads;
}

static void bench_scaling(void)
{
	int nimpl = NIMPL;
	double (*mops)[MAXT][opt.truns] = calloc(nimpl, sizeof(*mops));
	struct worker *w = workers_alloc();

	for (int r = 0; r < opt.truns; r++)
		for (int n = 1; n; n = next_threads(n))
			for (int i = 0; i < nimpl; i++) {
				for (int t = 0; t <= n; t++) {
					ctx_init(&w[t].c, i);
					impls[i].prep(&w[t].c, OP_REPORT_SAME);
					w[t].fn = impls[i].loop[OP_REPORT_SAME];
					w[t].cpu = cpus[t % ncpus];
					w[t].chunk = 256;
					w[t].sleep_us = 0;
					w[t].peer = NULL;
					w[t].heartbeat = 0;
				}
				w[n].fn = impls[i].loop[OP_SET_CHANGED];
				w[n].cpu = -1;
				w[n].chunk = 1;
				w[n].sleep_us = 100;
				run_workers(w, n + 1, opt.ms);
				mops[i][n - 1][r] = reader_mops(w, n);
				for (int t = 0; t <= n; t++)
					munmap(w[t].c.since, PAGE);
			}
	for (int i = 0; i < nimpl; i++)
		for (int n = 1; n; n = next_threads(n)) {
			printf("scaling,%s,report_same,periodic,%d,mops_per_thread,",
			       impls[i].name, n);
			print_stats(mops[i][n - 1], opt.truns);
			printf(",\n");
		}
	free(mops);
	free(w);
}

/*
 * Interference: readers (one per CPU but the last) check a word holding an
 * unseen error, with a since sampled before it, while a writer on the last
 * CPU spins on its own data (idle), sets the same error again and again
 * (same: errseq must not write), or alternates EIO/ENOSPC (alternating:
 * every set writes). check_changed is the readers' rate while the writer
 * ran (see struct worker), corun_share the part of the time that was, and
 * check_changed_cpu the rate over all the readers' CPU time.
 */
static void bench_interference(void)
{
	static const char *const mode_name[] = { "idle", "same", "alternating" };
	static const int mode_op[] = { OP_EMPTY, OP_SET_UNSEEN, OP_SET_CHANGED };
	int nr = ncpus > 1 ? ncpus - 1 : 1, nimpl = NIMPL;
	double (*rd)[3][opt.truns] = calloc(nimpl, sizeof(*rd));
	double (*wr)[3][opt.truns] = calloc(nimpl, sizeof(*wr));
	double (*share)[3][opt.truns] = calloc(nimpl, sizeof(*share));
	double (*cpu)[3][opt.truns] = calloc(nimpl, sizeof(*cpu));
	struct worker *w = workers_alloc();

	if (nr > MAXT)
		nr = MAXT;
	for (int r = 0; r < opt.truns; r++)
		for (int m = 0; m < 3; m++)
			for (int i = 0; i < nimpl; i++) {
				for (int t = 0; t <= nr; t++) {
					ctx_init(&w[t].c, i);
					impls[i].prep(&w[t].c, OP_T_CHECK);
					w[t].fn = impls[i].loop[OP_CHECK_CHANGED];
					w[t].peer = &w[nr];
					w[t].cpu = cpus[t % ncpus];
					w[t].chunk = 256;
					w[t].sleep_us = 0;
					w[t].heartbeat = 0;
				}
				w[nr].fn = impls[i].loop[mode_op[m]];
				w[nr].peer = NULL;
				w[nr].cpu = cpus[ncpus - 1];
				w[nr].chunk = 32;
				w[nr].heartbeat = 1;
				/* Twice as long: only part of it counts. */
				run_workers(w, nr + 1, 2 * opt.ms);
				rd[i][m][r] = reader_co_mops(w, nr);
				wr[i][m][r] = reader_mops(w + nr, 1);
				share[i][m][r] = w[0].co_ns / w[0].wall;
				cpu[i][m][r] = reader_mops(w, nr);
				for (int t = 0; t <= nr; t++)
					munmap(w[t].c.since, PAGE);
			}
	for (int i = 0; i < nimpl; i++)
		for (int m = 0; m < 3; m++) {
			printf("interference,%s,check_changed,%s,%d,mops_per_thread,",
			       impls[i].name, mode_name[m], nr);
			print_stats(rd[i][m], opt.truns);
			printf(",\n");
			printf("interference,%s,writer,%s,1,mops_per_thread,",
			       impls[i].name, mode_name[m]);
			print_stats(wr[i][m], opt.truns);
			printf(",\n");
			printf("interference,%s,corun_share,%s,1,fraction,",
			       impls[i].name, mode_name[m]);
			print_stats(share[i][m], opt.truns);
			printf(",\n");
			printf("interference,%s,check_changed_cpu,%s,%d,mops_per_thread,",
			       impls[i].name, mode_name[m], nr);
			print_stats(cpu[i][m], opt.truns);
			printf(",\n");
		}
	free(cpu);
	free(rd);
	free(wr);
	free(share);
	free(w);
}

static void *nop_thread(void *arg)
{
	return arg;
}

static void usage(void)
{
	fputs("usage: errseq_bench [--quick] [--runs N] [--iters N] [--truns N]\n"
	      "                    [--ms N] [--threads N] [--only single|threads]\n"
	      "                    [--icount]\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	cpu_set_t set;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--quick")) {
			opt.runs = 5;
			opt.truns = 3;
			opt.iters = 200000;
			opt.ms = 50;
		} else if (!strcmp(a, "--icount")) {
			opt.icount = 1;
		} else if (v && !strcmp(a, "--runs")) {
			opt.runs = atoi(v), i++;
		} else if (v && !strcmp(a, "--iters")) {
			opt.iters = strtoull(v, NULL, 0), i++;
		} else if (v && !strcmp(a, "--truns")) {
			opt.truns = atoi(v), i++;
		} else if (v && !strcmp(a, "--ms")) {
			opt.ms = atoi(v), i++;
		} else if (v && !strcmp(a, "--threads")) {
			opt.threads = atoi(v), i++;
		} else if (v && !strcmp(a, "--only")) {
			opt.only = v, i++;
		} else {
			usage();
		}
	}
	if (opt.runs < 1 || opt.truns < 1 || opt.iters < 1 || opt.ms < 1 ||
	    opt.threads < 0 ||
	    opt.threads > MAXT)
		usage();

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity failed");
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus[ncpus++] = cpu;
	if (!opt.threads)
		opt.threads = ncpus < MAXT ? ncpus : MAXT;
	shared_pages = page_alloc((size_t)NIMPL * PAGE);

	/*
	 * glibc's mutex leaves out the lock prefix while the process has never
	 * had a second thread. Nobody needs errseq_t single-threaded, so make
	 * the process multi-threaded before measuring anything.
	 */
	{
		pthread_t t;

		if (pthread_create(&t, NULL, nop_thread, NULL) ||
		    pthread_join(t, NULL))
			die("pthread_create failed");
	}

	if (opt.icount) {
		bench_icount();
		return 0;
	}
	printf("test,impl,op,writer,threads,unit,median,min,max,runs,writes\n");
	if (!opt.only || !strcmp(opt.only, "single"))
		bench_single();
	if (!opt.only || !strcmp(opt.only, "threads")) {
		bench_scaling();
		bench_interference();
	}
	return 0;
}
