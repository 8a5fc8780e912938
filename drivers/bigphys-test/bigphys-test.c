// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bigphys-test: uses bigphysarea the way a 2004 frame grabber driver did.
 *
 * At load it grabs a frame buffer of `pages' pages aligned to `align'
 * pages with bigphysarea_alloc_pages() and keeps it until unload, as
 * such drivers did; it also takes and gives back a small buffer with the
 * old interface (bigphysarea_alloc(), bigphysarea_free()), writes a
 * pattern into every page of both through the returned kernel virtual
 * addresses and reads it back, and frees two addresses it never got from
 * the area (each must give one warning line, nothing else).  Every step
 * logs one "bigphys-test: ..." line; a failed step makes the load fail.
 * (printk(KERN_...) rather than pr_*() on purpose, as then; checkpatch's
 * only remarks on this file are about that.)
 */

#include <linux/bigphysarea.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>

static int pages = 16;
module_param(pages, int, 0444);
MODULE_PARM_DESC(pages, "frame buffer size in pages (kept while loaded)");
static int align = 4;
module_param(align, int, 0444);
MODULE_PARM_DESC(align, "frame buffer alignment in pages");
static int small = 10000;
module_param(small, int, 0444);
MODULE_PARM_DESC(small, "bytes taken and given back with bigphysarea_alloc()");

static caddr_t frame;

/* Write a pattern depending on the offset and @seed, read it back. */
static int pattern(caddr_t buf, unsigned long len, u8 seed)
{
	unsigned long i;

	for (i = 0; i < len; i++)
		buf[i] = (u8)(i ^ (i >> 8) ^ seed);
	for (i = 0; i < len; i++)
		if ((u8)buf[i] != (u8)(i ^ (i >> 8) ^ seed)) {
			printk(KERN_ERR "bigphys-test: mismatch at +%#lx\n", i);
			return -EIO;
		}
	return 0;
}

static int __init bigphys_test_init(void)
{
	unsigned long phys, step = (unsigned long)(align > 1 ? align : 1) * PAGE_SIZE;
	caddr_t buf;
	void *other;

	frame = bigphysarea_alloc_pages(pages, align, GFP_KERNEL);
	if (!frame) {
		printk(KERN_ERR "bigphys-test: bigphysarea_alloc_pages(%d, %d) failed\n",
		       pages, align);
		return -ENOMEM;
	}
	phys = virt_to_phys(frame);
	if (phys & (step - 1)) {
		printk(KERN_ERR "bigphys-test: frame at %#lx not aligned to %#lx\n",
		       phys, step);
		goto fail;
	}
	if (pattern(frame, (unsigned long)pages * PAGE_SIZE, 0x5a))
		goto fail;
	printk(KERN_INFO "bigphys-test: frame: %d pages at %#lx, aligned to %#lx, pattern ok\n",
	       pages, phys, step);

	buf = bigphysarea_alloc(small);
	if (!buf) {
		printk(KERN_ERR "bigphys-test: bigphysarea_alloc(%d) failed\n", small);
		goto fail;
	}
	if (offset_in_page(buf) || pattern(buf, small, 0xa5)) {
		printk(KERN_ERR "bigphys-test: small buffer at %#lx is bad\n",
		       (unsigned long)virt_to_phys(buf));
		bigphysarea_free(buf, small);
		goto fail;
	}
	printk(KERN_INFO "bigphys-test: small: %d bytes at %#lx, pattern ok\n",
	       small, (unsigned long)virt_to_phys(buf));
	bigphysarea_free(buf, small);

	/* Two frees of addresses that are not (or no longer) allocated. */
	printk(KERN_INFO "bigphys-test: freeing the small buffer again\n");
	bigphysarea_free(buf, small);
	other = kmalloc(64, GFP_KERNEL);
	printk(KERN_INFO "bigphys-test: freeing a kmalloc() address\n");
	bigphysarea_free_pages(other);
	kfree(other);

	printk(KERN_INFO "bigphys-test: loaded\n");
	return 0;
fail:
	bigphysarea_free_pages(frame);
	return -EIO;
}

static void __exit bigphys_test_exit(void)
{
	bigphysarea_free_pages(frame);
	printk(KERN_INFO "bigphys-test: frame freed, unloaded\n");
}

module_init(bigphys_test_init);
module_exit(bigphys_test_exit);
MODULE_DESCRIPTION("bigphysarea test: a 2004-style frame buffer user");
MODULE_LICENSE("GPL");
