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
void shim_might_sleep(const char *what, gfp_t gfp);
void kfree(const void *p);

/* GFP_KERNEL may sleep: a warning under a spinlock. */
#define kmalloc(size, gfp)	(shim_might_sleep("kmalloc", gfp), shim_kmalloc(size, 0))
#define kzalloc(size, gfp)	(shim_might_sleep("kzalloc", gfp), shim_kmalloc(size, 1))

#endif
