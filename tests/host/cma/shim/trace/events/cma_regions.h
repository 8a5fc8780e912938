/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: <trace/events/cma_regions.h>: each event is recorded in
 * shim_trace (the last one of each kind, and how many there were).
 */
#ifndef __SHIM_TRACE_EVENTS_CMA_REGIONS_H
#define __SHIM_TRACE_EVENTS_CMA_REGIONS_H

#include <linux/types.h>

struct shim_trace {
	long starts, finishes, busy, releases;
	char region[32], dev[32], kind[32];
	unsigned long size, align, addr, migrated, busy_pfn, busy_count;
	int err;
	unsigned int tries;
	u64 ns;
};
extern struct shim_trace shim_trace;

void trace_cma_regions_alloc_start(const char *region, const char *dev,
				   const char *kind, unsigned long size,
				   unsigned long align);
void trace_cma_regions_alloc_finish(const char *region, const char *dev,
				    const char *kind, unsigned long size,
				    unsigned long align, unsigned long addr,
				    int err, unsigned int tries, u64 ns,
				    unsigned long migrated);
void trace_cma_regions_claim_busy(const char *region, unsigned long pfn,
				  unsigned long count, unsigned long busy_pfn,
				  int err);
void trace_cma_regions_release(const char *region, const char *dev,
			       const char *kind, unsigned long addr,
			       unsigned long size);
#define trace_cma_regions_claim_busy_enabled()	1

#endif
