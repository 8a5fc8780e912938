/* SPDX-License-Identifier: GPL-2.0-or-later WITH Linux-syscall-note */
/*
 * Contiguous Memory Allocator: the /dev/cma test device's interface.
 *
 * Open /dev/cma, ask for one chunk with IOCTL_CMA_ALLOC, mmap() it, and
 * close the file to free it.  See Documentation/mm/cma-regions.rst.
 */
#ifndef _UAPI_LINUX_CMA_H
#define _UAPI_LINUX_CMA_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define CMA_MAGIC (('c' << 24) | ('M' << 16) | ('a' << 8) | 0x42)

/**
 * struct cma_alloc_request - a request for a chunk
 * @magic:     must be CMA_MAGIC.
 * @name:      the name of the device to allocate as, NUL-terminated.
 * @kind:      the kind of memory, NUL-terminated ("" for none).
 * @pad:       reserved.
 * @size:      the size of the chunk in bytes.
 * @alignment: its alignment: 0 or a power of two.
 * @start:     set by the ioctl to the chunk's physical address.
 *
 * The layout (64 bytes) is the same for 32- and 64-bit user space.
 */
struct cma_alloc_request {
	__u32 magic;
	char  name[17];
	char  kind[17];
	__u16 pad;
	__u64 size;
	__u64 alignment;
	__u64 start;
};

#define IOCTL_CMA_ALLOC    _IOWR('p', 0, struct cma_alloc_request)

#endif /* _UAPI_LINUX_CMA_H */
