// SPDX-License-Identifier: GPL-2.0
/*
 * wrap: P1 against the counter width, on the real code, sequentially.
 *
 * Reader A reports an error, then sleeps while 2^19 further errors with the
 * same errno are each set and reported by reader B. Every one of them was
 * seen, so each set bumped the counter: errseq_t's 19-bit counter is back
 * where A left it, A's next report returns 0 and misses the last error (a
 * known limit of the kernel's errseq_t). errseq64_t's 51-bit counter is not,
 * and A reports it. The test passes when both behave so.
 */
#include <errno.h>
#include <stdio.h>

#include "errseq.h"

#define CYCLES	(1UL << (32 - ERRSEQ_COUNTER_SHIFT))

static int wrap32(void)
{
	struct errseq_cursor a, b;
	errseq_t e = 0;
	unsigned long i;
	int ret;

	errseq_cursor_init(&a, &e);
	errseq_cursor_init(&b, &e);
	errseq_set(&e, -EIO);
	if (errseq_cursor_report(&a, &e) != -EIO)
		return -1;
	for (i = 0; i < CYCLES; i++) {
		errseq_set(&e, -EIO);
		if (errseq_cursor_report(&b, &e) != -EIO)
			return -1;
	}
	ret = errseq_cursor_report(&a, &e);
	errseq_cursor_destroy(&a);
	errseq_cursor_destroy(&b);
	return ret;
}

static int wrap64(void)
{
	struct errseq64_cursor a, b;
	errseq64_t e = 0;
	unsigned long i;
	int ret;

	errseq64_cursor_init(&a, &e);
	errseq64_cursor_init(&b, &e);
	errseq_set64(&e, -EIO);
	if (errseq64_cursor_report(&a, &e) != -EIO)
		return -1;
	for (i = 0; i < CYCLES; i++) {
		errseq_set64(&e, -EIO);
		if (errseq64_cursor_report(&b, &e) != -EIO)
			return -1;
	}
	ret = errseq64_cursor_report(&a, &e);
	errseq64_cursor_destroy(&a);
	errseq64_cursor_destroy(&b);
	return ret;
}

int main(void)
{
	int r32 = wrap32(), r64 = wrap64();

	printf("after %lu seen errors: errseq_t reader reports %d, "
	       "errseq64_t reader reports %d\n", CYCLES, r32, r64);
	if (r32 == 0)
		printf("P1 violated for errseq_t: the 19-bit counter wrapped "
		       "(expected)\n");
	if (r64 == -EIO)
		printf("P1 holds for errseq64_t\n");
	return !(r32 == 0 && r64 == -EIO);
}
