/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: <linux/of_reserved_mem.h>.  RESERVEDMEM_OF_DECLARE() enters
 * the hook in a table that tools/platform's reserved-memory scan (of-host.c,
 * drivers/of/of_reserved_mem.c's order) calls.
 */
#ifndef __SHIM_LINUX_OF_RESERVED_MEM_H
#define __SHIM_LINUX_OF_RESERVED_MEM_H
#include <linux/types.h>

struct reserved_mem {
	const char *name;
	unsigned long fdt_node;
	unsigned long phandle;
	const void *ops;
	phys_addr_t base;
	phys_addr_t size;
	void *priv;
};

typedef int (*reservedmem_of_init_fn)(struct reserved_mem *rmem);
void shim_register_rmem(const char *compat, reservedmem_of_init_fn fn);

#define RESERVEDMEM_OF_DECLARE(name, compat, init)			\
	static void __attribute__((constructor)) __shim_rmem_##name(void) \
	{ shim_register_rmem(compat, init); }
#endif
