// SPDX-License-Identifier: GPL-2.0
/*
 * When movable allocations take CMA pageblocks first (mm/page_alloc.c,
 * kernel patch "mm: page_alloc: vm.cma_first_ratio"), on the host: the
 * kernel's own zone_cma_first(), cut out of the patched tree by the Makefile,
 * against the rule it states, on every zone of up to 160 free pages (every
 * split between CMA and other free pages, high watermarks 0 to 40) and
 * every ratio 0 to 100:
 *
 *   - ratio 50 is 6.1's rule (CMA first while its free pages are more than
 *     half the zone's, the integer division included) but for the
 *     watermark case below;
 *   - CMA first while its free pages are more than ratio percent of the
 *     zone's, or once the other free pages are down to the high watermark;
 *     never without free CMA pages;
 *   - a higher ratio never makes CMA come first where a lower one did not.
 *
 *   test-cma-first        one "ok - " line per property (the suite's TAP),
 *                         exit status 1 on a failure
 */
#include <stdbool.h>
#include <stdio.h>

enum zone_stat_item { NR_FREE_PAGES, NR_FREE_CMA_PAGES };
struct zone { unsigned long free, cma, high; };

static unsigned long zone_page_state(struct zone *z, enum zone_stat_item item)
{
	return item == NR_FREE_PAGES ? z->free : z->cma;
}
#define high_wmark_pages(z)	((z)->high)
#define READ_ONCE(x)		(x)

static int sysctl_cma_first_ratio;

#include "cma-first.c"

#define MAX_FREE	160
#define MAX_HIGH	40

static int failed;

static void report(bool ok, const char *what, const struct zone *z, int ratio)
{
	if (ok) {
		printf("ok - %s\n", what);
		return;
	}
	failed = 1;
	printf("not ok - %s (first failure: %lu free, %lu of them CMA, high watermark %lu, ratio %d)\n",
	       what, z->free, z->cma, z->high, ratio);
}

int main(void)
{
	struct zone z, bad[4] = { 0 };
	int ratio, badr[4] = { 0 };
	bool ok[4] = { true, true, true, true };

	for (z.high = 0; z.high <= MAX_HIGH; z.high++)
		for (z.free = 0; z.free <= MAX_FREE; z.free++)
			for (z.cma = 0; z.cma <= z.free; z.cma++) {
				bool prev = true, low = z.free - z.cma <= z.high;

				for (ratio = 0; ratio <= 100; ratio++) {
					bool got, want;

					sysctl_cma_first_ratio = ratio;
					got = zone_cma_first(&z);
					/* 6.1: NR_FREE_CMA_PAGES > NR_FREE_PAGES / 2 */
					if (ratio == 50 && ok[0] &&
					    got != (z.cma > z.free / 2 || (z.cma && low))) {
						ok[0] = false;
						bad[0] = z;
						badr[0] = ratio;
					}
					want = z.cma && (100 * z.cma > ratio * z.free || low);
					if (ok[1] && got != want) {
						ok[1] = false;
						bad[1] = z;
						badr[1] = ratio;
					}
					if (ok[2] && !z.cma && got) {
						ok[2] = false;
						bad[2] = z;
						badr[2] = ratio;
					}
					if (ok[3] && got && !prev) {
						ok[3] = false;
						bad[3] = z;
						badr[3] = ratio;
					}
					prev = got;
				}
			}
	report(ok[0], "zone_cma_first(): ratio 50 is 6.1's rule, free CMA pages more than half the free pages", &bad[0], badr[0]);
	report(ok[1], "zone_cma_first(): CMA first above the ratio or once the other free pages are at the high watermark", &bad[1], badr[1]);
	report(ok[2], "zone_cma_first(): never CMA first without free CMA pages", &bad[2], badr[2]);
	report(ok[3], "zone_cma_first(): a higher ratio never puts CMA first where a lower one did not", &bad[3], badr[3]);
	return failed;
}
