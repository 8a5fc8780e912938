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
#define PHYS_PFN(x)		((unsigned long)((x) >> PAGE_SHIFT))

/*
 * No struct pages: a page pointer is its frame number.  Giving a reserved
 * page back to the page allocator is counted (shim_pages_given_back).
 */
struct page;
#define pfn_to_page(pfn)	((struct page *)(unsigned long)(pfn))
#define page_to_pfn(page)	((unsigned long)(page))

/* The order of pages that @size bytes take (rounded up to a power of two) */
static inline int get_order(unsigned long size)
{
	int order = 0;

	for (size = (size - 1) >> PAGE_SHIFT; size; size >>= 1)
		order++;
	return order;
}
void free_reserved_page(struct page *page);
/* A frame a test pinned or made resident (shim_resident()) is in use. */
int page_count(const struct page *page);

/*
 * What placement reads of a lent page (mm/cma-regions.c): a frame a test
 * made the head of a free buddy block (shim_buddy()) is PageBuddy() with
 * its order, and each PageBuddy() call counts a read (shim_page_reads); a
 * pinned frame is page_maybe_dma_pinned(); a frame in use is on an LRU
 * list unless a test made it unmovable (shim_unmovable()).  The kernel's
 * mm/internal.h (which cma-regions.c includes for buddy_order_unsafe())
 * cannot build here: its guard is defined, so it reads as empty.
 */
#define __MM_INTERNAL_H
int PageBuddy(const struct page *page);
unsigned long shim_buddy_order(const struct page *page);
#define buddy_order_unsafe(page)	shim_buddy_order(page)
int page_maybe_dma_pinned(const struct page *page);
int PageLRU(const struct page *page);
#define __PageMovable(page)	0
#define PageHuge(page)		0
#define PageCompound(page)	0
#define page_mapping(page)	((void *)0)
#define page_mapcount(page)	page_count(page)

#endif
