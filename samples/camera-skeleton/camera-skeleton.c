// SPDX-License-Identifier: GPL-2.0
/*
 * camera-skeleton: a V4L2 capture driver for the emulated S5PV210 camera,
 * to copy and make your own (docs/v4l2-driver.md walks through it).
 *
 * It is the kernel's samples/v4l/v4l2-pci-skeleton.c brought to this
 * board: a platform driver for the device tree node compatible with
 * "qemu,s5pv210-camera", buffers from mainline videobuf2-dma-contig, and
 * the one thing this project adds: each plane's memory is allocated
 * through a per-kind child device (devm_cma_kind_device_create()), so
 * that cma_map= on the kernel command line decides which CMA region each
 * plane comes from, without a line of allocation code here.
 *
 * What it leaves out, for brevity: frame intervals (the camera runs at its
 * default 30 frames a second), the single-planar API, the test pattern
 * control.  drivers/camera/s5pv210-camera.c, the project's full driver
 * for the same block, has them.
 *
 * The block (QEMU's hw/misc/s5pv210_camera.c; registers in docs/camera.md):
 * software programs format, size and stride, then gives it up to four
 * buffers in a ring of "slots" (each slot: a physical address and length
 * per plane) and sets RUN.  Every frame interval the block writes a frame
 * into the next armed slot, disarms it and raises FRAME_DONE.  A frame due
 * while the next slot is not armed is dropped.  The block only does DMA:
 * every plane must be one physically contiguous buffer.
 */

#include <linux/cma.h>			/* devm_cma_kind_device_create() */
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/mod_devicetable.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include <media/v4l2-ctrls.h>
#include <media/v4l2-device.h>
#include <media/v4l2-event.h>
#include <media/v4l2-ioctl.h>
#include <media/videobuf2-dma-contig.h>
#include <media/videobuf2-v4l2.h>

#define SKEL_NAME	"camera-skeleton"

/* ---- The block's registers (docs/camera.md, "The QEMU device") ---- */
#define CAM_ID			0x000
#define CAM_CTRL		0x004
#define CAM_STATUS		0x008
#define CAM_SWRESET		0x00c
#define CAM_INT_STATUS		0x010
#define CAM_INT_ENABLE		0x014
#define CAM_ERROR		0x018
#define CAM_FRAME_COUNT		0x01c
#define CAM_FORMAT		0x024
#define CAM_WIDTH		0x028
#define CAM_HEIGHT		0x02c
#define CAM_STRIDE		0x030
#define CAM_BUF_STATUS		0x040
#define CAM_BUF_ARM		0x044
#define CAM_BUF_RELEASE		0x048
#define CAM_BUF_ERROR		0x04c
#define CAM_ADDR0(n)		(0x100 + 0x20 * (n))	/* plane 0 of slot n */
#define CAM_LEN0(n)		(0x104 + 0x20 * (n))
#define CAM_ADDR1(n)		(0x108 + 0x20 * (n))	/* plane 1 (NV12) */
#define CAM_LEN1(n)		(0x10c + 0x20 * (n))
#define CAM_SEQ(n)		(0x110 + 0x20 * (n))	/* its frame's number */

#define CAM_ID_VALUE		0x43414d01		/* "CAM", version 1 */
#define CTRL_RUN		BIT(0)
#define CTRL_HFLIP		BIT(1)
#define CTRL_VFLIP		BIT(2)
#define STATUS_RUNNING		BIT(0)
#define INT_FRAME_DONE		BIT(0)
#define INT_ERROR		BIT(2)
#define CAM_SLOTS		4
#define FRAME_NS		(NSEC_PER_SEC / 30)	/* the block's default */

/*
 * The formats: V4L2's fourcc, the block's FORMAT value, how many memory
 * buffers (V4L2 "planes") a frame takes, bytes per pixel in plane 0.
 * NV12M is NV12 with its chroma in a buffer of its own: that is what lets
 * cma_map= put luma and chroma in two different regions.
 */
struct skel_format {
	u32 fourcc;
	u32 hw_format;
	unsigned int planes;
	unsigned int bpp;
};

static const struct skel_format skel_formats[] = {
	{ V4L2_PIX_FMT_YUYV,  0, 1, 2 },
	{ V4L2_PIX_FMT_NV12M, 1, 2, 1 },
};

/*
 * The memory kinds: plane 0 is kind "y", plane 1 kind "c".  The kind is a
 * name this driver picks; cma_map= rules name it after the device:
 * "fb200000.camera/y=REGION".  (The same names as the project's driver:
 * the boards' default rule, every kind of fb200000.camera to region cam,
 * serves both.)
 */
static const char * const skel_kinds[] = { "y", "c" };

/* A vb2 buffer and the list it waits on until a slot is free */
struct skel_buffer {
	struct vb2_v4l2_buffer vb;	/* first: vb2 allocates this struct */
	struct list_head list;
};

struct skel {
	struct device *dev;
	void __iomem *regs;
	int irq;
	struct device *kind_dev[2];	/* "fb200000.camera:y", ":c" */

	struct v4l2_device v4l2_dev;
	struct video_device vdev;
	struct v4l2_ctrl_handler ctrls;
	struct vb2_queue queue;
	struct mutex lock;		/* serialises ioctls, vb2 and fops */

	struct v4l2_pix_format_mplane fmt;	/* set with S_FMT */
	const struct skel_format *sfmt;

	/* What the interrupt handler shares with the rest: under slock */
	spinlock_t slock;
	struct list_head pending;	/* queued, not yet in a slot */
	struct skel_buffer *slot[CAM_SLOTS];
	unsigned int head;		/* the oldest slot the block holds */
	unsigned int count;		/* how many slots it holds */
	u32 ctrl;			/* CTRL's flip bits */
	bool streaming;
};

static u32 skel_read(struct skel *skel, u32 reg)
{
	return readl(skel->regs + reg);
}

static void skel_write(struct skel *skel, u32 reg, u32 val)
{
	writel(val, skel->regs + reg);
}

/* ---- Formats: what TRY_FMT and S_FMT settle on ---- */

static const struct skel_format *skel_find_format(u32 fourcc)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(skel_formats); i++)
		if (skel_formats[i].fourcc == fourcc)
			return &skel_formats[i];
	return NULL;
}

/*
 * V4L2's rule: TRY_FMT never fails, it changes what the application asked
 * for into the nearest thing the device does.  The block takes 32x16 to
 * 1920x1080, widths a multiple of 8 (so lines are too), even heights.
 */
static const struct skel_format *skel_try_format(struct v4l2_pix_format_mplane *pix)
{
	const struct skel_format *f = skel_find_format(pix->pixelformat);
	u32 bpl;

	if (!f)
		f = &skel_formats[0];
	v4l_bound_align_image(&pix->width, 32, 1920, 3,
			      &pix->height, 16, 1080, 1, 0);
	bpl = pix->width * f->bpp;

	pix->pixelformat = f->fourcc;
	pix->field = V4L2_FIELD_NONE;
	pix->colorspace = V4L2_COLORSPACE_SMPTE170M;
	pix->ycbcr_enc = V4L2_YCBCR_ENC_601;
	pix->quantization = V4L2_QUANTIZATION_LIM_RANGE;
	pix->xfer_func = V4L2_XFER_FUNC_709;
	pix->flags = 0;
	pix->num_planes = f->planes;
	memset(pix->reserved, 0, sizeof(pix->reserved));
	memset(pix->plane_fmt, 0, sizeof(pix->plane_fmt));
	pix->plane_fmt[0].bytesperline = bpl;
	pix->plane_fmt[0].sizeimage = bpl * pix->height;
	if (f->planes == 2) {		/* NV12M: half as many chroma lines */
		pix->plane_fmt[1].bytesperline = bpl;
		pix->plane_fmt[1].sizeimage = bpl * pix->height / 2;
	}
	return f;
}

/* ---- The block: slots and the interrupt ---- */

/* Give queued buffers to free slots, in ring order.  slock held. */
static void skel_fill_slots(struct skel *skel)
{
	while (skel->count < CAM_SLOTS && !list_empty(&skel->pending)) {
		unsigned int n = (skel->head + skel->count) % CAM_SLOTS;
		struct skel_buffer *buf = list_first_entry(&skel->pending,
							   struct skel_buffer, list);
		struct vb2_buffer *vb = &buf->vb.vb2_buf;
		bool two;

		list_del(&buf->list);
		skel->slot[n] = buf;
		/*
		 * The DMA address of each plane: the physical address, since
		 * the block has no IOMMU.  vb2-dma-contig got the memory from
		 * the DMA API on the plane's kind device, so from the region
		 * cma_map= names for it.
		 */
		skel_write(skel, CAM_ADDR0(n), vb2_dma_contig_plane_dma_addr(vb, 0));
		skel_write(skel, CAM_LEN0(n), vb2_plane_size(vb, 0));
		two = skel->sfmt->planes == 2;
		skel_write(skel, CAM_ADDR1(n), two ? vb2_dma_contig_plane_dma_addr(vb, 1) : 0);
		skel_write(skel, CAM_LEN1(n), two ? vb2_plane_size(vb, 1) : 0);
		skel_write(skel, CAM_BUF_ARM, BIT(n));
		skel->count++;
	}
}

static irqreturn_t skel_irq(int irq, void *data)
{
	struct skel *skel = data;
	u32 status, armed, failed, newest;
	u64 now = ktime_get_ns();

	status = skel_read(skel, CAM_INT_STATUS);
	if (!status)
		return IRQ_NONE;
	skel_write(skel, CAM_INT_STATUS, status);	/* write 1 to clear */
	if (status & INT_ERROR)
		skel_write(skel, CAM_ERROR, skel_read(skel, CAM_ERROR));

	spin_lock(&skel->slock);
	armed = skel_read(skel, CAM_BUF_STATUS);
	failed = skel_read(skel, CAM_BUF_ERROR);
	newest = skel_read(skel, CAM_FRAME_COUNT) - 1;
	/* Every slot the block disarmed, oldest first, is a finished frame */
	while (skel->count && !(armed & BIT(skel->head))) {
		struct skel_buffer *buf = skel->slot[skel->head];
		bool bad = failed & BIT(skel->head);

		if (bad)
			skel_write(skel, CAM_BUF_ERROR, BIT(skel->head));
		skel->slot[skel->head] = NULL;
		buf->vb.sequence = skel_read(skel, CAM_SEQ(skel->head));
		buf->vb.field = V4L2_FIELD_NONE;
		/* One interrupt may end several frames: date each by its age */
		buf->vb.vb2_buf.timestamp = now - min_t(u64, now,
			(u64)min(newest - buf->vb.sequence, 16U) * FRAME_NS);
		vb2_buffer_done(&buf->vb.vb2_buf,
				bad ? VB2_BUF_STATE_ERROR : VB2_BUF_STATE_DONE);
		skel->head = (skel->head + 1) % CAM_SLOTS;
		skel->count--;
	}
	if (skel->streaming)
		skel_fill_slots(skel);
	spin_unlock(&skel->slock);
	return IRQ_HANDLED;
}

/* Stop the block and give every buffer back to vb2.  slock held. */
static void skel_stop_locked(struct skel *skel, enum vb2_buffer_state state)
{
	struct skel_buffer *buf, *tmp;
	unsigned int n;

	skel->streaming = false;
	skel_write(skel, CAM_CTRL, 0);
	skel_write(skel, CAM_BUF_RELEASE, GENMASK(CAM_SLOTS - 1, 0));
	skel_write(skel, CAM_INT_ENABLE, 0);
	for (n = 0; n < CAM_SLOTS; n++) {
		if (skel->slot[n])
			vb2_buffer_done(&skel->slot[n]->vb.vb2_buf, state);
		skel->slot[n] = NULL;
	}
	skel->head = skel->count = 0;
	list_for_each_entry_safe(buf, tmp, &skel->pending, list) {
		list_del(&buf->list);
		vb2_buffer_done(&buf->vb.vb2_buf, state);
	}
}

/* ---- videobuf2: buffers ---- */

/*
 * How many planes and how large, and -- the line that places the memory --
 * which device allocates each plane: its kind device.
 */
static int skel_queue_setup(struct vb2_queue *q, unsigned int *nbuffers,
			    unsigned int *nplanes, unsigned int sizes[],
			    struct device *alloc_devs[])
{
	struct skel *skel = vb2_get_drv_priv(q);
	unsigned int p;

	if (*nplanes) {		/* CREATE_BUFS: check the sizes asked for */
		if (*nplanes != skel->fmt.num_planes)
			return -EINVAL;
		for (p = 0; p < *nplanes; p++)
			if (sizes[p] < skel->fmt.plane_fmt[p].sizeimage)
				return -EINVAL;
	} else {		/* REQBUFS: the current format's */
		*nplanes = skel->fmt.num_planes;
		for (p = 0; p < *nplanes; p++)
			sizes[p] = skel->fmt.plane_fmt[p].sizeimage;
	}
	for (p = 0; p < *nplanes; p++)
		alloc_devs[p] = skel->kind_dev[p];
	return 0;
}

static int skel_buf_prepare(struct vb2_buffer *vb)
{
	struct skel *skel = vb2_get_drv_priv(vb->vb2_queue);
	unsigned int p;

	for (p = 0; p < skel->fmt.num_planes; p++) {
		unsigned long size = skel->fmt.plane_fmt[p].sizeimage;

		if (vb2_plane_size(vb, p) < size)
			return -EINVAL;
		/* the block writes whole frames, 8-byte aligned (DMABUF) */
		if (vb2_dma_contig_plane_dma_addr(vb, p) & 7)
			return -EINVAL;
		vb2_set_plane_payload(vb, p, size);
	}
	return 0;
}

static void skel_buf_queue(struct vb2_buffer *vb)
{
	struct skel *skel = vb2_get_drv_priv(vb->vb2_queue);
	struct skel_buffer *buf = container_of(to_vb2_v4l2_buffer(vb),
					       struct skel_buffer, vb);
	unsigned long flags;

	spin_lock_irqsave(&skel->slock, flags);
	list_add_tail(&buf->list, &skel->pending);
	if (skel->streaming)
		skel_fill_slots(skel);
	spin_unlock_irqrestore(&skel->slock, flags);
}

static int skel_start_streaming(struct vb2_queue *q, unsigned int count)
{
	struct skel *skel = vb2_get_drv_priv(q);
	unsigned long flags;
	bool running;

	spin_lock_irqsave(&skel->slock, flags);
	skel_write(skel, CAM_FORMAT, skel->sfmt->hw_format);
	skel_write(skel, CAM_WIDTH, skel->fmt.width);
	skel_write(skel, CAM_HEIGHT, skel->fmt.height);
	skel_write(skel, CAM_STRIDE, skel->fmt.plane_fmt[0].bytesperline);
	skel_write(skel, CAM_ERROR, skel_read(skel, CAM_ERROR));
	skel_write(skel, CAM_BUF_ERROR, GENMASK(CAM_SLOTS - 1, 0));
	skel_write(skel, CAM_INT_STATUS, INT_FRAME_DONE | INT_ERROR);
	skel_write(skel, CAM_INT_ENABLE, INT_FRAME_DONE | INT_ERROR);
	skel->head = skel->count = 0;
	skel->streaming = true;
	skel_fill_slots(skel);
	skel_write(skel, CAM_CTRL, CTRL_RUN | skel->ctrl);
	running = skel_read(skel, CAM_STATUS) & STATUS_RUNNING;
	if (!running)	/* vb2's rule: on failure, buffers back as QUEUED */
		skel_stop_locked(skel, VB2_BUF_STATE_QUEUED);
	spin_unlock_irqrestore(&skel->slock, flags);
	if (!running) {
		dev_err(skel->dev, "the camera did not start (ERROR %#x)\n",
			skel_read(skel, CAM_ERROR));
		return -EIO;
	}
	return 0;
}

static void skel_stop_streaming(struct vb2_queue *q)
{
	struct skel *skel = vb2_get_drv_priv(q);
	unsigned long flags;

	spin_lock_irqsave(&skel->slock, flags);
	skel_stop_locked(skel, VB2_BUF_STATE_ERROR);
	spin_unlock_irqrestore(&skel->slock, flags);
	synchronize_irq(skel->irq);	/* no handler still looking */
}

static const struct vb2_ops skel_vb2_ops = {
	.queue_setup = skel_queue_setup,
	.buf_prepare = skel_buf_prepare,
	.buf_queue = skel_buf_queue,
	.start_streaming = skel_start_streaming,
	.stop_streaming = skel_stop_streaming,
	.wait_prepare = vb2_ops_wait_prepare,	/* they drop and take q->lock */
	.wait_finish = vb2_ops_wait_finish,
};

/* ---- Controls: horizontal and vertical flip, from the next frame on ---- */

static int skel_s_ctrl(struct v4l2_ctrl *ctrl)
{
	struct skel *skel = container_of(ctrl->handler, struct skel, ctrls);
	u32 bit = ctrl->id == V4L2_CID_HFLIP ? CTRL_HFLIP : CTRL_VFLIP;
	unsigned long flags;

	spin_lock_irqsave(&skel->slock, flags);
	skel->ctrl = ctrl->val ? skel->ctrl | bit : skel->ctrl & ~bit;
	if (skel->streaming)
		skel_write(skel, CAM_CTRL, CTRL_RUN | skel->ctrl);
	spin_unlock_irqrestore(&skel->slock, flags);
	return 0;
}

static const struct v4l2_ctrl_ops skel_ctrl_ops = {
	.s_ctrl = skel_s_ctrl,
};

/* ---- ioctls ---- */

static int skel_querycap(struct file *file, void *priv,
			 struct v4l2_capability *cap)
{
	struct skel *skel = video_drvdata(file);

	strscpy(cap->driver, SKEL_NAME, sizeof(cap->driver));
	strscpy(cap->card, "S5PV210 camera (skeleton)", sizeof(cap->card));
	snprintf(cap->bus_info, sizeof(cap->bus_info), "platform:%s",
		 dev_name(skel->dev));
	return 0;
}

static int skel_enum_fmt(struct file *file, void *priv, struct v4l2_fmtdesc *f)
{
	if (f->index >= ARRAY_SIZE(skel_formats))
		return -EINVAL;
	f->pixelformat = skel_formats[f->index].fourcc;	/* the core names it */
	return 0;
}

static int skel_g_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct skel *skel = video_drvdata(file);

	f->fmt.pix_mp = skel->fmt;
	return 0;
}

static int skel_try_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	skel_try_format(&f->fmt.pix_mp);
	return 0;
}

static int skel_s_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct skel *skel = video_drvdata(file);
	const struct skel_format *sfmt = skel_try_format(&f->fmt.pix_mp);

	if (vb2_is_busy(&skel->queue))	/* buffers exist: too late */
		return -EBUSY;
	skel->sfmt = sfmt;
	skel->fmt = f->fmt.pix_mp;
	return 0;
}

static int skel_enum_framesizes(struct file *file, void *priv,
				struct v4l2_frmsizeenum *fs)
{
	if (fs->index || !skel_find_format(fs->pixel_format))
		return -EINVAL;
	fs->type = V4L2_FRMSIZE_TYPE_STEPWISE;
	fs->stepwise = (struct v4l2_frmsize_stepwise){ 32, 1920, 8, 16, 1080, 2 };
	return 0;
}

static int skel_enum_input(struct file *file, void *priv, struct v4l2_input *i)
{
	if (i->index)
		return -EINVAL;
	i->type = V4L2_INPUT_TYPE_CAMERA;
	strscpy(i->name, "Test pattern", sizeof(i->name));
	return 0;
}

static int skel_g_input(struct file *file, void *priv, unsigned int *i)
{
	*i = 0;
	return 0;
}

static int skel_s_input(struct file *file, void *priv, unsigned int i)
{
	return i ? -EINVAL : 0;
}

static const struct v4l2_ioctl_ops skel_ioctl_ops = {
	.vidioc_querycap = skel_querycap,
	.vidioc_enum_fmt_vid_cap = skel_enum_fmt,
	.vidioc_g_fmt_vid_cap_mplane = skel_g_fmt,
	.vidioc_try_fmt_vid_cap_mplane = skel_try_fmt,
	.vidioc_s_fmt_vid_cap_mplane = skel_s_fmt,
	.vidioc_enum_framesizes = skel_enum_framesizes,
	.vidioc_enum_input = skel_enum_input,
	.vidioc_g_input = skel_g_input,
	.vidioc_s_input = skel_s_input,

	/* vb2 does the buffer ioctls */
	.vidioc_reqbufs = vb2_ioctl_reqbufs,
	.vidioc_create_bufs = vb2_ioctl_create_bufs,
	.vidioc_prepare_buf = vb2_ioctl_prepare_buf,
	.vidioc_querybuf = vb2_ioctl_querybuf,
	.vidioc_qbuf = vb2_ioctl_qbuf,
	.vidioc_dqbuf = vb2_ioctl_dqbuf,
	.vidioc_expbuf = vb2_ioctl_expbuf,
	.vidioc_streamon = vb2_ioctl_streamon,
	.vidioc_streamoff = vb2_ioctl_streamoff,

	.vidioc_log_status = v4l2_ctrl_log_status,
	.vidioc_subscribe_event = v4l2_ctrl_subscribe_event,
	.vidioc_unsubscribe_event = v4l2_event_unsubscribe,
};

static const struct v4l2_file_operations skel_fops = {
	.owner = THIS_MODULE,
	.open = v4l2_fh_open,
	.release = vb2_fop_release,
	.poll = vb2_fop_poll,
	.mmap = vb2_fop_mmap,
	.unlocked_ioctl = video_ioctl2,
};

/* ---- probe and remove ---- */

/*
 * The last reference is gone: the driver unbound and no file open.  (An
 * application may hold the device open after remove(): the struct lives
 * until then, so it is not devm memory.)
 */
static void skel_release(struct v4l2_device *v4l2_dev)
{
	struct skel *skel = container_of(v4l2_dev, struct skel, v4l2_dev);

	v4l2_ctrl_handler_free(&skel->ctrls);
	v4l2_device_unregister(&skel->v4l2_dev);
	mutex_destroy(&skel->lock);
	kfree(skel);
}

static int skel_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct vb2_queue *q;
	struct skel *skel;
	unsigned int i;
	int ret;

	skel = kzalloc(sizeof(*skel), GFP_KERNEL);
	if (!skel)
		return -ENOMEM;
	skel->dev = dev;
	mutex_init(&skel->lock);
	spin_lock_init(&skel->slock);
	INIT_LIST_HEAD(&skel->pending);

	/* The device tree node gives the registers and the interrupt */
	skel->regs = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(skel->regs)) {
		ret = PTR_ERR(skel->regs);
		goto err_free;
	}
	if (skel_read(skel, CAM_ID) != CAM_ID_VALUE) {
		ret = -ENODEV;
		goto err_free;
	}
	skel->irq = platform_get_irq(pdev, 0);
	if (skel->irq < 0) {
		ret = skel->irq;
		goto err_free;
	}
	/*
	 * One child device per kind of memory: "fb200000.camera:y" and
	 * "fb200000.camera:c".  Each has this device's DMA settings and no
	 * segment limit; the DMA API serves it from the regions of the
	 * cma_map= rule for "fb200000.camera/y" (or "/c").  devm: they go
	 * when the driver unbinds (buffers still mapped keep them alive).
	 */
	for (i = 0; i < ARRAY_SIZE(skel_kinds); i++) {
		skel->kind_dev[i] = devm_cma_kind_device_create(dev, skel_kinds[i]);
		if (IS_ERR(skel->kind_dev[i])) {
			ret = PTR_ERR(skel->kind_dev[i]);
			goto err_free;
		}
	}
	skel_write(skel, CAM_SWRESET, 1);

	skel->fmt.pixelformat = V4L2_PIX_FMT_YUYV;
	skel->fmt.width = 640;
	skel->fmt.height = 480;
	skel->sfmt = skel_try_format(&skel->fmt);

	ret = v4l2_device_register(dev, &skel->v4l2_dev);
	if (ret)
		goto err_free;
	skel->v4l2_dev.release = skel_release;	/* frees skel from now on */

	v4l2_ctrl_handler_init(&skel->ctrls, 2);
	v4l2_ctrl_new_std(&skel->ctrls, &skel_ctrl_ops, V4L2_CID_HFLIP, 0, 1, 1, 0);
	v4l2_ctrl_new_std(&skel->ctrls, &skel_ctrl_ops, V4L2_CID_VFLIP, 0, 1, 1, 0);
	ret = skel->ctrls.error;
	if (ret)
		goto err_put;
	skel->v4l2_dev.ctrl_handler = &skel->ctrls;

	q = &skel->queue;
	q->type = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
	q->io_modes = VB2_MMAP | VB2_DMABUF;
	q->drv_priv = skel;
	q->buf_struct_size = sizeof(struct skel_buffer);
	q->ops = &skel_vb2_ops;
	q->mem_ops = &vb2_dma_contig_memops;	/* mainline, unchanged */
	q->timestamp_flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC |
			     V4L2_BUF_FLAG_TSTAMP_SRC_EOF;
	q->min_buffers_needed = 1;
	q->lock = &skel->lock;
	q->dev = skel->kind_dev[0];	/* DMABUF imports are mapped for it */
	ret = vb2_queue_init(q);
	if (ret)
		goto err_put;

	ret = request_irq(skel->irq, skel_irq, 0, dev_name(dev), skel);
	if (ret)
		goto err_put;

	skel->vdev = (struct video_device){
		.name = SKEL_NAME,
		.fops = &skel_fops,
		.ioctl_ops = &skel_ioctl_ops,
		.release = video_device_release_empty,	/* in skel */
		.v4l2_dev = &skel->v4l2_dev,
		.queue = q,
		.lock = &skel->lock,
		.vfl_dir = VFL_DIR_RX,
		.device_caps = V4L2_CAP_VIDEO_CAPTURE_MPLANE | V4L2_CAP_STREAMING,
	};
	video_set_drvdata(&skel->vdev, skel);
	ret = video_register_device(&skel->vdev, VFL_TYPE_VIDEO, -1);
	if (ret)
		goto err_irq;

	platform_set_drvdata(pdev, skel);
	dev_info(dev, "%s: kinds \"y\" and \"c\" of %s\n",
		 video_device_node_name(&skel->vdev), dev_name(dev));
	return 0;

err_irq:
	free_irq(skel->irq, skel);
err_put:
	v4l2_device_put(&skel->v4l2_dev);	/* skel_release() */
	return ret;
err_free:
	mutex_destroy(&skel->lock);
	kfree(skel);
	return ret;
}

static int skel_remove(struct platform_device *pdev)
{
	struct skel *skel = platform_get_drvdata(pdev);

	/* stops streaming and frees the buffers of whoever owns the queue */
	vb2_video_unregister_device(&skel->vdev);
	skel_write(skel, CAM_SWRESET, 1);
	free_irq(skel->irq, skel);
	v4l2_device_disconnect(&skel->v4l2_dev);
	v4l2_device_put(&skel->v4l2_dev);
	return 0;
}

/* The device tree's compatible: its alias is what binds this module */
static const struct of_device_id skel_of_match[] = {
	{ .compatible = "qemu,s5pv210-camera" },
	{ }
};
MODULE_DEVICE_TABLE(of, skel_of_match);

static struct platform_driver skel_driver = {
	.probe = skel_probe,
	.remove = skel_remove,
	.driver = {
		.name = SKEL_NAME,
		.of_match_table = skel_of_match,
	},
};
module_platform_driver(skel_driver);

MODULE_DESCRIPTION("Skeleton V4L2 capture driver for the emulated S5PV210 camera");
MODULE_LICENSE("GPL");
