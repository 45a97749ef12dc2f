// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the errseq table (libcheck): every call, the reclaim rule,
 * the over-limit policy and the misuse errors.
 *
 * Runs CK_NOFORK: liburcu's call_rcu worker and membarrier registration are
 * per process, and a forked child would inherit a half-initialised RCU.
 * Each test therefore cleans up after itself.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "errseq_table.h"

static struct errseq_table *t;

static void setup(void)
{
	errseq_table_thread_register();
	t = errseq_table_new(1000, 0);
	ck_assert_ptr_nonnull(t);
}

static void teardown(void)
{
	ck_assert_int_eq(errseq_table_destroy(t), 0);
	t = NULL;
	errseq_table_thread_unregister();
}

static struct errseq_table_stats stats(void)
{
	struct errseq_table_stats st;

	errseq_table_stats(t, &st, sizeof(st));
	return st;
}

static struct errseq_table_handle *open_ok(uint64_t key, int want_flags)
{
	struct errseq_table_handle *h = NULL;

	ck_assert_int_eq(errseq_table_open(t, key, 0, &h), want_flags);
	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(errseq_table_handle_key(h), key);
	return h;
}

START_TEST(test_new_bad_flags)
{
	errno = 0;
	ck_assert_ptr_null(errseq_table_new(1, 1));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(errseq_table_destroy(NULL), 0);
}
END_TEST

START_TEST(test_registered)
{
	ck_assert_int_eq(errseq_table_thread_registered(), 1);
}
END_TEST

START_TEST(test_open_creates)
{
	struct errseq_table_handle *h1, *h2;
	struct errseq_table_stats st;

	h1 = open_ok(7, ERRSEQ_TABLE_CREATED);
	h2 = open_ok(7, 0);		/* same object, not created again */
	st = stats();
	ck_assert_uint_eq(st.objects, 1);
	ck_assert_uint_eq(st.created, 1);
	ck_assert_uint_eq(st.handles, 2);
	ck_assert_uint_eq(st.idle, 0);
	errseq_table_close(h1);
	errseq_table_close(h2);
	st = stats();
	ck_assert_uint_eq(st.handles, 0);
	ck_assert_uint_eq(st.idle, 1);
	errseq_table_close(NULL);	/* no-op */
}
END_TEST

START_TEST(test_open_nocreate)
{
	struct errseq_table_handle *h = NULL;

	ck_assert_int_eq(errseq_table_open(t, 42, ERRSEQ_TABLE_NOCREATE, &h),
			 -ENOENT);
	ck_assert_ptr_null(h);
	ck_assert_uint_eq(stats().objects, 0);
	ck_assert_int_eq(errseq_table_set_error(t, 42, -EIO),
			 ERRSEQ_TABLE_CREATED);
	ck_assert_int_eq(errseq_table_open(t, 42, ERRSEQ_TABLE_NOCREATE, &h),
			 0);
	ck_assert_int_eq(errseq_table_check(h), -EIO);
	errseq_table_close(h);
}
END_TEST

START_TEST(test_open_bad_flags)
{
	struct errseq_table_handle *h = NULL;

	ck_assert_int_eq(errseq_table_open(t, 1, 0x80, &h), -EINVAL);
	ck_assert_ptr_null(h);
}
END_TEST

START_TEST(test_check_reports_once)
{
	struct errseq_table_handle *h = open_ok(1, ERRSEQ_TABLE_CREATED);

	ck_assert_int_eq(errseq_table_check(h), 0);
	ck_assert_int_eq(errseq_table_set_error(t, 1, -EIO), 0);
	ck_assert_int_eq(errseq_table_check(h), -EIO);
	ck_assert_int_eq(errseq_table_check(h), 0);
	/* Two errors before a check: the latest is reported, once. */
	ck_assert_int_eq(errseq_table_set_error(t, 1, -EIO), 0);
	ck_assert_int_eq(errseq_table_set_error(t, 1, -ENOSPC), 0);
	ck_assert_int_eq(errseq_table_check(h), -ENOSPC);
	ck_assert_int_eq(errseq_table_check(h), 0);
	errseq_table_close(h);
}
END_TEST

START_TEST(test_each_handle_reports)
{
	struct errseq_table_handle *a = open_ok(3, ERRSEQ_TABLE_CREATED);
	struct errseq_table_handle *b = open_ok(3, 0);

	ck_assert_int_eq(errseq_table_set_error(t, 3, -EROFS), 0);
	ck_assert_int_eq(errseq_table_check(a), -EROFS);
	ck_assert_int_eq(errseq_table_check(a), 0);
	ck_assert_int_eq(errseq_table_check(b), -EROFS);
	ck_assert_int_eq(errseq_table_check(b), 0);
	errseq_table_close(a);
	errseq_table_close(b);
}
END_TEST

START_TEST(test_seen_error_not_reported_to_new_handle)
{
	struct errseq_table_handle *a = open_ok(4, ERRSEQ_TABLE_CREATED), *b;

	ck_assert_int_eq(errseq_table_set_error(t, 4, -EIO), 0);
	ck_assert_int_eq(errseq_table_check(a), -EIO);
	b = open_ok(4, 0);
	ck_assert_int_eq(errseq_table_check(b), 0);
	ck_assert_int_eq(errseq_table_set_error(t, 4, -EIO), 0);
	ck_assert_int_eq(errseq_table_check(b), -EIO);
	ck_assert_int_eq(errseq_table_check(a), -EIO);
	errseq_table_close(a);
	errseq_table_close(b);
}
END_TEST

START_TEST(test_unseen_error_reported_to_new_handle)
{
	struct errseq_table_handle *h;

	/* The writeback path hits a key nobody has open: created, kept. */
	ck_assert_int_eq(errseq_table_set_error(t, 5, -EIO),
			 ERRSEQ_TABLE_CREATED);
	h = open_ok(5, 0);
	ck_assert_int_eq(errseq_table_check(h), -EIO);
	ck_assert_int_eq(errseq_table_check(h), 0);
	errseq_table_close(h);
}
END_TEST

START_TEST(test_set_error_args)
{
	ck_assert_int_eq(errseq_table_set_error(t, 9, 0), 0);
	ck_assert_int_eq(errseq_table_set_error(t, 9, 1), -EINVAL);
	ck_assert_int_eq(errseq_table_set_error(t, 9, -4096), -EINVAL);
	ck_assert_uint_eq(stats().objects, 0);	/* none of them created 9 */
	ck_assert_int_eq(errseq_table_set_error(t, 9, -4095),
			 ERRSEQ_TABLE_CREATED);
}
END_TEST

START_TEST(test_sample)
{
	struct errseq_table_handle *h;
	errseq64_t w = 12345;

	ck_assert_int_eq(errseq_table_sample(t, 11, &w), -ENOENT);
	ck_assert_uint_eq(w, 12345);
	ck_assert_int_eq(errseq_table_set_error(t, 11, -EIO),
			 ERRSEQ_TABLE_CREATED);
	ck_assert_int_eq(errseq_table_sample(t, 11, &w), 0);
	ck_assert_uint_eq(w & ERRSEQ_ERRNO_MASK, EIO);
	ck_assert_uint_eq(w & ERRSEQ_SEEN_FLAG, 0);	/* sample marks nothing */
	/* Lookup + check, the way a caller without a handle does it. */
	ck_assert_int_eq(errseq_check64(&w, 0), -EIO);
	h = open_ok(11, 0);
	ck_assert_int_eq(errseq_table_check(h), -EIO);
	ck_assert_int_eq(errseq_table_sample(t, 11, &w), 0);
	ck_assert_uint_eq(w & ERRSEQ_SEEN_FLAG, ERRSEQ_SEEN_FLAG);
	errseq_table_close(h);
}
END_TEST

START_TEST(test_reclaim_idle_clean)
{
	struct errseq_table_stats st;
	unsigned long n = 99;
	errseq64_t w;
	uint64_t k;

	for (k = 0; k < 3; k++)
		errseq_table_close(open_ok(k, ERRSEQ_TABLE_CREATED));
	errseq_table_set_limit(t, 1);
	ck_assert_int_eq(errseq_table_reclaim(t, &n), 0);
	ck_assert_uint_eq(n, 2);
	/* Oldest closed first: key 2 stays. */
	ck_assert_int_eq(errseq_table_sample(t, 0, &w), -ENOENT);
	ck_assert_int_eq(errseq_table_sample(t, 1, &w), -ENOENT);
	ck_assert_int_eq(errseq_table_sample(t, 2, &w), 0);
	errseq_table_set_limit(t, 0);
	ck_assert_int_eq(errseq_table_reclaim(t, NULL), 0);
	st = stats();
	ck_assert_uint_eq(st.objects, 0);
	ck_assert_uint_eq(st.idle, 0);
	ck_assert_uint_eq(st.created, 3);
	ck_assert_uint_eq(st.reclaimed, 3);
	ck_assert_uint_eq(st.limit, 0);
}
END_TEST

START_TEST(test_reclaim_lru_order)
{
	struct errseq_table_handle *h0 = open_ok(0, ERRSEQ_TABLE_CREATED);
	struct errseq_table_handle *h1 = open_ok(1, ERRSEQ_TABLE_CREATED);
	unsigned long n;
	errseq64_t w;

	/* Created 0 then 1, closed 1 then 0: 1 is the colder. */
	errseq_table_close(h1);
	errseq_table_close(h0);
	errseq_table_set_limit(t, 1);
	ck_assert_int_eq(errseq_table_reclaim(t, &n), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(errseq_table_sample(t, 1, &w), -ENOENT);
	ck_assert_int_eq(errseq_table_sample(t, 0, &w), 0);
}
END_TEST

START_TEST(test_reclaim_keeps_unseen)
{
	struct errseq_table_handle *h;
	struct errseq_table_stats st;
	unsigned long n = 99;
	errseq64_t w;

	errseq_table_set_limit(t, 0);
	/* Created above the limit, and kept: the error is unseen. */
	ck_assert_int_eq(errseq_table_set_error(t, 5, -EIO),
			 ERRSEQ_TABLE_CREATED | ERRSEQ_TABLE_OVER_LIMIT);
	ck_assert_int_eq(errseq_table_reclaim(t, &n),
			 ERRSEQ_TABLE_OVER_LIMIT);
	ck_assert_uint_eq(n, 0);
	st = stats();
	ck_assert_uint_eq(st.objects, 1);
	ck_assert_uint_eq(st.reclaimed, 0);
	ck_assert_uint_ge(st.unseen_kept, 1);
	ck_assert_uint_ge(st.over_limit, 2);
	ck_assert_int_eq(errseq_table_sample(t, 5, &w), 0);

	/* A client opens the object later and is told. */
	h = open_ok(5, 0);
	ck_assert_int_eq(errseq_table_check(h), -EIO);
	errseq_table_close(h);
	/* Now seen: reclaimable, and a new handle reports nothing either way. */
	ck_assert_int_eq(errseq_table_reclaim(t, &n), 0);
	ck_assert_uint_eq(n, 1);
	h = open_ok(5, ERRSEQ_TABLE_CREATED | ERRSEQ_TABLE_OVER_LIMIT);
	ck_assert_int_eq(errseq_table_check(h), 0);
	errseq_table_close(h);
}
END_TEST

START_TEST(test_reclaim_keeps_error_set_after_close)
{
	struct errseq_table_handle *h = open_ok(6, ERRSEQ_TABLE_CREATED);
	unsigned long n;

	ck_assert_int_eq(errseq_table_set_error(t, 6, -EIO), 0);
	ck_assert_int_eq(errseq_table_check(h), -EIO);
	/* Seen by h, then a new error that h closes without looking at. */
	ck_assert_int_eq(errseq_table_set_error(t, 6, -ENOSPC), 0);
	errseq_table_close(h);
	errseq_table_set_limit(t, 0);
	ck_assert_int_eq(errseq_table_reclaim(t, &n), ERRSEQ_TABLE_OVER_LIMIT);
	ck_assert_uint_eq(n, 0);
	h = open_ok(6, 0);	/* only a creating call reports the limit */
	ck_assert_int_eq(errseq_table_check(h), -ENOSPC);
	errseq_table_close(h);
}
END_TEST

START_TEST(test_reclaim_keeps_busy)
{
	struct errseq_table_handle *h = open_ok(8, ERRSEQ_TABLE_CREATED);
	unsigned long n;

	errseq_table_set_limit(t, 0);
	ck_assert_int_eq(errseq_table_reclaim(t, &n), ERRSEQ_TABLE_OVER_LIMIT);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(errseq_table_set_error(t, 8, -EIO), 0);
	ck_assert_int_eq(errseq_table_check(h), -EIO);
	errseq_table_close(h);
	ck_assert_int_eq(errseq_table_reclaim(t, &n), 0);
	ck_assert_uint_eq(n, 1);
}
END_TEST

START_TEST(test_auto_reclaim)
{
	struct errseq_table_stats st;
	uint64_t k;

	errseq_table_set_limit(t, 2);
	for (k = 0; k < 10; k++)
		errseq_table_close(open_ok(k, ERRSEQ_TABLE_CREATED));
	st = stats();
	ck_assert_uint_le(st.objects, 2);
	ck_assert_uint_eq(st.created, 10);
	ck_assert_uint_ge(st.reclaimed, 8);
	ck_assert_uint_eq(st.over_limit, 0);
}
END_TEST

START_TEST(test_over_limit_all_unseen)
{
	struct errseq_table_stats st;
	uint64_t k;
	int ret;

	errseq_table_set_limit(t, 2);
	for (k = 0; k < 10; k++) {
		ret = errseq_table_set_error(t, k, -EIO);
		ck_assert_int_eq(ret, k < 2 ? ERRSEQ_TABLE_CREATED :
				 ERRSEQ_TABLE_CREATED | ERRSEQ_TABLE_OVER_LIMIT);
	}
	st = stats();
	ck_assert_uint_eq(st.objects, 10);	/* grown, nothing dropped */
	ck_assert_uint_eq(st.reclaimed, 0);
	ck_assert_uint_eq(st.over_limit, 8);
	ck_assert_uint_ge(st.unseen_kept, 8);
	for (k = 0; k < 10; k++) {
		struct errseq_table_handle *h = open_ok(k, 0);

		ck_assert_int_eq(errseq_table_check(h), -EIO);
		errseq_table_close(h);
	}
	ck_assert_int_eq(errseq_table_reclaim(t, NULL), 0);
	ck_assert_uint_eq(stats().objects, 2);
}
END_TEST

START_TEST(test_destroy_busy)
{
	struct errseq_table_handle *h = open_ok(1, ERRSEQ_TABLE_CREATED);

	ck_assert_int_eq(errseq_table_destroy(t), -EBUSY);
	errseq_table_close(h);
	/* teardown destroys it; objects with unseen errors go with it */
	ck_assert_int_eq(errseq_table_set_error(t, 2, -EIO),
			 ERRSEQ_TABLE_CREATED);
}
END_TEST

START_TEST(test_stats_size_prefix)
{
	struct errseq_table_stats st;

	ck_assert_int_eq(errseq_table_set_error(t, 2, -EIO),
			 ERRSEQ_TABLE_CREATED);
	memset(&st, 0xa5, sizeof(st));
	errseq_table_stats(t, &st, offsetof(struct errseq_table_stats, idle));
	ck_assert_uint_eq(st.objects, 1);
	ck_assert_uint_eq(st.idle, 0xa5a5a5a5a5a5a5a5ULL);	/* untouched */
}
END_TEST

/* --- an unregistered thread --- */

struct unreg {
	struct errseq_table_handle *h;	/* opened by the registered main thread */
	int registered, open, set, sample, reclaim, destroy, check;
};

static void *unregistered_thread(void *arg)
{
	struct unreg *u = arg;
	struct errseq_table_handle *h = NULL;
	errseq64_t w;

	u->registered = errseq_table_thread_registered();
	u->open = errseq_table_open(t, 1, 0, &h);
	u->set = errseq_table_set_error(t, 1, -EIO);
	u->sample = errseq_table_sample(t, 1, &w);
	u->reclaim = errseq_table_reclaim(t, NULL);
	u->destroy = errseq_table_destroy(t);
	/* Handle calls need no registration. */
	u->check = errseq_table_check(u->h);
	errseq_table_close(u->h);
	return NULL;
}

START_TEST(test_unregistered_thread)
{
	struct unreg u = { 0 };
	pthread_t tid;

	u.h = open_ok(2, ERRSEQ_TABLE_CREATED);
	ck_assert_int_eq(errseq_table_set_error(t, 2, -EIO), 0);
	ck_assert_int_eq(pthread_create(&tid, NULL, unregistered_thread, &u), 0);
	pthread_join(tid, NULL);
	ck_assert_int_eq(u.registered, 0);
	ck_assert_int_eq(u.open, -EPERM);
	ck_assert_int_eq(u.set, -EPERM);
	ck_assert_int_eq(u.sample, -EPERM);
	ck_assert_int_eq(u.reclaim, -EPERM);
	ck_assert_int_eq(u.destroy, -EPERM);
	ck_assert_int_eq(u.check, -EIO);
	/* No side effect: key 1 was never created. */
	ck_assert_uint_eq(stats().objects, 1);
	ck_assert_uint_eq(stats().handles, 0);
}
END_TEST

/* --- one handle shared by two threads: each error reported once --- */

struct shared {
	struct errseq_table_handle *h;
	int reports;
};

static void *shared_checker(void *arg)
{
	struct shared *s = arg;
	int i, n = 0;

	for (i = 0; i < 100000; i++)
		if (errseq_table_check(s->h))
			n++;
	__atomic_add_fetch(&s->reports, n, __ATOMIC_RELAXED);
	return NULL;
}

START_TEST(test_shared_handle)
{
	struct shared s = { .h = open_ok(3, ERRSEQ_TABLE_CREATED) };
	pthread_t a, b;

	ck_assert_int_eq(errseq_table_set_error(t, 3, -EIO), 0);
	pthread_create(&a, NULL, shared_checker, &s);
	pthread_create(&b, NULL, shared_checker, &s);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	ck_assert_int_eq(s.reports, 1);
	errseq_table_close(s.h);
}
END_TEST

static Suite *table_suite(void)
{
	Suite *s = suite_create("errseq_table");
	TCase *tc = tcase_create("table");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_new_bad_flags);
	tcase_add_test(tc, test_registered);
	tcase_add_test(tc, test_open_creates);
	tcase_add_test(tc, test_open_nocreate);
	tcase_add_test(tc, test_open_bad_flags);
	tcase_add_test(tc, test_check_reports_once);
	tcase_add_test(tc, test_each_handle_reports);
	tcase_add_test(tc, test_seen_error_not_reported_to_new_handle);
	tcase_add_test(tc, test_unseen_error_reported_to_new_handle);
	tcase_add_test(tc, test_set_error_args);
	tcase_add_test(tc, test_sample);
	tcase_add_test(tc, test_reclaim_idle_clean);
	tcase_add_test(tc, test_reclaim_lru_order);
	tcase_add_test(tc, test_reclaim_keeps_unseen);
	tcase_add_test(tc, test_reclaim_keeps_error_set_after_close);
	tcase_add_test(tc, test_reclaim_keeps_busy);
	tcase_add_test(tc, test_auto_reclaim);
	tcase_add_test(tc, test_over_limit_all_unseen);
	tcase_add_test(tc, test_destroy_busy);
	tcase_add_test(tc, test_stats_size_prefix);
	tcase_add_test(tc, test_unregistered_thread);
	tcase_add_test(tc, test_shared_handle);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(table_suite());
	int failed;

	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
