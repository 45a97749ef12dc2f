// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of every liberrseq function and edge, with Check.
 * The expected words are written out by hand from the bit layout:
 * errno in bits 0-11, SEEN = 0x1000, counter from bit 13 (step 0x2000).
 */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <pthread.h>
#include <stdlib.h>

#include "errseq.h"

#define SEEN	0x1000U
#define CTR	0x2000U

/* ---- errseq_set ---------------------------------------------------------- */

START_TEST(set_first_error)
{
	errseq_t e = 0;

	/* errseq_set() returns the word it replaced. */
	ck_assert_uint_eq(errseq_set(&e, -EIO), 0);
	ck_assert_uint_eq(e, EIO);
}
END_TEST

/* Every valid errno fits and is returned negated by check. */
START_TEST(set_every_errno)
{
	for (int err = 1; err <= ERRSEQ_MAX_ERRNO; err++) {
		errseq_t e = 0;

		ck_assert_uint_eq(errseq_set(&e, -err), 0);
		ck_assert_uint_eq(e, (errseq_t)err);
		ck_assert_int_eq(errseq_check(&e, 0), -err);
	}
}
END_TEST

static int handler_calls, handler_last;

static void count_invalid(int err)
{
	handler_calls++;
	handler_last = err;
}

/* 0, positive and < -4095 change nothing, return the word, and are noticed. */
START_TEST(set_invalid)
{
	static const int bad[] = { 0, 1, EIO, 4095, 4096, INT_MAX, -4096,
				   -100000, INT_MIN };
	errseq_invalid_handler_t old = errseq_set_invalid_handler(count_invalid);

	ck_assert_ptr_null(old);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errseq_t e = CTR | SEEN | EIO;
		unsigned long before = errseq_invalid_count();

		handler_calls = 0;
		ck_assert_uint_eq(errseq_set(&e, bad[i]), CTR | SEEN | EIO);
		ck_assert_uint_eq(e, CTR | SEEN | EIO);
		ck_assert_uint_eq(errseq_invalid_count(), before + 1);
		ck_assert_int_eq(handler_calls, 1);
		ck_assert_int_eq(handler_last, bad[i]);

		errseq64_t e64 = 5;

		ck_assert_uint_eq(errseq_set64(&e64, bad[i]), 5);
		ck_assert_uint_eq(errseq_invalid_count(), before + 2);
	}
	ck_assert_ptr_eq(errseq_set_invalid_handler(NULL), count_invalid);
	/* The edges that are valid are not counted. */
	unsigned long before = errseq_invalid_count();
	errseq_t e = 0;

	errseq_set(&e, -1);
	errseq_set(&e, -4095);
	ck_assert_uint_eq(e, 4095);
	ck_assert_uint_eq(errseq_invalid_count(), before);
}
END_TEST

START_TEST(err_valid)
{
	ck_assert(!errseq_err_valid(0));
	ck_assert(!errseq_err_valid(1));
	ck_assert(!errseq_err_valid(-4096));
	ck_assert(!errseq_err_valid(INT_MIN));
	ck_assert(errseq_err_valid(-1));
	ck_assert(errseq_err_valid(-4095));
}
END_TEST

/* An unseen error is overwritten in place: the counter does not move. */
START_TEST(set_unseen_overwrites)
{
	errseq_t e = 0;

	errseq_set(&e, -EIO);
	ck_assert_uint_eq(errseq_set(&e, -ENOSPC), EIO);
	ck_assert_uint_eq(e, ENOSPC);
	/* Same error again: nothing to write, the word itself returned. */
	ck_assert_uint_eq(errseq_set(&e, -ENOSPC), ENOSPC);
	ck_assert_uint_eq(e, ENOSPC);
}
END_TEST

/* Once seen, the next error bumps the counter and clears SEEN. */
START_TEST(set_after_seen_bumps_counter)
{
	errseq_t e = 0, since = 0;

	errseq_set(&e, -EIO);
	ck_assert_int_eq(errseq_check_and_advance(&e, &since), -EIO);
	ck_assert_uint_eq(e, SEEN | EIO);
	ck_assert_uint_eq(errseq_set(&e, -EIO), SEEN | EIO);
	ck_assert_uint_eq(e, CTR | EIO);
	ck_assert_uint_eq(errseq_set(&e, -EROFS), CTR | EIO);
	ck_assert_uint_eq(e, CTR | EROFS);
	ck_assert_int_eq(errseq_check_and_advance(&e, &since), -EROFS);
	ck_assert_uint_eq(errseq_set(&e, -ENOSPC), CTR | SEEN | EROFS);
	ck_assert_uint_eq(e, 2 * CTR | ENOSPC);
}
END_TEST

/* The 19-bit counter wraps to zero, leaving only the errno. */
START_TEST(set_counter_wraps)
{
	errseq_t e = 0xffffe000U | SEEN | EIO;

	ck_assert_uint_eq(errseq_set(&e, -ENOSPC), 0xffffe000U | SEEN | EIO);
	ck_assert_uint_eq(e, ENOSPC);

	errseq64_t e64 = 0xffffffffffffe000ULL | SEEN | EIO;

	errseq_set64(&e64, -ENOSPC);
	ck_assert_uint_eq(e64, ENOSPC);
	/* ...and the 64-bit word only wraps at 2^51. */
	e64 = 0xffffe000ULL | SEEN | EIO;
	errseq_set64(&e64, -EIO);
	ck_assert_uint_eq(e64, 0x100000000ULL | EIO);
}
END_TEST

START_TEST(record_zero_is_noop)
{
	errseq_t e = SEEN | EIO;
	errseq64_t e64 = SEEN | EIO;
	unsigned long before = errseq_invalid_count();

	errseq_record(&e, 0);
	errseq_record64(&e64, 0);
	ck_assert_uint_eq(e, SEEN | EIO);
	ck_assert_uint_eq(e64, SEEN | EIO);
	ck_assert_uint_eq(errseq_invalid_count(), before);
	errseq_record(&e, -EIO);
	errseq_record64(&e64, -EIO);
	ck_assert_uint_eq(e, CTR | EIO);
	ck_assert_uint_eq(e64, CTR | EIO);
}
END_TEST

/* ---- errseq_sample ------------------------------------------------------- */

START_TEST(sample_unseen_is_zero)
{
	errseq_t e = 0;

	ck_assert_uint_eq(errseq_sample(&e), 0);
	errseq_set(&e, -EIO);
	/* Unseen: the new reader will be the first to report it. */
	ck_assert_uint_eq(errseq_sample(&e), 0);
	e = 7 * CTR | EIO;
	ck_assert_uint_eq(errseq_sample(&e), 0);
}
END_TEST

START_TEST(sample_seen_is_word)
{
	errseq_t e = 7 * CTR | SEEN | EIO;

	ck_assert_uint_eq(errseq_sample(&e), 7 * CTR | SEEN | EIO);
	ck_assert_int_eq(errseq_check(&e, errseq_sample(&e)), 0);
}
END_TEST

/* ---- errseq_check -------------------------------------------------------- */

START_TEST(check_reports_without_advancing)
{
	errseq_t e = 0, since = errseq_sample(&e);

	ck_assert_int_eq(errseq_check(&e, since), 0);
	errseq_set(&e, -EIO);
	ck_assert_int_eq(errseq_check(&e, since), -EIO);
	ck_assert_int_eq(errseq_check(&e, since), -EIO);
	/* check does not mark the error seen. */
	ck_assert_uint_eq(e, EIO);
	/* A word that differs only in the counter still reports its errno. */
	ck_assert_int_eq(errseq_check(&e, CTR | EIO), -EIO);
}
END_TEST

/*
 * errseq_check_fast() returns exactly what errseq_check() returns, on each
 * width: 0 for an equal word, -errno for one that changed, and 0 for a word
 * that differs but holds no errno. That last one happens: a word zeroed for
 * reuse while a reader still holds an old since, and SEEN set on a zero word
 * by check_and_advance() with a since that is not 0.
 */
START_TEST(check_fast_is_check)
{
	static const uint32_t words[] = {
		0, EIO, SEEN | EIO, CTR | EIO, 3 * CTR | SEEN | ENOSPC,
		SEEN, CTR, CTR | SEEN, 0xfff, 0xffffe000U | SEEN | EIO,
	};
	size_t n = sizeof(words) / sizeof(words[0]);

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			errseq_t e = words[i];
			errseq64_t e64 = words[i];
			int want = errseq_check(&e, words[j]);

			ck_assert_int_eq(errseq_check_fast(&e, words[j]), want);
			ck_assert_int_eq(errseq_check_fast64(&e64, words[j]),
					 want);
			ck_assert_uint_eq(e, words[i]);
			ck_assert_uint_eq(e64, words[i]);
		}
	/* The 64-bit word's counter above bit 31 is compared too. */
	errseq64_t e64 = (1ULL << 40) | SEEN | EIO;

	ck_assert_int_eq(errseq_check_fast64(&e64, SEEN | EIO), -EIO);
	ck_assert_int_eq(errseq_check_fast64(&e64, e64), 0);
}
END_TEST

/* errseq_check_fast() of both widths' words against their sinces. */
#define ck_fast_both(want) do {						\
		ck_assert_int_eq(errseq_check_fast(&e, since), (want));		\
		ck_assert_int_eq(errseq_check_fast64(&e64, since64), (want));	\
	} while (0)

START_TEST(check_fast_results)
{
	errseq_t e = 0, since = errseq_sample(&e), zero_since;
	errseq64_t e64 = 0, since64 = errseq_sample64(&e64);

	ck_fast_both(0);
	errseq_set(&e, -EIO);
	errseq_set64(&e64, -EIO);
	ck_fast_both(-EIO);
	/* Like check, it does not mark the error seen. */
	ck_assert_uint_eq(e, EIO);
	ck_assert_uint_eq(e64, EIO);
	ck_assert_int_eq(errseq_check_and_advance(&e, &since), -EIO);
	ck_assert_int_eq(errseq_check_and_advance64(&e64, &since64), -EIO);
	ck_fast_both(0);
	/* The same errno again after SEEN: only the counter differs. */
	errseq_set(&e, -EIO);
	errseq_set64(&e64, -EIO);
	ck_fast_both(-EIO);
	/* A word reused (zeroed) while a reader holds an old since. */
	e = 0;
	e64 = 0;
	ck_fast_both(0);
	/* SEEN set on a zero word by a reader whose since is not 0. */
	zero_since = since;
	ck_assert_int_eq(errseq_check_and_advance(&e, &zero_since), 0);
	ck_assert_uint_eq(e, SEEN);
	ck_assert_int_eq(errseq_check_fast(&e, 0), 0);
	ck_assert_int_eq(errseq_check(&e, 0), 0);
}
END_TEST
#undef ck_fast_both

/*
 * A cursor whose since differs from a word that holds no errno reports 0 and
 * writes nothing, as through errseq_check() (1.0's inline path): the fast
 * path calls out to errseq_check(), not straight to the slow path, which
 * would set SEEN on the word.
 */
START_TEST(cursor_no_errno_writes_nothing)
{
	errseq_t e = 0;
	errseq64_t e64 = 0;
	struct errseq_cursor a;
	struct errseq64_cursor a64;

	errseq_cursor_init(&a, &e);
	errseq64_cursor_init(&a64, &e64);
	errseq_set(&e, -EIO);
	errseq_set64(&e64, -EIO);
	ck_assert_int_eq(errseq_cursor_report(&a, &e), -EIO);
	ck_assert_int_eq(errseq64_cursor_report(&a64, &e64), -EIO);
	e = 0;
	e64 = 0;
	ck_assert_int_eq(errseq_cursor_report(&a, &e), 0);
	ck_assert_int_eq(errseq64_cursor_report(&a64, &e64), 0);
	ck_assert_uint_eq(e, 0);
	ck_assert_uint_eq(e64, 0);
	ck_assert_uint_eq(a.since, SEEN | EIO);
	ck_assert_uint_eq(a64.since, SEEN | EIO);
	errseq_cursor_destroy(&a);
	errseq64_cursor_destroy(&a64);
}
END_TEST

/* ---- errseq_check_and_advance ------------------------------------------- */

START_TEST(advance_reports_once)
{
	errseq_t e = 0, since = errseq_sample(&e);

	ck_assert_int_eq(errseq_check_and_advance(&e, &since), 0);
	ck_assert_uint_eq(since, 0);
	errseq_set(&e, -EIO);
	ck_assert_int_eq(errseq_check_and_advance(&e, &since), -EIO);
	ck_assert_uint_eq(since, SEEN | EIO);
	ck_assert_uint_eq(e, SEEN | EIO);
	ck_assert_int_eq(errseq_check_and_advance(&e, &since), 0);
}
END_TEST

/* Two readers of one word each learn of each error exactly once. */
START_TEST(advance_each_reader_once)
{
	errseq_t e = 0, a = errseq_sample(&e), b = errseq_sample(&e);

	errseq_set(&e, -EIO);
	ck_assert_int_eq(errseq_check_and_advance(&e, &a), -EIO);
	ck_assert_int_eq(errseq_check_and_advance(&e, &b), -EIO);
	ck_assert_int_eq(errseq_check_and_advance(&e, &a), 0);
	ck_assert_int_eq(errseq_check_and_advance(&e, &b), 0);
	/* A reader that samples after the error was seen never reports it. */
	errseq_t c = errseq_sample(&e);

	ck_assert_int_eq(errseq_check_and_advance(&e, &c), 0);
	/* Latest errno wins. */
	errseq_set(&e, -EIO);
	errseq_set(&e, -ENOSPC);
	ck_assert_int_eq(errseq_check_and_advance(&e, &a), -ENOSPC);
	ck_assert_int_eq(errseq_check_and_advance(&e, &c), -ENOSPC);
	ck_assert_uint_eq(e, CTR | SEEN | ENOSPC);
}
END_TEST

/* A reader whose since is ahead of an already-seen word just advances. */
START_TEST(advance_seen_word_no_write)
{
	errseq_t e = 3 * CTR | SEEN | EIO, since = 0;

	ck_assert_int_eq(errseq_check_and_advance(&e, &since), -EIO);
	ck_assert_uint_eq(e, 3 * CTR | SEEN | EIO);
	ck_assert_uint_eq(since, 3 * CTR | SEEN | EIO);
}
END_TEST

/*
 * The documented limit of the 32-bit word: a reader that sleeps through 2^19
 * errors, each seen by someone else, finds the same word it sampled and
 * reports nothing. The 64-bit word does not collide.
 */
START_TEST(counter_collision_32_not_64)
{
	errseq_t e = 0, other = 0, sleeper;
	errseq64_t e64 = 0, other64 = 0, sleeper64;

	errseq_set(&e, -EIO);
	errseq_check_and_advance(&e, &other);
	sleeper = errseq_sample(&e);
	errseq_set64(&e64, -EIO);
	errseq_check_and_advance64(&e64, &other64);
	sleeper64 = errseq_sample64(&e64);
	for (unsigned long i = 0; i < (1UL << 19); i++) {
		errseq_set(&e, -EIO);
		ck_assert_int_eq(errseq_check_and_advance(&e, &other), -EIO);
		errseq_set64(&e64, -EIO);
		ck_assert_int_eq(errseq_check_and_advance64(&e64, &other64),
				 -EIO);
	}
	ck_assert_uint_eq(e, sleeper);
	ck_assert_int_eq(errseq_check(&e, sleeper), 0);	/* missed */
	ck_assert_int_eq(errseq_check64(&e64, sleeper64), -EIO);
	ck_assert_uint_eq(e64, (1ULL << 19) * CTR | SEEN | EIO);
}
END_TEST

/* ---- the 64-bit type ----------------------------------------------------- */

START_TEST(type64_basics)
{
	errseq64_t e = 0, since = errseq_sample64(&e);

	ck_assert_int_eq(errseq_check64(&e, since), 0);
	ck_assert_uint_eq(errseq_set64(&e, -EIO), 0);
	ck_assert_uint_eq(e, EIO);
	ck_assert_uint_eq(errseq_sample64(&e), 0);
	ck_assert_int_eq(errseq_check64(&e, since), -EIO);
	ck_assert_int_eq(errseq_check_and_advance64(&e, &since), -EIO);
	ck_assert_uint_eq(since, SEEN | EIO);
	ck_assert_int_eq(errseq_check_and_advance64(&e, &since), 0);
	ck_assert_uint_eq(errseq_sample64(&e), SEEN | EIO);
	ck_assert_uint_eq(errseq_set64(&e, -EIO), SEEN | EIO);
	ck_assert_uint_eq(e, CTR | EIO);
	ck_assert_uint_eq(errseq_set64(&e, -ENOSPC), CTR | EIO);
	ck_assert_uint_eq(e, CTR | ENOSPC);
}
END_TEST

/* ---- the cursor ---------------------------------------------------------- */

START_TEST(cursor_reports_once)
{
	errseq_t e = 0;
	struct errseq_cursor a, b;

	ck_assert_int_eq(errseq_cursor_init(&a, &e), 0);
	ck_assert_int_eq(errseq_cursor_report(&a, &e), 0);
	errseq_set(&e, -EIO);
	/* b opens while the error is unseen: it will report it too. */
	ck_assert_int_eq(errseq_cursor_init(&b, &e), 0);
	ck_assert_int_eq(errseq_cursor_report(&a, &e), -EIO);
	ck_assert_int_eq(errseq_cursor_report(&a, &e), 0);
	ck_assert_int_eq(errseq_cursor_report(&b, &e), -EIO);
	ck_assert_int_eq(errseq_cursor_report(&b, &e), 0);
	errseq_cursor_destroy(&b);
	/* c opens after it was seen: nothing to report. */
	struct errseq_cursor c;

	ck_assert_int_eq(errseq_cursor_init(&c, &e), 0);
	ck_assert_int_eq(errseq_cursor_report(&c, &e), 0);
	errseq_set(&e, -ENOSPC);
	ck_assert_int_eq(errseq_cursor_report(&c, &e), -ENOSPC);
	ck_assert_int_eq(errseq_cursor_report(&a, &e), -ENOSPC);
	ck_assert_int_eq(errseq_cursor_report_slow(&a, &e), 0);
	errseq_cursor_destroy(&a);
	errseq_cursor_destroy(&c);
}
END_TEST

START_TEST(cursor64_reports_once)
{
	errseq64_t e = 0;
	struct errseq64_cursor a;

	ck_assert_int_eq(errseq64_cursor_init(&a, &e), 0);
	ck_assert_int_eq(errseq64_cursor_report(&a, &e), 0);
	errseq_set64(&e, -EIO);
	ck_assert_int_eq(errseq64_cursor_report(&a, &e), -EIO);
	ck_assert_int_eq(errseq64_cursor_report(&a, &e), 0);
	ck_assert_int_eq(errseq64_cursor_report_slow(&a, &e), 0);
	errseq64_cursor_destroy(&a);
}
END_TEST

/* ---- the vectors shared with the kernel's KUnit suite --------------------- */

enum vec_op { OP_SET, OP_SET_INVALID, OP_SAMPLE, OP_CHECK, OP_ADVANCE };

struct vector {
	const char *name;
	enum vec_op op;
	uint32_t word, arg;
	int64_t ret;
	uint32_t word_after, since_after;
	int wraps;
};

#define ERRSEQ_VECTOR(n, o, w, a, r, wa, sa) \
	{ #n, OP_##o, (uint32_t)(w), (uint32_t)(a), (r), (wa), (sa), 0 },
#define ERRSEQ_VECTOR_WRAP32(n, o, w, a, r, wa, sa) \
	{ #n, OP_##o, (uint32_t)(w), (uint32_t)(a), (r), (wa), (sa), 1 },
static const struct vector vectors[] = {
#include "errseq_vectors.h"
};
#undef ERRSEQ_VECTOR
#undef ERRSEQ_VECTOR_WRAP32

/* Each row on the 32-bit word; the 64-bit word gives the same unless wrapping. */
START_TEST(kernel_vectors)
{
	const struct vector *v = &vectors[_i];
	errseq_t e = v->word, since = v->arg;
	errseq64_t e64 = v->word, since64 = v->arg;
	unsigned long before = errseq_invalid_count();
	int64_t ret = 0, ret64 = 0;

	switch (v->op) {
	case OP_SET:
	case OP_SET_INVALID:
		ret = errseq_set(&e, (int)v->arg);
		ret64 = (int64_t)errseq_set64(&e64, (int)v->arg);
		ck_assert_msg(errseq_invalid_count() - before ==
			      (v->op == OP_SET_INVALID ? 2U : 0U), "%s", v->name);
		break;
	case OP_SAMPLE:
		ret = errseq_sample(&e);
		ret64 = (int64_t)errseq_sample64(&e64);
		break;
	case OP_CHECK:
		ret = errseq_check(&e, v->arg);
		ret64 = errseq_check64(&e64, v->arg);
		ck_assert_msg(errseq_check_fast(&e, v->arg) == ret &&
			      errseq_check_fast64(&e64, v->arg) == ret64,
			      "%s: errseq_check_fast differs", v->name);
		break;
	case OP_ADVANCE:
		ret = errseq_check_and_advance(&e, &since);
		ret64 = errseq_check_and_advance64(&e64, &since64);
		ck_assert_msg(since == v->since_after, "%s: since %#x, want %#x",
			      v->name, since, v->since_after);
		break;
	}
	if (v->op == OP_SET || v->op == OP_SET_INVALID || v->op == OP_SAMPLE)
		ret = (uint32_t)ret;
	ck_assert_msg(ret == v->ret, "%s: returned %lld, want %lld", v->name,
		      (long long)ret, (long long)v->ret);
	ck_assert_msg(e == v->word_after, "%s: word %#x, want %#x", v->name, e,
		      v->word_after);
	if (!v->wraps) {
		ck_assert_msg(ret64 == v->ret && e64 == v->word_after,
			      "%s: 64-bit word differs", v->name);
	}
}
END_TEST

struct hammer {
	errseq_t *e;
	int err;
	unsigned long n;
};

static void *hammer_set(void *arg)
{
	struct hammer *h = arg;
	errseq_t since = 0;

	for (unsigned long i = 0; i < h->n; i++) {
		errseq_set(h->e, i & 1 ? h->err : -EIO);
		errseq_check_and_advance(h->e, &since);
	}
	return NULL;
}

/*
 * Two threads racing set against set and SEEN: errseq_set() must retry with
 * the value its failed compare-and-swap returned. Whatever the interleaving,
 * the word ends holding one of the errnos set, marked seen, and the counter
 * has moved (each thread saw its own first error and set another).
 */
START_TEST(set_contended)
{
	errseq_t e = 0;
	struct hammer a = { &e, -ENOSPC, 200000 }, b = { &e, -EROFS, 200000 };
	pthread_t ta, tb;

	pthread_create(&ta, NULL, hammer_set, &a);
	pthread_create(&tb, NULL, hammer_set, &b);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	ck_assert(e & SEEN);
	ck_assert((e & 0xfff) == EIO || (e & 0xfff) == ENOSPC ||
		  (e & 0xfff) == EROFS);
	ck_assert_uint_ne(e >> 13, 0);
}
END_TEST

static Suite *errseq_suite(void)
{
	Suite *s = suite_create("errseq");
	TCase *t;

	t = tcase_create("set");
	tcase_add_test(t, set_first_error);
	tcase_add_test(t, set_every_errno);
	tcase_add_test(t, set_invalid);
	tcase_add_test(t, err_valid);
	tcase_add_test(t, set_unseen_overwrites);
	tcase_add_test(t, set_after_seen_bumps_counter);
	tcase_add_test(t, set_counter_wraps);
	tcase_add_test(t, record_zero_is_noop);
	tcase_add_test(t, set_contended);
	suite_add_tcase(s, t);

	t = tcase_create("sample-check");
	tcase_add_test(t, sample_unseen_is_zero);
	tcase_add_test(t, sample_seen_is_word);
	tcase_add_test(t, check_reports_without_advancing);
	tcase_add_test(t, check_fast_is_check);
	tcase_add_test(t, check_fast_results);
	tcase_add_test(t, advance_reports_once);
	tcase_add_test(t, advance_each_reader_once);
	tcase_add_test(t, advance_seen_word_no_write);
	suite_add_tcase(s, t);

	t = tcase_create("kernel-vectors");
	tcase_add_loop_test(t, kernel_vectors, 0,
			    sizeof(vectors) / sizeof(vectors[0]));
	suite_add_tcase(s, t);

	t = tcase_create("counter-width");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, counter_collision_32_not_64);
	tcase_add_test(t, type64_basics);
	suite_add_tcase(s, t);

	t = tcase_create("cursor");
	tcase_add_test(t, cursor_reports_once);
	tcase_add_test(t, cursor64_reports_once);
	tcase_add_test(t, cursor_no_errno_writes_nothing);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(errseq_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
