// SPDX-License-Identifier: GPL-2.0
/*
 * table_bench: the errseq table's lock-free lookup + check against the same
 * operation on a hash table behind one pthread mutex (and one rwlock), at 1..N
 * threads; then a handle's check of one hot object against a mutex-guarded
 * check of the same word. Nothing changes during a run (no error is set), so
 * this measures the common case: "has anything happened?" -> no.
 *
 * usage: table_bench [--seconds S] [--keys K] [--threads N]
 * Prints ops/s per thread for each implementation and the ratio to the mutex.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "errseq_table.h"

static double seconds = 0.5;
static unsigned long nkeys = 4096;
static int stop;

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/* --- the baseline: chained hash table under one lock --- */

struct mentry {
	uint64_t key;
	errseq64_t word;
	struct mentry *next;
};

struct mtable {
	pthread_mutex_t mutex;
	pthread_rwlock_t rwlock;
	unsigned long nbuckets;
	struct mentry **buckets;
};

static struct mtable mt;

static unsigned long mhash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (unsigned long)k;
}

static void mtable_init(unsigned long n)
{
	unsigned long i;

	pthread_mutex_init(&mt.mutex, NULL);
	pthread_rwlock_init(&mt.rwlock, NULL);
	for (mt.nbuckets = 1; mt.nbuckets < n; mt.nbuckets <<= 1)
		;
	mt.buckets = calloc(mt.nbuckets, sizeof(*mt.buckets));
	for (i = 0; i < n; i++) {
		struct mentry *e = calloc(1, sizeof(*e));
		unsigned long b = mhash(i) & (mt.nbuckets - 1);

		e->key = i;
		e->next = mt.buckets[b];
		mt.buckets[b] = e;
	}
}

static struct mentry *mtable_find(uint64_t key)
{
	struct mentry *e = mt.buckets[mhash(key) & (mt.nbuckets - 1)];

	while (e && e->key != key)
		e = e->next;
	return e;
}

/* --- the workloads; each returns ops done until stop --- */

enum impl { RCU, MUTEX, RWLOCK, HANDLE, HANDLE_MUTEX, NIMPL };
static const char *const impl_name[NIMPL] = {
	"rcu-table", "mutex-table", "rwlock-table", "handle", "mutex-check",
};

static struct errseq_table *table;
static struct errseq_table_handle *hot;
static errseq64_t hot_word, hot_since;	/* HANDLE_MUTEX's object */

struct worker {
	pthread_t tid;
	enum impl impl;
	unsigned long id;
	unsigned long ops;
	unsigned long changed;		/* keeps the checks live */
};

static void *work(void *arg)
{
	struct worker *w = arg;
	uint64_t seed = 0x9e3779b97f4a7c15ULL * (w->id + 1);
	unsigned long ops = 0, changed = 0;
	struct mentry *e;
	errseq64_t word;
	int i;

	errseq_table_thread_register();
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		for (i = 0; i < 64; i++) {
			uint64_t key = xorshift(&seed) % nkeys;

			switch (w->impl) {
			case RCU:
				if (errseq_table_sample(table, key, &word) ||
				    errseq_check64(&word, 0))
					changed++;
				break;
			case MUTEX:
				pthread_mutex_lock(&mt.mutex);
				e = mtable_find(key);
				word = e ? e->word : 1;
				pthread_mutex_unlock(&mt.mutex);
				changed += word != 0;
				break;
			case RWLOCK:
				pthread_rwlock_rdlock(&mt.rwlock);
				e = mtable_find(key);
				word = e ? e->word : 1;
				pthread_rwlock_unlock(&mt.rwlock);
				changed += word != 0;
				break;
			case HANDLE:
				changed += errseq_table_check(hot) != 0;
				break;
			case HANDLE_MUTEX:
				pthread_mutex_lock(&mt.mutex);
				changed += hot_word != hot_since;
				pthread_mutex_unlock(&mt.mutex);
				break;
			default:
				abort();
			}
		}
		ops += 64;
	}
	w->ops = ops;
	w->changed = changed;
	errseq_table_thread_unregister();
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ops/s per thread, averaged over the threads. */
static double run(enum impl impl, unsigned long nthreads)
{
	struct worker *w = calloc(nthreads, sizeof(*w));
	struct timespec ts;
	unsigned long i, ops = 0, changed = 0;
	double t0, t1;

	if (!w)
		abort();
	__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
	t0 = now();
	for (i = 0; i < nthreads; i++) {
		w[i].impl = impl;
		w[i].id = i;
		pthread_create(&w[i].tid, NULL, work, &w[i]);
	}
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < nthreads; i++) {
		pthread_join(w[i].tid, NULL);
		ops += w[i].ops;
		changed += w[i].changed;
	}
	t1 = now();
	free(w);
	if (changed) {
		fprintf(stderr, "table_bench: %s saw %lu changes in a quiet "
			"table\n", impl_name[impl], changed);
		exit(1);
	}
	return (double)ops / (t1 - t0) / (double)nthreads;
}

static void row(unsigned long n, const enum impl *impls, int nimpl)
{
	double r[NIMPL];
	int i;

	printf("%7lu", n);
	for (i = 0; i < nimpl; i++) {
		r[i] = run(impls[i], n);
		printf(" %14.3g", r[i]);
	}
	/* impls[0] is ours, impls[1] the mutex baseline. */
	printf(" %10.1fx\n", r[0] / r[1]);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const enum impl lookup[] = { RCU, MUTEX, RWLOCK };
	static const enum impl check[] = { HANDLE, HANDLE_MUTEX };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long maxthreads = ncpu > 0 ? (unsigned long)ncpu : 1, n;
	unsigned long i;
	int a, ret;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--seconds") && a + 1 < argc)
			seconds = atof(argv[++a]);
		else if (!strcmp(argv[a], "--keys") && a + 1 < argc)
			nkeys = strtoul(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--threads") && a + 1 < argc)
			maxthreads = strtoul(argv[++a], NULL, 0);
		else {
			fprintf(stderr, "usage: %s [--seconds S] [--keys K] "
				"[--threads N]\n", argv[0]);
			return 2;
		}
	}
	if (!nkeys || !maxthreads)
		return 2;

	errseq_table_thread_register();
	table = errseq_table_new(nkeys, 0);
	if (!table) {
		perror("errseq_table_new");
		return 1;
	}
	for (i = 0; i < nkeys; i++) {
		struct errseq_table_handle *h;

		ret = errseq_table_open(table, i, 0, &h);
		if (ret < 0) {
			fprintf(stderr, "errseq_table_open: %s\n",
				strerror(-ret));
			return 1;
		}
		if (i)
			errseq_table_close(h);
		else
			hot = h;
	}
	mtable_init(nkeys);

	printf("lookup + check, %lu keys, nothing changed: ops/s per thread "
	       "(%.2g s per cell, %ld CPUs online)\n", nkeys, seconds, ncpu);
	printf("%7s %14s %14s %14s %11s\n", "threads", impl_name[RCU],
	       impl_name[MUTEX], impl_name[RWLOCK], "rcu/mutex");
	for (n = 1; n <= maxthreads; n++)
		row(n, lookup, 3);

	printf("\nhot object: handle check vs mutex-guarded check, ops/s per "
	       "thread\n");
	printf("%7s %14s %14s %11s\n", "threads", impl_name[HANDLE],
	       impl_name[HANDLE_MUTEX], "handle/mutex");
	for (n = 1; n <= maxthreads; n++)
		row(n, check, 2);

	errseq_table_close(hot);
	ret = errseq_table_destroy(table);
	errseq_table_thread_unregister();
	return ret ? 1 : 0;
}
