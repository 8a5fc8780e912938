// SPDX-License-Identifier: GPL-2.0
/*
 * The carving of alloc_contig_free_range() (mm/page_alloc.c, kernel patch
 * "mm: page_alloc: alloc_contig_free_range()"), on the host: the kernel's
 * own contig_give_back() and contig_take_block(), cut out of the patched
 * tree by the Makefile, run on every range that overlaps a free block of
 * every order up to 7.  What is taken must tile exactly the range's part
 * of the block, what is given back the rest, each piece a buddy block
 * (aligned to its order); nothing is given twice or lost.
 *
 *   test-contig-take        one "ok - " line per order (the suite's TAP), exit
 *                           status 1 on a failure (or a hang: 60 s alarm)
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_BLOCK	(1UL << 7)
#define BASE		(5 * MAX_BLOCK)

struct zone { int unused; };
struct page { unsigned long private; };
static struct page pages[16 * MAX_BLOCK];

/* What a frame became: 0 untouched, 1 + order taken, -(1 + order) given. */
static int taken[16 * MAX_BLOCK], given[16 * MAX_BLOCK];
static int errors;

static struct page *pfn_to_page(unsigned long pfn) { return &pages[pfn]; }
static unsigned long page_to_pfn(struct page *p) { return p - pages; }
static void set_page_private(struct page *p, unsigned long v)
{
	p->private = v;
	if (taken[page_to_pfn(p)])
		errors++;
	taken[page_to_pfn(p)] = 1 + v;
}
static bool set_page_guard(struct zone *z, struct page *p, unsigned int o, int mt)
{
	return false;
}
static void add_to_free_list_tail(struct page *p, struct zone *z, unsigned int o, int mt)
{
	if (given[page_to_pfn(p)])
		errors++;
	given[page_to_pfn(p)] = 1 + o;
}
static void set_buddy_order(struct page *p, unsigned int o) { }

#include "contig-take.c"

/* Whether the pieces marked in @m tile [@lo, @hi) exactly, each aligned. */
static bool tiles(const int *m, unsigned long lo, unsigned long hi)
{
	unsigned long pfn = lo, n;

	while (pfn < hi) {
		if (!m[pfn])
			return false;
		n = 1UL << (m[pfn] - 1);
		if (pfn % n || pfn + n > hi)
			return false;
		for (unsigned long i = 1; i < n; i++)
			if (m[pfn + i])
				return false;
		pfn += n;
	}
	return true;
}

int main(void)
{
	unsigned int order;
	int failed = 0;
	struct zone zone;

	alarm(60);
	for (order = 0; order <= 7; order++) {
		unsigned long size = 1UL << order, b = BASE, start, end, lo, hi, ranges = 0;
		int bad = 0;

		for (start = b - 2; start <= b + size - 1; start++)
			for (end = start + 1; end <= b + size + 2; end++) {
				if (end <= b)
					continue;
				memset(taken, 0, sizeof(taken));
				memset(given, 0, sizeof(given));
				errors = 0;
				contig_take_block(&zone, b, order, start, end, 0);
				lo = start > b ? start : b;
				hi = end < b + size ? end : b + size;
				ranges++;
				if (errors || !tiles(taken, lo, hi) || !tiles(given, b, lo) ||
				    !tiles(given, hi, b + size) || !tiles(taken, 0, 0)) {
					if (!bad++)
						printf("# order %u, range [%lu, %lu) of block [%lu, %lu): wrong pieces\n",
						       order, start - b, end - b, 0UL, size);
				}
				/* Nothing outside the block was touched. */
				for (unsigned long pfn = 0; pfn < 16 * MAX_BLOCK; pfn++)
					if ((pfn < b || pfn >= b + size) && (taken[pfn] || given[pfn]))
						bad++;
			}
		printf("%sok - alloc_contig_free_range(): a free block of order %u, each of its %lu ranges taken exactly, the rest given back as buddy blocks\n",
		       bad ? "not " : "", order, ranges);
		failed += bad != 0;
	}
	return failed != 0;
}
