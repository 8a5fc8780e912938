// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the CMA framework: the allocators, by fixed sequences with
 * known answers and random ones checked after every step.
 */
#include "test-cma.h"

/* Allocators: random sequences, checking invariants after every step */

struct hole {
	unsigned long start, size;
};

struct holes {
	unsigned int n;
	struct hole h[4096];
};

static int collect_hole(unsigned long start, unsigned long size, void *data)
{
	struct holes *hs = data;

	if (hs->n == 4096)
		return -ENOSPC;
	hs->h[hs->n].start = start;
	hs->h[hs->n++].size = size;
	return 0;
}

struct interval {
	unsigned long start, size;
	int hole;
};

static int cmp_interval(const void *a, const void *b)
{
	const struct interval *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

struct live {
	struct cma_chunk *chunk;
	unsigned long size, align;
};

/* The region is exactly tiled by the chunks and the (maximal) holes. */
static int check_region(struct cma_region *reg, struct live *live, unsigned int n,
			const char *when)
{
	static struct holes hs;
	static struct interval iv[8192];
	unsigned long used = 0, largest = 0, pos;
	unsigned int i, k = 0;
	int bad = 0;

#define BAD(fmt, ...) do {						\
		fail_at(__LINE__, "%s: " fmt, when, ##__VA_ARGS__);	\
		bad = 1;						\
	} while (0)

	hs.n = 0;
	if (reg->alloc->for_each_free(reg, collect_hole, &hs))
		BAD("too many holes");
	for (i = 0; i < hs.n; i++) {
		iv[k++] = (struct interval){ hs.h[i].start, hs.h[i].size, 1 };
		largest = largest > hs.h[i].size ? largest : hs.h[i].size;
		if (!hs.h[i].size)
			BAD("empty hole at %#lx", hs.h[i].start);
		if (i && hs.h[i - 1].start + hs.h[i - 1].size >= hs.h[i].start)
			BAD("holes %#lx+%#lx and %#lx+%#lx touch or overlap (not merged)",
			    hs.h[i - 1].start, hs.h[i - 1].size, hs.h[i].start,
			    hs.h[i].size);
	}
	for (i = 0; i < n; i++) {
		struct cma_chunk *c = live[i].chunk;

		iv[k++] = (struct interval){ c->start, c->size, 0 };
		used += c->size;
		if (c->size != PAGE_ALIGN(live[i].size))
			BAD("chunk %#lx: size %#lx for a request of %#lx", c->start, c->size,
			    live[i].size);
		if (c->start & (live[i].align - 1))
			BAD("chunk %#lx not aligned to %#lx", c->start, live[i].align);
		if (c->reg != reg)
			BAD("chunk %#lx: wrong region", c->start);
	}
	qsort(iv, k, sizeof(*iv), cmp_interval);
	pos = reg->start;
	for (i = 0; i < k; i++) {
		if (iv[i].start != pos)
			BAD("%s at %#lx+%#lx where %#lx was expected (gap or overlap)",
			    iv[i].hole ? "hole" : "chunk", iv[i].start, iv[i].size, pos);
		pos = iv[i].start + iv[i].size;
	}
	if (pos != reg->start + reg->size)
		BAD("chunks and holes end at %#lx, the region at %#lx", pos,
		    reg->start + reg->size);
	if (reg->used != used)
		BAD("region says %#lx bytes used, chunks add up to %#lx", reg->used, used);
	if (reg->nr_chunks != n)
		BAD("region says %lu chunks, there are %u", reg->nr_chunks, n);
	if (cma_region_largest_free(reg) != largest)
		BAD("largest_free %#lx, largest hole %#lx", cma_region_largest_free(reg),
		    largest);
	if (reg->alloc->largest_free && reg->alloc->largest_free(reg) != largest)
		BAD("largest_free() disagrees");
#undef BAD
	return bad;
}

/*
 * Best fit (@first 0): the smallest hole that fits at the alignment, lowest
 * address first.  First fit (@first 1): the lowest hole that fits.
 */
static int expected_hole(struct cma_region *reg, unsigned long size,
			 unsigned long align, struct hole *out, int first)
{
	static struct holes hs;
	unsigned int i;
	int found = 0;

	hs.n = 0;
	reg->alloc->for_each_free(reg, collect_hole, &hs);
	for (i = 0; i < hs.n; i++) {
		unsigned long s = (hs.h[i].start + align - 1) & ~(align - 1);

		if (s < hs.h[i].start || s - hs.h[i].start > hs.h[i].size ||
		    hs.h[i].size - (s - hs.h[i].start) < size)
			continue;
		if (!found || hs.h[i].size < out->size ||
		    (hs.h[i].size == out->size && hs.h[i].start < out->start))
			*out = hs.h[i];
		found = 1;
		if (first)
			break;
	}
	return found;
}

static unsigned long rnd_size(void)
{
	int r = rand() % 100;

	if (r < 5)
		return 1 + rand() % 4096;			/* sub-page */
	if (r < 70)
		return (1 + rand() % 64) * 4096UL;
	if (r < 92)
		return (64 + rand() % 2048) * 4096UL - rand() % 4096;
	return (2048 + rand() % 20000) * 4096UL;		/* up to ~80 MiB */
}

static unsigned long rnd_align(void)
{
	if (rand() % 2)
		return rand() % 2 ? 0 : 4096;
	return 1UL << (rand() % 13 + 12);			/* 4 KiB .. 16 MiB */
}

static void test_random(const char *alloc_name, unsigned int seed, unsigned int steps,
			unsigned long start, unsigned long size)
{
	static struct live live[1024];
	struct cma_region reg = {
		.name = "rnd", .start = start, .size = size, .alignment = 4096,
	};
	unsigned int n = 0, step, allocs = 0, fails = 0;
	long objects = shim_live_objects;
	char when[80];
	int bf = !strcmp(alloc_name, "bf") || !strcmp(alloc_name, "foo");
	int ff = !strcmp(alloc_name, "ff") || !strcmp(alloc_name, "bitmap");

	begin("allocator %s: %u random steps (seed %u) in %#lx+%#lx keep the invariants",
	      alloc_name, steps, seed, start, size);
	srand(seed);
	reg.alloc = cma_allocator_find(alloc_name);
	if (!reg.alloc || cma_region_init(&reg)) {
		fail_at(__LINE__, "cannot set up the region");
		end();
		return;
	}
	check_region(&reg, live, 0, "start");
	CHECK(cma_region_largest_free(&reg) == size);

	for (step = 1; step <= steps && !case_failed; step++) {
		if (n == 0 || (n < 1024 && rand() % 100 < 55)) {
			unsigned long rsize = rnd_size(), ralign = rnd_align();
			unsigned long psize = PAGE_ALIGN(rsize);
			unsigned long palign = ralign < 4096 ? 4096 : ralign;
			struct hole want = { 0, 0 };
			int fits = expected_hole(&reg, psize, palign, &want, ff);
			struct cma_chunk *c = cma_region_alloc(&reg, psize, palign);

			snprintf(when, sizeof(when), "step %u: alloc %#lx/%#lx", step, rsize,
				 ralign);
			if (c) {
				allocs++;
				live[n++] = (struct live){ c, rsize, palign };
				if (!fits)
					fail_at(__LINE__, "%s: got %#lx, no hole fits", when,
						c->start);
				else if (ff && c->start != ((want.start + palign - 1) & ~(palign - 1)))
					fail_at(__LINE__,
						"%s: got %#lx, not the start of the first hole %#lx+%#lx",
						when, c->start, want.start, want.size);
				else if (bf && (c->start < want.start ||
						c->start - want.start > want.size ||
						want.size - (c->start - want.start) < c->size))
					fail_at(__LINE__,
						"%s: got %#lx, not in the best hole %#lx+%#lx", when,
						c->start, want.start, want.size);
			} else {
				fails++;
				if (fits)
					fail_at(__LINE__, "%s: failed, hole %#lx+%#lx fits", when,
						want.start, want.size);
			}
		} else {
			unsigned int i = rand() % n;

			snprintf(when, sizeof(when), "step %u: free %#lx+%#lx", step,
				 live[i].chunk->start, live[i].chunk->size);
			cma_region_free(live[i].chunk);
			live[i] = live[--n];
		}
		check_region(&reg, live, n, when);
	}
	while (n && !case_failed) {
		cma_region_free(live[--n].chunk);
		check_region(&reg, live, n, "freeing everything");
	}
	if (!case_failed) {
		static struct holes hs;

		hs.n = 0;
		reg.alloc->for_each_free(&reg, collect_hole, &hs);
		CHECKF(hs.n == 1 && hs.h[0].start == start && hs.h[0].size == size,
		       "after freeing everything: %u holes", hs.n);
		CHECK(reg.allocs == allocs && reg.alloc_fails == fails);
		CHECKF(allocs > steps / 4 && fails > 0, "%u allocations, %u failures",
		       allocs, fails);
		cma_region_cleanup(&reg);
		CHECKF(shim_live_objects == objects, "%ld objects leaked",
		       shim_live_objects - objects);
	}
	printf("    # %u allocations, %u failures\n", allocs, fails);
	end();
}

/*
 * A fixed sequence with known answers for the first-fit allocators (ff and
 * bitmap): lowest hole first, alignment slack kept free, merges.
 */
static void test_ff_fixed(const char *name)
{
	struct cma_region reg = {
		.name = "fix", .start = 0x40001000, .size = 16 * MiB, .alignment = 4096,
	};
	struct cma_chunk *a, *b, *c, *d, *e;
	long objects = shim_live_objects;
	static struct holes hs;

	begin("%s: first fit, alignment slack kept, split and merges", name);
	reg.alloc = cma_allocator_find(name);
	CHECK(reg.alloc && !strcmp(reg.alloc->name, name));
	if (!reg.alloc || cma_region_init(&reg)) {
		fail_at(__LINE__, "cannot set up the region");
		end();
		return;
	}
	a = cma_region_alloc(&reg, MiB, 4096);			/* front of the region */
	CHECK(a && a->start == 0x40001000);
	b = cma_region_alloc(&reg, 4096, MiB);			/* slack 0x40101000-0x401fffff stays */
	CHECK(b && b->start == 0x40200000);
	c = cma_region_alloc(&reg, 8192, 4096);		/* first fit: into the slack */
	CHECK(c && c->start == 0x40101000);
	d = cma_region_alloc(&reg, 0xfd000, 4096);		/* the rest of the slack, exactly */
	CHECK(d && d->start == 0x40103000);
	if (!a || !b || !c || !d) {
		end();
		return;
	}
	CHECK(cma_region_largest_free(&reg) == 14 * MiB);
	e = cma_region_alloc(&reg, 16 * MiB, 4096);		/* too big */
	CHECK(!e);
	CHECK(reg.alloc_fails == 1 && reg.allocs == 4 && reg.nr_chunks == 4);
	hs.n = 0;
	reg.alloc->for_each_free(&reg, collect_hole, &hs);
	CHECKF(hs.n == 1 && hs.h[0].start == 0x40201000, "%u holes, first %#lx", hs.n,
	       hs.h[0].start);
	cma_region_free(c);					/* a hole between a and d */
	cma_region_free(a);					/* merges with c's hole */
	hs.n = 0;
	reg.alloc->for_each_free(&reg, collect_hole, &hs);
	CHECKF(hs.n == 2 && hs.h[0].start == 0x40001000 && hs.h[0].size == MiB + 8192,
	       "%u holes, first %#lx+%#lx", hs.n, hs.h[0].start, hs.h[0].size);
	a = cma_region_alloc(&reg, MiB + 8192, 4096);	/* fills it exactly */
	CHECK(a && a->start == 0x40001000);
	cma_region_free(d);
	cma_region_free(b);					/* merges on both sides */
	cma_region_free(a);
	hs.n = 0;
	reg.alloc->for_each_free(&reg, collect_hole, &hs);
	CHECKF(hs.n == 1 && hs.h[0].start == reg.start && hs.h[0].size == reg.size,
	       "%u holes", hs.n);
	CHECK(reg.used == 0 && reg.nr_chunks == 0);
	cma_region_cleanup(&reg);
	CHECK(shim_live_objects == objects);

	end();
}

/* A fixed sequence with known answers, for the best-fit rules. */
static void test_bf_fixed(void)
{
	struct cma_region reg = {
		.name = "fix", .start = 0x40000000, .size = 16 * MiB, .alignment = 4096,
	};
	struct cma_chunk *a, *b, *c, *d, *e, *f;
	long objects = shim_live_objects;

	begin("bf: best fit, alignment walk, middle-to-end move, split and merges");
	reg.alloc = cma_allocator_find("bf");
	CHECK(reg.alloc == &cma_bf_allocator);
	CHECK(cma_allocator_find(NULL) == &cma_bf_allocator);
	CHECK(cma_allocator_find("") == &cma_bf_allocator);
	CHECK(!cma_region_init(&reg));

	a = cma_region_alloc(&reg, MiB, 4096);			/* front of the region */
	CHECK(a && a->start == 0x40000000);
	b = cma_region_alloc(&reg, MiB, 4096);
	CHECK(b && b->start == 0x40100000);
	c = cma_region_alloc(&reg, 2 * MiB, 4096);
	CHECK(c && c->start == 0x40200000);
	d = cma_region_alloc(&reg, MiB, 4096);
	CHECK(d && d->start == 0x40400000);
	/* holes: none below d; free a (1M) and c (2M): holes 1M@0, 2M@2M, 11M@5M */
	cma_region_free(a);
	cma_region_free(c);
	CHECK(cma_region_largest_free(&reg) == 11 * MiB);
	/* 1M fits exactly in the 1M hole (the smallest) */
	a = cma_region_alloc(&reg, MiB, 4096);
	CHECK(a && a->start == 0x40000000);
	/* 512K aligned to 1M: the 2M hole at 0x40200000 is the smallest fitting */
	e = cma_region_alloc(&reg, 512 * KiB, MiB);
	CHECK(e && e->start == 0x40200000);
	/* 1M aligned to 4M: the 1.5M hole cannot; the 11M hole from 0x40500000 can
	 * at 0x40800000, in its middle; its end 0x40ff0000.. is not 4M aligned: split */
	f = cma_region_alloc(&reg, MiB, 4 * MiB);
	CHECK(f && f->start == 0x40800000);
	cma_region_free(f);
	/* 1M aligned to 1M in the 11M hole 0x40500000-0x40ffffff: at its front */
	f = cma_region_alloc(&reg, 3 * MiB, MiB);
	CHECK(f && f->start == 0x40500000);
	cma_region_free(f);
	/* Middle placement moved to the end: hole 0x40280000+1.5M, 512K aligned to
	 * 512K fits at its front... use 256K aligned to 512K in the 1.5M hole:
	 * front 0x40280000 is 512K aligned -> front. */
	f = cma_region_alloc(&reg, 256 * KiB, 512 * KiB);
	CHECK(f && f->start == 0x40280000);
	cma_region_free(f);
	/* hole 0x40280000+0x180000 (1.5M): 512K aligned to 1M: first aligned
	 * start 0x40300000 is in the middle; the end 0x40380000 is 512K but not
	 * 1M aligned -> split: chunk at 0x40300000. */
	f = cma_region_alloc(&reg, 512 * KiB, MiB);
	CHECK(f && f->start == 0x40300000);
	cma_region_free(f);
	/* hole 0x40500000+11M ends at 0x41000000: 1M aligned to 2M would sit at
	 * 0x40600000 (middle); the end 0x40f00000 is not 2M aligned: split.
	 * 2M aligned to 2M: 0x40600000 middle, end 0x40e00000 2M aligned: moved
	 * to the end. */
	f = cma_region_alloc(&reg, 2 * MiB, 2 * MiB);
	CHECK(f && f->start == 0x40e00000);
	cma_region_free(f);
	/* too big */
	CHECK(!cma_region_alloc(&reg, 12 * MiB, 4096));
	CHECK(reg.alloc_fails == 1);

	cma_region_free(e);
	cma_region_free(b);
	cma_region_free(d);
	cma_region_free(a);
	CHECK(cma_region_largest_free(&reg) == 16 * MiB);
	cma_region_cleanup(&reg);
	CHECK(shim_live_objects == objects);
	end();

	begin("rb_root_init() makes a one-node tree, or an empty one");
	{
		struct rb_root root;
		struct rb_node node;

		rb_root_init(&root, &node);
		CHECK(root.rb_node == &node && !node.rb_left && !node.rb_right);
		CHECK(rb_parent(&node) == NULL);
		CHECK(rb_first(&root) == &node && rb_last(&root) == &node);
		CHECK(!rb_next(&node) && !rb_prev(&node));
		rb_erase(&node, &root);
		CHECK(RB_EMPTY_ROOT(&root));
		rb_root_init(&root, NULL);
		CHECK(RB_EMPTY_ROOT(&root));
	}
	end();
}

/*
 * The allocators' fixed sequences, and random ones from @seed, of @steps
 * steps (foo's too: register_foo() first).
 */
void test_allocators(unsigned int seed, unsigned int steps)
{
	unsigned int i;

	test_bf_fixed();
	for (i = 1; i < nr_allocators; i++)
		test_ff_fixed(allocator_names[i]);
	for (i = 0; i < nr_allocators; i++) {
		test_random(allocator_names[i], seed + i, steps, 0x40000000, 64 * MiB);
		test_random(allocator_names[i], seed + 7 + i, steps / 3,
			    -(unsigned long)(32 * MiB), 32 * MiB);
		test_random(allocator_names[i], seed + 13 + i, steps / 3,
			    0x40005000, 48 * MiB + 0x3000);
	}
	test_random("foo", seed + 5, steps / 3, 0x40000000, 64 * MiB);
}
