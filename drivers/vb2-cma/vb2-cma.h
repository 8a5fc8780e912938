/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vb2-cma: a videobuf2 memory allocator on the region-based Contiguous
 * Memory Allocator (<linux/cma.h>, CONFIG_CMA_REGIONS).
 *
 * Every buffer plane is one physically contiguous chunk from cma_alloc():
 * which region it comes from is decided by the cma_map= rules (or the
 * board's defaults) from the name of the device and the "kind" of memory,
 * never by the driver.  A driver says which (device, kind) each plane is
 * for through the vb2 alloc_devs[] it returns from queue_setup: either the
 * device itself (kind "") or a memory port made with vb2_cma_port_create().
 *
 *	struct device *y = devm_vb2_cma_port_create(&pdev->dev, "y", 0);
 *	...
 *	q->mem_ops = &vb2_cma_memops;
 *	q->dev = &pdev->dev;			   // kind "" unless overridden
 *	...
 *	static int my_queue_setup(..., struct device *alloc_devs[])
 *	{
 *		alloc_devs[0] = ctx->port_y;	   // plane 0: (pdev, "y")
 *		alloc_devs[1] = ctx->port_c;	   // plane 1: (pdev, "c")
 *	}
 *	...
 *	dma_addr_t addr = vb2_cma_plane_dma_addr(vb, 0);  // program the device
 *
 * The memory is mapped to user space (MMAP), exported as DMABUF, and
 * readable by the CPU (vb2_plane_vaddr()); cache maintenance is done on
 * the queue's behalf at buf_prepare/buf_finish time.  Imported DMABUFs are
 * accepted only if they are contiguous in the importing device's address
 * space (which, without an IOMMU, means physically contiguous).  USERPTR is
 * not supported: user memory is not contiguous.
 *
 * Live buffers are listed in debugfs, vb2-cma/buffers (see vb2-cma.c).
 */
#ifndef _VB2_CMA_H
#define _VB2_CMA_H

#include <linux/types.h>
#include <media/videobuf2-v4l2.h>

struct device;

/*
 * vb2_cma_memops: the videobuf2 memory operations of vb2-cma.
 *
 * Set &vb2_queue.mem_ops to this.  The alloc_devs[] (or &vb2_queue.dev) of
 * a plane is a memory port (vb2_cma_port_create()) or a plain device, which
 * then allocates with kind "" and page alignment.
 */
extern const struct vb2_mem_ops vb2_cma_memops;

/**
 * vb2_cma_port_create() - make a memory port: a device, kind and alignment
 * @dev:       the device that does the DMA; its dev_name() is what
 *             cma_map= rules match (e.g. "fb200000.camera").
 * @kind:      the kind of memory (e.g. "y", "a"), matched by the KIND part
 *             of cma_map= rules; NULL or "" is the empty kind.  Copied.
 * @alignment: alignment of every chunk in bytes: 0 (page) or a power of
 *             two.
 *
 * A memory port is a child device of @dev named "<dev_name(dev)>:<kind>"
 * (":" alone for the empty kind), registered so that it shows in sysfs
 * under @dev.  Give it as alloc_devs[plane] (or &vb2_queue.dev): vb2-cma
 * then allocates that plane with cma_alloc(@dev, @kind, size, @alignment)
 * and maps it for DMA by @dev.  Buffers hold references on the port and
 * on @dev, so a port may be destroyed while buffers made through it live
 * on (e.g. exported DMABUFs).
 *
 * Context: process context, may sleep.
 * Return: the port, or an ERR_PTR(): -EINVAL for a bad alignment or a
 * kind that is too long (more than 16 characters), -ENOMEM.
 */
struct device *vb2_cma_port_create(struct device *dev, const char *kind,
				   unsigned long alignment);

/**
 * vb2_cma_port_destroy() - unregister a memory port
 * @port: a port from vb2_cma_port_create(), or NULL or an ERR_PTR() (then
 *        nothing is done).
 *
 * The port's memory goes when its last buffer does.
 */
void vb2_cma_port_destroy(struct device *port);

/**
 * devm_vb2_cma_port_create() - vb2_cma_port_create(), destroyed on unbind
 * @dev:       as for vb2_cma_port_create(); also the devres owner.
 * @kind:      as for vb2_cma_port_create().
 * @alignment: as for vb2_cma_port_create().
 *
 * Return: as vb2_cma_port_create().
 */
struct device *devm_vb2_cma_port_create(struct device *dev, const char *kind,
					unsigned long alignment);

/**
 * vb2_cma_plane_dma_addr() - the address the device uses for a plane
 * @vb:       the buffer.
 * @plane_no: the plane.
 *
 * For a buffer allocated by vb2-cma this is the physical address
 * cma_alloc() returned (the SoC has no IOMMU and no DMA offset; vb2-cma
 * refuses memory for which that is not so); for an imported DMABUF it is
 * the start of the contiguous mapping for the importing device.
 */
static inline dma_addr_t vb2_cma_plane_dma_addr(struct vb2_buffer *vb,
						unsigned int plane_no)
{
	dma_addr_t *addr = vb2_plane_cookie(vb, plane_no);

	return *addr;
}

#endif /* _VB2_CMA_H */
