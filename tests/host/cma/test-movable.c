// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the CMA framework: movable regions (cma_movable=): what is
 * lent, held, claimed and placed.
 */
#include "test-cma.h"

/* Movable regions (cma_movable=): what is lent, held and tried. */

#define LENT(addr, size)	shim_frames_in(PFN(addr), (size) >> 12, SHIM_LENT)
#define HELD(addr, size)	shim_frames_in(PFN(addr), (size) >> 12, SHIM_HELD)
#define EBUSY_RET	((unsigned long)-EBUSY)

static void boot_movable(void)
{
	/* a is "blind": its claims slide as 6.1's do (placement: issue 25). */
	struct boot b = { "a=8M@0x40000000:bf(blind);b=1M;c=6M@0x44000000;d=4M", "x=a;y=b;z=d",
			  .movable = "a,b,c,zz,,b@d" };
	struct cma_region *a;
	unsigned long x, y, pfn;
	long fails, taken, busy;

	begin("boot: cma_movable= lends whole-pageblock regions; the others stay static, with a reason");
	CHECK(boot(&b) == 4);
	CHECK_LOG("cma: cma_movable=a,b,c,zz,,b@d (command line)");
	CHECK_LOG("cma: error: region b: 0x57f00000-0x57ffffff is not made of whole 4096 KiB pageblocks; it stays static");
	CHECK_LOG("cma: error: region c: 0x44000000-0x445fffff is not made of whole 4096 KiB pageblocks; it stays static");
	CHECK_LOG("cma: error: cma_movable=: no region zz; ignored");
	CHECK_LOG("cma: error: cma_movable=: \"\" is not a region name; ignored");
	CHECK_LOG("cma: error: cma_movable=: \"b@d\" is not a region name; ignored");
	CHECK_ERRORS(5);
	CHECK_LOG("cma: region a: movable: its free memory serves movable pages");
	CHECK(shim_log_count("movable: its free memory") == 1);
	CHECK(totalcma_pages == PFN(8 * MiB));
	/* Nothing is lent before the initcall. */
	CHECK(LENT(0x40000000, 8 * MiB) == 0);
	shim_run_initcalls();
	a = cma_region_find("a");
	CHECK(a && a->movable && !cma_region_find("b")->movable && !cma_region_find("d")->movable);
	CHECK(shim_lent_blocks == 2 && LENT(0x40000000, 8 * MiB) == PFN(8 * MiB));
	CHECK(LENT(0x44000000, 6 * MiB) == 0);

	/*
	 * A chunk takes its pages back and gives them back when freed; free
	 * pages are taken off the free lists, alloc_contig_range() not called.
	 */
	taken = shim_free_taken;
	busy = shim_free_busy;
	y = shim_contig_calls;
	x = cma_kind_alloc(dev("x"), NULL, MiB, 0);
	CHECK(x == 0x40000000 && HELD(x, MiB) == PFN(MiB) && LENT(0x40000000, 8 * MiB) == PFN(7 * MiB));
	CHECKF(shim_free_taken - taken == 1 && shim_free_busy == busy && shim_contig_calls - y == 1,
	       "fast path: %ld taken, %ld declined, %ld ranges tried", shim_free_taken - taken,
	       shim_free_busy - busy, shim_contig_calls - y);
	CHECK(a->claims == 1 && a->claim_busy == 0 && a->claim_ns > 0);
	CHECK(cma_kind_get(x) == 0 && cma_kind_put(x) == 0 && HELD(x, MiB) == PFN(MiB));
	CHECK(cma_kind_put(x) == 1 && LENT(0x40000000, 8 * MiB) == PFN(8 * MiB));
	/* Static regions never call the page allocator. */
	y = shim_contig_calls;
	CHECK(cma_kind_alloc(dev("z"), NULL, MiB, 0) != EBUSY_RET);
	CHECK(shim_contig_calls == y);

	/*
	 * A range holding a page that cannot move: slide on a page (the
	 * alignment) at a time, as 6.1's cma_alloc() does, each busy range
	 * going back at once; the pages that were in use in the busy ranges
	 * are counted as migrations thrown away.
	 */
	shim_pin(PFN(0x40000000) + 5, 1);
	shim_resident(PFN(0x40000000) + 1, 2, 1);
	shim_resident(PFN(0x40000000) + 16, 1, 1);
	y = shim_contig_calls;
	memset(&shim_trace, 0, sizeof(shim_trace));
	pfn = shim_vm_events[CMA_ALLOC_SUCCESS];
	x = cma_kind_alloc(dev("x"), NULL, MiB, 0);
	CHECKF(x == 0x40006000, "%#lx", x);
	CHECKF(shim_contig_calls - y == 7, "%ld ranges tried", shim_contig_calls - y);
	/* Each range held a page in use: the fast path declined all 7. */
	CHECKF(shim_free_busy - busy == 7 && shim_free_taken - taken == 1,
	       "fast path: %ld declined, %ld taken", shim_free_busy - busy, shim_free_taken - taken);
	CHECK(a->claims == 2 && a->claim_busy == 6);
	CHECKF(a->claim_wasted == 3 + 3 + 2 + 1 + 1 + 1 + 6, "%lu pages wasted", a->claim_wasted);
	/* The trace events and /proc/vmstat's counters say the same. */
	CHECK(shim_trace.starts == 1 && shim_trace.finishes == 1 && shim_trace.busy == 6);
	CHECKF(!strcmp(shim_trace.region, "a") && !strcmp(shim_trace.dev, "x") &&
	       shim_trace.addr == x && shim_trace.err == 0 && shim_trace.tries == 7 &&
	       shim_trace.migrated == 1 && shim_trace.size == MiB && shim_trace.ns > 0,
	       "finish: region=%s dev=%s addr=%#lx err=%d tries=%u migrated=%lu",
	       shim_trace.region, shim_trace.dev, shim_trace.addr, shim_trace.err,
	       shim_trace.tries, shim_trace.migrated);
	CHECKF(shim_trace.busy_pfn == PFN(0x40000000) + 5 && shim_trace.busy_count == 256,
	       "busy pfn %#lx", shim_trace.busy_pfn);
	CHECK(shim_vm_events[CMA_ALLOC_SUCCESS] == (long)pfn + 1);
	shim_resident(PFN(0x40000000) + 16, 1, 0);
	CHECK(a->used == MiB && a->nr_chunks == 1);
	/* The busy ranges went back to the allocator, their pages still lent. */
	CHECK(LENT(0x40000000, 0x6000) == 6);
	CHECK(cma_region_largest_free(a) == 7 * MiB - 0x6000);
	CHECK(shim_log_count("could not be moved") == 0);
	shim_resident(PFN(0x40000000) + 1, 2, 0);

	/* A page pinned in every 256 KiB: every position is tried, then -EBUSY. */
	for (pfn = PFN(0x40000000) + 7; pfn < PFN(0x40800000); pfn += 64)
		shim_pin(pfn, 1);
	y = shim_contig_calls;
	shim_log_clear();	/* a debug line per range would fill it */
	fails = shim_vm_events[CMA_ALLOC_FAIL];
	CHECK(cma_kind_alloc(dev("x"), NULL, 512 * KiB, 0) == EBUSY_RET);
	CHECK(shim_vm_events[CMA_ALLOC_FAIL] == fails + 1);
	CHECK(shim_trace.err == -EBUSY && shim_trace.addr == 0);
	pfn = (7 * MiB - 0x6000 - 512 * KiB) / 4096 + 1;
	CHECKF(shim_contig_calls - y == (long)pfn, "%ld ranges tried, expected %lu",
	       shim_contig_calls - y, pfn);
	CHECK(a->claim_busy == 6 + pfn && a->alloc_fails == 1);
	CHECK_LOG("cma: x/: 0x80000 bytes: the pages of the free ranges tried could not be moved (-16)");
	CHECK(a->used == MiB && cma_region_largest_free(a) == 7 * MiB - 0x6000);
	CHECK(LENT(0x40000000, 8 * MiB) == PFN(7 * MiB));
	/* A region that cannot serve the size at all is still -ENOMEM. */
	CHECK(cma_kind_alloc(dev("x"), NULL, 16 * MiB, 0) == (unsigned long)-ENOMEM);

	/* Any other error (a fatal signal: -EINTR) ends the call at once. */
	for (pfn = PFN(0x40000000); pfn < PFN(0x40800000); pfn++)
		shim_pin(pfn, 0);
	shim_contig_fail = -EINTR;
	y = shim_contig_calls;
	CHECK(cma_kind_alloc(dev("x"), NULL, MiB, 0) == (unsigned long)-EINTR);
	CHECK(shim_contig_calls - y == 1);
	shim_contig_fail = 0;
	CHECK(cma_kind_put(x) == 1);
	CHECK(LENT(0x40000000, 8 * MiB) == PFN(8 * MiB) && a->used == 0);
	CHECK(shim_contig_errors == 0);
	if (case_failed)
		dump_log();
	end();
}

/*
 * A release during a claim (issue 23): migrating may enter direct reclaim,
 * whose shrinkers may free a region's buffer, so the last cma_kind_put() can run
 * inside a claim, on the claiming thread.  It must neither deadlock on a
 * lock the claim holds nor wait for it: the claim holds no CMA lock but
 * its region's claim mutex, which a release never takes.
 */
static unsigned long claim_hook_addr;
static int claim_hook_ret = -100, claim_hook_mutexes = -1;
static long claim_hook_locks = -1;

static void claim_hook(void)
{
	long locks = shim_mutex_locks;

	shim_contig_hook = NULL;
	claim_hook_mutexes = shim_mutexes_held;
	claim_hook_ret = cma_kind_put(claim_hook_addr);
	claim_hook_locks = shim_mutex_locks - locks;
}

static void boot_movable_release_in_claim(void)
{
	struct boot b = { "a=8M@0x40000000", "x=a", .movable = "a" };
	struct cma_region *a;
	unsigned long x, y;

	begin("movable: the last cma_kind_put() inside a claim (a shrinker freeing a buffer) neither deadlocks nor waits");
	CHECK(boot(&b) == 1);
	shim_run_initcalls();
	a = cma_region_find("a");
	y = cma_kind_alloc(dev("x"), NULL, MiB, 0);
	CHECK(y == 0x40000000 && HELD(y, MiB) == PFN(MiB));
	claim_hook_addr = y;
	shim_contig_hook = claim_hook;
	x = cma_kind_alloc(dev("x"), NULL, MiB, 0);
	CHECKF(x == 0x40100000, "%#lx", x);
	CHECKF(claim_hook_ret == 1, "cma_kind_put() inside the claim: %d", claim_hook_ret);
	CHECKF(claim_hook_mutexes == 1, "%d mutexes held by the claim", claim_hook_mutexes);
	CHECKF(claim_hook_locks == 0, "the release took %ld mutexes", claim_hook_locks);
	CHECK(LENT(y, MiB) == PFN(MiB) && a->used == MiB && a->nr_chunks == 1);
	CHECK(cma_kind_put(x) == 1 && LENT(0x40000000, 8 * MiB) == PFN(8 * MiB));
	CHECKF(shim_warnings == 0, "%d warnings", shim_warnings);
	CHECK(shim_contig_errors == 0);
	if (case_failed)
		dump_log();
	end();
}

/*
 * A fatal signal while a claim migrates ends the allocation at once: the
 * rule's next region is not tried (issue 23, item 6).
 */
static void boot_movable_eintr(void)
{
	struct boot b = { "a=8M@0x40000000;b=8M@0x44000000", "x=a,b", .movable = "a,b" };
	unsigned long y;

	begin("movable: -EINTR in the first region of a rule ends the call; the next region is not tried");
	CHECK(boot(&b) == 2);
	shim_run_initcalls();
	shim_contig_fail = -EINTR;
	y = shim_contig_calls;
	CHECK(cma_kind_alloc(dev("x"), NULL, MiB, 0) == (unsigned long)-EINTR);
	CHECKF(shim_contig_calls - y == 1, "%ld ranges tried", shim_contig_calls - y);
	CHECK(cma_region_find("b")->alloc_fails == 0);
	shim_contig_fail = 0;
	CHECK(LENT(0x40000000, 8 * MiB) == PFN(8 * MiB) && LENT(0x44000000, 8 * MiB) == PFN(8 * MiB));
	CHECK(shim_contig_errors == 0);
	if (case_failed)
		dump_log();
	end();
}

/*
 * Busy pages in each of the first eight 1 MiB ranges: the 8 disjoint tries
 * of old all failed, while sliding finds the range past the last busy page
 * (issue 23, item 6).
 */
static void boot_movable_slide(void)
{
	static char spec[64];
	struct boot b = { spec, "x=a", .movable = "a" };
	const char *alloc = boot_alloc ?: "bf";
	struct cma_region *a;
	unsigned long x, y, k;
	int n;

	/* "blind": no placement, the allocator's choice then the slide. */
	snprintf(spec, sizeof(spec), "a=16M@0x40000000:%s(blind)", alloc);
	boot_alloc = NULL;
	begin("movable (%s(blind)): a claim slides through the region past busy pages, as 6.1's cma_alloc()",
	      alloc);
	n = boot(&b);
	boot_alloc = alloc;
	CHECK(n == 1);
	shim_run_initcalls();
	a = cma_region_find("a");
	for (k = 0; k < 8; k++)
		shim_pin(PFN(0x40000000 + k * MiB + 512 * KiB), 1);
	y = shim_contig_calls;
	x = cma_kind_alloc(dev("x"), NULL, MiB, 0);
	CHECKF(x == 0x40781000, "%#lx", x);
	CHECKF(shim_contig_calls - y == 1922, "%ld ranges tried", shim_contig_calls - y);
	CHECK(a->claim_busy == 1921 && a->claims == 1 && a->alloc_fails == 0);
	CHECK(cma_kind_put(x) == 1 && LENT(0x40000000, 16 * MiB) == PFN(16 * MiB));
	CHECK(shim_contig_errors == 0);
	if (case_failed)
		dump_log();
	end();
}

/*
 * Placement (issue 25): a movable region claims, among the aligned windows
 * that fit at an end of a free block, the one with the fewest lent pages
 * in use; a window holding a page that looks pinned or unmovable only if
 * there is no other; after a busy claim, the next cheapest window; a
 * window that would split its block only when no end is left.  A 16 MiB
 * region, 1 MiB requests aligned to 1 MiB: sixteen windows, each given
 * some pages in use, and (place_fence()) chunks on some of them so that
 * the others are free blocks of one window or more.
 */
static const char *place_alloc(void)
{
	return boot_alloc ?: "bf";
}

/* Window @w (1 MiB from 0x40000000) gets @nr pages in use, from its 17th. */
static void place_use(unsigned int w, unsigned long nr)
{
	shim_resident(PFN(0x40000000 + w * MiB) + 16, nr, 1);
}

static struct cma_region *place_boot(const char *params)
{
	static char spec[64];
	struct boot b = { spec, "x=a", .movable = "a" };
	const char *saved = boot_alloc;
	unsigned int w;
	int n;

	snprintf(spec, sizeof(spec), "a=16M@0x40000000:%s%s", place_alloc(), params);
	boot_alloc = NULL;
	n = boot(&b);
	boot_alloc = saved;
	CHECK(n == 1);
	shim_run_initcalls();
	for (w = 0; w < 16; w++)
		place_use(w, 50);
	return cma_region_find("a");
}

static void place_clear(void)
{
	shim_resident(PFN(0x40000000), PFN(16 * MiB), 0);
}

/* The fences of place_fence(), a window each, or 0. */
static unsigned long place_fences[16];

/*
 * Chunks on every window but those of @holes (a bit a window), then 50
 * pages in use in every window: the free blocks are the runs of @holes.
 */
static void place_fence(unsigned int holes)
{
	unsigned int w;

	place_clear();
	for (w = 0; w < 16; w++) {
		place_fences[w] = cma_kind_alloc(dev("x"), NULL, MiB, MiB);
		CHECKF(place_fences[w] == 0x40000000 + w * MiB, "%#lx", place_fences[w]);
	}
	for (w = 0; w < 16; w++) {
		if (!(holes & (1u << w)))
			continue;
		CHECK(cma_kind_put(place_fences[w]) == 1);
		place_fences[w] = 0;
	}
	for (w = 0; w < 16; w++)
		place_use(w, 50);
}

static void place_unfence(void)
{
	unsigned int w;

	for (w = 0; w < 16; w++) {
		if (place_fences[w])
			CHECK(cma_kind_put(place_fences[w]) == 1);
		place_fences[w] = 0;
	}
}

/* A placement case's end: fences gone, every page lent back, no error. */
static void place_end(void)
{
	place_unfence();
	place_clear();
	CHECK(LENT(0x40000000, 16 * MiB) == PFN(16 * MiB));
	CHECK(shim_contig_errors == 0);
	if (case_failed)
		dump_log();
	end();
}

/* Free blocks: windows 0, 3, 5, 7, 9 alone, and 11-14 (ends 11 and 14). */
#define PLACE_HOLES	(1u << 0 | 1u << 3 | 1u << 5 | 1u << 7 | 1u << 9 | \
			 0xfu << 11)

static void boot_movable_place_cheapest(void)
{
	struct cma_region *a;
	unsigned long x, y, claims;
	long reads;

	begin("movable (%s): placement claims the end of a free block with the fewest pages in use",
	      place_alloc());
	a = place_boot("");
	place_fence(PLACE_HOLES);
	shim_resident(PFN(0x40900000) + 16, 47, 0);	/* window 9: 3 in use */
	y = shim_contig_calls;
	claims = a->claims;
	memset(&shim_trace, 0, sizeof(shim_trace));
	x = cma_kind_alloc(dev("x"), NULL, MiB, MiB);
	CHECKF(x == 0x40900000, "%#lx", x);
	CHECKF(shim_contig_calls - y == 1, "%ld ranges tried", shim_contig_calls - y);
	CHECKF(shim_trace.migrated == 3, "%lu pages migrated", shim_trace.migrated);
	CHECK(a->claims == claims + 1 && a->claim_busy == 0);
	CHECK(cma_kind_put(x) == 1);

	/*
	 * Windows 12 and 13, nothing in use, would split the block 11-14:
	 * its end 14, 10 in use, is taken instead.
	 */
	place_use(9, 50);
	shim_resident(PFN(0x40c00000), PFN(2 * MiB), 0);
	shim_resident(PFN(0x40e00000) + 16, 40, 0);	/* window 14: 10 */
	memset(&shim_trace, 0, sizeof(shim_trace));
	x = cma_kind_alloc(dev("x"), NULL, MiB, MiB);
	CHECKF(x == 0x40e00000, "%#lx", x);
	CHECKF(shim_trace.migrated == 10, "%lu pages migrated", shim_trace.migrated);
	CHECK(cma_kind_put(x) == 1);
	place_unfence();

	/* Free buddy blocks are skipped by their order: one read for 1 MiB. */
	place_clear();
	shim_buddy(PFN(0x40000000), PFN(16 * MiB), 8, 1);
	reads = shim_page_reads;
	x = cma_kind_alloc(dev("x"), NULL, MiB, MiB);
	CHECKF(shim_page_reads - reads == 1, "%ld pages read", shim_page_reads - reads);
	CHECK(x != EBUSY_RET && !IS_ERR_VALUE(x) && cma_kind_put(x) == 1);
	shim_buddy(PFN(0x40000000), PFN(16 * MiB), 8, 0);

	/*
	 * Every page in use: the scan stops after CMA_PLACE_READS (32)
	 * reads a page requested, once it has a window, and claims one.
	 */
	shim_resident(PFN(0x40000000), PFN(16 * MiB), 1);
	reads = shim_page_reads;
	x = cma_kind_alloc(dev("x"), NULL, 64 * KiB, 0);
	CHECKF(shim_page_reads - reads <= 32 * 16 + 2 * 16, "%ld pages read",
	       shim_page_reads - reads);
	CHECK(!IS_ERR_VALUE(x) && cma_kind_put(x) == 1);
	place_end();
}

/*
 * What the region serves comes before the pages a claim migrates: an
 * 8 MiB free block whose lowest megabyte holds pages in use serves two
 * buffers of 4 MiB - 28 KiB aligned to 1 MiB (a 1920x1080 JPEG buffer of
 * the codec, issue 28's CI failure) only if the first goes at its top,
 * not at 1 MiB where nothing is in use.
 */
static void boot_movable_place_whole(void)
{
	unsigned long x, y, size = 4 * MiB - 28 * KiB;

	begin("movable (%s): placement never splits a free block while an end is left: two buffers of half an 8 MiB block fit",
	      place_alloc());
	place_boot("");
	place_fence(0xffu);
	shim_resident(PFN(0x40100000), PFN(7 * MiB), 0);	/* only window 0 */
	x = cma_kind_alloc(dev("x"), NULL, size, MiB);
	CHECKF(x == 0x40400000, "%#lx", x);
	y = cma_kind_alloc(dev("x"), NULL, size, MiB);
	CHECKF(y == 0x40000000, "%#lx", y);
	CHECK(!IS_ERR_VALUE(x) && cma_kind_put(x) == 1);
	CHECK(!IS_ERR_VALUE(y) && cma_kind_put(y) == 1);
	place_end();
}

static void boot_movable_place_pinned(void)
{
	struct cma_region *a;
	unsigned long x, y, claims;

	begin("movable (%s): placement skips a window holding a pinned or unmovable page",
	      place_alloc());
	a = place_boot("");
	place_fence(PLACE_HOLES);
	/* Window 0: one page in use, pinned; window 3: two, one unmovable. */
	shim_resident(PFN(0x40000000) + 16, 50, 0);
	shim_pin(PFN(0x40000000) + 100, 1);
	shim_resident(PFN(0x40300000) + 16, 48, 0);
	shim_unmovable(PFN(0x40300000) + 64, 1);
	/* Window 5: four in use, nothing stuck. */
	shim_resident(PFN(0x40500000) + 16, 46, 0);
	y = shim_contig_calls;
	claims = a->claims;
	x = cma_kind_alloc(dev("x"), NULL, MiB, MiB);
	CHECKF(x == 0x40500000, "%#lx", x);
	CHECKF(shim_contig_calls - y == 1, "%ld ranges tried", shim_contig_calls - y);
	CHECK(a->claims == claims + 1 && a->claim_busy == 0);
	CHECK(cma_kind_put(x) == 1);
	/* With no window left without one, a stuck window is still tried. */
	for (y = 0; y < 16; y++)
		shim_pin(PFN(0x40000000 + y * MiB) + 200, 1);
	shim_pin(PFN(0x40700000) + 200, 0);
	shim_unmovable(PFN(0x40700000) + 20, 1);
	y = shim_contig_calls;
	x = cma_kind_alloc(dev("x"), NULL, MiB, MiB);
	CHECKF(x == 0x40700000, "%#lx", x);
	CHECK(cma_kind_put(x) == 1);
	for (y = 0; y < PFN(16 * MiB); y++)
		shim_pin(PFN(0x40000000) + y, 0);
	shim_unmovable(PFN(0x40300000) + 64, 0);
	shim_unmovable(PFN(0x40700000) + 20, 0);
	place_end();
}

/* A page of windows 0 and 3 is pinned once the first claim has begun. */
static void place_pin_hook(void)
{
	shim_pin(PFN(0x40000000) + 250, 1);
	shim_pin(PFN(0x40300000) + 250, 1);
	shim_contig_hook = NULL;
}

static void boot_movable_place_busy(void)
{
	struct cma_region *a;
	unsigned long x, y, claims;

	begin("movable (%s): after a busy claim, placement takes the next cheapest window",
	      place_alloc());
	a = place_boot("");
	place_fence(PLACE_HOLES);
	claims = a->claims;
	shim_resident(PFN(0x40300000) + 16, 49, 0);	/* window 3: 1 in use */
	shim_resident(PFN(0x40700000) + 16, 48, 0);	/* window 7: 2 */
	shim_resident(PFN(0x40b00000) + 16, 47, 0);	/* window 11: 3 */
	shim_contig_hook = place_pin_hook;
	y = shim_contig_calls;
	memset(&shim_trace, 0, sizeof(shim_trace));
	x = cma_kind_alloc(dev("x"), NULL, MiB, MiB);
	CHECKF(x == 0x40700000, "%#lx", x);
	CHECKF(shim_contig_calls - y == 2, "%ld ranges tried", shim_contig_calls - y);
	CHECK(a->claims == claims + 1 && a->claim_busy == 1);
	CHECKF(shim_trace.tries == 2 && shim_trace.migrated == 2, "tries %u migrated %lu",
	       shim_trace.tries, shim_trace.migrated);
	CHECK(cma_kind_put(x) == 1);
	shim_pin(PFN(0x40000000) + 250, 0);
	shim_pin(PFN(0x40300000) + 250, 0);
	place_end();
}

/* "blind" turns placement off; static regions never read a page. */
static void boot_movable_place_off(void)
{
	unsigned long x;
	char line[128];
	long reads;

	begin("movable (%s(blind)): no placement, the allocator's window; static regions read no page",
	      place_alloc());
	place_boot("(blind)");
	snprintf(line, sizeof(line),
		 "cma: region a: base=0x40000000 size=0x01000000 align=0x1000 allocator=%s(blind)",
		 place_alloc());
	CHECK_LOG(line);
	shim_resident(PFN(0x40900000) + 16, 47, 0);
	reads = shim_page_reads;
	x = cma_kind_alloc(dev("x"), NULL, MiB, MiB);
	CHECKF(x == 0x40000000, "%#lx", x);
	CHECK(shim_page_reads == reads && cma_kind_put(x) == 1);
	place_clear();
	if (case_failed)
		dump_log();
	end();
}

static void boot_static_place_off(void)
{
	struct boot st = { "s=16M@0x40000000", "x=s" };
	unsigned long x;
	long reads;

	begin("static (%s): placement never runs", place_alloc());
	CHECK(boot(&st) == 1);
	shim_run_initcalls();
	shim_resident(PFN(0x40000000) + 16, 50, 1);
	reads = shim_page_reads;
	x = cma_kind_alloc(dev("x"), NULL, MiB, MiB);
	CHECKF(x == 0x40000000, "%#lx", x);
	CHECK(shim_page_reads == reads && cma_kind_put(x) == 1);
	if (case_failed)
		dump_log();
	end();
}

/* A fatal signal while a claim slides: -EINTR at once, no next region. */
static int signal_after;

static void signal_hook(void)
{
	if (!--signal_after)
		shim_fatal_signal = 1;
}

static void boot_movable_signal(void)
{
	struct boot b = { "a=8M@0x40000000;b=8M@0x44000000", "x=a,b", .movable = "a,b" };
	unsigned long y, pfn;

	begin("movable: a fatal signal during busy tries ends the call at once; the next region is not tried");
	CHECK(boot(&b) == 2);
	shim_run_initcalls();
	for (pfn = PFN(0x40000000); pfn < PFN(0x40800000); pfn += 64)
		shim_pin(pfn, 1);
	signal_after = 3;
	shim_contig_hook = signal_hook;
	y = shim_contig_calls;
	CHECK(cma_kind_alloc(dev("x"), NULL, MiB, 0) == (unsigned long)-EINTR);
	CHECKF(shim_contig_calls - y == 3, "%ld ranges tried", shim_contig_calls - y);
	CHECK(cma_region_find("b")->alloc_fails == 0 && cma_region_find("b")->used == 0);
	shim_contig_hook = NULL;
	shim_fatal_signal = 0;
	CHECK(LENT(0x40000000, 8 * MiB) == PFN(8 * MiB));
	CHECK(shim_contig_errors == 0);
	if (case_failed)
		dump_log();
	end();
}

/*
 * A claim waiting for the region's claim mutex, which another claim holds
 * (stuck behind a pinned page), returns -EINTR on a fatal signal instead
 * of waiting on; a hang is caught by the alarm (the case crashes).
 */
static void *hold_claim_mutex(void *arg)
{
	struct cma_region *reg = arg;

	mutex_lock(&reg->claim_mutex);
	while (!shim_fatal_signal)
		usleep(1000);
	usleep(100000);
	mutex_unlock(&reg->claim_mutex);
	return NULL;
}

static void boot_movable_killable(void)
{
	struct boot b = { "a=8M@0x40000000", "x=a", .movable = "a" };
	struct cma_region *reg;
	pthread_t t;

	begin("movable: a claim waiting behind another for the claim mutex ends with -EINTR on a fatal signal");
	CHECK(boot(&b) == 1);
	shim_run_initcalls();
	reg = cma_region_find("a");
	pthread_create(&t, NULL, hold_claim_mutex, reg);
	usleep(10000);
	shim_fatal_signal = 1;
	alarm(10);
	CHECK(cma_kind_alloc(dev("x"), NULL, MiB, 0) == (unsigned long)-EINTR);
	alarm(0);
	pthread_join(t, NULL);
	shim_fatal_signal = 0;
	CHECK(reg->used == 0 && reg->in_transit == 0);
	CHECK(LENT(0x40000000, 8 * MiB) == PFN(8 * MiB));
	CHECK(cma_kind_alloc(dev("x"), NULL, MiB, 0) == 0x40000000);
	CHECK(shim_contig_errors == 0);
	if (case_failed)
		dump_log();
	end();
}

/*
 * The DMA API's allocations (REQBUFS) retry a busy claim a few times after
 * a short sleep: a page pinned for a moment does not fail them while the
 * region has room (issue 23, item 6).
 */
static void unpin_hook(void)
{
	unsigned long pfn;

	for (pfn = PFN(0x40000000); pfn < PFN(0x40800000); pfn++)
		shim_pin(pfn, 0);
}

static void kill_hook(void)
{
	shim_fatal_signal = 1;
}

static void boot_movable_dma_retry(void)
{
	struct boot b = { "a=8M@0x40000000", "x=a", .movable = "a" };
	unsigned long x, y;

	begin("movable: the DMA path retries a busy claim after a sleep, a bounded number of times");
	CHECK(boot(&b) == 1);
	shim_run_initcalls();
	/* The whole region, with one page pinned in it: busy. */
	shim_pin(PFN(0x40000000) + 9, 1);
	CHECK(cma_kind_alloc(dev("x"), NULL, 8 * MiB, 0) == EBUSY_RET);
	CHECK(shim_sleeps == 0);
	/* Pinned for a moment: the DMA path's retry gets it. */
	shim_sleep_hook = unpin_hook;
	x = cma_alloc_for_dma("x", NULL, 8 * MiB, 0);
	CHECKF(x == 0x40000000, "%#lx", x);
	CHECK(shim_sleeps == 1);
	CHECK(cma_kind_put(x) == 1);
	/* Pinned for good: a bounded number of sleeps, then -EBUSY. */
	shim_sleep_hook = NULL;
	shim_sleeps = 0;
	shim_pin(PFN(0x40000000) + 9, 1);
	y = shim_contig_calls;
	CHECK(cma_alloc_for_dma("x", NULL, 8 * MiB, 0) == EBUSY_RET);
	CHECKF(shim_sleeps == 4 && shim_contig_calls - y == 5, "%ld sleeps, %ld tries",
	       shim_sleeps, shim_contig_calls - y);
	/* A fatal signal in the sleep: -EINTR, no more tries. */
	shim_sleeps = 0;
	shim_sleep_hook = kill_hook;
	y = shim_contig_calls;
	CHECK(cma_alloc_for_dma("x", NULL, 8 * MiB, 0) == (unsigned long)-EINTR);
	CHECK(shim_sleeps == 1 && shim_contig_calls - y == 1);
	shim_fatal_signal = 0;
	shim_sleep_hook = NULL;
	CHECK(LENT(0x40000000, 8 * MiB) == PFN(8 * MiB));
	CHECK(shim_contig_errors == 0);
	if (case_failed)
		dump_log();
	end();
}

static void boot_movable_all(void)
{
	struct boot b = { "a=8M@0x40000000;c=1M;big=12M/4M", "*=a",
			  .movable = "*" };

	begin("boot: cma_movable=* lends every region that can, with a note for the others");
	CHECK(boot(&b) == 3);
	CHECK_ERRORS(0);
	CHECK_LOG("cma: region c: not made of whole 4096 KiB pageblocks; it stays static");
	CHECK(shim_log_count("movable: its free memory") == 2);
	CHECK(totalcma_pages == PFN(20 * MiB));
	shim_run_initcalls();
	CHECK(shim_lent_blocks == 5);
	CHECK(cma_region_find("big")->movable && !cma_region_find("c")->movable);
	CHECK(shim_contig_errors == 0);
	end();
}

static void boot_movable_defaults(void)
{
	struct boot d = { NULL, NULL, "p=8M@0x48000000;q=1M", "*=p",
			  .def_movable = "p" };
	struct boot c = { "p=8M@0x48000000", NULL, "p=8M@0x48000000;q=1M", "*=p",
			  .def_movable = "p" };
	struct boot e = { NULL, NULL, "p=8M@0x48000000", "*=p",
			  .movable = "", .def_movable = "p" };
	pid_t pid;

	begin("boot: the platform's cma_movable= applies only with its own cma=");
	pid = fork();
	if (!pid) {
		CHECK(boot(&d) == 2);
		CHECK_LOG("cma: cma_movable=p (platform default)");
		CHECK(cma_region_find("p")->movable && totalcma_pages == PFN(8 * MiB));
		_exit(case_failed);
	}
	CHECK(wait_ok(pid));
	pid = fork();
	if (!pid) {
		CHECK(boot(&c) == 1);
		CHECK_LOG("cma: cma_movable= (none)");
		CHECK(!cma_region_find("p")->movable && totalcma_pages == 0);
		CHECK_ERRORS(0);
		_exit(case_failed);
	}
	CHECK(wait_ok(pid));
	CHECK(boot(&e) == 1);
	CHECK_LOG("cma: cma_movable= (command line)");
	CHECK(!cma_region_find("p")->movable && totalcma_pages == 0);
	end();
}

/*
 * A region cma_movable= names (or "*" matches) is placed by memblock at a
 * pageblock boundary, so whether it lends never depends on where memblock
 * happened to put it (issue 23, item 5); one that is not made of whole
 * pageblocks keeps its own alignment and stays static.
 */
static void boot_movable_placed(void)
{
	struct boot n = { "x=1M;m=4M;s=1M", "*=m", .movable = "m,s" };
	struct boot a = { "x=1M;m=4M;c=1M", "*=m", .movable = "*" };
	struct cma_region *m;
	pid_t pid;

	begin("boot: a movable region placed by memblock sits on pageblocks and lends");
	pid = fork();
	if (!pid) {
		CHECK(boot(&n) == 3);
		m = cma_region_find("m");
		CHECKF(m->start == 0x57800000 && m->movable, "m at %#lx", m->start);
		CHECK_LOG("cma: region m: base=0x57800000 size=0x00400000 align=0x400000 allocator=bf");
		CHECK_LOG("cma: error: region s: 0x57e00000-0x57efffff is not made of whole 4096 KiB pageblocks; it stays static");
		CHECK_ERRORS(1);
		CHECK(cma_region_find("s")->alignment == 4096);
		CHECK(totalcma_pages == PFN(4 * MiB));
		shim_run_initcalls();
		CHECK(shim_lent_blocks == 1);
		if (case_failed)
			dump_log();
		_exit(case_failed);
	}
	CHECK(wait_ok(pid));
	CHECK(boot(&a) == 3);
	m = cma_region_find("m");
	CHECKF(m->start == 0x57800000 && m->movable, "m at %#lx", m->start);
	CHECK(!cma_region_find("x")->movable && !cma_region_find("c")->movable);
	CHECK_ERRORS(0);
	CHECK(totalcma_pages == PFN(4 * MiB));
	if (case_failed)
		dump_log();
	end();
}

static void boot_movable_zones(void)
{
	struct boot b = { "z=8M@0x1fc00000;ok=4M@0x10000000", "*=z", .board = 2,
			  .movable = "*" };

	/*
	 * As any CMA area across two zones (mm/cma.c's cma_activate_area()):
	 * its memory goes back to the page allocator and it never serves.
	 */
	begin("boot: a movable region across two zones gives its memory back and never serves, with an error");
	shim_zone_split = PFN(0x20000000);
	CHECK(boot(&b) == 2);
	CHECK(totalcma_pages == PFN(12 * MiB));
	shim_run_initcalls();
	CHECK_LOG("cma: CMA area z could not be activated");
	CHECK_LOG("cma: error: region z: 0x1fc00000-0x203fffff has no CMA area (see above); it will not serve");
	CHECK(!cma_region_ready(cma_region_find("z")) &&
	      cma_region_ready(cma_region_find("ok")));
	CHECK(totalcma_pages == PFN(4 * MiB) && shim_lent_blocks == 1);
	CHECK(shim_pages_given_back == PFN(8 * MiB));
	CHECK(cma_kind_alloc(dev("a"), NULL, MiB, 0) == (unsigned long)-ENOMEM);
	CHECK(shim_contig_calls == 0 && shim_contig_errors == 0);
	if (case_failed)
		dump_log();
	end();
}

/*
 * The movable regions' boots, each in a child process (run_forked): every
 * one (@every), or those that depend on the allocator (boot_alloc).
 */
void run_movable_boots(bool every)
{
	if (every) {
		run_forked("boot_movable", boot_movable);
		run_forked("boot_movable_release_in_claim", boot_movable_release_in_claim);
		run_forked("boot_movable_eintr", boot_movable_eintr);
		run_forked("boot_movable_slide", boot_movable_slide);
		run_forked("boot_movable_place_cheapest", boot_movable_place_cheapest);
		run_forked("boot_movable_place_whole", boot_movable_place_whole);
		run_forked("boot_movable_place_pinned", boot_movable_place_pinned);
		run_forked("boot_movable_place_busy", boot_movable_place_busy);
		run_forked("boot_movable_place_off", boot_movable_place_off);
		run_forked("boot_static_place_off", boot_static_place_off);
		run_forked("boot_movable_signal", boot_movable_signal);
		run_forked("boot_movable_killable", boot_movable_killable);
		run_forked("boot_movable_dma_retry", boot_movable_dma_retry);
		run_forked("boot_movable_all", boot_movable_all);
		run_forked("boot_movable_defaults", boot_movable_defaults);
		run_forked("boot_movable_placed", boot_movable_placed);
		run_forked("boot_movable_zones", boot_movable_zones);
		return;
	}
	run_forked("boot_movable_slide", boot_movable_slide);
	run_forked("boot_movable_place_cheapest", boot_movable_place_cheapest);
	run_forked("boot_movable_place_whole", boot_movable_place_whole);
	run_forked("boot_movable_place_pinned", boot_movable_place_pinned);
	run_forked("boot_movable_place_busy", boot_movable_place_busy);
	run_forked("boot_movable_place_off", boot_movable_place_off);
	run_forked("boot_static_place_off", boot_static_place_off);
}
