/* SPDX-License-Identifier: GPL-2.0 */
/*
 * difftest report (tool/report.c): a campaign's report, as Markdown and as JSON, from
 * the files campaign.sh leaves in its --out directory, or from the N shard directories
 * of one campaign. The command line is difftest.c's; the parsers below are here for
 * the unit tests (tests/test_report.c).
 */
#ifndef DIFFTEST_REPORT_H
#define DIFFTEST_REPORT_H

#include "results.h"

struct report_opts {
	const char *markdown;	/* the Markdown report's file; NULL: stdout, unless json */
	const char *chart;	/* chart.gp: draw the chart next to the Markdown file */
	const char *json;	/* the JSON report's file, or NULL */
	const char *merge;	/* write the shards' merge (rows.tsv, ...) into this directory */
};

/*
 * Read @dirs (one campaign's --out directory, or the shards of one) and write what
 * @o asks for; a line per file written on stdout. Returns the exit status: 0, or 2
 * when a directory is not a finished campaign's, a file in it does not parse
 * (FILE:LINE: what), or the directories are not the shards of one campaign (said on
 * stderr).
 */
int report_run(const struct report_opts *o, int ndirs, char **dirs);

/* An errseq word's parts (liberrseq's errseq.h: errno, SEEN, counter). */
struct report_word {
	unsigned int word;
	int err;		/* the errno, positive; 0: none */
	int seen;
	unsigned int counter;
};
void report_word_decode(unsigned int word, struct report_word *out);

/* One result, as compare prints it: "RET ERRNO" (ERRNO a name, or 0), or "(none)". */
struct report_result {
	int present;
	long ret;
	char err[24];		/* "" for 0 */
};

/* One trace event: "set OBJ 0xWORD", "adv OBJ 0xOLD 0xNEW", "mdadv OBJ 0xOLD 0xNEW". */
struct report_event {
	char text[64];
	char kind[16], obj[32];
	int nwords;		/* 0: not one of those forms (text only) */
	struct report_word word[2];
};

/*
 * A divergence as compare describes it (model/compare.c): "op I (line L) `OP`: model
 * RESULT[ ; RESULT], kernel RESULT[ ; RESULT][ (NOTE)][; trace model [EVENT, ...] kernel
 * [EVENT, ...]]", or a sentence naming "op I (line L) `OP`" (no result, a cut log) or no
 * op at all.
 */
struct report_what {
	int op, line;		/* -1: the text names no op */
	char op_text[320];
	int results;		/* the results were parsed */
	int nres;		/* 1, or 2 for a par line */
	struct report_result model[2], kernel[2];
	char note[200];		/* a par line's outcome, without its parentheses */
	int trace;		/* the trace events were parsed */
	int nev[2];		/* [0] the model's, [1] the kernel's */
	struct report_event ev[2][DT_MAX_TRACE];
};
/* Returns 0 when the text is compare's full form (results, and trace if any), else -1;
 * @w holds what could be read either way. */
int report_parse_what(const char *what, struct report_what *w);

/*
 * A line of difftest judge's output (judge-KERNEL-FS.txt, judge/judge.c and difftest.c's
 * cmd_judge): "JUDGE NAME op I (line L): OP: lost|repeat|invented: WHAT" per op that
 * breaks the contract, "UNJUDGED NAME: WHY" per script not judged, "KNOWN NAME
 * [SWITCHES]" and "UNEXPLAINED NAME: WHY" per breaking script of a kernel judged with
 * known deviations (-c).
 */
struct report_judge_line {
	char kind[16];		/* "judge", "unjudged", "known", "unexplained" */
	char script[DT_NAME_MAX];
	int op, line;		/* JUDGE's op and its line in the script; else -1 */
	char op_text[320];	/* JUDGE: the op */
	char violation[16];	/* JUDGE: "lost", "repeat", "invented"; else "" */
	char what[512];		/* JUDGE: what; UNJUDGED, UNEXPLAINED: why; KNOWN: A+B */
};
/* 1: @l is one of those lines (into @j); 0: it starts with none of their words; -1: it
 * does, but is not one (or a part is too long for @j). */
int report_parse_judge_line(const char *l, struct report_judge_line *j);

/* judge's last line: "judged N script(s) on KERNEL, FS: B breaking the contract[ (K of
 * them known deviations of CONTRACT)], U not judged, O ops judged". */
struct report_judge_summary {
	char kernel[64], fs[32];
	char known_of[320];	/* CONTRACT; "": judged without known deviations */
	long judged, breaking, known, unjudged, ops;
};
/* 0, or -1 when @l is not that line. */
int report_parse_judge_summary(const char *l, struct report_judge_summary *s);

#endif
