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
 */
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

/* A tiny TAP framework */

static int case_failed, total_failed, total_cases;
static char case_name[200];

static void begin(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(case_name, sizeof(case_name), fmt, ap);
	va_end(ap);
	case_failed = 0;
	shim_log_clear();
}

static void end(void)
{
	printf("%s - %s\n", case_failed ? "not ok" : "ok", case_name);
	fflush(stdout);
	total_cases++;
	total_failed += case_failed;
}

static void fail_at(int line, const char *fmt, ...)
{
	va_list ap;

	printf("    # line %d: ", line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	case_failed = 1;
}

#define CHECK(cond) do {						\
		if (!(cond))						\
			fail_at(__LINE__, "failed: %s", #cond);		\
	} while (0)
#define CHECKF(cond, fmt, ...) do {					\
		if (!(cond))						\
			fail_at(__LINE__, "failed: %s: " fmt, #cond,	\
				##__VA_ARGS__);				\
	} while (0)

static void dump_log(void)
{
	char *copy = strdup(shim_log), *line, *save = NULL;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("    # log: %s\n", line);
	free(copy);
}

/* The allocators the tree has; each gets the allocator tests and boots. */
static const char *const allocator_names[] = {
	"bf",
#ifdef CONFIG_CMA_FIRST_FIT
	"ff",
#endif
#ifdef CONFIG_CMA_BITMAP
	"bitmap",
#endif
};
#define NR_ALLOCATORS (sizeof(allocator_names) / sizeof(allocator_names[0]))

/*
 * A second allocator, "foo", which is best-fit under another name and
 * takes any parameters but "bad" ones.
 */
static struct cma_allocator foo_allocator;

static const char *foo_params(const char *params)
{
	return strstr(params, "bad") ? "does not take \"bad\"" : NULL;
}

static void register_foo(void)
{
	foo_allocator = cma_bf_allocator;
	foo_allocator.name = "foo";
	foo_allocator.check_params = foo_params;
	if (cma_allocator_register(&foo_allocator))
		fail_at(__LINE__, "cannot register foo");
}

/* cma= */

struct exp_region {
	const char *name;
	unsigned long start, size, align;
	const char *alloc, *params;
};

struct region_case {
	const char *str;
	unsigned int problems;
	const char *message;	/* in the last problem reported */
	struct exp_region regs[5];
};

static const struct region_case region_cases[] = {
	/* The spec's and the 2010 documentation's examples */
	{ "r=20M", 0, NULL, { { "r", 0, 20 * MiB, 4096, "bf" } } },
	{ "v=20M;c=20M", 0, NULL,
	  { { "v", 0, 20 * MiB, 4096, "bf" }, { "c", 0, 20 * MiB, 4096, "bf" } } },
	{ "r1=64M@512M/1M:foo(bar);r2=64M/1M;r3=64M@512M:foo", 1,
	  "cma=r3=64M@512M:foo: 0x20000000-0x23ffffff overlaps region r1; region refused",
	  { { "r1", 512 * MiB, 64 * MiB, MiB, "foo", "bar" },
	    { "r2", 0, 64 * MiB, MiB, "bf" } } },
	{ "a=32M@0;b=32M@512M", 0, NULL,
	  { { "a", 0, 32 * MiB, 4096, "bf" }, { "b", 512 * MiB, 32 * MiB, 4096, "bf" } } },
	{ "vf=1M/128K;a=20M;b=20M@512M", 0, NULL,
	  { { "vf", 0, MiB, 128 * KiB, "bf" }, { "a", 0, 20 * MiB, 4096, "bf" },
	    { "b", 512 * MiB, 20 * MiB, 4096, "bf" } } },
	{ "a=100M", 0, NULL, { { "a", 0, 100 * MiB, 4096, "bf" } } },
	{ "r3=64M@512M:foo", 0, NULL, { { "r3", 512 * MiB, 64 * MiB, 4096, "foo" } } },
	/* Separators, numbers and rounding */
	{ "a=1M,b=2M", 0, NULL,
	  { { "a", 0, MiB, 4096, "bf" }, { "b", 0, 2 * MiB, 4096, "bf" } } },
	{ "a=1M;;b=2M;", 0, NULL,
	  { { "a", 0, MiB, 4096, "bf" }, { "b", 0, 2 * MiB, 4096, "bf" } } },
	{ "", 0, NULL, { { NULL } } },
	{ ";,;", 0, NULL, { { NULL } } },
	{ "a=0x100000", 0, NULL, { { "a", 0, MiB, 4096, "bf" } } },
	{ "a=1m/64k", 0, NULL, { { "a", 0, MiB, 64 * KiB, "bf" } } },
	{ "a=1", 0, NULL, { { "a", 0, 4096, 4096, "bf" } } },
	{ "a=4097", 0, NULL, { { "a", 0, 8192, 4096, "bf" } } },
	{ "a=1M/0", 0, NULL, { { "a", 0, MiB, 4096, "bf" } } },
	{ "a=1M/1K", 0, NULL, { { "a", 0, MiB, 4096, "bf" } } },
	/* A START is where the region goes, or it is refused: never rounded. */
	{ "a=1M@0x40000001", 1,
	  "cma=a=1M@0x40000001: start 0x40000001 is not aligned to 0x1000; region refused",
	  { { NULL } } },
	{ "a=1M@0x40010000/1M;b=1M", 1,
	  "cma=a=1M@0x40010000/1M: start 0x40010000 is not aligned to 0x100000; region refused",
	  { { "b", 0, MiB, 4096, "bf" } } },
	{ "a=1M@0x40100000/1M", 0, NULL, { { "a", 0x40100000, MiB, MiB, "bf" } } },
	/* START 0 is "anywhere", as if absent (the spec): address 0 cannot be asked for. */
	{ "a=1M@0/1M", 0, NULL, { { "a", 0, MiB, MiB, "bf" } } },
	{ "A_b-9=1G", 0, NULL, { { "A_b-9", 0, 1024 * MiB, 4096, "bf" } } },
	{ "sixteen_chars_ab=1M", 0, NULL, { { "sixteen_chars_ab", 0, MiB, 4096, "bf" } } },
	{ "a=1M:", 0, NULL, { { "a", 0, MiB, 4096, "bf" } } },
	{ "a=1M:bf", 0, NULL, { { "a", 0, MiB, 4096, "bf" } } },
	{ "a=1M:bf()", 0, NULL, { { "a", 0, MiB, 4096, "bf" } } },
	{ "a=1M:foo(x=1;y,z)", 0, NULL, { { "a", 0, MiB, 4096, "foo", "x=1;y,z" } } },
	{ "a=1M:foo(p),b=1M", 0, NULL,
	  { { "a", 0, MiB, 4096, "foo", "p" }, { "b", 0, MiB, 4096, "bf" } } },
	/* One problem each; the rest is kept */
	/* Parameters are refused at parse time unless the allocator takes them. */
	{ "a=1M:(x);b=1M", 1, "cma=a=1M:(x): allocator bf takes only \"blind\"; region refused",
	  { { "b", 0, MiB, 4096, "bf" } } },
	{ "a=1M:bf(x)", 1, "cma=a=1M:bf(x): allocator bf takes only \"blind\"; region refused",
	  { { NULL } } },
	{ "a=1M:foo(bad)", 1, "cma=a=1M:foo(bad): allocator foo does not take \"bad\"",
	  { { NULL } } },
	/* An unclosed '(' ends its region at the next separator, not later. */
	{ "cam=8M:bf(;codec=8M:bf()", 1, "cma=cam=8M:bf(: unclosed '('; region refused",
	  { { "codec", 0, 8 * MiB, 4096, "bf" } } },
	{ "a=1M:foo(x(y)z);b=1M", 1, "cma=a=1M:foo(x(y)z): unclosed '('; region refused",
	  { { "b", 0, MiB, 4096, "bf" } } },
	{ "a=1M:foo(x;b=1M:foo(y)", 1, "cma=a=1M:foo(x: unclosed '('; region refused",
	  { { "b", 0, MiB, 4096, "foo", "y" } } },
	{ "a", 1, "cma=a: no '=SIZE'; region refused", { { NULL } } },
	{ "=1M;b=1M", 1, "cma==1M: empty name; region refused",
	  { { "b", 0, MiB, 4096, "bf" } } },
	{ "a.b=1M", 1, "cma=a.b=1M: '.' is not allowed in a name; region refused", { { NULL } } },
	{ "seventeen_chars_x=1M", 1, "name longer than 16 characters", { { NULL } } },
	{ "a=1M;a=2M", 1, "cma=a=2M: duplicate name; region refused",
	  { { "a", 0, MiB, 4096, "bf" } } },
	{ "a=0;b=1M", 1, "cma=a=0: size is 0; region refused",
	  { { "b", 0, MiB, 4096, "bf" } } },
	{ "a=", 1, "cma=a=: size not a number; region refused", { { NULL } } },
	{ "a=x", 1, "cma=a=x: size not a number", { { NULL } } },
	{ "a=99999999999999999999999", 1, "size too large", { { NULL } } },
	{ "a=20E", 1, "cma=a=20E: size too large", { { NULL } } },
	{ "a=1M@x", 1, "cma=a=1M@x: start not a number", { { NULL } } },
	{ "a=1M/3", 1, "cma=a=1M/3: alignment 0x3 is not a power of two; region refused",
	  { { NULL } } },
	{ "a=1M/x", 1, "alignment not a number", { { NULL } } },
	{ "a=1M:bf(x;b=1M", 1, "cma=a=1M:bf(x: unclosed '('; region refused",
	  { { "b", 0, MiB, 4096, "bf" } } },
	{ "a=1M:bf(x)y", 1, "cma=a=1M:bf(x)y: unexpected 'y'", { { NULL } } },
	{ "a=1Mjunk;b=1M", 1, "cma=a=1Mjunk: unexpected 'junk'; region refused",
	  { { "b", 0, MiB, 4096, "bf" } } },
	{ "a=1M(x)", 1, "unexpected '(x)'", { { NULL } } },
	{ "a=1M:nope", 1, "cma=a=1M:nope: unknown allocator 'nope'; region refused",
	  { { NULL } } },
	{ "a=1M:verylongallocatorname", 1, "unknown allocator", { { NULL } } },
	{ "a=2M@0x40000000;b=1M@0x40100000;c=1M@0x40200000", 1,
	  "cma=b=1M@0x40100000: 0x40100000-0x401fffff overlaps region a; region refused",
	  { { "a", 0x40000000, 2 * MiB, 4096, "bf" },
	    { "c", 0x40200000, MiB, 4096, "bf" } } },
	{ "a=0;b=x;c=1M/3;d=1M", 3, "alignment 0x3",
	  { { "d", 0, MiB, 4096, "bf" } } },
};

static void test_region_case(const struct region_case *c)
{
	struct cma_region regs[CMA_MAX_REGIONS];
	struct cma_report rep = { .quiet = true };
	char *str = strdup(c->str);
	unsigned int nr, i, n;

	begin("cma=%s: %u problems", c->str, c->problems);
	for (n = 0; c->regs[n].name; n++)
		;
	nr = cma_parse_regions(str, regs, CMA_MAX_REGIONS, &rep);
	CHECKF(nr == n, "%u regions, expected %u", nr, n);
	CHECKF(rep.problems == c->problems, "%u problems (last: %s)",
	       rep.problems, rep.last);
	if (c->message)
		CHECKF(strstr(rep.last, c->message), "message \"%s\"", rep.last);
	for (i = 0; i < nr && i < n; i++) {
		const struct exp_region *e = &c->regs[i];
		const struct cma_region *r = &regs[i];

		CHECKF(!strcmp(r->name, e->name), "%s", r->name);
		CHECKF(r->start == e->start, "%s: start %#lx", r->name, r->start);
		CHECKF(r->size == e->size, "%s: size %#lx", r->name, r->size);
		CHECKF(r->alignment == e->align, "%s: align %#lx", r->name,
		       r->alignment);
		CHECKF(r->fixed == !!e->start, "%s: fixed", r->name);
		CHECKF(r->alloc && !strcmp(r->alloc->name, e->alloc),
		       "%s: allocator %s", r->name, r->alloc ? r->alloc->name : "-");
		CHECKF(e->params ? r->alloc_params && !strcmp(r->alloc_params, e->params)
				 : !r->alloc_params,
		       "%s: params %s", r->name, r->alloc_params ?: "(none)");
	}
	free(str);
	end();
}

/* cma= picks each allocator by name and hands it its parameters. */
static void test_region_allocator(const char *name)
{
	struct cma_region regs[CMA_MAX_REGIONS];
	struct cma_report rep = { .quiet = true };
	char str[200], msg[300];
	unsigned int nr;

	begin("cma=: allocator %s picked by name; parameters refused when parsed", name);
	snprintf(str, sizeof(str), "a=1M:%s;b=2M@0x40000000/64K:%s(x=1,y);c=1M:%s();d=1M:%s(",
		 name, name, name, name);
	nr = cma_parse_regions(str, regs, CMA_MAX_REGIONS, &rep);
	CHECKF(nr == 2, "%u regions", nr);
	CHECKF(rep.problems == 2 && strstr(rep.last, "unclosed '('"), "%u problems (last: %s)",
	       rep.problems, rep.last);
	if (nr == 2) {
		CHECK(regs[0].alloc && !strcmp(regs[0].alloc->name, name) && !regs[0].alloc_params);
		CHECK(!strcmp(regs[1].name, "c"));
		CHECK(regs[1].alloc && !strcmp(regs[1].alloc->name, name) && !regs[1].alloc_params);
	}
	snprintf(str, sizeof(str), "b=2M@0x40000000/64K:%s(x=1,y)", name);
	snprintf(msg, sizeof(msg), "cma=%s: allocator %s takes only \"blind\"; region refused",
		 str, name);
	CHECK(cma_parse_regions(str, regs, CMA_MAX_REGIONS, &rep) == 0);
	CHECKF(!strcmp(rep.last, msg), "%s", rep.last);
	/* "blind" (no placement in a movable region) is every built-in's. */
	snprintf(str, sizeof(str), "a=1M:%s(blind)", name);
	CHECK(cma_parse_regions(str, regs, CMA_MAX_REGIONS, &rep) == 1);
	CHECK(regs[0].alloc_params && !strcmp(regs[0].alloc_params, "blind"));
	CHECK(cma_allocator_find(name) && !strcmp(cma_allocator_find(name)->name, name));
	end();
}

static void test_region_limits(void)
{
	struct cma_region regs[CMA_MAX_REGIONS];
	struct cma_report rep = { .quiet = true };
	char str[CMA_PARAM_MAX * 2];
	unsigned int i, nr;
	size_t len = 0;

	begin("cma= with 18 regions: the 17th and 18th are refused, one message each");
	for (i = 0; i < 18; i++)
		len += sprintf(str + len, "%sr%u=1M", i ? ";" : "", i);
	nr = cma_parse_regions(str, regs, CMA_MAX_REGIONS, &rep);
	CHECKF(nr == 16, "%u", nr);
	CHECKF(rep.problems == 2, "%u", rep.problems);
	CHECKF(strstr(rep.last, "cma=r17=1M: more than 16 regions; region refused"),
	       "%s", rep.last);
	end();

	begin("cma=: the 17th region is checked before it is refused for the limit");
	len = 0;
	for (i = 0; i < 16; i++)
		len += sprintf(str + len, "r%u=1M;", i);
	strcpy(str + len, "r0=1M");
	nr = cma_parse_regions(str, regs, CMA_MAX_REGIONS, &rep);
	CHECK(strstr(rep.last, "duplicate name"));
	end();

	begin("cma= problems are printed once each with the 'cma: error:' prefix");
	rep = (struct cma_report){ };
	strcpy(str, "a=0;b=1M/3;c=1M");
	nr = cma_parse_regions(str, regs, CMA_MAX_REGIONS, &rep);
	CHECK(nr == 1);
	CHECKF(shim_log_count("cma: error: ") == 2, "%d", shim_log_count("cma: error: "));
	CHECK(shim_log_count("cma: error: cma=a=0: size is 0; region refused\n") == 1);
	CHECK(shim_log_count(
		"cma: error: cma=b=1M/3: alignment 0x3 is not a power of two; region refused\n") == 1);
	end();
}

/* cma_map= */

struct map_query {
	const char *dev, *kind, *expect;	/* regions "a,b"; NULL: no rule */
};

struct map_case {
	const char *regions, *map;
	unsigned int problems;
	const char *message;
	const char *formatted;		/* the rules as logged, ";"-joined */
	struct map_query q[14];
};

static const struct map_case map_cases[] = {
	{ "r=20M", "video,camera=r", 0, NULL, "video,camera=r",
	  { { "video", NULL, "r" }, { "camera", "", "r" }, { "video", "x", NULL },
	    { "videos", NULL, NULL }, { "foo", NULL, NULL } } },
	{ "v=20M;c=20M", "video=v;camera=c", 0, NULL, "video=v;camera=c",
	  { { "video", NULL, "v" }, { "camera", NULL, "c" } } },
	{ "a=32M;b=32M", "foo/a=a,b;foo/b=b,a", 0, NULL, "foo/a=a,b;foo/b=b,a",
	  { { "foo", "a", "a,b" }, { "foo", "b", "b,a" }, { "foo", NULL, NULL },
	    { "foo", "c", NULL }, { "bar", "a", NULL } } },
	{ "vf=1M/128K;a=20M;b=20M", "video/a=a;video/b=b;video/f=vf", 0, NULL,
	  "video/a=a;video/b=b;video/f=vf",
	  { { "video", "a", "a" }, { "video", "b", "b" }, { "video", "f", "vf" },
	    { "video", NULL, NULL } } },
	{ "a=100M", "*/*=a", 0, NULL, "*/*=a",
	  { { "video", NULL, "a" }, { "x", "y", "a" }, { "s5p-codec", "b", "a" } } },
	{ "r1=1M;r2=1M;r3=1M", "foo=r1;foo/quaz=r2;/*=r3;bar/*=r1,r2;baz?/a*,baz?/b*=r3",
	  0, NULL, "foo=r1;foo/quaz=r2;/*=r3;bar/*=r1,r2;baz?/a*,baz?/b*=r3",
	  { { "foo", NULL, "r1" }, { "foo", "quaz", "r2" }, { "foo", "x", "r3" },
	    { "foo", "quazz", "r3" }, { "bar", NULL, "r1,r2" }, { "bar", "k", "r1,r2" },
	    { "baz1", "abc", "r3" }, { "bazz", "b", "r3" }, { "baz1", "c", NULL },
	    { "baz", "a", NULL }, { "baz12", "a", NULL }, { "fo", NULL, NULL },
	    { "foo1", "quaz", NULL } } },
	{ "r=1M;s=1M", "a?c=r;*=s", 0, NULL, "a?c=r;*=s",
	  { { "abc", NULL, "r" }, { "ac", NULL, "s" }, { "abbc", NULL, "s" },
	    { "x", "k", NULL } } },
	{ "r=1M;s=1M", "dev/=r;dev/?=s", 0, NULL, "dev/=r;dev/?=s",
	  { { "dev", NULL, "r" }, { "dev", "x", "s" }, { "dev", "xy", NULL } } },
	{ "r=1M;s=1M", "a=r;/x=s", 0, NULL, "a=r;/x=s",
	  { { "a", "x", "s" }, { "b", "x", NULL } } },
	/* The S5PV210 boards' default map (arch/arm/mach-s5pv210/s5pv210.c) */
	{ "cam=8M;codec-a=8M;codec-b=8M;codec-fw=1M/128K",
	  "f1700000.video-codec/a,s5p-codec*/a=codec-a;"
	  "f1700000.video-codec/b,s5p-codec*/b=codec-b;"
	  "f1700000.video-codec/fw,s5p-codec*/fw=codec-fw;"
	  "fb200000.camera/*,s5p-cam*/*=cam", 0, NULL,
	  "f1700000.video-codec/a,s5p-codec*/a=codec-a;"
	  "f1700000.video-codec/b,s5p-codec*/b=codec-b;"
	  "f1700000.video-codec/fw,s5p-codec*/fw=codec-fw;"
	  "fb200000.camera/*,s5p-cam*/*=cam",
	  { { "f1700000.video-codec", "a", "codec-a" }, { "f1700000.video-codec", "b", "codec-b" },
	    { "f1700000.video-codec", "fw", "codec-fw" }, { "f1700000.video-codec", NULL, NULL },
	    { "f1700000.video-codec", "c", NULL }, { "s5p-codec", "a", "codec-a" },
	    { "s5p-codec.0", "b", "codec-b" }, { "s5p-codec", NULL, NULL },
	    { "fb200000.camera", "y", "cam" }, { "fb200000.camera", NULL, "cam" },
	    { "s5p-cam.1", "preview", "cam" }, { "fb200001.camera", "y", NULL },
	    { "camera", NULL, NULL } } },
	/* Problems */
	{ "r=1M", "video", 1, "cma_map=video: no '='; rule dropped", "",
	  { { "video", NULL, NULL } } },
	{ "r=1M", "video;camera=r", 1, "cma_map=video: no '='", "camera=r",
	  { { "camera", NULL, "r" } } },
	{ "r=1M", "=r", 1, "cma_map==r: empty pattern; rule dropped", "", { { NULL } } },
	{ "r=1M", "a,,b=r", 1, "empty pattern", "", { { NULL } } },
	/* A rule may name no region: it matches and gives nothing. */
	{ "r=1M", "a=;a=r;b=r", 0, NULL, "a=;a=r;b=r",
	  { { "a", NULL, "" }, { "b", NULL, "r" } } },
	{ "a=1M", "dev=nope;dev=a", 1, "cma_map=dev=nope: no region nope; skipped", "dev=;dev=a",
	  { { "dev", NULL, "" } } },
	{ "r=1M", "a=r,,r", 1, "empty region name", "", { { NULL } } },
	{ "r=1M", "a*b=r", 1, "cma_map=a*b=r: '*' must end a pattern; rule dropped", "",
	  { { NULL } } },
	{ "r=1M", "a/b*c=r", 1, "'*' must end a pattern", "", { { NULL } } },
	{ "r=1M", "a/b/c=r", 1, "more than one '/' in a pattern", "", { { NULL } } },
	{ "r=1M", "a=r.x", 1, "'.' is not allowed in a region name", "", { { NULL } } },
	{ "r=1M", "a=b=r", 1, "'=' is not allowed in a region name", "", { { NULL } } },
	{ "r=1M", "a=nope", 1, "cma_map=a=nope: no region nope; skipped", "a=",
	  { { "a", NULL, "" } } },
	{ "r=1M", "a=nope,r,nada", 2, "no region nada; skipped", "a=r",
	  { { "a", NULL, "r" } } },
	{ "r=1M", "/a=r;b=r", 1,
	  "cma_map=/a=r: '/a' follows no device pattern and never matches", "/a=r;b=r",
	  { { "b", "a", NULL }, { "b", NULL, "r" }, { "x", "a", NULL } } },
	{ "r=1M", "", 0, NULL, "", { { "a", NULL, NULL } } },
	{ "r=1M", ";;a=r;", 0, NULL, "a=r", { { "a", NULL, "r" } } },
};

static void format_regions(char *buf, const struct cma_map *map,
			   const struct cma_map_rule *rule)
{
	unsigned int i;

	*buf = '\0';
	for (i = 0; i < rule->nr_regions; i++)
		sprintf(buf + strlen(buf), "%s%s", i ? "," : "",
			map->regions[rule->region + i]->name);
}

static void test_map_case(const struct map_case *c)
{
	static struct cma_map map;
	struct cma_region regs[CMA_MAX_REGIONS];
	struct cma_report rep = { .quiet = true };
	char *rstr = strdup(c->regions), *mstr = strdup(c->map);
	char buf[600], all[2000] = "";
	unsigned int nr, i;

	begin("cma_map=%s: %u problems", c->map, c->problems);
	nr = cma_parse_regions(rstr, regs, CMA_MAX_REGIONS, &rep);
	CHECK(rep.problems == 0);
	cma_parse_map(mstr, &map, regs, nr, &rep);
	CHECKF(rep.problems == c->problems, "%u problems (last: %s)", rep.problems,
	       rep.last);
	if (c->message)
		CHECKF(strstr(rep.last, c->message), "message \"%s\"", rep.last);
	for (i = 0; i < map.nr_rules; i++) {
		cma_format_rule(buf, sizeof(buf), &map, &map.rules[i]);
		sprintf(all + strlen(all), "%s%s", i ? ";" : "", buf);
	}
	CHECKF(!strcmp(all, c->formatted), "rules \"%s\", expected \"%s\"", all,
	       c->formatted);
	for (i = 0; c->q[i].dev; i++) {
		const struct map_query *q = &c->q[i];
		const struct cma_map_rule *rule = cma_map_match(&map, q->dev, q->kind);

		if (rule)
			format_regions(buf, &map, rule);
		CHECKF(q->expect ? rule && !strcmp(buf, q->expect) : !rule,
		       "%s/%s -> %s, expected %s", q->dev, q->kind ?: "(null)",
		       rule ? buf : "no rule", q->expect ?: "no rule");
	}
	free(rstr);
	free(mstr);
	end();
}

/*
 * The DMA API's lookup for a per-kind child "PARENT:KIND" (issue 23, item
 * 3): PARENT/KIND rules first, so that a catch-all rule that also matches
 * the child's own name never takes the kind.
 */
static void test_map_dev(void)
{
	static struct cma_map map;
	struct cma_region regs[CMA_MAX_REGIONS];
	struct cma_report rep = { .quiet = true };
	char rstr[] = "cam=1M;codec-b=1M;r3=1M";
	char mstr[] = "fb200000.camera/y=cam;*=codec-b";
	const struct cma_map_rule *rule;
	const char *name = NULL, *kind = NULL;
	char buf[600];
	unsigned int nr;

	begin("cma_map=fb200000.camera/y=cam;*=codec-b: the child fb200000.camera:y keeps its kind");
	nr = cma_parse_regions(rstr, regs, CMA_MAX_REGIONS, &rep);
	cma_parse_map(mstr, &map, regs, nr, &rep);
	CHECK(rep.problems == 0);
	rule = cma_map_match_dev(&map, "fb200000.camera:y", "fb200000.camera", &name, &kind);
	if (rule)
		format_regions(buf, &map, rule);
	CHECKF(rule && !strcmp(buf, "cam"), "kind y -> %s", rule ? buf : "no rule");
	CHECKF(name && !strcmp(name, "fb200000.camera") && kind && !strcmp(kind, "y"),
	       "asked as %s/%s", name ?: "-", kind ?: "-");
	rule = cma_map_match_dev(&map, "fb200000.camera:c", "fb200000.camera", &name, &kind);
	if (rule)
		format_regions(buf, &map, rule);
	CHECKF(rule && !strcmp(buf, "codec-b") && !strcmp(name, "fb200000.camera:c") && !*kind,
	       "kind c -> %s as %s/%s", rule ? buf : "no rule", name, kind);
	end();
}

/*
 * cma_map_match_any(): whether the device comparison that decided was
 * with "*" (a catch-all, which the DMA API treats as the default area:
 * one-page requests go to the page allocator).
 */
static void test_map_catch_all(void)
{
	static struct cma_map map;
	struct cma_region regs[CMA_MAX_REGIONS];
	struct cma_report rep = { };
	char rstr[] = "r1=1M;r2=1M;r3=1M";
	char mstr[] = "foo=r1;foo/quaz=r2;/*=r3;ba?=r1;*/k=r2;*=r3";
	bool any;
	unsigned int nr;

	begin("cma_map_match_any: a rule matched through the device pattern \"*\" is a catch-all, any other not");
	nr = cma_parse_regions(rstr, regs, CMA_MAX_REGIONS, &rep);
	cma_parse_map(mstr, &map, regs, nr, &rep);
	CHECK(rep.problems == 0);
#define ANY(dev, kind, want) do {						\
		any = !(want);							\
		CHECKF(cma_map_match_any(&map, dev, kind, &any) && any == (want),	\
		       "%s/%s: catch-all %d", dev, kind, any);			\
	} while (0)
	ANY("foo", "", false);		/* its own rule */
	ANY("foo", "x", false);		/* the "/KIND" rule after "foo": foo's comparison */
	ANY("bar", "", false);		/* "ba?" names a few devices */
	ANY("dmac", "k", true);		/* "* /k" */
	ANY("dmac", "", true);		/* "*" */
#undef ANY
	CHECK(!cma_map_match_any(&map, "dmac", "other", &any));	/* "*": the empty kind only */
	CHECK(cma_map_match(&map, "dmac", "") == cma_map_match_any(&map, "dmac", "", NULL));
	end();
}

static void test_map_limits(void)
{
	static struct cma_map map;
	struct cma_region regs[CMA_MAX_REGIONS];
	struct cma_report rep = { .quiet = true };
	char rstr[] = "r=1M", mstr[CMA_PARAM_MAX * 2];
	unsigned int i, nr;
	size_t len = 0;

	begin("cma_map= with 66 rules: the 65th and 66th are dropped, one message each");
	nr = cma_parse_regions(rstr, regs, CMA_MAX_REGIONS, &rep);
	for (i = 0; i < 66; i++)
		len += sprintf(mstr + len, "%sd%u=r", i ? ";" : "", i);
	cma_parse_map(mstr, &map, regs, nr, &rep);
	CHECKF(map.nr_rules == 64, "%u", map.nr_rules);
	CHECKF(rep.problems == 2, "%u", rep.problems);
	CHECKF(strstr(rep.last, "cma_map=d65=r: more than 64 rules; rule dropped"), "%s",
	       rep.last);
	CHECK(cma_map_match(&map, "d63", NULL));
	CHECK(!cma_map_match(&map, "d64", NULL));
	end();

	begin("cma_map= of 512 characters of one-letter patterns fits the pattern pool");
	len = 0;
	for (i = 0; len < CMA_PARAM_MAX - 4; i++)
		len += sprintf(mstr + len, "%s%c", i ? "," : "", 'a' + i % 26);
	strcpy(mstr + len, "=r");
	CHECK(strlen(mstr) <= CMA_PARAM_MAX);
	rep = (struct cma_report){ .quiet = true };
	cma_parse_map(mstr, &map, regs, nr, &rep);
	CHECKF(rep.problems == 0, "%s", rep.last);
	CHECK(map.nr_rules == 1);
	CHECK(cma_map_match(&map, "z", NULL));
	end();

	begin("cma_match_pattern: '?' is one character, '*' the rest");
	CHECK(cma_match_pattern("", ""));
	CHECK(!cma_match_pattern("", "a"));
	CHECK(cma_match_pattern("*", ""));
	CHECK(cma_match_pattern("*", "anything"));
	CHECK(cma_match_pattern("a*", "a"));
	CHECK(!cma_match_pattern("a*", "b"));
	CHECK(cma_match_pattern("?", "x"));
	CHECK(!cma_match_pattern("?", ""));
	CHECK(!cma_match_pattern("?", "xy"));
	CHECK(cma_match_pattern("s5p-?am*", "s5p-cam.0"));
	CHECK(!cma_match_pattern("abc", "ab"));
	CHECK(!cma_match_pattern("ab", "abc"));
	end();
}

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

/* Boots: each in a child process, so that the framework starts fresh. */

#define PFN(addr)	((unsigned long)(addr) >> 12)

/* The allocator the boots below give each command-line region (NULL: bf). */
static const char *boot_alloc;

struct boot {
	const char *cma, *map;		/* the command line's; NULL: not given */
	const char *def_cma, *def_map;	/* the platform's; NULL: none */
	int board;			/* 0: Goni, 1: Aquila, 2: 0-1G */
	const char *movable, *def_movable; /* cma_movable=, the platform's */
	unsigned long long nomap[2];	/* a no-map reserved-memory node: base, size */
};

static int boot(const struct boot *b)
{
	shim_memblock_reset();
	if (b->board == 2) {
		shim_memblock_add(0, 1024 * MiB);
	} else {
		shim_memblock_add(0x30000000, 80 * MiB);
		shim_memblock_add(0x40000000, b->board ? 384 * MiB : 256 * MiB);
		if (!b->board)
			shim_memblock_add(0x50000000, 128 * MiB);
	}
	memblock_reserve(0x30008000, 8 * MiB);		/* the kernel */
	memblock_reserve(0x32800000, 4 * MiB);		/* the initramfs */
	if (b->nomap[1])
		shim_memblock_mark_nomap(b->nomap[0], b->nomap[1]);
	if (b->cma && boot_alloc) {
		static char cma[600];
		const char *p;
		size_t n = 0;

		/* ";" ends each region: give it ":<boot_alloc>" first. */
		for (p = b->cma; ; p++) {
			if (*p == ';' || !*p)
				n += snprintf(cma + n, sizeof(cma) - n, ":%s", boot_alloc);
			if (!*p)
				break;
			cma[n++] = *p;
		}
		shim_early_param("cma", cma);
	} else if (b->cma) {
		shim_early_param("cma", b->cma);
	}
	if (b->map)
		shim_early_param("cma_map", b->map);
	if (b->def_cma || b->def_map)
		cma_defaults(b->def_cma, b->def_map);
	if (b->movable)
		shim_early_param("cma_movable", b->movable);
	if (b->def_movable)
		cma_movable_default(b->def_movable);
	return cma_regions_allocate(NULL);
}

static int in_log(const char *line)
{
	char buf[700];

	snprintf(buf, sizeof(buf), "%s\n", line);
	return shim_log_count(buf);
}

#define CHECK_LOG(line) CHECKF(in_log(line) == 1, "log line \"%s\"", line)
#define CHECK_ERRORS(n) CHECKF(shim_log_count("cma: error: ") == (n), \
			       "%d error lines, expected %d", \
			       shim_log_count("cma: error: "), n)

static struct device *dev(const char *name)
{
	static struct device d[16];
	static int i;

	d[i % 16].init_name = name;
	return &d[i++ % 16];
}

/* A forked check's child exited with no failed check. */
static int wait_ok(pid_t pid)
{
	int status;

	waitpid(pid, &status, 0);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void run_forked(const char *name, void (*fn)(void))
{
	/* The cases run so far, each with its allocator: one run twice is
	 * a slip in the list below, which would count as two passes. */
	static struct { void (*fn)(void); const char *alloc; } ran[256];
	static int nran;
	pid_t pid;
	int status, i;

	for (i = 0; i < nran; i++) {
		if (ran[i].fn == fn && ran[i].alloc == boot_alloc) {
			printf("not ok - %s (%s): run twice\n", name, boot_alloc ?: "default");
			total_cases++;
			total_failed++;
			return;
		}
	}
	if (nran < (int)(sizeof(ran) / sizeof(ran[0]))) {
		ran[nran].fn = fn;
		ran[nran++].alloc = boot_alloc;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		fn();
		fflush(stdout);
		_exit(case_failed);
	}
	waitpid(pid, &status, 0);
	total_cases++;
	if (WIFEXITED(status)) {
		total_failed += WEXITSTATUS(status) != 0;
		return;
	}
	printf("not ok - %s: crashed (signal %d)\n", name, WTERMSIG(status));
	total_failed++;
}

static void boot_cmdline(void)
{
	struct boot b = {
		"a=32M@0x40000000;b=32M@0x50000000;c=1M/128K;d=16M",
		"video/a=a,b;video/b=b,a;video/f=c;*=d",
	};
	unsigned long x;
	int ret;

	const char *an = boot_alloc ?: "bf";
	char line[200];

	begin("boot (%s): command-line regions reserved, logged and allocated from as mapped", an);
	ret = boot(&b);
	CHECK(ret == 4);
	if (!boot_alloc)
		CHECK_LOG("cma: cma=a=32M@0x40000000;b=32M@0x50000000;c=1M/128K;d=16M (command line)");
	CHECK_LOG("cma: cma_map=video/a=a,b;video/b=b,a;video/f=c;*=d (command line)");
#define CHECK_REGION_LOG(fmt) do {					\
		snprintf(line, sizeof(line), fmt "%s", an);		\
		CHECK_LOG(line);					\
	} while (0)
	CHECK_REGION_LOG("cma: region a: base=0x40000000 size=0x02000000 align=0x1000 allocator=");
	CHECK_REGION_LOG("cma: region b: base=0x50000000 size=0x02000000 align=0x1000 allocator=");
	CHECK_REGION_LOG("cma: region c: base=0x57f00000 size=0x00100000 align=0x20000 allocator=");
	CHECK_REGION_LOG("cma: region d: base=0x56f00000 size=0x01000000 align=0x1000 allocator=");
#undef CHECK_REGION_LOG
	CHECK_LOG("cma: map rule 1: video/a=a,b");
	CHECK_LOG("cma: map rule 2: video/b=b,a");
	CHECK_LOG("cma: map rule 3: video/f=c");
	CHECK_LOG("cma: map rule 4: *=d");
	CHECK_LOG("cma: 4 regions reserved (82944 KiB), 4 map rules, 0 problems");
	CHECK_ERRORS(0);
	CHECK(shim_is_reserved_exactly(0x40000000, 32 * MiB));
	CHECK(shim_is_reserved_exactly(0x57f00000, MiB));

	/* Nothing is served before the initcall has set up the allocators. */
	CHECK(cma_kind_alloc(dev("video"), "a", MiB, 0) == (unsigned long)-ENOMEM);
	shim_run_initcalls();

	CHECK(cma_kind_alloc(dev("video"), "a", MiB, 0) == 0x40000000);
	CHECK(cma_kind_alloc(dev("video"), "b", MiB, 0) == 0x50000000);
	CHECK(cma_kind_alloc(dev("video"), "f", 4096, 0) == 0x57f00000);
	CHECK(cma_kind_alloc(dev("camera"), NULL, MiB, 0) == 0x56f00000);
	CHECK(cma_kind_alloc(dev("video"), "", MiB, 0) == 0x57000000);
	CHECK(cma_kind_alloc(dev("video"), "x", MiB, 0) == (unsigned long)-ENOENT);
	CHECK(cma_kind_alloc(dev("camera"), "a", MiB, 0) == (unsigned long)-ENOENT);
	/* Kind a spills over into b when a is full */
	x = cma_kind_alloc(dev("video"), "a", 31 * MiB, 0);
	CHECK(x == 0x40100000);
	x = cma_kind_alloc(dev("video"), "a", MiB, 0);
	CHECK(x == 0x50100000);
	CHECK(cma_kind_alloc(dev("video"), "a", 31 * MiB, 0) == (unsigned long)-ENOMEM);
	CHECK(shim_warnings == 0);
	if (case_failed)
		dump_log();
	end();
}

static void boot_defaults(void)
{
	struct boot b = { NULL, NULL, "p=8M@0x48000000;q=4M", "cam=p;*/*=q" };

	begin("boot: the platform defaults apply when the command line gives neither");
	CHECK(boot(&b) == 2);
	CHECK_LOG("cma: cma=p=8M@0x48000000;q=4M (platform default)");
	CHECK_LOG("cma: cma_map=cam=p;*/*=q (platform default)");
	CHECK_LOG("cma: region p: base=0x48000000 size=0x00800000 align=0x1000 allocator=bf");
	CHECK_ERRORS(0);
	shim_run_initcalls();
	CHECK(cma_kind_alloc(dev("cam"), NULL, 4096, 0) == 0x48000000);
	CHECK(cma_kind_alloc(dev("other"), "k", 4096, 0) == 0x57c00000);
	end();
}

static void boot_override_cma(void)
{
	struct boot b = { "p=1M@0x44000000", NULL, "p=8M@0x48000000;q=4M", "cam=p;*/*=q" };

	begin("boot: cma= on the command line replaces the default; the default cma_map= stays");
	CHECK(boot(&b) == 1);
	CHECK_LOG("cma: cma=p=1M@0x44000000 (command line)");
	CHECK_LOG("cma: cma_map=cam=p;*/*=q (platform default)");
	CHECK_LOG("cma: region p: base=0x44000000 size=0x00100000 align=0x1000 allocator=bf");
	CHECK_LOG("cma: error: cma_map=*/*=q: no region q; skipped");
	CHECK_ERRORS(1);
	CHECK_LOG("cma: map rule 2: */*=");
	shim_run_initcalls();
	CHECK(cma_kind_alloc(dev("cam"), NULL, 4096, 0) == 0x44000000);
	CHECK(cma_kind_alloc(dev("x"), "y", 4096, 0) == (unsigned long)-ENOMEM);
	end();
}

static void boot_override_map(void)
{
	struct boot b = { NULL, "*=q", "p=8M@0x48000000;q=4M", "cam=p;*/*=q" };

	begin("boot: cma_map= on the command line replaces the default map only");
	CHECK(boot(&b) == 2);
	CHECK_LOG("cma: cma_map=*=q (command line)");
	CHECK_ERRORS(0);
	shim_run_initcalls();
	CHECK(cma_kind_alloc(dev("cam"), NULL, 4096, 0) == 0x57c00000);
	CHECK(cma_kind_alloc(dev("cam"), "k", 4096, 0) == (unsigned long)-ENOENT);
	end();
}

static void boot_empty(void)
{
	struct boot b = { "", "", "p=8M@0x48000000;q=4M", "cam=p;*/*=q" };

	begin("boot: empty cma= and cma_map= on the command line turn the defaults off");
	CHECK(boot(&b) == 0);
	CHECK_LOG("cma: cma= (command line)");
	CHECK_LOG("cma: 0 regions reserved (0 KiB), 0 map rules, 0 problems");
	shim_run_initcalls();
	CHECK(cma_kind_alloc(dev("cam"), NULL, 4096, 0) == (unsigned long)-ENOENT);
	end();
}

static void boot_bad_ranges(void)
{
	struct boot b = {
		"out=1M@0x60000000;kern=1M@0x30100000;edge=2M@0x34f00000;huge=1G;"
		"ok=1M@0x40000000;bad=0;dup=1M@0x40000000;any=1M",
		"d=out,ok;e=huge;f=any",
	};

	begin("boot: regions off RAM, on reserved memory or too big are refused, one message each");
	CHECK(boot(&b) == 2);
	CHECK_LOG("cma: error: cma=bad=0: size is 0; region refused");
	CHECK_LOG("cma: error: cma=dup=1M@0x40000000: 0x40000000-0x400fffff overlaps region ok; region refused");
	CHECK_LOG("cma: error: region out: 0x60000000-0x600fffff is not RAM; region refused");
	CHECK_LOG("cma: error: region kern: 0x30100000-0x301fffff is not free (already reserved); region refused");
	CHECK_LOG("cma: error: region edge: 0x34f00000-0x350fffff is not RAM; region refused");
	CHECK_LOG("cma: error: region huge: no free 0x40000000 bytes of RAM aligned to 0x1000; region refused");
	CHECK_LOG("cma: error: cma_map=d=out,ok: no region out; skipped");
	CHECK_LOG("cma: error: cma_map=e=huge: no region huge; skipped");
	CHECK_ERRORS(8);
	CHECK_LOG("cma: 2 regions reserved (2048 KiB), 3 map rules, 8 problems");
	shim_run_initcalls();
	CHECK(cma_kind_alloc(dev("d"), NULL, 4096, 0) == 0x40000000);
	CHECK(cma_kind_alloc(dev("e"), NULL, 4096, 0) == (unsigned long)-ENOMEM);
	CHECK(cma_kind_alloc(dev("f"), NULL, 4096, 0) == 0x57f00000);
	if (case_failed)
		dump_log();
	end();
}

/*
 * A device tree reserved-memory node with no-map is memory that memblock
 * does not count as reserved, and that the kernel does not map: a fixed
 * region there would be zeroed through a mapping that does not exist
 * (issue 23, item 4).  A region placed by memblock never lands there.
 */
static void boot_nomap(void)
{
	struct boot b = {
		"fw=1M@0x57e00000;half=2M@0x57b00000;ok=1M@0x48400000;any=4M",
		"*=any,ok", .nomap = { 0x57c00000, 4 * MiB },
	};
	unsigned long x;

	begin("boot: a fixed region over no-map memory is refused; a free one avoids it");
	CHECK(boot(&b) == 2);
	CHECK_LOG("cma: error: region fw: 0x57e00000-0x57efffff overlaps no-map memory (a reserved-memory node the kernel does not map); region refused");
	CHECK_LOG("cma: error: region half: 0x57b00000-0x57cfffff overlaps no-map memory (a reserved-memory node the kernel does not map); region refused");
	CHECK_ERRORS(2);
	CHECKF(cma_region_find("any") && cma_region_find("any")->start == 0x57800000,
	       "any at %#lx", cma_region_find("any") ? cma_region_find("any")->start : 0);
	CHECK(cma_region_find("ok")->start == 0x48400000);
	shim_run_initcalls();
	shim_pages_reset();
	x = cma_kind_alloc(dev("d"), NULL, 4 * MiB, 0);
	CHECKF(x == 0x57800000, "%#lx", x);
	CHECK(shim_pages_cleared == PFN(4 * MiB) && shim_cleared_hi < PFN(0x57c00000));
	if (case_failed)
		dump_log();
	end();
}

static void boot_too_long(void)
{
	static char cma[700];
	struct boot b = { cma, NULL, "p=1M", "*=p" };
	size_t len = 0;
	int i;

	for (i = 0; len < 600; i++)
		len += sprintf(cma + len, "%sregion%d=1M", i ? ";" : "", i);
	begin("boot: a cma= of %zu characters is refused with one message; the default is used",
	      len);
	CHECK(boot(&b) == 1);
	{
		char want[120];

		snprintf(want, sizeof(want),
			 "cma: error: cma= is %zu characters long, more than 512; ignored", len);
		CHECK_LOG(want);
	}
	CHECK_LOG("cma: cma=p=1M (platform default)");
	CHECK_ERRORS(1);
	end();
}

static void boot_spec_example(void)
{
	struct boot b = { "r1=64M@512M/1M:foo(bar);r2=64M/1M;r3=64M@512M:foo", "", NULL, NULL, 2 };

	begin("boot: the spec's allocator example: foo(bar) handed over, r3 overlaps r1");
	register_foo();
	CHECK(boot(&b) == 2);
	CHECK_LOG("cma: region r1: base=0x20000000 size=0x04000000 align=0x100000 allocator=foo(bar)");
	CHECK_LOG("cma: region r2: base=0x3c000000 size=0x04000000 align=0x100000 allocator=bf");
	CHECK_LOG("cma: error: cma=r3=64M@512M:foo: 0x20000000-0x23ffffff overlaps region r1; region refused");
	CHECK_ERRORS(1);
	shim_run_initcalls();
	CHECK(shim_log_count("parameters") == 0);
	end();
}

static void boot_api(void)
{
	struct boot b = { "a=4M@0x40000000;b=4M@0x50000000", "dev=a;dev/k=b,a" };
	struct cma_info info;
	unsigned long x, y, z;
	long objects;

	begin("api (%s): cma_kind_alloc, cma_get, cma_put and cma_info behave as documented",
	      boot_alloc ?: "bf");
	CHECK(boot(&b) == 2);
	shim_run_initcalls();
	objects = shim_live_objects;

	CHECK(cma_kind_alloc(NULL, NULL, 4096, 0) == (unsigned long)-EINVAL);
	CHECK(cma_kind_alloc(dev(NULL), NULL, 4096, 0) == (unsigned long)-EINVAL);
	CHECK(cma_kind_alloc(dev(""), NULL, 4096, 0) == (unsigned long)-EINVAL);
	CHECK(cma_kind_alloc(dev("dev"), NULL, 0, 0) == (unsigned long)-EINVAL);
	CHECK(cma_kind_alloc(dev("dev"), NULL, 4096, 3) == (unsigned long)-EINVAL);
	CHECK(cma_kind_alloc(dev("dev"), NULL, 4096, 0x3000) == (unsigned long)-EINVAL);
	CHECK(cma_kind_alloc(dev("dev"), NULL, -1UL, 0) == (unsigned long)-ENOMEM);
	CHECK(cma_kind_alloc(dev("dev"), NULL, 5 * MiB, 0) == (unsigned long)-ENOMEM);
	CHECK(cma_kind_alloc(dev("nodev"), NULL, 4096, 0) == (unsigned long)-ENOENT);
	CHECK(IS_ERR_VALUE(cma_kind_alloc(dev("nodev"), NULL, 4096, 0)));

	x = cma_kind_alloc(dev("dev"), NULL, 100, 0);		/* sub-page: one page */
	CHECK(x == 0x40000000);
	y = cma_kind_alloc(dev("dev"), NULL, 4096, 2 * MiB);		/* aligned */
	CHECK(y == 0x40200000);
	CHECK(cma_kind_alloc(dev("dev"), NULL, 4096, 0) == 0x40001000);
	CHECK(cma_kind_put(0x40001000) == 1);

	CHECK(cma_kind_get(x) == 0);
	CHECK(cma_kind_get(x) == 0);
	CHECK(cma_kind_put(x) == 0);
	CHECK(cma_kind_put(x) == 0);
	CHECK(cma_kind_put(x) == 1);
	CHECK(cma_kind_put(x) == -ENOENT);
	CHECK(cma_kind_get(x) == -ENOENT);
	CHECK(cma_kind_put(x + 4096) == -ENOENT);
	CHECK(in_log("cma: cma_kind_put(0x40000000): no chunk starts there") == 1);
	CHECK(in_log("cma: cma_kind_get(0x40000000): no chunk starts there") == 1);
	/*
	 * best fit: the 2M-4K hole above y beats the 2M one below it;
	 * first fit (ff, bitmap): the lower one.
	 */
	z = boot_alloc ? 0x40000000 : 0x40201000;
	CHECK(cma_kind_alloc(dev("dev"), NULL, 4096, 0) == z);
	CHECK(cma_kind_put(z) == 1);
	CHECK(cma_kind_alloc(dev("dev"), NULL, 2 * MiB, 0) == 0x40000000);
	CHECK(cma_kind_put(0x40000000) == 1);

	CHECK(cma_kind_info(&info, dev("dev"), NULL) == 0);
	CHECK(info.lower_bound == 0x40000000 && info.upper_bound == 0x40400000);
	CHECK(info.total_size == 4 * MiB && info.count == 1);
	CHECK(cma_kind_info(&info, dev("dev"), "k") == 0);
	CHECK(info.lower_bound == 0x40000000 && info.upper_bound == 0x50400000);
	CHECK(info.total_size == 8 * MiB && info.count == 2);
	CHECK(cma_kind_info(&info, dev("nodev"), NULL) == -ENOENT);
	CHECK(cma_kind_info(&info, NULL, NULL) == -EINVAL);
	CHECK(cma_kind_info(NULL, dev("dev"), NULL) == -EINVAL);

	/* kind k prefers b */
	x = cma_kind_alloc(dev("dev"), "k", 4 * MiB, 0);
	CHECK(x == 0x50000000);
	CHECK(cma_kind_alloc(dev("dev"), "k", 4096, 0) == z);
	CHECK(cma_kind_put(z) == 1);
	CHECK(cma_kind_put(x) == 1);
	CHECK(cma_kind_put(y) == 1);
	CHECK(shim_live_objects == objects);
	CHECK(shim_warnings == 0);
	end();
}

#ifdef HAVE_CMA_EARLY_REGION
/* A subsystem's own region (bigphysarea=): cma_early_region(), cma_alloc_from(). */
static void boot_early_region(void)
{
	struct boot b = { "a=1M@0x40000000", "*=a" };
	struct cma_region *reg;
	unsigned long x;

	begin("boot: cma_early_region() adds regions after cma=; cma_alloc_from() ignores the map");
	CHECK(cma_early_region("own=0x100000:ff") == 0);
	CHECK(cma_early_region("a=1M") == 0);			/* clashes with cma='s a */
	CHECK(cma_early_region("this-one-is-far-too-long-to-fit=1M;and-so-is-this=1M") == -ENOSPC);
	CHECK(boot(&b) == 2);
	CHECK(cma_early_region("late=1M") == -EBUSY);
	CHECK_LOG("cma: cma=a=1M@0x40000000 (command line)");
	CHECK_LOG("cma: region own: base=0x57f00000 size=0x00100000 align=0x1000 allocator=ff");
	CHECK_LOG("cma: error: cma=a=1M: duplicate name; region refused");
	CHECK_ERRORS(1);
	shim_run_initcalls();
	reg = cma_region_find("own");
	CHECK(reg && reg->start == 0x57f00000);
	CHECK(!cma_region_find("nope"));
	CHECK(cma_alloc_from(NULL, "x", NULL, 4096, 0) == (unsigned long)-EINVAL);
	CHECK(cma_alloc_from(reg, "", NULL, 4096, 0) == (unsigned long)-EINVAL);
	x = cma_alloc_from(reg, "bigphys", NULL, 4096, 0);
	CHECK(x == 0x57f00000);
	CHECK(cma_alloc_from(reg, "bigphys", "k", 2 * MiB, 0) == (unsigned long)-ENOMEM);
	CHECK(reg->nr_chunks == 1 && reg->alloc_fails == 1);
	CHECK(cma_kind_alloc(dev("d"), NULL, 4096, 0) == 0x40000000);	/* the map: a only */
	CHECK(cma_kind_put(x) == 1);
	CHECK(reg->nr_chunks == 0 && reg->used == 0);
	if (case_failed)
		dump_log();
	end();
}

/* Threads for boot_put_from(): bigphysarea's way of freeing, and a bystander. */
struct put_from_arg {
	struct cma_region *reg;
	unsigned int seed, steps;
	int bad;
};

static void *put_from_double(void *data)
{
	struct put_from_arg *arg = data;
	unsigned long x;
	unsigned int i;
	int r1, r2;

	for (i = 0; i < arg->steps; i++) {
		x = cma_alloc_from(arg->reg, "bp", NULL, 4096 << (rand_r(&arg->seed) % 3), 0);
		if (IS_ERR_VALUE(x))
			continue;
		/* A double free: the second must find nothing of "bp" there. */
		r1 = cma_put_from(arg->reg, "bp", x);
		r2 = cma_put_from(arg->reg, "bp", x);
		if (r1 != 1 || r2 != -ENOENT)
			arg->bad = 1;
	}
	return NULL;
}

static void *put_from_bystander(void *data)
{
	struct put_from_arg *arg = data;
	unsigned long x;
	unsigned int i;

	for (i = 0; i < arg->steps; i++) {
		x = cma_alloc_from(arg->reg, "other", NULL, 4096, 0);
		if (IS_ERR_VALUE(x))
			continue;
		/* Nobody else may have freed it: it is still ours, whole. */
		if (cma_put_from(arg->reg, "bp", x) != -ENOENT || cma_kind_put(x) != 1)
			arg->bad = 1;
	}
	return NULL;
}

static void boot_put_from(void)
{
	struct boot b = { "own=64K:ff", "" };
	struct put_from_arg args[3];
	struct cma_region *reg;
	pthread_t th[3];
	unsigned long x;
	int i;

	begin("api: cma_put_from() frees only its owner's chunk, once, even racing");
	CHECK(boot(&b) == 1);
	shim_run_initcalls();
	reg = cma_region_find("own");
	CHECK(reg != NULL);
	if (!reg) {
		end();
		return;
	}
	x = cma_alloc_from(reg, "bp", NULL, 4096, 0);
	CHECK(!IS_ERR_VALUE(x));
	CHECK(cma_put_from(reg, "other", x) == -ENOENT);
	CHECK(cma_put_from(NULL, "bp", x) == -ENOENT);
	CHECK(cma_kind_get(x) == 0);
	CHECK(cma_put_from(reg, "bp", x) == 0);
	CHECK(cma_put_from(reg, "bp", x) == 1);
	CHECK(cma_put_from(reg, "bp", x) == -ENOENT);
	CHECK(shim_log_count("no chunk") == 0);
	for (i = 0; i < 3; i++) {
		args[i] = (struct put_from_arg){ reg, 77 + i, 3000, 0 };
		pthread_create(&th[i], NULL, i ? put_from_bystander : put_from_double, &args[i]);
	}
	for (i = 0; i < 3; i++) {
		pthread_join(th[i], NULL);
		CHECKF(!args[i].bad, "thread %d saw a wrong result", i);
	}
	CHECK(reg->nr_chunks == 0 && reg->used == 0);
	CHECK(shim_warnings == 0);
	end();
}
#endif

static void boot_kmalloc_failures(void)
{
	struct boot b = { "a=4M@0x40000000", "*=a" };
	unsigned long x = 0;
	long objects, k;

	begin("api: a kmalloc() failure at any point gives -ENOMEM and leaks nothing");
	CHECK(boot(&b) == 1);
	shim_run_initcalls();
	/* a hole in the middle, so that the next allocation has to split */
	CHECK(cma_kind_alloc(dev("d"), NULL, MiB, 0) == 0x40000000);
	objects = shim_live_objects;
	for (k = 0; k < 10; k++) {
		shim_fail_after = k;
		x = cma_kind_alloc(dev("d"), NULL, 4096, 2 * MiB);
		shim_fail_after = -1;
		if (!IS_ERR_VALUE(x))
			break;
		CHECKF(x == (unsigned long)-ENOMEM, "failure %ld: %ld", k, (long)x);
		CHECKF(shim_live_objects == objects, "failure %ld: %ld objects leaked", k,
		       shim_live_objects - objects);
	}
	CHECKF(k >= 3, "only %ld allocations to fail", k);
	CHECK(x == 0x40200000);
	CHECK(cma_kind_put(x) == 1);
	CHECK(cma_kind_put(0x40000000) == 1);
	CHECK(cma_kind_alloc(dev("d"), NULL, 4 * MiB, 0) == 0x40000000);
	end();
}

static void boot_init_failure(void)
{
	struct boot b = { "a=4M@0x40000000;b=1M", "*=a,b" };

	struct cma_info info;

	begin("boot: a region whose allocator fails to start is reported and its memory given back");
	CHECK(boot(&b) == 2);
	shim_pages_reset();
	shim_fail_after = 0;		/* bf's first kzalloc(), for region a */
	shim_run_initcalls();
	shim_fail_after = -1;
	CHECK_LOG("cma: error: region a: allocator bf failed to start (-12); memory given back");
	CHECKF(shim_pages_given_back == 1024, "%ld pages given back", shim_pages_given_back);
	CHECK(cma_kind_alloc(dev("x"), NULL, 4096, 0) == 0x57f00000);
	CHECK(cma_kind_info(&info, dev("x"), NULL) == 0);
	CHECKF(info.count == 1 && info.lower_bound == 0x57f00000 &&
	       info.upper_bound == 0x58000000, "%u regions, %#lx-%#lx", info.count,
	       info.lower_bound, info.upper_bound);
	end();
}

/*
 * The DMA API's view (issue 23, items 8 and 9): a rule whose regions all
 * failed at boot does not make the device's pages required from regions
 * (it could never allocate); a buffer freed twice does not drop the
 * reference of the owner its address went to since.
 */
static void boot_dma_rules(void)
{
	struct boot b = { "a=4M@0x40000000;b=1M", "x=a;y=a,b;w=b;z=" };
	const char *name, *kind;
	unsigned long p, q;

	begin("dma: a rule of failed regions needs none; a double free keeps the next owner's chunk");
	CHECK(boot(&b) == 2);
	shim_fail_after = 0;		/* bf's first kzalloc(), for region a */
	shim_run_initcalls();
	shim_fail_after = -1;
	CHECKF(cma_map_dev_nr_regions(NULL, "x", NULL, &name, &kind) == 0, "x: %d regions",
	       cma_map_dev_nr_regions(NULL, "x", NULL, &name, &kind));
	CHECK(cma_map_dev_nr_regions(NULL, "y", NULL, &name, &kind) == 1);
	CHECK(cma_map_dev_nr_regions(NULL, "z", NULL, &name, &kind) == 0);
	CHECK(cma_map_dev_nr_regions(NULL, "v", NULL, &name, &kind) == -ENOENT);

	p = cma_alloc_for_dma("y", "", 4096, 0);
	CHECKF(p == 0x57f00000, "%#lx", p);
	CHECK(cma_put_owned(p, 4096, "y", "") == 1);
	q = cma_alloc_for_dma("w", "", 4096, 0);
	CHECKF(q == p, "%#lx", q);
	/* y frees its buffer again: w's chunk stays. */
	CHECK(cma_put_owned(p, 4096, "y", "") == -ENOENT);
	CHECK(cma_put_owned(q, 8192, "w", "") == -ENOENT);
	CHECK(cma_region_find("b")->nr_chunks == 1);
	CHECK(cma_put_owned(q, 4096, "w", NULL) == 1);
	CHECK(cma_region_find("b")->nr_chunks == 0);
	if (case_failed)
		dump_log();
	end();
}

/*
 * Counter semantics (issue 23, item 10): alloc_fail counts failed
 * requests, once in each region they tried, not the regions a served
 * request tried first; a range being claimed is neither lent nor used.
 */
static unsigned long transit_seen = -1UL;
static struct cma_region *transit_reg;

static void transit_hook(void)
{
	transit_seen = transit_reg->in_transit;
}

static void boot_counters(void)
{
	struct boot b = { "a=1M@0x40000000;b=4M@0x44000000;m=4M@0x48000000", "x=a,b;y=m",
			  .movable = "m" };
	struct cma_region *a, *bb;
	unsigned long x;

	begin("counters: alloc_fail counts failed requests; a range in transit is not lent");
	CHECK(boot(&b) == 3);
	shim_run_initcalls();
	a = cma_region_find("a");
	bb = cma_region_find("b");
	x = cma_kind_alloc(dev("x"), NULL, 2 * MiB, 0);
	CHECKF(x == 0x44000000 || (x >= 0x44000000 && x < 0x44400000), "%#lx", x);
	CHECKF(a->alloc_fails == 0 && bb->alloc_fails == 0 && bb->allocs == 1,
	       "a: %lu fails, b: %lu fails", a->alloc_fails, bb->alloc_fails);
	CHECK(cma_kind_alloc(dev("x"), NULL, 8 * MiB, 0) == (unsigned long)-ENOMEM);
	CHECKF(a->alloc_fails == 1 && bb->alloc_fails == 1,
	       "a: %lu fails, b: %lu fails", a->alloc_fails, bb->alloc_fails);
	CHECK(cma_kind_put(x) == 1);
	transit_reg = cma_region_find("m");
	shim_contig_hook = transit_hook;
	x = cma_kind_alloc(dev("y"), NULL, MiB, 0);
	shim_contig_hook = NULL;
	CHECKF(transit_seen == MiB && transit_reg->in_transit == 0,
	       "in transit during the claim: %#lx, after: %#lx", transit_seen,
	       transit_reg->in_transit);
	CHECK(cma_kind_put(x) == 1);
	if (case_failed)
		dump_log();
	end();
}

/* Parameters an allocator does not take never reserve anything. */
static void boot_params_refused(void)
{
	struct boot b = { "r=64M:ff(x);s=1M@0x40000000:bf(y);t=1M", "*=t" };

	begin("boot: cma=r=64M:ff(x) is refused when parsed and reserves nothing");
	register_foo();
	CHECK(boot(&b) == 1);
	CHECK_ERRORS(2);
	CHECK(in_log("cma: error: cma=s=1M@0x40000000:bf(y): allocator bf takes only \"blind\"; region refused") == 1);
	CHECK(!shim_is_reserved_exactly(0x40000000, MiB));
	CHECK(!shim_is_reserved_exactly(0x54000000, 64 * MiB));
	CHECK(!memblock_is_region_reserved(0x50000000, 64 * MiB - MiB));
	CHECK_LOG("cma: region t: base=0x57f00000 size=0x00100000 align=0x1000 allocator=bf");
	CHECK_LOG("cma: 1 regions reserved (1024 KiB), 1 map rules, 2 problems");
	shim_run_initcalls();
	CHECK(shim_log_count("given back") == 0);
	end();
}

/* The example: an unclosed '(' swallows nothing after it. */
static void boot_unclosed(void)
{
	struct boot b = { "cam=8M:bf(;codec=8M:bf()", "" };

	begin("boot: cma=cam=8M:bf(;codec=8M:bf() refuses cam with a message and keeps codec");
	CHECK(boot(&b) == 1);
	CHECK_LOG("cma: error: cma=cam=8M:bf(: unclosed '('; region refused");
	CHECK_LOG("cma: region codec: base=0x57800000 size=0x00800000 align=0x1000 allocator=bf");
	CHECK_ERRORS(1);
	end();
}

/* Placed-anywhere regions are hidden from kmemleak; fixed ones need not be. */
static void boot_kmemleak(void)
{
	struct boot b = { "a=1M@0x40000000;b=1M;c=2M", "" };

	begin("boot: kmemleak is told to ignore each region memblock allocated");
	shim_kmemleak_ignored = 0;
	CHECK(boot(&b) == 3);
	CHECKF(shim_kmemleak_ignored == 2, "%ld", shim_kmemleak_ignored);
	end();
}

/* Chunks are cleared before they are handed out, page by page. */
static void boot_zeroed(void)
{
	struct boot b = { "a=4M@0x40000000", "*=a" };
	unsigned long x;

	begin("api: every page of a new chunk is cleared, and only those");
	CHECK(boot(&b) == 1);
	shim_run_initcalls();
	CHECK(cma_kind_alloc(dev("d"), NULL, MiB, 0) == 0x40000000);
	shim_pages_reset();
	x = cma_kind_alloc(dev("d"), NULL, 5000, 64 * KiB);	/* two pages */
	CHECK(x == 0x40100000);
	CHECKF(shim_pages_cleared == 2 && shim_cleared_lo == 0x40100 &&
	       shim_cleared_hi == 0x40101, "%ld pages, %#lx-%#lx", shim_pages_cleared,
	       shim_cleared_lo, shim_cleared_hi);
	shim_pages_reset();
	CHECK(cma_kind_alloc(dev("d"), NULL, 8 * MiB, 0) == (unsigned long)-ENOMEM);
	CHECK(cma_kind_get(x) == 0 && cma_kind_put(x) == 0);
	CHECK(shim_pages_cleared == 0);
	end();
}

/* An allocator a region uses cannot be unregistered. */
static void boot_unregister(void)
{
	struct boot b = { "a=1M:foo(p)", "*=a" };
	static struct cma_allocator other;

	begin("api: cma_allocator_unregister() refuses an allocator in use, with -EBUSY");
	register_foo();
	other = cma_bf_allocator;
	other.name = "other";
	CHECK(cma_allocator_register(&other) == 0);
	CHECK(boot(&b) == 1);
	CHECK(cma_allocator_unregister(&foo_allocator) == -EBUSY);
	CHECK(cma_allocator_find("foo") == &foo_allocator);
	CHECK(cma_allocator_unregister(&other) == 0);
	CHECK(cma_allocator_find("other") == NULL);
	CHECK(cma_allocator_unregister(&other) == -ENOENT);
	CHECK(cma_allocator_register(&other) == 0);
	end();
}

/* cma_kind_info() with a region at the very top of the address space. */
static void test_info_top(void)
{
	struct cma_region regs[CMA_MAX_REGIONS];
	struct cma_report rep = { .quiet = true };
	static struct cma_map map;
	struct cma_info info;
	char str[100], mapstr[] = "a=top,lo;b=lo";
	unsigned int nr;

	begin("cma_info: a region ending at the top of the address space gives upper_bound 0");
	snprintf(str, sizeof(str), "lo=1M@0x40000000;top=1M@%#lx", 0UL - MiB);
	nr = cma_parse_regions(str, regs, CMA_MAX_REGIONS, &rep);
	CHECK(nr == 2);
	regs[0].reserved = regs[1].reserved = 1;
	cma_parse_map(mapstr, &map, regs, nr, &rep);
	cma_rule_info(&info, &map, cma_map_match(&map, "a", NULL));
	CHECKF(info.count == 2 && info.lower_bound == 0x40000000 && info.upper_bound == 0 &&
	       info.total_size == 2 * MiB, "%u, %#lx-%#lx", info.count, info.lower_bound,
	       info.upper_bound);
	cma_rule_info(&info, &map, cma_map_match(&map, "b", NULL));
	CHECK(info.count == 1 && info.upper_bound == 0x40100000);
	end();
}

/* Threads hammering the API */

struct thread_arg {
	unsigned int seed, steps;
	int bad;
};

static void *hammer(void *data)
{
	struct thread_arg *arg = data;
	unsigned long held[32];
	unsigned int n = 0, i;
	static const char *const kinds[] = { NULL, "a", "b" };

	for (i = 0; i < arg->steps; i++) {
		if (n < 32 && (n == 0 || rand_r(&arg->seed) % 2)) {
			unsigned long x = cma_kind_alloc(dev("t"),
						    kinds[rand_r(&arg->seed) % 3],
						    (1 + rand_r(&arg->seed) % 64) * 4096UL,
						    4096UL << (rand_r(&arg->seed) % 6));

			if (!IS_ERR_VALUE(x))
				held[n++] = x;
			else if (x != (unsigned long)-ENOMEM)
				arg->bad = 1;
		} else {
			unsigned int k = rand_r(&arg->seed) % n;

			if (cma_kind_get(held[k]) || cma_kind_put(held[k]) != 0 || cma_kind_put(held[k]) != 1)
				arg->bad = 1;
			held[k] = held[--n];
		}
	}
	while (n)
		if (cma_kind_put(held[--n]) != 1)
			arg->bad = 1;
	return NULL;
}

static void boot_threads(void)
{
	struct boot b = { "a=2M@0x40000000;b=2M@0x50000000;c=1M", "t=c;t/a=a,c;t/b=b,c" };
	struct thread_arg args[4];
	pthread_t th[4];
	long objects;
	int i;

	begin("api (%s): 4 threads allocating and freeing at once leave every region whole",
	      boot_alloc ?: "bf");
	CHECK(boot(&b) == 3);
	shim_run_initcalls();
	objects = shim_live_objects;
	for (i = 0; i < 4; i++) {
		args[i] = (struct thread_arg){ 1000 + i, 3000, 0 };
		pthread_create(&th[i], NULL, hammer, &args[i]);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		CHECKF(!args[i].bad, "thread %d saw a wrong result", i);
	}
	CHECK(shim_live_objects == objects);
	CHECK(shim_warnings == 0);
	CHECK(cma_kind_alloc(dev("t"), "a", 2 * MiB, 0) == 0x40000000);
	CHECK(cma_kind_alloc(dev("t"), "b", 2 * MiB, 0) == 0x50000000);
	CHECK(cma_kind_alloc(dev("t"), NULL, MiB, 0) == 0x57f00000);
	end();
}

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

int main(int argc, char **argv)
{
	unsigned int seed = argc > 1 ? strtoul(argv[1], NULL, 0) : 20100720;
	unsigned int steps = argc > 2 ? strtoul(argv[2], NULL, 0) : 3000;
	unsigned int i;

	shim_log_echo = getenv("CMA_TEST_VERBOSE") != NULL;
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* Pure functions first, in this process. */
	register_foo();
	for (i = 0; i < sizeof(region_cases) / sizeof(region_cases[0]); i++)
		test_region_case(&region_cases[i]);
	test_region_limits();
	for (i = 0; i < sizeof(map_cases) / sizeof(map_cases[0]); i++)
		test_map_case(&map_cases[i]);
	test_map_dev();
	test_map_catch_all();
	test_map_limits();
	test_info_top();
	for (i = 0; i < NR_ALLOCATORS; i++)
		test_region_allocator(allocator_names[i]);
	test_bf_fixed();
	for (i = 1; i < NR_ALLOCATORS; i++)
		test_ff_fixed(allocator_names[i]);
	for (i = 0; i < NR_ALLOCATORS; i++) {
		test_random(allocator_names[i], seed + i, steps, 0x40000000, 64 * MiB);
		test_random(allocator_names[i], seed + 7 + i, steps / 3,
			    -(unsigned long)(32 * MiB), 32 * MiB);
		test_random(allocator_names[i], seed + 13 + i, steps / 3,
			    0x40005000, 48 * MiB + 0x3000);
	}
	test_random("foo", seed + 5, steps / 3, 0x40000000, 64 * MiB);
	cma_allocator_unregister(&foo_allocator);

	/* Boots, each in a fresh process. */
	run_forked("boot_cmdline", boot_cmdline);
	run_forked("boot_defaults", boot_defaults);
	run_forked("boot_override_cma", boot_override_cma);
	run_forked("boot_override_map", boot_override_map);
	run_forked("boot_empty", boot_empty);
	run_forked("boot_bad_ranges", boot_bad_ranges);
	run_forked("boot_nomap", boot_nomap);
	run_forked("boot_too_long", boot_too_long);
	run_forked("boot_spec_example", boot_spec_example);
	run_forked("boot_api", boot_api);
	run_forked("boot_kmalloc_failures", boot_kmalloc_failures);
	run_forked("boot_init_failure", boot_init_failure);
	run_forked("boot_dma_rules", boot_dma_rules);
	run_forked("boot_counters", boot_counters);
	run_forked("boot_params_refused", boot_params_refused);
	run_forked("boot_unclosed", boot_unclosed);
	run_forked("boot_kmemleak", boot_kmemleak);
	run_forked("boot_zeroed", boot_zeroed);
	run_forked("boot_unregister", boot_unregister);
	run_forked("boot_threads", boot_threads);
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
#ifdef HAVE_CMA_EARLY_REGION
	run_forked("boot_early_region", boot_early_region);
	run_forked("boot_put_from", boot_put_from);
#endif
	for (i = 1; i < NR_ALLOCATORS; i++) {
		boot_alloc = allocator_names[i];
		run_forked("boot_cmdline", boot_cmdline);
		run_forked("boot_api", boot_api);
		run_forked("boot_threads", boot_threads);
		run_forked("boot_movable_slide", boot_movable_slide);
		run_forked("boot_movable_place_cheapest", boot_movable_place_cheapest);
		run_forked("boot_movable_place_whole", boot_movable_place_whole);
		run_forked("boot_movable_place_pinned", boot_movable_place_pinned);
		run_forked("boot_movable_place_busy", boot_movable_place_busy);
		run_forked("boot_movable_place_off", boot_movable_place_off);
		run_forked("boot_static_place_off", boot_static_place_off);
	}
	boot_alloc = NULL;

	printf("# %d cases, %d failed\n", total_cases, total_failed);
	return total_failed != 0;
}
