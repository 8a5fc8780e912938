// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the CMA framework's boot parameters: the kernel's
 * own cma= and cma_map= parsers (mm/cma-parse.c), the boot that reserves
 * and logs the regions (cma_regions_allocate() of mm/cma-regions.c) and
 * the map matcher (cma_map_match()), built for the host with the shims of
 * tests/host/cma.  See docs/fuzzing.md.
 *
 * An input is text, one item a line (the kernel command line's parameters
 * one a line, as the docs write them):
 *
 *   cma=VALUE       the command line's cma= (absent: the board's default)
 *   cma_map=VALUE   the command line's cma_map= (absent: the board's)
 *   cma_movable=VALUE  the command line's cma_movable= (absent: the
 *                   board's, unless cma= is given)
 *   +SPEC           cma_early_region(SPEC), as bigphysarea= calls it
 *   @top            one more RAM bank, 0xf0000000-0xffffffff
 *   @nodefaults     the board gives no default cma= and cma_map=
 *   DEV[/KIND]      any other line: a request for the map matcher
 *
 * Each input boots Goni's memory (three banks, the kernel and the
 * initramfs reserved) through the real cma_regions_allocate() and checks,
 * aborting on any mismatch:
 *
 *   1. every line of the boot log has the documented format, and its
 *      summary line agrees with the region, rule and error lines;
 *   2. the header lines name the effective strings and where they come
 *      from; every region parsed is either reserved or named in one
 *      "cma: error: region <name>:" line;
 *   3. the regions reserved are page sized, aligned, in RAM and disjoint,
 *      their parameters hold no parenthesis (docs/cma.md) and are ones
 *      their allocator takes (where allocators check them), and each
 *      region line describes the region as the kernel holds it;
 *   4. round trip: the log's region lines, written back in cma= syntax
 *      (NAME=SIZE@BASE/ALIGN:ALLOCATOR(PARAMS)), and its map rule lines,
 *      joined with ';', parse (with the same parsers, without a problem)
 *      to the same regions and the same rules;
 *   5. the map matcher gives the same rule on the boot's map and on the
 *      reparsed one, for NULL and "" kinds alike, and the rule an
 *      independent implementation of the documented matching picks, for
 *      the input's requests and for requests made from each pattern;
 *      cma_kind_info() describes that rule's regions (count, total size,
 *      lowest start, the end of the highest);
 *   6. cma_movable=: exactly the regions it names (or all, for "*") that
 *      are whole pageblocks are movable, with one line each; a named one
 *      that is not gets one error, one from "*" a note; every entry that
 *      is empty, malformed or names no region one error; totalcma_pages
 *      counts the movable regions; and the same input booted with
 *      cma_movable= empty gives the same regions and rules (cma_movable=
 *      changes nothing else).
 */

/* The framework itself, included so that each input can boot afresh. */
#include "cma-regions.c"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"

#define MiB (1UL << 20)
#define MAX_LINE 2048
#define MAX_QUERIES 96

static void __attribute__((noreturn, format(printf, 1, 2)))
fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz-cma: PROPERTY FAILED: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nfuzz-cma: boot log of the input:\n%s", shim_log);
	abort();
}

/* The board: Goni's defaults (arch/arm/mach-s5pv210/s5pv210.c). */
static const char goni_movable[] = "cam,codec-a,codec-b";
static const char goni_cma[] =
	"cam=8M@0x4f000000;codec-a=8M@0x4f800000;codec-b=8M@0x57800000;"
	"codec-fw=1M/128K";
static const char goni_map[] =
	"f1700000.video-codec/a,s5p-codec*/a=codec-a;"
	"f1700000.video-codec/b,s5p-codec*/b=codec-b;"
	"f1700000.video-codec/fw,s5p-codec*/fw=codec-fw;"
	"fb200000.camera/*,s5p-cam*/*=cam";

struct bank {
	unsigned long long base, size;
};
static struct bank banks[4];
static int nr_banks;

static void add_bank(unsigned long long base, unsigned long long size)
{
	banks[nr_banks].base = base;
	banks[nr_banks++].size = size;
	shim_memblock_add(base, size);
}

/* A fresh kernel: the framework's state as at boot, Goni's memory. */
static void fresh_boot(int top_bank)
{
	cma_allocated = false;
	memset(&cma_regions_param, 0, sizeof(cma_regions_param));
	memset(&cma_map_param, 0, sizeof(cma_map_param));
	memset(&cma_movable_param, 0, sizeof(cma_movable_param));
	cma_movable_str[0] = '\0';
	totalcma_pages = 0;
	memset(cma_regions, 0, sizeof(cma_regions));
	cma_nr_regions = 0;
	memset(&cma_map, 0, sizeof(cma_map));
	cma_regions_str[0] = '\0';
	cma_map_str[0] = '\0';
	cma_extra_str[0] = '\0';

	shim_memblock_reset();
	nr_banks = 0;
	add_bank(0x30000000, 80 * MiB);
	add_bank(0x40000000, 256 * MiB);
	add_bank(0x50000000, 128 * MiB);
	if (top_bank)
		add_bank(0xf0000000ULL, 256 * MiB);
	memblock_reserve(0x30008000, 8 * MiB);	/* the kernel */
	memblock_reserve(0x32800000, 4 * MiB);	/* the initramfs */
	shim_log_clear();
}

/* The input, cut into lines. */
struct input {
	char *cma, *map, *movable;	/* NULL: not on the command line */
	char *extra[8];
	int nr_extra, top_bank, no_defaults;
	char *query[MAX_QUERIES];
	int nr_queries;
	char buf[];
};

static struct input *cut_input(const uint8_t *data, size_t size)
{
	struct input *in = calloc(1, sizeof(*in) + size + 1);
	char *p, *e;

	memcpy(in->buf, data, size);
	in->buf[size] = '\0';		/* a NUL inside ends the input */
	for (p = in->buf; *p; p = e + 1) {
		e = p + strcspn(p, "\n");
		int last = !*e;

		*e = '\0';
		if (!strncmp(p, "cma=", 4))
			in->cma = p + 4;
		else if (!strncmp(p, "cma_map=", 8))
			in->map = p + 8;
		else if (!strncmp(p, "cma_movable=", 12))
			in->movable = p + 12;
		else if (*p == '+' && in->nr_extra < 8)
			in->extra[in->nr_extra++] = p + 1;
		else if (!strcmp(p, "@top"))
			in->top_bank = 1;
		else if (!strcmp(p, "@nodefaults"))
			in->no_defaults = 1;
		else if (*p && in->nr_queries < MAX_QUERIES / 2)
			in->query[in->nr_queries++] = p;
		if (last)
			break;
	}
	return in;
}

/*
 * The documented choice: the command line's value unless longer than
 * CMA_PARAM_MAX, else the board's, else none.
 */
static const char *effective_param(const char *cmdline, const char *board,
				   int no_defaults, const char **from)
{
	if (cmdline && strlen(cmdline) <= CMA_PARAM_MAX) {
		*from = "command line";
		return cmdline;
	}
	if (!no_defaults) {
		*from = "platform default";
		return board;
	}
	*from = "none";
	return "";
}

/*
 * The command line's cma= as the regions see it: a value without '='
 * (cma=SIZE[@BASE[-LIMIT]]) sizes 6.1's default CMA area, and leaves the
 * regions to the board's; an empty one still means no region.
 */
static const char *regions_cma(const struct input *in)
{
	if (in->cma && *in->cma && !strchr(in->cma, '='))
		return NULL;
	return in->cma;
}

/* cma_movable=: the board's applies only with the board's cma= too. */
static const char *effective_movable(const struct input *in, const char **from)
{
	if (in->movable && strlen(in->movable) <= CMA_PARAM_MAX) {
		*from = "command line";
		return in->movable;
	}
	if (!in->no_defaults && !regions_cma(in)) {
		*from = "platform default";
		return goni_movable;
	}
	*from = "none";
	return "";
}

/* The log, cut into lines. */
/*
 * At most about 2 + 256 + 256 + 16 + 64 + 1 lines (every ';' of cma= and
 * every ',' of cma_map= can give an error line), under 40 KiB.
 */
static char *log_lines[2048];
static int nr_log_lines;
static char *rule_text[CMA_MAX_RULES + 1];
static char log_copy[1 << 16];	/* shim.c's shim_log */

static void cut_log(char *log)
{
	char *p, *e;

	nr_log_lines = 0;
	for (p = log; *p; p = e + 1) {
		e = strchr(p, '\n');
		if (!e)
			fail("log line without a newline: \"%s\"", p);
		*e = '\0';
		if (nr_log_lines == sizeof(log_lines) / sizeof(log_lines[0]))
			fail("more than %d log lines", nr_log_lines);
		log_lines[nr_log_lines++] = p;
	}
}

/* What a region line says. */
struct logged_region {
	char name[CMA_NAME_MAX + 1];
	unsigned long base, size, align;
	char alloc[CMA_NAME_MAX + 1];
	const char *params;	/* NULL: none */
	size_t params_len;
};

static int is_name_char(char c)
{
	return isalnum(c) || c == '_' || c == '-';
}

static unsigned long hex_field(const char **p, const char *key)
{
	size_t n = strlen(key);
	unsigned long v = 0;
	const char *s = *p;
	int digits = 0;

	if (strncmp(s, key, n) || s[n] != '0' || s[n + 1] != 'x')
		fail("region line: no \"%s0x\" at \"%s\"", key, s);
	for (s += n + 2; isxdigit(*s) && !isupper(*s); s++, digits++)
		v = v * 16 + (isdigit(*s) ? *s - '0' : *s - 'a' + 10);
	if (!digits || digits > (int)sizeof(unsigned long) * 2)
		fail("region line: bad number after \"%s\"", key);
	*p = s;
	return v;
}

/* "region NAME: base=0x%08lx size=0x%08lx align=0x%lx allocator=A[(P)]" */
static void parse_region_line(const char *line, struct logged_region *r)
{
	const char *p = line, *q;
	char again[MAX_LINE];

	for (q = p; is_name_char(*q); q++)
		;
	if (q == p || q - p > CMA_NAME_MAX || strncmp(q, ": ", 2))
		fail("region line: bad name in \"%s\"", line);
	memcpy(r->name, p, q - p);
	r->name[q - p] = '\0';
	p = q + 2;
	r->base = hex_field(&p, "base=");
	if (*p++ != ' ')
		fail("region line: no space after base in \"%s\"", line);
	r->size = hex_field(&p, "size=");
	if (*p++ != ' ')
		fail("region line: no space after size in \"%s\"", line);
	r->align = hex_field(&p, "align=");
	if (strncmp(p, " allocator=", 11))
		fail("region line: no allocator in \"%s\"", line);
	p += 11;
	for (q = p; is_name_char(*q); q++)
		;
	if (q == p || q - p > CMA_NAME_MAX)
		fail("region line: bad allocator name in \"%s\"", line);
	memcpy(r->alloc, p, q - p);
	r->alloc[q - p] = '\0';
	r->params = NULL;
	if (*q == '(') {
		size_t n = strlen(q + 1);

		if (n < 2 || q[n] != ')')
			fail("region line: parameters not in \"(...)\" in \"%s\"", line);
		r->params = q + 1;
		r->params_len = n - 1;
	} else if (*q) {
		fail("region line: \"%s\" after the allocator", q);
	}
	/* The numbers in exactly the kernel's format. */
	snprintf(again, sizeof(again), "%s: base=%#010lx size=%#010lx align=%#lx allocator=%s%s%.*s%s",
		 r->name, r->base, r->size, r->align, r->alloc,
		 r->params ? "(" : "", r->params ? (int)r->params_len : 0,
		 r->params ?: "", r->params ? ")" : "");
	if (strcmp(again, line))
		fail("region line \"%s\" is not in the kernel's format (\"%s\")",
		     line, again);
}

static int same_str(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

static void check_region(const struct cma_region *reg, const char *what,
			 const struct logged_region *lr)
{
	if (strcmp(reg->name, lr->name) || reg->start != lr->base ||
	    reg->size != lr->size || reg->alignment != lr->align ||
	    !reg->alloc || strcmp(reg->alloc->name, lr->alloc) ||
	    (lr->params ? !reg->alloc_params ||
	     strlen(reg->alloc_params) != lr->params_len ||
	     strncmp(reg->alloc_params, lr->params, lr->params_len) :
	     reg->alloc_params != NULL))
		fail("%s %s (start %#lx size %#lx align %#lx allocator %s params %s) differs from its region line (%s %#lx %#lx %#lx %s %.*s)",
		     what, reg->name, reg->start, reg->size, reg->alignment,
		     reg->alloc ? reg->alloc->name : "(none)",
		     reg->alloc_params ?: "(none)", lr->name, lr->base,
		     lr->size, lr->align, lr->alloc,
		     lr->params ? (int)lr->params_len : 6,
		     lr->params ?: "(none)");
}

/* Two rules are the same: same patterns, same regions (by name). */
static void check_rule(const struct cma_map *a, const struct cma_map_rule *ra,
		       const struct cma_map *b, const struct cma_map_rule *rb,
		       unsigned int n)
{
	unsigned int i;

	if (ra->nr_patterns != rb->nr_patterns || ra->nr_regions != rb->nr_regions)
		fail("rule %u: %u patterns and %u regions at boot, %u and %u reparsed",
		     n, ra->nr_patterns, ra->nr_regions, rb->nr_patterns,
		     rb->nr_regions);
	for (i = 0; i < ra->nr_patterns; i++) {
		const struct cma_map_pattern *pa = &a->patterns[ra->pattern + i];
		const struct cma_map_pattern *pb = &b->patterns[rb->pattern + i];

		if (!same_str(pa->dev, pb->dev) || !same_str(pa->kind, pb->kind))
			fail("rule %u pattern %u: dev %s kind %s at boot, dev %s kind %s reparsed",
			     n, i, pa->dev ?: "(none)", pa->kind ?: "(none)",
			     pb->dev ?: "(none)", pb->kind ?: "(none)");
	}
	for (i = 0; i < ra->nr_regions; i++)
		if (strcmp(a->regions[ra->region + i]->name,
			   b->regions[rb->region + i]->name))
			fail("rule %u region %u: %s at boot, %s reparsed", n, i,
			     a->regions[ra->region + i]->name,
			     b->regions[rb->region + i]->name);
}

/* The documented matching (Documentation/mm/cma-regions.rst), written anew. */
static int doc_glob(const char *pat, const char *s)
{
	size_t i;

	for (i = 0; pat[i] != '*'; i++) {
		if (!pat[i])
			return !s[i];
		if (!s[i] || (pat[i] != '?' && pat[i] != s[i]))
			return 0;
	}
	return 1;	/* '*' matches the rest, also nothing */
}

static int doc_match(const struct cma_map *map, const char *dev, const char *kind)
{
	int last_dev = 0;	/* no device compared yet: a "/KIND" never matches */
	unsigned int r, i;

	for (r = 0; r < map->nr_rules; r++) {
		const struct cma_map_rule *rule = &map->rules[r];

		for (i = 0; i < rule->nr_patterns; i++) {
			const struct cma_map_pattern *p = &map->patterns[rule->pattern + i];
			int kind_ok;

			if (p->dev)
				last_dev = doc_glob(p->dev, dev);
			kind_ok = p->kind ? doc_glob(p->kind, kind) : !*kind;
			if (last_dev && kind_ok)
				return r;
		}
	}
	return -1;
}

/*
 * cma_kind_info() describes the regions of the rule the request matches: their
 * number, total size, lowest start, and the end of the highest: one past
 * its last byte (modulo the address space, so 0 for a region ending at
 * 4 GiB on 32-bit, docs/cma.md), or that last byte itself, or ULONG_MAX
 * (saturated) when it ends at the top: any of these, as long as it is
 * that of the highest region.
 */
static void check_info(const struct cma_map *map, int r, const char *dev,
		       const char *kind)
{
	struct device d = { .init_name = dev };
	struct cma_info info;
	unsigned long lower = ~0UL, total = 0;
	unsigned long last = 0;
	unsigned int i, count = 0;
	int ret = cma_kind_info(&info, &d, kind);

	if (r < 0) {
		if (ret != -ENOENT)
			fail("cma_kind_info(\"%s\") gave %d with no rule matching", dev, ret);
		return;
	}
	for (i = 0; i < map->rules[r].nr_regions; i++) {
		const struct cma_region *reg = map->regions[map->rules[r].region + i];

		lower = min(lower, reg->start);
		total += reg->size;
		last = max(last, reg->start + (reg->size - 1));
		count++;
	}
	if (ret || info.count != count || info.total_size != total ||
	    (count && (info.lower_bound != lower ||
		       (info.upper_bound != last && info.upper_bound - 1 != last))))
		fail("cma_kind_info(\"%s\", rule %d) = %d: count %u total %#lx lower %#lx upper %#lx; the rule's %u regions: total %#lx lowest %#lx last byte %#lx",
		     dev, r + 1, ret, info.count, info.total_size,
		     info.lower_bound, info.upper_bound, count, total, lower, last);
}

static int rule_index(const struct cma_map *map, const struct cma_map_rule *r)
{
	return r ? (int)(r - map->rules) : -1;
}

static void check_query(const struct cma_map *boot, const struct cma_map *re,
			const char *dev, const char *kind)
{
	int a = rule_index(boot, cma_map_match(boot, dev, kind));
	int b = rule_index(re, cma_map_match(re, dev, kind));
	int c = doc_match(boot, dev, kind ?: "");
	int d = rule_index(boot, cma_map_match(boot, dev, kind ?: ""));

	if (a != b || a != c || (!kind && a != d))
		fail("request \"%s\" kind %s%s%s: rule %d at boot, %d reparsed, %d as documented, %d with kind \"\"",
		     dev, kind ? "\"" : "", kind ?: "NULL", kind ? "\"" : "",
		     a + 1, b + 1, c + 1, d + 1);
	if (*dev)
		check_info(boot, a, dev, kind);
}

/* A string a pattern matches: '?' as @q, '*' as @star. */
static void instantiate(char *buf, size_t len, const char *pat, char q,
			const char *star)
{
	size_t n = 0;

	for (; *pat && n + 1 < len; pat++) {
		if (*pat == '*') {
			snprintf(buf + n, len - n, "%s", star);
			return;
		}
		buf[n++] = *pat == '?' ? q : *pat;
	}
	buf[n] = '\0';
}

/* Boot @in's parameters, with cma_movable=@movable instead of the input's if not NULL. */
static void boot_input(const struct input *in, char *movable)
{
	int k, ret;

	fresh_boot(in->top_bank);
	if (in->cma)
		cma_regions_early_param(in->cma);
	if (in->map)
		cma_map_early_param(in->map);
	if (movable || in->movable)
		cma_movable_early_param(movable ?: in->movable);
	if (!in->no_defaults) {
		cma_defaults(goni_cma, goni_map);
		cma_movable_default(goni_movable);
	}
	for (k = 0; k < in->nr_extra; k++)
		cma_early_region(in->extra[k]);

	ret = cma_regions_allocate(NULL);
	if (ret != (int)cma_nr_regions)
		fail("cma_regions_allocate() returned %d, %u regions kept", ret,
		     cma_nr_regions);
	if (strlen(shim_log) > sizeof(log_copy) - 2048)
		fail("harness: the boot log nearly fills shim.c's buffer; lines may be lost");
}

/*
 * The log without what cma_movable= may change: its own lines (the header,
 * its errors and notes, the "movable" lines), the summary's count of
 * problems, and where memblock placed each region: a movable region is
 * reserved at a pageblock boundary (as 6.1 reserves its areas), so its base and
 * alignment, and those of the regions placed after it, may move (its
 * boundary is checked in check_movable()), and so does the alignment a
 * region that found no room says it asked for ("no free SIZE bytes of RAM
 * aligned to ALIGN").  Two boots that differ only in cma_movable= give the
 * same.
 */
static void log_without_movable(char *out, size_t len)
{
	const char *l = shim_log, *e;
	size_t n = 0;

	out[0] = '\0';
	for (; *l; l = *e ? e + 1 : e) {
		const char *b, *s, *a;

		e = l + strcspn(l, "\n");
		if (memmem(l, e - l, "movable", 7) ||
		    memmem(l, e - l, "stays static", 12) ||
		    memmem(l, e - l, " regions reserved (", 19))
			continue;
		/* "cma: region NAME: base=B size=S align=A allocator=...":
		 * NAME, size and what follows the alignment */
		b = memmem(l, e - l, ": base=", 7);
		s = b ? memmem(b, e - b, " size=", 6) : NULL;
		/* "...: no free SIZE bytes of RAM aligned to ALIGN; ...": all
		 * but ALIGN */
		a = memmem(l, e - l, " bytes of RAM aligned to ", 25);
		if (!strncmp(l, "cma: error: region ", 19) && a) {
			const char *ae = a + 25 + strcspn(a + 25, "; \n");

			n += snprintf(out + n, len - n, "%.*s%.*s\n",
				      (int)(a + 25 - l), l, (int)(e - ae), ae);
			if (n >= len)
				fail("harness: the log does not fit %zu bytes", len);
			continue;
		}
		a = s ? memmem(s, e - s, " align=", 7) : NULL;
		if (!strncmp(l, "cma: region ", 12) && a) {
			const char *ae = a + 7 + strcspn(a + 7, " \n");

			n += snprintf(out + n, len - n, "%.*s:%.*s%.*s\n",
				      (int)(b - l), l, (int)(a - s), s,
				      (int)(e - ae), ae);
		} else {
			n += snprintf(out + n, len - n, "%.*s\n", (int)(e - l), l);
		}
		if (n >= len)
			fail("harness: the log does not fit %zu bytes", len);
	}
}

static char log_a[sizeof(log_copy)], log_b[sizeof(log_copy)];

/*
 * 6. cma_movable=, against an independent reading of the documented rules:
 * the effective value's entries, the regions the log shows reserved
 * (@lr, @nr) and those cma= gave (@parsed, @n_parsed), and what the log said (@movable_lines: the regions with a
 * "movable" line; the counts of cma_movable= errors, region "stays static"
 * errors and notes).
 */
static void check_movable(const struct input *in, const struct logged_region *lr,
			  unsigned int nr, const struct cma_region *parsed,
			  unsigned int n_parsed, const int *movable_lines,
			  unsigned int errors, unsigned int static_errors,
			  unsigned int static_notes)
{
	const unsigned long block = pageblock_nr_pages << PAGE_SHIFT;
	char value[CMA_PARAM_MAX + 1], *t, *e;
	int named[CMA_MAX_REGIONS] = { 0 }, all = 0, last;
	unsigned int bad = 0, want_errors = 0, want_notes = 0, i;
	unsigned long pages = 0;
	const char *from, *p;

	snprintf(value, sizeof(value), "%s", effective_movable(in, &from));
	last = !*value;				/* "": no entry at all */
	for (t = value; !last; t = e + 1) {
		e = t + strcspn(t, ",");
		last = !*e;
		*e = '\0';
		for (p = t; *p && is_name_char(*p); p++)
			;
		if (!strcmp(t, "*")) {
			all = 1;
		} else if (!*t || *p) {
			bad++;
		} else {
			for (i = 0; i < nr && strcmp(lr[i].name, t); i++)
				;
			if (i < nr) {
				named[i] = 1;
			} else {
				/*
				 * cma_movable= is read before the regions are
				 * reserved: a region of cma= that was then
				 * refused is no error here
				 */
				for (i = 0; i < n_parsed && strcmp(parsed[i].name, t); i++)
					;
				bad += i == n_parsed;
			}
		}
		if (last)
			break;
	}
	if (errors != bad)
		fail("cma_movable=%s: %u \"cma_movable=:\" errors, %u entries empty, malformed or of no region",
		     effective_movable(in, &from), errors, bad);
	for (i = 0; i < nr; i++) {
		int whole = !(lr[i].base % block) && !(lr[i].size % block);
		int want = (all || named[i]) && whole;

		want_errors += named[i] && !whole;
		want_notes += all && !named[i] && !whole;
		/* One named (or under '*') whose size is
		 * whole pageblocks and that memblock placed (no START) is
		 * reserved at a pageblock boundary, so it always lends */
		if ((all || named[i]) && !(lr[i].size % block) &&
		    !cma_regions[i].fixed && (lr[i].base % block))
			fail("region %s (%#lx+%#lx): movable by cma_movable=\"%s\" and without START, but reserved off a %lu KiB pageblock boundary",
			     lr[i].name, lr[i].base, lr[i].size,
			     effective_movable(in, &from), block >> 10);
		if (movable_lines[i] != want || cma_regions[i].movable != want)
			fail("region %s (%#lx+%#lx): %s a movable line, movable %u; cma_movable=\"%s\" (%s) %s it",
			     lr[i].name, lr[i].base, lr[i].size,
			     movable_lines[i] ? "has" : "lacks", cma_regions[i].movable,
			     effective_movable(in, &from), from,
			     named[i] ? "names" : all ? "has '*' for" : "does not name");
		if (want)
			pages += lr[i].size >> PAGE_SHIFT;
	}
	if (static_errors != want_errors || static_notes != want_notes)
		fail("cma_movable=: %u \"stays static\" errors and %u notes, expected %u and %u",
		     static_errors, static_notes, want_errors, want_notes);
	if (totalcma_pages != pages)
		fail("totalcma_pages %lu, the movable regions have %lu pages",
		     totalcma_pages, pages);
}

static char regions_text[CMA_MAX_REGIONS * (CMA_NAME_MAX + 80) + CMA_PARAM_MAX + CMA_EXTRA_MAX];
static char regions_copy[sizeof(regions_text)];
static char map_text[CMA_PARAM_MAX * 2 + 16], map_copy[sizeof(map_text)];
static struct cma_region re_regions[CMA_MAX_REGIONS];
static struct cma_map re_map;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input *in = cut_input(data, size);
	struct logged_region lr[CMA_MAX_REGIONS];
	struct cma_region parsed[CMA_MAX_REGIONS];
	struct cma_report rep = { .quiet = true };
	unsigned int nr_regions = 0, nr_rules = 0, nr_errors = 0;
	unsigned int nr_region_errors = 0, nr_orphan_warnings = 0;
	unsigned int nr_movable_errors = 0, nr_static_errors = 0, nr_static_notes = 0;
	int movable_lines[CMA_MAX_REGIONS] = { 0 };
	static char no_movable[] = "";
	const size_t movable_tail_len = sizeof(": movable: its free memory serves movable pages") - 1;
	unsigned int n_parsed, i, j, sum_kib = 0;
	unsigned int s_regions, s_kib, s_rules, s_problems;
	int have_summary = 0, have_cma = 0, have_map = 0, have_movable = 0, k;
	const char *want, *from;
	char expect[CMA_PARAM_MAX + 64];
	char effective[sizeof(cma_regions_str)];
	size_t n;

	boot_input(in, NULL);
	/* 1. Every line of the log in one of the documented formats. */
	snprintf(log_copy, sizeof(log_copy), "%s", shim_log);
	cut_log(log_copy);
	for (k = 0; k < nr_log_lines; k++) {
		char *l = log_lines[k];

		if (strncmp(l, "cma: ", 5))
			fail("log line without \"cma: \": \"%s\"", l);
		l += 5;
		n = strlen(l);
		if (!strncmp(l, "error: ", 7)) {
			nr_errors++;
			if (!strncmp(l, "error: cma_movable=: ", 21))
				nr_movable_errors++;
			else if (!strncmp(l, "error: region ", 14) && n > 17 &&
				 !strcmp(l + n - 17, "; it stays static"))
				nr_static_errors++;
			else if (!strncmp(l, "error: region ", 14))
				nr_region_errors++;
		} else if (!strncmp(l, "cma=", 4) && !have_cma) {
			have_cma = 1;
			want = effective_param(regions_cma(in), goni_cma, in->no_defaults, &from);
			snprintf(expect, sizeof(expect), "cma=%s (%s)", want, from);
			if (strcmp(l, expect))
				fail("log line \"%s\", expected \"%s\"", l, expect);
		} else if (!strncmp(l, "cma_map=", 8) && !have_map) {
			have_map = 1;
			want = effective_param(in->map, goni_map, in->no_defaults, &from);
			snprintf(expect, sizeof(expect), "cma_map=%s (%s)", want, from);
			if (strcmp(l, expect))
				fail("log line \"%s\", expected \"%s\"", l, expect);
		} else if (!strncmp(l, "cma_movable=", 12) && !have_movable) {
			have_movable = 1;
			want = effective_movable(in, &from);
			snprintf(expect, sizeof(expect), "cma_movable=%s (%s)", want, from);
			if (strcmp(l, expect))
				fail("log line \"%s\", expected \"%s\"", l, expect);
		} else if (!strncmp(l, "region ", 7) && !have_summary && !nr_regions &&
			   strstr(l, ": not made of whole ") && n > 17 &&
			   !strcmp(l + n - 17, "; it stays static")) {
			nr_static_notes++;	/* a region of '*' */
		} else if (!strncmp(l, "region ", 7) && !have_summary && nr_regions &&
			   n > movable_tail_len &&
			   !strcmp(l + n - movable_tail_len, ": movable: its free memory serves movable pages")) {
			/* Right after its region's line. */
			if (movable_lines[nr_regions - 1] ||
			    n - 7 - movable_tail_len != strlen(lr[nr_regions - 1].name) ||
			    strncmp(l + 7, lr[nr_regions - 1].name, n - 7 - movable_tail_len))
				fail("movable line \"%s\" does not follow its region's line", l);
			movable_lines[nr_regions - 1] = 1;
		} else if (!strncmp(l, "region ", 7) && !have_summary) {
			if (nr_regions == CMA_MAX_REGIONS)
				fail("more than %d region lines", CMA_MAX_REGIONS);
			if (nr_rules)
				fail("region line after a map rule line");
			parse_region_line(l + 7, &lr[nr_regions]);
			sum_kib += lr[nr_regions].size >> 10;
			nr_regions++;
		} else if (!strncmp(l, "map rule ", 9) && !have_summary) {
			if (nr_rules == CMA_MAX_RULES)
				fail("more than %d map rule lines", CMA_MAX_RULES);
			snprintf(expect, sizeof(expect), "map rule %u: ", nr_rules + 1);
			if (strncmp(l, expect, strlen(expect)))
				fail("map rule line \"%s\" is not rule %u", l, nr_rules + 1);
			rule_text[nr_rules++] = l + strlen(expect);
		} else if (!have_summary &&
			   sscanf(l, "%u regions reserved (%u KiB), %u map rules, %u problems",
				  &s_regions, &s_kib, &s_rules, &s_problems) == 4) {
			snprintf(expect, sizeof(expect),
				 "%u regions reserved (%u KiB), %u map rules, %u problems",
				 s_regions, s_kib, s_rules, s_problems);
			if (strcmp(l, expect))
				fail("summary line \"%s\" is not in the kernel's format", l);
			have_summary = 1;
		} else {
			fail("unexpected log line \"%s\"", l);
		}
	}
	if (!have_cma || !have_map || !have_movable || !have_summary)
		fail("the log lacks a cma=, cma_map=, cma_movable= or summary line");
	if (s_regions != nr_regions || s_rules != nr_rules ||
	    s_problems != nr_errors || s_kib != sum_kib)
		fail("summary says %u regions, %u KiB, %u rules, %u problems; the log has %u, %u, %u, %u",
		     s_regions, s_kib, s_rules, s_problems, nr_regions, sum_kib,
		     nr_rules, nr_errors);
	if (nr_regions != cma_nr_regions || nr_rules != cma_map.nr_rules)
		fail("%u region lines and %u rule lines for %u regions and %u rules",
		     nr_regions, nr_rules, cma_nr_regions, cma_map.nr_rules);

	/* 2. Every region parsed is reserved or refused with a line. */
	snprintf(effective, sizeof(effective), "%s",
		 effective_param(regions_cma(in), goni_cma, in->no_defaults, &from));
	if (*cma_extra_str) {
		n = strlen(effective);
		snprintf(effective + n, sizeof(effective) - n, "%s%s",
			 n ? ";" : "", cma_extra_str);
	}
	n_parsed = cma_parse_regions(effective, parsed, CMA_MAX_REGIONS, &rep);
	if (n_parsed != cma_nr_regions + nr_region_errors)
		fail("%u regions parsed, %u reserved, %u refused with a line",
		     n_parsed, cma_nr_regions, nr_region_errors);

	/* 3. The regions reserved, and their lines. */
	for (i = 0; i < cma_nr_regions; i++) {
		const struct cma_region *r = &cma_regions[i];
		unsigned long long end = (unsigned long long)r->start + r->size;

		check_region(r, "region", &lr[i]);
		/*
		 * PARAMS hold neither '(' nor ')': an unclosed '(' ends its
		 * region at the next ';' or ',' (issue 10: "cam=8M:bf(;codec=
		 * 8M:ff()" must not take codec in as cam's parameters).
		 */
		if (r->alloc_params && strpbrk(r->alloc_params, "()"))
			fail("region %s: parameters \"%s\" hold a parenthesis (a later region swallowed?)",
			     r->name, r->alloc_params);
#ifdef HAVE_CHECK_PARAMS
		/* Parameters are checked while parsing (issue 10). */
		if (r->alloc_params &&
		    (!r->alloc->check_params || r->alloc->check_params(r->alloc_params)))
			fail("region %s: allocator %s was given \"%s\", which it refuses",
			     r->name, r->alloc->name, r->alloc_params);
#endif
		if (!r->size || r->size % PAGE_SIZE || r->alignment < PAGE_SIZE ||
		    (r->alignment & (r->alignment - 1)) || r->start % r->alignment)
			fail("region %s: start %#lx size %#lx align %#lx", r->name,
			     r->start, r->size, r->alignment);
		for (k = 0; k < nr_banks; k++)
			if (r->start >= banks[k].base &&
			    end <= banks[k].base + banks[k].size)
				break;
		if (k == nr_banks)
			fail("region %s: %#lx-%#llx is not within one RAM bank",
			     r->name, r->start, end - 1);
		for (j = 0; j < i; j++)
			if (r->start < cma_regions[j].start + (unsigned long long)cma_regions[j].size &&
			    cma_regions[j].start < end)
				fail("regions %s and %s overlap", r->name,
				     cma_regions[j].name);
	}

	/* 4. Round trip: the log's description parses to the same. */
	n = 0;
	regions_text[0] = '\0';
	for (i = 0; i < nr_regions; i++)
		n += snprintf(regions_text + n, sizeof(regions_text) - n,
			      "%s%s=%#lx@%#lx/%#lx:%s%s%.*s%s", i ? ";" : "",
			      lr[i].name, lr[i].size, lr[i].base, lr[i].align,
			      lr[i].alloc, lr[i].params ? "(" : "",
			      lr[i].params ? (int)lr[i].params_len : 0,
			      lr[i].params ?: "", lr[i].params ? ")" : "");
	snprintf(regions_copy, sizeof(regions_copy), "%s", regions_text);
	memset(&rep, 0, sizeof(rep));
	rep.quiet = true;
	memset(re_regions, 0, sizeof(re_regions));
	i = cma_parse_regions(regions_text, re_regions, CMA_MAX_REGIONS, &rep);
	if (i != nr_regions || rep.problems)
		fail("round trip: the region lines as cma=%s give %u regions (of %u), %u problems (%s)",
		     regions_copy, i, nr_regions, rep.problems,
		     rep.problems ? rep.last : "");
	for (i = 0; i < nr_regions; i++)
		check_region(&re_regions[i], "round trip: reparsed region", &lr[i]);

	n = 0;
	map_text[0] = '\0';
	for (i = 0; i < nr_rules; i++)
		n += snprintf(map_text + n, sizeof(map_text) - n, "%s%s",
			      i ? ";" : "", rule_text[i]);
	snprintf(map_copy, sizeof(map_copy), "%s", map_text);
	/* A first rule starting with "/KIND" is kept, with a warning. */
	nr_orphan_warnings = cma_map.nr_rules && !cma_map.patterns[0].dev;
	memset(&rep, 0, sizeof(rep));
	rep.quiet = true;
	cma_parse_map(map_text, &re_map, re_regions, nr_regions, &rep);
	if (re_map.nr_rules != cma_map.nr_rules ||
	    rep.problems != nr_orphan_warnings)
		fail("round trip: the map rule lines as cma_map=%s give %u rules (of %u), %u problems (%s)",
		     map_copy, re_map.nr_rules, cma_map.nr_rules, rep.problems,
		     rep.problems ? rep.last : "");
	for (i = 0; i < cma_map.nr_rules; i++)
		check_rule(&cma_map, &cma_map.rules[i], &re_map,
			   &re_map.rules[i], i + 1);

	/* 5. The matcher: the input's requests, then some from each pattern. */
	for (k = 0; k < in->nr_queries; k++) {
		char *slash = strchr(in->query[k], '/');

		if (slash) {
			*slash = '\0';
			check_query(&cma_map, &re_map, in->query[k], slash + 1);
			*slash = '/';
		} else {
			check_query(&cma_map, &re_map, in->query[k], NULL);
			check_query(&cma_map, &re_map, in->query[k], "");
		}
	}
	for (i = 0; i < cma_map.nr_patterns && i < MAX_QUERIES / 4; i++) {
		const struct cma_map_pattern *p = &cma_map.patterns[i];
		char dev[MAX_LINE], kind[MAX_LINE];

		instantiate(dev, sizeof(dev), p->dev ?: "x", 'q', "");
		instantiate(kind, sizeof(kind), p->kind ?: "", '?', "zz");
		check_query(&cma_map, &re_map, dev, NULL);
		check_query(&cma_map, &re_map, dev, kind);
		instantiate(dev, sizeof(dev), p->dev ?: "", '-', "*.0");
		check_query(&cma_map, &re_map, dev, p->kind ? "" : "k");
	}

	/* 6. cma_movable= */
	check_movable(in, lr, nr_regions, parsed, n_parsed, movable_lines,
		      nr_movable_errors, nr_static_errors, nr_static_notes);
	if (*effective_movable(in, &from)) {
		log_without_movable(log_a, sizeof(log_a));
		boot_input(in, no_movable);
		log_without_movable(log_b, sizeof(log_b));
		if (strcmp(log_a, log_b))
			fail("cma_movable=%s changed more than which regions are movable: the log without it is\n%s",
			     effective_movable(in, &from), log_b);
	}

	free(in);
	return 0;
}

/*
 * An allocator that takes parameters, so that PARAMS stay in the round
 * trip when the built-in ones refuse theirs: "fz", best fit under another
 * name, taking any parameters but those holding "bad".
 */
static struct cma_allocator fz_allocator;

#ifdef HAVE_CHECK_PARAMS
static const char *fz_check_params(const char *params)
{
	return strstr(params, "bad") ? "does not take \"bad\"" : NULL;
}
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	shim_log_echo = 0;
	fz_allocator = cma_bf_allocator;
	fz_allocator.name = "fz";
#ifdef HAVE_CHECK_PARAMS
	fz_allocator.check_params = fz_check_params;
#endif
	if (cma_allocator_register(&fz_allocator)) {
		fprintf(stderr, "fuzz-cma: cannot register the allocator fz\n");
		abort();
	}
	return 0;
}
