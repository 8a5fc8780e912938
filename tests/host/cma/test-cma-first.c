// SPDX-License-Identifier: GPL-2.0
/*
 * When movable allocations take CMA pageblocks first (mm/page_alloc.c,
 * kernel patch "mm: page_alloc: vm.cma_first_ratio"), on the host: the
 * kernel's own zone_cma_first(), cut out of the patched tree by the Makefile,
 * against the rule it states, on every zone of up to 160 free pages (every
 * split between CMA and other free pages, high watermarks 0 to 40) and
 * every ratio 0 to 100:
 *
 *   - ratio 50 is 6.1's rule exactly (CMA first while its free pages are
 *     more than half the zone's, the integer division included);
 *   - CMA first while its free pages are more than ratio percent of the
 *     zone's; above 50 also once an allocation that cannot use CMA
 *     pageblocks would fail the high watermark (the page allocator's own
 *     zone_watermark_ok_safe(), asked as a GFP_KERNEL request asks: order 0,
 *     ZONE_NORMAL's lowmem reserve, no ALLOC_CMA; the stub below is
 *     __zone_watermark_ok()'s arithmetic: free CMA pages and the
 *     high-atomic reserve do not count); never without free CMA pages;
 *   - on each side of 50, a higher ratio never makes CMA come first where a
 *     lower one did not (at 51 the watermark joins the rule).
 *
 *   test-cma-first        one "ok - " line per property (the suite's TAP),
 *                         exit status 1 on a failure
 */
#include <stdbool.h>
#include <stdio.h>

enum zone_stat_item { NR_FREE_PAGES, NR_FREE_CMA_PAGES };
enum { ZONE_DMA, ZONE_NORMAL };
struct zone { unsigned long free, cma, high, highatomic, reserve; };

#define GFP_KERNEL		0x1cc0u
#define gfp_zone(gfp)		((gfp) == GFP_KERNEL ? ZONE_NORMAL : ZONE_DMA)

static unsigned long zone_page_state(struct zone *z, enum zone_stat_item item)
{
	return item == NR_FREE_PAGES ? z->free : z->cma;
}
#define high_wmark_pages(z)	((z)->high)
#define READ_ONCE(x)		(x)

static int bad_call;

/*
 * The kernel's zone_watermark_ok_safe() asks __zone_watermark_ok() with no
 * alloc_flags (so no ALLOC_CMA): its arithmetic at order 0.
 */
static bool zone_watermark_ok_safe(struct zone *z, unsigned int order,
				   unsigned long mark, int highest_zoneidx)
{
	long free = (long)z->free - (long)z->cma - (long)z->highatomic;

	if (order || highest_zoneidx != ZONE_NORMAL ||
	    mark != z->high)
		bad_call = 1;
	return free > (long)(mark + z->reserve);
}

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
	printf("not ok - %s (first failure: %lu free, %lu of them CMA, high watermark %lu, high-atomic %lu, lowmem reserve %lu, ratio %d)\n",
	       what, z->free, z->cma, z->high, z->highatomic, z->reserve, ratio);
}

int main(void)
{
	struct zone z, bad[4] = { 0 };
	int ratio, badr[4] = { 0 };
	bool ok[4] = { true, true, true, true };

	for (z.high = 0; z.high <= MAX_HIGH; z.high++)
	for (z.highatomic = 0; z.highatomic <= 8; z.highatomic += 8)
	for (z.reserve = 0; z.reserve <= 6; z.reserve += 6)
		for (z.free = 0; z.free <= MAX_FREE; z.free++)
			for (z.cma = 0; z.cma <= z.free; z.cma++) {
				bool prev = true;
				bool low = (long)(z.free - z.cma - z.highatomic) <=
					   (long)(z.high + z.reserve);

				for (ratio = 0; ratio <= 100; ratio++) {
					bool got, want;

					sysctl_cma_first_ratio = ratio;
					got = zone_cma_first(&z);
					/* 6.1: NR_FREE_CMA_PAGES > NR_FREE_PAGES / 2 */
					if (ratio == 50 && ok[0] &&
					    got != (z.cma > z.free / 2)) {
						ok[0] = false;
						bad[0] = z;
						badr[0] = ratio;
					}
					want = z.cma && (100 * z.cma > ratio * z.free ||
							 (ratio > 50 && low));
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
					if (ratio == 51)
						prev = true;
					if (ok[3] && got && !prev) {
						ok[3] = false;
						bad[3] = z;
						badr[3] = ratio;
					}
					prev = got;
				}
			}
	report(ok[0], "zone_cma_first(): ratio 50 is 6.1's rule exactly, free CMA pages more than half the free pages", &bad[0], badr[0]);
	report(ok[1], "zone_cma_first(): CMA first above the ratio, or (ratio above 50) once a GFP_KERNEL request fails the high watermark", &bad[1], badr[1]);
	report(ok[2], "zone_cma_first(): never CMA first without free CMA pages", &bad[2], badr[2]);
	report(ok[3], "zone_cma_first(): on each side of 50, a higher ratio never puts CMA first where a lower one did not", &bad[3], badr[3]);
	if (bad_call)
		failed = 1;
	printf("%sok - zone_cma_first(): asks the watermark as a GFP_KERNEL request (order 0, no ALLOC_CMA, the high mark)\n",
	       bad_call ? "not " : "");
	return failed;
}
