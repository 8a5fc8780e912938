// SPDX-License-Identifier: GPL-2.0
/*
 * A module whose init fails (tests/suites/15-share.sh): boot.sh --module
 * must stop with status 4 and show this message from the kernel log.
 */
#include <linux/module.h>

static int __init s5p_fail_init(void)
{
	pr_err("s5p_fail: refusing to load, as asked\n");
	return -ENODEV;
}

module_init(s5p_fail_init);
MODULE_DESCRIPTION("test module of the S5PV210 CMA project that never loads");
MODULE_LICENSE("GPL");
