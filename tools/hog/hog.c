// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hog: hold movable memory (anonymous and page cache) with known contents,
 * and check them, for the movable-region tests (docs/cma.md, "Movable
 * regions").
 *
 *   hog [-a ANON_MIB] [-f FILE_MIB] [-d DIR] [-s SEED]
 *   hog -g
 *
 * Maps ANON_MIB MiB of anonymous memory and writes FILE_MIB MiB to the file
 * DIR/hog.<pid> (default DIR: /tmp, a tmpfs or ramfs in the initramfs, so
 * its pages stay in the page cache).  Without -a, ANON_MIB is MemAvailable
 * less 16 MiB and less FILE_MIB.  Every 4 KiB page holds words computed from the
 * seed, the page's index and the word's index, so a page that migration
 * lost, mixed up or left stale fails the check.  Once everything is
 * written it prints
 *
 *   hog: holding <n> KiB anonymous, <n> KiB file, pid <pid>
 *
 * and waits.  SIGUSR1 checks every page and prints
 *
 *   hog: checked <n> pages, <n> bad
 *
 * SIGTERM or SIGINT checks too, removes the file and exits with status 0
 * when no page was bad, 1 otherwise (2 for a usage or set-up error).
 *
 * -g measures what a user process can fill: it touches anonymous memory a
 * MiB at a time, printing "hog: <n> MiB" after each, until the kernel's
 * OOM killer stops it (without swap, nothing else does).  The last line
 * is the answer.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE	4096UL
#define WORDS	(PAGE / sizeof(uint32_t))

static volatile sig_atomic_t got_usr1, got_term;
static uint32_t seed = 20100720;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		got_usr1 = 1;
	else
		got_term = 1;
}

/* The word @w of page @p of stream @s (0: anonymous, 1: file). */
static uint32_t word(unsigned int s, unsigned long p, unsigned long w)
{
	uint32_t x = seed ^ (s * 0x9e3779b9u) ^ (uint32_t)(p * 0x85ebca6bu) ^
		     (uint32_t)(w * 0xc2b2ae35u);

	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	return x;
}

static void fill(uint32_t *page, unsigned int s, unsigned long p)
{
	unsigned long w;

	for (w = 0; w < WORDS; w++)
		page[w] = word(s, p, w);
}

static int page_ok(const uint32_t *page, unsigned int s, unsigned long p)
{
	unsigned long w;

	for (w = 0; w < WORDS; w++)
		if (page[w] != word(s, p, w))
			return 0;
	return 1;
}

static long mem_available_mib(void)
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
	return kib < 0 ? -1 : kib / 1024;
}

static long number(const char *s, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || *end || v < 0 || v > 4096) {
		fprintf(stderr, "hog: %s must be a number of MiB from 0 to 4096, not \"%s\"\n",
			what, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long anon_mib = -1, file_mib = 0;
	const char *dir = "/tmp";
	unsigned long anon_pages, file_pages, p, bad;
	char path[4096];
	uint32_t *anon = NULL, buf[WORDS];
	struct sigaction sa;
	sigset_t block, orig;
	int opt, fd = -1, grow = 0;

	while ((opt = getopt(argc, argv, "a:f:d:s:g")) != -1) {
		switch (opt) {
		case 'g':
			grow = 1;
			break;
		case 'a':
			anon_mib = number(optarg, "-a");
			break;
		case 'f':
			file_mib = number(optarg, "-f");
			break;
		case 'd':
			dir = optarg;
			break;
		case 's':
			seed = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: hog [-a ANON_MIB] [-f FILE_MIB] [-d DIR] [-s SEED] | hog -g\n");
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "hog: unexpected argument \"%s\"\n", argv[optind]);
		return 2;
	}
	if (grow) {
		for (p = 1;; p++) {
			char *m = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (m == MAP_FAILED) {
				printf("hog: mmap failed after %lu MiB: %s\n", p - 1,
				       strerror(errno));
				return 1;
			}
			memset(m, 0x5a, 1 << 20);
			printf("hog: %lu MiB\n", p);
			fflush(stdout);
		}
	}
	if (anon_mib < 0) {
		anon_mib = mem_available_mib() - 16 - file_mib;
		if (anon_mib <= 0) {
			fprintf(stderr, "hog: MemAvailable is under %ld MiB: nothing to hold\n",
				17 + file_mib);
			return 2;
		}
	}
	anon_pages = anon_mib * (1024 * 1024 / PAGE);
	file_pages = file_mib * (1024 * 1024 / PAGE);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	/* Blocked until sigsuspend(), so that none is lost before it. */
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &orig);

	if (anon_pages) {
		anon = mmap(NULL, anon_pages * PAGE, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (anon == MAP_FAILED) {
			fprintf(stderr, "hog: cannot map %ld MiB: %s\n", anon_mib, strerror(errno));
			return 2;
		}
		for (p = 0; p < anon_pages; p++)
			fill(anon + p * WORDS, 0, p);
	}
	if (file_pages) {
		snprintf(path, sizeof(path), "%s/hog.%d", dir, (int)getpid());
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd < 0) {
			fprintf(stderr, "hog: cannot create %s: %s\n", path, strerror(errno));
			return 2;
		}
		for (p = 0; p < file_pages; p++) {
			fill(buf, 1, p);
			if (write(fd, buf, PAGE) != (ssize_t)PAGE) {
				fprintf(stderr, "hog: cannot write %s: %s\n", path, strerror(errno));
				unlink(path);
				return 2;
			}
		}
	}
	printf("hog: holding %lu KiB anonymous, %lu KiB file, pid %d\n",
	       anon_pages * (PAGE / 1024), file_pages * (PAGE / 1024), (int)getpid());
	fflush(stdout);

	for (;;) {
		while (!got_usr1 && !got_term)
			sigsuspend(&orig);
		bad = 0;
		for (p = 0; p < anon_pages; p++)
			bad += !page_ok(anon + p * WORDS, 0, p);
		for (p = 0; p < file_pages; p++)
			if (pread(fd, buf, PAGE, p * PAGE) != (ssize_t)PAGE || !page_ok(buf, 1, p))
				bad++;
		printf("hog: checked %lu pages, %lu bad\n", anon_pages + file_pages, bad);
		fflush(stdout);
		got_usr1 = 0;
		if (got_term) {
			if (fd >= 0)
				unlink(path);
			return bad ? 1 : 0;
		}
	}
}
