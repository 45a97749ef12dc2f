/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two alternatives errseq_t is measured against.
 *
 * mtx_*: a plain pthread mutex around the latest error and a sequence
 * counter; each reader keeps the counter it last saw. Straightforward and
 * correct: every reader learns of every change, at the price of a lock on
 * every check.
 *
 * flags_*: the single-reporter scheme errseq_t replaced in the kernel, the
 * AS_EIO/AS_ENOSPC bits of mapping->flags as Linux 6.1 still keeps them for
 * legacy callers (include/linux/pagemap.h mapping_set_error(), mm/filemap.c
 * filemap_check_errors() and filemap_check_and_keep_errors()). A set is an
 * atomic or; the reporting check is test_and_clear, so only one reader ever
 * learns of an error.
 *
 * Both are static inline, as the kernel's set_bit()/test_bit() are: if
 * anything, that favours them over liberrseq's out-of-line functions.
 */
#ifndef BENCH_ALT_H
#define BENCH_ALT_H
#include <errno.h>
#include <pthread.h>

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif

struct mtx_obj {
	pthread_mutex_t lock;
	int err;		/* latest error, negative */
	unsigned long seq;	/* bumped by every set */
};

static inline void mtx_set(struct mtx_obj *m, int err)
{
	pthread_mutex_lock(&m->lock);
	m->err = err;
	m->seq++;
	pthread_mutex_unlock(&m->lock);
}

static inline void mtx_record(struct mtx_obj *m, int err)
{
	if (unlikely(err))
		mtx_set(m, err);
}

static inline int mtx_check(struct mtx_obj *m, unsigned long since)
{
	int err = 0;

	pthread_mutex_lock(&m->lock);
	if (m->seq != since)
		err = m->err;
	pthread_mutex_unlock(&m->lock);
	return err;
}

/* Also the reader's report: the "cursor" is just its since. */
static inline int mtx_check_and_advance(struct mtx_obj *m, unsigned long *since)
{
	int err = 0;

	pthread_mutex_lock(&m->lock);
	if (m->seq != *since) {
		err = m->err;
		*since = m->seq;
	}
	pthread_mutex_unlock(&m->lock);
	return err;
}

#define AS_EIO		0
#define AS_ENOSPC	1

static inline int flags_test_bit(int nr, const unsigned long *addr)
{
	return (__atomic_load_n(addr, __ATOMIC_RELAXED) >> nr) & 1;
}

static inline void flags_set_bit(int nr, unsigned long *addr)
{
	__atomic_fetch_or(addr, 1UL << nr, __ATOMIC_SEQ_CST);
}

static inline int flags_test_and_clear_bit(int nr, unsigned long *addr)
{
	return (__atomic_fetch_and(addr, ~(1UL << nr), __ATOMIC_SEQ_CST) >>
		nr) & 1;
}

/* mapping_set_error(), the flags half. */
static inline void flags_set(unsigned long *flags, int err)
{
	if (err == -ENOSPC)
		flags_set_bit(AS_ENOSPC, flags);
	else
		flags_set_bit(AS_EIO, flags);
}

static inline void flags_record(unsigned long *flags, int err)
{
	if (unlikely(err))
		flags_set(flags, err);
}

/* filemap_check_and_keep_errors(): look, don't consume. */
static inline int flags_check(unsigned long *flags)
{
	if (flags_test_bit(AS_EIO, flags))
		return -EIO;
	if (flags_test_bit(AS_ENOSPC, flags))
		return -ENOSPC;
	return 0;
}

/* filemap_check_errors(): report and consume, for one reader only. */
static inline int flags_check_and_clear(unsigned long *flags)
{
	int ret = 0;

	if (flags_test_bit(AS_ENOSPC, flags) &&
	    flags_test_and_clear_bit(AS_ENOSPC, flags))
		ret = -ENOSPC;
	if (flags_test_bit(AS_EIO, flags) &&
	    flags_test_and_clear_bit(AS_EIO, flags))
		ret = -EIO;
	return ret;
}
#endif
