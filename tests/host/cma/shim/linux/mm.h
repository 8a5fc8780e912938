/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: <linux/mm.h>, 4 KiB pages. */
#ifndef __SHIM_LINUX_MM_H
#define __SHIM_LINUX_MM_H

#include <linux/align.h>
#include <linux/kernel.h>

#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define PAGE_MASK		(~(PAGE_SIZE - 1))
#define PAGE_ALIGN(addr)	ALIGN(addr, PAGE_SIZE)

#endif
