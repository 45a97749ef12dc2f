// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of difftest report's pieces (tool/report.c, tool/json.c): an errseq word
 * decoded into errno, SEEN and counter; compare's divergence text parsed back; the
 * JSON writer's escapes and nesting; difftest judge's lines and summary read back; the
 * report of a campaign whose kernel breaks the contract itself (argv[1]:
 * tests/report/judged) says what judge said.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* judge's lines, each kind read back; what is not one of them, or not whole, is not. */
START_TEST(t_judge_lines)
{
	struct report_judge_line j;

	ck_assert_int_eq(report_parse_judge_line("JUDGE scn.par-syncfs op 16 (line 273): par "
						 "syncfs d0 ; syncfs d0: repeat: syncfs reported EIO "
						 "again", &j), 1);
	ck_assert_str_eq(j.kind, "judge");
	ck_assert_str_eq(j.script, "scn.par-syncfs");
	ck_assert_int_eq(j.op, 16);
	ck_assert_int_eq(j.line, 273);
	ck_assert_str_eq(j.op_text, "par syncfs d0 ; syncfs d0");
	ck_assert_str_eq(j.violation, "repeat");
	ck_assert_str_eq(j.what, "syncfs reported EIO again");
	ck_assert_int_eq(report_parse_judge_line("JUDGE random.s1002.39~r1c4 op 0 (line 2): fsync "
						 "d1: lost: returned 0; owed EIO|ENOSPC", &j), 1);
	ck_assert_str_eq(j.script, "random.s1002.39~r1c4");
	ck_assert_int_eq(j.op, 0);
	ck_assert_str_eq(j.op_text, "fsync d1");
	ck_assert_str_eq(j.violation, "lost");
	ck_assert_str_eq(j.what, "returned 0; owed EIO|ENOSPC");
	ck_assert_int_eq(report_parse_judge_line("KNOWN scn.meta [md_cursor+syncfs_cursor_only]",
						 &j), 1);
	ck_assert_str_eq(j.kind, "known");
	ck_assert_str_eq(j.script, "scn.meta");
	ck_assert_str_eq(j.what, "md_cursor+syncfs_cursor_only");
	ck_assert_int_eq(j.op, -1);
	ck_assert_str_eq(j.violation, "");
	ck_assert_int_eq(report_parse_judge_line("UNJUDGED scn.sfr: the guest did not finish it",
						 &j), 1);
	ck_assert_str_eq(j.kind, "unjudged");
	ck_assert_str_eq(j.what, "the guest did not finish it");
	ck_assert_int_eq(report_parse_judge_line("UNEXPLAINED scn.meta: no switch of the contract "
						 "accounts for op 9", &j), 1);
	ck_assert_str_eq(j.kind, "unexplained");
	ck_assert_str_eq(j.what, "no switch of the contract accounts for op 9");
	/* not judge's lines at all */
	ck_assert_int_eq(report_parse_judge_line("judged 1 script(s) on k, ext2: 0 breaking the "
						 "contract, 0 not judged, 3 ops judged", &j), 0);
	ck_assert_int_eq(report_parse_judge_line("DIVERGE scn.meta [unexplained]: x", &j), 0);
	ck_assert_int_eq(report_parse_judge_line("JUDGEMENT", &j), 0);
	/* judge's words, not its lines */
	ck_assert_int_eq(report_parse_judge_line("JUDGE scn.meta op nine", &j), -1);
	ck_assert_int_eq(report_parse_judge_line("JUDGE scn.meta op 9 (line 2): fsync d0: stolen: "
						 "x", &j), -1);
	ck_assert_int_eq(report_parse_judge_line("JUDGE scn.meta op 9 (line 2): fsync d0: lost: ",
						 &j), -1);
	ck_assert_int_eq(report_parse_judge_line("JUDGE scn.meta op 9 (line 2): : lost: x", &j), -1);
	ck_assert_int_eq(report_parse_judge_line("JUDGE  op 9 (line 2): fsync d0: lost: x", &j), -1);
	ck_assert_int_eq(report_parse_judge_line("KNOWN scn.meta", &j), -1);
	ck_assert_int_eq(report_parse_judge_line("KNOWN scn.meta []", &j), -1);
	ck_assert_int_eq(report_parse_judge_line("UNJUDGED scn.sfr", &j), -1);
	ck_assert_int_eq(report_parse_judge_line("UNJUDGED scn.sfr: ", &j), -1);
	/* a name longer than a script's */
	ck_assert_int_eq(report_parse_judge_line("UNJUDGED scn.0123456789012345678901234567890123"
						 "456789012345678901234567890: x", &j), -1);
}
END_TEST

/* judge's summary, with known deviations (a contract's text has parentheses) and
 * without; what is not that line is not. */
START_TEST(t_judge_summary)
{
	struct report_judge_summary s;

	ck_assert_int_eq(report_parse_judge_summary(
		"judged 21 script(s) on stock, ext4-ordered: 5 breaking the contract (2 of them "
		"known deviations of custom (md_cursor=1 keep_unseen=1 falloc_cursor=0 "
		"linux=6.12)), 0 not judged, 423 ops judged", &s), 0);
	ck_assert_str_eq(s.kernel, "stock");
	ck_assert_str_eq(s.fs, "ext4-ordered");
	ck_assert_int_eq(s.judged, 21);
	ck_assert_int_eq(s.breaking, 5);
	ck_assert_int_eq(s.known, 2);
	ck_assert_str_eq(s.known_of, "custom (md_cursor=1 keep_unseen=1 falloc_cursor=0 "
			 "linux=6.12)");
	ck_assert_int_eq(s.unjudged, 0);
	ck_assert_int_eq(s.ops, 423);
	ck_assert_int_eq(report_parse_judge_summary(
		"judged 14 script(s) on patched, ext2: 0 breaking the contract, 4 not judged, 341 "
		"ops judged", &s), 0);
	ck_assert_str_eq(s.kernel, "patched");
	ck_assert_str_eq(s.fs, "ext2");
	ck_assert_str_eq(s.known_of, "");
	ck_assert_int_eq(s.known, 0);
	ck_assert_int_eq(s.unjudged, 4);
	ck_assert_int_eq(s.ops, 341);
	/* a kernel's name may have a comma, a mode has none */
	ck_assert_int_eq(report_parse_judge_summary(
		"judged 1 script(s) on my, kernel, xfs: 1 breaking the contract, 0 not judged, 5 "
		"ops judged", &s), 0);
	ck_assert_str_eq(s.kernel, "my, kernel");
	ck_assert_str_eq(s.fs, "xfs");
	ck_assert_int_eq(report_parse_judge_summary("judged 1 script(s) on k, ext2: 0 breaking the "
						    "contract, 0 not judged", &s), -1);
	ck_assert_int_eq(report_parse_judge_summary("judged 1 script(s) on k, ext2: 0 breaking the "
						    "contract, 0 not judged, 3 ops judged!", &s), -1);
	ck_assert_int_eq(report_parse_judge_summary("judged 1 script(s) on k, ext2: 0 breaking the "
						    "contract (1 of them known), 0 not judged, 3 "
						    "ops judged", &s), -1);
	ck_assert_int_eq(report_parse_judge_summary("judged x script(s) on k, ext2: 0 breaking the "
						    "contract, 0 not judged, 3 ops judged", &s), -1);
	ck_assert_int_eq(report_parse_judge_summary("compared 1 script(s) on k, ext2, contract "
						    "stock: 0 divergent", &s), -1);
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

/* The campaign directory of t_report_judged (argv[1]). */
static const char *judged_dir;

/* The whole of @path, NUL-terminated. */
static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int ch;

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	ck_assert_ptr_nonnull(m);
	while ((ch = getc(f)) != EOF)
		putc(ch, m);
	fclose(f);
	fclose(m);
	return buf;
}

/* Does @text hold @line as a whole line? */
static int has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return 1;
	return 0;
}

/*
 * The report of tests/report/judged, in which the patched kernel breaks the contract
 * itself (judge-patched-ext4-ordered.txt: an error lost) and its guest did not finish
 * ext2's batch (judge-patched-ext2.txt: four scripts not judged): the Markdown says the
 * campaign failed and why, has each judge output's counts and every line of it that is
 * not a known deviation (the stock kernel's, with their JUDGE lines: counted, not
 * listed), the JSON every line.
 */
START_TEST(t_report_judged)
{
	char tmp[] = "/tmp/dt-report-XXXXXX", *md, *js, *mtext, *jtext;
	struct report_opts o = {0};
	char *dirs[1];
	glob_t g;
	int judge_lines = 0;

	ck_assert_ptr_nonnull(judged_dir);
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	md = NULL;
	js = NULL;
	ck_assert_int_ne(asprintf(&md, "%s/report.md", tmp), -1);
	ck_assert_int_ne(asprintf(&js, "%s/report.json", tmp), -1);
	o.markdown = md;
	o.json = js;
	dirs[0] = (char *)judged_dir;
	ck_assert_int_eq(report_run(&o, 1, dirs), 0);
	mtext = read_all(md);
	jtext = read_all(js);
	ck_assert_msg(has_line(mtext, "| patched | ext4-ordered | 18 | 1 | - | 0 | 398 |"),
		      "no judge row of patched, ext4-ordered");
	ck_assert_msg(has_line(mtext, "| patched | ext2 | 14 | 0 | - | 4 | 341 |"),
		      "no judge row of patched, ext2");
	ck_assert_msg(has_line(mtext, "| stock | ext2 | 17 | 1 | 1 | 0 | 387 |"),
		      "no judge row of stock, ext2");
	/* the verdict, and the contract itself among its reasons */
	ck_assert_msg(strstr(mtext, "\n**Verdict: failed** (campaign.sh's exit status 1): ") &&
		      strstr(mtext, "; patched broke the contract itself on ext4-ordered (difftest "
			     "judge);"), "no verdict saying that patched broke the contract");
	{
		char *pat = NULL;

		ck_assert_int_ne(asprintf(&pat, "%s/judge-*.txt", judged_dir), -1);
		ck_assert_int_eq(glob(pat, 0, NULL, &g), 0);
		free(pat);
	}
	ck_assert_uint_eq(g.gl_pathc, 4);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char *text = read_all(g.gl_pathv[i]), *p = text, *l;
		int known = strstr(text, "\nKNOWN ") || !strncmp(text, "KNOWN ", 6);

		while ((l = strsep(&p, "\n")) && p && *p) {
			char *q = NULL;

			/* (the lines but the summary, the last) */
			if (!strncmp(l, "UNJUDGED ", 9) || !strncmp(l, "UNEXPLAINED ", 12) ||
			    (!strncmp(l, "JUDGE ", 6) && !known)) {
				ck_assert_msg(has_line(mtext, l), "the Markdown lacks '%s' (%s)", l,
					      g.gl_pathv[i]);
				judge_lines++;
			}
			ck_assert_int_ne(asprintf(&q, "\"text\": \"%s\",", l), -1);
			ck_assert_msg(strstr(jtext, q) != NULL, "the JSON lacks '%s' (%s)", l,
				      g.gl_pathv[i]);
			free(q);
		}
		free(text);
	}
	/* the lost error, and the four scripts the guest did not finish */
	ck_assert_int_eq(judge_lines, 5);
	globfree(&g);
	unlink(md);
	unlink(js);
	rmdir(tmp);
	free(md);
	free(js);
	free(mtext);
	free(jtext);
}
END_TEST

int main(int argc, char **argv)
{
	const TTest *const tests[] = {
		t_word_decode, t_what_one_op, t_what_par, t_what_other, t_json_strings,
		t_json_nesting, t_judge_lines, t_judge_summary, t_report_judged,
	};
	TCase *tc = tcase_create("report");
	Suite *s = suite_create("difftest report");
	SRunner *sr = srunner_create(s);
	int failed;

	judged_dir = argc > 1 ? argv[1] : NULL;
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		tcase_add_test(tc, tests[i]);
	suite_add_tcase(s, tc);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
