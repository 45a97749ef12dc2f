/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test vectors for errseq_t, shared by the liberrseq unit tests and the
 * kernel's KUnit suite: liberrseq keeps it in its tests/ directory, and the
 * kernel a byte-identical copy next to lib/errseq_kunit.c.
 *
 * This file is an X-macro table: define ERRSEQ_VECTOR before including it.
 * Each row is one call on a 32-bit errseq_t word, made from a known state:
 *
 *   ERRSEQ_VECTOR(name, op, word, arg, ret, word_after, since_after)
 *
 *   name        identifier naming the case (stringify it for messages)
 *   op          SET, SET_INVALID, SAMPLE, CHECK or ADVANCE (paste it onto
 *               a prefix of your own, e.g. ERRSEQ_OP_##op)
 *   word        the errseq_t word before the call
 *   arg         SET, SET_INVALID: the err argument of errseq_set();
 *               CHECK: the since argument of errseq_check();
 *               ADVANCE: the since value errseq_check_and_advance() gets a
 *               pointer to; SAMPLE: 0 (unused)
 *   ret         expected return value: an errseq_t for SET, SET_INVALID and
 *               SAMPLE (compare as 32-bit unsigned), an int for CHECK and
 *               ADVANCE
 *   word_after  expected errseq_t word after the call
 *   since_after ADVANCE: the expected since value after the call; 0 (unused)
 *               for every other op
 *
 * SET_INVALID is errseq_set() with an err it must refuse (0, positive, or
 * below -MAX_ERRNO): the kernel WARNs once per such call, liberrseq counts
 * it (errseq_invalid_count()), and the word is left unchanged.
 *
 * Rows written with ERRSEQ_VECTOR_WRAP32 depend on the 19-bit counter of a
 * 32-bit word wrapping to zero; a consumer testing a wider word may define
 * ERRSEQ_VECTOR_WRAP32 to expand to nothing. By default it is ERRSEQ_VECTOR.
 *
 * Layout of the word (MAX_ERRNO is 4095): bits 0-11 errno, bit 12 SEEN
 * (0x1000), bits 13-31 counter (one increment is 0x2000). The expected
 * values were derived from the algorithm in lib/errseq.c and checked by
 * compiling the unmodified Linux 6.1 lib/errseq.c in userspace.
 */
#ifndef ERRSEQ_VECTOR_WRAP32
#define ERRSEQ_VECTOR_WRAP32 ERRSEQ_VECTOR
#define ERRSEQ_VECTORS_DEFINED_WRAP32
#endif

/* errseq_set() on a fresh word: each class of errno lands in the low bits */
ERRSEQ_VECTOR(set_eio_fresh, SET, 0x00000000, -5, 0x00000000, 0x00000005, 0)
ERRSEQ_VECTOR(set_enospc_fresh, SET, 0x00000000, -28, 0x00000000, 0x0000001c, 0)
ERRSEQ_VECTOR(set_edquot_fresh, SET, 0x00000000, -122, 0x00000000, 0x0000007a, 0)
ERRSEQ_VECTOR(set_eperm_fresh, SET, 0x00000000, -1, 0x00000000, 0x00000001, 0)
ERRSEQ_VECTOR(set_eacces_fresh, SET, 0x00000000, -13, 0x00000000, 0x0000000d, 0)
ERRSEQ_VECTOR(set_eagain_fresh, SET, 0x00000000, -11, 0x00000000, 0x0000000b, 0)
ERRSEQ_VECTOR(set_eintr_fresh, SET, 0x00000000, -4, 0x00000000, 0x00000004, 0)
ERRSEQ_VECTOR(set_erestartsys_fresh, SET, 0x00000000, -512, 0x00000000, 0x00000200, 0)
ERRSEQ_VECTOR(set_enotsupp_fresh, SET, 0x00000000, -524, 0x00000000, 0x0000020c, 0)
ERRSEQ_VECTOR(set_max_errno_fresh, SET, 0x00000000, -4095, 0x00000000, 0x00000fff, 0)

/* errseq_set() over an unseen error: replace the errno, no counter bump */
ERRSEQ_VECTOR(set_eio_over_unseen_enospc, SET, 0x0000001c, -5, 0x0000001c, 0x00000005, 0)
ERRSEQ_VECTOR(set_same_unseen_no_change, SET, 0x00000005, -5, 0x00000005, 0x00000005, 0)
ERRSEQ_VECTOR(set_unseen_keeps_counter, SET, 0x00006005, -28, 0x00006005, 0x0000601c, 0)
ERRSEQ_VECTOR(set_same_unseen_counter_no_change, SET, 0x00006005, -5, 0x00006005, 0x00006005, 0)
ERRSEQ_VECTOR(set_max_over_unseen_min, SET, 0x00000001, -4095, 0x00000001, 0x00000fff, 0)

/* errseq_set() over a seen word: clear SEEN, bump the counter once */
ERRSEQ_VECTOR(set_same_after_seen_bumps, SET, 0x00001005, -5, 0x00001005, 0x00002005, 0)
ERRSEQ_VECTOR(set_other_after_seen_bumps, SET, 0x00001005, -28, 0x00001005, 0x0000201c, 0)
ERRSEQ_VECTOR(set_after_seen_counter_3, SET, 0x00007005, -28, 0x00007005, 0x0000801c, 0)
ERRSEQ_VECTOR(set_after_seen_no_errno, SET, 0x00001000, -5, 0x00001000, 0x00002005, 0)
ERRSEQ_VECTOR(set_near_top_bumps, SET, 0xffffd005, -5, 0xffffd005, 0xffffe005, 0)
ERRSEQ_VECTOR(set_unseen_at_top_no_bump, SET, 0xffffe005, -28, 0xffffe005, 0xffffe01c, 0)

/* the counter is 19 bits wide: bumping it from 0x7ffff wraps it to zero */
ERRSEQ_VECTOR_WRAP32(set_wrap_same_errno, SET, 0xfffff005, -5, 0xfffff005, 0x00000005, 0)
ERRSEQ_VECTOR_WRAP32(set_wrap_other_errno, SET, 0xfffff01c, -5, 0xfffff01c, 0x00000005, 0)
ERRSEQ_VECTOR_WRAP32(set_wrap_no_errno, SET, 0xfffff000, -28, 0xfffff000, 0x0000001c, 0)

/* invalid err: refused (the kernel WARNs), the word is unchanged */
ERRSEQ_VECTOR(invalid_zero_fresh, SET_INVALID, 0x00000000, 0, 0x00000000, 0x00000000, 0)
ERRSEQ_VECTOR(invalid_zero_keeps_error, SET_INVALID, 0x00001005, 0, 0x00001005, 0x00001005, 0)
ERRSEQ_VECTOR(invalid_positive_one, SET_INVALID, 0x00000000, 1, 0x00000000, 0x00000000, 0)
ERRSEQ_VECTOR(invalid_positive_eio, SET_INVALID, 0x00000005, 5, 0x00000005, 0x00000005, 0)
ERRSEQ_VECTOR(invalid_int_max, SET_INVALID, 0x00002005, 2147483647, 0x00002005, 0x00002005, 0)
ERRSEQ_VECTOR(invalid_minus_4096, SET_INVALID, 0x00002005, -4096, 0x00002005, 0x00002005, 0)
ERRSEQ_VECTOR(invalid_minus_100000, SET_INVALID, 0x00001000, -100000, 0x00001000, 0x00001000, 0)

/* errseq_sample(): 0 while an error is unseen, else the word itself */
ERRSEQ_VECTOR(sample_zero, SAMPLE, 0x00000000, 0, 0x00000000, 0x00000000, 0)
ERRSEQ_VECTOR(sample_unseen, SAMPLE, 0x00000005, 0, 0x00000000, 0x00000005, 0)
ERRSEQ_VECTOR(sample_unseen_counter, SAMPLE, 0x00006005, 0, 0x00000000, 0x00006005, 0)
ERRSEQ_VECTOR(sample_seen, SAMPLE, 0x00001005, 0, 0x00001005, 0x00001005, 0)
ERRSEQ_VECTOR(sample_seen_counter, SAMPLE, 0x0000701c, 0, 0x0000701c, 0x0000701c, 0)
ERRSEQ_VECTOR(sample_seen_no_errno, SAMPLE, 0x00001000, 0, 0x00001000, 0x00001000, 0)
ERRSEQ_VECTOR(sample_seen_top, SAMPLE, 0xfffff005, 0, 0xfffff005, 0xfffff005, 0)

/* errseq_check(): the errno if the word differs from since; never marks */
ERRSEQ_VECTOR(check_zero_zero, CHECK, 0x00000000, 0x00000000, 0, 0x00000000, 0)
ERRSEQ_VECTOR(check_equal_seen, CHECK, 0x00001005, 0x00001005, 0, 0x00001005, 0)
ERRSEQ_VECTOR(check_new_unseen, CHECK, 0x00000005, 0x00000000, -5, 0x00000005, 0)
ERRSEQ_VECTOR(check_new_after_seen, CHECK, 0x00002005, 0x00001005, -5, 0x00002005, 0)
ERRSEQ_VECTOR(check_enospc_after_eio, CHECK, 0x0000301c, 0x00001005, -28, 0x0000301c, 0)
ERRSEQ_VECTOR(check_seen_bit_differs, CHECK, 0x00001005, 0x00000005, -5, 0x00001005, 0)
ERRSEQ_VECTOR(check_differs_no_errno, CHECK, 0x00001000, 0x00000000, 0, 0x00001000, 0)
ERRSEQ_VECTOR(check_max_errno, CHECK, 0x00000fff, 0x00000000, -4095, 0x00000fff, 0)

/* errseq_check_and_advance(): report, mark SEEN, move since to the word */
ERRSEQ_VECTOR(advance_nothing, ADVANCE, 0x00000000, 0x00000000, 0, 0x00000000, 0x00000000)
ERRSEQ_VECTOR(advance_marks_seen, ADVANCE, 0x00000005, 0x00000000, -5, 0x00001005, 0x00001005)
ERRSEQ_VECTOR(advance_already_seen, ADVANCE, 0x00001005, 0x00000000, -5, 0x00001005, 0x00001005)
ERRSEQ_VECTOR(advance_up_to_date, ADVANCE, 0x00001005, 0x00001005, 0, 0x00001005, 0x00001005)
ERRSEQ_VECTOR(advance_new_after_seen, ADVANCE, 0x00002005, 0x00001005, -5, 0x00003005, 0x00003005)
ERRSEQ_VECTOR(advance_enospc, ADVANCE, 0x0000601c, 0x00001005, -28, 0x0000701c, 0x0000701c)
ERRSEQ_VECTOR(advance_stale_no_errno, ADVANCE, 0x00000000, 0x00001005, 0, 0x00001000, 0x00001000)
ERRSEQ_VECTOR(advance_top_counter, ADVANCE, 0xffffe005, 0xffffd005, -5, 0xfffff005, 0xfffff005)
ERRSEQ_VECTOR(advance_after_wrap, ADVANCE, 0x00000005, 0xfffff005, -5, 0x00001005, 0x00001005)
ERRSEQ_VECTOR(advance_max_errno, ADVANCE, 0x00000fff, 0x00000000, -4095, 0x00001fff, 0x00001fff)

#ifdef ERRSEQ_VECTORS_DEFINED_WRAP32
#undef ERRSEQ_VECTOR_WRAP32
#undef ERRSEQ_VECTORS_DEFINED_WRAP32
#endif
