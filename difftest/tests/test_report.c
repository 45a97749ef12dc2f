// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of difftest report's pieces (tool/report.c, tool/json.c): an errseq word
 * decoded into errno, SEEN and counter; compare's divergence text parsed back; the
 * JSON writer's escapes and nesting.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"

START_TEST(t_word_decode)
{
	static const struct {
		unsigned int word;
		int err, seen;
		unsigned int counter;
	} v[] = {
		{0x0, 0, 0, 0},			/* never an error */
		{0x1c, ENOSPC, 0, 0},		/* ENOSPC, nobody has seen it */
		{0x1005, EIO, 1, 0},		/* EIO, seen */
		{0x301c, ENOSPC, 1, 1},		/* a seen error replaced once, seen again */
		{0x5005, EIO, 1, 2},
		{0x2005, EIO, 0, 1},
		{0xffffffffU, 4095, 1, 0x7ffff},	/* every bit: the 19-bit counter's top */
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct report_word w;

		report_word_decode(v[i].word, &w);
		ck_assert_uint_eq(w.word, v[i].word);
		ck_assert_int_eq(w.err, v[i].err);
		ck_assert_int_eq(w.seen, v[i].seen);
		ck_assert_uint_eq(w.counter, v[i].counter);
	}
}
END_TEST

START_TEST(t_what_one_op)
{
	struct report_what w;

	ck_assert_int_eq(report_parse_what("op 4 (line 174) `fsync d0`: model -1 EIO, kernel 0 0; "
					   "trace model [mdadv f0 0x0 0x1005] kernel []", &w), 0);
	ck_assert_int_eq(w.op, 4);
	ck_assert_int_eq(w.line, 174);
	ck_assert_str_eq(w.op_text, "fsync d0");
	ck_assert_int_eq(w.results, 1);
	ck_assert_int_eq(w.nres, 1);
	ck_assert_int_eq(w.model[0].present, 1);
	ck_assert_int_eq(w.model[0].ret, -1);
	ck_assert_str_eq(w.model[0].err, "EIO");
	ck_assert_int_eq(w.kernel[0].ret, 0);
	ck_assert_str_eq(w.kernel[0].err, "");
	ck_assert_int_eq(w.trace, 1);
	ck_assert_int_eq(w.nev[0], 1);
	ck_assert_int_eq(w.nev[1], 0);
	ck_assert_str_eq(w.ev[0][0].kind, "mdadv");
	ck_assert_str_eq(w.ev[0][0].obj, "f0");
	ck_assert_int_eq(w.ev[0][0].nwords, 2);
	ck_assert_uint_eq(w.ev[0][0].word[0].word, 0);
	ck_assert_int_eq(w.ev[0][0].word[1].err, EIO);
	ck_assert_int_eq(w.ev[0][0].word[1].seen, 1);
	ck_assert_str_eq(w.note, "");
}
END_TEST

START_TEST(t_what_par)
{
	struct report_what w;

	ck_assert_int_eq(report_parse_what(
		"op 21 (line 89) `par fsync d1 ; fsync d3`: model -1 EIO ; 0 0, kernel -1 EIO ; "
		"(none) (the allowed outcome with the kernel's results, of 4; only the trace "
		"differs); trace model [adv f0 0x301c 0x5005, set bdev 0x101c] kernel [adv f0 "
		"0x301c 0x5005]", &w), 0);
	ck_assert_int_eq(w.nres, 2);
	ck_assert_str_eq(w.model[1].err, "");
	ck_assert_int_eq(w.model[1].present, 1);
	ck_assert_int_eq(w.kernel[1].present, 0);
	ck_assert_str_eq(w.note, "the allowed outcome with the kernel's results, of 4; only the "
			 "trace differs");
	ck_assert_int_eq(w.nev[0], 2);
	ck_assert_int_eq(w.ev[0][0].word[0].counter, 1);
	ck_assert_int_eq(w.ev[0][0].word[1].counter, 2);
	ck_assert_str_eq(w.ev[0][1].kind, "set");
	ck_assert_str_eq(w.ev[0][1].obj, "bdev");
	ck_assert_int_eq(w.ev[0][1].nwords, 1);
	ck_assert_int_eq(w.ev[0][1].word[0].err, ENOSPC);
	ck_assert_int_eq(w.nev[1], 1);
	ck_assert_str_eq(w.ev[1][0].text, "adv f0 0x301c 0x5005");
}
END_TEST

/* The other texts compare writes: their op is read, the rest is not compare's full
 * form; a text cut at compare's 512 bytes is not read as whole. */
START_TEST(t_what_other)
{
	struct report_what w;

	ck_assert_int_eq(report_parse_what("no result from the guest for op 56 (line 313) "
					   "`par syncfs d0 ; syncfs d1`", &w), -1);
	ck_assert_int_eq(w.op, 56);
	ck_assert_int_eq(w.line, 313);
	ck_assert_str_eq(w.op_text, "par syncfs d0 ; syncfs d1");
	ck_assert_int_eq(w.results, 0);
	ck_assert_int_eq(report_parse_what("guest did not finish the script (no 'DT E')", &w), -1);
	ck_assert_int_eq(w.op, -1);
	ck_assert_int_eq(report_parse_what("op 3 (line 7) `fsync d0`: model -1 ENOSPC, kernel -1 "
					   "ENOSPC; trace model [adv f0 0x0 0x101c] kernel [adv f0 0x0 0x1",
					   &w), -1);
	ck_assert_int_eq(w.results, 1);
	ck_assert_int_eq(w.trace, 0);
	/* no trace (a kernel without the tracepoints): the results alone */
	ck_assert_int_eq(report_parse_what("op 2 (line 5) `syncfs d1`: model -1 EIO, kernel 0 0",
					   &w), 0);
	ck_assert_int_eq(w.trace, 0);
	ck_assert_str_eq(w.model[0].err, "EIO");
}
END_TEST

/* What the writer wrote into a memory stream. */
static char *written(void (*fn)(struct json *))
{
	struct json j;
	char *buf;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	json_init(&j, f);
	fn(&j);
	fclose(f);
	return buf;
}

static void strings(struct json *j)
{
	json_object(j, NULL);
	/* a quote, a backslash, a newline, a tab, a control byte, a lone 0xff, a valid
	 * é, a cut 3-byte sequence, an overlong '/' */
	json_string(j, "s", "q\"b\\n\nt\tc\x01x\xff" "\xc3\xa9" "\xe2\x82" "\xc0\xaf");
	json_stringn(j, "n", "abcdef", 3);
	json_string(j, "null", NULL);
	json_finish(j);
}

START_TEST(t_json_strings)
{
	char *s = written(strings);

	ck_assert_str_eq(s, "{\n  \"s\": \"q\\\"b\\\\n\\nt\\tc\\u0001x\\ufffd\xc3\xa9\\ufffd\\ufffd"
			 "\\ufffd\\ufffd\",\n  \"n\": \"abc\",\n  \"null\": null\n}\n");
	free(s);
}
END_TEST

static void nesting(struct json *j)
{
	json_object(j, NULL);
	json_array(j, "empty");
	json_end(j);
	json_object(j, "none");
	json_end(j);
	json_array(j, "a");
	json_int(j, NULL, -3);
	json_double(j, NULL, 2.26, 1);
	json_double(j, NULL, INFINITY, 1);
	json_bool(j, NULL, 1);
	json_object(j, NULL);
	json_bool(j, "f", 0);
	json_finish(j);
}

START_TEST(t_json_nesting)
{
	char *s = written(nesting);

	ck_assert_str_eq(s, "{\n  \"empty\": [],\n  \"none\": {},\n  \"a\": [\n    -3,\n    2.3,\n"
			 "    null,\n    true,\n    {\n      \"f\": false\n    }\n  ]\n}\n");
	free(s);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		t_word_decode, t_what_one_op, t_what_par, t_what_other, t_json_strings,
		t_json_nesting,
	};
	TCase *tc = tcase_create("report");
	Suite *s = suite_create("difftest report");
	SRunner *sr = srunner_create(s);
	int failed;

	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		tcase_add_test(tc, tests[i]);
	suite_add_tcase(s, tc);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
