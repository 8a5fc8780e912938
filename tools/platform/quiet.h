/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's pr_debug() without DEBUG: nothing (for drivers/of/fdt_address.c). */
#include <linux/printk.h>
#undef pr_debug
#define pr_debug(fmt, ...) do { } while (0)
#undef pr_fmt
