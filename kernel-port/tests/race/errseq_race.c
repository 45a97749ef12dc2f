// SPDX-License-Identifier: GPL-2.0
/*
 * errseq_race: test-only module for kernel-port's "races" guest test. Loaded
 * only inside the QEMU guest, never on a host.
 *
 * It widens the window of errseq_check_and_advance() between its load of the
 * errseq_t (and of *since) and its cmpxchg that sets SEEN: a kprobe on that
 * cmpxchg instruction holds a chosen task there, so that the interleavings the
 * model checkers found (liberrseq/modelcheck/README.md) happen with real
 * syscalls: a writer storing another errno while a reader is between its load
 * and its swap (the lost error of Linux 6.1, fixed by 0016), and two tasks
 * advancing one file's f_sb_err in syncfs() at once (the double report, fixed
 * by 0003). For fsync()'s two cursors (the double report of two tasks
 * fsync()ing one file at once, fixed by 0025), two more: at the entry of the
 * series' file_check_and_advance_md_wb_err() (absent from stock kernels), where
 * the series before 0025 went from the data cursor to the metadata cursor
 * outside f_lock; and at the entry of errseq_check_and_advance() for the
 * block device's wb_err, inside 0025's section, where the other task must
 * wait for f_lock. Nothing else about the kernel is changed.
 *
 * Write one command to /sys/kernel/debug/errseq_race:
 *   pause TGID MS   the next call of a task of TGID that reaches the cmpxchg
 *                   waits there until "release", or MS milliseconds
 *   meet TGID MS    the next two such calls: the first waits for the second
 *                   (or MS milliseconds), then both go on
 *   hold TID MS FD  as pause, for the task TID (a thread, not a process), at
 *                   whichever it reaches first: the entry of
 *                   file_check_and_advance_md_wb_err(), or that of
 *                   errseq_check_and_advance() on the wb_err of the block
 *                   device under the writer's FD (ENOENT where the kernel has
 *                   no file_check_and_advance_md_wb_err())
 *   release         end a pause now
 *   off             disarm; the counters keep their values until the next arm
 *   set FD ERRNO    mapping_set_error(<file of the writer's FD>->f_mapping,
 *                   -ERRNO): a failed data page of that file, as a writeback
 *                   completion records it (sets the file's wb_err and its
 *                   superblock's s_wb_err)
 * Reading the file prints "cas=+0xOFF hits=H waited=W timeouts=T md=M": where
 * the probe sits, how many calls of the armed task reached the armed probe
 * since the last arm, how many of them waited, how many waits ended by the
 * time limit, and whether the second probe is there (1) or not (0).
 */
#include <linux/atomic.h>
#include <linux/blk_types.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/version.h>

#define ER_SYM "errseq_check_and_advance"
#define ER_SCAN 256	/* bytes of the function searched for the cmpxchg */
#define ER_MD_SYM "file_check_and_advance_md_wb_err"

enum { ER_OFF, ER_PAUSE, ER_MEET, ER_HOLD };

static int er_mode = ER_OFF;
static pid_t er_tgid;	/* hold: a task's pid (TID) */
static u64 er_limit_us;
static int er_released;
static atomic_t er_hits = ATOMIC_INIT(0);
static atomic_t er_waited = ATOMIC_INIT(0);
static atomic_t er_timeouts = ATOMIC_INIT(0);
static unsigned int er_off;
static bool er_md_on, er_sec_on;
static errseq_t *er_sec_eseq;	/* hold: the block device's wb_err */
static struct dentry *er_dentry;
static DEFINE_MUTEX(er_lock);

/*
 * Wait (in the probe: no sleeping, interrupts may be off) until @done() or the
 * time limit. The limit is counted in udelay() steps, not read from a clock:
 * under QEMU TCG the guest's clocksource can be jiffies, which stops while the
 * CPU that keeps it spins here with interrupts off.
 */
static void er_wait(bool (*done)(void))
{
	u64 us = READ_ONCE(er_limit_us);

	atomic_inc(&er_waited);
	while (!done()) {
		if (!us--) {
			atomic_inc(&er_timeouts);
			return;
		}
		udelay(1);
	}
}

static bool er_is_released(void)
{
	return READ_ONCE(er_released);
}

static bool er_second_arrived(void)
{
	return atomic_read(&er_hits) >= 2;
}

static int er_pre(struct kprobe *p, struct pt_regs *regs)
{
	int mode = READ_ONCE(er_mode);
	int n;

	if ((mode != ER_PAUSE && mode != ER_MEET) || current->tgid != READ_ONCE(er_tgid))
		return 0;
	n = atomic_inc_return(&er_hits);
	if (n == 1 && mode == ER_PAUSE)
		er_wait(er_is_released);
	else if (n == 1 && mode == ER_MEET)
		er_wait(er_second_arrived);
	return 0;
}

static int er_md_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (READ_ONCE(er_mode) != ER_HOLD || current->pid != READ_ONCE(er_tgid))
		return 0;
	if (atomic_inc_return(&er_hits) == 1)
		er_wait(er_is_released);
	return 0;
}

static int er_sec_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (READ_ONCE(er_mode) != ER_HOLD || current->pid != READ_ONCE(er_tgid) ||
	    regs_get_kernel_argument(regs, 0) != (unsigned long)READ_ONCE(er_sec_eseq))
		return 0;
	if (atomic_inc_return(&er_hits) == 1)
		er_wait(er_is_released);
	return 0;
}

static struct kprobe er_kp = {
	.symbol_name = ER_SYM,
	.pre_handler = er_pre,
};

static struct kprobe er_sec_kp = {
	.symbol_name = ER_SYM,
	.pre_handler = er_sec_pre,
};

static struct kprobe er_md_kp = {
	.symbol_name = ER_MD_SYM,
	.pre_handler = er_md_pre,
};

/* The function's address, through a kprobe at its entry (kallsyms is not exported). */
static unsigned long er_func_addr(void)
{
	struct kprobe kp = { .symbol_name = ER_SYM };
	unsigned long addr;

	if (register_kprobe(&kp))
		return 0;
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return addr;
}

/*
 * Put the probe on the first "lock cmpxchg r32, m32" (f0 [REX] 0f b1) of the
 * function. register_kprobe() decodes the function and refuses an address that
 * is not an instruction boundary, so a byte pattern inside another instruction
 * is skipped.
 */
static int er_probe_cmpxchg(void)
{
	const u8 *code = (const u8 *)er_func_addr();
	unsigned int i;

	if (!code)
		return -ENOENT;
	for (i = 0; i + 4 <= ER_SCAN; i++) {
		unsigned int j = i + 1;

		if (code[i] != 0xf0)
			continue;
		if ((code[j] & 0xf0) == 0x40)
			j++;
		if (code[j] != 0x0f || code[j + 1] != 0xb1)
			continue;
		er_kp = (struct kprobe){ .symbol_name = ER_SYM, .offset = i,
					 .pre_handler = er_pre };
		if (!register_kprobe(&er_kp)) {
			er_off = i;
			return 0;
		}
	}
	return -ENOENT;
}

static int er_set(int fd, int err)
{
	struct file *file = fget(fd);	/* not fdget(): struct fd changed in 6.12 */

	if (!file)
		return -EBADF;
	mapping_set_error(file->f_mapping, -err);
	fput(file);
	return 0;
}

/* The wb_err of the block device under the filesystem of the writer's @fd. */
static errseq_t *er_bdev_wb_err(int fd)
{
	struct file *file = fget(fd);
	struct block_device *bdev;
	errseq_t *eseq = NULL;

	if (!file)
		return NULL;
	bdev = file_inode(file)->i_sb->s_bdev;
	if (bdev)
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
		eseq = &bdev->bd_mapping->wb_err;
#else
		eseq = &bdev->bd_inode->i_mapping->wb_err;
#endif
	fput(file);
	return eseq;
}

static void er_arm(int mode, pid_t tgid, unsigned int ms)
{
	WRITE_ONCE(er_mode, ER_OFF);
	atomic_set(&er_hits, 0);
	atomic_set(&er_waited, 0);
	atomic_set(&er_timeouts, 0);
	WRITE_ONCE(er_released, 0);
	WRITE_ONCE(er_limit_us, (u64)ms * USEC_PER_MSEC);
	WRITE_ONCE(er_tgid, tgid);
	smp_wmb();
	WRITE_ONCE(er_mode, mode);
}

static ssize_t er_write(struct file *file, const char __user *ubuf, size_t len, loff_t *ppos)
{
	char buf[64];
	int a, b, c, ret = 0;
	errseq_t *eseq;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	mutex_lock(&er_lock);
	if (sscanf(buf, "pause %d %d", &a, &b) == 2 && a > 0 && b > 0)
		er_arm(ER_PAUSE, a, b);
	else if (sscanf(buf, "meet %d %d", &a, &b) == 2 && a > 0 && b > 0)
		er_arm(ER_MEET, a, b);
	else if (sscanf(buf, "hold %d %d %d", &a, &b, &c) == 3 && a > 0 && b > 0 && !er_md_on)
		ret = -ENOENT;
	else if (sscanf(buf, "hold %d %d %d", &a, &b, &c) == 3 && a > 0 && b > 0) {
		eseq = er_bdev_wb_err(c);
		WRITE_ONCE(er_sec_eseq, eseq);
		if (eseq)
			er_arm(ER_HOLD, a, b);
		else
			ret = -EBADF;
	}
	else if (!strncmp(buf, "release", 7))
		WRITE_ONCE(er_released, 1);
	else if (!strncmp(buf, "off", 3))
		WRITE_ONCE(er_mode, ER_OFF);
	else if (sscanf(buf, "set %d %d", &a, &b) == 2 && b > 0 && b < MAX_ERRNO)
		ret = er_set(a, b);
	else
		ret = -EINVAL;
	mutex_unlock(&er_lock);
	return ret ? ret : len;
}

static ssize_t er_read(struct file *file, char __user *ubuf, size_t len, loff_t *ppos)
{
	char buf[96];
	int n = scnprintf(buf, sizeof(buf), "cas=+0x%x hits=%d waited=%d timeouts=%d md=%d\n",
			  er_off, atomic_read(&er_hits), atomic_read(&er_waited),
			  atomic_read(&er_timeouts), er_md_on);

	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static const struct file_operations er_fops = {
	.owner = THIS_MODULE,
	.read = er_read,
	.write = er_write,
	.llseek = default_llseek,
};

static int __init er_init(void)
{
	int ret = er_probe_cmpxchg();

	if (ret) {
		pr_err("errseq_race: no probe-able lock cmpxchg in the first %d bytes of %s\n",
		       ER_SCAN, ER_SYM);
		return ret;
	}
	er_md_on = !register_kprobe(&er_md_kp);
	er_sec_on = er_md_on && !register_kprobe(&er_sec_kp);
	if (er_md_on && !er_sec_on) {
		unregister_kprobe(&er_md_kp);
		er_md_on = false;
	}
	er_dentry = debugfs_create_file("errseq_race", 0600, NULL, NULL, &er_fops);
	pr_info("errseq_race: probe at %s+0x%x, %s%s\n", ER_SYM, er_off, ER_MD_SYM,
		er_md_on ? "" : ": none");
	return 0;
}

static void __exit er_exit(void)
{
	WRITE_ONCE(er_mode, ER_OFF);
	debugfs_remove(er_dentry);
	unregister_kprobe(&er_kp);
	if (er_md_on) {
		unregister_kprobe(&er_sec_kp);
		unregister_kprobe(&er_md_kp);
	}
}

module_init(er_init);
module_exit(er_exit);
MODULE_DESCRIPTION("test-only: widen errseq_check_and_advance()'s load-to-cmpxchg window");
MODULE_LICENSE("GPL");
