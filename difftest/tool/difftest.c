// SPDX-License-Identifier: GPL-2.0
/*
 * difftest: the host side. Parses and generates scripts, runs them through the
 * model (liberrseq), compares with what the guest saw, shrinks divergent
 * scripts. The guest runs are driven by difftest/campaign.sh.
 *
 *   difftest check FILE...                         parse only; errors name FILE:LINE
 *   difftest predict [-c CONTRACT] [-f FS] FILE... print the model's results, each
 *        op's after a "# op I (line L): OP" line
 *   difftest gen [-f FS] -s SEED -n SCRIPTS -o OPS [-p PREFIX] [-R]   random batch on stdout
 *        (-R: with real I/O errors, "fail"/"heal"; for ext2 and ext4-ordered;
 *        -f: for that filesystem: no "error meta" without a block device)
 *   difftest compare [-c CONTRACT] [-f FS] [-k KERNEL] [-t TSV] [-d DIVFILE] BATCH RESULTS
 *        compare the guest's RESULTS with the model; one line per divergent
 *        script; TSV rows per class appended to TSV; divergent scripts to DIVFILE
 *   difftest shrink [-c ..] [-f ..] [-r ROUND] DIVBATCH [RESULTS]
 *        without RESULTS: print candidate reductions of each script in DIVBATCH
 *        (named ORIG~rROUNDcN); with RESULTS (the guest's results for those
 *        candidates): print, for each original, its smallest still-divergent
 *        candidate (or the original), as the next DIVBATCH
 *
 * CONTRACT: stock | patched | a list of switches (see model.h), plus
 * bug=NAME to plant a deliberate mistake (checker-bites tests), and linux=6.1 (default)
 * or linux=6.12: the kernel line, where the two behave differently (model.h).
 * Exit status of compare: 0 no divergence, 1 divergences, 2 usage/parse error,
 * 3 the guest did not run some scripts (setup failure, no block, a block cut short).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "results.h"
#include "script.h"

static struct dt_contract contract;
static enum dt_fs fs = FS_EXT4_ORDERED;
static const char *kernel = "kernel";

static void usage(void)
{
	fprintf(stderr,
		"usage: difftest check FILE...\n"
		"       difftest predict [-c CONTRACT] [-f FS] FILE...\n"
		"       difftest gen [-f FS] -s SEED -n SCRIPTS -o OPS [-p PREFIX] [-R]\n"
		"       difftest compare [-c CONTRACT] [-f FS] [-k KERNEL] [-t TSV] [-d DIVFILE] "
		"BATCH RESULTS\n"
		"       difftest shrink [-c CONTRACT] [-f FS] [-r ROUND] DIVBATCH [RESULTS]\n"
		"CONTRACT: stock | patched | md_cursor,keep_unseen,syncfs_locked,syncfs_cursor_only,syncfs_bdev_cursor,md_once,fat_md_once,falloc_cursor,mount_forgets,remount_since"
		" (no-X to clear),"
		" bug=NAME, linux=6.1|6.12\nFS: ext2 | ext4-ordered | ext4-journal | vfat | exfat | xfs | btrfs | tmpfs\n");
	exit(2);
}

static void set_contract(const char *s)
{
	char buf[256], *tok, *save = NULL;
	enum dt_line line = contract.line;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strncmp(tok, "linux=", 6)) {
			if (dt_line_parse(tok + 6, &line)) {
				fprintf(stderr, "difftest: unknown kernel line '%s' (6.1, 6.12)\n", tok + 6);
				exit(2);
			}
		} else if (!strncmp(tok, "bug=", 4)) {
			if (dt_bug_parse(tok + 4, &contract.bug)) {
				fprintf(stderr, "difftest: unknown bug '%s'\n", tok + 4);
				exit(2);
			}
		} else if (dt_contract_parse(tok, &contract)) {
			fprintf(stderr, "difftest: bad contract '%s'\n", tok);
			exit(2);
		}
	}
	contract.line = line; /* "stock"/"patched" reset the whole contract */
}

static int common_opts(int argc, char **argv, const char *extra, int (*cb)(int, const char *))
{
	char optstr[64];
	int c;

	snprintf(optstr, sizeof(optstr), "c:f:k:%s", extra);
	optind = 1;
	while ((c = getopt(argc, argv, optstr)) != -1) {
		switch (c) {
		case 'c':
			set_contract(optarg);
			break;
		case 'f':
			if (dt_fs_parse(optarg, &fs)) {
				fprintf(stderr, "difftest: unknown fs '%s'\n", optarg);
				exit(2);
			}
			break;
		case 'k':
			kernel = optarg;
			break;
		default:
			if (!cb || cb(c, optarg))
				usage();
		}
	}
	return optind;
}

static int load(const char *path, struct dt_batch *b)
{
	char err[512];

	if (dt_parse_file(path, b, err, sizeof(err))) {
		fprintf(stderr, "difftest: %s\n", err);
		return -1;
	}
	return 0;
}

/* The guest's results for batch @b. */
static int load_results(const char *path, const struct dt_batch *b, struct dt_results *r)
{
	char err[512];
	FILE *f = fopen(path, "r");
	int ret;

	if (!f) {
		fprintf(stderr, "difftest: %s: %s\n", path, strerror(errno));
		return -1;
	}
	ret = dt_results_read(f, path, b, r, err, sizeof(err));
	fclose(f);
	if (ret)
		fprintf(stderr, "difftest: %s\n", err);
	return ret;
}

/* ---- check / predict ---- */

static int cmd_check(int argc, char **argv)
{
	int i = common_opts(argc, argv, "", NULL), st = 0;

	if (i >= argc)
		usage();
	for (; i < argc; i++) {
		struct dt_batch b;

		if (load(argv[i], &b)) {
			st = 2;
			continue;
		}
		printf("%s: %d script(s) ok\n", argv[i], b.nscripts);
		dt_batch_free(&b);
	}
	return st;
}

static int cmd_predict(int argc, char **argv)
{
	int i = common_opts(argc, argv, "", NULL);

	if (i >= argc)
		usage();
	for (; i < argc; i++) {
		struct dt_batch b;

		if (load(argv[i], &b))
			return 2;
		for (int k = 0; k < b.nscripts; k++) {
			struct dt_sresult r;

			dt_model_run(&contract, fs, &b.scripts[k], NULL, &r, NULL);
			dt_sresult_print_ops(stdout, &r, &b.scripts[k]);
			dt_sresult_free(&r);
		}
		dt_batch_free(&b);
	}
	return 0;
}

/* ---- gen ---- */

static uint64_t rng;

static uint32_t rnd(uint32_t n)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 0x2545F4914F6CDD1DULL) >> 32) % n;
}

static int pick_err(void)
{
	uint32_t r = rnd(10);

	return r < 6 ? EIO : r < 9 ? ENOSPC : (rnd(2) ? EDQUOT : EROFS);
}

static int pick_open(const int *open)
{
	int c[DT_MAX_FDS], n = 0;

	for (int i = 0; i < 6; i++)
		if (open[i])
			c[n++] = i;
	return n ? c[rnd((uint32_t)n)] : -1;
}

static int gen_real;

static void gen_one(FILE *f, const char *name, int nops)
{
	/* raw: the descriptor is the raw block device's (1) or the filesystem's
	 * device's (2, read-only: no read, fail or error data on it) */
	int open[DT_MAX_FDS] = {0}, mapped[DT_MAX_FDS] = {0}, raw[DT_MAX_FDS] = {0};
	const int nfiles = 3, nfds = 6;

	fprintf(f, "script %s\n", name);
	for (int k = 0; k < nops; k++) {
		int d = pick_open(open);
		uint32_t r = rnd(100);

		if (d < 0 || r < 14) {
			int nd = -1;

			for (int i = 0; i < nfds; i++)
				if (!open[i]) {
					nd = i;
					break;
				}
			if (nd >= 0 && rnd(8) == 0) {
				/* the raw block device (a disk of its own): in every
				 * mode, O_DIRECT too (the model follows its I/O to the
				 * failed device) */
				uint32_t sy = rnd(8);

				if (sy == 7) {
					/* one in eight of them: the filesystem's own device */
					fprintf(f, "open d%d dev\n", nd);
					open[nd] = 1;
					raw[nd] = 2;
					continue;
				}
				fprintf(f, "open d%d raw%s%s\n", nd, rnd(8) == 0 ? " rdonly" : "",
					sy == 0 ? " sync" : sy == 1 ? " dsync" : sy == 2 ? " direct" : "");
				open[nd] = raw[nd] = 1;
				continue;
			}
			if (nd >= 0) {
				uint32_t sy = rnd(12);

				/* O_DIRECT not in real mode: its I/O to a failed extent
				 * fails the syscall, which the model does not follow */
				fprintf(f, "open d%d f%u%s%s%s%s\n", nd, rnd(nfiles),
					rnd(10) < 8 ? " creat" : "", rnd(12) == 0 ? " rdonly" : "",
					sy == 0 ? " sync" : sy == 1 ? " dsync" : "",
					sy == 2 && !gen_real ? " direct" : "");
				open[nd] = 1;
				raw[nd] = 0;
				continue;
			}
		}
		if (rnd(100) < 12) {
			/* the ops of issue 16: read, ftruncate (page multiples: a size
			 * inside a page would read a failed block to zero its tail;
			 * none in real mode: freed failed blocks could be reused), dup,
			 * an op in a forked child, fallocate (none in real mode: it
			 * frees and moves blocks) */
			static const char *const cops[] = {"fsync", "fdatasync", "syncfs", "write"};
			uint32_t k = rnd(9);
			int nd = -1;

			for (int i = 0; i < nfds && k == 2; i++)
				if (!open[i]) {
					nd = i;
					break;
				}
			if (k == 8) {
				fprintf(f, "remount %s\n", rnd(2) ? "ro" : "rw");
			} else if (k == 7 && !gen_real && !raw[d]) {
				/* a shared mapping: stores, msync, munmap (not in real mode:
				 * a fault reading a failed block is SIGBUS) */
				uint32_t q = rnd(6);

				if (!mapped[d]) {
					fprintf(f, "mmap d%d\n", d);
					mapped[d] = 1;
				} else if (q < 3)
					fprintf(f, "mwrite d%d %u %u\n", d, rnd(3) * 4096 + (rnd(4) ? 0 : rnd(4096)),
						1 + rnd(8192));
				else if (q < 5)
					fprintf(f, "msync d%d %s\n", d, q == 3 ? "sync" : "async");
				else {
					fprintf(f, "munmap d%d\n", d);
					mapped[d] = 0;
				}
			} else if (k == 6) {
				/* real mode: no rename (it frees the target's blocks) */
				fprintf(f, "%s f%u f%u\n", rnd(2) || gen_real ? "link" : "rename",
					rnd(nfiles), rnd(nfiles));
			} else if (k == 5) {
				/* umount + mount: every descriptor closed first */
				for (int i = 0; i < nfds; i++)
					if (open[i]) {
						if (mapped[i])
							fprintf(f, "munmap d%d\n", i);
						fprintf(f, "close d%d\n", i);
						open[i] = mapped[i] = 0;
					}
				fprintf(f, "cycle\n");
			} else if (k == 4 && !gen_real && !raw[d]) {
				static const char *const modes[] = {
					"0", "KEEP", "PUNCH|KEEP", "COLLAPSE", "INSERT", "ZERO", "ZERO|KEEP", "PUNCH",
				};
				uint32_t mi = rnd(8);
				uint32_t off = rnd(8) ? rnd(4) * 4096 : rnd(9000);

				uint32_t len = rnd(10) ? (1 + rnd(3)) * 4096 : rnd(6000);

				fprintf(f, "fallocate d%d %s %u %u\n", d, modes[mi], off, len);
			} else if (raw[d] == 2 && (k == 0 || k == 4 || k == 7 || (k == 1 && gen_real)))
				fprintf(f, "fsync d%d\n", d);
			else if (k == 0 || ((k == 1 || k == 4) && gen_real) ||
				 ((k == 4 || k == 7) && raw[d]))
				fprintf(f, "read d%d %u\n", d, rnd(4) ? 4096 : 1 + rnd(16384));
			else if (k == 1)
				fprintf(f, "ftruncate d%d %u\n", d, rnd(4) * 4096);
			else if (k == 2 && nd >= 0) {
				fprintf(f, "dup d%d d%d\n", d, nd);
				open[nd] = 1;
				raw[nd] = raw[d];
			} else
				fprintf(f, "child %s d%d\n", cops[rnd(4)], d);
			continue;
		}
		if (((gen_real && raw[d] != 2) || raw[d] == 1) && r >= 66 && r < 70) {
			/* real mode: fail/heal in place of unlink (freed failed blocks
			 * could be reused by another file); the raw device's
			 * descriptors fail the whole device, in every mode */
			if (rnd(3))
				fprintf(f, "fail d%d\n", d);
			else
				fprintf(f, "heal\n");
			continue;
		}
		if (r < 28)
			fprintf(f, "write d%d %u\n", d, rnd(4) ? 4096 : 1 + rnd(16384));
		else if (r < 38)
			fprintf(f, "fsync d%d\n", d);
		else if (r < 43)
			fprintf(f, "fdatasync d%d\n", d);
		else if (r < 50) {
			uint32_t fl = rnd(20) ? rnd(8) : 8 + rnd(8);
			char fb[64];

			/* real mode: an async write's failure must land within the op */
			if (gen_real && (fl & SFR_WRITE))
				fl |= SFR_WAIT_AFTER;
			dt_sfr_format(fl, fb, sizeof(fb));
			if (rnd(4))
				fprintf(f, "sfr d%d %s\n", d, fb);
			else
				fprintf(f, "sfr d%d %s %u %u\n", d, fb, rnd(3) * 4096, rnd(3) * 4096);
		} else if (r < 57)
			fprintf(f, "syncfs d%d\n", d);
		else if (r < 66) {
			if (mapped[d])
				fprintf(f, "munmap d%d\n", d);
			fprintf(f, "close d%d\n", d);
			open[d] = mapped[d] = 0;
		} else if (r < 70)
			fprintf(f, "unlink f%u\n", rnd(nfiles));
		else if (r < 74)
			fprintf(f, "evict\n");
		else if (r < 76)
			fprintf(f, "sync\n");
		else if (r < 88) {
			char eb[16];
			int e = pick_err();

			if (rnd(2) || raw[d] == 2)
				fprintf(f, "error data f%u %s\n", rnd(nfiles), dt_errname(e, eb, sizeof(eb)));
			else
				fprintf(f, "error data d%d %s\n", d, dt_errname(e, eb, sizeof(eb)));
		} else if (r < 93) {
			char eb[16];

			/* no block device (tmpfs): a data error in its place */
			if (dt_fs_has_bdev(fs) || raw[d] == 2)
				fprintf(f, "error meta %s\n", dt_errname(pick_err(), eb, sizeof(eb)));
			else
				fprintf(f, "error data d%d %s\n", d, dt_errname(pick_err(), eb, sizeof(eb)));
		} else {
			int d2 = pick_open(open);
			static const char *const ops[] = {"syncfs", "fsync", "fdatasync", "syncfs"};

			if (rnd(2))
				d2 = d;
			fprintf(f, "par %s d%d ; %s d%d\n", ops[rnd(4)], d, ops[rnd(4)], d2);
		}
	}
	fprintf(f, "end\n");
}

static int cmd_gen(int argc, char **argv)
{
	unsigned long long seed = 1;
	long nscripts = 10, ops = 30;
	const char *prefix = "random";
	int c;

	optind = 1;
	while ((c = getopt(argc, argv, "f:s:n:o:p:R")) != -1) {
		switch (c) {
		case 'R': gen_real = 1; break;
		case 'f':
			if (dt_fs_parse(optarg, &fs)) {
				fprintf(stderr, "difftest: unknown filesystem '%s'\n", optarg);
				exit(2);
			}
			break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'n': nscripts = strtol(optarg, NULL, 0); break;
		case 'o': ops = strtol(optarg, NULL, 0); break;
		case 'p': prefix = optarg; break;
		default: usage();
		}
	}
	if (nscripts < 1 || ops < 1 || ops > DT_MAX_OPS)
		usage();
	for (long i = 0; i < nscripts; i++) {
		char name[DT_NAME_MAX];

		/* each script has its own stream, so a script is reproducible alone */
		rng = (seed * 0x9E3779B97F4A7C15ULL) ^ ((unsigned long long)(i + 1) << 32) ^ 0xD1B54A32D192ED03ULL;
		for (int w = 0; w < 4; w++)
			rnd(2);
		snprintf(name, sizeof(name), "%s.s%llu.%ld", prefix, seed, i);
		gen_one(stdout, name, (int)ops);
	}
	return 0;
}

/* ---- compare ---- */

static const char *tsv, *divfile;
static int round = 1;

static int opt_cb(int c, const char *a)
{
	if (c == 't')
		tsv = a;
	else if (c == 'd')
		divfile = a;
	else if (c == 'r')
		round = atoi(a);
	else
		return -1;
	return 0;
}

static void class_of(const char *name, char *buf, size_t len)
{
	/* scenario scripts are named scn.NAME[...]: class NAME; random.*: random */
	size_t n;

	if (!strncmp(name, "scn.", 4)) {
		name += 4;
		n = strcspn(name, ".~");
	} else {
		n = strcspn(name, ".~");
	}
	if (n >= len)
		n = len - 1;
	memcpy(buf, name, n);
	buf[n] = 0;
}

static int count_ops(const struct dt_script *s)
{
	int n = 0;

	for (int i = 0; i < s->nops; i++)
		n += s->ops[i].code == OP_PAR ? 2 : 1;
	return n;
}

/* The tally of one scenario class (one TSV row). */
struct cls {
	char name[DT_NAME_MAX];
	long ops, scripts, divscripts, divops;
	long why[DT_NSWITCHES + 2]; /* per switch, then several switches, unexplained */
};

/* What compare counts: per class, and in all. */
struct tally {
	int ncl, cap;
	struct cls *cl;
	int divergent, missing, setup_fail, notrace, cut;
	long cut_ops;
};

static struct cls *class_get(struct tally *t, const char *script)
{
	char name[DT_NAME_MAX];
	struct cls *c;

	class_of(script, name, sizeof(name));
	for (int j = 0; j < t->ncl; j++)
		if (!strcmp(t->cl[j].name, name))
			return &t->cl[j];
	if (t->ncl == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->cl = realloc(t->cl, (size_t)t->cap * sizeof(*t->cl));
		if (!t->cl)
			abort();
	}
	c = &t->cl[t->ncl++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	return c;
}

/*
 * Attribute a divergence of @s: the smallest set of the contract's switches
 * that, turned off, makes the kernel agree (a documented deviation), named
 * in @why; returns its slot in struct cls's why[] (DT_NSWITCHES: several
 * switches, DT_NSWITCHES + 1: none, "unexplained").
 */
static int attribute(const struct dt_script *s, const struct dt_sresult *o, char *why,
		     size_t len)
{
	int best = -1;

	why[0] = 0;
	for (int size = 1; size <= DT_NSWITCHES && best < 0; size++)
		for (int mask = 1; mask < (1 << DT_NSWITCHES) && best < 0; mask++) {
			struct dt_contract alt = contract;
			int ok = 1;

			if (__builtin_popcount((unsigned)mask) != size)
				continue;
			for (int sw = 0; sw < DT_NSWITCHES; sw++) {
				int *v = dt_contract_switch(&alt, sw);

				if (!(mask & (1 << sw)))
					continue;
				if (!*v)
					ok = 0;
				*v = 0;
			}
			if (ok && dt_model_run(&alt, fs, s, o, NULL, NULL) == 0)
				best = mask;
		}
	if (best < 0) {
		snprintf(why, len, "unexplained");
		return DT_NSWITCHES + 1;
	}
	for (int sw = 0; sw < DT_NSWITCHES; sw++)
		if (best & (1 << sw))
			snprintf(why + strlen(why), len - strlen(why), "%s%s", why[0] ? "+" : "",
				 dt_switch_name(sw));
	return __builtin_popcount((unsigned)best) > 1 ? DT_NSWITCHES : __builtin_ctz((unsigned)best);
}

/* Keep @s, up to and including its first divergence, in the DIVFILE. */
static void keep_divergent(FILE *df, const struct dt_script *s, const struct dt_divergence *div,
			   const char *cs, const char *why)
{
	struct dt_script t;

	dt_script_copy(&t, s);
	if (div->op >= 0 && div->op < t.nops)
		t.nops = div->op + 1;
	fprintf(df, "# %s %s contract %s [%s]: %s\n", kernel, dt_fs_name(fs), cs, why, div->what);
	dt_script_print(df, &t);
	t.nops = s->nops;
	dt_script_free(&t);
}

/* Compare script @s with the guest's results @o (NULL: none); count it in @t. */
static void compare_one(const struct dt_script *s, const struct dt_sresult *o, struct tally *t,
			FILE *df, const char *cs)
{
	struct cls *c = class_get(t, s->name);
	struct dt_divergence div;
	char why[96];
	int nd, slot;

	if (!o) {
		t->missing++;
		printf("MISSING %s: no results from the guest\n", s->name);
		c->divscripts++;
		t->divergent++;
		return;
	}
	if (o->fail[0] && o->nres == 0) {
		/* the guest could not set up (mount, dm, module): not a divergence */
		if (++t->setup_fail <= 3)
			printf("SETUP %s: %s\n", s->name, o->fail);
		return;
	}
	t->notrace += !o->trace;
	nd = dt_model_run(&contract, fs, s, o, NULL, &div);
	if (nd && div.incomplete) {
		/* a cut log: not the kernel's divergence */
		t->missing++;
		printf("INCOMPLETE %s: %s\n", s->name, div.what);
		c->divscripts++;
		t->divergent++;
		return;
	}
	if (div.cut_op >= 0) {
		/* a per-line rule stopped the model: say so, count only what was compared */
		struct dt_script head;
		int n;

		dt_script_copy(&head, s);
		head.nops = div.cut_op;
		n = count_ops(&head);
		head.nops = s->nops;
		dt_script_free(&head);
		c->ops += n;
		t->cut++;
		t->cut_ops += count_ops(s) - n;
		printf("CUT %s: ops %d..%d not compared: %s\n", s->name, div.cut_op, s->nops - 1,
		       div.cut_why);
	} else {
		c->ops += count_ops(s);
	}
	c->scripts++;
	if (!nd)
		return;
	c->divscripts++;
	c->divops += nd;
	t->divergent++;
	slot = attribute(s, o, why, sizeof(why));
	c->why[slot]++;
	printf("DIVERGE %s [%s]: %s\n", s->name, why, div.what);
	if (df)
		keep_divergent(df, s, &div, cs, why);
}

static int write_tsv(const struct tally *t, const char *cs)
{
	FILE *f = fopen(tsv, "a");

	if (!f) {
		fprintf(stderr, "difftest: %s: %s\n", tsv, strerror(errno));
		return -1;
	}
	for (int j = 0; j < t->ncl; j++) {
		const struct cls *c = &t->cl[j];

		fprintf(f, "%s\t%s\t%s\t%s\t%ld\t%ld\t%ld\t%ld\t", kernel, dt_fs_name(fs), cs, c->name,
			c->ops, c->scripts, c->divscripts, c->divops);
		for (int sw = 0; sw < DT_NSWITCHES; sw++)
			fprintf(f, "%s:%ld,", dt_switch_name(sw), c->why[sw]);
		fprintf(f, "several_switches:%ld,unexplained:%ld\n", c->why[DT_NSWITCHES],
			c->why[DT_NSWITCHES + 1]);
	}
	fclose(f);
	return 0;
}

static int cmd_compare(int argc, char **argv)
{
	struct dt_batch b;
	struct dt_results r;
	struct tally t = {0};
	FILE *df = NULL;
	char cs[320];
	int i, st;

	i = common_opts(argc, argv, "t:d:", opt_cb);
	if (argc - i != 2)
		usage();
	if (load(argv[i], &b))
		return 2;
	if (load_results(argv[i + 1], &b, &r))
		return 2;
	if (divfile) {
		df = fopen(divfile, "w");
		if (!df) {
			fprintf(stderr, "difftest: %s: %s\n", divfile, strerror(errno));
			return 2;
		}
	}
	dt_contract_format(&contract, cs, sizeof(cs));
	for (int k = 0; k < b.nscripts; k++)
		compare_one(&b.scripts[k], dt_results_get(&r, k), &t, df, cs);
	st = tsv && write_tsv(&t, cs) ? 2 : t.setup_fail || t.missing ? 3 : t.divergent ? 1 : 0;
	printf("compared %d script(s) on %s, %s, contract %s: %d divergent%s", b.nscripts, kernel,
	       dt_fs_name(fs), cs, t.divergent, t.missing ? " (some missing)" : "");
	if (t.notrace)
		printf(", %d without trace events (results compared only)", t.notrace);
	if (t.setup_fail)
		printf(", %d SETUP FAILURES (guest could not run them)", t.setup_fail);
	if (t.cut)
		printf(", %d cut short by a per-line rule (%ld ops not compared)", t.cut, t.cut_ops);
	printf("\n");
	if (df)
		fclose(df);
	free(t.cl);
	dt_results_free(&r);
	dt_batch_free(&b);
	return st;
}

/* ---- shrink ---- */

/* Remove ops [from, from+n) and whatever then breaks the descriptor rules. */
static int reduce(const struct dt_script *s, int from, int n, struct dt_script *out)
{
	unsigned char open[DT_MAX_FDS] = {0};

	dt_script_copy(out, s);
	out->nops = 0;
	for (int i = 0; i < s->nops; i++) {
		const struct dt_op *op = &s->ops[i];
		int keep = !(i >= from && i < from + n);

		if (keep) {
			/* drop ops whose descriptor is no longer opened */
			switch (op->code) {
			case OP_OPEN:
				if (open[op->fd])
					keep = 0;
				break;
			case OP_WRITE: case OP_FSYNC: case OP_FDATASYNC: case OP_SFR:
			case OP_SYNCFS: case OP_CLOSE: case OP_FAIL:
				keep = open[op->fd];
				break;
			case OP_ERR_DATA:
				keep = op->fd < 0 || open[op->fd];
				break;
			case OP_PAR:
				for (int k = 0; k < 2; k++)
					if (op->sub[k].fd >= 0 && !open[op->sub[k].fd])
						keep = 0;
				break;
			default:
				break;
			}
		}
		if (keep) {
			if (op->code == OP_OPEN)
				open[op->fd] = 1;
			if (op->code == OP_CLOSE)
				open[op->fd] = 0;
			free(out->ops[out->nops].sub);
			out->ops[out->nops] = *op;
			out->ops[out->nops].sub = NULL;
			if (op->sub) {
				out->ops[out->nops].sub = calloc(2, sizeof(*op->sub));
				memcpy(out->ops[out->nops].sub, op->sub, 2 * sizeof(*op->sub));
			}
			out->nops++;
		}
	}
	for (int i = out->nops; i < s->nops; i++) {
		free(out->ops[i].sub);
		out->ops[i].sub = NULL;
	}
	return out->nops < s->nops && out->nops > 0 && dt_script_valid(out) == 0 ? 0 : -1;
}

/*
 * The candidate reductions of @s (chunks of n/2, n/4, ..., 1 removed), named
 * ORIG~rROUNDcN, appended to @out.
 */
static void candidates(const struct dt_script *s, struct dt_batch *out)
{
	int c = 0;

	for (int chunk = s->nops / 2; chunk >= 1; chunk /= 2) {
		for (int from = 0; from < s->nops; from += chunk) {
			struct dt_script t, *n;

			if (reduce(s, from, chunk, &t)) {
				dt_script_free(&t);
				continue;
			}
			snprintf(t.name, sizeof(t.name), "%.40s~r%dc%d", s->name, round, c++);
			n = realloc(out->scripts, (size_t)(out->nscripts + 1) * sizeof(*n));
			if (!n)
				abort();
			out->scripts = n;
			out->scripts[out->nscripts++] = t;
		}
		if (chunk == 1)
			break;
	}
}

/* Print the smallest of @cand[0..n) still divergent in @r (else @s), as @s's name. */
static void pick_smallest(const struct dt_script *s, const struct dt_batch *cand, int first,
			  int n, const struct dt_results *r)
{
	struct dt_script out;
	int best = -1, nops = s->nops;
	char *tilde;

	for (int k = first; k < first + n; k++) {
		const struct dt_script *t = &cand->scripts[k];
		const struct dt_sresult *o = dt_results_get(r, k);
		struct dt_divergence div;

		if (o && o->complete && t->nops < nops &&
		    dt_model_run(&contract, fs, t, o, NULL, &div) && div.op >= 0 &&
		    div.op < t->nops && !div.incomplete) {
			best = k;
			nops = div.op + 1;
		}
	}
	dt_script_copy(&out, best < 0 ? s : &cand->scripts[best]);
	out.nops = nops;
	/* keep the original's name (without the ~ suffix) */
	snprintf(out.name, sizeof(out.name), "%s", s->name);
	tilde = strchr(out.name, '~');
	if (tilde)
		*tilde = 0;
	dt_script_print(stdout, &out);
	out.nops = best < 0 ? s->nops : cand->scripts[best].nops;
	dt_script_free(&out);
	fprintf(stderr, "shrink %s: %d -> %d ops\n", s->name, s->nops, nops);
}

static int cmd_shrink(int argc, char **argv)
{
	struct dt_batch b, cand = {0, NULL};
	struct dt_results r;
	int i, *first;

	i = common_opts(argc, argv, "r:", opt_cb);
	if (argc - i < 1 || argc - i > 2)
		usage();
	if (load(argv[i], &b))
		return 2;
	first = calloc((size_t)b.nscripts + 1, sizeof(*first));
	if (!first)
		abort();
	for (int k = 0; k < b.nscripts; k++) {
		first[k] = cand.nscripts;
		candidates(&b.scripts[k], &cand);
	}
	first[b.nscripts] = cand.nscripts;
	if (argc - i == 1) {
		/* the candidates, for the guest */
		for (int k = 0; k < cand.nscripts; k++)
			dt_script_print(stdout, &cand.scripts[k]);
	} else if (load_results(argv[i + 1], &cand, &r) == 0) {
		/* per original, its smallest divergent candidate */
		for (int k = 0; k < b.nscripts; k++)
			pick_smallest(&b.scripts[k], &cand, first[k], first[k + 1] - first[k], &r);
		dt_results_free(&r);
	} else {
		i = -1;
	}
	free(first);
	dt_batch_free(&cand);
	dt_batch_free(&b);
	return i < 0 ? 2 : 0;
}

int main(int argc, char **argv)
{
	dt_contract_stock(&contract);
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(argv[1], "predict"))
		return cmd_predict(argc - 1, argv + 1);
	if (!strcmp(argv[1], "gen"))
		return cmd_gen(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(argv[1], "shrink"))
		return cmd_shrink(argc - 1, argv + 1);
	usage();
	return 2;
}
