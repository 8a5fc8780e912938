// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * frag: fragment the guest's free memory, for the CMA benchmark
 * (docs/benchmarks.md).
 *
 *   frag [-l] [-k KEEP_MIB] [MIB]
 *
 * Maps MIB MiB of anonymous memory (default: MemAvailable less KEEP_MIB,
 * default 24 MiB), touches every page so that the kernel really hands them
 * out, then gives back every other page (madvise(MADV_DONTNEED) of single
 * pages: the mapping stays one VMA).  What
 * the page allocator has left is then mostly single free pages between
 * pages that are in use, so a physically contiguous allocation of more
 * than a page has to compact (migrate) memory or fail.  frag prints
 *
 *   frag: <n> pages touched, <n> freed, holding <n> KiB
 *
 * and holds the rest.  Every page kept holds words computed from its index,
 * so that a page which migration lost, mixed up or left stale shows:
 * SIGTERM or SIGINT checks every kept page, prints
 *
 *   frag: checked <n> pages, <n> bad
 *
 * and exits with status 0 when no page was bad, 1 otherwise.
 *
 * Compaction can migrate those pages (they are movable), so a kernel that
 * tries hard enough still finds contiguous memory.  -l makes them stay
 * put: the freed pages are unmapped (one VMA per page kept, so at most
 * 2 * vm.max_map_count pages) and each page kept is mlock()ed; with
 * /proc/sys/vm/compact_unevictable_allowed set to 0, compaction leaves
 * locked pages alone, like the unmovable allocations of a long-running
 * kernel.  The line printed then ends in ", locked".
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile sig_atomic_t got_term;

static void on_term(int sig)
{
	(void)sig;
	got_term = 1;
}

/* Word @w of page @i: a hash, so that no two pages hold the same data. */
static uint32_t word(unsigned long i, unsigned long w)
{
	uint32_t x = 0x46524147u ^ (uint32_t)(i * 0x85ebca6bu) ^ (uint32_t)(w * 0xc2b2ae35u);

	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	return x;
}

static long mem_available_kib(void)
{
	char line[128];
	long kib = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static void usage(void)
{
	fprintf(stderr, "usage: frag [-l] [-k KEEP_MIB] [MIB]\n");
	exit(2);
}

static long number(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > 1L << 20) {
		fprintf(stderr, "frag: '%s' is not a number of MiB\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), keep = 24, mib, avail, i, n, w, freed = 0, bad = 0;
	long words = page / (long)sizeof(uint32_t);
	struct sigaction sa;
	sigset_t block, orig;
	unsigned char *p;
	uint32_t *q;
	int opt, lock = 0;

	while ((opt = getopt(argc, argv, "lk:h")) != -1) {
		switch (opt) {
		case 'l':
			lock = 1;
			break;
		case 'k':
			keep = number(optarg);
			break;
		default:
			usage();
		}
	}
	if (argc - optind > 1)
		usage();
	if (optind < argc) {
		mib = number(argv[optind]);
	} else {
		avail = mem_available_kib();
		if (avail < 0) {
			fprintf(stderr, "frag: no MemAvailable in /proc/meminfo; give MIB\n");
			return 2;
		}
		mib = avail / 1024 - keep;
	}
	if (mib <= 0) {
		fprintf(stderr, "frag: nothing to do (%ld MiB)\n", mib);
		return 2;
	}
	n = mib * (1024 * 1024 / page);
	p = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "frag: mmap of %ld MiB: %s\n", mib, strerror(errno));
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	/* Blocked until sigsuspend(), so that none is lost before it. */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &orig);
	for (i = 0; i < n; i++) {
		q = (uint32_t *)(p + i * page);
		if (i & 1)
			for (w = 0; w < words; w++)
				q[w] = word(i, w);
		else
			q[0] = (uint32_t)i;	/* touched, given back below */
	}
	for (i = 0; i < n; i += 2) {
		if (lock ? munmap(p + i * page, page) : madvise(p + i * page, page, MADV_DONTNEED)) {
			fprintf(stderr, "frag: %s of page %ld: %s%s\n", lock ? "munmap" : "madvise",
				i, strerror(errno),
				errno == ENOMEM ? " (vm.max_map_count: try fewer MiB)" : "");
			return 1;
		}
		freed++;
		if (lock && i + 1 < n && mlock(p + (i + 1) * page, page)) {
			fprintf(stderr, "frag: mlock: %s\n", strerror(errno));
			return 1;
		}
	}
	printf("frag: %ld pages touched, %ld freed, holding %ld KiB%s\n", n, freed,
	       (n - freed) * page / 1024, lock ? ", locked" : "");
	fflush(stdout);
	while (!got_term)
		sigsuspend(&orig);
	for (i = 1; i < n; i += 2) {
		q = (uint32_t *)(p + i * page);
		for (w = 0; w < words; w++)
			if (q[w] != word(i, w)) {
				bad++;
				break;
			}
	}
	printf("frag: checked %ld pages, %ld bad\n", n - freed, bad);
	return bad ? 1 : 0;
}
