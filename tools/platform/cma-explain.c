// SPDX-License-Identifier: GPL-2.0
/*
 * cma-explain: what a board's device tree and cma=, cma_map= and
 * cma_movable= strings give at boot, without booting: the kernel's own
 * mm/cma-of.c, cma-parse.c and cma-regions.c (and the allocators) run on
 * the host over the board's RAM and device tree blob, and print the lines
 * the kernel would print ("cma: ..."; every "cma: error:" line), then the
 * regions, the rules in order, and for each device and kind which regions
 * serve it, in the order they are tried.
 *
 *   cma-explain [--dtb FILE] [--banks "BASE SIZE ..."] [--reserve BASE:SIZE]...
 *               [--device DEV[/KIND]]... [--log]
 *               [cma=STRING] [cma_map=STRING] [cma_movable=STRING]
 *
 * --log prints only the kernel's lines.  Exit status: 0, 1 when the
 * kernel would report a problem, 2 on bad usage or an unreadable tree.
 * scripts/cma-explain.sh runs it for a board (docs/cma.md).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/cma-int.h>
#include <linux/libfdt.h>
#include <linux/of_fdt.h>
#include "cma-regions.h"
#include "shim.h"
#include "boot.h"

#define MAX_DEVS 64

static struct cma_region regs[CMA_MAX_REGIONS];
static unsigned int nr_regs;
static struct cma_map map;
static char mapstr[CMA_PARAM_MAX + 2];	/* the map's patterns point in */
static char devs[MAX_DEVS][80];
#pragma GCC diagnostic ignored "-Wformat-truncation"
static int nr_devs;

static void add_dev(const char *d)
{
	int i;

	for (i = 0; i < nr_devs; i++)
		if (!strcmp(devs[i], d))
			return;
	if (nr_devs < MAX_DEVS)
		snprintf(devs[nr_devs++], sizeof(devs[0]), "%s", d);
}

static int copy_region(struct cma_region *reg, void *data)
{
	if (nr_regs < CMA_MAX_REGIONS)
		regs[nr_regs++] = *reg;
	return 0;
}

/* The devices of the tree that name regions of ours, with their kinds. */
static void tree_devices(void)
{
	const void *fdt = initial_boot_params;
	int node, i, n;
	char d[80];

	if (!fdt)
		return;
	for (node = fdt_next_node(fdt, -1, NULL); node >= 0; node = fdt_next_node(fdt, node, NULL)) {
		const char *name = fdt_get_name(fdt, node, NULL), *kind;
		const char *status = fdt_getprop(fdt, node, "status", NULL);
		u64 addr;

		if (!fdt_getprop(fdt, node, "memory-region", NULL) ||
		    (status && strcmp(status, "okay") && strcmp(status, "ok")))
			continue;
		addr = of_flat_dt_translate_address(node);
		if (addr == (u64)-1)
			continue;
		n = fdt_stringlist_count(fdt, node, "memory-region-names");
		if (n <= 0) {
			snprintf(d, sizeof(d), "%llx.%.*s", (unsigned long long)addr,
				 (int)strcspn(name, "@"), name);
			add_dev(d);
		}
		for (i = 0; i < n; i++) {
			kind = fdt_stringlist_get(fdt, node, "memory-region-names", i, NULL);
			if (!kind || strpbrk(kind, "*?"))
				continue;	/* a pattern: --device names the kinds */
			snprintf(d, sizeof(d), "%llx.%.*s/%s", (unsigned long long)addr,
				 (int)strcspn(name, "@"), name, kind);
			add_dev(d);
		}
	}
}

static void usage(FILE *f)
{
	fprintf(f, "usage: cma-explain [--dtb FILE] [--banks \"BASE SIZE ...\"] [--reserve BASE:SIZE]...\n"
		   "                   [--device DEV[/KIND]]... [--log] [cma=S] [cma_map=S] [cma_movable=S]\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dtb", 1, NULL, 'd' }, { "banks", 1, NULL, 'b' },
		{ "reserve", 1, NULL, 'r' }, { "device", 1, NULL, 'D' },
		{ "log", 0, NULL, 'l' }, { "help", 0, NULL, 'h' }, { }
	};
	struct cma_report rep = { .quiet = true };
	char effmap[CMA_PARAM_MAX + 2], src[32], buf[CMA_PARAM_MAX + 2];
	struct boot b = { };
	int c, i, log_only = 0, problems;
	const char *p;

	while ((c = getopt_long(argc, argv, "d:b:r:D:lh", opts, NULL)) != -1) {
		switch (c) {
		case 'd': b.dtb = optarg; break;
		case 'b':
			if (boot_banks(&b, optarg)) {
				fprintf(stderr, "cma-explain: --banks: pairs of hex BASE SIZE\n");
				return 2;
			}
			break;
		case 'r':
			if (b.nr_rsv == BOOT_MAX_BANKS ||
			    sscanf(optarg, "%llx:%llx", &b.rsv[b.nr_rsv][0], &b.rsv[b.nr_rsv][1]) != 2) {
				fprintf(stderr, "cma-explain: --reserve BASE:SIZE (hex)\n");
				return 2;
			}
			b.nr_rsv++;
			break;
		case 'D': add_dev(optarg); break;
		case 'l': log_only = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	for (i = optind; i < argc; i++) {
		if (!strncmp(argv[i], "cma=", 4))
			b.cma = argv[i] + 4;
		else if (!strncmp(argv[i], "cma_map=", 8))
			b.map = argv[i] + 8;
		else if (!strncmp(argv[i], "cma_movable=", 12))
			b.movable = argv[i] + 12;
		else {
			usage(stderr);
			return 2;
		}
	}
	if (!b.dtb && !b.nr_banks) {
		fprintf(stderr, "cma-explain: no RAM: give --dtb or --banks\n");
		return 2;
	}

	c = boot_run(&b);
	if (c < 0 && b.dtb && !initial_boot_params) {
		fprintf(stderr, "cma-explain: %s: not a device tree blob\n", b.dtb);
		return 2;
	}
	problems = shim_log_count("cma: error: ");
	if (log_only) {
		fputs(boot_log(), stdout);
		return problems ? 1 : 0;
	}

	printf("The kernel's log (what the boot prints):\n");
	for (p = boot_log(); *p; ) {
		const char *e = strchr(p, '\n');
		int n = e ? e - p + 1 : (int)strlen(p);

		printf("  %.*s", n, p);
		p += n;
	}

	cma_walk_regions(copy_region, NULL);
	printf("\nRegions (%u):\n", nr_regs);
	printf("  %-16s %-10s %-10s %-10s %-8s %-12s %s\n", "name", "base", "end", "size", "align",
	       "allocator", "movable");
	for (i = 0; i < nr_regs; i++) {
		struct cma_region *r = &regs[i];
		char alloc[64];

		snprintf(alloc, sizeof(alloc), "%s%s%s%s", r->alloc->name, r->alloc_params ? "(" : "",
			 r->alloc_params ?: "", r->alloc_params ? ")" : "");
		printf("  %-16s %#010lx %#010lx %-10s %-8s %-12s %s\n", r->name, r->start,
		       r->start + r->size - 1,
		       ({ static char s[24]; snprintf(s, sizeof(s), "%lu KiB", r->size >> 10); s; }),
		       ({ static char s[24]; snprintf(s, sizeof(s), "%#lx", r->alignment); s; }),
		       alloc, r->movable ? "yes" : "no");
	}

	effmap[0] = '\0';
	boot_param("cma_map", effmap, sizeof(effmap), src, sizeof(src));
	strcpy(mapstr, effmap);
	cma_parse_map(mapstr, &map, regs, nr_regs, &rep);
	printf("\nRules (cma_map= from the %s; tried in order, the first matching pattern decides):\n",
	       *effmap ? src : "nowhere: none");
	for (i = 0; i < map.nr_rules; i++) {
		cma_format_rule(buf, sizeof(buf), &map, &map.rules[i]);
		printf("  %d: %s\n", i + 1, buf);
	}

	tree_devices();
	printf("\nDevices and kinds (DEVICE/KIND: the rule, then the regions in the order tried):\n");
	if (!nr_devs)
		printf("  (none: give --device DEV[/KIND])\n");
	for (i = 0; i < nr_devs; i++) {
		char dev[80], *kind;
		const struct cma_map_rule *rule;
		unsigned int j;

		snprintf(dev, sizeof(dev), "%s", devs[i]);
		kind = strchr(dev, '/');
		if (kind)
			*kind++ = '\0';
		rule = cma_map_match(&map, dev, kind ?: "");
		printf("  %-28s ", devs[i]);
		if (!rule) {
			printf("no rule: cma_kind_alloc() fails (ENOENT); DMA API allocations as without CMA\n");
			continue;
		}
		printf("rule %ld: ", (long)(rule - map.rules) + 1);
		if (!rule->nr_regions)
			printf("no region: every allocation fails\n");
		for (j = 0; j < rule->nr_regions; j++)
			printf("%s%s", j ? ", then " : "", map.regions[rule->region + j]->name);
		if (rule->nr_regions)
			printf("\n");
	}
	printf("\n%d problem%s (\"cma: error:\" lines above)\n", problems, problems == 1 ? "" : "s");
	return problems ? 1 : 0;
}
