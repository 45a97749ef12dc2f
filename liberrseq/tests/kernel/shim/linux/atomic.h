#ifndef SHIM_LINUX_ATOMIC_H
#define SHIM_LINUX_ATOMIC_H
/*
 * The kernel's own definitions, as near as userspace allows: READ_ONCE is a
 * volatile load, cmpxchg a fully ordered compare-and-swap returning the old
 * value. Deliberately not liberrseq's port.h, so the comparison is between
 * two independent builds.
 */
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define cmpxchg(p, o, n)	__sync_val_compare_and_swap((p), (o), (n))
#endif
