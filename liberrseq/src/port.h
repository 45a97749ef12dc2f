/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The thin portability layer under errseq_core.c: the kernel primitives the
 * core uses, mapped onto GCC/Clang __atomic builtins. The core is compiled
 * twice, once per word width; define ERRSEQ_PORT_64 for the 64-bit build.
 *
 * Memory ordering, one decision per primitive (all orderings live here):
 *
 *   READ_ONCE(x)       relaxed load. As in the kernel, where READ_ONCE is a
 *                      plain volatile load: an errseq word carries no payload,
 *                      so a reader needs only the coherence of that one word.
 *                      Ordering against the I/O that produced an error is the
 *                      caller's (the kernel gets it from the page writeback
 *                      bit and its wait queue; a userspace caller from the
 *                      lock or completion that told it the I/O ended).
 *   WRITE_ONCE(x, v)   relaxed store, used only for a reader's own "since",
 *                      which the cursor also reads without its lock.
 *   cmpxchg(p, o, n)   sequentially consistent on success, relaxed on
 *                      failure: the kernel's cmpxchg() is fully ordered when
 *                      it succeeds and promises nothing when it fails, so
 *                      callers written against the kernel's errseq_set()
 *                      keep every guarantee they had.
 *
 * Each access can call a scheduling hook, for the interleaving explorer in
 * modelcheck/ only: build with -DLIBERRSEQ_SCHED_HOOKS. Without it the hooks
 * are empty macros and the object code is the plain algorithm.
 */
#ifndef LIBERRSEQ_PORT_H
#define LIBERRSEQ_PORT_H

#define LIBERRSEQ_BUILDING 1
#include "errseq.h"

#ifdef ERRSEQ_PORT_64
/* The 64-bit instantiation: same text, other names and a wider word. */
#define errseq_t			errseq64_t
#define errseq_set			errseq_set64
#define errseq_sample			errseq_sample64
#define errseq_check			errseq_check64
#define errseq_check_and_advance	errseq_check_and_advance64
#define errseq_cursor			errseq64_cursor
#define errseq_cursor_init		errseq64_cursor_init
#define errseq_cursor_destroy		errseq64_cursor_destroy
#define errseq_cursor_report_slow	errseq64_cursor_report_slow
#endif

#ifdef LIBERRSEQ_SCHED_HOOKS
/* Provided by the explorer; called before each shared access. */
void errseq_sched_point(const void *addr, int is_write);
void errseq_sched_lock(pthread_mutex_t *lock);
void errseq_sched_unlock(pthread_mutex_t *lock);
#define ERRSEQ_SCHED_POINT(addr, w)	errseq_sched_point((addr), (w))
#else
#define ERRSEQ_SCHED_POINT(addr, w)	((void)0)
#endif

#define MAX_ERRNO	4095
#define ilog2(n)	(63 - __builtin_clzll(n))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define BUILD_BUG_ON_NOT_POWER_OF_2(n) \
	_Static_assert(((n) & ((n) - 1)) == 0, #n " is not a power of 2")
#define EXPORT_SYMBOL(sym)	_Static_assert(1, #sym)

/*
 * The kernel WARNs; we count, and call the caller's handler (invalid.c). The
 * test stays inline and the call is cold and returns nothing, as the kernel's
 * WARN() is: errseq_set() then compiles to the kernel's very instructions
 * (bench/ compares them).
 */
void errseq_port_warn(int err) __attribute__((cold));
#define WARN(cond, fmt, err)	(unlikely(cond) ? (errseq_port_warn(err), 1) : 0)

static inline errseq_t errseq_port_read_once(const errseq_t *p)
{
	ERRSEQ_SCHED_POINT(p, 0);
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void errseq_port_write_once(errseq_t *p, errseq_t v)
{
	ERRSEQ_SCHED_POINT(p, 1);
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* Returns the value found at @p: equal to @old exactly when it swapped. */
static inline errseq_t errseq_port_cmpxchg(errseq_t *p, errseq_t old,
					   errseq_t new)
{
	ERRSEQ_SCHED_POINT(p, 1);
	__atomic_compare_exchange_n(p, &old, new, 0, __ATOMIC_SEQ_CST,
				    __ATOMIC_RELAXED);
	return old;
}

#define READ_ONCE(x)		errseq_port_read_once(&(x))
#define WRITE_ONCE(x, v)	errseq_port_write_once(&(x), (v))
#define cmpxchg(p, o, n)	errseq_port_cmpxchg((p), (o), (n))

#ifdef LIBERRSEQ_SCHED_HOOKS
#define errseq_port_lock(l)	errseq_sched_lock(l)
#define errseq_port_unlock(l)	errseq_sched_unlock(l)
#else
#define errseq_port_lock(l)	pthread_mutex_lock(l)
#define errseq_port_unlock(l)	pthread_mutex_unlock(l)
#endif

#endif /* LIBERRSEQ_PORT_H */
