// SPDX-License-Identifier: GPL-2.0
/*
 * explore: a stateless model checker for the real liberrseq code.
 *
 * The library is built with -DLIBERRSEQ_SCHED_HOOKS, so it calls
 * errseq_sched_point() before each access to an errseq word or a cursor's
 * "since", and errseq_sched_lock()/unlock() for the cursor lock. So is this
 * file: the header's inline fast path (errseq_cursor_report() through
 * errseq_check_fast(), compiled here) then calls the hook before its loads
 * of "since" and of the word. A small
 * program (a few threads, a few ops each) runs on real pthreads, but only one
 * at a time: each hook at a shared location is a choice point where the
 * running thread hands a baton (a semaphore per thread) to the thread the
 * schedule picks. Schedules are enumerated by depth-first search over the
 * choice points with replay from the start, as CHESS and VeriSoft do; a thread
 * waiting for a held cursor lock is not schedulable. Every complete schedule
 * is checked against the properties of README.md (P1..P5).
 *
 * Program syntax (--prog): threads separated by '|', ops by spaces:
 *   sN  errseq_set(&eseq, -N)
 *   iC  errseq_cursor_init(&cursor[C], &eseq): the reader samples
 *   rC  errseq_cursor_report(&cursor[C], &eseq)
 * A cursor no thread initialises is initialised before the threads start.
 * A cursor used by several threads is shared: its "since" and lock are
 * choice points too, and P1/P4 (per-reader properties) are not checked on it.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Before errseq.h: hooks in its inline functions too. */
#define LIBERRSEQ_SCHED_HOOKS 1
#include "errseq.h"

void errseq_sched_point(const void *addr, int is_write);
void errseq_sched_lock(pthread_mutex_t *lock);
void errseq_sched_unlock(pthread_mutex_t *lock);

#define MAX_T		4
#define MAX_OPS		8
#define MAX_C		4
#define MAX_DEPTH	256
#define MAX_LOG		64
#define MAX_ACC		32	/* accesses to eseq by one reader op */
#define NPROP		6	/* P1..P5, and P0 for deadlock */

#define CTR_MASK	((1U << (32 - ERRSEQ_COUNTER_SHIFT)) - 1)
#define CTR(v)		((v) >> ERRSEQ_COUNTER_SHIFT)

enum op_kind { OP_SET, OP_INIT, OP_REPORT };

struct op {
	enum op_kind kind;
	int arg;			/* errno for OP_SET, else the cursor */
};

struct thr {
	pthread_t th;
	sem_t go;
	struct op ops[MAX_OPS];
	int nops;
	int done;
	int started;			/* has reached its first hook */
	int in_op;			/* between the op's first hook and its end */
	int cur_err;			/* errno of the set in progress */
	pthread_mutex_t *waiting;	/* lock it waits for */
	/*
	 * A reader op's accesses to eseq (load or cmpxchg): the word each
	 * found, and the latest set then. The read point is chosen from them
	 * when the op ends (read_point()).
	 */
	struct {
		errseq_t word;
		int id, err;
	} acc[MAX_ACC];
	int nacc;
	int since_w;			/* the op wrote its cursor's "since" */
	int adv_ok;			/* and adv is the value it wrote */
	errseq_t adv;
	/* The read point of the op that ended last. */
	errseq_t rd_word;
	int rd_id, rd_err;
	/* P1 for a set: cursors that were idle when it began. */
	unsigned int clean;
	/* P1 for a report: its cursor's must and ovl when it began. */
	int pmust, povl;
	/* The access it is paused before. */
	const void *pend_addr;
	int pend_w;
};

struct cur {
	struct errseq_cursor c;
	int users;			/* threads using it */
	int owner;			/* the only user, or -1 */
	int init_by_thread;
	int held;			/* the lock, as the explorer sees it */
	/* Ghosts. */
	uint64_t reported;		/* set-ids reported (P2) */
	int lastrep;			/* errno "since" last advanced to (P1) */
	int first, s_unseen, s_id;	/* P4 */
	int in_op, must, ovl;		/* P1 */
};

static struct thr T[MAX_T];
static int nthr;
static int op_index[MAX_T];		/* op each thread is at */
static struct cur C[MAX_C];
static int ncur;
static errseq_t eseq;

static int p1_exempt;			/* --p1-exemption: P1 as Linux 6.1 needs */
static int verbose;

/* The scheduler. */
static int active;			/* threads are running under it */
static int running;			/* thread holding the baton */
static sem_t main_go;
static struct {
	int chosen, n;
} trail[MAX_DEPTH];
static int depth, replay_len, max_depth;
static unsigned long schedules;

/* Ghost state of the run. */
static errseq_t shadow;			/* eseq as of the last choice point */
static int shadow_by;			/* thread that ran since then */
static int id;				/* word-changing sets so far */
static int last_err;			/* errno of the latest one */
static int nset;			/* threads inside errseq_set() */

static unsigned long violations[NPROP];
static char log_buf[MAX_LOG][96];
static int log_n;

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	va_list ap;

	if (log_n == MAX_LOG)
		return;
	va_start(ap, fmt);
	vsnprintf(log_buf[log_n++], sizeof(log_buf[0]), fmt, ap);
	va_end(ap);
}

static const char *prop_name[NPROP] = {
	"P0 deadlock",
	"P1 no lost error",
	"P2 no double report",
	"P3 counter increments only when seen",
	"P4 sampling",
	"P5 latest errno wins",
};

static void violated(int p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void violated(int p, const char *fmt, ...)
{
	va_list ap;
	int i;

	if (violations[p]++)
		return;
	printf("VIOLATION %s, schedule %lu:", prop_name[p], schedules + 1);
	for (i = 0; i < depth; i++)
		printf(" %d", trail[i].chosen);
	printf("\n");
	for (i = 0; i < log_n; i++)
		printf("  %s\n", log_buf[i]);
	printf("  -> ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static int self(void)
{
	return running;
}

static int lock_held(pthread_mutex_t *l)
{
	int c;

	for (c = 0; c < ncur; c++)
		if (&C[c].c.lock == l)
			return C[c].held;
	abort();
}

static struct cur *lock_cursor(pthread_mutex_t *l)
{
	int c;

	for (c = 0; c < ncur; c++)
		if (&C[c].c.lock == l)
			return &C[c];
	abort();
}

static int enabled(int t)
{
	return !T[t].done && (!T[t].waiting || !lock_held(T[t].waiting));
}

/* P3, and the ghosts: who changed the word since the last choice point. */
static void observe(void)
{
	errseq_t old = shadow, new = eseq;
	struct thr *t;
	unsigned int want;

	if (new == old)
		return;
	shadow = new;
	t = &T[shadow_by];
	if (t->cur_err) {
		want = (CTR(old) + !!(old & ERRSEQ_SEEN_FLAG)) & CTR_MASK;
		if (CTR(new) != want || (new & ERRSEQ_SEEN_FLAG))
			violated(3, "T%d set(-%d) made %#x from %#x", shadow_by,
				 t->cur_err, new, old);
		id++;
		last_err = t->cur_err;
		note("T%d set(-%d): %#x -> %#x (set-id %d)", shadow_by,
		     t->cur_err, old, new, id);
	} else {
		if (new != (old | ERRSEQ_SEEN_FLAG))
			violated(3, "reader T%d made %#x from %#x", shadow_by,
				 new, old);
		note("T%d marks seen: %#x -> %#x", shadow_by, old, new);
	}
}

/*
 * Sleep sets (Godefroid): a thread whose pending access commutes with
 * everything run since it was passed over at a choice point need not run
 * next: that order was explored already. Two pending accesses commute when
 * they touch different locations or both only read. Reads of eseq by a set
 * and by a report do not commute when P1 is checked: they begin and end the
 * ops whose real-time order P1 is about.
 */
static int p1_ghost;			/* some cursor is private */
static unsigned int sleep_set;		/* threads asleep */
static int pruned;			/* every enabled thread is asleep */
static unsigned long n_pruned;

static int is_setter(int t)
{
	return T[t].ops[op_index[t]].kind == OP_SET;
}

static int dependent(int a, int b)
{
	if (T[a].pend_addr != T[b].pend_addr)
		return 0;
	if (T[a].pend_w || T[b].pend_w)
		return 1;
	return p1_ghost && T[a].pend_addr == &eseq &&
	       is_setter(a) != is_setter(b);
}

static unsigned int wake(unsigned int set, int ran)
{
	int t;

	for (t = 0; t < nthr; t++)
		if ((set & (1U << t)) && dependent(t, ran))
			set &= ~(1U << t);
	return set;
}

/* Pick the next thread: a choice point when more than one can run. */
static int choose(int me)
{
	int opts[MAX_T], n = 0, t, c, i;
	unsigned int passed = 0;

	if (me >= 0 && enabled(me))
		opts[n++] = me;		/* not switching comes first */
	for (t = 0; t < nthr; t++)
		if (t != me && enabled(t))
			opts[n++] = t;
	if (!n)
		return -1;
	if (pruned)
		return opts[0];
	/* Drop the sleeping ones. */
	for (i = c = 0; i < n; i++)
		if (!(sleep_set & (1U << opts[i])))
			opts[c++] = opts[i];
	if (!c) {
		pruned = 1;
		n_pruned++;
		for (t = 0; t < nthr; t++)
			if (enabled(t))
				return t;
	}
	n = c;
	if (n == 1) {
		sleep_set = wake(sleep_set, opts[0]);
		return opts[0];
	}
	if (depth == MAX_DEPTH) {
		fprintf(stderr, "explore: more than %d choice points\n",
			MAX_DEPTH);
		exit(2);
	}
	if (depth < replay_len) {
		if (trail[depth].n != n) {
			fprintf(stderr, "explore: replay diverged\n");
			exit(2);
		}
		c = trail[depth].chosen;
	} else {
		trail[depth].chosen = c = 0;
		trail[depth].n = n;
	}
	depth++;
	for (i = 0; i < c; i++)
		passed |= 1U << opts[i];
	sleep_set = wake(sleep_set | passed, opts[c]);
	return opts[c];
}

/*
 * The threads first run one after the other to their first hook: before it
 * they touch nothing shared, so which one starts first is no choice.
 */
static int unstarted(void)
{
	int t;

	for (t = 0; t < nthr; t++)
		if (!T[t].started)
			return t;
	return -1;
}

static void hand_over(int me, int next)
{
	shadow_by = next;
	if (next == me)
		return;
	running = next;
	sem_post(&T[next].go);
	sem_wait(&T[me].go);
}

/* A choice point before @me's access to @addr: maybe hand the baton over. */
static void yield(const void *addr, int is_write)
{
	int me = self(), next;

	T[me].pend_addr = addr;
	T[me].pend_w = is_write;
	observe();
	if (!T[me].started) {
		T[me].started = 1;
		next = unstarted();
		if (next >= 0) {
			hand_over(me, next);
			return;
		}
	}
	next = choose(me);
	if (next < 0) {
		violated(0, "no thread can run");
		exit(1);
	}
	hand_over(me, next);
}

static int shared_addr(const void *addr)
{
	int c;

	if (addr == &eseq)
		return 1;
	for (c = 0; c < ncur; c++)
		if (addr == &C[c].c.since)
			return C[c].owner < 0;
	return 1;
}

static struct cur *op_cursor(struct thr *t, int k)
{
	return &C[t->ops[k].arg];
}


/* The first access to eseq of an op: the op's interval begins (for P1). */
static void op_begin(int me)
{
	struct thr *t = &T[me];
	struct op *op = &t->ops[op_index[me]];
	struct cur *cu;
	int c;

	t->in_op = 1;
	if (op->kind == OP_SET) {
		nset++;
		t->clean = 0;
		for (c = 0; c < ncur; c++) {
			if (!C[c].in_op)
				t->clean |= 1U << c;
			else
				C[c].ovl = 1;
		}
		return;
	}
	cu = &C[op->arg];
	cu->in_op = 1;
	for (c = 0; c < nthr; c++)
		T[c].clean &= ~(1U << op->arg);
	t->pmust = cu->must;
	t->povl = cu->ovl;
	cu->must = 0;
	cu->ovl = nset > 0;
}

void errseq_sched_point(const void *addr, int is_write)
{
	int me;
	struct thr *t;

	if (!active)
		return;
	if (addr != &eseq && is_write)
		T[self()].since_w = 1;	/* WRITE_ONCE(cur->since, ...) */
	if (!shared_addr(addr))
		return;
	yield(addr, is_write);
	me = self();
	t = &T[me];
	if (addr != &eseq)
		return;
	/* The access is next, with no other thread in between. */
	if (!t->in_op)
		op_begin(me);
	/*
	 * A reader's load, or its SEEN cmpxchg: what it finds is exactly eseq
	 * now, since no other thread runs before the access. Which of them is
	 * the read point is known when the op ends (read_point()).
	 */
	if (t->ops[op_index[me]].kind != OP_SET) {
		note("T%d %s %#x", me, is_write ? "cmpxchg finds" : "reads", eseq);
		if (t->nacc == MAX_ACC) {
			fprintf(stderr, "explore: more than %d accesses in an "
				"op\n", MAX_ACC);
			exit(2);
		}
		t->acc[t->nacc].word = eseq;
		t->acc[t->nacc].id = id;
		t->acc[t->nacc++].err = last_err;
	}
}

/*
 * A reader op's read point: the last of its accesses to eseq whose value
 * determined its result. A report that returns 0 is decided by its last
 * access (the load that found eseq equal to "since"). A non-zero report
 * advanced "since" to new = old | SEEN, and reports new's errno: its read
 * point is the last access that found old (a load, the failed cmpxchg whose
 * value the retry loop took, or the successful cmpxchg) or found new itself
 * (the cmpxchg another reader beat); that is, the last access that found the
 * word "since" now holds, up to SEEN. With the retry loop that is always the
 * last access; Linux 6.1's algorithm (the advance_no_retry mutant) reports
 * from its load even when its cmpxchg then fails and finds another word.
 */
static void read_point(struct thr *t, int ret)
{
	int i = t->nacc - 1;

	if (t->nacc == 0)
		abort();
	if (ret && t->since_w) {
		while (i >= 0 && (t->acc[i].word | ERRSEQ_SEEN_FLAG) !=
				 (t->adv | ERRSEQ_SEEN_FLAG))
			i--;
		if (i < 0)
			i = t->nacc - 1;	/* no such access: the last */
	}
	t->rd_word = t->acc[i].word;
	t->rd_id = t->acc[i].id;
	t->rd_err = t->acc[i].err;
}

void errseq_sched_lock(pthread_mutex_t *lock)
{
	struct cur *cu = lock_cursor(lock);

	if (cu->owner < 0) {
		T[self()].waiting = lock;
		yield(lock, 1);
		T[self()].waiting = NULL;
	}
	if (cu->held) {
		violated(0, "lock taken twice");
		exit(1);
	}
	cu->held = 1;
}

void errseq_sched_unlock(pthread_mutex_t *lock)
{
	struct cur *cu = lock_cursor(lock);
	struct thr *t = &T[self()];

	/* Under the lock: "since" is what this op advanced it to. */
	if (t->since_w) {
		t->adv = cu->c.since;
		t->adv_ok = 1;
	}
	if (cu->owner < 0)
		yield(lock, 1);
	cu->held = 0;
}

static void set_end(int me)
{
	int c;

	nset--;
	for (c = 0; c < ncur; c++)
		if (T[me].clean & (1U << c))
			C[c].must = 1;
	T[me].clean = 0;
}

static void check_report(int me, struct cur *cu, int ret)
{
	struct thr *t = &T[me];
	int c = cu - C;

	note("T%d report(c%d): -%d (read %#x, set-id %d)", me, c, ret,
	     t->rd_word, t->rd_id);
	if (cu->owner >= 0) {
		if (t->pmust && !ret &&
		    (!p1_exempt || !t->povl || t->rd_err != cu->lastrep))
			violated(1, "a whole set ran since T%d's last report, "
				 "which now returns 0", me);
		if (cu->first) {
			if (cu->s_unseen && !ret)
				violated(4, "T%d sampled an unseen error and "
					 "does not report it", me);
			if (!cu->s_unseen && ret && t->rd_id == cu->s_id)
				violated(4, "T%d sampled a seen error and "
					 "reports it", me);
			cu->first = 0;
		}
	}
	if (!ret)
		return;
	if (ret != t->rd_err)
		violated(5, "T%d reports -%d, the latest set was -%d", me,
			 ret, t->rd_err);
	if (cu->reported & (1ULL << t->rd_id))
		violated(2, "cursor %d reports set-id %d twice", c, t->rd_id);
	cu->reported |= 1ULL << t->rd_id;
	cu->lastrep = ret;
}

static void run_op(int me, int k)
{
	struct thr *t = &T[me];
	struct op *op = &t->ops[k];
	struct cur *cu;
	int ret;

	op_index[me] = k;
	t->nacc = t->since_w = t->adv_ok = 0;
	switch (op->kind) {
	case OP_SET:
		t->cur_err = op->arg;
		errseq_set(&eseq, -op->arg);
		observe();
		set_end(me);
		t->cur_err = 0;
		break;
	case OP_INIT:
		cu = op_cursor(t, k);
		errseq_cursor_init(&cu->c, &eseq);
		read_point(t, 0);
		cu->in_op = 0;
		cu->s_unseen = t->rd_word && !(t->rd_word & ERRSEQ_SEEN_FLAG);
		cu->s_id = t->rd_id;
		cu->lastrep = cu->c.since & ERRSEQ_ERRNO_MASK;
		cu->first = 1;
		note("T%d sample(c%d): read %#x, since %#x", me,
		     (int)(cu - C), t->rd_word, cu->c.since);
		break;
	case OP_REPORT:
		cu = op_cursor(t, k);
		ret = -errseq_cursor_report(&cu->c, &eseq);
		observe();
		cu->in_op = 0;
		/* No lock (cursor_nolock): a private "since" is still exact. */
		if (t->since_w && !t->adv_ok)
			t->adv = cu->c.since;
		read_point(t, ret);
		check_report(me, cu, ret);
		break;
	}
	t->in_op = 0;
}

static int quit;

/* A worker runs its thread's program once per schedule. */
static void *thread_main(void *arg)
{
	int me = (int)(intptr_t)arg, k, next;

	for (;;) {
		sem_wait(&T[me].go);
		if (quit)
			return NULL;
		for (k = 0; k < T[me].nops; k++)
			run_op(me, k);
		observe();
		T[me].done = 1;
		T[me].started = 1;
		next = unstarted();
		if (next < 0)
			next = choose(me);
		shadow_by = next;
		if (next >= 0) {
			running = next;
			sem_post(&T[next].go);
			continue;
		}
		for (k = 0; k < nthr; k++)
			if (!T[k].done) {
				violated(0, "T%d blocked forever", k);
				exit(1);
			}
		sem_post(&main_go);
	}
}

static void run_once(void)
{
	int t, c;

	eseq = shadow = 0;
	id = last_err = nset = 0;
	log_n = 0;
	depth = 0;
	sleep_set = 0;
	pruned = 0;
	for (c = 0; c < ncur; c++) {
		struct cur *cu = &C[c];

		cu->held = 0;
		cu->reported = 0;
		cu->lastrep = 0;
		cu->first = cu->s_unseen = cu->s_id = 0;
		cu->in_op = cu->must = cu->ovl = 0;
		if (!cu->init_by_thread)
			errseq_cursor_init(&cu->c, &eseq);
	}
	for (t = 0; t < nthr; t++) {
		T[t].done = T[t].started = T[t].in_op = T[t].cur_err = 0;
		T[t].waiting = NULL;
		T[t].clean = 0;
		T[t].rd_word = 0;
		T[t].nacc = T[t].since_w = T[t].adv_ok = 0;
		T[t].rd_id = T[t].rd_err = 0;
	}
	active = 1;
	running = shadow_by = 0;
	sem_post(&T[0].go);
	sem_wait(&main_go);
	active = 0;
	for (c = 0; c < ncur; c++)
		errseq_cursor_destroy(&C[c].c);
	if (depth > max_depth)
		max_depth = depth;
	schedules++;
}

/* The next schedule to run, depth-first; 0 when all have run. */
static int backtrack(void)
{
	int i;

	for (i = depth - 1; i >= 0; i--) {
		if (trail[i].chosen + 1 < trail[i].n) {
			trail[i].chosen++;
			replay_len = i + 1;
			return 1;
		}
	}
	return 0;
}

static void parse(const char *prog)
{
	const char *p = prog;
	struct thr *t;
	int c, n, kind;

	nthr = 0;
	t = &T[nthr++];
	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (*p == '|') {
			if (nthr == MAX_T)
				goto bad;
			t = &T[nthr++];
			p++;
			continue;
		}
		switch (*p++) {
		case 's':
			kind = OP_SET;
			break;
		case 'i':
			kind = OP_INIT;
			break;
		case 'r':
			kind = OP_REPORT;
			break;
		default:
			goto bad;
		}
		n = (int)strtol(p, (char **)&p, 10);
		if (t->nops == MAX_OPS)
			goto bad;
		if (kind == OP_SET && !errseq_err_valid(-n))
			goto bad;
		if (kind != OP_SET && (n < 0 || n >= MAX_C))
			goto bad;
		t->ops[t->nops].kind = kind;
		t->ops[t->nops++].arg = n;
		if (kind != OP_SET && n >= ncur)
			ncur = n + 1;
	}
	for (c = 0; c < ncur; c++)
		C[c].owner = -2;
	for (n = 0; n < nthr; n++) {
		for (c = 0; c < T[n].nops; c++) {
			struct op *op = &T[n].ops[c];
			struct cur *cu;

			if (op->kind == OP_SET)
				continue;
			cu = &C[op->arg];
			if (op->kind == OP_INIT)
				cu->init_by_thread = 1;
			if (cu->owner == -2)
				cu->owner = n;
			else if (cu->owner != n)
				cu->owner = -1;
		}
	}
	for (c = 0; c < ncur; c++) {
		if (C[c].owner >= 0)
			p1_ghost = 1;
		if (C[c].owner == -2)
			goto bad;
		if (C[c].owner < 0 && C[c].init_by_thread)
			goto bad;	/* init a shared cursor in main */
	}
	return;
bad:
	fprintf(stderr, "explore: bad program \"%s\"\n", prog);
	exit(2);
}

static void usage(void)
{
	fprintf(stderr, "usage: explore [--p1-exemption] [--expect Pn] "
		"--prog PROGRAM\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "prog", required_argument, NULL, 'p' },
		{ "expect", required_argument, NULL, 'e' },
		{ "p1-exemption", no_argument, NULL, 'x' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	const char *prog = NULL;
	int expect = -1, o, p, t, total = 0;
	struct timespec t0, t1;

	while ((o = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (o) {
		case 'p':
			prog = optarg;
			break;
		case 'e':
			if (optarg[0] != 'P' || optarg[1] < '1' ||
			    optarg[1] > '5' || optarg[2])
				usage();
			expect = optarg[1] - '0';
			break;
		case 'x':
			p1_exempt = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			usage();
		}
	}
	if (!prog || optind != argc)
		usage();
	parse(prog);
	sem_init(&main_go, 0, 0);
	for (t = 0; t < nthr; t++) {
		sem_init(&T[t].go, 0, 0);
		if (pthread_create(&T[t].th, NULL, thread_main,
				   (void *)(intptr_t)t)) {
			perror("pthread_create");
			return 2;
		}
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		run_once();
		if (expect >= 0 && violations[expect])
			break;	/* shown: no need to see the rest */
	} while (backtrack());
	clock_gettime(CLOCK_MONOTONIC, &t1);
	quit = 1;
	for (t = 0; t < nthr; t++) {
		sem_post(&T[t].go);
		pthread_join(T[t].th, NULL);
	}

	printf("program \"%s\"%s: %lu schedules (%lu of them cut short by "
	       "sleep sets)%s, up to %d choice points, %.2fs\n", prog,
	       p1_exempt ? " (P1 with the exemption)" : "", schedules, n_pruned,
	       expect >= 0 && violations[expect] ? ", stopped at the violation" :
	       "",
	       max_depth, (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (p = 0; p < NPROP; p++) {
		if (violations[p])
			printf("  %s: violated %lu times\n",
			       prop_name[p], violations[p]);
		total += violations[p] != 0;
	}
	if (expect < 0) {
		printf(total ? "FAIL\n" : "OK: no violation\n");
		return !!total;
	}
	if (violations[expect]) {
		printf("OK: %s violated, as expected\n", prop_name[expect]);
		return 0;
	}
	printf("FAIL: expected a violation of %s\n", prop_name[expect]);
	return 1;
}
