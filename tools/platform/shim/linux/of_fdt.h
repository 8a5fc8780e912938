/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: <linux/of_fdt.h> over the blob tools/platform loads. */
#ifndef __SHIM_LINUX_OF_FDT_H
#define __SHIM_LINUX_OF_FDT_H
#include <linux/types.h>

extern void *initial_boot_params;
extern int dt_root_addr_cells, dt_root_size_cells;

const void *of_get_flat_dt_prop(unsigned long node, const char *name, int *size);
int of_flat_dt_is_compatible(unsigned long node, const char *name);
u64 of_flat_dt_translate_address(unsigned long node);
#endif
