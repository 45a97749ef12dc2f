// SPDX-License-Identifier: GPL-2.0
/*
 * difftest report: what a campaign found, from the files campaign.sh leaves in its --out
 * directory (campaign.c lists them: compare's and judge's outputs among them), or in the
 * N shard directories of one campaign, as Markdown and as JSON. The pieces: campaign.c
 * reads the directories (campaign.h) and writes a merge of shards; report-md.c writes the
 * Markdown and its chart, report-json.c the JSON (with json.c's writer); report_run()
 * below runs them for the command line (difftest.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign.h"

/* Open @path for writing, into *@f: 0, or 2 (said). */
static int write_file(const char *path, FILE **f)
{
	*f = fopen(path, "w");
	return *f ? 0 : rp_fail("%s: %s", path, strerror(errno));
}

static int close_file(const char *path, FILE *f)
{
	int bad = ferror(f);

	if (fclose(f) || bad)
		return rp_fail("%s: %s", path, strerror(errno ? errno : EIO));
	return 0;
}

int report_run(const struct report_opts *o, int ndirs, char **dirs)
{
	struct campaign c;
	struct group *g = NULL;
	char *para = NULL, *svg = NULL;
	FILE *md = o->markdown || o->json ? NULL : stdout, *js = NULL;
	int ng = 0, r;

	r = rp_campaign_read(&c, o, ndirs, dirs);
	if (!r)
		g = rp_groups_make(&c, &ng);
	/* the merge's directory, where the reports may go; then the reports' files, before
	 * the chart's next to them: a path that cannot be written is said as given */
	if (!r && o->merge)
		r = rp_merge_write(&c, o->merge);
	if (!r && o->markdown)
		r = write_file(o->markdown, &md);
	if (!r && o->json)
		r = write_file(o->json, &js);
	if (!r && o->markdown && o->chart)
		r = rp_chart(&c, g, ng, o->markdown, o->chart, &para, &svg);
	if (!r && md)
		rp_markdown(md, &c, g, ng, para);
	if (!r && js)
		rp_json(js, &c, g, ng);
	if (md && o->markdown && close_file(o->markdown, md))
		r = 2;
	if (js && close_file(o->json, js))
		r = 2;
	/* what was written, when it went to files */
	if (!r && o->merge)
		printf("merged: %s\n", o->merge);
	if (!r && o->markdown)
		printf("report: %s\n", o->markdown);
	if (!r && svg)
		printf("chart: %s\n", svg);
	if (!r && o->json)
		printf("json: %s\n", o->json);
	free(para);
	free(svg);
	rp_groups_free(g, ng);
	rp_campaign_free(&c);
	return r;
}
