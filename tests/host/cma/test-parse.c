// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the CMA framework: cma= and cma_map= parsed, regions and rules,
 * and cma_kind_info().
 */
#include "test-cma.h"

/*
 * A second allocator, "foo", which is best-fit under another name and
 * takes any parameters but "bad" ones.
 */
struct cma_allocator foo_allocator;

static const char *foo_params(const char *params)
{
	return strstr(params, "bad") ? "does not take \"bad\"" : NULL;
}

void register_foo(void)
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

/* The parsers' cases, and each allocator's region cases. */
void test_parse(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(region_cases) / sizeof(region_cases[0]); i++)
		test_region_case(&region_cases[i]);
	test_region_limits();
	for (i = 0; i < sizeof(map_cases) / sizeof(map_cases[0]); i++)
		test_map_case(&map_cases[i]);
	test_map_dev();
	test_map_catch_all();
	test_map_limits();
	test_info_top();
	for (i = 0; i < nr_allocators; i++)
		test_region_allocator(allocator_names[i]);
}
