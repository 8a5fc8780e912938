/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: <linux/memblock.h> over the harness's fake RAM banks. */
#ifndef __SHIM_LINUX_MEMBLOCK_H
#define __SHIM_LINUX_MEMBLOCK_H

#include <linux/types.h>

#define MEMBLOCK_ALLOC_ACCESSIBLE	0
#define MEMBLOCK_NOMAP			0x4

/* The banks of RAM, split where a no-map range was marked, as memblock does. */
struct memblock_region {
	phys_addr_t base;
	phys_addr_t size;
	unsigned int flags;
};

extern struct memblock_region shim_ram[];
extern int shim_nr_ram;

static inline bool memblock_is_nomap(struct memblock_region *m)
{
	return m->flags & MEMBLOCK_NOMAP;
}

#define for_each_mem_region(region) \
	for (region = shim_ram; region < shim_ram + shim_nr_ram; region++)

bool memblock_is_region_memory(phys_addr_t base, phys_addr_t size);
bool memblock_is_region_reserved(phys_addr_t base, phys_addr_t size);
int memblock_reserve(phys_addr_t base, phys_addr_t size);
int memblock_phys_free(phys_addr_t base, phys_addr_t size);
phys_addr_t memblock_phys_alloc_range(phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end);

#endif
