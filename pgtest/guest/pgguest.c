// SPDX-License-Identifier: GPL-2.0
/*
 * pgguest: the fault steps of pgtest's fsyncgate run, inside the QEMU guest,
 * through the guest programs' fault injector, vm/guest/lib/fault.c (the same
 * dm table and eviction as difftest's "fail" and "evict" ops).
 *
 * usage: pgguest up LOWER NODE        dm device "pgtest", linear over LOWER, at NODE
 *        pgguest fail LOWER FILE...   "error" over the FILEs' extents; dirty pages stay
 *                                     dirty (no FIEMAP_FLAG_SYNC), so their writeback fails
 *        pgguest heal LOWER           linear everywhere again
 *        pgguest evict FILE...        sync, sync, fadvise DONTNEED, drop_caches twice
 * Exit 0 on success, 1 on failure (the reason on stderr), 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fault.h"

#define DM_NAME "pgtest"

static int usage(void)
{
	fprintf(stderr, "usage: pgguest up LOWER NODE | fail LOWER FILE... | heal LOWER | "
			"evict FILE...\n");
	return 2;
}

static int fail(const char *what, const char *why)
{
	fprintf(stderr, "pgguest: %s: %s\n", what, why);
	return 1;
}

int main(int argc, char **argv)
{
	char why[512];
	int r;

	if (argc < 3)
		return usage();
	if (!strcmp(argv[1], "up")) {
		if (argc != 4)
			return usage();
		if (fault_dm_up(DM_NAME, argv[3], argv[2], why, sizeof(why)))
			return fail("up", why);
		return 0;
	}
	if (!strcmp(argv[1], "evict")) {
		r = fault_evict((const char *const *)argv + 2, argc - 2);
		return r ? fail("evict", strerror(r)) : 0;
	}
	if (fault_dm_attach(DM_NAME, argv[2], why, sizeof(why)))
		return fail(argv[1], why);
	if (!strcmp(argv[1], "heal") && argc == 3) {
		r = fault_dm_heal();
		return r ? fail("heal", strerror(-r)) : 0;
	}
	if (strcmp(argv[1], "fail") || argc < 4)
		return usage();
	for (int i = 3; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			return fail(argv[i], strerror(errno));
		/* the descriptor is closed before any writeback happens */
		r = fault_dm_fail_fd(fd, 0);
		close(fd);
		if (r)
			return fail(argv[i], r == -EAGAIN ? "an extent is not allocated yet" :
							    strerror(-r));
	}
	return 0;
}
