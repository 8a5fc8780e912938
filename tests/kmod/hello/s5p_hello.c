// SPDX-License-Identifier: GPL-2.0
/*
 * The smallest module for tests/suites/15-share.sh: says hello with its
 * parameter when loaded and goodbye when removed, and allocates one page
 * of DMA-able memory to show it runs on the board's kernel.
 */
#include <linux/module.h>
#include <linux/gfp.h>
#include <linux/mm.h>

static char *who = "world";
module_param(who, charp, 0444);
MODULE_PARM_DESC(who, "who to greet");

static int __init s5p_hello_init(void)
{
	unsigned long page = __get_free_page(GFP_KERNEL);

	if (!page)
		return -ENOMEM;
	pr_info("s5p_hello: hello, %s (page at %pa)\n", who,
		&(phys_addr_t){ virt_to_phys((void *)page) });
	free_page(page);
	return 0;
}

static void __exit s5p_hello_exit(void)
{
	pr_info("s5p_hello: goodbye, %s\n", who);
}

module_init(s5p_hello_init);
module_exit(s5p_hello_exit);
MODULE_DESCRIPTION("hello-world test module of the S5PV210 CMA project");
MODULE_LICENSE("GPL");
