/* SPDX-License-Identifier: GPL-2.0 */
/* A boot of the CMA framework on the host: tools/platform/boot.c. */
#ifndef PLATFORM_BOOT_H
#define PLATFORM_BOOT_H

#define BOOT_MAX_BANKS 8

struct boot {
	const char *dtb;		/* device tree blob, or NULL */
	unsigned long long bank[BOOT_MAX_BANKS][2];	/* RAM: base, size */
	int nr_banks;			/* 0: the tree's memory nodes */
	unsigned long long rsv[BOOT_MAX_BANKS][2];	/* reserved before */
	int nr_rsv;
	const char *cma, *map, *movable;	/* command line; NULL: not given */
};

/* Parse "BASE SIZE BASE SIZE ..." (hex, as board.conf's BOARD_BANKS). */
int boot_banks(struct boot *b, const char *list);
/*
 * Boot: the RAM, the tree's reservations, the parameters,
 * cma_regions_allocate() and the initcalls.  Once per process.  Returns
 * the number of regions, or a negative errno when the tree is unreadable.
 */
int boot_run(struct boot *b);
/* The log lines of the boot, each ending in '\n'. */
const char *boot_log(void);
/* The value of the boot's "cma: NAME=VALUE (SOURCE)" line, or NULL. */
const char *boot_param(const char *name, char *buf, size_t len, char *src, size_t srclen);

#endif
