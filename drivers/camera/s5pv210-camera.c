// SPDX-License-Identifier: GPL-2.0
/*
 * V4L2 capture driver for the S5PV210 DMA-only camera (the emulated block
 * in the FIMC0 slot: QEMU's hw/misc/s5pv210_camera.c, whose header
 * describes the registers and the test pattern it produces).
 *
 * The block writes frames into a ring of four slots, each given one
 * physical address and length per plane.  Buffers come from mainline
 * videobuf2-dma-contig, that is the DMA API, through two per-kind child
 * devices (cma_kind_device_create()): plane 0 (the YUYV or NV12 image, or
 * the NV12M luma plane) is memory of kind "y" ("fb200000.camera:y"), the
 * NV12M chroma plane memory of kind "c" ("fb200000.camera:c"); cma_map=
 * ("fb200000.camera/y=...") decides which regions serve them.
 *
 * Formats (multi-planar API): YUYV, NV12 (one buffer), NV12M (two);
 * with multiplanar=1 the single-planar API instead (as vivid's parameter
 * of that name), for applications that know no other (ffmpeg's v4l2
 * input, for one): YUYV and NV12.
 * 32x16 to 1920x1080 in steps of 8x2; frame intervals 1/60 to 1/5 s;
 * controls: horizontal and vertical flip, test pattern (bars, or gradients
 * and noise for encoders).
 */

#include <linux/cma.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mod_devicetable.h>
#include <linux/platform_device.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include <media/v4l2-ctrls.h>
#include <media/v4l2-device.h>
#include <media/v4l2-event.h>
#include <media/v4l2-fh.h>
#include <media/v4l2-ioctl.h>
#include <media/videobuf2-dma-contig.h>
#include <media/videobuf2-v4l2.h>

#include "s5pv210-v4l2-fmt.h"

#define CAM_NAME		"s5pv210-camera"

static unsigned int multiplanar = 2;
module_param(multiplanar, uint, 0444);
MODULE_PARM_DESC(multiplanar,
		 "1: single-planar API (YUYV, NV12), 2: multi-planar API (and NV12M; default)");

/* Registers */
#define CAM_ID			0x000
#define CAM_CTRL		0x004
#define CAM_STATUS		0x008
#define CAM_SWRESET		0x00c
#define CAM_INT_STATUS		0x010
#define CAM_INT_ENABLE		0x014
#define CAM_ERROR		0x018
#define CAM_FRAME_COUNT		0x01c
#define CAM_DROP_COUNT		0x020
#define CAM_FORMAT		0x024
#define CAM_WIDTH		0x028
#define CAM_HEIGHT		0x02c
#define CAM_STRIDE		0x030
#define CAM_INTERVAL_NUM	0x034
#define CAM_INTERVAL_DEN	0x038
#define CAM_PATTERN		0x03c
#define CAM_BUF_STATUS		0x040
#define CAM_BUF_ARM		0x044
#define CAM_BUF_RELEASE		0x048
#define CAM_BUF_ERROR		0x04c
#define CAM_ADDR0(n)		(0x100 + 0x20 * (n))
#define CAM_LEN0(n)		(0x104 + 0x20 * (n))
#define CAM_ADDR1(n)		(0x108 + 0x20 * (n))
#define CAM_LEN1(n)		(0x10c + 0x20 * (n))
#define CAM_SEQ(n)		(0x110 + 0x20 * (n))

#define CAM_ID_VALUE		0x43414d01
#define CTRL_RUN		BIT(0)
#define CTRL_HFLIP		BIT(1)
#define CTRL_VFLIP		BIT(2)
#define STATUS_RUNNING		BIT(0)
#define INT_FRAME_DONE		BIT(0)
#define INT_FRAME_DROP		BIT(1)
#define INT_ERROR		BIT(2)
#define INT_ALL			(INT_FRAME_DONE | INT_FRAME_DROP | INT_ERROR)
#define HW_FMT_YUYV		0
#define HW_FMT_NV12		1

#define CAM_SLOTS		4
#define CAM_MIN_WIDTH		32
#define CAM_MAX_WIDTH		1920
#define CAM_MIN_HEIGHT		16
#define CAM_MAX_HEIGHT		1080
#define CAM_DEF_WIDTH		640
#define CAM_DEF_HEIGHT		480
#define CAM_ADDR_ALIGN		8	/* the block's rule for addresses */
/*
 * What buffers are allocated and lines laid out for: the block needs 8
 * bytes, but its buffers are exported (DMABUF) to the codec, whose
 * device reads pictures only from 8 KiB aligned addresses with lines a
 * multiple of 16 bytes apart (docs/codec.md, port rules).  The DMA API
 * aligns a buffer to the order of its size, so buffers of at least 8 KiB
 * are 8 KiB aligned: smaller planes are allocated 8 KiB long.  NV12
 * lines of a width that is an odd multiple of 8 would be 8 bytes short.
 */
#define CAM_EXPORT_ALIGN	SZ_8K
#define CAM_STRIDE_ALIGN	16

enum { PORT_Y, PORT_C, NUM_PORTS };

/* The first is the default */
static const struct s5p_fmt cam_formats[] = {
	{ V4L2_PIX_FMT_YUYV, HW_FMT_YUYV, false, 1 },
	{ V4L2_PIX_FMT_NV12, HW_FMT_NV12, true, 1 },
	{ V4L2_PIX_FMT_NV12M, HW_FMT_NV12, true, 2 },
};

/* Frame intervals, shortest first */
static const struct v4l2_fract cam_intervals[] = {
	{ 1, 60 }, { 1, 50 }, { 1, 30 }, { 1, 25 }, { 1, 15 }, { 1, 10 },
	{ 1, 5 },
};

#define CAM_DEF_INTERVAL	2	/* 1/30 s */

/* Picture sizes (cam_try_format()'s v4l_bound_align_image() call) */
static const struct v4l2_frmsize_stepwise cam_sizes = {
	CAM_MIN_WIDTH, CAM_MAX_WIDTH, 8, CAM_MIN_HEIGHT, CAM_MAX_HEIGHT, 2
};

struct cam_buffer {
	struct vb2_v4l2_buffer vb;
	struct list_head list;
};

struct cam_dev {
	struct device *dev;
	struct v4l2_device v4l2_dev;
	struct video_device vdev;
	struct v4l2_ctrl_handler ctrls;
	struct vb2_queue queue;
	struct mutex lock;		/* ioctls, vb2 and controls */
	void __iomem *regs;
	int irq;
	struct device *port[NUM_PORTS];
	bool mplane;			/* the multi-planar API (multiplanar=2) */

	/* Format and rate; changed only while not streaming (lock) */
	struct v4l2_pix_format_mplane fmt;
	const struct s5p_fmt *cfmt;
	unsigned int interval;		/* index in cam_intervals */

	/* Capture state (slock) */
	spinlock_t slock;
	u32 flip;			/* CTRL_HFLIP | CTRL_VFLIP */
	u32 pattern;			/* PATTERN: index in cam_patterns[] */
	bool streaming;
	struct list_head pending;	/* queued, not yet given to the block */
	struct cam_buffer *slot[CAM_SLOTS];
	unsigned int head;		/* oldest slot the block owns */
	unsigned int count;		/* slots the block owns */
	u64 interval_ns;		/* frame interval while streaming */
};

static inline u32 cam_read(struct cam_dev *cam, u32 reg)
{
	return readl(cam->regs + reg);
}

static inline void cam_write(struct cam_dev *cam, u32 reg, u32 val)
{
	writel(val, cam->regs + reg);
}

/* The format @fourcc, if the API in use (@mplane or not) offers it */
static const struct s5p_fmt *cam_find_format(u32 fourcc, bool mplane)
{
	return s5p_find_fmt(cam_formats, ARRAY_SIZE(cam_formats), fourcc,
			    mplane);
}

/*
 * Adjust @pix to what the block can produce, the V4L2 way.  The
 * single-planar API (!@mplane) has no format with two buffers.
 */
static const struct s5p_fmt *
cam_try_format(struct v4l2_pix_format_mplane *pix, bool mplane)
{
	const struct s5p_fmt *f = cam_find_format(pix->pixelformat, mplane);
	u32 w, h, bpl;

	if (!f)
		f = &cam_formats[0];
	w = pix->width;
	h = pix->height;
	v4l_bound_align_image(&w, CAM_MIN_WIDTH, CAM_MAX_WIDTH, 3,
			      &h, CAM_MIN_HEIGHT, CAM_MAX_HEIGHT, 1, 0);
	bpl = ALIGN(s5p_fmt_line(f, w), CAM_STRIDE_ALIGN);

	memset(pix, 0, sizeof(*pix));
	pix->pixelformat = f->fourcc;
	pix->width = w;
	pix->height = h;
	pix->field = V4L2_FIELD_NONE;
	pix->colorspace = V4L2_COLORSPACE_SMPTE170M;
	pix->ycbcr_enc = V4L2_YCBCR_ENC_601;
	pix->quantization = V4L2_QUANTIZATION_LIM_RANGE;
	pix->xfer_func = V4L2_XFER_FUNC_709;
	s5p_fmt_planes(pix, f, bpl);
	return f;
}

/*
 * Give queued buffers to the block, in ring order, while it has free
 * slots.  Called with slock held.
 */
static void cam_fill_slots(struct cam_dev *cam)
{
	const struct v4l2_pix_format_mplane *pix = &cam->fmt;
	u32 y_size = pix->plane_fmt[0].bytesperline * pix->height;

	while (cam->count < CAM_SLOTS && !list_empty(&cam->pending)) {
		unsigned int n = (cam->head + cam->count) % CAM_SLOTS;
		struct cam_buffer *buf = list_first_entry(&cam->pending,
							  struct cam_buffer,
							  list);
		struct vb2_buffer *vb = &buf->vb.vb2_buf;
		dma_addr_t a0 = vb2_dma_contig_plane_dma_addr(vb, 0), a1 = 0;
		u32 l0 = vb2_plane_size(vb, 0), l1 = 0;

		list_del(&buf->list);
		if (cam->cfmt->buffers == 2) {
			a1 = vb2_dma_contig_plane_dma_addr(vb, 1);
			l1 = vb2_plane_size(vb, 1);
		} else if (cam->cfmt->planar) {
			/* The chroma plane follows the luma plane. */
			a1 = a0 + y_size;
			l1 = l0 - y_size;
			l0 = y_size;
		}
		cam->slot[n] = buf;
		cam_write(cam, CAM_ADDR0(n), a0);
		cam_write(cam, CAM_LEN0(n), l0);
		cam_write(cam, CAM_ADDR1(n), a1);
		cam_write(cam, CAM_LEN1(n), l1);
		cam_write(cam, CAM_BUF_ARM, BIT(n));
		cam->count++;
	}
}

static irqreturn_t cam_irq(int irq, void *data)
{
	struct cam_dev *cam = data;
	u32 status, armed, failed, newest, error = 0;
	u64 now;

	status = cam_read(cam, CAM_INT_STATUS);
	if (!status)
		return IRQ_NONE;
	/* Acknowledge first: anything that happens from now on raises again */
	cam_write(cam, CAM_INT_STATUS, status);
	now = ktime_get_ns();

	spin_lock(&cam->slock);
	if (status & INT_ERROR) {
		error = cam_read(cam, CAM_ERROR);
		cam_write(cam, CAM_ERROR, error);
	}
	/* A slot's error bit is set before it is disarmed: read in this order */
	armed = cam_read(cam, CAM_BUF_STATUS);
	failed = cam_read(cam, CAM_BUF_ERROR);
	/* The frame due last (about now): the others are older by intervals */
	newest = cam_read(cam, CAM_FRAME_COUNT) - 1;
	while (cam->count && !(armed & BIT(cam->head))) {
		unsigned int n = cam->head;
		struct cam_buffer *buf = cam->slot[n];
		enum vb2_buffer_state state = VB2_BUF_STATE_DONE;
		u32 age;

		if (failed & BIT(n)) {
			cam_write(cam, CAM_BUF_ERROR, BIT(n));
			state = VB2_BUF_STATE_ERROR;
			dev_warn_ratelimited(cam->dev,
					     "frame not written to buffer %u (error %#x)\n",
					     buf->vb.vb2_buf.index, error);
		}
		cam->slot[n] = NULL;
		cam->head = (n + 1) % CAM_SLOTS;
		cam->count--;
		buf->vb.sequence = cam_read(cam, CAM_SEQ(n));
		buf->vb.field = V4L2_FIELD_NONE;
		/*
		 * The block has no timestamps: a frame ended one interval
		 * after the one before, so when one interrupt completes
		 * several buffers each gets its own time, not all the same.
		 */
		age = newest - buf->vb.sequence;
		if (age > CAM_SLOTS * 4)	/* not a frame of this run */
			age = 0;
		buf->vb.vb2_buf.timestamp = now - min_t(u64, now,
							age * cam->interval_ns);
		vb2_buffer_done(&buf->vb.vb2_buf, state);
	}
	if (cam->streaming)
		cam_fill_slots(cam);
	spin_unlock(&cam->slock);
	return IRQ_HANDLED;
}

/* Stop the block and take every buffer back.  Called with slock held. */
static void cam_stop_locked(struct cam_dev *cam, enum vb2_buffer_state state)
{
	struct cam_buffer *buf, *tmp;
	unsigned int n;

	cam->streaming = false;
	cam_write(cam, CAM_CTRL, 0);
	cam_write(cam, CAM_BUF_RELEASE, GENMASK(CAM_SLOTS - 1, 0));
	cam_write(cam, CAM_INT_ENABLE, 0);
	cam_write(cam, CAM_INT_STATUS, INT_ALL);
	for (n = 0; n < CAM_SLOTS; n++) {
		if (cam->slot[n])
			vb2_buffer_done(&cam->slot[n]->vb.vb2_buf, state);
		cam->slot[n] = NULL;
	}
	cam->head = 0;
	cam->count = 0;
	list_for_each_entry_safe(buf, tmp, &cam->pending, list) {
		list_del(&buf->list);
		vb2_buffer_done(&buf->vb.vb2_buf, state);
	}
}

/* ---- vb2 ---- */

static int cam_queue_setup(struct vb2_queue *q, unsigned int *nbuffers,
			   unsigned int *nplanes, unsigned int sizes[],
			   struct device *alloc_devs[])
{
	struct cam_dev *cam = vb2_get_drv_priv(q);
	unsigned int p;
	int ret;

	/* 8 KiB at least, so 8 KiB aligned (CAM_EXPORT_ALIGN) */
	ret = s5p_queue_sizes(&cam->fmt, nplanes, sizes, CAM_EXPORT_ALIGN);
	if (ret)
		return ret;
	for (p = 0; p < *nplanes; p++)
		alloc_devs[p] = cam->port[p ? PORT_C : PORT_Y];
	return 0;
}

static int cam_buf_prepare(struct vb2_buffer *vb)
{
	struct cam_dev *cam = vb2_get_drv_priv(vb->vb2_queue);
	const struct v4l2_pix_format_mplane *pix = &cam->fmt;
	unsigned int p;

	for (p = 0; p < pix->num_planes; p++) {
		unsigned long size = pix->plane_fmt[p].sizeimage;

		if (vb2_plane_size(vb, p) < size) {
			dev_dbg(cam->dev, "buffer %u plane %u: %lu bytes, %lu needed\n",
				vb->index, p, vb2_plane_size(vb, p), size);
			return -EINVAL;
		}
		if (vb2_dma_contig_plane_dma_addr(vb, p) & (CAM_ADDR_ALIGN - 1)) {
			dev_dbg(cam->dev, "buffer %u plane %u: address not %u-byte aligned\n",
				vb->index, p, CAM_ADDR_ALIGN);
			return -EINVAL;
		}
		vb2_set_plane_payload(vb, p, size);
	}
	return 0;
}

static void cam_buf_queue(struct vb2_buffer *vb)
{
	struct cam_dev *cam = vb2_get_drv_priv(vb->vb2_queue);
	struct vb2_v4l2_buffer *vbuf = to_vb2_v4l2_buffer(vb);
	struct cam_buffer *buf = container_of(vbuf, struct cam_buffer, vb);
	unsigned long flags;

	spin_lock_irqsave(&cam->slock, flags);
	list_add_tail(&buf->list, &cam->pending);
	if (cam->streaming)
		cam_fill_slots(cam);
	spin_unlock_irqrestore(&cam->slock, flags);
}

static int cam_start_streaming(struct vb2_queue *q, unsigned int count)
{
	struct cam_dev *cam = vb2_get_drv_priv(q);
	const struct v4l2_pix_format_mplane *pix = &cam->fmt;
	const struct v4l2_fract *iv = &cam_intervals[cam->interval];
	unsigned long flags;
	bool running;
	u32 err = 0;
	unsigned int n;

	for (n = 0; n < pix->num_planes; n++)
		dev_dbg(cam->dev, "streaming %ux%u %p4cc, plane %u: %u bytes\n",
			pix->width, pix->height, &pix->pixelformat, n,
			pix->plane_fmt[n].sizeimage);

	spin_lock_irqsave(&cam->slock, flags);
	cam_write(cam, CAM_CTRL, 0);
	cam_write(cam, CAM_BUF_RELEASE, GENMASK(CAM_SLOTS - 1, 0));
	cam_write(cam, CAM_FORMAT, cam->cfmt->hw);
	cam_write(cam, CAM_WIDTH, pix->width);
	cam_write(cam, CAM_HEIGHT, pix->height);
	cam_write(cam, CAM_STRIDE, pix->plane_fmt[0].bytesperline);
	cam_write(cam, CAM_INTERVAL_NUM, iv->numerator);
	cam_write(cam, CAM_INTERVAL_DEN, iv->denominator);
	cam_write(cam, CAM_PATTERN, cam->pattern);
	cam_write(cam, CAM_ERROR, cam_read(cam, CAM_ERROR));
	cam_write(cam, CAM_BUF_ERROR, GENMASK(CAM_SLOTS - 1, 0));
	cam_write(cam, CAM_INT_STATUS, INT_ALL);
	cam_write(cam, CAM_INT_ENABLE, INT_FRAME_DONE | INT_ERROR);
	cam->head = 0;
	cam->count = 0;
	cam->interval_ns = div_u64((u64)iv->numerator * NSEC_PER_SEC,
				   iv->denominator);
	cam->streaming = true;
	cam_fill_slots(cam);
	cam_write(cam, CAM_CTRL, CTRL_RUN | cam->flip);
	running = cam_read(cam, CAM_STATUS) & STATUS_RUNNING;
	if (!running) {
		/* Every buffer back to vb2 as QUEUED, as start_streaming must */
		err = cam_read(cam, CAM_ERROR);
		cam_stop_locked(cam, VB2_BUF_STATE_QUEUED);
	}
	spin_unlock_irqrestore(&cam->slock, flags);
	/* Not running is a failure whether or not the block says why */
	if (!running) {
		dev_err(cam->dev, "the camera refused to start (error %#x%s)\n",
			err, err ? "" : ": no reason given");
		return -EIO;
	}
	return 0;
}

static void cam_stop_streaming(struct vb2_queue *q)
{
	struct cam_dev *cam = vb2_get_drv_priv(q);
	unsigned long flags;

	spin_lock_irqsave(&cam->slock, flags);
	cam_stop_locked(cam, VB2_BUF_STATE_ERROR);
	spin_unlock_irqrestore(&cam->slock, flags);
	/* No handler may still be looking at the slots. */
	synchronize_irq(cam->irq);
}

static const struct vb2_ops cam_vb2_ops = {
	.queue_setup = cam_queue_setup,
	.buf_prepare = cam_buf_prepare,
	.buf_queue = cam_buf_queue,
	.start_streaming = cam_start_streaming,
	.stop_streaming = cam_stop_streaming,
	.wait_prepare = vb2_ops_wait_prepare,
	.wait_finish = vb2_ops_wait_finish,
};

/* ---- controls ---- */

/* The block's PATTERN values, in order */
static const char * const cam_patterns[] = {
	"Bars",
	"Gradient and noise",
};

static int cam_s_ctrl(struct v4l2_ctrl *ctrl)
{
	struct cam_dev *cam = container_of(ctrl->handler, struct cam_dev,
					   ctrls);
	unsigned long flags;
	u32 bit;

	switch (ctrl->id) {
	case V4L2_CID_TEST_PATTERN:
		/* Applies from the next frame on */
		spin_lock_irqsave(&cam->slock, flags);
		cam->pattern = ctrl->val;
		if (cam->streaming)
			cam_write(cam, CAM_PATTERN, cam->pattern);
		spin_unlock_irqrestore(&cam->slock, flags);
		return 0;
	case V4L2_CID_HFLIP:
		bit = CTRL_HFLIP;
		break;
	case V4L2_CID_VFLIP:
		bit = CTRL_VFLIP;
		break;
	default:
		return -EINVAL;
	}
	spin_lock_irqsave(&cam->slock, flags);
	if (ctrl->val)
		cam->flip |= bit;
	else
		cam->flip &= ~bit;
	/* Applies from the next frame on */
	if (cam->streaming)
		cam_write(cam, CAM_CTRL, CTRL_RUN | cam->flip);
	spin_unlock_irqrestore(&cam->slock, flags);
	return 0;
}

static const struct v4l2_ctrl_ops cam_ctrl_ops = {
	.s_ctrl = cam_s_ctrl,
};

/* ---- ioctls ---- */

static int cam_querycap(struct file *file, void *priv,
			struct v4l2_capability *cap)
{
	struct cam_dev *cam = video_drvdata(file);

	s5p_querycap(cap, cam->dev, CAM_NAME, "S5PV210 DMA-only camera");
	return 0;
}

static int cam_enum_fmt(struct file *file, void *priv, struct v4l2_fmtdesc *f)
{
	struct cam_dev *cam = video_drvdata(file);
	const struct s5p_fmt *fmt;

	/* The other API's type: what the core says to an ioctl it lacks */
	if (f->type != cam->queue.type)
		return -EINVAL;
	fmt = s5p_enum_fmt(cam_formats, ARRAY_SIZE(cam_formats), f->index,
			   cam->mplane);
	if (!fmt)
		return -EINVAL;
	f->pixelformat = fmt->fourcc;
	return 0;
}

static int cam_g_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct cam_dev *cam = video_drvdata(file);

	if (!cam->mplane)
		return -ENOTTY;
	f->fmt.pix_mp = cam->fmt;
	return 0;
}

static int cam_try_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct cam_dev *cam = video_drvdata(file);

	if (!cam->mplane)
		return -ENOTTY;
	cam_try_format(&f->fmt.pix_mp, true);
	return 0;
}

static int cam_s_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct cam_dev *cam = video_drvdata(file);
	const struct s5p_fmt *cfmt;

	if (!cam->mplane)
		return -ENOTTY;
	cfmt = cam_try_format(&f->fmt.pix_mp, true);
	if (vb2_is_busy(&cam->queue))
		return -EBUSY;
	cam->cfmt = cfmt;
	cam->fmt = f->fmt.pix_mp;
	return 0;
}

/*
 * The single-planar API (multiplanar=1): the same formats with one buffer,
 * kept in the multi-planar form the rest of the driver uses.
 */
static const struct s5p_fmt *
cam_try_format_sp(struct v4l2_pix_format *pix,
		  struct v4l2_pix_format_mplane *mp)
{
	const struct s5p_fmt *cfmt;

	s5p_pix_to_mp(mp, pix);
	cfmt = cam_try_format(mp, false);
	s5p_pix_from_mp(pix, mp);
	return cfmt;
}

static int cam_g_fmt_sp(struct file *file, void *priv, struct v4l2_format *f)
{
	struct cam_dev *cam = video_drvdata(file);

	if (cam->mplane)
		return -ENOTTY;
	s5p_pix_from_mp(&f->fmt.pix, &cam->fmt);
	return 0;
}

static int cam_try_fmt_sp(struct file *file, void *priv, struct v4l2_format *f)
{
	struct cam_dev *cam = video_drvdata(file);
	struct v4l2_pix_format_mplane mp;

	if (cam->mplane)
		return -ENOTTY;
	cam_try_format_sp(&f->fmt.pix, &mp);
	return 0;
}

static int cam_s_fmt_sp(struct file *file, void *priv, struct v4l2_format *f)
{
	struct cam_dev *cam = video_drvdata(file);
	struct v4l2_pix_format_mplane mp;
	const struct s5p_fmt *cfmt;

	if (cam->mplane)
		return -ENOTTY;
	cfmt = cam_try_format_sp(&f->fmt.pix, &mp);
	if (vb2_is_busy(&cam->queue))
		return -EBUSY;
	cam->cfmt = cfmt;
	cam->fmt = mp;
	return 0;
}

static int cam_enum_framesizes(struct file *file, void *priv,
			       struct v4l2_frmsizeenum *fsize)
{
	struct cam_dev *cam = video_drvdata(file);

	if (fsize->index || !cam_find_format(fsize->pixel_format, cam->mplane))
		return -EINVAL;
	fsize->type = V4L2_FRMSIZE_TYPE_STEPWISE;
	fsize->stepwise = cam_sizes;
	return 0;
}

static int cam_enum_frameintervals(struct file *file, void *priv,
				   struct v4l2_frmivalenum *fival)
{
	struct cam_dev *cam = video_drvdata(file);

	if (fival->index >= ARRAY_SIZE(cam_intervals) ||
	    !cam_find_format(fival->pixel_format, cam->mplane) ||
	    fival->width < CAM_MIN_WIDTH || fival->width > CAM_MAX_WIDTH ||
	    fival->width % 8 || fival->height < CAM_MIN_HEIGHT ||
	    fival->height > CAM_MAX_HEIGHT || fival->height % 2)
		return -EINVAL;
	fival->type = V4L2_FRMIVAL_TYPE_DISCRETE;
	fival->discrete = cam_intervals[fival->index];
	return 0;
}

static int cam_g_parm(struct file *file, void *priv,
		      struct v4l2_streamparm *parm)
{
	struct cam_dev *cam = video_drvdata(file);

	/* The core also lets the single-planar type through (check_fmt()) */
	if (parm->type != V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE &&
	    parm->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
		return -EINVAL;
	memset(&parm->parm.capture, 0, sizeof(parm->parm.capture));
	parm->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
	parm->parm.capture.timeperframe = cam_intervals[cam->interval];
	return 0;
}

static int cam_s_parm(struct file *file, void *priv,
		      struct v4l2_streamparm *parm)
{
	struct cam_dev *cam = video_drvdata(file);
	struct v4l2_fract *want = &parm->parm.capture.timeperframe;
	unsigned int i, best = cam->interval;
	u64 best_diff = U64_MAX;

	if (parm->type != V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE &&
	    parm->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
		return -EINVAL;
	if (want->numerator && want->denominator) {
		/* The nearest interval, compared in microseconds */
		u64 us = div_u64((u64)want->numerator * USEC_PER_SEC,
				 want->denominator);

		for (i = 0; i < ARRAY_SIZE(cam_intervals); i++) {
			u64 iv = div_u64((u64)cam_intervals[i].numerator *
					 USEC_PER_SEC,
					 cam_intervals[i].denominator);
			u64 diff = iv > us ? iv - us : us - iv;

			if (diff < best_diff) {
				best_diff = diff;
				best = i;
			}
		}
		if (best != cam->interval && vb2_is_streaming(&cam->queue))
			return -EBUSY;
		cam->interval = best;
	}
	return cam_g_parm(file, priv, parm);
}

static int cam_enum_input(struct file *file, void *priv,
			  struct v4l2_input *inp)
{
	if (inp->index)
		return -EINVAL;
	inp->type = V4L2_INPUT_TYPE_CAMERA;
	strscpy(inp->name, "Test pattern", sizeof(inp->name));
	return 0;
}

static int cam_g_input(struct file *file, void *priv, unsigned int *i)
{
	*i = 0;
	return 0;
}

static int cam_s_input(struct file *file, void *priv, unsigned int i)
{
	return i ? -EINVAL : 0;
}

/*
 * One table for both APIs, as vivid's: the handlers of the API not in use
 * say -ENOTTY (the core lets both buffer types through to them).
 */
static const struct v4l2_ioctl_ops cam_ioctl_ops = {
	.vidioc_querycap = cam_querycap,
	.vidioc_enum_fmt_vid_cap = cam_enum_fmt,
	.vidioc_g_fmt_vid_cap_mplane = cam_g_fmt,
	.vidioc_try_fmt_vid_cap_mplane = cam_try_fmt,
	.vidioc_s_fmt_vid_cap_mplane = cam_s_fmt,
	.vidioc_g_fmt_vid_cap = cam_g_fmt_sp,
	.vidioc_try_fmt_vid_cap = cam_try_fmt_sp,
	.vidioc_s_fmt_vid_cap = cam_s_fmt_sp,
	.vidioc_enum_framesizes = cam_enum_framesizes,
	.vidioc_enum_frameintervals = cam_enum_frameintervals,
	.vidioc_g_parm = cam_g_parm,
	.vidioc_s_parm = cam_s_parm,
	.vidioc_enum_input = cam_enum_input,
	.vidioc_g_input = cam_g_input,
	.vidioc_s_input = cam_s_input,

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

static const struct v4l2_file_operations cam_fops = {
	.owner = THIS_MODULE,
	.open = v4l2_fh_open,
	.release = vb2_fop_release,
	.poll = vb2_fop_poll,
	.unlocked_ioctl = video_ioctl2,
	.mmap = vb2_fop_mmap,
};

/* ---- probe and remove ---- */

/* The last reference is gone (no open file, driver unbound) */
static void cam_release(struct v4l2_device *v4l2_dev)
{
	struct cam_dev *cam = container_of(v4l2_dev, struct cam_dev, v4l2_dev);

	v4l2_ctrl_handler_free(&cam->ctrls);
	v4l2_device_unregister(&cam->v4l2_dev);
	mutex_destroy(&cam->lock);
	kfree(cam);
}

static int cam_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	static const char * const kinds[NUM_PORTS] = { "y", "c" };
	struct video_device *vdev;
	struct vb2_queue *q;
	struct cam_dev *cam;
	unsigned int i;
	u32 id;
	int ret;

	cam = kzalloc(sizeof(*cam), GFP_KERNEL);
	if (!cam)
		return -ENOMEM;
	cam->dev = dev;
	mutex_init(&cam->lock);
	spin_lock_init(&cam->slock);
	INIT_LIST_HEAD(&cam->pending);

	/* Everything below until v4l2_device_register() is devm or undone. */
	cam->regs = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(cam->regs)) {
		ret = PTR_ERR(cam->regs);
		goto err_free;
	}
	id = readl(cam->regs + CAM_ID);
	if (id != CAM_ID_VALUE) {
		dev_err(dev, "unknown block (ID %#x)\n", id);
		ret = -ENODEV;
		goto err_free;
	}
	cam->irq = platform_get_irq(pdev, 0);
	if (cam->irq < 0) {
		ret = cam->irq;
		goto err_free;
	}
	/*
	 * The DMA of each kind is done through its child device, which has
	 * no segment size limit: each plane is one contiguous chunk.
	 */
	for (i = 0; i < NUM_PORTS; i++) {
		cam->port[i] = devm_cma_kind_device_create(dev, kinds[i]);
		if (IS_ERR(cam->port[i])) {
			ret = PTR_ERR(cam->port[i]);
			goto err_free;
		}
	}

	/* Quiet, known state */
	cam_write(cam, CAM_SWRESET, 1);

	cam->mplane = s5p_multiplanar(dev, multiplanar);
	cam->fmt.pixelformat = V4L2_PIX_FMT_YUYV;
	cam->fmt.width = CAM_DEF_WIDTH;
	cam->fmt.height = CAM_DEF_HEIGHT;
	cam->cfmt = cam_try_format(&cam->fmt, cam->mplane);
	cam->interval = CAM_DEF_INTERVAL;

	ret = v4l2_device_register(dev, &cam->v4l2_dev);
	if (ret)
		goto err_free;
	cam->v4l2_dev.release = cam_release;
	/* From here on cam is freed by cam_release() */

	v4l2_ctrl_handler_init(&cam->ctrls, 3);
	v4l2_ctrl_new_std(&cam->ctrls, &cam_ctrl_ops, V4L2_CID_HFLIP, 0, 1, 1,
			  0);
	v4l2_ctrl_new_std(&cam->ctrls, &cam_ctrl_ops, V4L2_CID_VFLIP, 0, 1, 1,
			  0);
	v4l2_ctrl_new_std_menu_items(&cam->ctrls, &cam_ctrl_ops,
				     V4L2_CID_TEST_PATTERN,
				     ARRAY_SIZE(cam_patterns) - 1, 0, 0,
				     cam_patterns);
	if (cam->ctrls.error) {
		ret = cam->ctrls.error;
		goto err_put;
	}
	cam->v4l2_dev.ctrl_handler = &cam->ctrls;

	q = &cam->queue;
	q->timestamp_flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC |
			     V4L2_BUF_FLAG_TSTAMP_SRC_EOF;
	ret = s5p_queue_init(q, cam->mplane ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
					      V4L2_BUF_TYPE_VIDEO_CAPTURE,
			     &cam_vb2_ops, cam, sizeof(struct cam_buffer),
			     &cam->lock, cam->port[PORT_Y]);
	if (ret)
		goto err_put;

	ret = request_irq(cam->irq, cam_irq, 0, dev_name(dev), cam);
	if (ret)
		goto err_put;

	vdev = &cam->vdev;
	strscpy(vdev->name, "s5pv210-camera", sizeof(vdev->name));
	vdev->fops = &cam_fops;
	vdev->ioctl_ops = &cam_ioctl_ops;
	vdev->release = video_device_release_empty;
	vdev->v4l2_dev = &cam->v4l2_dev;
	vdev->queue = q;
	vdev->lock = &cam->lock;
	vdev->vfl_dir = VFL_DIR_RX;
	vdev->device_caps = (cam->mplane ? V4L2_CAP_VIDEO_CAPTURE_MPLANE :
					   V4L2_CAP_VIDEO_CAPTURE) |
			    V4L2_CAP_STREAMING;
	video_set_drvdata(vdev, cam);
	ret = video_register_device(vdev, VFL_TYPE_VIDEO, -1);
	if (ret)
		goto err_irq;

	platform_set_drvdata(pdev, cam);
	dev_info(dev, "%s, %s API, memory kinds \"y\" and \"c\" of %s\n",
		 video_device_node_name(vdev),
		 cam->mplane ? "multi-planar" : "single-planar", dev_name(dev));
	return 0;

err_irq:
	free_irq(cam->irq, cam);
err_put:
	v4l2_device_put(&cam->v4l2_dev);
	return ret;

err_free:
	mutex_destroy(&cam->lock);
	kfree(cam);
	return ret;
}

static int cam_remove(struct platform_device *pdev)
{
	struct cam_dev *cam = platform_get_drvdata(pdev);

	/* Stops streaming and frees the buffers of whoever owns the queue */
	vb2_video_unregister_device(&cam->vdev);
	cam_write(cam, CAM_SWRESET, 1);
	free_irq(cam->irq, cam);
	v4l2_device_disconnect(&cam->v4l2_dev);
	v4l2_device_put(&cam->v4l2_dev);
	return 0;
}

static const struct of_device_id cam_of_match[] = {
	{ .compatible = "qemu,s5pv210-camera" },
	{ }
};
MODULE_DEVICE_TABLE(of, cam_of_match);

static struct platform_driver cam_driver = {
	.probe = cam_probe,
	.remove = cam_remove,
	.driver = {
		.name = CAM_NAME,
		.of_match_table = cam_of_match,
	},
};
module_platform_driver(cam_driver);

MODULE_DESCRIPTION("S5PV210 DMA-only camera (V4L2 capture on videobuf2-dma-contig)");
MODULE_LICENSE("GPL");
