/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: tools/include's <linux/bitmap.h> plus what the bitmap
 * allocator uses from lib/bitmap.c (implemented in shim.c).
 */
#ifndef __SHIM_LINUX_BITMAP_H
#define __SHIM_LINUX_BITMAP_H

#include_next <linux/bitmap.h>
#include <linux/slab.h>

void bitmap_set(unsigned long *map, unsigned int start, unsigned int len);
unsigned long bitmap_find_next_zero_area_off(unsigned long *map,
					     unsigned long size,
					     unsigned long start,
					     unsigned int nr,
					     unsigned long align_mask,
					     unsigned long align_offset);

#define bitmap_zalloc(nbits, gfp) \
	shim_kmalloc(BITS_TO_LONGS(nbits) * sizeof(unsigned long), 1)
#define bitmap_free(map) kfree(map)

#endif
