// SPDX-License-Identifier: GPL-2.0
/*
 * The layout FFI users and the 64-bit atomics depend on, for the target it
 * is built for: prints the size and alignment of each public type (the
 * cursors embed a pthread_mutex_t, whose size differs per architecture) and
 * fails unless errseq64_t is 8-byte aligned wherever it is declared (on
 * i386 a plain uint64_t is 4-byte aligned in structs, and the 64-bit relaxed
 * load/store, fildll/fistpll, are atomic only on 8-byte aligned words) and
 * the compiler does its atomics inline, without locks.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "errseq.h"

struct after_char {
	char c;
	errseq64_t w;
};

#define SHOW(t) printf("%-24s size %2zu align %zu\n", #t, sizeof(t), _Alignof(t))

int main(void)
{
	int bad = 0;

	SHOW(errseq_t);
	SHOW(errseq64_t);
	SHOW(pthread_mutex_t);
	SHOW(struct errseq_cursor);
	SHOW(struct errseq64_cursor);
	printf("%-24s %zu\n", "offsetof(after_char, w)",
	       offsetof(struct after_char, w));
	if (_Alignof(errseq64_t) != 8 || offsetof(struct after_char, w) != 8 ||
	    _Alignof(struct errseq64_cursor) < 8) {
		printf("FAIL: errseq64_t is not 8-byte aligned in structs\n");
		bad = 1;
	}
	if (!__atomic_always_lock_free(sizeof(errseq_t), 0) ||
	    !__atomic_always_lock_free(sizeof(errseq64_t), 0)) {
		printf("FAIL: 32/64-bit atomics are not always lock-free\n");
		bad = 1;
	}
	if (!bad)
		printf("OK: errseq64_t 8-byte aligned, atomics lock-free\n");
	return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
