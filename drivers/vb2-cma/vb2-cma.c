// SPDX-License-Identifier: GPL-2.0
/*
 * vb2-cma: a videobuf2 memory allocator on the region-based Contiguous
 * Memory Allocator (cma_alloc()/cma_put(), CONFIG_CMA_REGIONS).
 *
 * Each MMAP plane is one chunk from cma_alloc(device, kind, size,
 * alignment), where (device, kind, alignment) come from the plane's
 * alloc_dev: a memory port (vb2_cma_port_create()) or a plain device.
 * The chunk is zeroed, mapped for DMA by the device (one scatterlist
 * entry, DMA_BIDIRECTIONAL so that the zeroes are cleaned to memory; the
 * DMA address must be the physical address, as on the S5PV210, which has
 * no IOMMU) and kept in the kernel's cacheable linear map.  User
 * mappings are cacheable too: caches are cleaned/invalidated for the
 * device at buf_prepare and for the CPU at buf_finish in the queue's
 * direction, and around CPU access to an exported DMABUF in the direction
 * of that access.
 *
 * Imported DMABUFs are mapped for the device and accepted only if the
 * mapping is one contiguous range of at least the plane's size (without an
 * IOMMU: physically contiguous) starting at the port's alignment.
 *
 * debugfs vb2-cma/buffers lists the live buffers, one per line:
 *
 *   <port> kind=<kind|-> mmap dma=0x<addr> size=0x<size> refs=<n>
 *   <port> kind=<kind|-> dmabuf dma=0x<addr|-> size=0x<size>
 *
 * where <port> is the name of the alloc_dev (e.g. "fb200000.camera:y").
 */

#include <linux/cma.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/scatterlist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include <media/videobuf2-memops.h>
#include <media/videobuf2-v4l2.h>

#include "vb2-cma.h"

#define VB2_CMA_KIND_MAX	16

/* A memory port: the child device that alloc_devs[] points to */
struct vb2_cma_port {
	struct device dev;
	struct device *parent;		/* the device doing the DMA (held) */
	unsigned long alignment;
	char kind[VB2_CMA_KIND_MAX + 1];
};

struct vb2_cma_buf {
	struct device *port;		/* alloc_dev (held) */
	struct device *dev;		/* the device doing the DMA (held) */
	const char *kind;		/* NULL: the empty kind */
	unsigned long alignment;
	unsigned long size;
	enum dma_data_direction dma_dir;
	dma_addr_t dma_addr;
	void *vaddr;
	struct vb2_buffer *vb;
	struct list_head list;		/* vb2_cma_buffers */

	/* MMAP */
	unsigned long paddr;		/* the chunk */
	struct sg_table sgt;		/* the chunk, mapped for @dev (BIDIRECTIONAL) */
	struct vb2_vmarea_handler handler;
	refcount_t refcount;

	/* DMABUF import */
	struct dma_buf_attachment *db_attach;
	struct sg_table *dma_sgt;
};

static LIST_HEAD(vb2_cma_buffers);
static DEFINE_MUTEX(vb2_cma_lock);
static struct dentry *vb2_cma_debugfs;

/*********************************************/
/*               memory ports                */
/*********************************************/

static void vb2_cma_port_release(struct device *dev)
{
	struct vb2_cma_port *port = container_of(dev, struct vb2_cma_port, dev);

	put_device(port->parent);
	kfree(port);
}

static const struct device_type vb2_cma_port_type = {
	.name = "vb2-cma-port",
	.release = vb2_cma_port_release,
};

struct device *vb2_cma_port_create(struct device *dev, const char *kind,
				   unsigned long alignment)
{
	struct vb2_cma_port *port;
	int ret;

	kind = kind ?: "";
	if (!dev || strlen(kind) > VB2_CMA_KIND_MAX ||
	    (alignment & (alignment - 1)))
		return ERR_PTR(-EINVAL);

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return ERR_PTR(-ENOMEM);
	strscpy(port->kind, kind, sizeof(port->kind));
	port->alignment = alignment;
	port->parent = get_device(dev);

	device_initialize(&port->dev);
	port->dev.parent = dev;
	port->dev.type = &vb2_cma_port_type;
	ret = dev_set_name(&port->dev, "%s:%s", dev_name(dev), kind);
	if (!ret)
		ret = device_add(&port->dev);
	if (ret) {
		put_device(&port->dev);
		return ERR_PTR(ret);
	}
	return &port->dev;
}
EXPORT_SYMBOL_GPL(vb2_cma_port_create);

void vb2_cma_port_destroy(struct device *port)
{
	if (IS_ERR_OR_NULL(port))
		return;
	if (WARN_ON(port->type != &vb2_cma_port_type))
		return;
	device_unregister(port);
}
EXPORT_SYMBOL_GPL(vb2_cma_port_destroy);

static void vb2_cma_port_destroy_action(void *port)
{
	vb2_cma_port_destroy(port);
}

struct device *devm_vb2_cma_port_create(struct device *dev, const char *kind,
					unsigned long alignment)
{
	struct device *port = vb2_cma_port_create(dev, kind, alignment);
	int ret;

	if (IS_ERR(port))
		return port;
	ret = devm_add_action_or_reset(dev, vb2_cma_port_destroy_action, port);
	return ret ? ERR_PTR(ret) : port;
}
EXPORT_SYMBOL_GPL(devm_vb2_cma_port_create);

/*
 * Fill in @buf's port, DMA device, kind and alignment from an alloc_dev;
 * takes references on both devices.
 */
static void vb2_cma_buf_set_port(struct vb2_cma_buf *buf, struct device *dev)
{
	buf->port = get_device(dev);
	if (dev->type == &vb2_cma_port_type) {
		struct vb2_cma_port *port =
			container_of(dev, struct vb2_cma_port, dev);

		buf->dev = get_device(port->parent);
		buf->kind = port->kind[0] ? port->kind : NULL;
		buf->alignment = port->alignment;
	} else {
		buf->dev = get_device(dev);
	}
}

static void vb2_cma_buf_free(struct vb2_cma_buf *buf)
{
	put_device(buf->dev);
	put_device(buf->port);
	kfree(buf);
}

static void vb2_cma_list_add(struct vb2_cma_buf *buf)
{
	mutex_lock(&vb2_cma_lock);
	list_add_tail(&buf->list, &vb2_cma_buffers);
	mutex_unlock(&vb2_cma_lock);
}

static void vb2_cma_list_del(struct vb2_cma_buf *buf)
{
	mutex_lock(&vb2_cma_lock);
	list_del(&buf->list);
	mutex_unlock(&vb2_cma_lock);
}

/*********************************************/
/*         callbacks for all buffers         */
/*********************************************/

static void *vb2_cma_cookie(struct vb2_buffer *vb, void *buf_priv)
{
	struct vb2_cma_buf *buf = buf_priv;

	return &buf->dma_addr;
}

static void *vb2_cma_vaddr(struct vb2_buffer *vb, void *buf_priv)
{
	struct vb2_cma_buf *buf = buf_priv;
	struct iosys_map map;

	if (!buf->vaddr && buf->db_attach &&
	    !dma_buf_vmap(buf->db_attach->dmabuf, &map))
		buf->vaddr = map.vaddr;
	return buf->vaddr;
}

static unsigned int vb2_cma_num_users(void *buf_priv)
{
	struct vb2_cma_buf *buf = buf_priv;

	return refcount_read(&buf->refcount);
}

static void vb2_cma_prepare(void *buf_priv)
{
	struct vb2_cma_buf *buf = buf_priv;

	/* DMABUF buffers are the exporter's business (and always skipped) */
	if (buf->db_attach || buf->vb->skip_cache_sync_on_prepare)
		return;
	dma_sync_sgtable_for_device(buf->dev, &buf->sgt, buf->dma_dir);
}

static void vb2_cma_finish(void *buf_priv)
{
	struct vb2_cma_buf *buf = buf_priv;

	if (buf->db_attach || buf->vb->skip_cache_sync_on_finish)
		return;
	dma_sync_sgtable_for_cpu(buf->dev, &buf->sgt, buf->dma_dir);
}

/*********************************************/
/*        callbacks for MMAP buffers         */
/*********************************************/

static void vb2_cma_put(void *buf_priv)
{
	struct vb2_cma_buf *buf = buf_priv;
	int ret;

	if (!refcount_dec_and_test(&buf->refcount))
		return;

	vb2_cma_list_del(buf);
	dma_unmap_sgtable(buf->dev, &buf->sgt, DMA_BIDIRECTIONAL,
			  DMA_ATTR_SKIP_CPU_SYNC);
	sg_free_table(&buf->sgt);
	memunmap(buf->vaddr);
	ret = cma_put(buf->paddr);
	if (ret != 1)
		dev_warn(buf->dev, "cma_put(%#lx) = %d: chunk not freed\n",
			 buf->paddr, ret);
	vb2_cma_buf_free(buf);
}

static void *vb2_cma_alloc(struct vb2_buffer *vb, struct device *dev,
			   unsigned long size)
{
	struct vb2_cma_buf *buf;
	unsigned long paddr;
	int ret;

	if (WARN_ON(!dev) || !size)
		return ERR_PTR(-EINVAL);

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	vb2_cma_buf_set_port(buf, dev);
	buf->vb = vb;
	buf->dma_dir = vb->vb2_queue->dma_dir;
	buf->size = PAGE_ALIGN(size);

	paddr = cma_alloc(buf->dev, buf->kind, buf->size, buf->alignment);
	if (IS_ERR_VALUE(paddr)) {
		ret = (long)paddr;
		dev_dbg(buf->dev, "cma_alloc(%s, %s, %#lx, %#lx) = %d\n",
			dev_name(buf->dev), buf->kind ?: "", buf->size,
			buf->alignment, ret);
		goto err_free;
	}
	buf->paddr = paddr;

	/* The memory must have struct pages and a kernel mapping. */
	if (!pfn_valid(PHYS_PFN(paddr)) ||
	    !pfn_valid(PHYS_PFN(paddr + buf->size - 1))) {
		dev_err(buf->dev, "CMA chunk %#lx+%#lx is not in the memory map\n",
			paddr, buf->size);
		ret = -EINVAL;
		goto err_put;
	}
	buf->vaddr = memremap(paddr, buf->size, MEMREMAP_WB);
	if (!buf->vaddr) {
		ret = -ENOMEM;
		goto err_put;
	}
	/* Never hand out what the chunk's previous user left in it. */
	memset(buf->vaddr, 0, buf->size);

	/* One segment: the device must take it whole (dma_set_max_seg_size()). */
	if (buf->size > dma_get_max_seg_size(buf->dev)) {
		dev_err(buf->dev, "a %lu-byte buffer is one DMA segment, over the device's limit of %u bytes: raise it with dma_set_max_seg_size() in probe\n",
			buf->size, dma_get_max_seg_size(buf->dev));
		ret = -EINVAL;
		goto err_unmap;
	}
	ret = sg_alloc_table(&buf->sgt, 1, GFP_KERNEL);
	if (ret)
		goto err_unmap;
	sg_set_page(buf->sgt.sgl, pfn_to_page(PHYS_PFN(paddr)), buf->size, 0);
	/*
	 * Mapped DMA_BIDIRECTIONAL, whatever the queue's direction: the
	 * mapping cleans the zeroes from the CPU caches to memory (on ARM a
	 * DMA_FROM_DEVICE mapping invalidates instead, and the dirty lines
	 * holding the zeroes would be discarded: the device and, through a
	 * later invalidation, user space would see the previous owner's
	 * data).  The syncs at buf_prepare/buf_finish use the queue's
	 * direction, and begin/end_cpu_access the one they are given, which a
	 * bidirectional mapping allows.
	 */
	ret = dma_map_sgtable(buf->dev, &buf->sgt, DMA_BIDIRECTIONAL, 0);
	if (ret)
		goto err_sgt;
	buf->dma_addr = sg_dma_address(buf->sgt.sgl);
	if (buf->sgt.nents != 1 || buf->dma_addr != paddr) {
		dev_err(buf->dev, "CMA chunk %#lx is at DMA address %pad: the device must see physical addresses\n",
			paddr, &buf->dma_addr);
		ret = -EINVAL;
		goto err_dma;
	}

	buf->handler.refcount = &buf->refcount;
	buf->handler.put = vb2_cma_put;
	buf->handler.arg = buf;
	refcount_set(&buf->refcount, 1);
	vb2_cma_list_add(buf);
	return buf;

err_dma:
	dma_unmap_sgtable(buf->dev, &buf->sgt, DMA_BIDIRECTIONAL,
			  DMA_ATTR_SKIP_CPU_SYNC);
err_sgt:
	sg_free_table(&buf->sgt);
err_unmap:
	memunmap(buf->vaddr);
err_put:
	cma_put(paddr);
err_free:
	vb2_cma_buf_free(buf);
	return ERR_PTR(ret);
}

static int vb2_cma_mmap(void *buf_priv, struct vm_area_struct *vma)
{
	struct vb2_cma_buf *buf = buf_priv;
	unsigned long len = vma->vm_end - vma->vm_start;
	int ret;

	if (!buf || buf->db_attach)
		return -EINVAL;
	if (vma->vm_pgoff >= buf->size >> PAGE_SHIFT ||
	    len > buf->size - (vma->vm_pgoff << PAGE_SHIFT))
		return -EINVAL;

	ret = remap_pfn_range(vma, vma->vm_start,
			      PHYS_PFN(buf->paddr) + vma->vm_pgoff, len,
			      vma->vm_page_prot);
	if (ret)
		return ret;

	vma->vm_flags |= VM_DONTEXPAND | VM_DONTDUMP;
	vma->vm_private_data = &buf->handler;
	vma->vm_ops = &vb2_common_vm_ops;
	vma->vm_ops->open(vma);
	return 0;
}

/*********************************************/
/*         DMABUF ops for exporters          */
/*********************************************/

struct vb2_cma_attachment {
	struct sg_table sgt;
	enum dma_data_direction dma_dir;
};

static int vb2_cma_dmabuf_ops_attach(struct dma_buf *dbuf,
				     struct dma_buf_attachment *db_attach)
{
	struct vb2_cma_buf *buf = dbuf->priv;
	struct vb2_cma_attachment *attach;

	attach = kzalloc(sizeof(*attach), GFP_KERNEL);
	if (!attach)
		return -ENOMEM;
	/* A table of its own: one table cannot be mapped for two devices. */
	if (sg_alloc_table(&attach->sgt, 1, GFP_KERNEL)) {
		kfree(attach);
		return -ENOMEM;
	}
	sg_set_page(attach->sgt.sgl, sg_page(buf->sgt.sgl), buf->size, 0);
	attach->dma_dir = DMA_NONE;
	db_attach->priv = attach;
	return 0;
}

static void vb2_cma_dmabuf_ops_detach(struct dma_buf *dbuf,
				      struct dma_buf_attachment *db_attach)
{
	struct vb2_cma_attachment *attach = db_attach->priv;

	if (!attach)
		return;
	if (attach->dma_dir != DMA_NONE)
		dma_unmap_sgtable(db_attach->dev, &attach->sgt, attach->dma_dir,
				  DMA_ATTR_SKIP_CPU_SYNC);
	sg_free_table(&attach->sgt);
	kfree(attach);
	db_attach->priv = NULL;
}

static struct sg_table *
vb2_cma_dmabuf_ops_map(struct dma_buf_attachment *db_attach,
		       enum dma_data_direction dma_dir)
{
	struct vb2_cma_attachment *attach = db_attach->priv;
	/*
	 * Linux 6.2 removes dma_buf.lock (the core then calls map/unmap
	 * with the reservation lock held, dma_resv_assert_held()): on the
	 * next kernel drop this mutex, as videobuf2-dma-contig does there.
	 */
	struct mutex *lock = &db_attach->dmabuf->lock;
	struct sg_table *sgt = &attach->sgt;

	mutex_lock(lock);
	if (attach->dma_dir == dma_dir) {
		mutex_unlock(lock);
		return sgt;
	}
	if (attach->dma_dir != DMA_NONE) {
		dma_unmap_sgtable(db_attach->dev, sgt, attach->dma_dir,
				  DMA_ATTR_SKIP_CPU_SYNC);
		attach->dma_dir = DMA_NONE;
	}
	/*
	 * The caches are synchronised by the exporting queue (buf_prepare/
	 * buf_finish) and by begin/end_cpu_access, not at every mapping.
	 */
	if (dma_map_sgtable(db_attach->dev, sgt, dma_dir,
			    DMA_ATTR_SKIP_CPU_SYNC)) {
		mutex_unlock(lock);
		return ERR_PTR(-EIO);
	}
	attach->dma_dir = dma_dir;
	mutex_unlock(lock);
	return sgt;
}

static void vb2_cma_dmabuf_ops_unmap(struct dma_buf_attachment *db_attach,
				     struct sg_table *sgt,
				     enum dma_data_direction dma_dir)
{
	/* Kept mapped until detach, as vb2-dma-contig does. */
}

static void vb2_cma_dmabuf_ops_release(struct dma_buf *dbuf)
{
	vb2_cma_put(dbuf->priv);
}

/*
 * DMA_BUF_IOCTL_SYNC: @dir is what the CPU does (DMA_FROM_DEVICE: reads,
 * DMA_TO_DEVICE: writes, DMA_BIDIRECTIONAL: both), which need not be the
 * exporting queue's direction: a CAPTURE buffer the CPU writes into must
 * be cleaned at the end, not invalidated (which would drop the writes).
 */
static int vb2_cma_dmabuf_ops_begin_cpu_access(struct dma_buf *dbuf,
					       enum dma_data_direction dir)
{
	struct vb2_cma_buf *buf = dbuf->priv;

	dma_sync_sgtable_for_cpu(buf->dev, &buf->sgt, dir);
	return 0;
}

static int vb2_cma_dmabuf_ops_end_cpu_access(struct dma_buf *dbuf,
					     enum dma_data_direction dir)
{
	struct vb2_cma_buf *buf = dbuf->priv;

	dma_sync_sgtable_for_device(buf->dev, &buf->sgt, dir);
	return 0;
}

static int vb2_cma_dmabuf_ops_vmap(struct dma_buf *dbuf,
				   struct iosys_map *map)
{
	struct vb2_cma_buf *buf = dbuf->priv;

	iosys_map_set_vaddr(map, buf->vaddr);
	return 0;
}

static int vb2_cma_dmabuf_ops_mmap(struct dma_buf *dbuf,
				   struct vm_area_struct *vma)
{
	return vb2_cma_mmap(dbuf->priv, vma);
}

static const struct dma_buf_ops vb2_cma_dmabuf_ops = {
	.attach = vb2_cma_dmabuf_ops_attach,
	.detach = vb2_cma_dmabuf_ops_detach,
	.map_dma_buf = vb2_cma_dmabuf_ops_map,
	.unmap_dma_buf = vb2_cma_dmabuf_ops_unmap,
	.begin_cpu_access = vb2_cma_dmabuf_ops_begin_cpu_access,
	.end_cpu_access = vb2_cma_dmabuf_ops_end_cpu_access,
	.vmap = vb2_cma_dmabuf_ops_vmap,
	.mmap = vb2_cma_dmabuf_ops_mmap,
	.release = vb2_cma_dmabuf_ops_release,
};

static struct dma_buf *vb2_cma_get_dmabuf(struct vb2_buffer *vb,
					  void *buf_priv, unsigned long flags)
{
	struct vb2_cma_buf *buf = buf_priv;
	struct dma_buf *dbuf;
	DEFINE_DMA_BUF_EXPORT_INFO(exp_info);

	exp_info.ops = &vb2_cma_dmabuf_ops;
	exp_info.size = buf->size;
	exp_info.flags = flags;
	exp_info.priv = buf;

	dbuf = dma_buf_export(&exp_info);
	if (IS_ERR(dbuf))
		return NULL;
	/* The DMABUF holds the buffer (and so the chunk) */
	refcount_inc(&buf->refcount);
	return dbuf;
}

/*********************************************/
/*       callbacks for DMABUF importers      */
/*********************************************/

/* Bytes of @sgt that are contiguous in DMA space from its start */
static unsigned long vb2_cma_contiguous_size(struct sg_table *sgt)
{
	dma_addr_t expected = sg_dma_address(sgt->sgl);
	struct scatterlist *s;
	unsigned long size = 0;
	unsigned int i;

	for_each_sgtable_dma_sg(sgt, s, i) {
		if (sg_dma_address(s) != expected)
			break;
		expected += sg_dma_len(s);
		size += sg_dma_len(s);
	}
	return size;
}

static int vb2_cma_map_dmabuf(void *buf_priv)
{
	struct vb2_cma_buf *buf = buf_priv;
	struct sg_table *sgt;
	unsigned long contig;
	dma_addr_t addr;

	if (WARN_ON(!buf->db_attach) || WARN_ON(buf->dma_sgt))
		return -EINVAL;

	sgt = dma_buf_map_attachment(buf->db_attach, buf->dma_dir);
	if (IS_ERR(sgt)) {
		dev_dbg(buf->dev, "cannot map the DMABUF: %ld\n", PTR_ERR(sgt));
		return -EINVAL;
	}
	addr = sg_dma_address(sgt->sgl);
	contig = vb2_cma_contiguous_size(sgt);
	if (contig < buf->size) {
		dev_dbg(buf->dev, "DMABUF not contiguous: %#lx of %#lx bytes from %pad\n",
			contig, buf->size, &addr);
		goto err;
	}
	if (buf->alignment && (addr & (buf->alignment - 1))) {
		dev_dbg(buf->dev, "DMABUF at %pad is not %#lx aligned\n", &addr,
			buf->alignment);
		goto err;
	}
	buf->dma_sgt = sgt;
	buf->dma_addr = addr;
	buf->vaddr = NULL;
	return 0;

err:
	dma_buf_unmap_attachment(buf->db_attach, sgt, buf->dma_dir);
	return -EFAULT;
}

static void vb2_cma_unmap_dmabuf(void *buf_priv)
{
	struct vb2_cma_buf *buf = buf_priv;
	struct iosys_map map = IOSYS_MAP_INIT_VADDR(buf->vaddr);

	if (WARN_ON(!buf->db_attach) || WARN_ON(!buf->dma_sgt))
		return;
	if (buf->vaddr) {
		dma_buf_vunmap(buf->db_attach->dmabuf, &map);
		buf->vaddr = NULL;
	}
	dma_buf_unmap_attachment(buf->db_attach, buf->dma_sgt, buf->dma_dir);
	buf->dma_sgt = NULL;
	buf->dma_addr = 0;
}

static void vb2_cma_detach_dmabuf(void *buf_priv)
{
	struct vb2_cma_buf *buf = buf_priv;

	if (WARN_ON(buf->dma_sgt))
		vb2_cma_unmap_dmabuf(buf);
	vb2_cma_list_del(buf);
	dma_buf_detach(buf->db_attach->dmabuf, buf->db_attach);
	vb2_cma_buf_free(buf);
}

static void *vb2_cma_attach_dmabuf(struct vb2_buffer *vb, struct device *dev,
				   struct dma_buf *dbuf, unsigned long size)
{
	struct vb2_cma_buf *buf;
	struct dma_buf_attachment *dba;

	if (WARN_ON(!dev))
		return ERR_PTR(-EINVAL);
	if (dbuf->size < size)
		return ERR_PTR(-EFAULT);

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	vb2_cma_buf_set_port(buf, dev);
	buf->vb = vb;
	buf->dma_dir = vb->vb2_queue->dma_dir;
	buf->size = size;

	dba = dma_buf_attach(dbuf, buf->dev);
	if (IS_ERR(dba)) {
		vb2_cma_buf_free(buf);
		return dba;
	}
	buf->db_attach = dba;
	vb2_cma_list_add(buf);
	return buf;
}

const struct vb2_mem_ops vb2_cma_memops = {
	.alloc		= vb2_cma_alloc,
	.put		= vb2_cma_put,
	.get_dmabuf	= vb2_cma_get_dmabuf,
	.cookie		= vb2_cma_cookie,
	.vaddr		= vb2_cma_vaddr,
	.mmap		= vb2_cma_mmap,
	.prepare	= vb2_cma_prepare,
	.finish		= vb2_cma_finish,
	.map_dmabuf	= vb2_cma_map_dmabuf,
	.unmap_dmabuf	= vb2_cma_unmap_dmabuf,
	.attach_dmabuf	= vb2_cma_attach_dmabuf,
	.detach_dmabuf	= vb2_cma_detach_dmabuf,
	.num_users	= vb2_cma_num_users,
};
EXPORT_SYMBOL_GPL(vb2_cma_memops);

/*********************************************/
/*                  debugfs                  */
/*********************************************/

static int vb2_cma_buffers_show(struct seq_file *s, void *unused)
{
	struct vb2_cma_buf *buf;

	mutex_lock(&vb2_cma_lock);
	list_for_each_entry(buf, &vb2_cma_buffers, list) {
		seq_printf(s, "%s kind=%s ", dev_name(buf->port),
			   buf->kind ?: "-");
		if (buf->db_attach) {
			if (buf->dma_sgt)
				seq_printf(s, "dmabuf dma=%#010llx",
					   (unsigned long long)buf->dma_addr);
			else
				seq_puts(s, "dmabuf dma=-");
			seq_printf(s, " size=%#010lx\n", buf->size);
		} else {
			seq_printf(s, "mmap dma=%#010llx size=%#010lx refs=%u\n",
				   (unsigned long long)buf->dma_addr, buf->size,
				   refcount_read(&buf->refcount));
		}
	}
	mutex_unlock(&vb2_cma_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vb2_cma_buffers);

static int __init vb2_cma_init(void)
{
	vb2_cma_debugfs = debugfs_create_dir("vb2-cma", NULL);
	debugfs_create_file("buffers", 0444, vb2_cma_debugfs, NULL,
			    &vb2_cma_buffers_fops);
	return 0;
}
module_init(vb2_cma_init);

static void __exit vb2_cma_exit(void)
{
	debugfs_remove_recursive(vb2_cma_debugfs);
}
module_exit(vb2_cma_exit);

MODULE_DESCRIPTION("videobuf2 memory allocator on the Contiguous Memory Allocator (cma_alloc)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(DMA_BUF);
