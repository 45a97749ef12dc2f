// SPDX-License-Identifier: MIT
/*
 * dm-eio: a writeback error must reach fsync.
 *
 * Puts a device-mapper "linear" table over DEV, mounts the FSTYPE file system on it,
 * writes and fsyncs a file (must succeed), then reloads the table with the "error"
 * target, overwrites the file in the page cache and fsyncs again: that fsync must fail
 * with EIO. Later fsync calls (same fd, a new fd) are printed, not checked, since they
 * differ between file systems (ext4 aborts its journal).
 * Uses the dm ioctls directly (no libdevmapper, no udev).
 *
 * usage: dm-eio DEV FSTYPE        e.g. dm-eio /dev/vda ext4
 * Exit 0 when the fsync after the error reported EIO, 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define DM_NAME "liberrseq-eio"
#define DM_NODE "/dev/liberrseq-eio"
#define MNT "/mnt/dm-eio"
#define FILE_SIZE (256 << 10)

static int ctl = -1;
static union {
	struct dm_ioctl io;
	char raw[16384];
} dm;
static char buf[FILE_SIZE];

static void die(const char *what)
{
	printf("dm-eio: %s: %s\n", what, strerror(errno));
	exit(1);
}

static struct dm_ioctl *dm_init(unsigned int flags)
{
	memset(&dm, 0, sizeof(dm));
	dm.io.version[0] = DM_VERSION_MAJOR;
	dm.io.data_size = sizeof(dm);
	dm.io.data_start = sizeof(struct dm_ioctl);
	dm.io.flags = flags;
	strncpy(dm.io.name, DM_NAME, sizeof(dm.io.name) - 1);
	return &dm.io;
}

static void dm_cmd(unsigned long cmd, const char *what)
{
	if (ioctl(ctl, cmd, &dm.io))
		die(what);
}

/* Load a one-target table and make it live (resume swaps it in, suspending first). */
static void dm_table(const char *target, uint64_t sectors, const char *params)
{
	struct dm_ioctl *io = dm_init(0);
	struct dm_target_spec *t = (void *)(dm.raw + io->data_start);
	char *p = (char *)(t + 1);

	io->target_count = 1;
	t->sector_start = 0;
	t->length = sectors;
	strncpy(t->target_type, target, sizeof(t->target_type) - 1);
	strcpy(p, params);
	t->next = 0;
	dm_cmd(DM_TABLE_LOAD, "DM_TABLE_LOAD");
	dm_init(0);
	dm_cmd(DM_DEV_SUSPEND, "DM_DEV_SUSPEND (resume)");
	printf("dm-eio: table now: 0 %llu %s %s\n", (unsigned long long)sectors, target, params);
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
	const char *dev, *fs;
	char params[64];
	uint64_t bytes;
	struct stat st;
	int fd, fd2, ret, err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 3) {
		fprintf(stderr, "usage: %s DEV FSTYPE\n", argv[0]);
		return 2;
	}
	dev = argv[1];
	fs = argv[2];

	fd = open(dev, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || ioctl(fd, BLKGETSIZE64, &bytes))
		die(dev);
	close(fd);
	ctl = open("/dev/mapper/control", O_RDWR);
	if (ctl < 0)
		die("/dev/mapper/control");

	dm_init(0);
	dm_cmd(DM_DEV_CREATE, "DM_DEV_CREATE");
	unlink(DM_NODE);
	if (mknod(DM_NODE, S_IFBLK | 0600, makedev(major(dm.io.dev), minor(dm.io.dev))))
		die("mknod " DM_NODE);
	snprintf(params, sizeof(params), "%u:%u 0", major(st.st_rdev), minor(st.st_rdev));
	dm_table("linear", bytes >> 9, params);

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

	dm_table("error", bytes >> 9, "");

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
