// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the CMA framework: boots of the framework, each in a child
 * process, from the command line's and the platform's options, and
 * threads hammering the API.
 */
#include "test-cma.h"

/* Boots: each in a child process, so that the framework starts fresh. */

/* The allocator the boots below give each command-line region (NULL: bf). */
const char *boot_alloc;

int boot(const struct boot *b)
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

int in_log(const char *line)
{
	char buf[700];

	snprintf(buf, sizeof(buf), "%s\n", line);
	return shim_log_count(buf);
}

struct device *dev(const char *name)
{
	static struct device d[16];
	static int i;

	d[i % 16].init_name = name;
	return &d[i++ % 16];
}

/* A forked check's child exited with no failed check. */
int wait_ok(pid_t pid)
{
	int status;

	waitpid(pid, &status, 0);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void run_forked(const char *name, void (*fn)(void))
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

/*
 * The boots, each in a child process (run_forked): every one (@every), or
 * those that depend on the allocator (boot_alloc).
 */
void run_boots(bool every)
{
	if (every) {
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
#ifdef HAVE_CMA_EARLY_REGION
		run_forked("boot_early_region", boot_early_region);
		run_forked("boot_put_from", boot_put_from);
#endif
		return;
	}
	run_forked("boot_cmdline", boot_cmdline);
	run_forked("boot_api", boot_api);
	run_forked("boot_threads", boot_threads);
}
