/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which sanitizer runtime a test binary runs with, printed as its first line
 * ("runtime: ThreadSanitizer"), so that a sanitizer test can require the
 * sanitizer to have been there: a build that lost -fsanitize=thread would
 * otherwise pass unchecked.
 */
#ifndef LIBERRSEQ_TESTS_SAN_RUNTIME_H
#define LIBERRSEQ_TESTS_SAN_RUNTIME_H

/* Defined by the sanitizer runtimes, null (weak) without them. */
extern void __tsan_init(void) __attribute__((weak));
extern void __asan_init(void) __attribute__((weak));

static inline const char *san_runtime(void)
{
	if (__tsan_init)
		return "ThreadSanitizer";
	if (__asan_init)
		return "AddressSanitizer";
	return "plain";
}

#endif /* LIBERRSEQ_TESTS_SAN_RUNTIME_H */
