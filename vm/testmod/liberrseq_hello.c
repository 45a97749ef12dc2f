// SPDX-License-Identifier: GPL-2.0
/*
 * liberrseq_hello: the smallest out-of-tree module, built by vm/kmod-build.sh and loaded
 * in the guest by the vm-kmod-* tests. warn=1 makes it WARN, to check that vm/run.sh
 * catches kernel splats.
 */
#include <linux/module.h>
#include <linux/errseq.h>

static bool warn;
module_param(warn, bool, 0444);
MODULE_PARM_DESC(warn, "WARN at load time (tests vm/run.sh splat detection)");

static int __init liberrseq_hello_init(void)
{
	errseq_t eseq = 0;
	errseq_t since = errseq_sample(&eseq);

	errseq_set(&eseq, -EIO);
	pr_info("liberrseq_hello: loaded; errseq_check_and_advance after -EIO: %d\n",
		errseq_check_and_advance(&eseq, &since));
	WARN(warn, "liberrseq_hello: warning on request\n");
	return 0;
}

static void __exit liberrseq_hello_exit(void)
{
	pr_info("liberrseq_hello: unloaded\n");
}

module_init(liberrseq_hello_init);
module_exit(liberrseq_hello_exit);
MODULE_DESCRIPTION("liberrseq vm/ test module");
MODULE_LICENSE("GPL");
