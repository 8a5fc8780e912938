/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: <linux/highmem.h>.  The harness has no memory behind its
 * physical addresses: clearing a page records its frame number instead
 * (shim_pages_cleared, shim_page_cleared()).
 */
#ifndef __SHIM_LINUX_HIGHMEM_H
#define __SHIM_LINUX_HIGHMEM_H

#include <linux/mm.h>

void clear_highpage(struct page *page);
static inline void cond_resched(void) { }

#endif
