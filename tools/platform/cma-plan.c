// SPDX-License-Identifier: GPL-2.0
/*
 * cma-plan: the smallest regions, and a map, that serve every request of
 * a recorded allocation trace (tools/cma/trace.h's format: cma-test -r,
 * bench/traces/), or of a capture of the kernel's CMA trace events
 * (tracefs: cma_regions_alloc_finish and cma_regions_release, docs/cma.md).
 * The requests are grouped by the region the trace's own cma_map= sends
 * them to, or for a capture the region the kernel took each from (or, with
 * --per-kind or a trace without a map, one group per device and kind); each group's region size is found by
 * replaying the group's allocations and frees, in the trace's order,
 * through the kernel's own code (mm/cma-regions.c's __cma_alloc() and
 * cma_kind_put(), the chosen allocator of mm/cma-*.c) on regions of trial
 * sizes: the smallest size that serves every request, from the group's
 * peak live bytes (the lower bound: no allocator can do with less) up.
 * Each trial is a fresh host boot (tools/platform/boot.c) in a child
 * process.
 *
 *   cma-plan [--allocator NAME] [--per-kind] [--quiet] TRACE
 *
 * Prints per group the requests, the peak live bytes, the largest
 * alignment, the region size and its overhead over the peak, then the
 * total, the cma= and cma_map= strings to boot with, and the device tree
 * fragment ("linux,cma-region" nodes) saying the same.  Exit status 0, 1
 * when a group cannot be served at all, 2 on bad usage or input.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/cma-int.h>
#include "cma-regions.h"
#include "shim.h"
#include "boot.h"
#include "trace.h"

#define MAX_GROUPS	CMA_MAX_REGIONS
#define PAGE		4096UL
#define PAGE_UP(x)	(((x) + PAGE - 1) & ~(PAGE - 1))

#pragma GCC diagnostic ignored "-Wformat-truncation"

struct group {
	char name[CMA_NAME_MAX + 1];
	char pairs[CMA_PARAM_MAX];	/* "dev/kind,dev,..." as cma_map= patterns */
	unsigned long peak, max_align, size, requests;
	unsigned long long bytes;
};

static struct trace_op *ops;
static int *op_group;
static size_t nr_ops;
static struct group groups[MAX_GROUPS];
static int nr_groups;
static const char *allocator;
/* a capture of the kernel's trace events: its events, and the refused requests */
static unsigned int nr_events, nr_refused;

static int group_named(const char *name)
{
	int i;

	for (i = 0; i < nr_groups; i++)
		if (!strcmp(groups[i].name, name))
			return i;
	if (nr_groups == MAX_GROUPS) {
		fprintf(stderr, "cma-plan: more than %d regions needed\n", MAX_GROUPS);
		exit(2);
	}
	snprintf(groups[nr_groups].name, sizeof(groups[0].name), "%s", name);
	return nr_groups++;
}

/* Add the pattern of @dev and @kind to the group's, once. */
static void group_add_pair(struct group *g, const char *dev, const char *kind)
{
	char pat[40], *p;
	size_t n = strlen(pat);

	snprintf(pat, sizeof(pat), "%s%s%s", dev, *kind ? "/" : "", kind);
	n = strlen(pat);
	for (p = g->pairs; (p = strstr(p, pat)); p += n)
		if ((p == g->pairs || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return;
	snprintf(g->pairs + strlen(g->pairs), sizeof(g->pairs) - strlen(g->pairs), "%s%s",
		 *g->pairs ? "," : "", pat);
}

/* A region name for a device and kind: its letters, digits, '-' and '_'. */
static void name_of(char *buf, const char *dev, const char *kind)
{
	char s[64], *p;

	snprintf(s, sizeof(s), "%s%s%s", dev, *kind ? "-" : "", kind);
	for (p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
			*p = '-';
	snprintf(buf, CMA_NAME_MAX + 1, "%s", s);
}

static int load(const char *path, int per_kind)
{
	static struct cma_region tregs[CMA_MAX_REGIONS];
	static struct cma_map tmap;
	struct cma_report rep = { .quiet = true };
	char cma[600] = "", map[600] = "", line[1024], name[CMA_NAME_MAX + 1];
	unsigned int nr_tregs = 0, no = 0;
	struct trace_events events = { };
	size_t cap = 0;
	FILE *f = fopen(path, "r");
	size_t i;

	if (!f) {
		fprintf(stderr, "cma-plan: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct trace_op op;
		enum trace_type t;

		no++;
		/* a capture of the kernel's trace events, or cma-test's format */
		if (strstr(line, " cma_regions_")) {
			t = trace_parse_event(&events, line, &op);
			nr_events += t != TRACE_NONE;
			if (t == TRACE_ALLOC && op.result == TRACE_ERRNO) {
				/* a request the kernel refused: no lifetime to plan for */
				nr_refused++;
				continue;
			}
		} else {
			t = trace_parse(line, &op);
		}
		switch (t) {
		case TRACE_NONE:
			continue;
		case TRACE_ERROR:
			line[strcspn(line, "\n")] = '\0';
			fprintf(stderr, "cma-plan: %s:%u: cannot parse: %s (%s)\n", path, no, line, op.text);
			fclose(f);
			return -1;
		case TRACE_CMA:
			snprintf(cma, sizeof(cma), "%s", op.text);
			continue;
		case TRACE_CMA_MAP:
			snprintf(map, sizeof(map), "%s", op.text);
			continue;
		default:
			break;
		}
		if (nr_ops == cap) {
			cap = cap ? 2 * cap : 1024;
			ops = realloc(ops, cap * sizeof(*ops));
			op_group = realloc(op_group, cap * sizeof(*op_group));
			if (!ops || !op_group)
				exit(2);
		}
		op_group[nr_ops] = -1;
		ops[nr_ops++] = op;
	}
	fclose(f);
	trace_events_free(&events);

	/* The trace's own regions and map say which requests share a region. */
	if (!per_kind && *cma && *map) {
		nr_tregs = cma_parse_regions(cma, tregs, CMA_MAX_REGIONS, &rep);
		cma_parse_map(map, &tmap, tregs, nr_tregs, &rep);
	}
	for (i = 0; i < nr_ops; i++) {
		const struct cma_map_rule *rule = NULL;
		struct trace_op *op = &ops[i];
		size_t j;
		int g;

		if (op->type == TRACE_FREE) {
			/* The group of the live allocation it frees. */
			for (j = i; j-- > 0;)
				if (ops[j].type == TRACE_ALLOC && ops[j].id == op->id)
					break;
			if (j == (size_t)-1 || op_group[j] < 0) {
				fprintf(stderr, "cma-plan: free %lu: no such allocation\n", op->id);
				return -1;
			}
			op_group[i] = op_group[j];
			continue;
		}
		if (nr_tregs)
			rule = cma_map_match(&tmap, op->dev, op->kind);
		if (!per_kind && op->text[0])
			/* an event: the region the kernel took it from */
			snprintf(name, sizeof(name), "%s", op->text);
		else if (rule && rule->nr_regions)
			snprintf(name, sizeof(name), "%s", tmap.regions[rule->region]->name);
		else
			name_of(name, op->dev, op->kind);
		g = group_named(name);
		op_group[i] = g;
		group_add_pair(&groups[g], op->dev, op->kind);
		groups[g].requests++;
		groups[g].bytes += PAGE_UP(op->size);
		if (op->align > groups[g].max_align)
			groups[g].max_align = op->align;
	}
	return 0;
}

/* Peak live bytes of group @g (sizes in whole pages, as the kernel takes them). */
static unsigned long peak_of(int g, int aligned)
{
	unsigned long live = 0, peak = 0, sz;
	size_t i, j;

	for (i = 0; i < nr_ops; i++) {
		if (op_group[i] != g)
			continue;
		j = i;
		if (ops[i].type != TRACE_ALLOC)
			while (j-- > 0)
				if (ops[j].type == TRACE_ALLOC && ops[j].id == ops[i].id)
					break;
		sz = PAGE_UP(ops[j].size);
		if (aligned && ops[j].align > PAGE)
			sz = (ops[j].size + ops[j].align - 1) & ~(ops[j].align - 1);
		if (ops[i].type == TRACE_ALLOC) {
			live += sz;
			if (live > peak)
				peak = live;
		} else {
			live -= sz;
		}
	}
	return peak;
}

static unsigned long region_align(const struct group *g)
{
	return g->max_align > PAGE ? g->max_align : PAGE;
}

/*
 * Replay group @g on a region of @size bytes, in a child: 0 when every
 * request is served.
 */
static char proposal_cma[CMA_PARAM_MAX * 2], proposal_map[CMA_PARAM_MAX * 2];

static int trial(int g, unsigned long size)
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("cma-plan: fork");
		exit(2);
	}
	if (!pid) {
		static char cma[128];
		unsigned long *addr = calloc(nr_ops, sizeof(*addr)), a;
		struct boot b = { .nr_banks = 1 };
		size_t i, j;

		/* One bank, big enough, aligned for the regions. */
		b.bank[0][0] = 0x40000000;
		b.bank[0][1] = (size + 0x3fffffffUL) & ~0x3fffffffUL;
		if (g >= 0) {
			b.bank[0][1] = (size + region_align(&groups[g]) + 0x3fffffffUL) &
				       ~0x3fffffffUL;
			snprintf(cma, sizeof(cma), "p=%lu/%lu%s%s", size, region_align(&groups[g]),
				 allocator ? ":" : "", allocator ?: "");
			b.cma = cma;
			b.map = "*/*=p";
		} else {
			b.cma = proposal_cma;
			b.map = proposal_map;
		}
		if (boot_run(&b) != (g >= 0 ? 1 : nr_groups))
			_exit(3);
		for (i = 0; i < nr_ops; i++) {
			if (g >= 0 && op_group[i] != g)
				continue;
			if (ops[i].type == TRACE_ALLOC) {
				a = __cma_alloc(ops[i].dev, ops[i].kind, ops[i].size, ops[i].align);
				if (a >= (unsigned long)-4095)
					_exit(1);
				addr[i] = a;
				continue;
			}
			for (j = i; j-- > 0;)
				if (ops[j].type == TRACE_ALLOC && ops[j].id == ops[i].id)
					break;
			if (cma_kind_put(addr[j]) < 0)
				_exit(4);
		}
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) >= 2) {
		fprintf(stderr, "cma-plan: region %s: the replay failed (status %d)\n",
			g >= 0 ? groups[g].name : "(all)", WEXITSTATUS(status));
		exit(2);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void size_text(char *buf, size_t len, unsigned long v)
{
	if (!(v & ((1UL << 20) - 1)))
		snprintf(buf, len, "%luM", v >> 20);
	else
		snprintf(buf, len, "%luK", v >> 10);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "allocator", 1, NULL, 'a' }, { "per-kind", 0, NULL, 'k' },
		{ "quiet", 0, NULL, 'q' }, { "help", 0, NULL, 'h' }, { }
	};
	unsigned long total = 0, lower = 0, aligned = 0, lo, hi, mid;
	size_t n;
	int c, g, per_kind = 0, quiet = 0, trials = 0, unserved = 0;
	char s[32], a[32];

	while ((c = getopt_long(argc, argv, "a:kqh", opts, NULL)) != -1) {
		switch (c) {
		case 'a': allocator = optarg; break;
		case 'k': per_kind = 1; break;
		case 'q': quiet = 1; break;
		case 'h':
		default:
			fprintf(c == 'h' ? stdout : stderr,
				"usage: cma-plan [--allocator NAME] [--per-kind] [--quiet] TRACE\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: cma-plan [--allocator NAME] [--per-kind] [--quiet] TRACE\n");
		return 2;
	}
	if (allocator && !cma_allocator_find(allocator)) {
		fprintf(stderr, "cma-plan: unknown allocator '%s'\n", allocator);
		return 2;
	}
	if (load(argv[optind], per_kind))
		return 2;
	if (!nr_groups) {
		fprintf(stderr, "cma-plan: %s: no allocation\n", argv[optind]);
		return 2;
	}

	for (g = 0; g < nr_groups; g++) {
		struct group *gr = &groups[g];

		gr->peak = peak_of(g, 0);
		lower += gr->peak;
		aligned += peak_of(g, 1);
		lo = gr->peak;
		/* Grow until the group is served, then halve the gap. */
		for (hi = lo; trials++, trial(g, hi); hi = hi + (hi >> 1) + PAGE) {
			if (hi > 64 * (gr->peak + region_align(gr))) {
				hi = 0;
				break;
			}
			lo = hi + PAGE;
		}
		if (!hi) {
			fprintf(stderr, "cma-plan: region %s: no size serves the trace\n", gr->name);
			unserved++;
			continue;
		}
		while (lo < hi) {
			mid = (lo + (hi - lo) / 2) & ~(PAGE - 1);
			trials++;
			if (!trial(g, mid))
				hi = mid;
			else
				lo = mid + PAGE;
		}
		gr->size = hi;
		total += hi;
	}

	printf("# cma-plan: %s: %zu operations, %d regions, allocator %s (%d trial replays)\n",
	       argv[optind], nr_ops, nr_groups, allocator ?: cma_allocator_find(NULL)->name, trials);
	if (nr_events)
		printf("# a capture of the kernel's trace events (%u of them): grouped by the region each request was taken from; %u requests the kernel refused left out (no lifetime)\n",
		       nr_events, nr_refused);
	printf("# %-16s %8s %12s %10s %12s %9s  %s\n", "region", "requests", "peak KiB", "align",
	       "size KiB", "overhead", "devices/kinds");
	for (g = 0; g < nr_groups; g++) {
		struct group *gr = &groups[g];

		printf("# %-16s %8lu %12lu %#10lx %12lu %8.1f%%  %s\n", gr->name, gr->requests,
		       gr->peak >> 10, region_align(gr), gr->size >> 10,
		       gr->peak ? 100.0 * (gr->size - (double)gr->peak) / gr->peak : 0.0, gr->pairs);
	}
	for (g = 0, n = 0; g < nr_groups; g++) {
		size_text(s, sizeof(s), groups[g].size);
		size_text(a, sizeof(a), region_align(&groups[g]));
		n += snprintf(proposal_cma + n, sizeof(proposal_cma) - n, "%s%s=%s%s%s%s%s",
			      g ? ";" : "", groups[g].name, s,
			      region_align(&groups[g]) > PAGE ? "/" : "",
			      region_align(&groups[g]) > PAGE ? a : "", allocator ? ":" : "",
			      allocator ?: "");
	}
	for (g = 0, n = 0; g < nr_groups; g++)
		n += snprintf(proposal_map + n, sizeof(proposal_map) - n, "%s%s=%s", g ? ";" : "",
			      groups[g].pairs, groups[g].name);
	/* The whole trace on the proposal, regions and map as a boot gives them. */
	c = unserved ? 1 : trial(-1, total + (unsigned long)nr_groups * 0x100000);

	printf("# total: peak live %lu KiB (the sum of the regions' peaks: the lower bound; %lu KiB with each request rounded up to its alignment), regions %lu KiB, overhead %.1f%%\n",
	       lower >> 10, aligned >> 10, total >> 10,
	       lower ? 100.0 * (total - (double)lower) / lower : 0.0);
	printf("# the whole trace replayed on these regions and map: %s\n",
	       c ? "FAILED (a request was not served)" : "every request served");
	printf("cma=%s\ncma_map=%s\n", proposal_cma, proposal_map);
	if (c)
		unserved++;
	if (quiet)
		return unserved ? 1 : 0;

	printf("\n/* The same as a device tree fragment (reserved-memory/linux,cma-region.yaml). */\n"
	       "/ {\n\treserved-memory {\n\t\t#address-cells = <1>;\n\t\t#size-cells = <1>;\n\t\tranges;\n");
	for (g = 0; g < nr_groups; g++) {
		char label[CMA_NAME_MAX + 1], *p;

		snprintf(label, sizeof(label), "%s", groups[g].name);
		for (p = label; *p; p++)
			if (*p == '-')
				*p = '_';
		printf("\n\t\t%s: %s {\n\t\t\tcompatible = \"linux,cma-region\";\n\t\t\tsize = <%#lx>;\n",
		       label, groups[g].name, groups[g].size);
		if (region_align(&groups[g]) > PAGE)
			printf("\t\t\talignment = <%#lx>;\n", region_align(&groups[g]));
		if (allocator)
			printf("\t\t\tlinux,cma-allocator = \"%s\";\n", allocator);
		printf("\t\t};\n");
	}
	printf("\t};\n};\n/*\n * Each device node names its regions: memory-region = <&LABEL>, ...;\n"
	       " * memory-region-names = \"KIND\", ...; (the kinds above; a device without\n"
	       " * a node of its own by linux,cma-aliases).\n */\n");
	return unserved ? 1 : 0;
}
