/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liberrseq-table: per-object errseq64_t words, looked up by a 64-bit key,
 * with bounded memory that never drops an error nobody has seen.
 *
 * The userspace version of the problem inode eviction has in the kernel: a
 * server (FUSE filesystem, block or NFS server, database) tracks the latest
 * writeback error of many objects for many clients, and must free the state
 * of idle objects without losing an error that a client opening the object
 * later has to be told about.
 *
 *   - An object is created on first use of its key (errseq_table_open(),
 *     errseq_table_set_error()) and holds one errseq64_t.
 *   - A handle is one client's view of one object: errseq_table_check()
 *     reports each error set after the handle was opened (or an unseen error
 *     set before) exactly once, like file_check_and_advance_wb_err(). A
 *     handle pins its object: the check takes no lock and writes nothing
 *     when nothing changed (one load of the object's word, one of the
 *     handle's own "since").
 *   - An idle object (no handle) is reclaimed when the table holds more
 *     than its limit, unless its word holds an error that no handle has
 *     seen (SEEN clear): such an object stays, the table grows past its
 *     limit and says so (ERRSEQ_TABLE_OVER_LIMIT, stats.over_limit). A
 *     reclaimed object is freed after an RCU grace period (call_rcu).
 *
 * Lookups by key are lock-free (liburcu's rculfhash, urcu-memb flavour).
 * See liberrseq/README-table.md for the design and the rules below.
 *
 * THREAD REGISTRATION. Every call that looks up a key or walks the table
 * (errseq_table_open, _set_error, _sample, _reclaim, _destroy) runs an RCU
 * read-side critical section of liburcu's urcu-memb flavour, so the calling
 * thread must be registered: errseq_table_thread_register() (or liburcu's
 * urcu_memb_register_thread() / rcu_register_thread() of <urcu.h>, which is
 * the same registration). These calls return -EPERM, with no side effect,
 * from an unregistered thread. Handle calls (errseq_table_check, _close,
 * _handle_key) and errseq_table_stats/_set_limit/_new need no registration.
 *
 * RETURN VALUES. Negative errno on failure. Otherwise >= 0, a mask of
 * ERRSEQ_TABLE_CREATED and ERRSEQ_TABLE_OVER_LIMIT: test "ret < 0" for
 * failure, never "ret != 0".
 */
#ifndef LIBERRSEQ_ERRSEQ_TABLE_H
#define LIBERRSEQ_ERRSEQ_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "errseq.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(LIBERRSEQ_TABLE_BUILDING) && defined(__GNUC__)
#define ERRSEQ_TABLE_API __attribute__((visibility("default")))
#else
#define ERRSEQ_TABLE_API
#endif

struct errseq_table;
struct errseq_table_handle;

/* Input flag of errseq_table_open(): fail with -ENOENT on an unknown key. */
#define ERRSEQ_TABLE_NOCREATE		0x1

/* Output flags (a result >= 0 is a mask of these). */
#define ERRSEQ_TABLE_CREATED		0x1	/* the call created the object */
#define ERRSEQ_TABLE_OVER_LIMIT		0x2	/* table is above its limit */

/*
 * A new table that keeps at most @limit objects when it can (see the reclaim
 * rule above). @flags must be 0. NULL with errno set on failure.
 */
ERRSEQ_TABLE_API struct errseq_table *errseq_table_new(unsigned long limit,
						       unsigned int flags);

/*
 * Free @t and every object in it. -EBUSY (and nothing freed) while a handle
 * is open; -EPERM from an unregistered thread. No other call on @t may run
 * concurrently or after. Waits for the table's pending RCU callbacks.
 */
ERRSEQ_TABLE_API int errseq_table_destroy(struct errseq_table *t);

/* Change the limit; takes effect at the next reclaim. */
ERRSEQ_TABLE_API void errseq_table_set_limit(struct errseq_table *t,
					     unsigned long limit);

/*
 * Register / unregister the calling thread with urcu-memb. Call register
 * once in each thread before its first key call, unregister before the
 * thread exits. Same as urcu_memb_register_thread()/unregister_thread().
 */
ERRSEQ_TABLE_API void errseq_table_thread_register(void);
ERRSEQ_TABLE_API void errseq_table_thread_unregister(void);
/* Is the calling thread registered? (1 or 0) */
ERRSEQ_TABLE_API int errseq_table_thread_registered(void);

/*
 * Open a handle on the object of @key, creating the object unless @flags
 * has ERRSEQ_TABLE_NOCREATE. The handle reports an error that is in the
 * object and unseen, and every error set afterwards. On success *@hp is the
 * handle, to be closed with errseq_table_close().
 * Errors: -ENOENT (NOCREATE and no such key), -ENOMEM, -EINVAL (bad flags),
 * -EPERM (unregistered thread), -EOVERFLOW (2^24 - 1 pins on one object).
 * May reclaim idle objects when it creates one (see errseq_table_reclaim()).
 */
ERRSEQ_TABLE_API int errseq_table_open(struct errseq_table *t, uint64_t key,
				       unsigned int flags,
				       struct errseq_table_handle **hp);

/*
 * The latest error set on the handle's object since the handle last reported
 * (a negative errno), or 0. Each error is reported once per handle; threads
 * sharing a handle never both report the same error. Lock-free and
 * store-free when nothing changed. No registration needed.
 */
ERRSEQ_TABLE_API int errseq_table_check(struct errseq_table_handle *h);

/* The key the handle was opened on. */
ERRSEQ_TABLE_API uint64_t errseq_table_handle_key(
	const struct errseq_table_handle *h);

/* Close a handle (NULL is a no-op). No registration needed. */
ERRSEQ_TABLE_API void errseq_table_close(struct errseq_table_handle *h);

/*
 * Record @err (-1 .. -4095) on the object of @key, creating the object if
 * needed: the writeback completion path. 0 is a no-op returning 0, as
 * errseq_record(). Errors: -EINVAL (invalid err, nothing recorded),
 * -ENOMEM, -EPERM (unregistered thread).
 */
ERRSEQ_TABLE_API int errseq_table_set_error(struct errseq_table *t,
					    uint64_t key, int err);

/*
 * Copy the raw errseq64_t word of @key's object into *@word (an error
 * number, the SEEN flag and a counter; see errseq.h). Marks nothing seen,
 * creates nothing. -ENOENT if no object has @key; -EPERM if unregistered.
 * With errseq_check64(&word, since) this is the lock-free "lookup + check".
 */
ERRSEQ_TABLE_API int errseq_table_sample(struct errseq_table *t, uint64_t key,
					 errseq64_t *word);

/*
 * Reclaim idle objects, oldest-closed first, until the table holds no more
 * than its limit or every object has been looked at once. Objects with a
 * handle, and idle objects whose error is unseen, are kept. *@reclaimed (if
 * not NULL) is the number freed. Returns ERRSEQ_TABLE_OVER_LIMIT if the
 * table is still above its limit, else 0; -EPERM if unregistered. Callers
 * need not call this: creating an object reclaims a few when over the limit.
 */
ERRSEQ_TABLE_API int errseq_table_reclaim(struct errseq_table *t,
					  unsigned long *reclaimed);

/* Counters; each is read atomically, the set is not a snapshot. */
struct errseq_table_stats {
	uint64_t objects;	/* objects in the table */
	uint64_t idle;		/* objects with no handle (nor transient pin) */
	uint64_t handles;	/* open handles */
	uint64_t limit;		/* the current limit */
	uint64_t created;	/* objects created, ever */
	uint64_t reclaimed;	/* objects reclaimed, ever */
	uint64_t unseen_kept;	/* reclaim candidates kept: unseen error */
	uint64_t over_limit;	/* reclaim passes that ended above the limit */
};

/*
 * Fill the first @size bytes of *@st (pass sizeof(*st); a smaller size from
 * an older caller gets the older prefix). No registration needed.
 */
ERRSEQ_TABLE_API void errseq_table_stats(struct errseq_table *t,
					 struct errseq_table_stats *st,
					 size_t size);

#ifdef __cplusplus
}
#endif

#endif /* LIBERRSEQ_ERRSEQ_TABLE_H */
