/*
 * errseq.pml: Linux's errseq_t as liberrseq runs it (src/errseq_core.c,
 * src/cursor.c, the inline errseq_cursor_report() of include/errseq.h),
 * one Promela step per shared access: READ_ONCE, cmpxchg, WRITE_ONCE of
 * "since", the unhooked load of "since" in the header, lock, unlock.
 * Thread-local computation is folded into the step of the access it follows.
 *
 * The properties P1..P5 are stated in README.md; each assertion below names
 * its property as "|| PROPn" so that pan's message says which one failed.
 *
 * Configuration, all by -D (run_spin.sh passes them):
 *   NW NSETS      writers, and errseq_set() calls per writer
 *   NR NREP       readers, and cursor reports per reader (after its sample)
 *   SHARED        all readers share cursor 0 (initialised before they start)
 *   CTR_BITS      counter width; 19 is errseq_t's, smaller makes wrap reachable
 *   SAME_ERRNO    every set uses EIO (else writers alternate EIO and ENOSPC)
 *   UPSTREAM      Linux 6.1's check_and_advance: no retry after a failed
 *                 cmpxchg (the default is liberrseq's, which retries)
 *   P1_EXEMPT     check P1 with the exemption Linux 6.1's algorithm needs
 *   MUT_*         the planted bugs of tests/mutants/*.sed
 */

#ifndef NW
#define NW 2
#endif
#ifndef NSETS
#define NSETS 2
#endif
#ifndef NR
#define NR 2
#endif
#ifndef NREP
#define NREP 2
#endif
#ifndef CTR_BITS
#define CTR_BITS 19
#endif

/* The word: bits 0-11 errno, bit 12 SEEN, bits 13.. the counter. */
#define MASK	4095
#define SEEN	4096
#define SHIFT	13
#define CTR_MOD	(1 << CTR_BITS)
#define CTR(v)	(((v) >> SHIFT) % CTR_MOD)

#define EIO	5
#define ENOSPC	28
#ifdef SAME_ERRNO
#define ERRNO(w, i)	EIO
#else
#define ERRNO(w, i)	(((w) + (i)) % 2 == 0 -> EIO : ENOSPC)
#endif

#ifdef SHARED
/* One cursor, shared by every reader: global. */
int since;
bit lock;
#define SINCE	since
#define LOCK	lock
#else
/* One cursor per reader, which no one else touches: a local of reader(). */
#define SINCE	mysince
#define LOCK	mylock
#endif
#define BIT(r)	(1 << (r))
#define ALLR	(BIT(NR) - 1)

/*
 * Always 0: they only label the assertions in pan's output. -DONLY=n keeps
 * the assertions of property n alone, to show that a mutant breaks that one.
 */
hidden byte PROP1, PROP2, PROP3, PROP4, PROP5;
#if !defined(ONLY) || ONLY == 1
#define CHECK1(c)	assert((c) || PROP1)
#else
#define CHECK1(c)	skip
#endif
#if !defined(ONLY) || ONLY == 2
#define CHECK2(c)	assert((c) || PROP2)
#else
#define CHECK2(c)	skip
#endif
#if !defined(ONLY) || ONLY == 3
#define CHECK3(c)	assert((c) || PROP3)
#else
#define CHECK3(c)	skip
#endif
#if !defined(ONLY) || ONLY == 4
#define CHECK4(c)	assert((c) || PROP4)
#else
#define CHECK4(c)	skip
#endif
#if !defined(ONLY) || ONLY == 5
#define CHECK5(c)	assert((c) || PROP5)
#else
#define CHECK5(c)	skip
#endif

int eseq;			/* the errseq_t */

/* check_and_advance's new = old | ERRSEQ_SEEN. */
#ifdef MUT_NO_SEEN
#define ADD_SEEN(o)	(o)
#else
#define ADD_SEEN(o)	((o) | SEEN)
#endif

/*
 * Ghost state, for the properties only. A reader op's interval begins at its
 * first access to eseq and ends at the access that decides its result (the
 * accesses to a private cursor in between touch nothing another thread can
 * see); a set's runs from its READ_ONCE to its last cmpxchg.
 */
byte id;			/* word-changing sets so far: the set-id */
byte last_err;			/* errno of the latest set (linearised) */
byte nset;			/* writers inside errseq_set() */
byte inop;			/* readers inside an op */
byte clean[NW];			/* readers idle since writer w's set began */
byte must;			/* readers a whole set ran past since their last op */
byte ovl;			/* readers whose last op some set overlapped */
#ifdef SHARED
int reported;			/* set-ids reported through the cursor */
#else
int reported[NR];		/* set-ids reported through each cursor */
byte lastrep[NR];		/* errno each cursor last advanced to */
byte first;			/* readers whose next report is their first */
byte s_unseen;			/* readers whose sample read an unseen error */
byte s_id[NR];			/* set-id each sample read */
#endif

/* errseq_set(): the new word from @o for errno @e. */
inline calc_new(o, n, e)
{
#ifdef MUT_SET_KEEP_ERRNO
	n = (o & ~SEEN) | e;
#else
	n = (o & ~(MASK | SEEN)) | e;
#endif
#ifndef MUT_NO_CTR_INC
	if
	:: (o & SEEN) ->
		n = (n & (MASK | SEEN)) | (((CTR(n) + 1) % CTR_MOD) << SHIFT)
	:: else
	fi
#endif
}

/* A writer's cmpxchg changed the word from @o to @n: P3, and the ghosts. */
inline set_changed(o, n, e)
{
	CHECK3((CTR(n) == (CTR(o) + ((o & SEEN) -> 1 : 0)) % CTR_MOD &&
		(n & SEEN) == 0));
	id++;
	last_err = e;
	printf("W%d set(-%d): %x -> %x (set-id %d)\n", me, e, o, n, id)
}

inline set_begin()
{
	nset++;
	clean[me] = ALLR & ~inop;
	ovl = ovl | inop
}

/* A reader that was between two ops through the whole set must report. */
inline set_end()
{
	nset--;
	must = must | clean[me];
	clean[me] = 0
}

proctype writer(byte me)
{
	byte i, e;
	int old, new, cur;
	bit done;

	do
	:: i < NSETS ->
		e = ERRNO(me, i);
		atomic {	/* old = READ_ONCE(*eseq) */
			set_begin();
			old = eseq;
			calc_new(old, new, e);
			if
			:: new == old -> last_err = e; set_end(); done = 1
			:: else
			fi
		}
		do
		:: done -> break
		:: else ->
			atomic {	/* cur = cmpxchg(eseq, old, new) */
				cur = eseq;
				if
				:: cur == old -> eseq = new; set_changed(old, new, e)
				:: else
				fi;
				if
				:: cur == old || cur == new ->
					if
					:: cur != old -> last_err = e
					:: else
					fi;
					set_end(); done = 1
				:: else ->
					old = cur;
					calc_new(old, new, e)
				fi
			}
		od;
		atomic { i++; e = 0; old = 0; new = 0; cur = 0; done = 0 }
	:: else -> break
	od
}

inline op_begin()
{
	skip;
#ifndef SHARED
	inop = inop | BIT(me);
	for (k : 0 .. NW - 1) {
		clean[k] = clean[k] & ~BIT(me)
	}
	k = 0;
	pmust = (must & BIT(me)) != 0;
	must = must & ~BIT(me);
	povl = (ovl & BIT(me)) != 0;
	if
	:: nset > 0 -> ovl = ovl | BIT(me)
	:: else -> ovl = ovl & ~BIT(me)
	fi
#endif
}

/* The read of eseq that decides the result: remember what it saw. */
inline read_point()
{
	old = eseq;
	rid = id;
	rerr = last_err
}

/* The report's result @ret (an errno, 0 for none) is decided: check it. */
inline op_end()
{
	printf("R%d report: -%d (read set-id %d)\n", me, ret, rid);
#ifdef SHARED
	if
	:: ret != 0 ->
		CHECK5(ret == rerr);
		CHECK2((reported & BIT(rid)) == 0);
		reported = reported | BIT(rid)
	:: else
	fi
#else
	inop = inop & ~BIT(me);
	/* P1: no lost error. */
#ifdef P1_EXEMPT
	CHECK1(!pmust || ret != 0 || (povl && rerr == lastrep[me]));
#else
	CHECK1(!pmust || ret != 0);
#endif
	/* P4: sampling. */
	if
	:: first & BIT(me) ->
		CHECK4(!(s_unseen & BIT(me)) || ret != 0);
		CHECK4((s_unseen & BIT(me)) || ret == 0 || rid != s_id[me]);
		first = first & ~BIT(me)
	:: else
	fi;
	if
	:: ret != 0 ->
		/* P5: the errno of the latest set at the read point. */
		CHECK5(ret == rerr);
		/* P2: each set-id reported at most once per cursor. */
		CHECK2((reported[me] & BIT(rid)) == 0);
		reported[me] = reported[me] | BIT(rid);
		lastrep[me] = ret
	:: else
	fi;
	pmust = 0; povl = 0
#endif
}

/*
 * Where the result is decided: at an access to eseq for a private cursor
 * (whose "since" no one else changes), at the unlock for a shared one.
 */
#ifdef SHARED
#define DECIDED_PRIVATE(r)	skip
#define DECIDED_SHARED(r)	ret = (r); op_end()
#else
#define DECIDED_PRIVATE(r)	ret = (r); op_end()
#define DECIDED_SHARED(r)	skip
#endif

inline reset()
{
	s = 0; old = 0; new = 0; cur = 0; ret = 0; rid = 0; rerr = 0;
	rid2 = 0; rerr2 = 0; done = 0
}

proctype reader(byte me)
{
	byte n, k, rid, rerr, ret, rid2, rerr2;
	int s, old, new, cur;
	bit pmust, povl, done;
#ifndef SHARED
	int mysince;
	bit mylock;

	/* errseq_cursor_init(): since = errseq_sample(eseq) */
	atomic {	/* old = READ_ONCE(*eseq) */
		op_begin();
		read_point();
		if
		:: old != 0 && (old & SEEN) == 0 -> s_unseen = s_unseen | BIT(me)
		:: else
		fi;
		s_id[me] = rid;
#ifndef MUT_SAMPLE_RAW
		if
		:: (old & SEEN) == 0 -> old = 0
		:: else
		fi;
#endif
		lastrep[me] = old & MASK;
		printf("R%d sample: %x\n", me, old);
		first = first | BIT(me);
		inop = inop & ~BIT(me);
		pmust = 0; povl = 0
	}
	atomic { SINCE = old; reset() }	/* WRITE_ONCE(cur->since, old) */
#endif
	do
	:: n < NREP ->
		/* errseq_cursor_report() */
		atomic { s = SINCE }	/* __atomic_load_n(&cur->since) */
		atomic {	/* errseq_check(): READ_ONCE(*eseq) */
			op_begin();
			read_point();
			if
			:: old == s -> ret = 0; op_end(); done = 1
			:: else
			fi
		}
		if
		:: done -> skip
		:: else ->
			/* errseq_cursor_report_slow() */
#ifndef MUT_CURSOR_NOLOCK
			atomic { LOCK == 0 -> LOCK = 1 }
#endif
			/* errseq_check_and_advance(eseq, &cur->since) */
			atomic {	/* old = READ_ONCE(*eseq) */
				read_point();
				if
				:: old == SINCE -> DECIDED_PRIVATE(0)
				:: else ->
					new = ADD_SEEN(old);
					if
					:: new == old -> DECIDED_PRIVATE(new & MASK)
					:: else
					fi
				fi
			}
			atomic { s = SINCE }	/* READ_ONCE(*since) */
			if
			:: old == s -> ret = 0
			:: else ->
#ifndef UPSTREAM
				/*
				 * for (;;) { new = old | SEEN; if (new == old)
				 * break; cur = cmpxchg(eseq, old, new); if (cur ==
				 * old || cur == new) break; old = cur; }
				 * The value each cmpxchg finds is the read point.
				 */
				do
				:: new == old -> break
				:: else ->
					atomic {	/* cur = cmpxchg(eseq, old, new) */
						cur = eseq;
						rid = id;
						rerr = last_err;
						if
						:: cur == old ->
							eseq = new;
							DECIDED_PRIVATE(new & MASK);
							break
						:: cur == new ->
							DECIDED_PRIVATE(new & MASK);
							break
						:: else ->
							printf("R%d cmpxchg %x -> %x failed: %x, retry\n",
							       me, old, new, cur);
							old = cur;
							new = ADD_SEEN(old);
							if
							:: new == old ->
								DECIDED_PRIVATE(new & MASK)
							:: else
							fi
						fi
					}
				od;
#else
				/* Linux 6.1: one cmpxchg, whatever it finds. */
				if
				:: new != old ->
					atomic {	/* cmpxchg(eseq, old, new) */
						if
						:: eseq == old -> eseq = new
						:: else ->
							printf("R%d cmpxchg %x -> %x failed: %x\n",
							       me, old, new, eseq)
						fi;
						DECIDED_PRIVATE(new & MASK)
					}
				:: else
				fi;
#endif
				atomic {	/* WRITE_ONCE(*since, new) */
#ifdef MUT_SINCE_OLD
					SINCE = old;
#else
					SINCE = new;
#endif
					ret = new & MASK
				}
			fi;
#ifndef MUT_CURSOR_NOLOCK
			atomic { LOCK = 0; DECIDED_SHARED(ret); reset() }
#else
			atomic { DECIDED_SHARED(ret); reset() }
#endif
		fi;
		atomic { n++; reset() }
	:: else -> break
	od
}

init {
	byte i;

	atomic {
		for (i : 0 .. NW - 1) {
			run writer(i)
		}
		for (i : 0 .. NR - 1) {
			run reader(i)
		}
	}
}
