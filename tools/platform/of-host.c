// SPDX-License-Identifier: GPL-2.0
/*
 * The device tree on the host, for the kernel's mm/cma-of.c and
 * drivers/of/fdt_address.c: the flat-tree accessors of drivers/of/fdt.c
 * over a blob loaded from a file, and the reserved-memory scan of
 * drivers/of/fdt.c and of_reserved_mem.c (6.1), in their order:
 * /memreserve/ entries, then each /reserved-memory child (reg reserved at
 * once, size-only nodes saved), then the saved nodes sorted by base (the
 * dynamic ones first), each allocated (alloc-ranges in order, top down)
 * and handed to the hook of its compatible; a hook's failure gives the
 * memory back.  Messages as the kernel prints them ("OF: reserved mem: ").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/libfdt.h>
#include <linux/memblock.h>
#include <linux/of.h>
#include <linux/of_fdt.h>
#include <linux/of_reserved_mem.h>

#include "of-host.h"
#include "shim.h"

void *initial_boot_params;
int dt_root_addr_cells = 1, dt_root_size_cells = 1;

const void *of_get_flat_dt_prop(unsigned long node, const char *name, int *size)
{
	return fdt_getprop(initial_boot_params, node, name, size);
}

int of_flat_dt_is_compatible(unsigned long node, const char *name)
{
	return !fdt_node_check_compatible(initial_boot_params, node, name);
}

static struct {
	const char *compat;
	reservedmem_of_init_fn fn;
} rmem_hooks[4];
static int nr_rmem_hooks;

void shim_register_rmem(const char *compat, reservedmem_of_init_fn fn)
{
	rmem_hooks[nr_rmem_hooks].compat = compat;
	rmem_hooks[nr_rmem_hooks++].fn = fn;
}

int of_host_load(const char *path)
{
	FILE *f = fopen(path, "rb");
	long len;
	void *blob;
	const fdt32_t *p;
	int root;

	if (!f)
		return -errno;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	blob = malloc(len > 0 ? len : 1);
	if (!blob || fread(blob, 1, len, f) != (size_t)len || fdt_check_header(blob)) {
		fclose(f);
		free(blob);
		return -EINVAL;
	}
	fclose(f);
	initial_boot_params = blob;
	root = fdt_path_offset(blob, "/");
	p = fdt_getprop(blob, root, "#address-cells", NULL);
	if (p)
		dt_root_addr_cells = fdt32_to_cpu(*p);
	p = fdt_getprop(blob, root, "#size-cells", NULL);
	if (p)
		dt_root_size_cells = fdt32_to_cpu(*p);
	return 0;
}

/* The RAM banks of the memory nodes ("reg"), for a board given no banks. */
int of_host_memory(void (*add)(unsigned long long base, unsigned long long size))
{
	const void *fdt = initial_boot_params;
	int node, len, n = 0;
	const char *type;
	const fdt32_t *reg;

	for (node = fdt_next_node(fdt, -1, NULL); node >= 0; node = fdt_next_node(fdt, node, NULL)) {
		type = fdt_getprop(fdt, node, "device_type", NULL);
		if (!type || strcmp(type, "memory"))
			continue;
		reg = fdt_getprop(fdt, node, "reg", &len);
		for (len /= 4; reg && len >= dt_root_addr_cells + dt_root_size_cells;
		     len -= dt_root_addr_cells + dt_root_size_cells) {
			u64 base = of_read_number(reg, dt_root_addr_cells);
			u64 size = of_read_number(reg + dt_root_addr_cells, dt_root_size_cells);

			reg += dt_root_addr_cells + dt_root_size_cells;
			add(base, size);
			n++;
		}
	}
	return n;
}

/*
 * memblock_phys_alloc_range() with its range, as memblock does it: top
 * down, the highest bank first, the highest free place aligned to @align.
 */
static phys_addr_t alloc_in(phys_addr_t size, phys_addr_t align, phys_addr_t start,
			    phys_addr_t end)
{
	unsigned long long banks[8][2], lo, hi, a, r;
	int i, n = shim_memblock_banks(banks, 8);

	for (i = n - 1; i >= 0; i--) {
		lo = banks[i][0] > start ? banks[i][0] : start;
		hi = banks[i][0] + banks[i][1];
		if (end && end < hi)
			hi = end;
		if (hi < lo + size)
			continue;
		a = (hi - size) & ~(unsigned long long)(align - 1);
		while (a >= lo) {
			r = shim_memblock_overlap(a, size);
			if (r == ~0ULL) {
				memblock_reserve(a, size);
				return a;
			}
			if (r < lo + size)
				break;
			a = (r - size) & ~(unsigned long long)(align - 1);
		}
	}
	return 0;
}

static struct reserved_mem rmem[64];
static int nr_rmem;

static int rmem_cmp(const void *x, const void *y)
{
	const struct reserved_mem *a = x, *b = y;

	if (a->base != b->base)
		return a->base < b->base ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return 0;
}

static u64 next_cell(int cells, const fdt32_t **p)
{
	u64 v = of_read_number(*p, cells);

	*p += cells;
	return v;
}

void of_host_scan_reserved_mem(void)
{
	void *fdt = initial_boot_params;
	int t_len = (dt_root_addr_cells + dt_root_size_cells) * 4;
	int i, n, node, child, len;
	uint64_t base, size;

	/* /memreserve/ */
	for (n = 0; !fdt_get_mem_rsv(fdt, n, &base, &size) && size; n++)
		memblock_reserve(base, size);

	node = fdt_path_offset(fdt, "/reserved-memory");
	if (node < 0)
		return;
	fdt_for_each_subnode(child, fdt, node) {
		const char *uname = fdt_get_name(fdt, child, NULL);
		const char *status = fdt_getprop(fdt, child, "status", NULL);
		const fdt32_t *reg = fdt_getprop(fdt, child, "reg", &len);

		if (status && strcmp(status, "okay") && strcmp(status, "ok"))
			continue;
		if (nr_rmem == 64)
			break;
		if (reg) {
			if (len && len % t_len) {
				pr_err("OF: reserved mem: Reserved memory: invalid reg property in '%s', skipping node.\n", uname);
				continue;
			}
			base = next_cell(dt_root_addr_cells, &reg);
			size = next_cell(dt_root_size_cells, &reg);
			/* early_init_dt_reserve_memory(): reserved, even over reserved */
			if (size)
				memblock_reserve(base, size);
			rmem[nr_rmem++] = (struct reserved_mem){ .name = uname, .fdt_node = child,
								 .base = base, .size = size };
		} else if (fdt_getprop(fdt, child, "size", NULL)) {
			rmem[nr_rmem++] = (struct reserved_mem){ .name = uname, .fdt_node = child };
		}
	}

	qsort(rmem, nr_rmem, sizeof(rmem[0]), rmem_cmp);
	for (i = 0; i < nr_rmem; i++) {
		struct reserved_mem *r = &rmem[i];
		const fdt32_t *p;
		phys_addr_t align = 0;
		int err = -ENOENT, h;

		p = fdt_getprop(fdt, r->fdt_node, "phandle", &len);
		if (p)
			r->phandle = fdt32_to_cpu(*p);
		if (!r->size) {
			p = fdt_getprop(fdt, r->fdt_node, "size", &len);
			if (len != dt_root_size_cells * 4) {
				pr_err("OF: reserved mem: invalid size property in '%s' node.\n", r->name);
				continue;
			}
			size = next_cell(dt_root_size_cells, &p);
			p = fdt_getprop(fdt, r->fdt_node, "alignment", &len);
			if (p && len == dt_root_addr_cells * 4)
				align = next_cell(dt_root_addr_cells, &p);
			if (!align)
				align = 64;	/* SMP_CACHE_BYTES on ARMv7 */
			base = 0;
			p = fdt_getprop(fdt, r->fdt_node, "alloc-ranges", &len);
			if (p && len % t_len == 0) {
				for (; len > 0 && !base; len -= t_len) {
					u64 s = next_cell(dt_root_addr_cells, &p);
					u64 e = s + next_cell(dt_root_size_cells, &p);

					base = alloc_in(size, align, s, e);
				}
			} else {
				base = alloc_in(size, align, 0, 0);
			}
			if (!base) {
				pr_err("OF: reserved mem: failed to allocate memory for node '%s': size %lu MiB\n",
				       r->name, (unsigned long)(size >> 20));
				continue;
			}
			r->base = base;
			r->size = size;
		}
		for (h = 0; h < nr_rmem_hooks; h++) {
			if (!of_flat_dt_is_compatible(r->fdt_node, rmem_hooks[h].compat))
				continue;
			err = rmem_hooks[h].fn(r);
			if (!err) {
				pr_info("OF: reserved mem: initialized node %s, compatible id %s\n",
					r->name, rmem_hooks[h].compat);
				break;
			}
		}
		if (err && err != -ENOENT) {
			pr_info("OF: reserved mem: node %s compatible matching fail\n", r->name);
			memblock_phys_free(r->base, r->size);
		}
	}
}
