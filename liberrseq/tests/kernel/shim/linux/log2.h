#ifndef SHIM_LINUX_LOG2_H
#define SHIM_LINUX_LOG2_H
#define ilog2(n)	(63 - __builtin_clzll(n))
#endif
