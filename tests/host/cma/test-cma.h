// SPDX-License-Identifier: GPL-2.0
/*
 * What the host unit tests' files share: the TAP framework and the
 * allocators (test-cma.c), the allocator "foo" (test-parse.c) and the boots
 * (test-boot.c), and each file's entry point.
 */
#ifndef TEST_CMA_H
#define TEST_CMA_H

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/cma.h>
#include <linux/cma-int.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/memblock.h>
#include <linux/mm.h>

#include "cma-regions.h"
#include "shim.h"
#include <linux/vmstat.h>
#include <trace/events/cma_regions.h>

#define MiB (1UL << 20)
#define KiB (1UL << 10)
#include <stdbool.h>

/* The TAP framework (test-cma.c): a case is begin(), checks, end(). */
extern int case_failed, total_failed, total_cases;
void begin(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void end(void);
void fail_at(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dump_log(void);

#define CHECK(cond) do {						\
		if (!(cond))						\
			fail_at(__LINE__, "failed: %s", #cond);		\
	} while (0)
#define CHECKF(cond, fmt, ...) do {					\
		if (!(cond))						\
			fail_at(__LINE__, "failed: %s: " fmt, #cond,	\
				##__VA_ARGS__);				\
	} while (0)

/* The allocators the tree has; each gets the allocator tests and boots. */
extern const char *const allocator_names[];
extern const unsigned int nr_allocators;

/* test-parse.c: "foo", best-fit under another name (register_foo()) */
extern struct cma_allocator foo_allocator;
void register_foo(void);
void test_parse(void);

/* test-alloc.c */
void test_allocators(unsigned int seed, unsigned int steps);

/* test-boot.c: a boot of the framework from the command line's options */
#define PFN(addr)	((unsigned long)(addr) >> 12)

struct boot {
	const char *cma, *map;		/* the command line's; NULL: not given */
	const char *def_cma, *def_map;	/* the platform's; NULL: none */
	int board;			/* 0: Goni, 1: Aquila, 2: 0-1G */
	const char *movable, *def_movable; /* cma_movable=, the platform's */
	unsigned long long nomap[2];	/* a no-map reserved-memory node: base, size */
};

/* The allocator the boots give each command-line region (NULL: bf). */
extern const char *boot_alloc;
int boot(const struct boot *b);
int in_log(const char *line);
#define CHECK_LOG(line) CHECKF(in_log(line) == 1, "log line \"%s\"", line)
#define CHECK_ERRORS(n) CHECKF(shim_log_count("cma: error: ") == (n), \
			       "%d error lines, expected %d", \
			       shim_log_count("cma: error: "), n)
struct device *dev(const char *name);
int wait_ok(pid_t pid);
void run_forked(const char *name, void (*fn)(void));
void run_boots(bool every);

/* test-movable.c */
void run_movable_boots(bool every);

#endif /* TEST_CMA_H */
