/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: <linux/gfp.h>, the page allocator calls of movable regions.
 * shim.c models each page frame's state (reserved, lent, held) and fails
 * alloc_contig_range() on frames a test pinned (shim_pin()).
 */
#ifndef __SHIM_LINUX_GFP_H
#define __SHIM_LINUX_GFP_H

#include <linux/mm.h>

/* gfp_t and GFP_KERNEL come from tools/include's <linux/types.h>. */
#define __GFP_NOWARN	0
#define MIGRATE_CMA	4

int alloc_contig_range(unsigned long start, unsigned long end,
		       unsigned int migratetype, gfp_t gfp_mask);
int alloc_contig_free_range(unsigned long start, unsigned long end,
			    unsigned int migratetype);
void free_contig_range(unsigned long pfn, unsigned long nr_pages);
void init_cma_reserved_pageblock(struct page *page);

#endif
