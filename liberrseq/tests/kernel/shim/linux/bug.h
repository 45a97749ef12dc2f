#ifndef SHIM_LINUX_BUG_H
#define SHIM_LINUX_BUG_H
/* WARN() counts instead of printing; the tests compare the counts. */
extern unsigned long kernel_errseq_warnings;
#define WARN(cond, fmt, ...) ({						\
	int __c = !!(cond);						\
	if (__c)							\
		__atomic_add_fetch(&kernel_errseq_warnings, 1,		\
				   __ATOMIC_RELAXED);			\
	__c;								\
})
#define BUILD_BUG_ON_NOT_POWER_OF_2(n) \
	_Static_assert(((n) & ((n) - 1)) == 0, "not a power of 2")
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define EXPORT_SYMBOL(sym)	extern int kernel_export_##sym
#endif
