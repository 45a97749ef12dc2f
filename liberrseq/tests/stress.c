// SPDX-License-Identifier: GPL-2.0
/*
 * Multi-threaded validator: writers set errors while readers, each owning a
 * cursor (and three threads sharing one more cursor), report them. Work runs
 * in rounds separated by barriers; round k's writers all set errno e(k), a
 * different errno from round k-1's. After each round, for each cursor:
 *
 *   no lost error   it reported e(k) at least once in round k;
 *   no double       it reported no more times than the word took distinct
 *                   values in round k (the counter's advance: the word is
 *                   SEEN at each round's start, so every new value bumps it);
 *   latest wins     every error it reported in round k was e(k).
 *
 * usage: stress [ROUNDS]  (build with -DSTRESS_64 for errseq64_t)
 *
 * It names the sanitizer runtime it runs with ("runtime: ThreadSanitizer"),
 * so that a sanitizer test can require the sanitizer to have been there:
 * a build that lost -fsanitize=thread would otherwise pass unchecked.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "errseq.h"
#include "san_runtime.h"

#ifdef STRESS_64
typedef errseq64_t word_t;
typedef struct errseq64_cursor cursor_t;
#define w_set		errseq_set64
#define c_init		errseq64_cursor_init
#define c_report	errseq64_cursor_report
#define c_destroy	errseq64_cursor_destroy
#define CTR_MASK	((1ULL << 51) - 1)
#else
typedef errseq_t word_t;
typedef struct errseq_cursor cursor_t;
#define w_set		errseq_set
#define c_init		errseq_cursor_init
#define c_report	errseq_cursor_report
#define c_destroy	errseq_cursor_destroy
#define CTR_MASK	((1ULL << 19) - 1)
#endif

#define WRITERS		2
#define CURSORS		3	/* the last one is shared by SHARERS threads */
#define SHARERS		3
#define READERS		(CURSORS - 1 + SHARERS)

static word_t word;
static cursor_t cursors[CURSORS];
static pthread_barrier_t start, mid, end;
static unsigned long rounds;
static int round_errno;			/* e(k), written between barriers */
static unsigned long reports[CURSORS];	/* atomic, per round */
static unsigned long wrong[CURSORS];	/* atomic, per round */

static unsigned int rnd(unsigned int *s)
{
	*s = *s * 1103515245 + 12345;
	return *s >> 16;
}

static void *writer(void *arg)
{
	unsigned int seed = (unsigned int)(uintptr_t)arg;

	for (unsigned long k = 0; k < rounds; k++) {
		pthread_barrier_wait(&start);
		for (unsigned int n = 1 + rnd(&seed) % 3; n; n--) {
			for (unsigned int spin = rnd(&seed) % 64; spin; spin--)
				__asm__ volatile("" ::: "memory");
			w_set(&word, -round_errno);
		}
		pthread_barrier_wait(&mid);
		pthread_barrier_wait(&end);
		pthread_barrier_wait(&end);	/* main thread checks */
	}
	return NULL;
}

static void note(int c, int err)
{
	if (!err)
		return;
	__atomic_add_fetch(&reports[c], 1, __ATOMIC_RELAXED);
	if (err != -round_errno)
		__atomic_add_fetch(&wrong[c], 1, __ATOMIC_RELAXED);
}

/* A few reports racing the writers, then one after they are all done. */
static void *reader(void *arg)
{
	int c = (int)(uintptr_t)arg;
	unsigned int seed = (unsigned int)(uintptr_t)arg * 7919 + 1;

	for (unsigned long k = 0; k < rounds; k++) {
		pthread_barrier_wait(&start);
		for (unsigned int n = 1 + rnd(&seed) % 4; n; n--)
			note(c, c_report(&cursors[c], &word));
		pthread_barrier_wait(&mid);
		note(c, c_report(&cursors[c], &word));
		pthread_barrier_wait(&end);
		pthread_barrier_wait(&end);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[WRITERS + READERS];
	unsigned long failures = 0;
	unsigned long long ctr = 0;
	int nt = 0;

	rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000;
	printf("runtime: %s\n", san_runtime());
	/* Start from a seen error, as every later round does. */
	w_set(&word, -ERRSEQ_MAX_ERRNO);
	c_init(&cursors[0], &word);
	c_report(&cursors[0], &word);
	c_destroy(&cursors[0]);
	ctr = (word >> ERRSEQ_COUNTER_SHIFT) & CTR_MASK;
	pthread_barrier_init(&start, NULL, WRITERS + READERS + 1);
	pthread_barrier_init(&mid, NULL, WRITERS + READERS + 1);
	pthread_barrier_init(&end, NULL, WRITERS + READERS + 1);
	for (int c = 0; c < CURSORS; c++)
		c_init(&cursors[c], &word);
	for (int i = 0; i < WRITERS; i++)
		pthread_create(&t[nt++], NULL, writer, (void *)(uintptr_t)(i + 1));
	for (int i = 0; i < READERS; i++)
		pthread_create(&t[nt++], NULL, reader,
			       (void *)(uintptr_t)(i < CURSORS ? i : CURSORS - 1));

	for (unsigned long k = 0; k < rounds; k++) {
		round_errno = 1 + (int)(k % 4095);	/* differs from k-1's */
		for (int c = 0; c < CURSORS; c++)
			reports[c] = wrong[c] = 0;
		pthread_barrier_wait(&start);
		pthread_barrier_wait(&mid);
		pthread_barrier_wait(&end);

		word_t w = word;
		unsigned long long now = (w >> ERRSEQ_COUNTER_SHIFT) & CTR_MASK;
		unsigned long long values = (now - ctr) & CTR_MASK;

		ctr = now;
		if ((int)(w & ERRSEQ_ERRNO_MASK) != round_errno ||
		    !(w & ERRSEQ_SEEN_FLAG)) {
			if (failures++ < 10)
				fprintf(stderr, "round %lu: word %#llx, expected "
					"errno %d and SEEN\n", k,
					(unsigned long long)w, round_errno);
		}
		for (int c = 0; c < CURSORS; c++) {
			const char *why = NULL;

			if (reports[c] == 0)
				why = "lost error";
			else if (reports[c] > values)
				why = "double report";
			else if (wrong[c])
				why = "report of an error that is not the latest";
			if (why && failures++ < 10)
				fprintf(stderr, "round %lu cursor %d: %s (%lu "
					"reports, %llu new values, %lu wrong)\n",
					k, c, why, reports[c], values, wrong[c]);
		}
		pthread_barrier_wait(&end);
	}
	for (int i = 0; i < nt; i++)
		pthread_join(t[i], NULL);
	for (int c = 0; c < CURSORS; c++)
		c_destroy(&cursors[c]);
	printf("%lu rounds, %d writers, %d readers on %d cursors: %lu failures\n",
	       rounds, WRITERS, READERS, CURSORS, failures);
	return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
