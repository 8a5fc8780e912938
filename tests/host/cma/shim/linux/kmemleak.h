/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: <linux/kmemleak.h>; counts the ranges kmemleak is told to ignore. */
#ifndef __SHIM_LINUX_KMEMLEAK_H
#define __SHIM_LINUX_KMEMLEAK_H

#include <linux/types.h>

extern long shim_kmemleak_ignored;

static inline void kmemleak_ignore_phys(phys_addr_t phys)
{
	shim_kmemleak_ignored++;
}

#endif
