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
void free_reserved_page(struct page *page);
/* A frame a test pinned or made resident (shim_resident()) is in use. */
int page_count(const struct page *page);

#endif
