// SPDX-License-Identifier: MIT
/*
 * fsync-ok: on each DEV FSTYPE pair, mount, write a file, fsync and fdatasync it
 * (both must return 0), unmount, mount again and check the data read back.
 *
 * usage: fsync-ok DEV FSTYPE [DEV FSTYPE]...      e.g. fsync-ok /dev/vda ext2 /dev/vdb ext4
 * Exit 0 when every step on every pair succeeded, 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_SIZE (1 << 20)
#define CHUNK 4096

static char buf[CHUNK];

static void fill(char *p, size_t len, unsigned long off)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (char)((off + i) * 2654435761u >> 13);
}

static int fail(const char *fs, const char *what)
{
	printf("fsync-ok: %s: %s: %s\n", fs, what, strerror(errno));
	return 1;
}

static int check_fs(const char *dev, const char *fs)
{
	char dir[64], path[96], want[CHUNK];
	unsigned long off;
	int fd;

	snprintf(dir, sizeof(dir), "/mnt/%s", fs);
	snprintf(path, sizeof(path), "%s/data", dir);
	if (mkdir(dir, 0755) && errno != EEXIST)
		return fail(fs, "mkdir");
	if (mount(dev, dir, fs, 0, NULL))
		return fail(fs, "mount");

	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	if (fd < 0)
		return fail(fs, "open");
	for (off = 0; off < FILE_SIZE; off += CHUNK) {
		fill(buf, CHUNK, off);
		if (write(fd, buf, CHUNK) != CHUNK)
			return fail(fs, "write");
	}
	if (fsync(fd))
		return fail(fs, "fsync");
	if (pwrite(fd, buf, CHUNK, 0) != CHUNK)
		return fail(fs, "pwrite");
	fill(buf, CHUNK, 0);
	if (pwrite(fd, buf, CHUNK, 0) != CHUNK)
		return fail(fs, "pwrite");
	if (fdatasync(fd))
		return fail(fs, "fdatasync");
	if (close(fd))
		return fail(fs, "close");
	if (umount(dir))
		return fail(fs, "umount");

	/* Fresh mount: the data must come from the disk, not the page cache. */
	if (mount(dev, dir, fs, MS_RDONLY, NULL))
		return fail(fs, "mount again");
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return fail(fs, "open again");
	for (off = 0; off < FILE_SIZE; off += CHUNK) {
		if (read(fd, buf, CHUNK) != CHUNK)
			return fail(fs, "read back");
		fill(want, CHUNK, off);
		if (memcmp(buf, want, CHUNK)) {
			printf("fsync-ok: %s: data mismatch at offset %lu\n", fs, off);
			return 1;
		}
	}
	close(fd);
	if (umount(dir))
		return fail(fs, "umount again");
	printf("fsync-ok: %s on %s: write+fsync+fdatasync ok, %d bytes read back ok\n",
	       fs, dev, FILE_SIZE);
	return 0;
}

int main(int argc, char **argv)
{
	int bad = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 3 || (argc - 1) % 2) {
		fprintf(stderr, "usage: %s DEV FSTYPE [DEV FSTYPE]...\n", argv[0]);
		return 2;
	}
	mkdir("/mnt", 0755);
	for (int i = 1; i + 1 < argc; i += 2)
		bad |= check_fs(argv[i], argv[i + 1]);
	printf("fsync-ok: %s\n", bad ? "FAILED" : "all ok");
	return bad;
}
