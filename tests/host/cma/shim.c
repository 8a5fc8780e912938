// SPDX-License-Identifier: GPL-2.0
/*
 * Host shims for the CMA framework's unit tests: allocation with leak
 * counting and failure injection, a printk log, error-checking mutexes,
 * fake memblock RAM banks, and the registries behind early_param() and
 * the initcalls.
 */

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/init.h>
#include <linux/ktime.h>
#include <linux/memblock.h>
#include <linux/mmzone.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/kstrtox.h>
#include <linux/sched/signal.h>

#include "shim.h"

/* Allocation */

static pthread_mutex_t shim_lock = PTHREAD_MUTEX_INITIALIZER;
long shim_live_objects;
long shim_fail_after = -1;	/* fail the allocation when this reaches 0 */
long shim_allocations;

void *shim_kmalloc(size_t size, int zero)
{
	void *p = NULL;
	int fail;

	pthread_mutex_lock(&shim_lock);
	shim_allocations++;
	fail = shim_fail_after == 0;
	if (shim_fail_after >= 0)
		shim_fail_after--;
	if (!fail) {
		p = zero ? calloc(1, size) : malloc(size);
		if (p && !zero)
			memset(p, 0xa5, size);	/* catch reads of uninitialised fields */
		if (p)
			shim_live_objects++;
	}
	pthread_mutex_unlock(&shim_lock);
	return p;
}

void kfree(const void *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&shim_lock);
	shim_live_objects--;
	pthread_mutex_unlock(&shim_lock);
	free((void *)p);
}

/* printk */

char shim_log[1 << 20];
size_t shim_log_len;
int shim_log_echo;

void shim_printk(int level, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (shim_log_echo)
		fprintf(stderr, "    <%d>%s", level, line);
	pthread_mutex_lock(&shim_lock);
	n = strlen(line);
	if (shim_log_len + n < sizeof(shim_log)) {
		memcpy(shim_log + shim_log_len, line, n + 1);
		shim_log_len += n;
	}
	pthread_mutex_unlock(&shim_lock);
}

int shim_warnings;

void shim_warn(const char *file, int line, const char *cond)
{
	shim_printk(4, "WARNING: %s:%d: %s\n", file, line, cond);
	__atomic_add_fetch(&shim_warnings, 1, __ATOMIC_SEQ_CST);
}

void shim_log_clear(void)
{
	shim_log_len = 0;
	shim_log[0] = '\0';
}

/* Number of log lines containing @needle. */
int shim_log_count(const char *needle)
{
	const char *p = shim_log;
	int n = 0;

	while ((p = strstr(p, needle))) {
		n++;
		p += strlen(needle);
	}
	return n;
}

/*
 * Locks: each thread's count of the mutexes and spinlocks it holds.
 * Sleeping (a mutex, a GFP_KERNEL allocation) under a spinlock is a
 * warning; so are a migration with more than one mutex held (only the
 * region's claim mutex may be) and a release (free_contig_range()) with
 * any mutex held: a release must never wait for a claim.
 */
__thread int shim_mutexes_held, shim_spins_held;
__thread long shim_mutex_locks;		/* mutex_lock() calls */
static __thread int shim_hook_mutexes;	/* held around shim_contig_hook */

void shim_might_sleep(const char *what, gfp_t gfp)
{
	if (gfp == GFP_KERNEL && shim_spins_held)
		shim_warn(__FILE__, __LINE__, "a GFP_KERNEL allocation under a spinlock");
}

void spin_lock_init(spinlock_t *lock)
{
	pthread_mutexattr_t attr;

	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&lock->m, &attr);
	pthread_mutexattr_destroy(&attr);
}

void shim_spin_lock(spinlock_t *lock)
{
	if (pthread_mutex_lock(&lock->m))
		shim_warn(__FILE__, __LINE__, "spin_lock() of a spinlock this thread holds");
	else
		shim_spins_held++;
}

void shim_spin_unlock(spinlock_t *lock)
{
	if (pthread_mutex_unlock(&lock->m))
		shim_warn(__FILE__, __LINE__, "spin_unlock() of a spinlock not held");
	else
		shim_spins_held--;
}

/* Mutexes */

void mutex_init(struct mutex *lock)
{
	pthread_mutexattr_t attr;

	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&lock->m, &attr);
	pthread_mutexattr_destroy(&attr);
}

void mutex_destroy(struct mutex *lock)
{
	if (pthread_mutex_destroy(&lock->m))
		shim_warn(__FILE__, __LINE__, "mutex_destroy() of a held mutex");
}

void mutex_lock(struct mutex *lock)
{
	if (shim_spins_held)
		shim_warn(__FILE__, __LINE__, "mutex_lock() under a spinlock");
	shim_mutex_locks++;
	if (pthread_mutex_lock(&lock->m))
		shim_warn(__FILE__, __LINE__, "mutex_lock() of a mutex this thread holds");
	else
		shim_mutexes_held++;
}

/* Waits until the mutex is free, or a fatal signal (shim_fatal_signal). */
int mutex_lock_killable(struct mutex *lock)
{
	if (shim_spins_held)
		shim_warn(__FILE__, __LINE__, "mutex_lock_killable() under a spinlock");
	shim_mutex_locks++;
	while (pthread_mutex_trylock(&lock->m)) {
		if (shim_fatal_signal)
			return -EINTR;
		usleep(1000);
	}
	shim_mutexes_held++;
	return 0;
}

void mutex_unlock(struct mutex *lock)
{
	if (pthread_mutex_unlock(&lock->m))
		shim_warn(__FILE__, __LINE__, "mutex_unlock() of a mutex not held");
	else
		shim_mutexes_held--;
}

/* Strings */

int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long v;
	char *end;

	if (*s == '-' || *s == '+' || *s == ' ' || !*s)
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno || end == s || *end)
		return -EINVAL;
	*res = v;
	return 0;
}

ssize_t strscpy(char *dest, const char *src, size_t count)
{
	size_t n = strnlen(src, count);

	if (!count)
		return -E2BIG;
	if (n == count) {
		memcpy(dest, src, count - 1);
		dest[count - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dest, src, n + 1);
	return n;
}

/*
 * Pages: clear_highpage() and free_reserved_page() on frame numbers.  The
 * harness checks how many pages were cleared or given back, and the
 * lowest and highest frame numbers among them, since the last reset.
 */
long shim_pages_cleared, shim_pages_given_back, shim_kmemleak_ignored;
unsigned long shim_cleared_lo, shim_cleared_hi;
static pthread_mutex_t shim_page_lock = PTHREAD_MUTEX_INITIALIZER;

void clear_highpage(struct page *page)
{
	unsigned long pfn = page_to_pfn(page);

	pthread_mutex_lock(&shim_page_lock);
	if (!shim_pages_cleared++ || pfn < shim_cleared_lo)
		shim_cleared_lo = pfn;
	if (pfn > shim_cleared_hi)
		shim_cleared_hi = pfn;
	pthread_mutex_unlock(&shim_page_lock);
}

void free_reserved_page(struct page *page)
{
	pthread_mutex_lock(&shim_page_lock);
	shim_pages_given_back++;
	pthread_mutex_unlock(&shim_page_lock);
}

/*
 * Movable regions: the page allocator's view of each frame below 4 GiB
 * (reserved by memblock, lent as a MIGRATE_CMA page, or held by
 * alloc_contig_range()).  A call on a frame in the wrong state is a
 * bookkeeping bug of the framework: it is counted in shim_contig_errors
 * and logged.  alloc_contig_range() fails with -EBUSY on a range holding
 * a frame a test pinned, or with shim_contig_fail when that is set.
 */
#define SHIM_FRAMES	(1UL << 20)
static unsigned char shim_frame[SHIM_FRAMES], shim_pinned[SHIM_FRAMES];
static unsigned char shim_in_use[SHIM_FRAMES];
unsigned long totalcma_pages;
unsigned long shim_zone_split;
long shim_contig_calls, shim_contig_errors, shim_lent_blocks;
int shim_contig_fail;
void (*shim_contig_hook)(void);

static bool shim_frame_ok(unsigned long pfn, int state, const char *what)
{
	if (pfn < SHIM_FRAMES && shim_frame[pfn] == state)
		return true;
	shim_contig_errors++;
	fprintf(stderr, "    shim: %s: frame %#lx is in state %d, expected %d\n",
		what, pfn, pfn < SHIM_FRAMES ? shim_frame[pfn] : -1, state);
	return false;
}

int alloc_contig_range(unsigned long start, unsigned long end,
		       unsigned int migratetype, gfp_t gfp_mask)
{
	unsigned long pfn;

	if (shim_spins_held)
		shim_warn(__FILE__, __LINE__, "alloc_contig_range() under a spinlock");
	if (shim_mutexes_held > 1)
		shim_warn(__FILE__, __LINE__, "alloc_contig_range() with a CMA lock held besides the region's claim mutex");
	/* What migration may run meanwhile: direct reclaim, a shrinker. */
	if (shim_contig_hook) {
		shim_hook_mutexes = shim_mutexes_held;
		shim_contig_hook();
		shim_hook_mutexes = 0;
	}
	pthread_mutex_lock(&shim_page_lock);
	shim_contig_calls++;
	if (migratetype != MIGRATE_CMA || start >= end)
		shim_contig_errors++;
	for (pfn = start; pfn < end; pfn++)
		if (!shim_frame_ok(pfn, SHIM_LENT, "alloc_contig_range"))
			break;
	for (pfn = start; pfn < end && pfn < SHIM_FRAMES; pfn++)
		if (shim_pinned[pfn]) {
			pthread_mutex_unlock(&shim_page_lock);
			return -EBUSY;
		}
	if (shim_contig_fail) {
		pthread_mutex_unlock(&shim_page_lock);
		return shim_contig_fail;
	}
	for (pfn = start; pfn < end && pfn < SHIM_FRAMES; pfn++)
		shim_frame[pfn] = SHIM_HELD;
	pthread_mutex_unlock(&shim_page_lock);
	return 0;
}

/*
 * The fast path: the frames of a range that no page lives in and no test
 * pinned are taken as they are (shim_free_taken); otherwise -EBUSY with
 * nothing taken (shim_free_busy) and alloc_contig_range() follows.  A
 * range taken here counts as a range tried in shim_contig_calls too.  A
 * test's shim_contig_hook or shim_contig_fail stands for a claim that
 * migrates (what runs meanwhile, how it fails): the fast path declines.
 */
long shim_free_taken, shim_free_busy;

int alloc_contig_free_range(unsigned long start, unsigned long end,
			    unsigned int migratetype)
{
	unsigned long pfn;

	if (shim_spins_held)
		shim_warn(__FILE__, __LINE__, "alloc_contig_free_range() under a spinlock");
	pthread_mutex_lock(&shim_page_lock);
	if (migratetype != MIGRATE_CMA || start >= end)
		shim_contig_errors++;
	for (pfn = start; pfn < end; pfn++)
		if (!shim_frame_ok(pfn, SHIM_LENT, "alloc_contig_free_range"))
			break;
	for (pfn = start; pfn < end && pfn < SHIM_FRAMES; pfn++)
		if (shim_pinned[pfn] || shim_in_use[pfn] || shim_contig_fail ||
		    shim_contig_hook) {
			shim_free_busy++;
			pthread_mutex_unlock(&shim_page_lock);
			return -EBUSY;
		}
	for (pfn = start; pfn < end && pfn < SHIM_FRAMES; pfn++)
		shim_frame[pfn] = SHIM_HELD;
	shim_free_taken++;
	shim_contig_calls++;
	pthread_mutex_unlock(&shim_page_lock);
	return 0;
}

void free_contig_range(unsigned long pfn, unsigned long nr_pages)
{
	if (shim_mutexes_held > shim_hook_mutexes)
		shim_warn(__FILE__, __LINE__, "free_contig_range() with a mutex held: a release waits for claims");
	pthread_mutex_lock(&shim_page_lock);
	for (; nr_pages; nr_pages--, pfn++)
		if (shim_frame_ok(pfn, SHIM_HELD, "free_contig_range"))
			shim_frame[pfn] = SHIM_LENT;
	pthread_mutex_unlock(&shim_page_lock);
}

void init_cma_reserved_pageblock(struct page *page)
{
	unsigned long pfn = page_to_pfn(page), i;

	pthread_mutex_lock(&shim_page_lock);
	if (pfn % pageblock_nr_pages)
		shim_contig_errors++;
	for (i = 0; i < pageblock_nr_pages; i++)
		if (shim_frame_ok(pfn + i, SHIM_RESERVED, "init_cma_reserved_pageblock"))
			shim_frame[pfn + i] = SHIM_LENT;
	shim_lent_blocks++;
	pthread_mutex_unlock(&shim_page_lock);
}

/*
 * mm/cma.c's areas, as the regions use them: made when a region is
 * reserved, lent (for an area that is not static) by the core initcall
 * that shim_run_initcalls() runs first, ranges marked per page.  The
 * shim's own layout: the code under test only passes the pointers on.
 */
struct cma {
	char name[64];
	unsigned long base_pfn, count;
	unsigned char *taken;
	bool static_pages;
};

#define SHIM_CMA_AREAS	(1 + CONFIG_CMA_AREAS)
static struct cma shim_cma_areas[SHIM_CMA_AREAS];
static int shim_nr_cma_areas;

static int shim_cma_init(phys_addr_t base, phys_addr_t size, const char *name,
			 bool static_pages, struct cma **res_cma)
{
	struct cma *cma;

	if (shim_nr_cma_areas == SHIM_CMA_AREAS)
		return -ENOSPC;
	if (!size || !memblock_is_region_reserved(base, size))
		return -EINVAL;
	cma = &shim_cma_areas[shim_nr_cma_areas++];
	snprintf(cma->name, sizeof(cma->name), "%s", name);
	cma->base_pfn = base >> PAGE_SHIFT;
	cma->count = size >> PAGE_SHIFT;
	cma->static_pages = static_pages;
	cma->taken = NULL;
	if (!static_pages)
		totalcma_pages += cma->count;
	*res_cma = cma;
	return 0;
}

int cma_init_reserved_mem(phys_addr_t base, phys_addr_t size,
			  unsigned int order_per_bit, const char *name,
			  struct cma **res_cma)
{
	if ((base | size) & ((pageblock_nr_pages << PAGE_SHIFT) - 1))
		return -EINVAL;
	return shim_cma_init(base, size, name, false, res_cma);
}

int cma_init_static_mem(phys_addr_t base, phys_addr_t size, const char *name,
			struct cma **res_cma)
{
	if ((base | size) & (PAGE_SIZE - 1))
		return -EINVAL;
	return shim_cma_init(base, size, name, true, res_cma);
}

/* cma_activate_area(): an area across two zones gives its memory back. */
static void shim_cma_activate(void)
{
	unsigned long pfn;
	struct cma *cma;
	int i;

	for (i = 0; i < shim_nr_cma_areas; i++) {
		cma = &shim_cma_areas[i];
		cma->taken = calloc(cma->count, 1);
		for (pfn = cma->base_pfn + 1; !cma->static_pages &&
		     pfn < cma->base_pfn + cma->count; pfn++)
			if (page_zone(pfn_to_page(pfn)) !=
			    page_zone(pfn_to_page(cma->base_pfn)))
				break;
		if (!cma->static_pages && pfn < cma->base_pfn + cma->count) {
			for (pfn = cma->base_pfn; pfn < cma->base_pfn + cma->count; pfn++)
				free_reserved_page(pfn_to_page(pfn));
			totalcma_pages -= cma->count;
			cma->count = 0;
			shim_printk(3, "cma: CMA area %s could not be activated\n", cma->name);
			continue;
		}
		for (pfn = cma->base_pfn; !cma->static_pages &&
		     pfn < cma->base_pfn + cma->count; pfn += pageblock_nr_pages)
			init_cma_reserved_pageblock(pfn_to_page(pfn));
	}
}

unsigned long cma_get_size(const struct cma *cma)
{
	return cma->count << PAGE_SHIFT;
}

int cma_take_range(struct cma *cma, unsigned long pfn, unsigned long count)
{
	unsigned long i;
	int ret = 0;

	if (!cma->taken || !count || pfn < cma->base_pfn || count > cma->count ||
	    pfn - cma->base_pfn > cma->count - count)
		return -EINVAL;
	pthread_mutex_lock(&shim_page_lock);
	for (i = 0; i < count; i++)
		if (cma->taken[pfn - cma->base_pfn + i])
			ret = -EBUSY;
	for (i = 0; !ret && i < count; i++)
		cma->taken[pfn - cma->base_pfn + i] = 1;
	pthread_mutex_unlock(&shim_page_lock);
	return ret;
}

void cma_give_range(struct cma *cma, unsigned long pfn, unsigned long count)
{
	pthread_mutex_lock(&shim_page_lock);
	for (; count; count--, pfn++) {
		if (!cma->taken[pfn - cma->base_pfn])
			shim_warn(__FILE__, __LINE__, "cma_give_range(): a page that was not taken");
		cma->taken[pfn - cma->base_pfn] = 0;
	}
	pthread_mutex_unlock(&shim_page_lock);
}

int shim_frame_state(unsigned long pfn)
{
	return pfn < SHIM_FRAMES ? shim_frame[pfn] : -1;
}

/* Frames in @state among @nr from @pfn. */
unsigned long shim_frames_in(unsigned long pfn, unsigned long nr, int state)
{
	unsigned long n = 0;

	for (; nr; nr--, pfn++)
		n += shim_frame_state(pfn) == state;
	return n;
}

void shim_pin(unsigned long pfn, int pinned)
{
	if (pfn < SHIM_FRAMES)
		shim_pinned[pfn] = pinned;
}

/* A movable page lives in @nr frames from @pfn (or not): page_count() 1. */
void shim_resident(unsigned long pfn, unsigned long nr, int resident)
{
	for (; nr && pfn < SHIM_FRAMES; nr--, pfn++)
		shim_in_use[pfn] = resident;
}

int page_count(const struct page *page)
{
	unsigned long pfn = page_to_pfn(page);

	return pfn < SHIM_FRAMES && (shim_pinned[pfn] || shim_in_use[pfn]);
}

/*
 * Placement's view (shim/linux/mm.h): shim_buddy_head[] holds 1 + the order
 * of a free buddy block starting at a frame; shim_not_lru[] marks frames in
 * use but on no LRU list.
 */
static unsigned char shim_buddy_head[SHIM_FRAMES], shim_not_lru[SHIM_FRAMES];
long shim_page_reads;

/* The @nr frames from @pfn are free buddy blocks of order @order (or not). */
void shim_buddy(unsigned long pfn, unsigned long nr, unsigned int order,
		int free)
{
	unsigned long i;

	for (i = 0; i < nr && pfn + i < SHIM_FRAMES; i++)
		shim_buddy_head[pfn + i] = free && !((pfn + i) & ((1UL << order) - 1)) ?
			order + 1 : 0;
}

void shim_unmovable(unsigned long pfn, int unmovable)
{
	if (pfn < SHIM_FRAMES)
		shim_not_lru[pfn] = unmovable;
}

int PageBuddy(const struct page *page)
{
	unsigned long pfn = page_to_pfn(page);

	__atomic_add_fetch(&shim_page_reads, 1, __ATOMIC_RELAXED);
	return pfn < SHIM_FRAMES && shim_buddy_head[pfn];
}

unsigned long shim_buddy_order(const struct page *page)
{
	unsigned long pfn = page_to_pfn(page);

	return pfn < SHIM_FRAMES && shim_buddy_head[pfn] ? shim_buddy_head[pfn] - 1 : 0;
}

int page_maybe_dma_pinned(const struct page *page)
{
	unsigned long pfn = page_to_pfn(page);

	return pfn < SHIM_FRAMES && shim_pinned[pfn];
}

int PageLRU(const struct page *page)
{
	unsigned long pfn = page_to_pfn(page);

	return pfn < SHIM_FRAMES && page_count(page) && !shim_not_lru[pfn];
}

int shim_fatal_signal;
long shim_sleeps;
void (*shim_sleep_hook)(void);

long schedule_timeout_killable(long timeout)
{
	shim_sleeps++;
	if (shim_sleep_hook)
		shim_sleep_hook();
	return 0;
}

struct zone *page_zone(const struct page *page)
{
	static struct zone zones[2] = { { 0 }, { 1 } };

	return &zones[shim_zone_split && page_to_pfn(page) >= shim_zone_split];
}

bool pfn_valid(unsigned long pfn)
{
	return memblock_is_region_memory((phys_addr_t)pfn << PAGE_SHIFT, PAGE_SIZE);
}

u64 ktime_get_ns(void)
{
	static u64 t;

	return t += 1000;
}

void shim_pages_reset(void)
{
	shim_pages_cleared = 0;
	shim_pages_given_back = 0;
	shim_cleared_lo = 0;
	shim_cleared_hi = 0;
}

/* memblock: a few banks of RAM and a list of reserved ranges. */

struct shim_range {
	unsigned long long base, size;
};

struct memblock_region shim_ram[8];
int shim_nr_ram;
static struct shim_range shim_rsv[64];
static int shim_nr_rsv;

void shim_memblock_reset(void)
{
	shim_nr_ram = 0;
	shim_nr_rsv = 0;
	shim_nr_cma_areas = 0;
}

void shim_memblock_add(unsigned long long base, unsigned long long size)
{
	shim_ram[shim_nr_ram].base = base;
	shim_ram[shim_nr_ram].flags = 0;
	shim_ram[shim_nr_ram++].size = size;
}

/*
 * memblock_mark_nomap() of a range inside one bank (a device tree
 * reserved-memory node with no-map): the bank is split, as memblock
 * splits its memory regions, and the range is memory but not reserved.
 */
void shim_memblock_mark_nomap(unsigned long long base, unsigned long long size)
{
	struct memblock_region bank;
	int i;

	for (i = 0; i < shim_nr_ram; i++)
		if (base >= shim_ram[i].base &&
		    base + size <= shim_ram[i].base + shim_ram[i].size)
			break;
	if (i == shim_nr_ram)
		abort();
	bank = shim_ram[i];
	memmove(&shim_ram[i], &shim_ram[i + 1], (--shim_nr_ram - i) * sizeof(bank));
	if (base > bank.base)
		shim_memblock_add(bank.base, base - bank.base);
	shim_memblock_add(base, size);
	shim_ram[shim_nr_ram - 1].flags = MEMBLOCK_NOMAP;
	if (base + size < bank.base + bank.size)
		shim_memblock_add(base + size, bank.base + bank.size - (base + size));
	/* Back in address order. */
	for (i = 1; i < shim_nr_ram; i++) {
		int j;

		for (j = i; j && shim_ram[j - 1].base > shim_ram[j].base; j--) {
			bank = shim_ram[j];
			shim_ram[j] = shim_ram[j - 1];
			shim_ram[j - 1] = bank;
		}
	}
}

bool memblock_is_region_memory(phys_addr_t base, phys_addr_t size)
{
	int i;

	for (i = 0; i < shim_nr_ram; i++)
		if (base >= shim_ram[i].base &&
		    (unsigned long long)base + size <= shim_ram[i].base + shim_ram[i].size)
			return true;
	return false;
}

bool memblock_is_region_reserved(phys_addr_t base, phys_addr_t size)
{
	unsigned long long end = (unsigned long long)base + size;
	int i;

	for (i = 0; i < shim_nr_rsv; i++)
		if (base < shim_rsv[i].base + shim_rsv[i].size && shim_rsv[i].base < end)
			return true;
	return false;
}

int memblock_reserve(phys_addr_t base, phys_addr_t size)
{
	if (shim_nr_rsv == 64)
		return -ENOMEM;
	shim_rsv[shim_nr_rsv].base = base;
	shim_rsv[shim_nr_rsv++].size = size;
	return 0;
}

int memblock_phys_free(phys_addr_t base, phys_addr_t size)
{
	int i;

	for (i = 0; i < shim_nr_rsv; i++)
		if (shim_rsv[i].base == base && shim_rsv[i].size == size) {
			shim_rsv[i] = shim_rsv[--shim_nr_rsv];
			return 0;
		}
	return -ENOENT;
}

/* Top down, like memblock's default, in the highest bank first. */
phys_addr_t memblock_phys_alloc_range(phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end)
{
	int i;

	for (i = shim_nr_ram - 1; i >= 0; i--) {
		unsigned long long lo = shim_ram[i].base, a;

		if (shim_ram[i].size < size || memblock_is_nomap(&shim_ram[i]))
			continue;
		for (a = (lo + shim_ram[i].size - size) & ~((unsigned long long)align - 1);
		     a >= lo; a -= align) {
			if (!memblock_is_region_reserved(a, size)) {
				memblock_reserve(a, size);
				return a;
			}
			if (a < align)
				break;
		}
	}
	return 0;
}

/* The RAM banks, in the order added (tools/platform's reserved-memory scan). */
int shim_memblock_banks(unsigned long long (*out)[2], int max)
{
	int i;

	for (i = 0; i < shim_nr_ram && i < max; i++) {
		out[i][0] = shim_ram[i].base;
		out[i][1] = shim_ram[i].size;
	}
	return i;
}

/* The lowest base of the reserved ranges overlapping [base, base + size), or ~0. */
unsigned long long shim_memblock_overlap(unsigned long long base, unsigned long long size)
{
	unsigned long long low = ~0ULL;
	int i;

	for (i = 0; i < shim_nr_rsv; i++)
		if (base < shim_rsv[i].base + shim_rsv[i].size &&
		    shim_rsv[i].base < base + size && shim_rsv[i].base < low)
			low = shim_rsv[i].base;
	return low;
}

int shim_is_reserved_exactly(unsigned long long base, unsigned long long size)
{
	int i;

	for (i = 0; i < shim_nr_rsv; i++)
		if (shim_rsv[i].base == base && shim_rsv[i].size == size)
			return 1;
	return 0;
}

/* early_param() and initcalls */

static struct {
	const char *name;
	int (*fn)(char *val);
} shim_params[8];
static int shim_nr_params;

static struct {
	const char *name;
	int (*fn)(void);
} shim_initcalls[8];
static int shim_nr_initcalls;

void shim_register_param(const char *name, int (*fn)(char *val))
{
	shim_params[shim_nr_params].name = name;
	shim_params[shim_nr_params++].fn = fn;
}

void shim_register_initcall(const char *name, int (*fn)(void))
{
	shim_initcalls[shim_nr_initcalls].name = name;
	shim_initcalls[shim_nr_initcalls++].fn = fn;
}

/* Hand "name=val" to the early_param() handler for name; 0 if none. */
int shim_early_param(const char *name, const char *val)
{
	int i;

	for (i = 0; i < shim_nr_params; i++)
		if (!strcmp(shim_params[i].name, name))
			return shim_params[i].fn(val ? strdup(val) : NULL), 1;
	return 0;
}

void shim_run_initcalls(void)
{
	int i;

	/* mm/cma.c's core_initcall comes before the regions' */
	shim_cma_activate();
	for (i = 0; i < shim_nr_initcalls; i++)
		shim_initcalls[i].fn();
}

/* lib/bitmap.c, bit by bit */

#include <linux/bitmap.h>

static void shim_bit(unsigned long *map, unsigned long i, int val)
{
	unsigned long m = 1UL << (i % BITS_PER_LONG);

	if (val)
		map[i / BITS_PER_LONG] |= m;
	else
		map[i / BITS_PER_LONG] &= ~m;
}

void bitmap_set(unsigned long *map, unsigned int start, unsigned int len)
{
	while (len--)
		shim_bit(map, start++, 1);
}

void bitmap_clear(unsigned long *map, unsigned int start, int len)
{
	while (len-- > 0)
		shim_bit(map, start++, 0);
}

/* The kernel's algorithm (lib/bitmap.c), on tools/lib/find_bit.c. */
unsigned long bitmap_find_next_zero_area_off(unsigned long *map,
					     unsigned long size,
					     unsigned long start,
					     unsigned int nr,
					     unsigned long align_mask,
					     unsigned long align_offset)
{
	unsigned long index, end, i;
again:
	index = find_next_zero_bit(map, size, start);
	index = ((index + align_offset + align_mask) & ~align_mask) - align_offset;
	end = index + nr;
	if (end > size)
		return end;
	i = find_next_bit(map, end, index);
	if (i < end) {
		start = i + 1;
		goto again;
	}
	return index;
}

/* Trace events and vmstat counters */

#include <linux/vmstat.h>
#include <trace/events/cma_regions.h>

struct shim_trace shim_trace;
long shim_vm_events[SHIM_NR_VM_EVENTS];
static pthread_mutex_t shim_trace_lock = PTHREAD_MUTEX_INITIALIZER;

void trace_cma_regions_alloc_start(const char *region, const char *dev,
				   const char *kind, unsigned long size,
				   unsigned long align)
{
	pthread_mutex_lock(&shim_trace_lock);
	shim_trace.starts++;
	pthread_mutex_unlock(&shim_trace_lock);
}

void trace_cma_regions_alloc_finish(const char *region, const char *dev,
				    const char *kind, unsigned long size,
				    unsigned long align, unsigned long addr,
				    int err, unsigned int tries, u64 ns,
				    unsigned long migrated)
{
	pthread_mutex_lock(&shim_trace_lock);
	shim_trace.finishes++;
	snprintf(shim_trace.region, sizeof(shim_trace.region), "%s", region);
	snprintf(shim_trace.dev, sizeof(shim_trace.dev), "%s", dev);
	snprintf(shim_trace.kind, sizeof(shim_trace.kind), "%s", kind);
	shim_trace.size = size;
	shim_trace.align = align;
	shim_trace.addr = addr;
	shim_trace.err = err;
	shim_trace.tries = tries;
	shim_trace.ns = ns;
	shim_trace.migrated = migrated;
	pthread_mutex_unlock(&shim_trace_lock);
}

void trace_cma_regions_claim_busy(const char *region, unsigned long pfn,
				  unsigned long count, unsigned long busy_pfn,
				  int err)
{
	pthread_mutex_lock(&shim_trace_lock);
	shim_trace.busy++;
	shim_trace.busy_pfn = busy_pfn;
	shim_trace.busy_count = count;
	pthread_mutex_unlock(&shim_trace_lock);
}

void trace_cma_regions_release(const char *region, const char *dev,
			       const char *kind, unsigned long addr,
			       unsigned long size)
{
	pthread_mutex_lock(&shim_trace_lock);
	shim_trace.releases++;
	pthread_mutex_unlock(&shim_trace_lock);
}
