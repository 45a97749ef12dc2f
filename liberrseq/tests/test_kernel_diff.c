// SPDX-License-Identifier: GPL-2.0
/*
 * Differential test: liberrseq against the kernel's own lib/errseq.c
 * (extracted from linux-source-6.1 at build time, compiled unchanged).
 * Both run the same random operations from the same states; every return
 * value, word and "since" must match, and so must the count of calls the
 * kernel would WARN about. errseq_check_fast() must return what the
 * kernel's errseq_check() returns, and every other check_and_advance goes
 * through a liberrseq cursor instead, against the kernel's
 * file_check_and_advance_wb_err() pattern (errseq_check(), then
 * check_and_advance only if it returned non-zero).
 *
 * usage: test_kernel_diff [OPS [SEED]]   (default 2000000 operations)
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "errseq.h"
#include "kernel_errseq.h"

#define READERS 4

static uint64_t rng_state;

static uint64_t rnd(void)	/* xorshift64* */
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

/* Mostly common errnos, then any valid one, then invalid values. */
static int random_err(void)
{
	static const int common[] = { -EIO, -ENOSPC, -EDQUOT, -EROFS, -1,
				      -4095 };
	static const int bad[] = { 0, 1, EIO, 4096, INT_MAX, -4096, -4097,
				   INT_MIN, -100000 };

	switch (rnd() % 8) {
	case 0: case 1: case 2: case 3:
		return common[rnd() % (sizeof(common) / sizeof(common[0]))];
	case 4: case 5:
		return -(int)(1 + rnd() % 4095);
	case 6:
		return bad[rnd() % (sizeof(bad) / sizeof(bad[0]))];
	default:
		return (int)(uint32_t)rnd();
	}
}

/* Start words: zero, random, and near the 19-bit counter's wrap. */
static uint32_t random_word(void)
{
	switch (rnd() % 4) {
	case 0:
		return 0;
	case 1:
		return (uint32_t)rnd();
	default:
		return (uint32_t)(0xffffe000U - (rnd() % 4) * 0x2000U) |
		       (uint32_t)(rnd() % 2) * 0x1000U |
		       (uint32_t)(1 + rnd() % 4095);
	}
}

static unsigned long failures;

static void mismatch(unsigned long op, const char *what, uint64_t lib,
		     uint64_t ker)
{
	if (failures++ < 20)
		fprintf(stderr, "op %lu: %s: liberrseq %#" PRIx64
			" kernel %#" PRIx64 "\n", op, what, lib, ker);
}

int main(int argc, char **argv)
{
	unsigned long ops = argc > 1 ? strtoul(argv[1], NULL, 0) : 2000000;
	unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 0) : 20171205;
	errseq_t lw = 0, lsince[READERS] = { 0 };
	uint32_t kw = 0, ksince[READERS] = { 0 };
	unsigned long counts[5] = { 0 };
	struct errseq_cursor cur;

	errseq_cursor_init(&cur, &lw);

	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;
	for (unsigned long op = 0; op < ops; op++) {
		unsigned int r = rnd() % READERS;

		if (op % 4096 == 0) {	/* a fresh history now and then */
			lw = kw = random_word();
			for (int i = 0; i < READERS; i++)
				lsince[i] = ksince[i] = (uint32_t)(rnd() % 2 ?
					rnd() : lw);
		}
		switch (rnd() % 5) {
		case 0: case 1: {
			int err = random_err();
			uint32_t a = errseq_set(&lw, err);
			uint32_t b = kernel_errseq_set(&kw, err);

			if (a != b)
				mismatch(op, "errseq_set return", a, b);
			counts[0]++;
			break;
		}
		case 2: {
			uint32_t a = errseq_sample(&lw);
			uint32_t b = kernel_errseq_sample(&kw);

			if (a != b)
				mismatch(op, "errseq_sample return", a, b);
			lsince[r] = a;
			ksince[r] = b;
			counts[1]++;
			break;
		}
		case 3: {
			int a = errseq_check(&lw, lsince[r]);
			int b = kernel_errseq_check(&kw, ksince[r]);

			if (a != b)
				mismatch(op, "errseq_check return",
					 (uint32_t)a, (uint32_t)b);
			a = errseq_check_fast(&lw, lsince[r]);
			if (a != b)
				mismatch(op, "errseq_check_fast return",
					 (uint32_t)a, (uint32_t)b);
			counts[2]++;
			break;
		}
		default: {
			int a, b;

			if (op % 2) {
				/* The cursor's since is private: set it. */
				cur.since = lsince[r];
				a = errseq_cursor_report(&cur, &lw);
				lsince[r] = cur.since;
				b = kernel_errseq_check(&kw, ksince[r]) ?
				    kernel_errseq_check_and_advance(&kw,
								    &ksince[r]) :
				    0;
			} else {
				a = errseq_check_and_advance(&lw, &lsince[r]);
				b = kernel_errseq_check_and_advance(&kw,
								    &ksince[r]);
			}

			if (a != b)
				mismatch(op, "errseq_check_and_advance return",
					 (uint32_t)a, (uint32_t)b);
			counts[3]++;
			break;
		}
		}
		if (lw != kw)
			mismatch(op, "word", lw, kw);
		for (int i = 0; i < READERS; i++)
			if (lsince[i] != ksince[i])
				mismatch(op, "since", lsince[i], ksince[i]);
	}
	if (errseq_invalid_count() != kernel_errseq_warnings)
		mismatch(ops, "invalid-errno count", errseq_invalid_count(),
			 kernel_errseq_warnings);
	errseq_cursor_destroy(&cur);
	printf("%lu operations (set %lu, sample %lu, check %lu, "
	       "check_and_advance %lu), %lu invalid errnos, seed %lu\n",
	       ops, counts[0], counts[1], counts[2], counts[3],
	       errseq_invalid_count(), seed);
	if (failures)
		fprintf(stderr, "%lu mismatches\n", failures);
	return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
