/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: <linux/mmzone.h>: 4 MiB pageblocks; two zones split at
 * shim_zone_split (a frame number, 0 for one zone); a frame is valid when
 * it is in one of the fake RAM banks.
 */
#ifndef __SHIM_LINUX_MMZONE_H
#define __SHIM_LINUX_MMZONE_H

#include <linux/mm.h>

#define pageblock_nr_pages	1024UL
#define MAX_ORDER		11

struct zone { int id; };
struct zone *page_zone(const struct page *page);
bool pfn_valid(unsigned long pfn);
extern unsigned long totalcma_pages;

#endif
