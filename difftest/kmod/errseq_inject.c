// SPDX-License-Identifier: GPL-2.0
/*
 * errseq_inject: test-only module for difftest. Loaded only inside the QEMU
 * guest, never on a host. Records writeback errors through the functions
 * real I/O completions use, so the errseq_t words, AS_* flags and tracepoints
 * move exactly as after a failed writeback.
 *
 * Write one command to /sys/kernel/debug/errseq_inject:
 *   data PATH ERRNO   mapping_set_error(d_inode(PATH)->i_mapping, -ERRNO): a
 *                     failed data page of that file or directory (PATH may be
 *                     /proc/self/fd/N; ext2 writes a directory's blocks through
 *                     its page cache)
 *   meta PATH ERRNO   a failed metadata buffer of the filesystem holding PATH,
 *                     as fs/buffer.c mark_buffer_write_io_error() records it:
 *                     mapping_set_error(<the bdev's page cache>, -ERRNO),
 *                     and on 6.1 errseq_set(&sb->s_wb_err, -ERRNO) (6.12 has no
 *                     bd_super: its buffer layer does not tell the superblock)
 *   fd N ERRNO        mapping_set_error(f_mapping of the writer's descriptor N,
 *                     -ERRNO): for a block device's descriptor, the bdev's page
 *                     cache (a path names the device node's inode, not that)
 *   reset DEV         the bdev page cache's wb_err = 0 and its AS_* flags
 *                     cleared (as invalidate_disk() does), for a fresh start;
 *                     only while DEV is not mounted
 * Reading the file shows the errseq words of the last command's objects.
 */
#include <linux/blkdev.h>
#include <linux/debugfs.h>
#include <linux/file.h>
#include <linux/errseq.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/pagemap.h>
#include <linux/uaccess.h>
#include <linux/version.h>

/* The page cache of a block device: bd_inode's mapping until 6.9, bd_mapping since. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define dt_bdev_mapping(bdev) ((bdev)->bd_mapping)
#else
#define dt_bdev_mapping(bdev) ((bdev)->bd_inode->i_mapping)
#endif

static struct dentry *dt_dentry;
static DEFINE_MUTEX(dt_lock);
static char dt_last[256];

static int dt_data(const char *path, int err)
{
	struct path p;
	struct inode *inode;
	int ret = kern_path(path, LOOKUP_FOLLOW, &p);

	if (ret)
		return ret;
	inode = d_inode(p.dentry);
	if (!S_ISREG(inode->i_mode) && !S_ISDIR(inode->i_mode)) {
		path_put(&p);
		return -EINVAL;
	}
	mapping_set_error(inode->i_mapping, -err);
	snprintf(dt_last, sizeof(dt_last), "data ino=%lu wb_err=0x%x s_wb_err=0x%x\n",
		 inode->i_ino, READ_ONCE(inode->i_mapping->wb_err),
		 READ_ONCE(inode->i_sb->s_wb_err));
	path_put(&p);
	return 0;
}

static int dt_fd(const char *arg, int err)
{
	struct address_space *m;
	struct file *f;
	unsigned int fd;

	if (kstrtouint(arg, 10, &fd))
		return -EINVAL;
	f = fget(fd); /* the writer's own table: we run in its write(2) */
	if (!f)
		return -EBADF;
	m = f->f_mapping;
	if (!S_ISREG(file_inode(f)->i_mode) && !S_ISBLK(file_inode(f)->i_mode)) {
		fput(f);
		return -EINVAL;
	}
	mapping_set_error(m, -err);
	snprintf(dt_last, sizeof(dt_last), "fd ino=%lu wb_err=0x%x\n", m->host->i_ino,
		 READ_ONCE(m->wb_err));
	fput(f);
	return 0;
}

static int dt_meta(const char *path, int err)
{
	struct path p;
	struct super_block *sb;
	struct address_space *bmap;
	int ret = kern_path(path, LOOKUP_FOLLOW, &p);

	if (ret)
		return ret;
	sb = p.dentry->d_sb;
	if (!sb->s_bdev) {
		path_put(&p);
		return -ENOTBLK;
	}
	bmap = dt_bdev_mapping(sb->s_bdev);
	mapping_set_error(bmap, -err);
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 10, 0)
	/*
	 * 6.1 also told the superblock the bdev backs (bd_super). Without bd_super
	 * (6.12), mark_buffer_write_io_error() sets s_wb_err only for a buffer on an
	 * inode's b_assoc_map list; a metadata block like this one reaches only the
	 * block device's page cache.
	 */
	errseq_set(&sb->s_wb_err, -err);
#endif
	snprintf(dt_last, sizeof(dt_last), "meta bdev_wb_err=0x%x s_wb_err=0x%x\n",
		 READ_ONCE(bmap->wb_err), READ_ONCE(sb->s_wb_err));
	path_put(&p);
	return 0;
}

static int dt_reset(const char *dev)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
	struct file *bf = bdev_file_open_by_path(dev, BLK_OPEN_READ, NULL, NULL);
	struct block_device *bdev;
#else
	struct block_device *bdev = blkdev_get_by_path(dev, FMODE_READ, NULL);
#endif
	struct address_space *m;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
	if (IS_ERR(bf))
		return PTR_ERR(bf);
	bdev = file_bdev(bf);
#else
	if (IS_ERR(bdev))
		return PTR_ERR(bdev);
#endif
	m = dt_bdev_mapping(bdev);
	WRITE_ONCE(m->wb_err, 0);
	clear_bit(AS_EIO, &m->flags);
	clear_bit(AS_ENOSPC, &m->flags);
	snprintf(dt_last, sizeof(dt_last), "reset bdev_wb_err=0x%x\n", READ_ONCE(m->wb_err));
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
	fput(bf);
#else
	blkdev_put(bdev, FMODE_READ);
#endif
	return 0;
}

static ssize_t dt_write(struct file *file, const char __user *ubuf, size_t len, loff_t *ppos)
{
	char buf[320], cmd[16], arg[256];
	int err = 0, n, ret;

	if (len >= sizeof(buf))
		return -E2BIG;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = 0;
	n = sscanf(buf, "%15s %255s %d", cmd, arg, &err);
	mutex_lock(&dt_lock);
	if (n == 3 && !strcmp(cmd, "data") && err > 0 && err <= MAX_ERRNO)
		ret = dt_data(arg, err);
	else if (n == 3 && !strcmp(cmd, "fd") && err > 0 && err <= MAX_ERRNO)
		ret = dt_fd(arg, err);
	else if (n == 3 && !strcmp(cmd, "meta") && err > 0 && err <= MAX_ERRNO)
		ret = dt_meta(arg, err);
	else if (n == 2 && !strcmp(cmd, "reset"))
		ret = dt_reset(arg);
	else
		ret = -EINVAL;
	mutex_unlock(&dt_lock);
	return ret ? ret : len;
}

static ssize_t dt_read(struct file *file, char __user *ubuf, size_t len, loff_t *ppos)
{
	ssize_t r;

	mutex_lock(&dt_lock);
	r = simple_read_from_buffer(ubuf, len, ppos, dt_last, strlen(dt_last));
	mutex_unlock(&dt_lock);
	return r;
}

static const struct file_operations dt_fops = {
	.owner = THIS_MODULE,
	.write = dt_write,
	.read = dt_read,
	.llseek = default_llseek,
};

static int __init dt_init(void)
{
	dt_dentry = debugfs_create_file("errseq_inject", 0600, NULL, NULL, &dt_fops);
	if (IS_ERR(dt_dentry))
		return PTR_ERR(dt_dentry);
	return 0;
}

static void __exit dt_exit(void)
{
	debugfs_remove(dt_dentry);
}

module_init(dt_init);
module_exit(dt_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("difftest: record writeback errors as failed I/O would (test only)");
