// SPDX-License-Identifier: GPL-2.0
/*
 * The lost races of errseq_set() and errseq_check_and_advance(), made
 * deterministic: the library is built with its scheduling hooks, and the
 * hook plays the other thread, changing the word just before a
 * compare-and-swap so that the swap fails.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "errseq.h"

#define SEEN	0x1000U
#define CTR	0x2000U

/*
 * The "other thread": before the Nth write access to *target, store value,
 * as a word of target_size bytes (errseq_t or errseq64_t: storing into the
 * first half of a 64-bit word would hit its high half on big-endian).
 */
static const void *target;
static size_t target_size;
static errseq64_t value;
static int writes_left;

void errseq_sched_point(const void *addr, int is_write);
void errseq_sched_lock(pthread_mutex_t *lock);
void errseq_sched_unlock(pthread_mutex_t *lock);

void errseq_sched_point(const void *addr, int is_write)
{
	if (addr != target || !is_write || !writes_left || --writes_left)
		return;
	if (target_size == sizeof(errseq64_t))
		__atomic_store_n((errseq64_t *)target, value, __ATOMIC_RELAXED);
	else
		__atomic_store_n((errseq_t *)target, (errseq_t)value,
				 __ATOMIC_RELAXED);
}

void errseq_sched_lock(pthread_mutex_t *lock)
{
	pthread_mutex_lock(lock);
}

void errseq_sched_unlock(pthread_mutex_t *lock)
{
	pthread_mutex_unlock(lock);
}

static void race_before_write(errseq_t *e, int nth, errseq_t v)
{
	target = e;
	target_size = sizeof(*e);
	value = v;
	writes_left = nth;
}

static void race_before_write64(errseq64_t *e, int nth, errseq64_t v)
{
	target = e;
	target_size = sizeof(*e);
	value = v;
	writes_left = nth;
}

/* Another writer slips in a different error: retry from what it stored. */
START_TEST(set_retries_after_lost_swap)
{
	errseq_t e = SEEN | EIO;

	race_before_write(&e, 1, CTR | EROFS);
	ck_assert_uint_eq(errseq_set(&e, -ENOSPC), CTR | EROFS);
	/* EROFS was unseen: overwritten in place, no second bump. */
	ck_assert_uint_eq(e, CTR | ENOSPC);
}
END_TEST

/* Another writer stored exactly our value: done, no retry needed. */
START_TEST(set_same_value_race)
{
	errseq_t e = SEEN | EIO;

	race_before_write(&e, 1, CTR | ENOSPC);
	ck_assert_uint_eq(errseq_set(&e, -ENOSPC), CTR | ENOSPC);
	ck_assert_uint_eq(e, CTR | ENOSPC);
	ck_assert_int_eq(writes_left, 0);
}
END_TEST

/*
 * A writer changes the word between a reader's load and its SEEN swap: the
 * reader retries and reports the writer's error, marked seen.
 */
START_TEST(advance_retries_after_lost_swap)
{
	errseq_t e = EIO, since = 0;

	race_before_write(&e, 1, CTR | ENOSPC);
	ck_assert_int_eq(errseq_check_and_advance(&e, &since), -ENOSPC);
	ck_assert_uint_eq(since, CTR | SEEN | ENOSPC);
	ck_assert_uint_eq(e, CTR | SEEN | ENOSPC);
	ck_assert_int_eq(errseq_check_and_advance(&e, &since), 0);
}
END_TEST

/*
 * The lost error the model checkers found in the kernel's algorithm (see
 * modelcheck/README.md), replayed. Reader 0 loads ENOSPC; a writer replaces
 * it with EIO before reader 0's SEEN swap. Without the retry, reader 0 still
 * advances to ENOSPC|SEEN, a value the word never held, so when ENOSPC is
 * set again (no counter bump: EIO was never seen) and reader 1 marks it seen,
 * the word equals reader 0's since and reader 0 never learns of that error.
 */
START_TEST(advance_no_aba_after_lost_swap)
{
	errseq_t e = ENOSPC, r0 = 0, r1 = 0;

	race_before_write(&e, 1, EIO);
	ck_assert_int_ne(errseq_check_and_advance(&e, &r0), 0);
	errseq_set(&e, -ENOSPC);		/* set after r0's report */
	ck_assert_int_eq(errseq_check_and_advance(&e, &r1), -ENOSPC);
	ck_assert_int_eq(errseq_check_and_advance(&e, &r0), -ENOSPC);
}
END_TEST

START_TEST(set64_retries_after_lost_swap)
{
	errseq64_t e = SEEN | EIO;

	race_before_write64(&e, 1, CTR | EROFS);
	ck_assert_uint_eq(errseq_set64(&e, -ENOSPC), CTR | EROFS);
	ck_assert_uint_eq(e, CTR | ENOSPC);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("errseq-races");
	TCase *t = tcase_create("lost-swaps");
	SRunner *sr;
	int failed;

	tcase_add_test(t, set_retries_after_lost_swap);
	tcase_add_test(t, set_same_value_race);
	tcase_add_test(t, advance_retries_after_lost_swap);
	tcase_add_test(t, advance_no_aba_after_lost_swap);
	tcase_add_test(t, set64_retries_after_lost_swap);
	suite_add_tcase(s, t);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
