// SPDX-License-Identifier: GPL-2.0
/*
 * The contract a kernel is held to: one switch per intended difference between
 * stock Linux and the patched series (difftest/doc/contracts.md), the
 * kernel line it is, and the deliberate mistakes the checker-bites tests plant.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const char *const bugnames[BUG__COUNT] = {
	"none", "sample_raw", "no_sb_err", "no_as_flags", "sfr_any", "enospc_as_eio",
	"raw_sets_sb",
};

const char *dt_bug_name(enum dt_bug b)
{
	return (unsigned)b < BUG__COUNT ? bugnames[b] : "?";
}

int dt_bug_parse(const char *s, enum dt_bug *out)
{
	for (int i = 0; i < BUG__COUNT; i++)
		if (!strcmp(s, bugnames[i])) {
			*out = (enum dt_bug)i;
			return 0;
		}
	return -1;
}

static const struct {
	const char *name;
	size_t off;
} switches[DT_NSWITCHES] = {
	{"md_cursor", offsetof(struct dt_contract, md_cursor)},
	{"keep_unseen", offsetof(struct dt_contract, keep_unseen)},
	{"syncfs_locked", offsetof(struct dt_contract, syncfs_locked)},
	{"syncfs_cursor_only", offsetof(struct dt_contract, syncfs_cursor_only)},
	{"syncfs_bdev_cursor", offsetof(struct dt_contract, syncfs_bdev_cursor)},
	{"md_once", offsetof(struct dt_contract, md_once)},
	{"fat_md_once", offsetof(struct dt_contract, fat_md_once)},
	{"falloc_cursor", offsetof(struct dt_contract, falloc_cursor)},
	{"mount_forgets", offsetof(struct dt_contract, mount_forgets)},
	{"remount_since", offsetof(struct dt_contract, remount_since)},
	{"md_locked", offsetof(struct dt_contract, md_locked)},
	{"dir_own", offsetof(struct dt_contract, dir_own)},
};

const char *dt_switch_name(int i)
{
	return switches[i].name;
}

int *dt_contract_switch(struct dt_contract *c, int i)
{
	return (int *)((char *)c + switches[i].off);
}

void dt_contract_stock(struct dt_contract *c)
{
	memset(c, 0, sizeof(*c));
}

void dt_contract_patched(struct dt_contract *c)
{
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < DT_NSWITCHES; i++)
		*dt_contract_switch(c, i) = 1;
	/* The series no longer changes ext4's fallocate waits (kernel-port 0013):
	 * a wait that advanced the descriptor's cursor took fsync's report. */
	c->falloc_cursor = 0;
}

int dt_contract_parse(const char *s, struct dt_contract *c)
{
	char buf[256], *tok, *save = NULL;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int v = 1, i;
		char *w = tok;

		if (!strncmp(w, "no-", 3)) {
			v = 0;
			w += 3;
		}
		if (!strcmp(w, "stock") && v) {
			dt_contract_stock(c);
			continue;
		}
		if (!strcmp(w, "patched") && v) {
			dt_contract_patched(c);
			continue;
		}
		for (i = 0; i < DT_NSWITCHES && strcmp(w, switches[i].name); i++)
			;
		if (i == DT_NSWITCHES)
			return -1;
		*dt_contract_switch(c, i) = v;
	}
	return 0;
}

void dt_contract_format(const struct dt_contract *c, char *buf, size_t len)
{
	struct dt_contract t = *c, p;
	const char *name = "custom";
	int on = 0, same = 1;
	size_t o;

	dt_contract_patched(&p);
	for (int i = 0; i < DT_NSWITCHES; i++) {
		on += !!*dt_contract_switch(&t, i);
		same &= !*dt_contract_switch(&t, i) == !*dt_contract_switch(&p, i);
	}
	/* the names a contract is given by: stock (every switch off), patched (the
	 * series' switches: all but falloc_cursor) */
	if (same)
		name = "patched";
	else if (!on)
		name = "stock";
	o = (size_t)snprintf(buf, len, "%s (", name);
	for (int i = 0; i < DT_NSWITCHES && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s=%d", i ? " " : "", switches[i].name,
				      *dt_contract_switch(&t, i));
	if (o < len && c->line != DT_LINE_6_1)
		o += (size_t)snprintf(buf + o, len - o, " linux=%s", dt_line_name(c->line));
	if (o < len)
		snprintf(buf + o, len - o, "%s%s)", c->bug ? " bug=" : "",
			 c->bug ? dt_bug_name(c->bug) : "");
}
