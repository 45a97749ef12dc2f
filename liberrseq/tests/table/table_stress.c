// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrent stress of the errseq table, with an oracle for lost errors.
 *
 * Writers set errors on random keys; readers own the keys (key % readers ==
 * reader) and open, check and close handles on them; a reclaimer reclaims
 * and samples; the limit is far below the number of keys, so objects are
 * reclaimed and recreated all the time.
 *
 * Oracle. Per key, writers count started[] before errseq_table_set_error()
 * and done[] after it returns. Each handle keeps "covered": the value of
 * started[] read after its last report that returned an error (so every set
 * that could have been folded into that report). The owner keeps the latest
 * covered of any handle of the key, key_covered[]; only the owner reports on
 * its keys, so this is exact in its own order.
 *
 *  - A check that returns 0 must have d <= covered, where d is done[] read
 *    before the check: otherwise a set began after the handle's last report
 *    and ended before this check, and the check missed it.
 *  - A handle opened on a key starts with covered = key_covered[]: a set
 *    begun after the key's last report left its error unseen, so the object
 *    can not have been reclaimed and the new handle must report it.
 *
 * A violation prints "LOST ERROR" and exits 1. Use-after-free is for the
 * ASan build, races for the TSan build.
 *
 * usage: table_stress [seconds [keys [readers [writers [limit]]]]]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "errseq_table.h"
#include "../san_runtime.h"

#define SLOTS		2	/* handles a reader may hold per key */
#define MAX_ERR		100

static struct errseq_table *table;
static unsigned long nkeys = 256, nreaders = 2, nwriters = 2, limit = 16;
static double seconds = 2;
static int stop;
static unsigned long *started, *done;	/* per key, atomic */
static unsigned long nchecks, nreports, nopens, nsets, nreclaimed;

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static void lost(const char *what, unsigned long key, unsigned long covered,
		 unsigned long d)
{
	struct errseq_table_stats st;

	errseq_table_stats(table, &st, sizeof(st));
	printf("LOST ERROR (%s): key %lu: %lu sets completed, handle covers "
	       "only %lu; objects %lu reclaimed %lu\n", what, key, d, covered,
	       (unsigned long)st.objects, (unsigned long)st.reclaimed);
	fflush(stdout);
	exit(1);
}

static void die(const char *what, int ret)
{
	printf("FAIL: %s returned %d\n", what, ret);
	fflush(stdout);
	exit(2);
}

static void *writer(void *arg)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL * ((uintptr_t)arg + 1);
	unsigned long n = 0;
	int ret;

	errseq_table_thread_register();
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		unsigned long k = xorshift(&seed) % nkeys;
		int err = -(int)(1 + xorshift(&seed) % MAX_ERR);

		__atomic_add_fetch(&started[k], 1, __ATOMIC_SEQ_CST);
		ret = errseq_table_set_error(table, k, err);
		if (ret < 0)
			die("errseq_table_set_error", ret);
		__atomic_add_fetch(&done[k], 1, __ATOMIC_SEQ_CST);
		n++;
		if (!(n & 63))
			sched_yield();
	}
	__atomic_add_fetch(&nsets, n, __ATOMIC_RELAXED);
	errseq_table_thread_unregister();
	return NULL;
}

struct slot {
	struct errseq_table_handle *h;
	unsigned long covered;
};

struct reader {
	unsigned long id;
	struct slot *slots;		/* nkeys * SLOTS, only owned keys used */
	unsigned long *key_covered;	/* nkeys */
};

static void check_slot(struct reader *r, unsigned long k, struct slot *s)
{
	unsigned long d = __atomic_load_n(&done[k], __ATOMIC_SEQ_CST);
	int err = errseq_table_check(s->h);

	__atomic_add_fetch(&nchecks, 1, __ATOMIC_RELAXED);
	if (!err) {
		if (d > s->covered)
			lost("check", k, s->covered, d);
		return;
	}
	if (err < -MAX_ERR || err > -1)
		die("errseq_table_check (errno out of range)", err);
	__atomic_add_fetch(&nreports, 1, __ATOMIC_RELAXED);
	s->covered = __atomic_load_n(&started[k], __ATOMIC_SEQ_CST);
	if (s->covered > r->key_covered[k])
		r->key_covered[k] = s->covered;
}

static void open_slot(struct reader *r, unsigned long k, struct slot *s)
{
	int ret = errseq_table_open(table, k, 0, &s->h);

	if (ret < 0)
		die("errseq_table_open", ret);
	__atomic_add_fetch(&nopens, 1, __ATOMIC_RELAXED);
	s->covered = r->key_covered[k];
}

static void *reader(void *arg)
{
	struct reader *r = arg;
	uint64_t seed = 0xd1b54a32d192ed03ULL * (r->id + 7);
	unsigned long n = 0;

	errseq_table_thread_register();
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		unsigned long k = xorshift(&seed) % nkeys;
		unsigned int op = xorshift(&seed) % 8;
		struct slot *s;

		k -= k % nreaders;
		k += r->id;
		if (k >= nkeys)
			continue;
		s = &r->slots[k * SLOTS + xorshift(&seed) % SLOTS];
		if (!s->h) {
			open_slot(r, k, s);
			/* Often check at once: the case reclaim must not break. */
			if (op & 1)
				check_slot(r, k, s);
		} else if (op < 6) {
			check_slot(r, k, s);
		} else {
			if (op == 7)
				check_slot(r, k, s);
			errseq_table_close(s->h);
			s->h = NULL;
		}
		if (!(++n & 63))
			sched_yield();
	}
	errseq_table_thread_unregister();
	return NULL;
}

static void *reclaimer(void *arg)
{
	uint64_t seed = 0x2545f4914f6cdd1dULL;
	unsigned long n, total = 0;
	errseq64_t w;
	int ret, i;

	(void)arg;
	errseq_table_thread_register();
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		ret = errseq_table_reclaim(table, &n);
		if (ret < 0)
			die("errseq_table_reclaim", ret);
		total += n;
		for (i = 0; i < 16; i++) {
			ret = errseq_table_sample(table, xorshift(&seed) % nkeys,
						  &w);
			if (ret < 0 && ret != -ENOENT)
				die("errseq_table_sample", ret);
		}
		/* Move the limit around a little, down to 0. */
		if (!(xorshift(&seed) % 64))
			errseq_table_set_limit(table, xorshift(&seed) %
					       (limit + 1));
		sched_yield();
	}
	__atomic_add_fetch(&nreclaimed, total, __ATOMIC_RELAXED);
	errseq_table_thread_unregister();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t *tids;
	struct reader *readers;
	struct errseq_table_stats st;
	unsigned long i, k, nthreads;
	struct timespec ts;
	int ret;

	if (argc > 1)
		seconds = atof(argv[1]);
	if (argc > 2)
		nkeys = strtoul(argv[2], NULL, 0);
	if (argc > 3)
		nreaders = strtoul(argv[3], NULL, 0);
	if (argc > 4)
		nwriters = strtoul(argv[4], NULL, 0);
	if (argc > 5)
		limit = strtoul(argv[5], NULL, 0);
	if (!nkeys || !nreaders) {
		fprintf(stderr, "need keys and readers\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("runtime: %s\n", san_runtime());

	errseq_table_thread_register();
	table = errseq_table_new(limit, 0);
	started = calloc(nkeys, sizeof(*started));
	done = calloc(nkeys, sizeof(*done));
	readers = calloc(nreaders, sizeof(*readers));
	nthreads = nreaders + nwriters + 1;
	tids = calloc(nthreads, sizeof(*tids));
	if (!table || !started || !done || !readers || !tids) {
		perror("setup");
		return 2;
	}
	for (i = 0; i < nreaders; i++) {
		readers[i].id = i;
		readers[i].slots = calloc(nkeys * SLOTS, sizeof(struct slot));
		readers[i].key_covered = calloc(nkeys, sizeof(unsigned long));
		if (!readers[i].slots || !readers[i].key_covered)
			return 2;
	}

	for (i = 0; i < nreaders; i++)
		pthread_create(&tids[i], NULL, reader, &readers[i]);
	for (i = 0; i < nwriters; i++)
		pthread_create(&tids[nreaders + i], NULL, writer,
			       (void *)(uintptr_t)i);
	pthread_create(&tids[nthreads - 1], NULL, reclaimer, NULL);

	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < nthreads; i++)
		pthread_join(tids[i], NULL);

	/*
	 * Quiet now. Every handle still open must report what it missed,
	 * then a fresh handle on every key must report any error set after
	 * the key's last report: nothing may have been reclaimed with it.
	 */
	for (i = 0; i < nreaders; i++) {
		struct reader *r = &readers[i];

		for (k = i; k < nkeys; k += nreaders) {
			struct slot fresh = { 0 };
			unsigned int j;

			for (j = 0; j < SLOTS; j++) {
				struct slot *s = &r->slots[k * SLOTS + j];

				if (!s->h)
					continue;
				check_slot(r, k, s);
				errseq_table_close(s->h);
			}
			open_slot(r, k, &fresh);
			check_slot(r, k, &fresh);
			errseq_table_close(fresh.h);
		}
	}

	errseq_table_stats(table, &st, sizeof(st));
	printf("sets %lu opens %lu checks %lu reports %lu; objects %lu "
	       "created %lu reclaimed %lu unseen_kept %lu over_limit %lu\n",
	       nsets, nopens, nchecks, nreports, (unsigned long)st.objects,
	       (unsigned long)st.created, (unsigned long)st.reclaimed,
	       (unsigned long)st.unseen_kept, (unsigned long)st.over_limit);
	if (st.handles != 0)
		die("handles left open", (int)st.handles);
	if (!st.reclaimed || !nreports)
		die("the run did not exercise reclaim and reports", 0);
	ret = errseq_table_destroy(table);
	if (ret)
		die("errseq_table_destroy", ret);
	errseq_table_thread_unregister();
	for (i = 0; i < nreaders; i++) {
		free(readers[i].slots);
		free(readers[i].key_covered);
	}
	free(readers);
	free(tids);
	free(started);
	free(done);
	printf("OK: no error lost\n");
	return 0;
}
