/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: <linux/slab.h>.  The harness counts live objects (to find
 * leaks) and can make the n-th allocation fail.
 */
#ifndef __SHIM_LINUX_SLAB_H
#define __SHIM_LINUX_SLAB_H

#include <stddef.h>
#include <linux/types.h>

void *shim_kmalloc(size_t size, int zero);
void kfree(const void *p);

#define kmalloc(size, gfp)	shim_kmalloc(size, 0)
#define kzalloc(size, gfp)	shim_kmalloc(size, 1)

#endif
