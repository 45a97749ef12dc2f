/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liberrseq: the Linux kernel's errseq_t in userspace.
 *
 * An errseq_t records the latest error of an object (a file, a device, a
 * blob) together with a sequence counter, so that any number of readers can
 * each learn of every new error exactly once. The word and the algorithm are
 * bit-identical to Linux 6.1 lib/errseq.c:
 *
 *   bits  0-11  the latest errno (stored positive, returned negative)
 *   bit     12  SEEN: some reader has observed the current error
 *   bits 13-31  a 19-bit counter, bumped only when a seen error is replaced
 *
 * errseq64_t is the same with a 51-bit counter (bits 13-63).
 *
 * See errseq(3) (liberrseq/man/man3/errseq.3) for the contract.
 */
#ifndef LIBERRSEQ_ERRSEQ_H
#define LIBERRSEQ_ERRSEQ_H

/*
 * What this header needs of the compiler: C99 (static inline functions,
 * <stdint.h>; GNU C89, where inline is an extension, works too) or C++, and
 * the GCC/Clang __atomic builtins, __builtin_expect and __attribute__
 * (GCC and Clang have them all; both predefine __ATOMIC_RELAXED).
 */
#if !defined(__cplusplus) && defined(__STRICT_ANSI__) && \
	(!defined(__STDC_VERSION__) || __STDC_VERSION__ < 199901L)
#error "liberrseq: errseq.h needs C99 or later (static inline, <stdint.h>): compile with -std=c99 or newer"
#endif
#ifndef __ATOMIC_RELAXED
#error "liberrseq: errseq.h needs the __atomic builtins of GCC or Clang"
#endif

#include <pthread.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LIBERRSEQ_VERSION_MAJOR 1
#define LIBERRSEQ_VERSION_MINOR 1
#define LIBERRSEQ_VERSION_PATCH 0
#define LIBERRSEQ_VERSION \
	((LIBERRSEQ_VERSION_MAJOR << 16) | (LIBERRSEQ_VERSION_MINOR << 8) | \
	 LIBERRSEQ_VERSION_PATCH)

#if defined(LIBERRSEQ_BUILDING) && defined(__GNUC__)
#define ERRSEQ_API __attribute__((visibility("default")))
#else
#define ERRSEQ_API
#endif

/*
 * Inline fast paths. Each one is also exported as a real symbol (see
 * src/inline.c), so FFI users and debuggers see every function.
 */
#ifndef ERRSEQ_INLINE
#define ERRSEQ_INLINE static inline
#endif

typedef uint32_t errseq_t;
/*
 * 8-byte aligned on every architecture, as the kernel's aligned_u64: i386
 * aligns a plain uint64_t in structs to 4, and its 64-bit atomic load and
 * store (fildll/fistpll) and lock cmpxchg8b are atomic only on a word that
 * does not cross a cache line. An attribute, not _Alignas, which C11 does
 * not allow in a typedef; GCC and Clang honour it in C and C++, for
 * variables and struct members alike. A pointer cast from other storage
 * must point at 8-byte aligned memory. (i386 ABI: README.md.)
 */
typedef uint64_t errseq64_t __attribute__((aligned(8)));

/* Largest errno an errseq_t can hold, as the kernel's MAX_ERRNO. */
#define ERRSEQ_MAX_ERRNO	4095
/* Mask of the errno bits; the SEEN flag; the lowest counter bit. */
#define ERRSEQ_ERRNO_MASK	0xfffU
#define ERRSEQ_SEEN_FLAG	0x1000U
#define ERRSEQ_COUNTER_SHIFT	13

/*
 * The kernel's four functions, same names, signatures and results.
 *
 * errseq_set() records @err (a negative errno, -1 .. -4095). Like the kernel
 * it returns, for debugging, the word it replaced (or the word itself when
 * nothing needed to change); that value lacks SEEN, so it is no sample.
 * Invalid @err (0, positive, or below -4095) changes nothing and returns the
 * current word, as the kernel does; the kernel also WARNs,
 * and liberrseq counts such calls (errseq_invalid_count()) and calls the
 * handler set with errseq_set_invalid_handler().
 */
ERRSEQ_API errseq_t errseq_set(errseq_t *eseq, int err);
ERRSEQ_API errseq_t errseq_sample(errseq_t *eseq);
ERRSEQ_API int errseq_check(errseq_t *eseq, errseq_t since);
ERRSEQ_API int errseq_check_and_advance(errseq_t *eseq, errseq_t *since);

ERRSEQ_API errseq64_t errseq_set64(errseq64_t *eseq, int err);
ERRSEQ_API errseq64_t errseq_sample64(errseq64_t *eseq);
ERRSEQ_API int errseq_check64(errseq64_t *eseq, errseq64_t since);
ERRSEQ_API int errseq_check_and_advance64(errseq64_t *eseq,
					  errseq64_t *since);

/* Is @err something errseq_set() records? (-4095 <= err <= -1) */
ERRSEQ_INLINE int errseq_err_valid(int err)
{
	return err < 0 && err >= -ERRSEQ_MAX_ERRNO;
}

/*
 * Record the outcome of an operation: 0 is a no-op that touches nothing,
 * like the kernel's mapping_set_error()/filemap_set_wb_err() wrappers.
 */
ERRSEQ_INLINE void errseq_record(errseq_t *eseq, int err)
{
	if (__builtin_expect(err != 0, 0))
		errseq_set(eseq, err);
}

ERRSEQ_INLINE void errseq_record64(errseq64_t *eseq, int err)
{
	if (__builtin_expect(err != 0, 0))
		errseq_set64(eseq, err);
}

/* Calls of errseq_set{,64}() with an invalid err since the program started. */
ERRSEQ_API unsigned long errseq_invalid_count(void);

/*
 * Called (from the thread that made the call) for each invalid err passed to
 * errseq_set{,64}(), in place of the kernel's WARN. NULL (the default) calls
 * nothing. Returns the previous handler.
 */
typedef void (*errseq_invalid_handler_t)(int err);
ERRSEQ_API errseq_invalid_handler_t
errseq_set_invalid_handler(errseq_invalid_handler_t handler);

/*
 * A reader's cursor, for the pattern of the kernel's
 * file_check_and_advance_wb_err(): one per reader (an open file, a client
 * handle). errseq_cursor_report() returns each error set after the cursor was
 * initialised or last reported, once. It takes no lock and writes nothing when
 * nothing changed; when something did, a lock serialises threads sharing the
 * cursor, so two of them never both report the same error.
 *
 * The members are private: use the functions.
 */
struct errseq_cursor {
	errseq_t since;
	pthread_mutex_t lock;
};

struct errseq64_cursor {
	errseq64_t since;
	pthread_mutex_t lock;
};

/*
 * Sample @eseq: an error nobody has seen yet will be reported by this cursor.
 * Returns 0 (the int is kept for errors a future cursor might have).
 */
ERRSEQ_API int errseq_cursor_init(struct errseq_cursor *cur, errseq_t *eseq);
ERRSEQ_API void errseq_cursor_destroy(struct errseq_cursor *cur);
ERRSEQ_API int errseq_cursor_report_slow(struct errseq_cursor *cur,
					 errseq_t *eseq);

ERRSEQ_API int errseq64_cursor_init(struct errseq64_cursor *cur,
				    errseq64_t *eseq);
ERRSEQ_API void errseq64_cursor_destroy(struct errseq64_cursor *cur);
ERRSEQ_API int errseq64_cursor_report_slow(struct errseq64_cursor *cur,
					   errseq64_t *eseq);

/*
 * The loads of the inline fast paths below. The interleaving explorer
 * (modelcheck/) defines LIBERRSEQ_SCHED_HOOKS to make each of them a
 * scheduling point, as src/port.h does for the library's own accesses; no
 * other build defines it, and then this is the plain relaxed load.
 */
#ifdef LIBERRSEQ_SCHED_HOOKS
void errseq_sched_point(const void *addr, int is_write);
#define ERRSEQ_LOAD_RELAXED(p) \
	(errseq_sched_point((p), 0), __atomic_load_n((p), __ATOMIC_RELAXED))
#else
#define ERRSEQ_LOAD_RELAXED(p)	__atomic_load_n((p), __ATOMIC_RELAXED)
#endif

/*
 * errseq_check() with its common case inline: load the word, compare it with
 * @since, and call errseq_check() only when they differ. The result is
 * exactly errseq_check()'s: 0 when the word equals @since, else the errno the
 * word holds, negated (so 0 as well for a word that differs from @since but
 * holds no errno, as errseq_check() returns).
 *
 * Memory ordering: the load is relaxed, as errseq_check()'s READ_ONCE() is
 * (src/port.h). It pairs with the compare-and-swap that stored the value it
 * reads (errseq_set()'s, or a reader's setting SEEN) only through the word's
 * coherence: no other memory is read on the strength of it, so no acquire is
 * needed, and a load that happens after a store to the word (or after a load
 * that saw it) reads that value or a later one. When the word differs,
 * errseq_check() loads it again; the word may have changed in between, and
 * the result is then what errseq_check() returns at its own load, as if the
 * caller had called it a moment later.
 */
ERRSEQ_INLINE int errseq_check_fast(errseq_t *eseq, errseq_t since)
{
	if (__builtin_expect(ERRSEQ_LOAD_RELAXED(eseq) == since, 1))
		return 0;
	return errseq_check(eseq, since);
}

ERRSEQ_INLINE int errseq_check_fast64(errseq64_t *eseq, errseq64_t since)
{
	if (__builtin_expect(ERRSEQ_LOAD_RELAXED(eseq) == since, 1))
		return 0;
	return errseq_check64(eseq, since);
}

/*
 * Return the latest error set since this cursor last reported (a negative
 * errno), or 0. The fast path is errseq_check_fast(): two relaxed loads (the
 * cursor's @since, then the word) and a compare, no call, no store.
 *
 * Memory ordering: the load of @since pairs with the relaxed stores of it
 * (WRITE_ONCE() in errseq_cursor_init() and, under the cursor's lock, in
 * errseq_check_and_advance()), for atomicity only: it never reads a torn
 * value. A stale @since is harmless. If it differs from the word, the slow
 * path takes the lock (acquire, pairing with the release of the unlock that
 * followed the last store of @since) and re-reads both. If it equals the
 * word, the word still held that value at our load: the word never comes
 * back to an earlier @since unless its counter wraps, so our load came before
 * the change that the other thread's report consumed, and 0 is the result of
 * a report made just before that one.
 */
ERRSEQ_INLINE int errseq_cursor_report(struct errseq_cursor *cur,
				       errseq_t *eseq)
{
	errseq_t since = ERRSEQ_LOAD_RELAXED(&cur->since);

	if (__builtin_expect(errseq_check_fast(eseq, since) == 0, 1))
		return 0;
	return errseq_cursor_report_slow(cur, eseq);
}

ERRSEQ_INLINE int errseq64_cursor_report(struct errseq64_cursor *cur,
					 errseq64_t *eseq)
{
	errseq64_t since = ERRSEQ_LOAD_RELAXED(&cur->since);

	if (__builtin_expect(errseq_check_fast64(eseq, since) == 0, 1))
		return 0;
	return errseq64_cursor_report_slow(cur, eseq);
}

#ifdef __cplusplus
}
#endif

#endif /* LIBERRSEQ_ERRSEQ_H */
