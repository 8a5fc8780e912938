/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: <linux/memblock.h> over the harness's fake RAM banks. */
#ifndef __SHIM_LINUX_MEMBLOCK_H
#define __SHIM_LINUX_MEMBLOCK_H

#include <linux/types.h>

#define MEMBLOCK_ALLOC_ACCESSIBLE	0

bool memblock_is_region_memory(phys_addr_t base, phys_addr_t size);
bool memblock_is_region_reserved(phys_addr_t base, phys_addr_t size);
int memblock_reserve(phys_addr_t base, phys_addr_t size);
int memblock_phys_free(phys_addr_t base, phys_addr_t size);
phys_addr_t memblock_phys_alloc_range(phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end);

#endif
