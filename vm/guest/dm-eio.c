// SPDX-License-Identifier: MIT
/*
 * dm-eio: a writeback error must reach fsync.
 *
 * Puts a device-mapper "linear" table over DEV, mounts the FSTYPE file system on it,
 * writes and fsyncs a file (must succeed), then reloads the table with the "error"
 * target, overwrites the file in the page cache and fsyncs again: that fsync must fail
 * with EIO. Later fsync calls (same fd, a new fd) are printed, not checked, since they
 * differ between file systems (ext4 aborts its journal).
 * The dm device and its tables come from the guest programs' fault injector
 * (lib/fault.c: dm ioctls, no libdevmapper, no udev).
 *
 * usage: dm-eio DEV FSTYPE        e.g. dm-eio /dev/vda ext4
 * Exit 0 when the fsync after the error reported EIO, 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fault.h"

#define DM_NAME "liberrseq-eio"
#define DM_NODE "/dev/liberrseq-eio"
#define MNT "/mnt/dm-eio"
#define FILE_SIZE (256 << 10)

static char buf[FILE_SIZE];
static char why[512];

static void die(const char *what)
{
	printf("dm-eio: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void die_why(void)
{
	printf("dm-eio: %s\n", why);
	exit(1);
}

/* Make a one-target table over the whole device live (create the device first if NEW). */
static void dm_table(int new, unsigned long long sectors, const char *target, const char *params)
{
	char table[128];
	dev_t dm;

	snprintf(table, sizeof(table), "0 %llu %s %s", sectors, target, params);
	if (new ? fault_dev_create(DM_NAME, table, &dm, why, sizeof(why)) :
		  fault_dev_load(DM_NAME, table, why, sizeof(why)))
		die_why();
	if (new) {
		unlink(DM_NODE);
		if (mknod(DM_NODE, S_IFBLK | 0600, dm))
			die("mknod " DM_NODE);
	}
	printf("dm-eio: table now: %s\n", table);
}

static const char *result(int ret)
{
	static char s[64];

	if (!ret)
		return "0";
	snprintf(s, sizeof(s), "-1 %s", strerrorname_np(errno));
	return s;
}

int main(int argc, char **argv)
{
	unsigned long long sectors;
	const char *dev, *fs;
	char params[64];
	dev_t lower;
	int fd, fd2, ret, err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 3) {
		fprintf(stderr, "usage: %s DEV FSTYPE\n", argv[0]);
		return 2;
	}
	dev = argv[1];
	fs = argv[2];

	if (fault_blkdev(dev, &lower, &sectors, why, sizeof(why)))
		die_why();
	snprintf(params, sizeof(params), "%u:%u 0", major(lower), minor(lower));
	dm_table(1, sectors, "linear", params);

	mkdir("/mnt", 0755);
	mkdir(MNT, 0755);
	if (mount(DM_NODE, MNT, fs, 0, NULL))
		die("mount");
	fd = open(MNT "/data", O_CREAT | O_TRUNC | O_RDWR, 0644);
	if (fd < 0)
		die("open");
	memset(buf, 'a', sizeof(buf));
	if (write(fd, buf, sizeof(buf)) != sizeof(buf))
		die("write");
	if (fsync(fd))
		die("fsync before the error");
	printf("dm-eio: %s: write+fsync on a healthy device: ok\n", fs);

	dm_table(0, sectors, "error", "");

	memset(buf, 'b', sizeof(buf));
	if (pwrite(fd, buf, sizeof(buf), 0) != sizeof(buf))
		die("overwrite in the page cache");
	ret = fsync(fd);
	err = errno;
	printf("dm-eio: %s: fsync after the error: %s\n", fs, result(ret));
	printf("dm-eio: %s: fsync again, same fd: %s\n", fs, result(fsync(fd)));
	fd2 = open(MNT "/data", O_RDWR);
	if (fd2 >= 0) {
		printf("dm-eio: %s: fsync on a new fd: %s\n", fs, result(fsync(fd2)));
		close(fd2);
	}
	close(fd);
	umount2(MNT, MNT_DETACH);

	if (ret == -1 && err == EIO) {
		printf("dm-eio: %s: ok: the writeback error reached fsync as EIO\n", fs);
		return 0;
	}
	printf("dm-eio: %s: FAILED: fsync after the error returned %s, want -1 EIO\n", fs,
	       ret ? strerrorname_np(err) : "0");
	return 1;
}
