// SPDX-License-Identifier: GPL-2.0
/*
 * liberrseq-table: errseq64_t words per 64-bit key, in liburcu's lock-free
 * hash table (rculfhash) under the urcu-memb RCU flavour. See
 * include/errseq_table.h for the contract and README-table.md for the design.
 *
 * Life of an object
 * -----------------
 * obj->refs is one 64-bit word: DEAD (bit 63) | gen (bits 24-62) | count
 * (bits 0-23). count is the number of pins: one per open handle, plus one
 * per errseq_table_set_error() while it runs. gen is bumped by every pin, so
 * that the word never returns to a value a reclaimer has seen (no ABA).
 *
 * Every errseq_set64() on obj->eseq, and every report that marks it SEEN,
 * happens under a pin. A reclaimer (holding t->lru_lock) kills an object by
 *
 *	r = load_acquire(refs);		count(r) == 0: idle
 *	w = load(eseq);			0, or SEEN set: nobody can miss it
 *	cmpxchg(refs, r, r | DEAD);	fails if anyone pinned since r
 *
 * If a pin happened before the load of r, its unpin (a release RMW) is in
 * r's history, so w sees the pinned writer's error. If one happened after,
 * gen changed and the cmpxchg fails. So an object holding an unseen error is
 * never killed. A DEAD object cannot be pinned again; it stays in the hash
 * table until whoever first calls cds_lfht_del() on it (the reclaimer, or a
 * lookup that found it) queues it to call_rcu(), which frees it after every
 * read-side critical section that could have found it has ended.
 *
 * A killed object had an error that was seen, or none, so a handle opened on
 * a fresh object for the same key behaves exactly as one opened on the old
 * object would have: errseq_sample() of a seen error reports nothing.
 *
 * Locks: t->lru_lock guards t->lru (every live object, least recently closed
 * first) and is the only context in which an object is killed; a closing
 * handle drops its pin under it, so it may still touch the object's list
 * link after the drop. RCU read-side sections may take lru_lock; nothing
 * waits for a grace period while holding it.
 */
#define _GNU_SOURCE
#define _LGPL_SOURCE	/* inline urcu_memb_read_lock()/unlock() */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/urcu-memb.h>
#include <urcu/rculfhash.h>
#include <urcu/list.h>

#define LIBERRSEQ_TABLE_BUILDING 1
#include "errseq_table.h"

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define REF_COUNT_BITS	24
#define REF_COUNT_MASK	((1ULL << REF_COUNT_BITS) - 1)
#define REF_GEN_ONE	(1ULL << REF_COUNT_BITS)
#define REF_GEN_MASK	(((1ULL << 39) - 1) << REF_COUNT_BITS)
#define REF_DEAD	(1ULL << 63)

/* How many list entries a reclaim pass run by a creating call may look at. */
#define AUTO_RECLAIM_MAX	64

/*
 * ThreadSanitizer cannot see the ordering liburcu provides: rculfhash
 * publishes nodes, and grace periods end, inside the uninstrumented system
 * library. Tell it, with the two edges RCU guarantees:
 *  - publication: the creator's stores to an object happen before any reader
 *    that found it through the hash table reads it (rcu_assign_pointer /
 *    rcu_dereference);
 *  - grace period: every read-side critical section that ended before the
 *    free callback runs happens before the free.
 * These are the only annotations; everything else TSan checks as is.
 */
#if defined(__SANITIZE_THREAD__)
#define TABLE_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TABLE_TSAN 1
#endif
#endif

#ifdef TABLE_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
static char tsan_grace_period;
#define tsan_publish(p)		__tsan_release(p)
#define tsan_subscribe(p)	__tsan_acquire(p)
#define tsan_read_unlock()	__tsan_release(&tsan_grace_period)
#define tsan_before_free()	__tsan_acquire(&tsan_grace_period)
#else
#define tsan_publish(p)		((void)0)
#define tsan_subscribe(p)	((void)0)
#define tsan_read_unlock()	((void)0)
#define tsan_before_free()	((void)0)
#endif

struct tobj {
	struct cds_lfht_node node;	/* in t->ht; found under RCU */
	uint64_t key;			/* immutable once published */
	errseq64_t eseq;		/* the error word */
	uint64_t refs;			/* DEAD | gen | count, see above */
	struct cds_list_head lru;	/* on t->lru, under t->lru_lock */
	struct rcu_head rcu;		/* deferred free */
};

#define CACHELINE 64

struct errseq_table {
	struct cds_lfht *ht;
	unsigned long limit;
	pthread_mutex_t lru_lock;
	struct cds_list_head lru;

	/* Counters, written by many threads: keep off the lookup path's line. */
	unsigned long nobjects __attribute__((aligned(CACHELINE)));
	unsigned long nidle;
	unsigned long nhandles;
	unsigned long created;
	unsigned long reclaimed;
	unsigned long unseen_kept;
	unsigned long over_limit;
};

struct errseq_table_handle {
	struct tobj *obj;		/* pinned for the handle's life */
	struct errseq_table *t;
	struct errseq64_cursor cur;
};

/* Statistics and the limit: relaxed, nothing is ordered against them. */
#define ctr_add(p, v)	__atomic_add_fetch((p), (v), __ATOMIC_RELAXED)
#define ctr_read(p)	__atomic_load_n((p), __ATOMIC_RELAXED)

/* urcu's list.h has no move_tail. */
static inline void list_move_tail(struct cds_list_head *e,
				  struct cds_list_head *head)
{
	cds_list_del(e);
	cds_list_add_tail(e, head);
}

static inline void table_read_lock(void)
{
	urcu_memb_read_lock();
}

static inline void table_read_unlock(void)
{
	tsan_read_unlock();
	urcu_memb_read_unlock();
}

/* urcu-memb's own flag: true after urcu_memb_register_thread(). */
static inline int registered(void)
{
	return URCU_TLS(urcu_memb_reader).registered;
}

/* A 64-bit finaliser (MurmurHash3 fmix64): rculfhash wants every bit mixed. */
static unsigned long key_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return (unsigned long)k;
}

static int obj_match(struct cds_lfht_node *node, const void *key)
{
	struct tobj *o = caa_container_of(node, struct tobj, node);

	tsan_subscribe(o);
	return o->key == *(const uint64_t *)key;
}

static void obj_free_rcu(struct rcu_head *head)
{
	struct tobj *o = caa_container_of(head, struct tobj, rcu);

	tsan_before_free();
	free(o);
}

/*
 * Pin @o unless it is DEAD. The caller found @o under RCU, so its memory is
 * valid; only the pin keeps it from being killed once we leave the read-side
 * section.
 */
static int obj_tryget(struct errseq_table *t, struct tobj *o)
{
	uint64_t r = __atomic_load_n(&o->refs, __ATOMIC_RELAXED), n;

	do {
		if (r & REF_DEAD)
			return -ENOENT;
		if ((r & REF_COUNT_MASK) == REF_COUNT_MASK)
			return -EOVERFLOW;
		n = ((r + REF_GEN_ONE) & REF_GEN_MASK) |
		    ((r & REF_COUNT_MASK) + 1);
		/*
		 * Acquire pairs with the release of the previous unpin, so
		 * our reads of eseq start from where that pinner left it.
		 */
	} while (!__atomic_compare_exchange_n(&o->refs, &r, n, 0,
					      __ATOMIC_ACQUIRE,
					      __ATOMIC_RELAXED));
	if ((r & REF_COUNT_MASK) == 0)
		ctr_add(&t->nidle, -1UL);
	return 0;
}

/*
 * Drop a pin. Release: our errseq_set64() and SEEN marking happen before a
 * reclaimer's load_acquire of refs that reads this value or a later one, so
 * its check of eseq sees them. Returns true if @o became idle; the caller may
 * not touch @o afterwards unless it holds t->lru_lock.
 */
static int obj_put(struct errseq_table *t, struct tobj *o)
{
	uint64_t old = __atomic_fetch_sub(&o->refs, 1, __ATOMIC_RELEASE);

	if ((old & REF_COUNT_MASK) != 1)
		return 0;
	ctr_add(&t->nidle, 1);
	return 1;
}

/* Caller in a read-side section: unhash @o (DEAD), free after a grace period. */
static void obj_unhash(struct errseq_table *t, struct tobj *o)
{
	/* Only one cds_lfht_del() of a node succeeds: one call_rcu(). */
	if (cds_lfht_del(t->ht, &o->node) == 0)
		urcu_memb_call_rcu(&o->rcu, obj_free_rcu);
}

/*
 * Kill @o if it is idle and holds no unseen error (see the top of the file).
 * Called with t->lru_lock held, in a read-side section.
 */
static int obj_try_kill(struct errseq_table *t, struct tobj *o)
{
	uint64_t r = __atomic_load_n(&o->refs, __ATOMIC_ACQUIRE);
	errseq64_t w;

	if (r & REF_COUNT_MASK)
		return 0;
	/* After the acquire: sees every error set under an earlier pin. */
	w = __atomic_load_n(&o->eseq, __ATOMIC_RELAXED);
	if (w && !(w & ERRSEQ_SEEN_FLAG)) {	/* MUTANT: reclaim_unseen */
		ctr_add(&t->unseen_kept, 1);
		return 0;
	}
	/* Fails if anyone pinned @o since we loaded r: gen moved on. */
	return __atomic_compare_exchange_n(&o->refs, &r, r | REF_DEAD, 0,
					   __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/*
 * Look at up to @budget objects from the cold end of the list while the
 * table is above its limit; kept ones go to the warm end, so consecutive
 * passes make progress. Called with t->lru_lock held, in a read-side
 * section (cds_lfht_del() needs one). Returns the number reclaimed.
 */
static unsigned long reclaim_scan(struct errseq_table *t, unsigned long budget)
{
	unsigned long n = 0;
	struct tobj *o;

	while (budget-- && ctr_read(&t->nobjects) > ctr_read(&t->limit) &&
	       !cds_list_empty(&t->lru)) {
		o = cds_list_first_entry(&t->lru, struct tobj, lru);
		if (!obj_try_kill(t, o)) {
			list_move_tail(&o->lru, &t->lru);
			continue;
		}
		cds_list_del(&o->lru);
		ctr_add(&t->nobjects, -1UL);
		ctr_add(&t->nidle, -1UL);
		ctr_add(&t->reclaimed, 1);
		obj_unhash(t, o);
		n++;
	}
	return n;
}

/* End of a pass: count and report a table we could not bring to its limit. */
static int over_limit(struct errseq_table *t, int count)
{
	if (ctr_read(&t->nobjects) <= ctr_read(&t->limit))
		return 0;
	if (count)
		ctr_add(&t->over_limit, 1);
	return ERRSEQ_TABLE_OVER_LIMIT;
}

/*
 * A call just created an object. If that took the table above its limit,
 * reclaim a few idle objects: twice the excess, at most AUTO_RECLAIM_MAX, so
 * a table full of unseen errors costs O(1) per creation, not O(n). If
 * another thread is reclaiming, leave it to that thread.
 */
static int auto_reclaim(struct errseq_table *t)
{
	unsigned long n = ctr_read(&t->nobjects), lim = ctr_read(&t->limit);
	unsigned long excess;

	if (n <= lim)
		return 0;
	if (pthread_mutex_trylock(&t->lru_lock))
		return over_limit(t, 0);
	excess = n - lim;
	reclaim_scan(t, excess < AUTO_RECLAIM_MAX / 2 ?
		     2 * excess + 8 : AUTO_RECLAIM_MAX);
	pthread_mutex_unlock(&t->lru_lock);
	return over_limit(t, 1);
}

static struct tobj *obj_alloc(uint64_t key)
{
	struct tobj *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	cds_lfht_node_init(&o->node);
	o->key = key;
	o->refs = 1;		/* the creator's pin: gen 0, count 1 */
	CDS_INIT_LIST_HEAD(&o->lru);
	return o;
}

/*
 * Find @key's object and pin it, creating it if @create. Called in a
 * read-side section; the pin outlives it. *@created tells whether we made it.
 */
static int obj_get_key(struct errseq_table *t, uint64_t key, int create,
		       struct tobj **op, int *created)
{
	unsigned long hash = key_hash(key);
	struct tobj *o, *fresh = NULL;
	struct cds_lfht_node *node;
	struct cds_lfht_iter iter;
	int ret;

	*created = 0;
	for (;;) {
		cds_lfht_lookup(t->ht, hash, obj_match, &key, &iter);
		node = cds_lfht_iter_get_node(&iter);
		if (!node) {
			ret = -ENOENT;
			if (!create)
				break;
			ret = -ENOMEM;
			if (!fresh && !(fresh = obj_alloc(key)))
				break;
			/* Our initialising stores before the node is found. */
			tsan_publish(fresh);
			node = cds_lfht_add_unique(t->ht, hash, obj_match,
						   &key, &fresh->node);
			if (node == &fresh->node) {
				/*
				 * Still pinned by us (refs == 1), so nobody
				 * can make it idle and move its list link
				 * before we add it.
				 */
				pthread_mutex_lock(&t->lru_lock);
				cds_list_add_tail(&fresh->lru, &t->lru);
				pthread_mutex_unlock(&t->lru_lock);
				ctr_add(&t->nobjects, 1);
				ctr_add(&t->created, 1);
				*op = fresh;
				*created = 1;
				return 0;
			}
			/* Another creator won; @fresh was never visible. */
		}
		o = caa_container_of(node, struct tobj, node);
		ret = obj_tryget(t, o);
		if (ret != -ENOENT) {
			if (!ret)
				*op = o;
			break;
		}
		/*
		 * Killed but not yet unhashed (its reclaimer is between the
		 * cmpxchg and cds_lfht_del()): unhash it ourselves rather
		 * than wait, then look again.
		 */
		obj_unhash(t, o);
	}
	free(fresh);
	return ret;
}

struct errseq_table *errseq_table_new(unsigned long limit, unsigned int flags)
{
	struct errseq_table *t;
	int err;

	if (flags) {
		errno = EINVAL;
		return NULL;
	}
	t = aligned_alloc(CACHELINE, sizeof(*t));
	if (!t) {
		errno = ENOMEM;
		return NULL;
	}
	memset(t, 0, sizeof(*t));
	t->limit = limit;
	CDS_INIT_LIST_HEAD(&t->lru);
	err = pthread_mutex_init(&t->lru_lock, NULL);
	if (err) {
		free(t);
		errno = err;
		return NULL;
	}
	/* No registration needed to create a table (see rculfhash.h). */
	t->ht = cds_lfht_new_flavor(64, 64, 0,
				    CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
				    &urcu_memb_flavor, NULL);
	if (!t->ht) {
		pthread_mutex_destroy(&t->lru_lock);
		free(t);
		errno = ENOMEM;
		return NULL;
	}
	return t;
}

int errseq_table_destroy(struct errseq_table *t)
{
	struct tobj *o, *tmp;
	int ret;

	if (!t)
		return 0;
	if (!registered())
		return -EPERM;
	if (ctr_read(&t->nhandles))
		return -EBUSY;
	/*
	 * No other call runs (the contract), so every DEAD object has been
	 * unhashed and every live one is on the list. cds_lfht_del() wants a
	 * read-side section; nobody can find the objects any more, so they
	 * are freed directly once it ends.
	 */
	table_read_lock();
	cds_list_for_each_entry(o, &t->lru, lru)
		cds_lfht_del(t->ht, &o->node);
	table_read_unlock();
	cds_list_for_each_entry_safe(o, tmp, &t->lru, lru)
		free(o);
	/* Objects reclaimed earlier may still wait for their grace period. */
	urcu_memb_barrier();
	ret = cds_lfht_destroy(t->ht, NULL);
	pthread_mutex_destroy(&t->lru_lock);
	free(t);
	return ret;
}

void errseq_table_set_limit(struct errseq_table *t, unsigned long limit)
{
	__atomic_store_n(&t->limit, limit, __ATOMIC_RELAXED);
}

void errseq_table_thread_register(void)
{
	urcu_memb_register_thread();
}

void errseq_table_thread_unregister(void)
{
	urcu_memb_unregister_thread();
}

int errseq_table_thread_registered(void)
{
	return registered();
}

int errseq_table_open(struct errseq_table *t, uint64_t key, unsigned int flags,
		      struct errseq_table_handle **hp)
{
	struct errseq_table_handle *h;
	int created, err, ret;
	struct tobj *o;

	if (flags & ~ERRSEQ_TABLE_NOCREATE)
		return -EINVAL;
	if (unlikely(!registered()))
		return -EPERM;
	h = malloc(sizeof(*h));
	if (!h)
		return -ENOMEM;

	table_read_lock();
	ret = obj_get_key(t, key, !(flags & ERRSEQ_TABLE_NOCREATE), &o,
			  &created);
	if (!ret && created)
		ret = ERRSEQ_TABLE_CREATED | auto_reclaim(t);
	table_read_unlock();
	if (ret < 0) {
		free(h);
		return ret;
	}

	/* Pinned: @o lives as long as the handle, without RCU. */
	h->obj = o;
	h->t = t;
	err = errseq64_cursor_init(&h->cur, &o->eseq);
	if (err) {
		pthread_mutex_lock(&t->lru_lock);
		obj_put(t, o);
		pthread_mutex_unlock(&t->lru_lock);
		free(h);
		return err;
	}
	ctr_add(&t->nhandles, 1);
	*hp = h;
	return ret;
}

/*
 * The hot path: a relaxed load of the handle's "since" and one of the
 * object's word; no lock, no store when they are equal. The handle's pin
 * keeps the object alive, so no RCU read-side section is needed.
 */
int errseq_table_check(struct errseq_table_handle *h)
{
	return errseq64_cursor_report(&h->cur, &h->obj->eseq);
}

uint64_t errseq_table_handle_key(const struct errseq_table_handle *h)
{
	return h->obj->key;
}

void errseq_table_close(struct errseq_table_handle *h)
{
	struct errseq_table *t;
	struct tobj *o;

	if (!h)
		return;
	t = h->t;
	o = h->obj;
	errseq64_cursor_destroy(&h->cur);
	/*
	 * Drop the pin under lru_lock: only a holder of lru_lock kills, so
	 * @o stays alive until we unlock, and a newly idle object moves to
	 * the warm end of the list without racing a reclaimer's walk.
	 */
	pthread_mutex_lock(&t->lru_lock);	/* MUTANT: unlocked_close */
	if (obj_put(t, o))
		list_move_tail(&o->lru, &t->lru);
	pthread_mutex_unlock(&t->lru_lock);	/* MUTANT: unlocked_close */
	ctr_add(&t->nhandles, -1UL);
	free(h);
}

int errseq_table_set_error(struct errseq_table *t, uint64_t key, int err)
{
	int created, ret;
	struct tobj *o;

	if (err == 0)
		return 0;
	if (!errseq_err_valid(err))
		return -EINVAL;
	if (unlikely(!registered()))
		return -EPERM;

	table_read_lock();
	ret = obj_get_key(t, key, 1, &o, &created);
	if (!ret) {
		/* Under our pin: a reclaimer cannot kill @o past this error. */
		errseq_set64(&o->eseq, err);
		if (created)
			ret = ERRSEQ_TABLE_CREATED | auto_reclaim(t);
		/* Release: the error is visible to whoever kills @o next. */
		obj_put(t, o);
	}
	table_read_unlock();
	return ret;
}

int errseq_table_sample(struct errseq_table *t, uint64_t key,
			errseq64_t *word)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	int ret = -ENOENT;
	struct tobj *o;

	if (unlikely(!registered()))
		return -EPERM;
	/* Readers only: the section keeps @o's memory, no pin needed. */
	table_read_lock();
	cds_lfht_lookup(t->ht, key_hash(key), obj_match, &key, &iter);
	node = cds_lfht_iter_get_node(&iter);
	if (node) {
		o = caa_container_of(node, struct tobj, node);
		/* A killed object is gone, whatever its word still says. */
		if (!(__atomic_load_n(&o->refs, __ATOMIC_RELAXED) &
		      REF_DEAD)) {
			*word = __atomic_load_n(&o->eseq, __ATOMIC_RELAXED);
			ret = 0;
		}
	}
	table_read_unlock();
	return ret;
}

int errseq_table_reclaim(struct errseq_table *t, unsigned long *reclaimed)
{
	unsigned long n;
	int ret;

	if (unlikely(!registered()))
		return -EPERM;
	table_read_lock();
	pthread_mutex_lock(&t->lru_lock);
	/* One look at each object (kept ones rotate to the end). */
	n = reclaim_scan(t, ctr_read(&t->nobjects));
	pthread_mutex_unlock(&t->lru_lock);
	ret = over_limit(t, 1);
	table_read_unlock();
	if (reclaimed)
		*reclaimed = n;
	return ret;
}

void errseq_table_stats(struct errseq_table *t, struct errseq_table_stats *st,
			size_t size)
{
	struct errseq_table_stats s;

	s.objects = ctr_read(&t->nobjects);
	s.idle = ctr_read(&t->nidle);
	s.handles = ctr_read(&t->nhandles);
	s.limit = ctr_read(&t->limit);
	s.created = ctr_read(&t->created);
	s.reclaimed = ctr_read(&t->reclaimed);
	s.unseen_kept = ctr_read(&t->unseen_kept);
	s.over_limit = ctr_read(&t->over_limit);
	memcpy(st, &s, size < sizeof(s) ? size : sizeof(s));
}
