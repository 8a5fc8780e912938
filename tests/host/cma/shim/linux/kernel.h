/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: tools/include's <linux/kernel.h> plus what it lacks. */
#ifndef __SHIM_LINUX_KERNEL_H
#define __SHIM_LINUX_KERNEL_H

#include_next <linux/kernel.h>
#include <limits.h>
#include <linux/printk.h>

#ifndef ULLONG_MAX
#define ULLONG_MAX	(~0ULL)
#endif

void shim_warn(const char *file, int line, const char *cond);
#undef WARN_ON
#define WARN_ON(cond) ({						\
	int __c = !!(cond);						\
	if (__c)							\
		shim_warn(__FILE__, __LINE__, #cond);			\
	__c;								\
})

#endif
