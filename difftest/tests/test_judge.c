// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the contract checker (difftest judge, judge/judge.c), with Check. Each
 * rule has a script and the results a kernel keeping the contract prints, then the
 * same results with one result planted wrong: the checker must name the op and the
 * kind of the violation.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "results.h"
#include "script.h"

static const struct dt_judge_opts plain;

/* Judge script text @dt (one script, named t) against the guest lines @log. */
static struct dt_judge_result judge_o(const char *dt, const char *log,
				      const struct dt_judge_opts *o)
{
	struct dt_judge_result res;
	struct dt_results r;
	struct dt_batch b;
	char err[512];
	FILE *f;

	ck_assert_msg(dt_parse(dt, "t.dt", &b, err, sizeof(err)) == 0, "parse: %s", err);
	f = fmemopen((void *)log, strlen(log), "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_msg(dt_results_read(f, "t.log", &b, &r, err, sizeof(err)) == 0, "log: %s", err);
	fclose(f);
	dt_judge(&b.scripts[0], dt_results_get(&r, 0), o, stderr, &res);
	dt_results_free(&r);
	dt_batch_free(&b);
	return res;
}

static struct dt_judge_result judge(const char *dt, const char *log)
{
	return judge_o(dt, log, &plain);
}

static void clean(struct dt_judge_result r)
{
	ck_assert_msg(!r.unjudged, "not judged: %s", r.why);
	ck_assert_int_eq(r.violations, 0);
}

static void breaks(struct dt_judge_result r, int op, enum dt_judge_kind k)
{
	ck_assert_msg(!r.unjudged, "not judged: %s", r.why);
	ck_assert_int_ge(r.violations, 1);
	ck_assert_int_eq(r.first_op, op);
	ck_assert_str_eq(dt_judge_kind_name(r.first_kind), dt_judge_kind_name(k));
}

#define TWO_FDS "script t\nopen d0 f0 creat\nopen d1 f0\nwrite d0\nerror data f0 EIO\n"
#define TWO_FDS_LOG "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 4096 0\nDT R 3 0 0\n"

/* Every description open at the error: each fsync once, then 0. */
START_TEST(t_once_each)
{
	const char *dt = TWO_FDS "fsync d0\nfsync d0\nfsync d1\nfsync d1\nend\n";

	clean(judge(dt, TWO_FDS_LOG "DT R 4 -1 EIO\nDT R 5 0 0\nDT R 6 -1 EIO\nDT R 7 0 0\n"
			"DT E t\n"));
	/* d1 never told: lost */
	breaks(judge(dt, TWO_FDS_LOG "DT R 4 -1 EIO\nDT R 5 0 0\nDT R 6 0 0\nDT R 7 0 0\n"
			 "DT E t\n"), 6, DT_JUDGE_LOST);
	/* d0 told twice */
	breaks(judge(dt, TWO_FDS_LOG "DT R 4 -1 EIO\nDT R 5 -1 EIO\nDT R 6 -1 EIO\nDT R 7 0 0\n"
			 "DT E t\n"), 5, DT_JUDGE_REPEAT);
}
END_TEST

START_TEST(t_invented)
{
	const char *dt = "script t\nopen d0 f0 creat\nwrite d0\nfsync d0\nsyncfs d0\nend\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT R 1 4096 0\n";
	char log[256];

	snprintf(log, sizeof(log), "%sDT R 2 0 0\nDT R 3 0 0\nDT E t\n", head);
	clean(judge(dt, log));
	snprintf(log, sizeof(log), "%sDT R 2 -1 EIO\nDT R 3 0 0\nDT E t\n", head);
	breaks(judge(dt, log), 2, DT_JUDGE_INVENTED);
	snprintf(log, sizeof(log), "%sDT R 2 0 0\nDT R 3 -1 ENOSPC\nDT E t\n", head);
	breaks(judge(dt, log), 3, DT_JUDGE_INVENTED);
	/* an error of its own (a bad descriptor) is not a report */
	snprintf(log, sizeof(log), "%sDT R 2 -1 EBADF\nDT R 3 0 0\nDT E t\n", head);
	clean(judge(dt, log));
}
END_TEST

/* Opened while nobody had been told: owed, after an eviction too; after a report: not. */
START_TEST(t_later_opener)
{
	const char *dt = "script t\nopen d0 f0 creat\nwrite d0\nclose d0\nerror data f0 EIO\n"
			 "evict\nopen d1 f0\nfsync d1\nopen d2 f0\nfsync d2\nend\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT R 1 4096 0\nDT R 2 0 0\nDT R 3 0 0\n"
			   "DT R 4 0 0\nDT R 5 0 0\n";
	struct dt_judge_opts fat = {.evict_forgets = 1};
	char log[512];

	snprintf(log, sizeof(log), "%sDT R 6 -1 EIO\nDT R 7 0 0\nDT R 8 0 0\nDT E t\n", head);
	clean(judge(dt, log));
	/* the stock kernel: the eviction took it */
	snprintf(log, sizeof(log), "%sDT R 6 0 0\nDT R 7 0 0\nDT R 8 0 0\nDT E t\n", head);
	breaks(judge(dt, log), 6, DT_JUDGE_LOST);
	/* vfat, exfat: no identity to keep it by; told or not, once */
	clean(judge_o(dt, log, &fat));
	snprintf(log, sizeof(log), "%sDT R 6 -1 EIO\nDT R 7 0 0\nDT R 8 0 0\nDT E t\n", head);
	clean(judge_o(dt, log, &fat));
	/* d2 opened after d1 was told */
	snprintf(log, sizeof(log), "%sDT R 6 -1 EIO\nDT R 7 0 0\nDT R 8 -1 EIO\nDT E t\n", head);
	breaks(judge(dt, log), 8, DT_JUDGE_REPEAT);
}
END_TEST

/* syncfs: every error of the filesystem, once to each description, its own cursor. */
START_TEST(t_syncfs)
{
	const char *dt = "script t\nopen d0 f0 creat\nopen d1 f1 creat\nerror data f0 EIO\n"
			 "fsync d0\nsyncfs d1\nsyncfs d0\nsyncfs d0\nend\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 0 0\nDT R 3 -1 EIO\n";
	char log[512];

	snprintf(log, sizeof(log), "%sDT R 4 -1 EIO\nDT R 5 -1 EIO\nDT R 6 0 0\nDT E t\n", head);
	clean(judge(dt, log));
	snprintf(log, sizeof(log), "%sDT R 4 0 0\nDT R 5 -1 EIO\nDT R 6 0 0\nDT E t\n", head);
	breaks(judge(dt, log), 4, DT_JUDGE_LOST);
	snprintf(log, sizeof(log), "%sDT R 4 -1 EIO\nDT R 5 -1 EIO\nDT R 6 -1 EIO\nDT E t\n", head);
	breaks(judge(dt, log), 6, DT_JUDGE_REPEAT);
}
END_TEST

/* dup: one open file description, told once */
START_TEST(t_dup)
{
	const char *dt = "script t\nopen d0 f0 creat\ndup d0 d1\nerror data f0 EIO\nfsync d1\n"
			 "fsync d0\nend\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT R 1 1 0\nDT R 2 0 0\nDT R 3 -1 EIO\n";
	char log[256];

	snprintf(log, sizeof(log), "%sDT R 4 0 0\nDT E t\n", head);
	clean(judge(dt, log));
	snprintf(log, sizeof(log), "%sDT R 4 -1 EIO\nDT E t\n", head);
	breaks(judge(dt, log), 4, DT_JUDGE_REPEAT);
}
END_TEST

/* An op that reports an error it did not cause does not take fsync's report. */
START_TEST(t_not_a_sync_call)
{
	const char *dt = "script t\nopen d0 f0 creat\nwrite d0 16384\nerror data f0 EIO\n"
			 "fallocate d0 PUNCH|KEEP 8192 4096\nfdatasync d0\nend\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT R 1 16384 0\nDT R 2 0 0\nDT R 3 -1 EIO\n";
	char log[256];

	snprintf(log, sizeof(log), "%sDT R 4 -1 EIO\nDT E t\n", head);
	clean(judge(dt, log));
	snprintf(log, sizeof(log), "%sDT R 4 0 0\nDT E t\n", head);
	breaks(judge(dt, log), 4, DT_JUDGE_LOST);
}
END_TEST

/* An O_SYNC write is a sync call (one of at least a byte) */
START_TEST(t_osync)
{
	const char *dt = "script t\nopen d0 f0 creat sync\nerror data f0 EIO\nwrite d0 0\n"
			 "write d0\nfsync d0\nend\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 0 0\n";
	char log[256];

	snprintf(log, sizeof(log), "%sDT R 3 -1 EIO\nDT R 4 0 0\nDT E t\n", head);
	clean(judge(dt, log));
	snprintf(log, sizeof(log), "%sDT R 3 4096 0\nDT R 4 0 0\nDT E t\n", head);
	breaks(judge(dt, log), 3, DT_JUDGE_LOST);
}
END_TEST

/* Two syncfs of one description at once: one tells, whichever; not both, not neither */
START_TEST(t_par)
{
	const char *dt = "script t\nopen d0 f0 creat\nerror meta EIO\npar syncfs d0 ; syncfs d0\n"
			 "end\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT T 1 set bdev 0x0\n";
	char log[256];

	snprintf(log, sizeof(log), "%sDT R 2 0 0\nDT R 2.1 -1 EIO\nDT E t\n", head);
	clean(judge(dt, log));
	snprintf(log, sizeof(log), "%sDT R 2 -1 EIO\nDT R 2.1 0 0\nDT E t\n", head);
	clean(judge(dt, log));
	snprintf(log, sizeof(log), "%sDT R 2 -1 EIO\nDT R 2.1 -1 EIO\nDT E t\n", head);
	breaks(judge(dt, log), 2, DT_JUDGE_REPEAT);
	snprintf(log, sizeof(log), "%sDT R 2 0 0\nDT R 2.1 0 0\nDT E t\n", head);
	breaks(judge(dt, log), 2, DT_JUDGE_LOST);
}
END_TEST

/* An error injected at once with a syncfs: before it or after, both kept */
START_TEST(t_par_error)
{
	const char *dt = "script t\nopen d0 f0 creat\npar error meta EIO ; syncfs d0\nsyncfs d0\n"
			 "end\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT T 1 set bdev 0x0\n";
	char log[256];

	snprintf(log, sizeof(log), "%sDT R 1 0 0\nDT R 1.1 0 0\nDT R 2 -1 EIO\nDT E t\n", head);
	clean(judge(dt, log));
	snprintf(log, sizeof(log), "%sDT R 1 0 0\nDT R 1.1 -1 EIO\nDT R 2 0 0\nDT E t\n", head);
	clean(judge(dt, log));
	snprintf(log, sizeof(log), "%sDT R 1 0 0\nDT R 1.1 0 0\nDT R 2 0 0\nDT E t\n", head);
	breaks(judge(dt, log), 2, DT_JUDGE_LOST);
}
END_TEST

/* Real failures are known from the trace's set events; without them, not judged */
START_TEST(t_real)
{
	const char *dt = "script t\nopen d0 f0 creat\nwrite d0\nfail d0\nwrite d0\nfsync d0\n"
			 "fsync d0\nend\n";
	const char *head = "DT R 0 0 0\nDT R 1 4096 0\nDT R 2 0 0\nDT R 3 4096 0\n";
	struct dt_judge_result r;
	char log[512];

	snprintf(log, sizeof(log), "DT S t trace\n%sDT R 4 -1 EIO\nDT T 4 set f0 0x0\n"
		 "DT R 5 0 0\nDT E t\n", head);
	clean(judge(dt, log));
	snprintf(log, sizeof(log), "DT S t trace\n%sDT R 4 0 0\nDT T 4 set f0 0x0\n"
		 "DT R 5 0 0\nDT E t\n", head);
	breaks(judge(dt, log), 4, DT_JUDGE_LOST);
	snprintf(log, sizeof(log), "DT S t\n%sDT R 4 -1 EIO\nDT R 5 0 0\nDT E t\n", head);
	r = judge(dt, log);
	ck_assert_int_eq(r.unjudged, 1);
	ck_assert_ptr_nonnull(strstr(r.why, "no trace events"));
}
END_TEST

/* An error from before a mount is never reported after it */
START_TEST(t_cycle)
{
	const char *dt = "script t\nopen d0 f0 creat\nwrite d0\nclose d0\nerror data f0 EIO\n"
			 "cycle\nopen d1 f0\nfsync d1\nend\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT R 1 4096 0\nDT R 2 0 0\nDT R 3 0 0\n"
			   "DT R 4 0 0\nDT R 5 0 0\n";
	char log[256];

	snprintf(log, sizeof(log), "%sDT R 6 0 0\nDT E t\n", head);
	clean(judge(dt, log));
	snprintf(log, sizeof(log), "%sDT R 6 -1 EIO\nDT E t\n", head);
	breaks(judge(dt, log), 6, DT_JUDGE_INVENTED);
}
END_TEST

/* Metadata errors: syncfs must tell each description; fsync may, once; a directory's
 * fsync (a description of its own each time) only while nobody has been told */
START_TEST(t_meta)
{
	const char *dt = "script t\nerror meta EIO\nfsyncdir\nfsyncdir\nend\n";
	const char *dt2 = "script t\nopen d0 f0 creat\nerror meta EIO\nfsync d0\nfsync d0\n"
			  "syncfs d0\nend\n";

	clean(judge(dt, "DT S t trace\nDT R 0 0 0\nDT R 1 -1 EIO\nDT R 2 0 0\nDT E t\n"));
	clean(judge(dt, "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 0 0\nDT E t\n"));
	breaks(judge(dt, "DT S t trace\nDT R 0 0 0\nDT R 1 -1 EIO\nDT R 2 -1 EIO\nDT E t\n"), 2,
	       DT_JUDGE_REPEAT);
	clean(judge(dt2, "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 -1 EIO\nDT R 3 0 0\n"
			 "DT R 4 -1 EIO\nDT E t\n"));
	clean(judge(dt2, "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 0 0\nDT R 3 0 0\n"
			 "DT R 4 -1 EIO\nDT E t\n"));
	breaks(judge(dt2, "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 -1 EIO\nDT R 3 -1 EIO\n"
			  "DT R 4 -1 EIO\nDT E t\n"), 3, DT_JUDGE_REPEAT);
	breaks(judge(dt2, "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 -1 EIO\nDT R 3 0 0\n"
			  "DT R 4 0 0\nDT E t\n"), 4, DT_JUDGE_LOST);
}
END_TEST

/* A filesystem that stops at a metadata error (6.12's ext4) fails every sync call */
START_TEST(t_stops)
{
	const char *dt = "script t\nopen d0 f0 creat\nerror meta EIO\nfsync d0\nfsync d0\nend\n";
	const char *log = "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 -1 EROFS\n"
			  "DT R 3 -1 EIO\nDT E t\n";
	struct dt_judge_opts stops = {.stops = 1};

	clean(judge_o(dt, log, &stops));
	breaks(judge(dt, log), 3, DT_JUDGE_REPEAT);
}
END_TEST

/* After the journal aborts, the first handle ext4 starts gets EROFS (and shuts the
 * filesystem down): sync_file_range's WRITE in ext4_writepages() returns it before
 * any wait, so the data error is still owed to the WAIT_BEFORE after it (the cold
 * review of ee892ed); fsync's EROFS came after its cursor: a report */
START_TEST(t_stops_sfr_erofs)
{
	const char *dt = "script t\nopen d0 f0 creat\nwrite d0\nerror data d0 ENOSPC\n"
			 "error meta EIO\nsfr d0 WRITE|WAIT_AFTER 0 0\nsfr d0 WAIT_BEFORE 0 0\n"
			 "end\n";
	const char *log = "DT S t trace\nDT R 0 0 0\nDT R 1 4096 0\nDT R 2 0 0\nDT R 3 0 0\n"
			  "DT R 4 -1 EROFS\nDT R 5 -1 ENOSPC\nDT E t\n";
	const char *dt2 = "script t\nopen d0 f0 creat\nwrite d0\nerror data d0 ENOSPC\n"
			  "error meta EIO\nfsync d0\nsfr d0 WAIT_BEFORE 0 0\nend\n";
	struct dt_judge_opts stops = {.stops = 1};

	clean(judge_o(dt, log, &stops));
	breaks(judge_o(dt2, log, &stops), 5, DT_JUDGE_REPEAT);
}
END_TEST

/* No writeback (tmpfs): fsync has nothing to fail; syncfs still tells */
START_TEST(t_no_writeback)
{
	const char *dt = "script t\nopen d0 f0 creat\nerror data f0 EIO\nfsync d0\nsyncfs d0\nend\n";
	struct dt_judge_opts tmpfs = {.no_writeback = 1};

	clean(judge_o(dt, "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 0 0\nDT R 3 -1 EIO\n"
			  "DT E t\n", &tmpfs));
	breaks(judge_o(dt, "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 0 0\nDT R 3 0 0\n"
			   "DT E t\n", &tmpfs), 3, DT_JUDGE_LOST);
}
END_TEST

/* An injection that failed (no block device: ENOTBLK, 15) made no error */
START_TEST(t_failed_injection)
{
	const char *dt = "script t\nopen d0 f0 creat\nerror meta EIO\nsyncfs d0\nend\n";

	clean(judge(dt, "DT S t trace\nDT R 0 0 0\nDT R 1 -1 15\nDT R 2 0 0\nDT E t\n"));
	breaks(judge(dt, "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 0 0\nDT E t\n"), 2,
	       DT_JUDGE_LOST);
}
END_TEST

/* Names: the error stays with the inode through rename; a new file of the name is new */
START_TEST(t_names)
{
	const char *dt = "script t\nopen d0 f0 creat\nwrite d0\nclose d0\nerror data f0 EIO\n"
			 "rename f0 f1\nopen d1 f1\nfsync d1\nopen d2 f0 creat\nfsync d2\nend\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT R 1 4096 0\nDT R 2 0 0\nDT R 3 0 0\n"
			   "DT R 4 0 0\nDT R 5 0 0\n";
	char log[256];

	snprintf(log, sizeof(log), "%sDT R 6 -1 EIO\nDT R 7 0 0\nDT R 8 0 0\nDT E t\n", head);
	clean(judge(dt, log));
	snprintf(log, sizeof(log), "%sDT R 6 0 0\nDT R 7 0 0\nDT R 8 0 0\nDT E t\n", head);
	breaks(judge(dt, log), 6, DT_JUDGE_LOST);
	snprintf(log, sizeof(log), "%sDT R 6 -1 EIO\nDT R 7 0 0\nDT R 8 -1 EIO\nDT E t\n", head);
	breaks(judge(dt, log), 8, DT_JUDGE_INVENTED);
}
END_TEST

/* What cannot be judged is said, not passed */
START_TEST(t_unjudged)
{
	const char *dt = "script t\nopen d0 f0 creat\nfsync d0\nend\n";
	struct dt_judge_opts need = {.need_trace = 1};
	struct dt_judge_result r;

	r = judge(dt, "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\n");
	ck_assert_int_eq(r.unjudged, 1);
	r = judge(dt, "DT S t trace\nDT R 0 0 0\nDT E t\n");
	ck_assert_int_eq(r.unjudged, 1);
	r = judge_o(dt, "DT S t\nDT R 0 0 0\nDT R 1 0 0\nDT E t\n", &need);
	ck_assert_int_eq(r.unjudged, 1);
	r = judge(dt, "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT T 1 lost 3\nDT E t\n");
	ck_assert_int_eq(r.unjudged, 1);
}
END_TEST

/* Per error: told on one channel, a later opener may still be told on the other, need
 * not; told on its own channel, never again */
START_TEST(t_channels)
{
	const char *dt = "script t\nopen d0 f0 creat\nerror data f0 EIO\nfsync d0\nopen d1 f1 creat\n"
			 "syncfs d1\nsyncfs d0\nopen d2 f2 creat\nsyncfs d2\nend\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 -1 EIO\nDT R 3 0 0\n";
	char log[512];

	/* stock: syncfs has a cursor of its own (the superblock's) */
	snprintf(log, sizeof(log), "%sDT R 4 -1 EIO\nDT R 5 -1 EIO\nDT R 6 0 0\nDT R 7 0 0\n"
		 "DT E t\n", head);
	clean(judge(dt, log));
	/* a kernel whose fsync's report marks it seen for syncfs too */
	snprintf(log, sizeof(log), "%sDT R 4 0 0\nDT R 5 -1 EIO\nDT R 6 0 0\nDT R 7 0 0\n"
		 "DT E t\n", head);
	clean(judge(dt, log));
	/* d0 was open: owed by its syncfs whatever */
	snprintf(log, sizeof(log), "%sDT R 4 0 0\nDT R 5 0 0\nDT R 6 0 0\nDT R 7 0 0\nDT E t\n",
		 head);
	breaks(judge(dt, log), 5, DT_JUDGE_LOST);
	/* d2 opened after syncfs had told d1 */
	snprintf(log, sizeof(log), "%sDT R 4 -1 EIO\nDT R 5 -1 EIO\nDT R 6 0 0\nDT R 7 -1 EIO\n"
		 "DT E t\n", head);
	breaks(judge(dt, log), 7, DT_JUDGE_REPEAT);
}
END_TEST

/* sync_file_range reports a file's data errors, never metadata: fsync still may */
START_TEST(t_sfr_data_only)
{
	const char *dt = "script t\nopen d0 f0 creat\nerror meta ENOSPC\nerror data f0 EIO\n"
			 "sfr d0 WAIT_BEFORE\nfsync d0\nfsync d0\nend\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT T 1 set bdev 0x0\nDT R 2 0 0\n";
	char log[512];

	snprintf(log, sizeof(log), "%sDT R 3 -1 EIO\nDT R 4 -1 ENOSPC\nDT R 5 0 0\nDT E t\n", head);
	clean(judge(dt, log));
	snprintf(log, sizeof(log), "%sDT R 3 -1 EIO\nDT R 4 -1 ENOSPC\nDT R 5 -1 ENOSPC\nDT E t\n",
		 head);
	breaks(judge(dt, log), 5, DT_JUDGE_REPEAT);
	/* with only a metadata error, sfr has nothing to report */
	clean(judge("script t\nopen d0 f0 creat\nerror meta EIO\nsfr d0 WAIT_AFTER\nend\n",
		    "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 0 0\nDT E t\n"));
	breaks(judge("script t\nopen d0 f0 creat\nerror meta EIO\nsfr d0 WAIT_AFTER\nend\n",
		     "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 -1 EIO\nDT E t\n"), 2,
	       DT_JUDGE_INVENTED);
}
END_TEST

/* The trace names an inode after the name it was created under: an injection through
 * its new name records "set" under the old one, its own event, not a second error */
START_TEST(t_labels)
{
	const char *dt = "script t\nopen d0 f1 creat\nclose d0\nrename f1 f2\nopen d1 f1 creat\n"
			 "error data f2 EIO\nfsync d1\nopen d2 f2\nfsync d2\nend\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 0 0\nDT R 3 0 0\n"
			   "DT R 4 0 0\nDT T 4 set f1 0x0\n";
	char log[512];

	snprintf(log, sizeof(log), "%sDT R 5 0 0\nDT R 6 0 0\nDT R 7 -1 EIO\nDT E t\n", head);
	clean(judge(dt, log));
	snprintf(log, sizeof(log), "%sDT R 5 0 0\nDT R 6 0 0\nDT R 7 0 0\nDT E t\n", head);
	breaks(judge(dt, log), 7, DT_JUDGE_LOST);
}
END_TEST

/* A failed open may have made the file (tmpfs: O_CREAT|O_DIRECT, EINVAL) */
START_TEST(t_failed_open_made_it)
{
	const char *dt = "script t\nopen d0 f1 creat direct\nerror data f1 ENOSPC\nopen d1 f2 creat\n"
			 "syncfs d1\nend\n";
	struct dt_judge_opts tmpfs = {.no_writeback = 1};

	clean(judge_o(dt, "DT S t trace\nDT R 0 -1 EINVAL\nDT R 1 0 0\nDT T 1 set f1 0x0\n"
			  "DT R 2 0 0\nDT R 3 -1 ENOSPC\nDT E t\n", &tmpfs));
	breaks(judge_o(dt, "DT S t trace\nDT R 0 -1 EINVAL\nDT R 1 0 0\nDT T 1 set f1 0x0\n"
			   "DT R 2 0 0\nDT R 3 0 0\nDT E t\n", &tmpfs), 3, DT_JUDGE_LOST);
}
END_TEST

/* The filesystem's block device: a metadata error owed to its descriptors; 6.1's ext4
 * reads it itself, so a later opener may be told, need not */
START_TEST(t_dev)
{
	const char *dt = "script t\nopen d0 dev\nerror meta EIO\nopen d1 dev\nfsync d0\nfsync d1\n"
			 "end\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT T 1 set bdev 0x0\nDT R 2 0 0\n";
	struct dt_judge_opts ext4 = {.reads_dev = 1};
	char log[256];

	snprintf(log, sizeof(log), "%sDT R 3 -1 EIO\nDT R 4 -1 EIO\nDT E t\n", head);
	clean(judge(dt, log));
	snprintf(log, sizeof(log), "%sDT R 3 -1 EIO\nDT R 4 0 0\nDT E t\n", head);
	breaks(judge(dt, log), 4, DT_JUDGE_LOST);
	clean(judge_o(dt, log, &ext4));
	snprintf(log, sizeof(log), "%sDT R 3 0 0\nDT R 4 0 0\nDT E t\n", head);
	breaks(judge_o(dt, log, &ext4), 3, DT_JUDGE_LOST);
}
END_TEST

/* An O_SYNC write's error is its own or a report: both ways are followed */
START_TEST(t_osync_two_ways)
{
	const char *dt = "script t\nopen d0 f0 creat dsync\nerror data f0 EIO\nwrite d0\nfsync d0\n"
			 "end\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\n";
	char log[256];

	/* a report, then nothing left */
	snprintf(log, sizeof(log), "%sDT R 2 -1 EIO\nDT R 3 0 0\nDT E t\n", head);
	clean(judge(dt, log));
	/* its own error (no space), then fsync's report */
	snprintf(log, sizeof(log), "%sDT R 2 -1 ENOSPC\nDT R 3 -1 EIO\nDT E t\n", head);
	clean(judge(dt, log));
	/* EIO twice: without fail no write fails with EIO of its own: a repeat */
	snprintf(log, sizeof(log), "%sDT R 2 -1 EIO\nDT R 3 -1 EIO\nDT E t\n", head);
	breaks(judge(dt, log), 3, DT_JUDGE_REPEAT);
}
END_TEST

/* A par line's errors come from its ops' own write-back: not after both returned */
START_TEST(t_par_not_after)
{
	const char *dt = "script t\nopen d0 f0 creat\nwrite d0\npar fsync d0 ; fsync d0\nend\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT R 1 4096 0\n";
	char log[256];

	snprintf(log, sizeof(log), "%sDT R 2 -1 EIO\nDT R 2.1 0 0\nDT T 2 set f0 0x0\nDT E t\n",
		 head);
	clean(judge(dt, log));
	snprintf(log, sizeof(log), "%sDT R 2 0 0\nDT R 2.1 0 0\nDT T 2 set f0 0x0\nDT E t\n",
		 head);
	breaks(judge(dt, log), 2, DT_JUDGE_LOST);
}
END_TEST

/* An error on an inode the trace cannot place is still the filesystem's; a label two
 * live inodes share cannot be placed at all */
START_TEST(t_trace_objects)
{
	const char *dt = "script t\nopen d0 f0 creat\nwrite d0\nfsync d0\nsyncfs d0\nend\n";
	const char *dt2 = "script t\nopen d0 f0 creat\nunlink f0\nopen d1 f0 creat\nwrite d0\n"
			  "fsync d0\nend\n";
	struct dt_judge_result r;

	clean(judge(dt, "DT S t trace\nDT R 0 0 0\nDT R 1 4096 0\nDT R 2 0 0\nDT T 2 set ino0x1c 0x0\n"
			"DT R 3 -1 EIO\nDT E t\n"));
	breaks(judge(dt, "DT S t trace\nDT R 0 0 0\nDT R 1 4096 0\nDT R 2 0 0\n"
			 "DT T 2 set ino0x1c 0x0\nDT R 3 0 0\nDT E t\n"), 3, DT_JUDGE_LOST);
	r = judge(dt2, "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 0 0\nDT R 3 4096 0\n"
		       "DT R 4 -1 EIO\nDT T 4 set f0 0x0\nDT E t\n");
	ck_assert_int_eq(r.unjudged, 1);
	ck_assert_int_eq(r.violations, 0);
}
END_TEST

/* An errno the script injects is a report even where it could be a call's own */
START_TEST(t_injected_errno)
{
	const char *dt = "script t\nopen d0 f0 creat\nerror data f0 EINVAL\nfsync d0\nfsync d0\nend\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\n";
	char log[256];

	snprintf(log, sizeof(log), "%sDT R 2 -1 EINVAL\nDT R 3 0 0\nDT E t\n", head);
	clean(judge(dt, log));
	snprintf(log, sizeof(log), "%sDT R 2 -1 EINVAL\nDT R 3 -1 EINVAL\nDT E t\n", head);
	breaks(judge(dt, log), 3, DT_JUDGE_REPEAT);
}
END_TEST

/* A new mount has not stopped: the leniency ends there */
START_TEST(t_stops_until_mount)
{
	const char *dt = "script t\nopen d0 f0 creat\nerror meta EIO\nfsync d0\nfsync d0\nclose d0\n"
			 "cycle\nopen d1 f0\nfsync d1\nend\n";
	const char *head = "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 -1 EROFS\nDT R 3 -1 EIO\n"
			   "DT R 4 0 0\nDT R 5 0 0\nDT R 6 0 0\n";
	struct dt_judge_opts stops = {.stops = 1};
	char log[512];

	snprintf(log, sizeof(log), "%sDT R 7 0 0\nDT E t\n", head);
	clean(judge_o(dt, log, &stops));
	snprintf(log, sizeof(log), "%sDT R 7 -1 EIO\nDT E t\n", head);
	breaks(judge_o(dt, log, &stops), 7, DT_JUDGE_INVENTED);
}
END_TEST

/*
 * The directory: its descriptors are owed its mapping's errors where the filesystem
 * writes it through its page cache (ext2), may be told elsewhere; a new name that fails
 * with the directory's earlier error (stock ext2) breaks the contract, again and again
 * (the series before the third review's fixes).
 */
START_TEST(t_dir)
{
	static const struct dt_judge_opts ext2 = {.dir_pagecache = 1};
	const char *dt = "script t\nopen d0 dir\nerror data d0 EIO\nopen d1 f0 creat\n"
			 "open d2 f1 creat\nfsync d0\nfsync d0\nend\n";

	/* patched: the changes 0, the directory's fsync once */
	clean(judge_o(dt, "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT T 1 set dir 0x0\n"
		      "DT R 2 0 0\nDT R 3 0 0\nDT R 4 -1 EIO\nDT R 5 0 0\nDT E t\n", &ext2));
	/* its fsync returning 0: lost on ext2, may on the others */
	breaks(judge_o(dt, "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT T 1 set dir 0x0\n"
		       "DT R 2 0 0\nDT R 3 0 0\nDT R 4 0 0\nDT R 5 0 0\nDT E t\n", &ext2),
	       4, DT_JUDGE_LOST);
	clean(judge(dt, "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT T 1 set dir 0x0\n"
		    "DT R 2 0 0\nDT R 3 0 0\nDT R 4 0 0\nDT R 5 0 0\nDT E t\n"));
	/* stock: the first new name fails with it */
	breaks(judge_o(dt, "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT T 1 set dir 0x0\n"
		       "DT R 2 -1 EIO\nDT R 3 0 0\nDT R 4 -1 EIO\nDT R 5 0 0\nDT E t\n", &ext2),
	       2, DT_JUDGE_INVENTED);
	/* the series before the fixes: every one; the second is a repeat */
	{
		const char *dt2 = "script t\nopen d0 dir\nerror data d0 EIO\nfsync d0\n"
				  "open d1 f0 creat\nopen d2 f1 creat\nend\n";

		clean(judge_o(dt2, "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT T 1 set dir 0x0\n"
			      "DT R 2 -1 EIO\nDT R 3 0 0\nDT R 4 0 0\nDT E t\n", &ext2));
		breaks(judge_o(dt2, "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\n"
			       "DT T 1 set dir 0x0\nDT R 2 -1 EIO\nDT R 3 -1 EIO\n"
			       "DT R 4 -1 EIO\nDT E t\n", &ext2),
		       3, DT_JUDGE_INVENTED);
	}
	/* an ENOSPC of the directory: its flag is AS_ENOSPC, the change's ENOSPC */
	breaks(judge_o("script t\nopen d0 dir\nerror data d0 ENOSPC\nopen d1 f0 creat\nend\n",
		       "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT T 1 set dir 0x0\n"
		       "DT R 2 -1 ENOSPC\nDT E t\n", &ext2),
	       2, DT_JUDGE_INVENTED);
	/* the errseq's errno rather than the flag's (a kernel reporting the directory's
	 * wb_err from each change): EDQUOT, again and again (the cold review) */
	breaks(judge_o("script t\nopen d0 dir\nerror data d0 EDQUOT\nopen d1 f0 creat\n"
		       "open d2 f1 creat\nend\n",
		       "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT T 1 set dir 0x0\n"
		       "DT R 2 -1 EDQUOT\nDT R 3 -1 EDQUOT\nDT E t\n", &ext2),
	       2, DT_JUDGE_INVENTED);
	/* read-only: EROFS is the mount's, even when EROFS was injected */
	clean(judge_o("script t\nopen d0 dir\nerror data d0 EROFS\nremount ro\n"
		      "open d1 f0 creat\nend\n",
		      "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT T 1 set dir 0x0\nDT R 2 0 0\n"
		      "DT R 3 -1 EROFS\nDT E t\n", &ext2));
	breaks(judge_o("script t\nopen d0 dir\nerror data d0 EROFS\nopen d1 f0 creat\nend\n",
		       "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT T 1 set dir 0x0\n"
		       "DT R 2 -1 EROFS\nDT E t\n", &ext2),
	       2, DT_JUDGE_INVENTED);
	/* an existing name is no change of the directory */
	clean(judge_o("script t\nopen d1 f0 creat\nclose d1\nopen d0 dir\n"
		      "error data d0 EIO\nopen d1 f0 creat\nend\n",
		      "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 0 0\nDT R 3 0 0\n"
		      "DT T 3 set dir 0x0\nDT R 4 -1 EIO\nDT E t\n", &ext2));
}
END_TEST

/* From the second cold review: each once let a kernel pass or failed a correct one */
START_TEST(t_review2)
{
	struct dt_judge_opts fat = {.evict_forgets = 1};
	struct dt_judge_result r;

	/* the raw device is not remounted: its error is still owed after a cycle */
	breaks(judge("script t\nopen d0 raw\nwrite d0\nerror data d0 EIO\nclose d0\ncycle\n"
		     "open d1 raw\nfsync d1\nend\n",
		     "DT S t trace\nDT R 0 0 0\nDT R 1 4096 0\nDT R 2 0 0\nDT T 2 set raw 0x0\n"
		     "DT R 3 0 0\nDT R 4 0 0\nDT R 5 0 0\nDT R 6 0 0\nDT E t\n"), 6, DT_JUDGE_LOST);
	/* vfat: eviction forgets the inode's error, not the superblock's (syncfs) */
	breaks(judge_o("script t\nopen d0 f0 creat\nwrite d0\nerror data f0 EIO\nclose d0\nevict\n"
		       "open d1 f0\nsyncfs d1\nend\n",
		       "DT S t trace\nDT R 0 0 0\nDT R 1 4096 0\nDT R 2 0 0\nDT T 2 set f0 0x0\n"
		       "DT R 3 0 0\nDT R 4 0 0\nDT R 5 0 0\nDT R 6 0 0\nDT E t\n", &fat),
	       6, DT_JUDGE_LOST);
	/* without fail no write fails with EIO of its own: O_SYNC writes repeating it */
	breaks(judge("script t\nopen d0 f0 creat sync\nwrite d0\nerror data f0 EIO\nfsync d0\n"
		     "write d0\nwrite d0\nfsync d0\nend\n",
		     "DT S t trace\nDT R 0 0 0\nDT R 1 4096 0\nDT R 2 0 0\nDT T 2 set f0 0x0\n"
		     "DT R 3 -1 EIO\nDT R 4 -1 EIO\nDT R 5 -1 EIO\nDT R 6 0 0\nDT E t\n"),
	       4, DT_JUDGE_REPEAT);
	/* a name an inode was opened through is no label of it (but on vfat, exfat): f1 is
	 * the new file's alone */
	r = judge("script t\nopen d0 f0 creat\nwrite d0\nfsync d0\nlink f0 f1\nopen d1 f1\n"
		  "unlink f1\nopen d2 f1 creat\nwrite d2 8192\nfsync d2\nfail d2\nclose d2\n"
		  "open d2 f1\nwrite d2\nfsync d2\nend\n",
		  "DT S t trace\nDT R 0 0 0\nDT R 1 4096 0\nDT R 2 0 0\nDT R 3 0 0\nDT R 4 0 0\n"
		  "DT R 5 0 0\nDT R 6 0 0\nDT R 7 8192 0\nDT R 8 0 0\nDT R 9 0 0\nDT R 10 0 0\n"
		  "DT R 11 0 0\nDT R 12 4096 0\nDT R 13 -1 EIO\nDT T 13 set f1 0x0\n"
		  "DT T 13 set f1 0x5\nDT E t\n");
	clean(r);
}
END_TEST

/* From the third cold review: a fail that failed (EOPNOTSUPP: vfat) fails nothing, so no
 * write can fail with EIO of its own after it */
START_TEST(t_review3)
{
	breaks(judge("script t\nopen d0 f0 creat sync\nwrite d0\nerror data d0 EIO\nfail d0\n"
		     "write d0\nfsync d0\nend\n",
		     "DT S t trace\nDT R 0 0 0\nDT R 1 4096 0\nDT R 2 0 0\nDT T 2 set f0 0x0\n"
		     "DT R 3 -1 EOPNOTSUPP\nDT R 4 -1 EIO\nDT R 5 -1 EIO\nDT E t\n"), 5,
	       DT_JUDGE_REPEAT);
	/* a fail of the raw device makes no write to a file fail */
	breaks(judge("script t\nopen d1 raw\nfail d1\nopen d0 f0 creat sync\nwrite d0\n"
		     "error data d0 EIO\nwrite d0\nfsync d0\nend\n",
		     "DT S t trace\nDT R 0 0 0\nDT R 1 0 0\nDT R 2 0 0\nDT R 3 4096 0\nDT R 4 0 0\n"
		     "DT T 4 set f0 0x0\nDT R 5 -1 EIO\nDT R 6 -1 EIO\nDT E t\n"), 6,
	       DT_JUDGE_REPEAT);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("judge");
	TCase *tc = tcase_create("contract");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, t_once_each);
	tcase_add_test(tc, t_invented);
	tcase_add_test(tc, t_later_opener);
	tcase_add_test(tc, t_syncfs);
	tcase_add_test(tc, t_dup);
	tcase_add_test(tc, t_not_a_sync_call);
	tcase_add_test(tc, t_osync);
	tcase_add_test(tc, t_par);
	tcase_add_test(tc, t_par_error);
	tcase_add_test(tc, t_real);
	tcase_add_test(tc, t_cycle);
	tcase_add_test(tc, t_meta);
	tcase_add_test(tc, t_stops);
	tcase_add_test(tc, t_stops_sfr_erofs);
	tcase_add_test(tc, t_no_writeback);
	tcase_add_test(tc, t_failed_injection);
	tcase_add_test(tc, t_names);
	tcase_add_test(tc, t_unjudged);
	tcase_add_test(tc, t_channels);
	tcase_add_test(tc, t_sfr_data_only);
	tcase_add_test(tc, t_labels);
	tcase_add_test(tc, t_failed_open_made_it);
	tcase_add_test(tc, t_dev);
	tcase_add_test(tc, t_osync_two_ways);
	tcase_add_test(tc, t_par_not_after);
	tcase_add_test(tc, t_trace_objects);
	tcase_add_test(tc, t_injected_errno);
	tcase_add_test(tc, t_stops_until_mount);
	tcase_add_test(tc, t_dir);
	tcase_add_test(tc, t_review2);
	tcase_add_test(tc, t_review3);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
