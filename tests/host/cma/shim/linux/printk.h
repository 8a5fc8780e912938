/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: <linux/printk.h>.  Messages go to the harness's log. */
#ifndef __SHIM_LINUX_PRINTK_H
#define __SHIM_LINUX_PRINTK_H

#include <linux/compiler.h>

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

__attribute__((format(printf, 2, 3)))
void shim_printk(int level, const char *fmt, ...);

#define pr_err(fmt, ...)	shim_printk(3, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	shim_printk(4, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn_ratelimited(fmt, ...) pr_warn(fmt, ##__VA_ARGS__)
#define pr_notice(fmt, ...)	shim_printk(5, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	shim_printk(6, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...)	shim_printk(7, pr_fmt(fmt), ##__VA_ARGS__)

#endif
