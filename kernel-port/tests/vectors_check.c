// SPDX-License-Identifier: GPL-2.0
/*
 * Run liberrseq/tests/errseq_vectors.h against a kernel lib/errseq.c compiled
 * in userspace over liberrseq's kernel shim (a pristine file or the patched
 * one), whose WARN() counts into kernel_errseq_warnings:
 *
 *   k=../../liberrseq/tests/kernel
 *   cc -I$k/include -I$k -I../../liberrseq/tests vectors_check.c errseq.c $k/warn.c
 *
 * Exit status 0 when every row matches, 1 otherwise (each mismatch printed).
 */
#include <stdio.h>
#include <linux/errseq.h>
#include "kernel_errseq.h"

enum { OP_SET, OP_SET_INVALID, OP_SAMPLE, OP_CHECK, OP_ADVANCE };

struct vec {
	const char *name;
	int op;
	errseq_t word;
	long long arg, ret;
	errseq_t word_after, since_after;
};

static const struct vec vecs[] = {
#define ERRSEQ_VECTOR(n, op, w, a, r, wa, sa) \
	{ #n, OP_##op, (w), (a), (r), (wa), (sa) },
#include "errseq_vectors.h"
#undef ERRSEQ_VECTOR
};

int main(void)
{
	unsigned int i, bad = 0;

	for (i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++) {
		const struct vec *v = &vecs[i];
		errseq_t w = v->word, since = (errseq_t)v->arg;
		unsigned long warns = kernel_errseq_warnings;
		long long ret = 0;
		int ok;

		switch (v->op) {
		case OP_SET:
		case OP_SET_INVALID:
			ret = (errseq_t)errseq_set(&w, (int)v->arg);
			break;
		case OP_SAMPLE:
			ret = errseq_sample(&w);
			break;
		case OP_CHECK:
			ret = errseq_check(&w, since);
			break;
		case OP_ADVANCE:
			ret = errseq_check_and_advance(&w, &since);
			break;
		}
		ok = w == v->word_after;
		if (v->op == OP_SET || v->op == OP_SET_INVALID || v->op == OP_SAMPLE)
			ok &= (errseq_t)ret == (errseq_t)v->ret;
		else
			ok &= (int)ret == (int)v->ret;
		if (v->op == OP_ADVANCE)
			ok &= since == v->since_after;
		else
			ok &= v->since_after == 0;
		ok &= (kernel_errseq_warnings - warns) == (v->op == OP_SET_INVALID);
		if (!ok) {
			bad++;
			printf("FAIL %s: ret %lld (want %lld) word 0x%08x (want 0x%08x) since 0x%08x (want 0x%08x) warns %lu\n",
			       v->name, ret, v->ret, w, v->word_after, since,
			       v->since_after, kernel_errseq_warnings - warns);
		}
	}
	printf("%u vectors, %u failed\n", i, bad);
	return bad != 0;
}
