// SPDX-License-Identifier: GPL-2.0
/*
 * difftest: the host side. Parses and generates scripts, runs them through the
 * model (liberrseq), compares with what the guest saw, shrinks divergent
 * scripts. The guest runs are driven by difftest/campaign.sh.
 *
 * The commands and their options are in cmds[] below (difftest --help,
 * difftest CMD --help); each has long options besides the short ones. The report
 * command's work is in report.c.
 *
 * CONTRACT: stock | patched | a list of switches (see model.h), plus
 * bug=NAME to plant a deliberate mistake (checker-bites tests), and linux=6.1 (default)
 * or linux=6.12: the kernel line, where the two behave differently (model.h); another
 * version takes the nearest line, with a warning.
 * Exit status: 0 ok; 2 usage or parse error; compare: 1 divergences, 3 the guest did
 * not run some scripts (setup failure, no block, a block cut short, its harness failed:
 * DT X).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "model.h"
#include "ops.h"
#include "report.h"
#include "results.h"
#include "script.h"

#ifndef DT_VERSION
#define DT_VERSION "unknown"
#endif

static struct dt_contract contract;
static enum dt_fs fs = FS_EXT4_ORDERED;
static const char *kernel = "kernel";

/* A command: its name, what it runs, its synopsis (after "difftest NAME"), a line
 * for the command list, its help text, and the option letters it takes. */
struct cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *synopsis;
	const char *summary;
	const char *help;
	const char *opts;
};
static const struct cmd *cur; /* the command running, for its usage errors */

/* The names the model knows, comma separated, into @buf: what an option takes. */
enum names { N_FS, N_SWITCH, N_BUG, N_LINE };

static const char *names(enum names what, char *buf, size_t len)
{
	size_t o = 0;
	int n = what == N_FS ? FS__COUNT : what == N_SWITCH ? DT_NSWITCHES :
		what == N_BUG ? BUG__COUNT : DT_LINE__COUNT;

	buf[0] = 0;
	/* bug 0 is "none", no bug */
	for (int i = what == N_BUG; i < n && o < len; i++) {
		const char *nm = what == N_FS ? dt_fs_name((enum dt_fs)i) :
				 what == N_SWITCH ? dt_switch_name(i) :
				 what == N_BUG ? dt_bug_name((enum dt_bug)i) :
				 dt_line_name((enum dt_line)i);

		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", nm);
	}
	return buf;
}

/* Print @text after @first (both one line), wrapped at words to 78 columns, the lines
 * after the first indented by @indent spaces. */
static void wrap(FILE *f, const char *first, const char *text, int indent)
{
	int col = fprintf(f, "%s", first), fresh = 1;

	while (*text) {
		size_t w = strcspn(text, " ");

		if (!fresh && col + 1 + (int)w > 78) {
			col = fprintf(f, "\n%*s", indent, "") - 1;
		} else if (!fresh) {
			fputc(' ', f);
			col++;
		}
		col += fprintf(f, "%.*s", (int)w, text);
		fresh = 0;
		text += w;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

/* What CONTRACT and FS may be, for the help texts. */
static void print_values(FILE *f)
{
	char b[512], t[768];

	snprintf(t, sizeof(t), "a comma-separated list: stock, patched, or switches (no-X clears X): %s;",
		 names(N_SWITCH, b, sizeof(b)));
	wrap(f, "CONTRACT  ", t, 10);
	snprintf(t, sizeof(t), "bug=NAME plants a mistake in the model (%s);",
		 names(N_BUG, b, sizeof(b)));
	wrap(f, "          ", t, 10);
	snprintf(t, sizeof(t), "linux=LINE the kernel line (%s; default %s); another version takes "
		 "the nearest line, with a warning. Default: stock.", names(N_LINE, b, sizeof(b)),
		 dt_line_name(DT_LINE_6_1));
	wrap(f, "          ", t, 10);
	snprintf(t, sizeof(t), "%s (default %s)", names(N_FS, b, sizeof(b)),
		 dt_fs_name(FS_EXT4_ORDERED));
	wrap(f, "FS        ", t, 10);
}

/* A usage error of the running command (or of the command line): say what, exit 2. */
static void __attribute__((noreturn, format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "difftest%s%s: ", cur ? " " : "", cur ? cur->name : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (cur)
		fprintf(stderr, "\nusage: difftest %s %s\n(difftest %s --help says more)\n",
			cur->name, cur->synopsis, cur->name);
	else
		fprintf(stderr, "\n(difftest --help lists the commands)\n");
	exit(2);
}

static void set_contract(const char *s)
{
	char buf[256], *tok, *save = NULL, b[512];
	enum dt_line line = contract.line;

	if (strlen(s) >= sizeof(buf))
		usage_error("contract '%.40s...' is too long", s);
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strncmp(tok, "linux=", 6)) {
			int r = dt_line_nearest(tok + 6, &line);

			if (r < 0)
				usage_error("bad kernel line '%s': want a version such as 6.12 "
					    "(the lines the model knows: %s)",
					    tok + 6, names(N_LINE, b, sizeof(b)));
			if (r > 0)
				fprintf(stderr,
					"difftest: warning: no facts for kernel line '%s'; using the "
					"nearest line the model knows, %s (known: %s; difftest/doc/kernels.md, "
					"\"Kernel lines\", says how to add a line)\n",
					tok + 6, dt_line_name(line), names(N_LINE, b, sizeof(b)));
		} else if (!strncmp(tok, "bug=", 4)) {
			if (dt_bug_parse(tok + 4, &contract.bug))
				usage_error("unknown bug '%s' (bugs: %s)", tok + 4,
					    names(N_BUG, b, sizeof(b)));
		} else if (dt_contract_parse(tok, &contract)) {
			usage_error("bad contract '%s': want stock, patched, or switches, each "
				    "cleared with no-X (%s), plus bug=NAME, linux=LINE",
				    tok, names(N_SWITCH, b, sizeof(b)));
		}
	}
	contract.line = line; /* "stock"/"patched" reset the whole contract */
}

static void set_fs(const char *s)
{
	char b[256];

	if (dt_fs_parse(s, &fs))
		usage_error("unknown filesystem '%s' (filesystems: %s)", s, names(N_FS, b, sizeof(b)));
}

static const char *long_name(int c);

/* @s as a whole number in [min, max], or a usage error naming option -@c (and saying
 * @why the limit, when not NULL) */
static unsigned long long number(int c, const char *s, unsigned long long min,
				 unsigned long long max, const char *why)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (!*s || *s == '-' || *end || errno || v < min || v > max)
		usage_error("-%c (--%s) '%s': want a whole number from %llu to %llu%s%s", c,
			    long_name(c), s, min, max, why ? ": " : "", why ? why : "");
	return v;
}

/* The options of the commands, each with its long name; a command takes those of its
 * cmd.opts (and -h, --help). */
static const struct option all_opts[] = {
	{"contract", required_argument, NULL, 'c'},
	{"fs", required_argument, NULL, 'f'},
	{"kernel", required_argument, NULL, 'k'},
	{"tsv", required_argument, NULL, 't'},
	{"divergent", required_argument, NULL, 'd'},
	{"round", required_argument, NULL, 'r'},
	{"seed", required_argument, NULL, 's'},
	{"scripts", required_argument, NULL, 'n'},
	{"ops", required_argument, NULL, 'o'},
	{"prefix", required_argument, NULL, 'p'},
	{"real", no_argument, NULL, 'R'},
	{"markdown", required_argument, NULL, 'm'},
	{"json", required_argument, NULL, 'j'},
	{"chart", required_argument, NULL, 'g'},
	{"merge", required_argument, NULL, 'M'},
	{"need-trace", no_argument, NULL, 'T'},
	{"line", required_argument, NULL, 'l'},
	{"own", no_argument, NULL, 'O'},
	{"stats", no_argument, NULL, 'S'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static const char *long_name(int c)
{
	for (const struct option *a = all_opts; a->name; a++)
		if (a->val == c)
			return a->name;
	return "?";
}

/* gen's help and -o's message say these numbers */
_Static_assert(DT_MAX_OPS == 4096 && DT_GEN_MAX_OPS == 2048, "gen's texts name the limits");

/* Option values: compare's, shrink's, gen's (cmd_gen), report's */
static const char *tsv, *divfile;
static struct report_opts report_opts;
static int round = 1;
static unsigned long long seed = 1;
static int seed_given, gen_real, need_trace, gen_stats;
static const char *judge_line = "6.1";
static int contract_given, own_contract;
static long nscripts = 10, gen_ops = 30;
static const char *prefix = "random";

static void print_help(const struct cmd *c);

/* Parse the options of the running command @cur; returns the index of its first
 * operand. -h/--help anywhere before "--" prints its help and exits 0. */
static int parse_opts(int argc, char **argv)
{
	struct option lo[sizeof(all_opts) / sizeof(all_opts[0])];
	char optstr[64];
	size_t n = 0, o = 0;
	int c;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			print_help(cur);
			exit(0);
		}
	/* ':' first: a missing value is reported as ':', not '?' */
	o += (size_t)snprintf(optstr, sizeof(optstr), ":h");
	for (const struct option *a = all_opts; a->name; a++) {
		if (a->val != 'h' && !strchr(cur->opts, a->val))
			continue;
		lo[n++] = *a;
		if (a->val != 'h')
			o += (size_t)snprintf(optstr + o, sizeof(optstr) - o, "%c%s", a->val,
					      a->has_arg ? ":" : "");
	}
	memset(&lo[n], 0, sizeof(lo[n]));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, optstr, lo, NULL)) != -1) {
		switch (c) {
		case 'c': set_contract(optarg); contract_given = 1; break;
		case 'f': set_fs(optarg); break;
		case 'k': kernel = optarg; break;
		case 't': tsv = optarg; break;
		case 'd': divfile = optarg; break;
		case 'r': round = (int)number(c, optarg, 1, 1000000, NULL); break;
		case 's': seed = number(c, optarg, 0, UINT64_MAX, NULL); seed_given = 1; break;
		case 'n': nscripts = (long)number(c, optarg, 1, 1000000, NULL); break;
		case 'o':
			gen_ops = (long)number(c, optarg, 1, DT_GEN_MAX_OPS,
					       "a script holds 4096 operations, "
					       "and the closes a cycle needs first can double a "
					       "script's lines");
			break;
		case 'p': prefix = optarg; break;
		case 'R': gen_real = 1; break;
		case 'm': report_opts.markdown = optarg; break;
		case 'j': report_opts.json = optarg; break;
		case 'g': report_opts.chart = optarg; break;
		case 'M': report_opts.merge = optarg; break;
		case 'T': need_trace = 1; break;
		case 'O': own_contract = 1; break;
		case 'S': gen_stats = 1; break;
		case 'l':
			if (strcmp(optarg, "6.1") && strcmp(optarg, "6.12"))
				usage_error("-l (--line) '%s': want 6.1 or 6.12", optarg);
			judge_line = optarg;
			break;
		case ':':
			usage_error("option -%c (--%s) needs a value", optopt, long_name(optopt));
		default:
			if (!strncmp(argv[optind - 1], "--", 2))
				usage_error(optopt ? "option '%s' takes no value" : "unknown option '%s'",
					    argv[optind - 1]);
			usage_error("unknown option -%c", optopt);
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

/* BATCH and RESULTS, the operands of compare and judge from argv[@i]: 0, or 2 (said) */
static int load_both(int argc, char **argv, int i, struct dt_batch *b, struct dt_results *r)
{
	if (argc - i != 2)
		usage_error("wants BATCH and RESULTS, got %d operand(s)", argc - i);
	if (load(argv[i], b))
		return 2;
	if (load_results(argv[i + 1], b, r)) {
		dt_batch_free(b);
		return 2;
	}
	return 0;
}

/* ---- check / predict ---- */

static int cmd_check(int argc, char **argv)
{
	int i = parse_opts(argc, argv), st = 0;

	if (i >= argc)
		usage_error("no FILE given");
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
	int i = parse_opts(argc, argv);

	if (i >= argc)
		usage_error("no FILE given");
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

/* ---- batch: user scripts as one batch (campaign.sh --script) ---- */

static int cmd_batch(int argc, char **argv)
{
	struct dt_batch all = {0, NULL};
	const char **from = NULL;
	int i = parse_opts(argc, argv), st = 0;

	if (i >= argc)
		usage_error("no FILE given");
	for (; i < argc; i++) {
		struct dt_batch b;
		struct dt_script *n;
		const char **nf;

		if (load(argv[i], &b)) {
			st = 2;
			continue;
		}
		n = realloc(all.scripts, (size_t)(all.nscripts + b.nscripts) * sizeof(*n));
		nf = realloc(from, (size_t)(all.nscripts + b.nscripts) * sizeof(*nf));
		if (!n || !nf)
			abort();
		all.scripts = n;
		from = nf;
		for (int k = 0; k < b.nscripts; k++) {
			/* one name, one script: the guest's results are told apart by it */
			for (int j = 0; j < all.nscripts; j++)
				if (!strcmp(all.scripts[j].name, b.scripts[k].name)) {
					fprintf(stderr, "difftest: %s:%d: a second script named %s "
						"(the first at %s:%d)\n", argv[i], b.scripts[k].line,
						b.scripts[k].name, from[j], all.scripts[j].line);
					st = 2;
				}
			from[all.nscripts] = argv[i];
			all.scripts[all.nscripts++] = b.scripts[k];
		}
		free(b.scripts);
	}
	for (int k = 0; k < all.nscripts && !st; k++)
		dt_script_print(stdout, &all.scripts[k]);
	free(from);
	dt_batch_free(&all);
	return st;
}

/* ---- gen ---- */

/* 1 if @a and @b (predictions of one script) differ in a result (@trace: or an event) */
static int pred_differ(const struct dt_sresult *a, const struct dt_sresult *b, int trace)
{
	if (a->nops != b->nops)
		return 1;
	for (int i = 0; i < a->nops; i++) {
		const struct dt_opres *x = &a->ops[i], *y = &b->ops[i];

		for (int k = 0; k < 2; k++)
			if (x->ret[k] != y->ret[k] || x->err[k] != y->err[k])
				return 1;
		if (!trace)
			continue;
		if (x->ntr != y->ntr)
			return 1;
		for (int t = 0; t < x->ntr; t++)
			if (strcmp(x->tr[t], y->tr[t]))
				return 1;
	}
	return 0;
}

/* @text (one script) parsed into @b, or exit 2: the generator made a bad script */
static void gen_parse(const char *text, struct dt_batch *b)
{
	char err[256];

	if (dt_parse(text, "(gen)", b, err, sizeof(err))) {
		fprintf(stderr, "difftest gen: the generator made a script that does not parse: "
			"%s\n", err);
		exit(2);
	}
}

/*
 * The generator's eyes (common/ops.h, dt_gen.look): the script so far through
 * the model, on gen's filesystem, under the stock contract of -c's line (what
 * the generator asks, a mapping's length, a file's size, no contract changes).
 */
static int gen_look(void *ctx, const char *text, struct dt_gen_view *v)
{
	struct dt_contract c;
	struct dt_batch b;
	char *whole;

	(void)ctx;
	if (asprintf(&whole, "%send\n", text) < 0)
		abort();
	gen_parse(whole, &b);
	free(whole);
	dt_contract_stock(&c);
	c.line = contract.line;
	dt_model_view(&c, fs, &b.scripts[0], v);
	dt_batch_free(&b);
	return 0;
}

/* the contract gen's switches are flipped from: -c's, else patched, on -c's line */
static void gen_base(struct dt_contract *base)
{
	*base = contract;
	if (!contract_given)
		dt_contract_patched(base);
	base->line = contract.line;
}

/* per switch of @base (flipped), whether @text's predicted results change
 * (@res) and its results or trace events (@any) */
static void gen_switches(const struct dt_contract *base, const char *text, int *res, int *any)
{
	struct dt_sresult p0;
	struct dt_batch b;

	gen_parse(text, &b);
	dt_model_run(base, fs, &b.scripts[0], NULL, &p0, NULL);
	for (int sw = 0; sw < DT_NSWITCHES; sw++) {
		struct dt_contract alt = *base;
		struct dt_sresult p1;
		int *v = dt_contract_switch(&alt, sw);

		*v = !*v;
		dt_model_run(&alt, fs, &b.scripts[0], NULL, &p1, NULL);
		res[sw] = pred_differ(&p0, &p1, 0);
		any[sw] = pred_differ(&p0, &p1, 1);
		dt_sresult_free(&p1);
	}
	dt_sresult_free(&p0);
	dt_batch_free(&b);
}

/* the text of script @i of the seed's stream @c (0: the seed's own) */
static char *gen_draw(unsigned long long c, long i)
{
	struct dt_gen g = {.real = gen_real, .has_bdev = dt_fs_has_bdev(fs), .look = gen_look};
	char name[DT_NAME_MAX], *text = NULL;
	size_t len = 0;

	g.f = open_memstream(&text, &len);
	if (!g.f)
		abort();
	/* the candidates' streams: the seed's, then others derived from it */
	dt_gen_seed(&g, seed ^ (c * 0x9E3779B97F4A7C15ULL), i);
	snprintf(name, sizeof(name), "%s.s%llu.%ld", prefix, seed, i);
	dt_gen_script(&g, name, (int)gen_ops);
	if (fclose(g.f))
		abort();
	return text;
}

/* candidates drawn for each odd script of a batch (gen_pick()) */
#define GEN_CANDIDATES 16
_Static_assert(GEN_CANDIDATES == 16, "gen --help names it");

/*
 * Script @i of the batch: an even one as drawn; an odd one the first of
 * GEN_CANDIDATES draws that tells apart the most contract switches (flipping
 * it changes the predicted results), each switch weighed 1 / (1 + the scripts
 * of the batch so far that tell it apart, @told): a random stream where a
 * switch is rare (an error before a punch, then fsync) still tests it. @res,
 * @any: the switches the script tells apart (gen_switches()).
 */
static char *gen_pick(long i, long *told, int *res, int *any)
{
	struct dt_contract base;
	char *best = NULL;
	double best_score = -1;

	gen_base(&base);
	for (unsigned long long c = 0; c < (i % 2 ? GEN_CANDIDATES : 1); c++) {
		char *text = gen_draw(c, i);
		int r[DT_NSWITCHES], a[DT_NSWITCHES];
		double score = 0;

		gen_switches(&base, text, r, a);
		for (int sw = 0; sw < DT_NSWITCHES; sw++)
			score += r[sw] ? 1.0 / (1 + told[sw]) : 0;
		if (score > best_score) {
			free(best);
			best = text;
			best_score = score;
			memcpy(res, r, sizeof(r));
			memcpy(any, a, sizeof(a));
		} else {
			free(text);
		}
	}
	for (int sw = 0; sw < DT_NSWITCHES; sw++)
		told[sw] += res[sw];
	return best;
}

/*
 * gen --stats: for each switch of the contract (-c, default patched), in how many of
 * the batch's scripts flipping it changes the model's predicted results (and results
 * or trace events): how much of the batch can tell a kernel with the switch from one
 * without.
 */
static int gen_stats_print(void)
{
	long res[DT_NSWITCHES] = {0}, any[DT_NSWITCHES] = {0};
	struct dt_contract base;
	char cs[512];

	gen_base(&base);
	for (long i = 0; i < nscripts; i++) {
		int r[DT_NSWITCHES], a[DT_NSWITCHES];

		free(gen_pick(i, res, r, a));
		for (int sw = 0; sw < DT_NSWITCHES; sw++)
			any[sw] += a[sw];
	}
	dt_contract_format(&base, cs, sizeof(cs));
	printf("# difftest gen --stats: %ld script(s) of %ld op(s), seed %llu, %s%s, contract %s\n",
	       nscripts, gen_ops, seed, dt_fs_name(fs), gen_real ? ", real I/O errors" : "", cs);
	printf("# switch, flipped to, scripts whose predicted results change, "
	       "whose results or trace events change\n");
	for (int sw = 0; sw < DT_NSWITCHES; sw++)
		printf("%-20s %s %6ld %6ld\n", dt_switch_name(sw),
		       *dt_contract_switch(&base, sw) ? "off" : "on ", res[sw], any[sw]);
	return 0;
}

static int cmd_gen(int argc, char **argv)
{
	int first = parse_opts(argc, argv);

	if (first < argc)
		usage_error("takes no operand ('%s')", argv[first]);
	/* PREFIX.sSEED.I fits a name (DT_NAME_MAX) with any seed and -n */
	if (!*prefix || strlen(prefix) > 24 || strspn(prefix, "abcdefghijklmnopqrstuvwxyz"
			"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:") != strlen(prefix))
		usage_error("-p (--prefix) '%s': want 1 to 24 letters, digits, -_.:", prefix);
	/* the default seed, said: the same command with -s makes this batch again */
	if (!seed_given)
		fprintf(stderr, "difftest gen: seed %llu (no -s given; -s %llu makes this batch again)\n",
			seed, seed);
	if (gen_stats)
		return gen_stats_print();
	long told[DT_NSWITCHES] = {0};

	for (long i = 0; i < nscripts; i++) {
		int r[DT_NSWITCHES], a[DT_NSWITCHES];
		/* the ops' shares: common/ops.c; the pick: gen_pick() */
		char *text = gen_pick(i, told, r, a);

		fputs(text, stdout);
		free(text);
	}
	return 0;
}

/* ---- compare ---- */

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
	long notrun;		    /* MISSING, INCOMPLETE, NOTRACE, SETUP: not in the above */
};

/* What compare counts: per class, and in all (missing: MISSING, INCOMPLETE and NOTRACE;
 * with setup_fail, the scripts not run). */
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

	dt_script_class(script, name, sizeof(name));
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

/*
 * Compare script @s with the guest's results @o (NULL: none); count it in @t. A script
 * the guest did not run as asked (MISSING, SETUP, NOTRACE, INCOMPLETE: no results, no
 * set-up, no trace, cut short or its harness failed) is neither compared nor divergent:
 * no contract explains it and it says nothing of the kernel. It is counted apart
 * (notrun), so that a report never shows it as a documented deviation, nor mixes it with
 * the kernel's divergences; compare exits 3 for it.
 */
static void compare_one(const struct dt_script *s, const struct dt_sresult *o, struct tally *t,
			FILE *df, const char *cs)
{
	struct cls *c = class_get(t, s->name);
	struct dt_divergence div;
	char why[96];
	int nd, slot;

	if (!o) {
		t->missing++;
		c->notrun++;
		printf("MISSING %s: no results from the guest\n", s->name);
		return;
	}
	if (o->fail[0] && o->nres == 0) {
		/* the guest could not set up (mount, dm, module): every one said, as the
		 * missing ones are (the report lists what it counts) */
		t->setup_fail++;
		c->notrun++;
		printf("SETUP %s: %s\n", s->name, o->fail);
		return;
	}
	t->notrace += !o->trace;
	if (!o->trace && need_trace) {
		/* the kernel has the tracepoints: a block without them was not run
		 * as asked, and its results alone are not the comparison */
		t->missing++;
		c->notrun++;
		printf("NOTRACE %s: no trace events (the kernel has the tracepoints: -T)\n", s->name);
		return;
	}
	nd = dt_model_run(&contract, fs, s, o, NULL, &div);
	if (nd && div.incomplete) {
		/* a cut log, or the harness failed: not the kernel's divergence */
		t->missing++;
		c->notrun++;
		printf("INCOMPLETE %s: %s\n", s->name, div.what);
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
	if (own_contract) {
		/* held to its own contract: a finding, never a documented deviation */
		snprintf(why, sizeof(why), "unexplained");
		slot = DT_NSWITCHES + 1;
	} else {
		slot = attribute(s, o, why, sizeof(why));
	}
	c->why[slot]++;
	printf("DIVERGE %s [%s]: %s\n", s->name, why, div.what);
	if (df)
		keep_divergent(df, s, &div, cs, why);
}

/* A row per class appended to the TSV: kernel, mode, contract, class, ops, scripts,
 * divergent scripts, divergent ops, the attribution (SWITCH:N,...,several_switches:N,
 * unexplained:N), scripts not run. */
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
		fprintf(f, "several_switches:%ld,unexplained:%ld\t%ld\n", c->why[DT_NSWITCHES],
			c->why[DT_NSWITCHES + 1], c->notrun);
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

	i = parse_opts(argc, argv);
	if (load_both(argc, argv, i, &b, &r))
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
	printf("compared %d script(s) on %s, %s, contract %s: %d divergent", b.nscripts, kernel,
	       dt_fs_name(fs), cs, t.divergent);
	if (t.missing || t.setup_fail)
		printf(", %d not run", t.missing + t.setup_fail);
	if (t.notrace)
		printf(", %d without trace events (%s)", t.notrace,
		       need_trace ? "not compared: -T" : "results compared only");
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

/* ---- judge ---- */

static int cmd_judge(int argc, char **argv)
{
	struct dt_judge_opts jo = {0};
	struct dt_batch b;
	struct dt_results r;
	int i, bad = 0, unjudged = 0, known = 0;
	long ops = 0;
	char cs[320];

	i = parse_opts(argc, argv);
	dt_contract_format(&contract, cs, sizeof(cs));
	if (load_both(argc, argv, i, &b, &r))
		return 2;
	jo.no_writeback = fs == FS_TMPFS;
	jo.need_trace = need_trace;
	/* what the filesystems do, stock and patched alike (difftest/doc/judge.md) */
	jo.stops = (fs == FS_EXT4_ORDERED || fs == FS_EXT4_JOURNAL) && !strcmp(judge_line, "6.12");
	jo.evict_forgets = fs == FS_VFAT || fs == FS_EXFAT;
	jo.dir_pagecache = fs == FS_EXT2;
	jo.reads_dev = (fs == FS_EXT4_ORDERED || fs == FS_EXT4_JOURNAL) && !strcmp(judge_line, "6.1");
	for (int k = 0; k < b.nscripts; k++) {
		const struct dt_script *s = &b.scripts[k];
		const struct dt_sresult *o = dt_results_get(&r, k);
		struct dt_judge_result res;
		struct dt_divergence div;
		char why[96];

		dt_judge(s, o, &jo, stdout, &res);
		ops += res.judged;
		if (res.unjudged) {
			unjudged++;
			printf("UNJUDGED %s: %s\n", s->name, res.why);
		}
		if (!res.violations)
			continue;
		bad++;
		if (!contract_given)
			continue;
		/* a known deviation: CONTRACT's model expects otherwise by the first
		 * violation, and switches of it, turned off, accept what the kernel did */
		if (dt_model_run(&contract, fs, s, o, NULL, &div) && div.op >= 0 &&
		    div.op <= res.first_op && attribute(s, o, why, sizeof(why)) < DT_NSWITCHES + 1) {
			known++;
			printf("KNOWN %s [%s]\n", s->name, why);
		} else {
			printf("UNEXPLAINED %s: no switch of the contract accounts for op %d\n",
			       s->name, res.first_op);
		}
	}
	printf("judged %d script(s) on %s, %s: %d breaking the contract", b.nscripts - unjudged,
	       kernel, dt_fs_name(fs), bad);
	if (contract_given)
		printf(" (%d of them known deviations of %s)", known, cs);
	printf(", %d not judged, %ld ops judged\n", unjudged, ops);
	dt_results_free(&r);
	dt_batch_free(&b);
	return bad > known ? 1 : unjudged ? 3 : 0;
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
 * ORIG~rROUNDcN, appended to @out. N counts the candidates of the whole batch
 * (@c), so no two share a name even where ORIG is cut short to keep the name
 * under DT_NAME_MAX: the guest's results are told apart by name.
 */
static void candidates(const struct dt_script *s, int *c, struct dt_batch *out)
{
	for (int chunk = s->nops / 2; chunk >= 1; chunk /= 2) {
		for (int from = 0; from < s->nops; from += chunk) {
			struct dt_script t, *n;
			char sfx[32];

			if (reduce(s, from, chunk, &t)) {
				dt_script_free(&t);
				continue;
			}
			snprintf(sfx, sizeof(sfx), "~r%dc%d", round, (*c)++);
			snprintf(t.name, sizeof(t.name), "%.*s%s",
				 (int)(sizeof(t.name) - 1 - strlen(sfx)), s->name, sfx);
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

/* A divergence's kind from compare's text ("... `OP`: model R E, kernel R E; trace ..."):
 * 1 the results differ, 2 only the trace, 0 not said */
static int div_kind(const char *what)
{
	const char *m = what ? strstr(what, "`: model ") : NULL, *k, *ke;
	size_t la, lb;

	if (!m)
		return 0;
	m += 9;
	k = strstr(m, ", kernel ");
	if (!k)
		return 0;
	ke = k + 9;
	la = (size_t)(k - m);
	/* the kernel's results end at "; trace" or at a par line's note " (..." (a par
	 * line's results hold a ';' of their own: "R E ; R E") */
	{
		const char *t = strstr(ke, "; trace"), *p = strstr(ke, " (");

		lb = t && (!p || t < p) ? (size_t)(t - ke) : p ? (size_t)(p - ke) : strlen(ke);
	}
	return la == lb && !strncmp(m, ke, la) ? 2 : 1;
}

/*
 * Print the smallest of @cand[0..n) that still diverges as @s does (else @s), as @s's
 * name: @s ends at its first divergence (keep_divergent()), @why says it (the comment
 * before it, NULL: none); a candidate must diverge first at its own last op, the same
 * op as @s's last, in the same way (the results, or only the trace). Another divergence
 * found on the way is another finding, not a reduction of this one.
 */
static void pick_smallest(const struct dt_script *s, const char *why, const struct dt_batch *cand,
			  int first, int n, const struct dt_results *r)
{
	struct dt_script out;
	int best = -1, nops = s->nops, kind = div_kind(why);
	char last[300], tlast[300], *tilde;
	static char bestwhat[512];

	dt_op_format(&s->ops[s->nops - 1], last, sizeof(last));
	bestwhat[0] = 0;
	for (int k = first; k < first + n; k++) {
		const struct dt_script *t = &cand->scripts[k];
		const struct dt_sresult *o = dt_results_get(r, k);
		struct dt_divergence div;

		if (!o || !o->complete || t->nops >= nops)
			continue;
		dt_op_format(&t->ops[t->nops - 1], tlast, sizeof(tlast));
		if (strcmp(tlast, last))
			continue;
		if (dt_model_run(&contract, fs, t, o, NULL, &div) && div.op == t->nops - 1 &&
		    !div.incomplete && (!kind || div_kind(div.what) == kind)) {
			best = k;
			nops = t->nops;
			snprintf(bestwhat, sizeof(bestwhat), "%s", div.what);
		}
	}
	dt_script_copy(&out, best < 0 ? s : &cand->scripts[best]);
	out.nops = nops;
	/* keep the original's name (without the ~ suffix) */
	snprintf(out.name, sizeof(out.name), "%s", s->name);
	tilde = strchr(out.name, '~');
	if (tilde)
		*tilde = 0;
	if (best >= 0)
		printf("# shrunk: %s\n", bestwhat);
	else if (why)
		printf("%s\n", why);
	dt_script_print(stdout, &out);
	out.nops = best < 0 ? s->nops : cand->scripts[best].nops;
	dt_script_free(&out);
	fprintf(stderr, "shrink %s: %d -> %d ops\n", s->name, s->nops, nops);
}

/* The comment line right before each "script NAME" line of @path, for @b's scripts
 * (in order): what compare said of the divergence (keep_divergent()); NULL: none */
static char **div_comments(const char *path, const struct dt_batch *b)
{
	char **why = calloc((size_t)b->nscripts + 1, sizeof(*why)), *line = NULL, *prev = NULL;
	size_t cap = 0;
	int k = 0;
	FILE *f = fopen(path, "r");

	if (!why)
		abort();
	if (!f)
		return why;
	while (getline(&line, &cap, f) >= 0 && k < b->nscripts) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "script ", 7)) {
			why[k++] = prev;
			prev = NULL;
		} else if (line[0] == '#') {
			free(prev);
			prev = strdup(line);
		}
	}
	free(prev);
	free(line);
	fclose(f);
	return why;
}

static int cmd_shrink(int argc, char **argv)
{
	struct dt_batch b, cand = {0, NULL};
	struct dt_results r;
	int i, *first, c = 0;

	i = parse_opts(argc, argv);
	if (argc - i < 1 || argc - i > 2)
		usage_error("wants DIVBATCH [RESULTS], got %d operand(s)", argc - i);
	if (load(argv[i], &b))
		return 2;
	first = calloc((size_t)b.nscripts + 1, sizeof(*first));
	if (!first)
		abort();
	for (int k = 0; k < b.nscripts; k++) {
		first[k] = cand.nscripts;
		candidates(&b.scripts[k], &c, &cand);
	}
	first[b.nscripts] = cand.nscripts;
	if (argc - i == 1) {
		/* the candidates, for the guest */
		for (int k = 0; k < cand.nscripts; k++)
			dt_script_print(stdout, &cand.scripts[k]);
	} else if (load_results(argv[i + 1], &cand, &r) == 0) {
		/* per original, its smallest candidate that diverges as it does */
		char **why = div_comments(argv[i], &b);

		for (int k = 0; k < b.nscripts; k++) {
			pick_smallest(&b.scripts[k], why[k], &cand, first[k],
				      first[k + 1] - first[k], &r);
			free(why[k]);
		}
		free(why);
		dt_results_free(&r);
	} else {
		i = -1;
	}
	free(first);
	dt_batch_free(&cand);
	dt_batch_free(&b);
	return i < 0 ? 2 : 0;
}

/* ---- report: the campaign's report (tool/report.c) ---- */

static int cmd_report(int argc, char **argv)
{
	int i = parse_opts(argc, argv);

	if (i >= argc)
		usage_error("no DIR given");
	if (report_opts.chart && !report_opts.markdown)
		usage_error("-g (--chart) draws the chart next to the Markdown report: it needs -m "
			    "(--markdown)");
	return report_run(&report_opts, argc - i, argv + i);
}

/* ---- the commands ---- */

static int cmd_help(int argc, char **argv);

static const struct cmd cmds[] = {
	{"check", cmd_check, "FILE...", "parse scripts; errors name FILE:LINE",
	 "Parse each FILE: one script (named after the file), or script NAME ... end\n"
	 "blocks. Print \"FILE: N script(s) ok\", or FILE:LINE: what is wrong.\n"
	 "Exit status: 0 every FILE parses, 2 one does not.\n", ""},
	{"predict", cmd_predict, "[-c CONTRACT] [-f FS] FILE...", "the model's results for scripts",
	 "Run each script of each FILE through the model and print its results as the\n"
	 "guest prints them (DT S, R, T, E lines), each op's after a line\n"
	 "\"# op I (line L): OP\".\n"
	 "  -c, --contract CONTRACT   the kernel's contract (below)\n"
	 "  -f, --fs FS               the filesystem mode (below)\n", "cf"},
	{"gen", cmd_gen, "[-f FS] [-s SEED] [-n SCRIPTS] [-o OPS] [-p PREFIX] [-R] [-S] [-c CONTRACT]",
	 "a batch of random scripts on stdout",
	 "Print a batch of random scripts, named PREFIX.sSEED.I. Each script has a random\n"
	 "stream of its own: script I is the same whatever -n. The generator looks at what\n"
	 "it made through the model (a mapping's stores only after an mmap that worked),\n"
	 "and every odd script is the one of 16 drawn that tells apart the most switches\n"
	 "of the contract (those the scripts before it tell apart least weigh most).\n"
	 "  -f, --fs FS               for that filesystem mode: no \"error meta\" without\n"
	 "                            a block device (tmpfs)\n"
	 "  -s, --seed SEED           default 1, said on stderr when not given\n"
	 "  -n, --scripts N           scripts (default 10)\n"
	 "  -o, --ops N               operations per script, 1 to 2048 (default 30); the\n"
	 "                            closes a cycle or an evict makes first come on top,\n"
	 "                            so a script stays within the 4096 operations one\n"
	 "                            holds\n"
	 "  -p, --prefix PREFIX       the names' prefix (default random)\n"
	 "  -R, --real                real I/O errors (fail, heal), for ext2 and\n"
	 "                            ext4-ordered\n"
	 "  -S, --stats               print, instead of the scripts, for each switch of\n"
	 "                            the contract, in how many of them flipping it\n"
	 "                            changes the model's predicted results (and results\n"
	 "                            or trace events); a switch that only admits a\n"
	 "                            race (syncfs_locked, md_locked) changes none\n"
	 "  -c, --contract CONTRACT   the contract whose switches are flipped, for the\n"
	 "                            pick and -S (default patched; linux=LINE for the\n"
	 "                            line, the model's eyes' too)\n", "fsnopRSc"},
	{"batch", cmd_batch, "FILE...", "scripts of several files as one checked batch",
	 "Check each FILE and print all their scripts as one batch (script NAME ... end),\n"
	 "as campaign.sh --script runs them. A file without script lines is one script,\n"
	 "named after the file. Two scripts of one name are an error, naming both.\n"
	 "Exit status: 0 ok, 2 a FILE does not parse (FILE:LINE: what) or a name repeats;\n"
	 "nothing is printed on stdout then.\n", ""},
	{"compare", cmd_compare, "[-c CONTRACT] [-f FS] [-k KERNEL] [-t TSV] [-d DIVFILE] [-T] [-O] BATCH RESULTS",
	 "the guest's results against the model",
	 "Compare RESULTS, the guest's DT lines for the scripts of BATCH, with the model:\n"
	 "a line per divergent script (DIVERGE, with the smallest set of the contract's\n"
	 "switches that, turned off, make the model accept the kernel: a documented\n"
	 "deviation; else \"unexplained\"), per script the guest did not run (MISSING,\n"
	 "INCOMPLETE, SETUP, NOTRACE) or whose harness failed (INCOMPLETE: a DT X line),\n"
	 "or a per-line rule cut short (CUT), then a summary.\n"
	 "  -c, --contract CONTRACT   the contract the kernel is held to (below)\n"
	 "  -f, --fs FS               the filesystem mode the guest ran (below)\n"
	 "  -k, --kernel KERNEL       the kernel's name in the output (default kernel)\n"
	 "  -t, --tsv TSV             append a row per scenario class to TSV: ops,\n"
	 "                            scripts compared, divergent scripts and ops, their\n"
	 "                            attribution, scripts not run\n"
	 "  -d, --divergent DIVFILE   write each divergent script, up to its first\n"
	 "                            divergent op, to DIVFILE\n"
	 "  -T, --need-trace          the kernel has the filemap tracepoints: a block\n"
	 "                            without trace events is not compared (NOTRACE),\n"
	 "                            and counts as not run\n"
	 "  -O, --own                 CONTRACT is the kernel's own: a divergence is a\n"
	 "                            finding, \"unexplained\", never put down to switches\n"
	 "Exit status: 0 no divergence, 1 divergences, 2 usage or parse error, 3 the\n"
	 "guest did not run some scripts, or its harness failed in some.\n", "cfktdTO"},
	{"judge", cmd_judge, "[-f FS] [-l LINE] [-k KERNEL] [-T] [-c CONTRACT] BATCH RESULTS",
	 "the guest's results against the contract, not the model",
	 "Hold RESULTS, the guest's DT lines for the scripts of BATCH, to the user-level\n"
	 "contract of writeback-error reporting (difftest/doc/judge.md): every error is\n"
	 "reported once to each open file description that was open when it happened (or\n"
	 "opened while no sync call had reported it), by fsync and the calls like it, and\n"
	 "once to each by syncfs; never twice; never one that did not happen. It reads only\n"
	 "the script, the results and the errors injected or recorded (the trace's \"set\"\n"
	 "events), never the model. A line per op that breaks it (JUDGE NAME op I (line L):\n"
	 "OP: lost|repeat|invented: what), per script it cannot judge (UNJUDGED), then a\n"
	 "summary.\n"
	 "  -f, --fs FS               the filesystem mode the guest ran (below)\n"
	 "  -l, --line LINE           the kernel line, 6.1 (default) or 6.12: 6.12's ext4\n"
	 "                            stops at a failed metadata write\n"
	 "  -k, --kernel KERNEL       the kernel's name in the summary (default kernel)\n"
	 "  -T, --need-trace          the kernel has the filemap tracepoints: a block\n"
	 "                            without trace events is not judged\n"
	 "  -c, --contract CONTRACT   the kernel's known deviations (a stock kernel's): a\n"
	 "                            script that breaks the contract is KNOWN when this\n"
	 "                            contract's model expected otherwise by its first\n"
	 "                            violation and some of its switches, turned off,\n"
	 "                            accept what the kernel did (named); else UNEXPLAINED.\n"
	 "                            Never for the kernel under test: its violations are\n"
	 "                            findings, whatever a model says\n"
	 "Exit status: 0 every script keeps the contract (with -c: or breaks it only as\n"
	 "known), 1 one breaks it, 2 usage or parse error, 3 some could not be judged.\n",
	 "fklTc"},
	{"shrink", cmd_shrink, "[-c CONTRACT] [-f FS] [-r ROUND] DIVBATCH [RESULTS]",
	 "smaller scripts that still diverge",
	 "Without RESULTS: print the candidate reductions of each script of DIVBATCH\n"
	 "(chunks of its ops removed), named ORIG~rROUNDcN, for the guest to run: N\n"
	 "counts the candidates of the batch, ORIG is cut short where the name would pass\n"
	 "63 characters.\n"
	 "With RESULTS (the guest's results for those candidates): print, for each\n"
	 "original, its smallest candidate still divergent (or the original), as the\n"
	 "next DIVBATCH; a line per script on stderr.\n"
	 "  -c, --contract CONTRACT   as compare's\n"
	 "  -f, --fs FS               as compare's\n"
	 "  -r, --round ROUND         the round, in the candidates' names (default 1)\n", "cfr"},
	{"report", cmd_report, "[-m MARKDOWN [-g CHART.gp]] [-j JSON] [-M OUT] DIR...",
	 "a campaign's report, as Markdown and as JSON",
	 "Write the report of a campaign from its --out directory DIR (campaign.sh's:\n"
	 "campaign.info, rows.tsv, speed.tsv, wall.tsv, compare-*.txt, judge-*.txt, div-*.dt,\n"
	 "cases-*.dt): a table per kernel, filesystem mode and contract, difftest judge's\n"
	 "counts per kernel and mode and its lines but the known deviations, a table per\n"
	 "scenario class, the scripts a per-line rule cut short, the minimal divergent\n"
	 "scripts. Several DIRs are the N shards of one campaign (campaign.sh --shard):\n"
	 "their rows are summed and the report is the one a single run would have written;\n"
	 "DIRs that are not the N shards of one campaign (another seed, budget, kernel...;\n"
	 "a shard missing or twice) are refused. The date in it is now, or\n"
	 "SOURCE_DATE_EPOCH's.\n"
	 "  -m, --markdown FILE       the Markdown report into FILE; with neither -m nor -j\n"
	 "                            it goes to stdout\n"
	 "  -g, --chart GP            with -m: the first table's chart, drawn by gnuplot\n"
	 "                            ($DT_GNUPLOT, else gnuplot) with the script GP\n"
	 "                            (difftest/chart.gp) as FILE-chart-LINE.svg next to\n"
	 "                            FILE (LINE: the kernel line), from FILE-chart-LINE.dat;\n"
	 "                            without gnuplot, or when it fails, the report says so\n"
	 "  -j, --json FILE           the report as JSON into FILE: every row, every class,\n"
	 "                            every divergence with its results and the errseq\n"
	 "                            words of its trace decoded (errno, SEEN, counter),\n"
	 "                            every line of the judge outputs\n"
	 "  -M, --merge OUT           also write the shards' merge into the directory OUT:\n"
	 "                            rows.tsv summed, speed.tsv, wall.tsv and the divergent\n"
	 "                            and minimal scripts (div-*.dt, cases-*.dt) one shard's\n"
	 "                            after another, the judge outputs' (judge-*.txt) lines\n"
	 "                            one shard's after another and their summaries summed\n"
	 "A line per file written on stdout: merged: OUT, report: FILE, chart: SVG, json: FILE.\n"
	 "Exit status: 0 written; 2 a usage error, a DIR that is not a finished campaign's or\n"
	 "a file in it that does not parse (FILE:LINE: what), DIRs that are not the shards of\n"
	 "one campaign.\n", "mjgM"},
	{"help", cmd_help, "[COMMAND]", "this list, or a command's help", "", ""},
};

static const struct cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

static void print_usage(FILE *f)
{
	fprintf(f, "usage: difftest COMMAND [OPTION]... [ARG]...\n"
		   "       difftest COMMAND --help | difftest help [COMMAND] | difftest --version\n"
		   "The host side of difftest: scripts of file operations run through a model of\n"
		   "Linux's writeback-error reporting (liberrseq) and compared with what a kernel\n"
		   "did with them in a guest (difftest/campaign.sh runs the guest side).\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(f, "\n");
	print_values(f);
	fprintf(f, "\nThe script format: difftest/doc/scripts.md.\n");
}

static void print_help(const struct cmd *c)
{
	if (c == find_cmd("help")) {
		print_usage(stdout);
		return;
	}
	printf("usage: difftest %s %s\n%s", c->name, c->synopsis, c->help);
	printf("  -h, --help                this text\n");
	if (strchr(c->opts, 'c') || strchr(c->opts, 'f')) {
		printf("\n");
		print_values(stdout);
	}
}

static void __attribute__((noreturn)) unknown_cmd(const char *word)
{
	fprintf(stderr, "difftest: unknown command '%s' (commands:", word);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(stderr, "%s %s", i ? "," : "", cmds[i].name);
	fprintf(stderr, ")\n(difftest --help says more)\n");
	exit(2);
}

static int cmd_help(int argc, char **argv)
{
	const struct cmd *c = cur;
	int i = parse_opts(argc, argv);

	if (argc - i > 1)
		usage_error("takes one COMMAND at most");
	if (argc - i == 1 && !(c = find_cmd(argv[i])))
		unknown_cmd(argv[i]);
	print_help(c);
	return 0;
}

int main(int argc, char **argv)
{
	dt_contract_stock(&contract);
	if (argc < 2) {
		fprintf(stderr, "difftest: no command given\n");
		print_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		print_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("difftest (liberrseq) %s\n", DT_VERSION);
		return 0;
	}
	cur = find_cmd(argv[1]);
	if (!cur)
		unknown_cmd(argv[1]);
	return cur->run(argc - 1, argv + 1);
}
