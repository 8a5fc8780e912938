// SPDX-License-Identifier: GPL-2.0
/*
 * One boot of the CMA framework on the host, in the kernel's order
 * (arch/arm/mm/init.c's arm_memblock_init()): RAM, the device tree's
 * /memreserve/ and reserved-memory nodes (of-host.c, which calls
 * mm/cma-of.c's hook), the command line's early parameters, then
 * mm/cma-regions.c's cma_regions_allocate() and its initcalls.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/cma-int.h>
#include <linux/memblock.h>
#include "shim.h"
#include "of-host.h"
#include "boot.h"

extern char shim_log[];

int boot_banks(struct boot *b, const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;
	unsigned long long v[2 * BOOT_MAX_BANKS];
	int n = 0;

	for (tok = strtok_r(copy, " \t,", &save); tok && n < 2 * BOOT_MAX_BANKS;
	     tok = strtok_r(NULL, " \t,", &save))
		v[n++] = strtoull(tok, NULL, 16);
	free(copy);
	if (n % 2)
		return -EINVAL;
	for (b->nr_banks = 0; b->nr_banks < n / 2; b->nr_banks++) {
		b->bank[b->nr_banks][0] = v[2 * b->nr_banks];
		b->bank[b->nr_banks][1] = v[2 * b->nr_banks + 1];
	}
	return 0;
}

int boot_run(struct boot *b)
{
	int i, ret;

	shim_log_clear();
	shim_memblock_reset();
	if (b->dtb) {
		ret = of_host_load(b->dtb);
		if (ret)
			return ret;
	}
	for (i = 0; i < b->nr_banks; i++)
		shim_memblock_add(b->bank[i][0], b->bank[i][1]);
	if (!b->nr_banks && b->dtb)
		of_host_memory(shim_memblock_add);
	for (i = 0; i < b->nr_rsv; i++)
		memblock_reserve(b->rsv[i][0], b->rsv[i][1]);
	if (b->dtb)
		of_host_scan_reserved_mem();
	if (b->cma)
		shim_early_param("cma", b->cma);
	if (b->map)
		shim_early_param("cma_map", b->map);
	if (b->movable)
		shim_early_param("cma_movable", b->movable);
	ret = cma_regions_allocate(NULL);
	shim_run_initcalls();
	return ret;
}

const char *boot_log(void)
{
	return shim_log;
}

const char *boot_param(const char *name, char *buf, size_t len, char *src, size_t srclen)
{
	char pat[32];
	const char *p, *e, *o;

	snprintf(pat, sizeof(pat), "cma: %s=", name);
	for (p = shim_log; (p = strstr(p, pat)); p++) {
		if (p != shim_log && p[-1] != '\n')
			continue;
		p += strlen(pat);
		e = strchr(p, '\n');
		if (!e)
			return NULL;
		if (e[-1] != ')')
			continue;	/* "cma: cma= of the command line replaces ..." */
		o = e;
		while (o > p && *o != '(')
			o--;
		if (o == p || o[-1] != ' ')
			continue;
		snprintf(buf, len, "%.*s", (int)(o - 1 - p), p);
		if (src)
			snprintf(src, srclen, "%.*s", (int)(e - o - 2), o + 1);
		return buf;
	}
	return NULL;
}
