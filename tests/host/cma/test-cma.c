// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the CMA framework (mm/cma-parse.c, mm/cma-regions.c
 * and the allocators mm/cma-best-fit.c, mm/cma-first-fit.c, mm/cma-bitmap.c
 * of the patched kernel tree).
 *
 *   test-cma [SEED [STEPS]]
 *
 * Prints one "ok - ..." or "not ok - ..." line per case; details of a
 * failure follow on indented "# ..." lines.  Exits non-zero on failure.
 *
 * The cases live by subject: the parsers (test-parse.c), the allocators
 * (test-alloc.c), boots of the framework (test-boot.c) and movable
 * regions (test-movable.c); here, the TAP framework and the run.
 */
#include "test-cma.h"

/* A tiny TAP framework */

int case_failed, total_failed, total_cases;
static char case_name[200];

void begin(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(case_name, sizeof(case_name), fmt, ap);
	va_end(ap);
	case_failed = 0;
	shim_log_clear();
}

void end(void)
{
	printf("%s - %s\n", case_failed ? "not ok" : "ok", case_name);
	fflush(stdout);
	total_cases++;
	total_failed += case_failed;
}

void fail_at(int line, const char *fmt, ...)
{
	va_list ap;

	printf("    # line %d: ", line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	case_failed = 1;
}

void dump_log(void)
{
	char *copy = strdup(shim_log), *line, *save = NULL;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("    # log: %s\n", line);
	free(copy);
}

/* The allocators the tree has; each gets the allocator tests and boots. */
const char *const allocator_names[] = {
	"bf",
#ifdef CONFIG_CMA_FIRST_FIT
	"ff",
#endif
#ifdef CONFIG_CMA_BITMAP
	"bitmap",
#endif
};
const unsigned int nr_allocators = sizeof(allocator_names) / sizeof(allocator_names[0]);

int main(int argc, char **argv)
{
	unsigned int seed = argc > 1 ? strtoul(argv[1], NULL, 0) : 20100720;
	unsigned int steps = argc > 2 ? strtoul(argv[2], NULL, 0) : 3000;
	unsigned int i;

	shim_log_echo = getenv("CMA_TEST_VERBOSE") != NULL;
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* Pure functions first, in this process. */
	register_foo();
	test_parse();
	test_allocators(seed, steps);
	cma_allocator_unregister(&foo_allocator);

	/* Boots, each in a fresh process, then again on each other allocator. */
	run_boots(true);
	run_movable_boots(true);
	for (i = 1; i < nr_allocators; i++) {
		boot_alloc = allocator_names[i];
		run_boots(false);
		run_movable_boots(false);
	}
	boot_alloc = NULL;

	printf("# %d cases, %d failed\n", total_cases, total_failed);
	return total_failed != 0;
}
