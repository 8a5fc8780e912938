// SPDX-License-Identifier: GPL-2.0
/*
 * V4L2 mem2mem driver for the S5PV210 DMA-only video codec (QEMU model,
 * hw/misc/s5pv210_codec.c): a Motion-JPEG encoder with two memory ports.
 *
 * Stateful encoder API (Documentation/userspace-api/media/v4l/
 * dev-encoder.rst): raw pictures are queued on the OUTPUT queue, one
 * baseline JPEG frame per picture comes back on the CAPTURE queue;
 * V4L2_CID_JPEG_COMPRESSION_QUALITY sets the quality and
 * V4L2_ENC_CMD_STOP drains.
 *
 * The multi-planar API (the default; multiplanar=2): OUTPUT YUYV, UYVY,
 * NV12, NV21 in one buffer, NV12M and NV21M in two (luma, chroma: what
 * the multi-planar camera exports as two DMABUFs), the device reading
 * each plane where it is (SRC_Y_OFFSET, SRC_C_OFFSET).  With
 * multiplanar=1 the single-planar API instead (as vicodec's parameter and
 * the camera driver's), for applications that know no other: the same
 * formats without NV12M and NV21M.
 *
 * Memory: the device has no scatter/gather and no IOMMU and reaches memory
 * through two ports, each a 128 MiB window from a 128 KiB aligned base.
 * Raw pictures are read through port A, the bitstream written through
 * port B.  Buffers come from mainline videobuf2-dma-contig, that is the
 * DMA API, through one per-kind child device a port
 * (cma_kind_device_create()): the OUTPUT queue allocates through
 * "f1700000.video-codec:a", kind "a", the CAPTURE queue through
 * "f1700000.video-codec:b", kind "b", so cma_map=
 * ("f1700000.video-codec/a=...") decides where each goes.  The port bases
 * are placed at probe time to cover the regions cma_info() reports for
 * each kind.  Imported DMABUFs must be contiguous and inside their port
 * window (luma, packed and bitstream planes 8 KiB aligned, a chroma plane
 * of its own 16 bytes), and a picture's planes must not be in the
 * bitstream's memory bank (the device tree's memory nodes, kind "b"'s
 * regions): QBUF refuses any other with EINVAL and a log line naming
 * the plane and its address, before the device would fail the job.
 *
 * Copyright (C) 2026 S5PV210 CMA project
 */

#include <linux/cma.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/platform_device.h>
#include <linux/ratelimit.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <media/media-device.h>
#include <media/v4l2-ctrls.h>
#include <media/v4l2-device.h>
#include <media/v4l2-event.h>
#include <media/v4l2-ioctl.h>
#include <media/v4l2-mem2mem.h>
#include <media/videobuf2-dma-contig.h>
#include <media/videobuf2-v4l2.h>

#include "s5pv210-v4l2-fmt.h"

#define CODEC_NAME		"s5pv210-codec"

static unsigned int multiplanar = 2;
module_param(multiplanar, uint, 0444);
MODULE_PARM_DESC(multiplanar,
		 "1: single-planar API, 2: multi-planar API (default; adds OUTPUT NV12M, NV21M)");

/* Registers (hw/misc/s5pv210_codec.c) */
#define CODEC_ID		0x00
#define CODEC_CMD		0x04
#define CODEC_STATUS		0x08
#define CODEC_INT_STATUS	0x0c
#define CODEC_INT_ENABLE	0x10
#define CODEC_ERROR		0x14
#define CODEC_ENC_SIZE		0x18
#define CODEC_FRAME_COUNT	0x1c
#define CODEC_PORT_BASE(p)	(0x20 + 4 * (p))
#define CODEC_SRC_FORMAT	0x40
#define CODEC_SRC_WIDTH		0x44
#define CODEC_SRC_HEIGHT	0x48
#define CODEC_SRC_STRIDE	0x4c
#define CODEC_SRC_Y_OFFSET	0x50
#define CODEC_SRC_C_OFFSET	0x54
#define CODEC_DST_OFFSET	0x60
#define CODEC_DST_SIZE		0x64
#define CODEC_QUALITY		0x68

#define CODEC_ID_VALUE		0x4d4a5045
#define CODEC_CMD_START		1
#define CODEC_CMD_RESET		2
#define CODEC_INT_DONE		BIT(0)
#define CODEC_INT_ERROR		BIT(1)

#define CODEC_FMT_NV12		0
#define CODEC_FMT_NV21		1
#define CODEC_FMT_YUYV		2
#define CODEC_FMT_UYVY		3

enum codec_error {
	CODEC_ERR_NONE,
	CODEC_ERR_PORT_ALIGN,
	CODEC_ERR_FORMAT,
	CODEC_ERR_SIZE,
	CODEC_ERR_STRIDE,
	CODEC_ERR_QUALITY,
	CODEC_ERR_ALIGN,
	CODEC_ERR_WINDOW,
	CODEC_ERR_BUS,
	CODEC_ERR_DST_SIZE,
	CODEC_ERR_SAME_BANK,
};

static const char *const codec_error_name[] = {
	[CODEC_ERR_NONE] = "none",
	[CODEC_ERR_PORT_ALIGN] = "port base misaligned",
	[CODEC_ERR_FORMAT] = "bad format",
	[CODEC_ERR_SIZE] = "bad size",
	[CODEC_ERR_STRIDE] = "bad stride",
	[CODEC_ERR_QUALITY] = "bad quality",
	[CODEC_ERR_ALIGN] = "misaligned buffer",
	[CODEC_ERR_WINDOW] = "buffer outside its port window",
	[CODEC_ERR_BUS] = "buffer not in RAM",
	[CODEC_ERR_DST_SIZE] = "output buffer too small",
	[CODEC_ERR_SAME_BANK] = "both kinds of buffer in one memory bank",
};

#define PORT_A			0
#define PORT_B			1
#define PORT_WINDOW		SZ_128M
#define PORT_BASE_ALIGN		SZ_128K
#define BUF_ALIGN		SZ_8K
#define CHROMA_ALIGN		16	/* SRC_C_OFFSET */
#define STRIDE_ALIGN		16

#define MIN_SIZE		16
#define MAX_SIZE		2048
#define DEF_WIDTH		640
#define DEF_HEIGHT		480
#define MAX_CAPTURE_SIZE	SZ_32M
/*
 * A job that has not ended after this is aborted.  The device's busy time
 * is the modelled time (at most 84 ms at 2048x2048) plus the time its
 * host takes to encode, which on a loaded host can reach seconds (QEMU
 * model: the encode runs on a worker thread while the guest runs on):
 * only a stuck device may hit this.
 */
#define JOB_TIMEOUT_MS		10000

/* Picture sizes (codec_adjust_raw()'s v4l_bound_align_image() call) */
static const struct v4l2_frmsize_stepwise codec_sizes = {
	MIN_SIZE, MAX_SIZE, 2, MIN_SIZE, MAX_SIZE, 2
};

/*
 * The first is the default: YUYV, what the camera captures by default.
 * NV12M and NV21M, the two planes in two buffers (SRC_Y_OFFSET and
 * SRC_C_OFFSET each point into one), only with the multi-planar API.
 */
static const struct s5p_fmt codec_raw_formats[] = {
	{ V4L2_PIX_FMT_YUYV, CODEC_FMT_YUYV, false, 1 },
	{ V4L2_PIX_FMT_UYVY, CODEC_FMT_UYVY, false, 1 },
	{ V4L2_PIX_FMT_NV12, CODEC_FMT_NV12, true, 1 },
	{ V4L2_PIX_FMT_NV21, CODEC_FMT_NV21, true, 1 },
	{ V4L2_PIX_FMT_NV12M, CODEC_FMT_NV12, true, 2 },
	{ V4L2_PIX_FMT_NV21M, CODEC_FMT_NV21, true, 2 },
};

/* Memory banks (the device tree's memory nodes): up to this many */
#define MAX_BANKS		8

struct codec_bank {
	unsigned long start, last;
};

struct codec_dev {
	struct v4l2_device v4l2_dev;
	struct video_device vfd;
	struct media_device mdev;
	struct v4l2_m2m_dev *m2m_dev;
	struct device *dev;
	void __iomem *regs;
	int irq;
	bool mplane;			/* the multi-planar API (multiplanar=2) */

	struct device *port[2];
	unsigned long port_base[2];
	unsigned long kind_lo[2], kind_hi[2];	/* cma_info() bounds, or 0 */
	struct codec_bank bank[MAX_BANKS];
	unsigned int nr_banks;
	u32 bitstream_banks;		/* banks kind "b" is in, one bit each */

	/* The video device's and both queues' lock: ioctls, open, release */
	struct mutex mutex;
	/*
	 * Taken in the interrupt handler too, lock guards curr, removed and
	 * job_start; the registers, from a job's programming to its
	 * interrupt, its abort or the device's removal; arming the watchdog
	 * (so that codec_remove()'s cancel is final); and, since ending a job
	 * changes them, every context's sequence numbers and m2m drain state
	 * (last_src_buf, is_draining, has_stopped, next_buf_last).
	 */
	spinlock_t lock;
	struct codec_ctx *curr;		/* context whose job is on the device */
	bool removed;			/* codec_remove() has begun */
	unsigned long job_start;	/* jiffies when curr's job started */
	struct delayed_work watchdog;	/* aborts a job that never ends */
	struct work_struct abort_work;	/* fails a job run after removal */
};

/*
 * Formats are kept in the multi-planar form whichever API the device
 * offers (as the camera driver does): the single-planar API's have one
 * plane.
 */
struct codec_ctx {
	struct v4l2_fh fh;
	struct codec_dev *codec;
	struct v4l2_ctrl_handler hdl;
	const struct s5p_fmt *fmt;
	struct v4l2_pix_format_mplane raw;	/* OUTPUT */
	struct v4l2_pix_format_mplane coded;	/* CAPTURE */
	bool coded_size_set;	/* CAPTURE's sizeimage chosen by S_FMT */
	u32 quality;
	u32 out_seq, cap_seq;
};

static inline struct codec_ctx *fh_to_ctx(struct v4l2_fh *fh)
{
	return container_of(fh, struct codec_ctx, fh);
}

static inline struct codec_ctx *file_to_ctx(struct file *file)
{
	return fh_to_ctx(file->private_data);
}

static u32 codec_read(struct codec_dev *codec, u32 reg)
{
	return readl(codec->regs + reg);
}

static void codec_write(struct codec_dev *codec, u32 reg, u32 val)
{
	writel(val, codec->regs + reg);
}

/* The format @fourcc, if the API in use (@mplane or not) offers it */
static const struct s5p_fmt *codec_find_fmt(u32 fourcc, bool mplane)
{
	return s5p_find_fmt(codec_raw_formats, ARRAY_SIZE(codec_raw_formats),
			    fourcc, mplane);
}

/* Worst realistic frame: 2 bytes a pixel plus the headers. */
static u32 codec_coded_size(u32 width, u32 height)
{
	return PAGE_ALIGN(width * height * 2 + SZ_16K);
}

/* ---- formats ---- */

static void codec_adjust_raw(struct v4l2_pix_format_mplane *pix, bool mplane)
{
	const struct s5p_fmt *fmt = codec_find_fmt(pix->pixelformat, mplane);
	u32 min_bpl, max_bpl, bpl;

	if (!fmt)
		fmt = &codec_raw_formats[0];
	pix->pixelformat = fmt->fourcc;
	v4l_bound_align_image(&pix->width, MIN_SIZE, MAX_SIZE, 1,
			      &pix->height, MIN_SIZE, MAX_SIZE, 1, 0);
	min_bpl = ALIGN(s5p_fmt_line(fmt, pix->width), STRIDE_ALIGN);
	max_bpl = ALIGN(MAX_SIZE * 2, STRIDE_ALIGN);
	bpl = clamp(ALIGN(pix->plane_fmt[0].bytesperline, STRIDE_ALIGN),
		    min_bpl, max_bpl);
	/* The device reads both planes with one stride (SRC_STRIDE) */
	s5p_fmt_planes(pix, fmt, bpl);
	memset(pix->reserved, 0, sizeof(pix->reserved));
	pix->field = V4L2_FIELD_NONE;
	pix->flags = 0;
	/*
	 * The colorimetry is the application's to describe (the encoder
	 * codes the samples as they are; CAPTURE reports the same); when it
	 * gives none, or an invalid one: JFIF's, sRGB primaries and
	 * transfer function, full-range BT.601 Y'CbCr (what
	 * V4L2_COLORSPACE_JPEG stands for, spelt out as the JPEG drivers do).
	 */
	if (pix->colorspace == V4L2_COLORSPACE_DEFAULT ||
	    pix->colorspace > V4L2_COLORSPACE_DCI_P3) {
		pix->colorspace = V4L2_COLORSPACE_SRGB;
		pix->xfer_func = V4L2_XFER_FUNC_SRGB;
		pix->ycbcr_enc = V4L2_YCBCR_ENC_601;
		pix->quantization = V4L2_QUANTIZATION_FULL_RANGE;
		return;
	}
	/*
	 * Another colorspace with the rest of JFIF's spelt-out default is
	 * what a client sends that changed only the colorspace of the format
	 * it was given (GStreamer's caps probe does, for each colorspace):
	 * the colorspace's own defaults, not an sRGB transfer function and
	 * full range grafted onto it.  Without this, GStreamer's encoder
	 * offers no limited-range BT.601 (the camera's, SMPTE 170M) and
	 * camera ! v4l2jpegenc does not negotiate.
	 */
	if (pix->colorspace != V4L2_COLORSPACE_SRGB &&
	    pix->xfer_func == V4L2_XFER_FUNC_SRGB &&
	    pix->ycbcr_enc == V4L2_YCBCR_ENC_601 &&
	    pix->quantization == V4L2_QUANTIZATION_FULL_RANGE) {
		pix->xfer_func = V4L2_XFER_FUNC_DEFAULT;
		pix->ycbcr_enc = V4L2_YCBCR_ENC_DEFAULT;
		pix->quantization = V4L2_QUANTIZATION_DEFAULT;
	}
	if (pix->xfer_func > V4L2_XFER_FUNC_SMPTE2084)
		pix->xfer_func = V4L2_XFER_FUNC_DEFAULT;
	if (pix->ycbcr_enc > V4L2_YCBCR_ENC_SMPTE240M)
		pix->ycbcr_enc = V4L2_YCBCR_ENC_DEFAULT;
	if (pix->quantization > V4L2_QUANTIZATION_LIM_RANGE)
		pix->quantization = V4L2_QUANTIZATION_DEFAULT;
}

/*
 * The bitstream's colorimetry: OUTPUT's primaries, transfer function and
 * Y'CbCr encoding (the samples are coded as they are), but always full
 * range, which is what the JFIF header of every frame declares.
 */
static void codec_coded_colorimetry(struct codec_ctx *ctx,
				    struct v4l2_pix_format_mplane *pix)
{
	pix->colorspace = ctx->raw.colorspace;
	pix->xfer_func = ctx->raw.xfer_func;
	pix->ycbcr_enc = ctx->raw.ycbcr_enc;
	pix->quantization = V4L2_QUANTIZATION_FULL_RANGE;
}

static void codec_adjust_coded(struct codec_ctx *ctx,
			       struct v4l2_pix_format_mplane *pix)
{
	u32 min = codec_coded_size(ctx->raw.width, ctx->raw.height);
	u32 size = pix->plane_fmt[0].sizeimage;

	pix->pixelformat = V4L2_PIX_FMT_JPEG;
	pix->width = ctx->raw.width;
	pix->height = ctx->raw.height;
	memset(pix->plane_fmt, 0, sizeof(pix->plane_fmt));
	memset(pix->reserved, 0, sizeof(pix->reserved));
	pix->num_planes = 1;
	pix->plane_fmt[0].sizeimage = clamp_t(u32, PAGE_ALIGN(size), min,
					      MAX_CAPTURE_SIZE);
	pix->field = V4L2_FIELD_NONE;
	codec_coded_colorimetry(ctx, pix);
	pix->flags = 0;
}

static int codec_querycap(struct file *file, void *priv,
			  struct v4l2_capability *cap)
{
	struct codec_dev *codec = video_drvdata(file);

	s5p_querycap(cap, codec->dev, CODEC_NAME, "S5PV210 Motion-JPEG encoder");
	return 0;
}

static int codec_enum_fmt_out(struct file *file, void *priv,
			      struct v4l2_fmtdesc *f)
{
	struct codec_dev *codec = video_drvdata(file);
	const struct s5p_fmt *fmt;

	/* The other API's type: what the core says to an ioctl it lacks */
	if (V4L2_TYPE_IS_MULTIPLANAR(f->type) != codec->mplane)
		return -EINVAL;
	fmt = s5p_enum_fmt(codec_raw_formats, ARRAY_SIZE(codec_raw_formats),
			   f->index, codec->mplane);
	if (!fmt)
		return -EINVAL;
	f->pixelformat = fmt->fourcc;
	return 0;
}

static int codec_enum_fmt_cap(struct file *file, void *priv,
			      struct v4l2_fmtdesc *f)
{
	struct codec_dev *codec = video_drvdata(file);

	if (V4L2_TYPE_IS_MULTIPLANAR(f->type) != codec->mplane || f->index)
		return -EINVAL;
	f->pixelformat = V4L2_PIX_FMT_JPEG;
	f->flags = V4L2_FMT_FLAG_COMPRESSED;
	return 0;
}

static int codec_enum_framesizes(struct file *file, void *priv,
				 struct v4l2_frmsizeenum *fsize)
{
	struct codec_dev *codec = video_drvdata(file);

	if (fsize->index)
		return -EINVAL;
	if (!codec_find_fmt(fsize->pixel_format, codec->mplane) &&
	    fsize->pixel_format != V4L2_PIX_FMT_JPEG)
		return -EINVAL;
	fsize->type = V4L2_FRMSIZE_TYPE_STEPWISE;
	fsize->stepwise = codec_sizes;
	return 0;
}

/* S_FMT on OUTPUT, @pix adjusted already */
static int codec_set_raw(struct codec_ctx *ctx, u32 type,
			 const struct v4l2_pix_format_mplane *pix)
{
	struct vb2_queue *vq = v4l2_m2m_get_vq(ctx->fh.m2m_ctx, type);

	if (vb2_is_busy(vq))
		return -EBUSY;
	ctx->raw = *pix;
	ctx->fmt = codec_find_fmt(ctx->raw.pixelformat, ctx->codec->mplane);
	/*
	 * CAPTURE follows: its buffer size too unless it has buffers (then
	 * a frame that does not fit comes back in error, and the log says
	 * how much it needs), its picture size and colorimetry always.  A
	 * buffer size the application chose with S_FMT(CAPTURE) stays
	 * (raised when the new picture needs more): clients set CAPTURE
	 * first, as dev-encoder.rst orders, and keep its sizeimage
	 * (GStreamer asks for 2 MiB and refuses smaller buffers).
	 */
	vq = v4l2_m2m_get_dst_vq(ctx->fh.m2m_ctx);
	if (!vb2_is_busy(vq)) {
		if (!ctx->coded_size_set)
			ctx->coded.plane_fmt[0].sizeimage = 0;
		codec_adjust_coded(ctx, &ctx->coded);
	} else {
		ctx->coded.width = ctx->raw.width;
		ctx->coded.height = ctx->raw.height;
		codec_coded_colorimetry(ctx, &ctx->coded);
	}
	return 0;
}

/*
 * S_FMT on CAPTURE, @pix as the application gave it; adjusts it.  Not
 * while either queue has buffers (dev-encoder.rst: the CAPTURE format
 * governs the OUTPUT formats, so it is set first, and only then are
 * buffers allocated on either queue).
 */
static int codec_set_coded(struct codec_ctx *ctx,
			   struct v4l2_pix_format_mplane *pix)
{
	if (vb2_is_busy(v4l2_m2m_get_src_vq(ctx->fh.m2m_ctx)) ||
	    vb2_is_busy(v4l2_m2m_get_dst_vq(ctx->fh.m2m_ctx)))
		return -EBUSY;
	ctx->coded_size_set = pix->plane_fmt[0].sizeimage >
		codec_coded_size(ctx->raw.width, ctx->raw.height);
	codec_adjust_coded(ctx, pix);
	ctx->coded = *pix;
	return 0;
}

/*
 * One table for both APIs, as the camera driver's (and vivid's): the
 * handlers of the API not in use say -ENOTTY (the core lets both buffer
 * types through to them).  First the multi-planar API's.
 */
static int codec_g_fmt_out_mp(struct file *file, void *priv,
			      struct v4l2_format *f)
{
	struct codec_ctx *ctx = file_to_ctx(file);

	if (!ctx->codec->mplane)
		return -ENOTTY;
	f->fmt.pix_mp = ctx->raw;
	return 0;
}

static int codec_g_fmt_cap_mp(struct file *file, void *priv,
			      struct v4l2_format *f)
{
	struct codec_ctx *ctx = file_to_ctx(file);

	if (!ctx->codec->mplane)
		return -ENOTTY;
	f->fmt.pix_mp = ctx->coded;
	return 0;
}

static int codec_try_fmt_out_mp(struct file *file, void *priv,
				struct v4l2_format *f)
{
	if (!file_to_ctx(file)->codec->mplane)
		return -ENOTTY;
	codec_adjust_raw(&f->fmt.pix_mp, true);
	return 0;
}

static int codec_try_fmt_cap_mp(struct file *file, void *priv,
				struct v4l2_format *f)
{
	struct codec_ctx *ctx = file_to_ctx(file);

	if (!ctx->codec->mplane)
		return -ENOTTY;
	codec_adjust_coded(ctx, &f->fmt.pix_mp);
	return 0;
}

static int codec_s_fmt_out_mp(struct file *file, void *priv,
			      struct v4l2_format *f)
{
	struct codec_ctx *ctx = file_to_ctx(file);

	if (!ctx->codec->mplane)
		return -ENOTTY;
	codec_adjust_raw(&f->fmt.pix_mp, true);
	return codec_set_raw(ctx, f->type, &f->fmt.pix_mp);
}

static int codec_s_fmt_cap_mp(struct file *file, void *priv,
			      struct v4l2_format *f)
{
	struct codec_ctx *ctx = file_to_ctx(file);

	if (!ctx->codec->mplane)
		return -ENOTTY;
	return codec_set_coded(ctx, &f->fmt.pix_mp);
}

/* The single-planar API (multiplanar=1) */
static int codec_g_fmt_out(struct file *file, void *priv, struct v4l2_format *f)
{
	struct codec_ctx *ctx = file_to_ctx(file);

	if (ctx->codec->mplane)
		return -ENOTTY;
	s5p_pix_from_mp(&f->fmt.pix, &ctx->raw);
	return 0;
}

static int codec_g_fmt_cap(struct file *file, void *priv, struct v4l2_format *f)
{
	struct codec_ctx *ctx = file_to_ctx(file);

	if (ctx->codec->mplane)
		return -ENOTTY;
	s5p_pix_from_mp(&f->fmt.pix, &ctx->coded);
	return 0;
}

static int codec_try_fmt_out(struct file *file, void *priv,
			     struct v4l2_format *f)
{
	struct v4l2_pix_format_mplane mp;

	if (file_to_ctx(file)->codec->mplane)
		return -ENOTTY;
	s5p_pix_to_mp(&mp, &f->fmt.pix);
	codec_adjust_raw(&mp, false);
	s5p_pix_from_mp(&f->fmt.pix, &mp);
	return 0;
}

static int codec_try_fmt_cap(struct file *file, void *priv,
			     struct v4l2_format *f)
{
	struct codec_ctx *ctx = file_to_ctx(file);
	struct v4l2_pix_format_mplane mp;

	if (ctx->codec->mplane)
		return -ENOTTY;
	s5p_pix_to_mp(&mp, &f->fmt.pix);
	codec_adjust_coded(ctx, &mp);
	s5p_pix_from_mp(&f->fmt.pix, &mp);
	return 0;
}

static int codec_s_fmt_out(struct file *file, void *priv,
			   struct v4l2_format *f)
{
	struct codec_ctx *ctx = file_to_ctx(file);
	struct v4l2_pix_format_mplane mp;

	if (ctx->codec->mplane)
		return -ENOTTY;
	s5p_pix_to_mp(&mp, &f->fmt.pix);
	codec_adjust_raw(&mp, false);
	s5p_pix_from_mp(&f->fmt.pix, &mp);
	return codec_set_raw(ctx, f->type, &mp);
}

static int codec_s_fmt_cap(struct file *file, void *priv,
			   struct v4l2_format *f)
{
	struct codec_ctx *ctx = file_to_ctx(file);
	struct v4l2_pix_format_mplane mp;
	int ret;

	if (ctx->codec->mplane)
		return -ENOTTY;
	s5p_pix_to_mp(&mp, &f->fmt.pix);
	ret = codec_set_coded(ctx, &mp);
	s5p_pix_from_mp(&f->fmt.pix, &mp);
	return ret;
}

static int codec_encoder_cmd(struct file *file, void *priv,
			     struct v4l2_encoder_cmd *ec)
{
	static const struct v4l2_event eos = { .type = V4L2_EVENT_EOS };
	struct codec_ctx *ctx = file_to_ctx(file);
	struct v4l2_m2m_ctx *m2m_ctx = ctx->fh.m2m_ctx;
	struct codec_dev *codec = ctx->codec;
	bool was_stopped, stopped;
	unsigned long flags;
	int ret;

	ret = v4l2_m2m_ioctl_try_encoder_cmd(file, priv, ec);
	if (ret < 0)
		return ret;
	if (!vb2_is_streaming(&m2m_ctx->cap_q_ctx.q) ||
	    !vb2_is_streaming(&m2m_ctx->out_q_ctx.q))
		return 0;
	/*
	 * The drain state (last_src_buf, is_draining, has_stopped) is also
	 * read and updated by codec_job_done() in the interrupt handler:
	 * change it under the same lock, or a STOP that picks the running
	 * job's buffer as the last one just after the handler has finished
	 * that job never ends.  The helper clears has_stopped on START: look
	 * at it before.
	 */
	spin_lock_irqsave(&codec->lock, flags);
	was_stopped = v4l2_m2m_has_stopped(m2m_ctx);
	ret = v4l2_m2m_encoder_cmd(file, m2m_ctx, ec);
	stopped = v4l2_m2m_has_stopped(m2m_ctx);
	spin_unlock_irqrestore(&codec->lock, flags);
	if (ret < 0)
		return ret;
	if (ec->cmd == V4L2_ENC_CMD_STOP && stopped)
		v4l2_event_queue_fh(&ctx->fh, &eos);
	if (ec->cmd == V4L2_ENC_CMD_START && was_stopped) {
		/* DQBUF no longer says EPIPE; pictures queued meanwhile run */
		vb2_clear_last_buffer_dequeued(&m2m_ctx->cap_q_ctx.q);
		v4l2_m2m_try_schedule(m2m_ctx);
	}
	return 0;
}

static int codec_subscribe_event(struct v4l2_fh *fh,
				 const struct v4l2_event_subscription *sub)
{
	switch (sub->type) {
	case V4L2_EVENT_EOS:
		return v4l2_event_subscribe(fh, sub, 0, NULL);
	default:
		return v4l2_ctrl_subscribe_event(fh, sub);
	}
}

static const struct v4l2_ioctl_ops codec_ioctl_ops = {
	.vidioc_querycap		= codec_querycap,
	.vidioc_enum_fmt_vid_out	= codec_enum_fmt_out,
	.vidioc_enum_fmt_vid_cap	= codec_enum_fmt_cap,
	.vidioc_enum_framesizes		= codec_enum_framesizes,
	.vidioc_g_fmt_vid_out		= codec_g_fmt_out,
	.vidioc_g_fmt_vid_cap		= codec_g_fmt_cap,
	.vidioc_try_fmt_vid_out		= codec_try_fmt_out,
	.vidioc_try_fmt_vid_cap		= codec_try_fmt_cap,
	.vidioc_s_fmt_vid_out		= codec_s_fmt_out,
	.vidioc_s_fmt_vid_cap		= codec_s_fmt_cap,
	.vidioc_g_fmt_vid_out_mplane	= codec_g_fmt_out_mp,
	.vidioc_g_fmt_vid_cap_mplane	= codec_g_fmt_cap_mp,
	.vidioc_try_fmt_vid_out_mplane	= codec_try_fmt_out_mp,
	.vidioc_try_fmt_vid_cap_mplane	= codec_try_fmt_cap_mp,
	.vidioc_s_fmt_vid_out_mplane	= codec_s_fmt_out_mp,
	.vidioc_s_fmt_vid_cap_mplane	= codec_s_fmt_cap_mp,

	/*
	 * No G/S_PARM: a Motion-JPEG frame carries no timing, and a mem2mem
	 * JPEG encoder (V4L2_PIX_FMT_JPEG on CAPTURE) is not a stateful
	 * video encoder, whose OUTPUT frame interval dev-encoder.rst
	 * describes; v4l2-compliance fails a mem2mem node of any other kind
	 * that offers them (coda's JPEG encoder disables them so).
	 */
	.vidioc_reqbufs			= v4l2_m2m_ioctl_reqbufs,
	.vidioc_querybuf		= v4l2_m2m_ioctl_querybuf,
	.vidioc_qbuf			= v4l2_m2m_ioctl_qbuf,
	.vidioc_dqbuf			= v4l2_m2m_ioctl_dqbuf,
	.vidioc_prepare_buf		= v4l2_m2m_ioctl_prepare_buf,
	.vidioc_create_bufs		= v4l2_m2m_ioctl_create_bufs,
	.vidioc_expbuf			= v4l2_m2m_ioctl_expbuf,
	.vidioc_streamon		= v4l2_m2m_ioctl_streamon,
	.vidioc_streamoff		= v4l2_m2m_ioctl_streamoff,

	.vidioc_try_encoder_cmd		= v4l2_m2m_ioctl_try_encoder_cmd,
	.vidioc_encoder_cmd		= codec_encoder_cmd,

	.vidioc_subscribe_event		= codec_subscribe_event,
	.vidioc_unsubscribe_event	= v4l2_event_unsubscribe,
};

/* ---- the device ---- */

/* Where the picture's plane @p starts (after its data_offset) */
static unsigned long codec_plane_addr(struct vb2_buffer *vb, unsigned int p)
{
	return vb2_dma_contig_plane_dma_addr(vb, p) + vb->planes[p].data_offset;
}

/* Start the job of @priv on the device. */
static void codec_device_run(void *priv)
{
	struct codec_ctx *ctx = priv;
	struct codec_dev *codec = ctx->codec;
	struct vb2_v4l2_buffer *src, *dst;
	unsigned long flags, y_pa, c_pa, dst_pa;
	const struct v4l2_pix_format_mplane *raw = &ctx->raw;
	u32 stride = raw->plane_fmt[0].bytesperline;

	src = v4l2_m2m_next_src_buf(ctx->fh.m2m_ctx);
	dst = v4l2_m2m_next_dst_buf(ctx->fh.m2m_ctx);
	/*
	 * Where codec_buf_prepare() checked the planes are: the luma (or
	 * packed) plane in the first buffer, the chroma plane in the second
	 * (NV12M, NV21M) or after the luma plane in the first.
	 */
	y_pa = codec_plane_addr(&src->vb2_buf, 0);
	if (ctx->fmt->buffers == 2)
		c_pa = codec_plane_addr(&src->vb2_buf, 1);
	else
		c_pa = y_pa + stride * raw->height;
	dst_pa = vb2_dma_contig_plane_dma_addr(&dst->vb2_buf, 0);

	spin_lock_irqsave(&codec->lock, flags);
	codec->curr = ctx;
	if (codec->removed) {
		spin_unlock_irqrestore(&codec->lock, flags);
		schedule_work(&codec->abort_work);
		return;
	}
	codec_write(codec, CODEC_PORT_BASE(PORT_A), codec->port_base[PORT_A]);
	codec_write(codec, CODEC_PORT_BASE(PORT_B), codec->port_base[PORT_B]);
	codec_write(codec, CODEC_SRC_FORMAT, ctx->fmt->hw);
	codec_write(codec, CODEC_SRC_WIDTH, raw->width);
	codec_write(codec, CODEC_SRC_HEIGHT, raw->height);
	codec_write(codec, CODEC_SRC_STRIDE, stride);
	codec_write(codec, CODEC_SRC_Y_OFFSET, y_pa - codec->port_base[PORT_A]);
	codec_write(codec, CODEC_SRC_C_OFFSET, c_pa - codec->port_base[PORT_A]);
	codec_write(codec, CODEC_DST_OFFSET, dst_pa - codec->port_base[PORT_B]);
	codec_write(codec, CODEC_DST_SIZE, vb2_plane_size(&dst->vb2_buf, 0));
	codec_write(codec, CODEC_QUALITY, ctx->quality);
	codec_write(codec, CODEC_INT_ENABLE, CODEC_INT_DONE | CODEC_INT_ERROR);
	codec_write(codec, CODEC_CMD, CODEC_CMD_START);
	codec->job_start = jiffies;
	/*
	 * Armed under the lock: once codec_remove() has set removed and
	 * cancelled it, nothing arms it again.  mod_: still pending from an
	 * earlier job, it must count from this one's start.
	 */
	mod_delayed_work(system_wq, &codec->watchdog,
			 msecs_to_jiffies(JOB_TIMEOUT_MS));
	spin_unlock_irqrestore(&codec->lock, flags);
}

/*
 * End the job of @ctx: both buffers done with @state, @size bytes of
 * bitstream.  Called with codec->lock held, the job still current.
 */
static void codec_job_done(struct codec_dev *codec, struct codec_ctx *ctx,
			   enum vb2_buffer_state state, u32 size)
{
	static const struct v4l2_event eos = { .type = V4L2_EVENT_EOS };
	struct vb2_v4l2_buffer *src, *dst;

	codec->curr = NULL;
	src = v4l2_m2m_src_buf_remove(ctx->fh.m2m_ctx);
	dst = v4l2_m2m_dst_buf_remove(ctx->fh.m2m_ctx);
	if (WARN_ON(!src || !dst))
		return;

	src->sequence = ctx->out_seq++;
	dst->sequence = ctx->cap_seq++;
	v4l2_m2m_buf_copy_metadata(src, dst, true);
	dst->flags |= V4L2_BUF_FLAG_KEYFRAME;
	dst->flags &= ~V4L2_BUF_FLAG_LAST;
	vb2_set_plane_payload(&dst->vb2_buf, 0,
			      state == VB2_BUF_STATE_DONE ? size : 0);
	if (v4l2_m2m_is_last_draining_src_buf(ctx->fh.m2m_ctx, src)) {
		dst->flags |= V4L2_BUF_FLAG_LAST;
		v4l2_event_queue_fh(&ctx->fh, &eos);
		v4l2_m2m_mark_stopped(ctx->fh.m2m_ctx);
	}
	v4l2_m2m_buf_done(src, state);
	v4l2_m2m_buf_done(dst, state);
}

static irqreturn_t codec_irq(int irq, void *priv)
{
	struct codec_dev *codec = priv;
	struct codec_ctx *ctx;
	u32 status, err = 0, size;
	enum vb2_buffer_state state = VB2_BUF_STATE_DONE;
	bool fatal = false;

	spin_lock(&codec->lock);
	status = codec_read(codec, CODEC_INT_STATUS);
	if (!status) {
		spin_unlock(&codec->lock);
		return IRQ_NONE;
	}
	codec_write(codec, CODEC_INT_STATUS, status);
	ctx = codec->curr;
	if (!ctx) {
		spin_unlock(&codec->lock);
		dev_warn_ratelimited(codec->dev, "interrupt 0x%x with no job\n",
				     status);
		return IRQ_HANDLED;
	}
	size = codec_read(codec, CODEC_ENC_SIZE);
	if (status & CODEC_INT_ERROR) {
		err = codec_read(codec, CODEC_ERROR);
		state = VB2_BUF_STATE_ERROR;
	}
	codec_job_done(codec, ctx, state, size);
	spin_unlock(&codec->lock);
	cancel_delayed_work(&codec->watchdog);

	if (err == CODEC_ERR_DST_SIZE) {
		dev_warn_ratelimited(codec->dev,
				     "frame needs %u bytes, CAPTURE has %u: raise its sizeimage\n",
				     size, ctx->coded.plane_fmt[0].sizeimage);
	} else if (err == CODEC_ERR_SAME_BANK) {
		/*
		 * The picture and the bitstream must be in different banks:
		 * codec_buf_prepare() refuses buffers that break the rule
		 * when it knows the banks, so this is a device whose bank map
		 * differs from the device tree's.  Nothing the driver can
		 * do; say so and stop.  Rate-limited, as every print here: a
		 * device error repeats at every job until STREAMOFF, and an
		 * application may restart streaming in a loop.
		 */
		dev_err_ratelimited(codec->dev,
				    "placement error: picture and bitstream in one memory bank\n");
		dev_err_ratelimited(codec->dev,
				    "cma_map= must put %s/a and %s/b in different banks\n",
				    dev_name(codec->dev), dev_name(codec->dev));
		fatal = true;
	} else if (err) {
		dev_err_ratelimited(codec->dev, "encoding failed: %s (error %u)\n",
				    err < ARRAY_SIZE(codec_error_name) ?
				    codec_error_name[err] : "unknown", err);
		fatal = true;
	}
	/*
	 * Later jobs would fail the same way: both queues in error until
	 * the application stops streaming (vb2 clears it at STREAMOFF and
	 * REQBUFS), nothing of it kept beyond that.
	 */
	if (fatal) {
		vb2_queue_error(v4l2_m2m_get_src_vq(ctx->fh.m2m_ctx));
		vb2_queue_error(v4l2_m2m_get_dst_vq(ctx->fh.m2m_ctx));
	}
	v4l2_m2m_job_finish(codec->m2m_dev, ctx->fh.m2m_ctx);
	return IRQ_HANDLED;
}

/*
 * Fail the job on the device, resetting it: any job, or only @only's when
 * given.  @why, when given, is logged.
 */
static void codec_abort_job(struct codec_dev *codec, struct codec_ctx *only,
			    const char *why)
{
	struct codec_ctx *ctx;
	unsigned long flags;

	spin_lock_irqsave(&codec->lock, flags);
	ctx = codec->curr;
	if (!ctx || (only && ctx != only)) {
		spin_unlock_irqrestore(&codec->lock, flags);
		return;
	}
	if (!codec->removed) {
		codec_write(codec, CODEC_CMD, CODEC_CMD_RESET);
		if (why)
			dev_err(codec->dev, "%s: device reset\n", why);
	}
	codec_job_done(codec, ctx, VB2_BUF_STATE_ERROR, 0);
	spin_unlock_irqrestore(&codec->lock, flags);
	v4l2_m2m_job_finish(codec->m2m_dev, ctx->fh.m2m_ctx);
}

static void codec_watchdog(struct work_struct *work)
{
	struct codec_dev *codec = container_of(to_delayed_work(work),
					       struct codec_dev, watchdog);
	unsigned long timeout = msecs_to_jiffies(JOB_TIMEOUT_MS);
	unsigned long flags;
	bool late;

	/* Armed for an earlier job that has ended since? */
	spin_lock_irqsave(&codec->lock, flags);
	late = codec->curr && time_after_eq(jiffies, codec->job_start + timeout);
	spin_unlock_irqrestore(&codec->lock, flags);
	if (late)
		codec_abort_job(codec, NULL, "encode timed out");
}

static void codec_abort_work(struct work_struct *work)
{
	codec_abort_job(container_of(work, struct codec_dev, abort_work), NULL,
			"device removed");
}

/*
 * STREAMOFF or close while this context's job is on the device (the m2m
 * core waits for the job to finish after this, holding the queue's lock,
 * which is codec->mutex): reset the device and fail the job now, rather
 * than wait for its interrupt, or on a stuck device for the watchdog.  A
 * job that has just ended, or is not yet on the device, is left alone.
 */
static void codec_job_abort(void *priv)
{
	struct codec_ctx *ctx = priv;

	codec_abort_job(ctx->codec, ctx, NULL);
}

static const struct v4l2_m2m_ops codec_m2m_ops = {
	.device_run	= codec_device_run,
	.job_abort	= codec_job_abort,
};

/* ---- queues ---- */

static int codec_queue_setup(struct vb2_queue *vq, unsigned int *nbuffers,
			     unsigned int *nplanes, unsigned int sizes[],
			     struct device *alloc_devs[])
{
	struct codec_ctx *ctx = vb2_get_drv_priv(vq);
	bool out = V4L2_TYPE_IS_OUTPUT(vq->type);
	unsigned int p;
	int ret;

	/* 8 KiB long at least, so 8 KiB aligned, as the ports want */
	ret = s5p_queue_sizes(out ? &ctx->raw : &ctx->coded, nplanes, sizes,
			      BUF_ALIGN);
	if (ret)
		return ret;
	/* Both planes of a picture through port A, kind "a" */
	for (p = 0; p < *nplanes; p++)
		alloc_devs[p] = ctx->codec->port[out ? PORT_A : PORT_B];
	return 0;
}

static int codec_buf_out_validate(struct vb2_buffer *vb)
{
	struct vb2_v4l2_buffer *vbuf = to_vb2_v4l2_buffer(vb);

	if (vbuf->field == V4L2_FIELD_ANY)
		vbuf->field = V4L2_FIELD_NONE;
	return vbuf->field == V4L2_FIELD_NONE ? 0 : -EINVAL;
}

/* The memory banks [@start, @last] touches, one bit a bank */
static u32 codec_banks(struct codec_dev *codec, unsigned long start,
		       unsigned long last)
{
	u32 banks = 0;
	unsigned int i;

	for (i = 0; i < codec->nr_banks; i++)
		if (start <= codec->bank[i].last && last >= codec->bank[i].start)
			banks |= BIT(i);
	return banks;
}

/* What plane @p of an OUTPUT (@out) or CAPTURE buffer holds, for the log */
static const char *codec_plane_name(const struct codec_ctx *ctx, bool out,
				    unsigned int p)
{
	if (!out)
		return "bitstream";
	if (!ctx->fmt->planar)
		return "packed picture";
	if (ctx->fmt->buffers == 1)
		return "luma and chroma";
	return p ? "chroma" : "luma";
}

/*
 * Plane @p of buffer @vb at QBUF: what it holds (codec_plane_name()) and
 * what of it the device reads (a picture plane: sizeimage bytes from its
 * data_offset) or may write (a bitstream buffer: all of it, DST_SIZE).
 */
struct codec_plane {
	struct vb2_buffer *vb;
	unsigned int p;
	const char *name;
	unsigned long start, last;
};

/*
 * Plane @p of @vb as @pl; -EINVAL if it is shorter than the format says
 * (after its data_offset, on OUTPUT).
 */
static int codec_plane_locate(const struct codec_ctx *ctx,
			      struct vb2_buffer *vb, unsigned int p,
			      struct codec_plane *pl)
{
	bool out = V4L2_TYPE_IS_OUTPUT(vb->type);
	const struct v4l2_pix_format_mplane *pix = out ? &ctx->raw : &ctx->coded;
	unsigned long size = pix->plane_fmt[p].sizeimage;
	unsigned long len = vb2_plane_size(vb, p);
	unsigned long off = out ? vb->planes[p].data_offset : 0;

	if (len < off + size) {
		dev_dbg(ctx->codec->dev, "%s buffer %u plane %u too small: %lu < %lu\n",
			out ? "OUTPUT" : "CAPTURE", vb->index, p, len, off + size);
		return -EINVAL;
	}
	pl->vb = vb;
	pl->p = p;
	pl->name = codec_plane_name(ctx, out, p);
	pl->start = vb2_dma_contig_plane_dma_addr(vb, p) + off;
	pl->last = pl->start + (out ? size : len) - 1;
	return 0;
}

/*
 * Say why @pl is refused: "<queue> buffer <n> plane <p> (<what>) at
 * <start>-<last> refused: " and the reason, @fmt.  The caller's @rs, one
 * a reason, limits the rate as dev_warn_ratelimited() would: an
 * application may queue the same buffer in a loop.
 */
static __printf(4, 5) void codec_refuse(struct codec_dev *codec,
					struct ratelimit_state *rs,
					const struct codec_plane *pl,
					const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	if (!__ratelimit(rs))
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	dev_warn(codec->dev, "%s buffer %u plane %u (%s) at 0x%08lx-0x%08lx refused: %pV\n",
		 V4L2_TYPE_IS_OUTPUT(pl->vb->type) ? "OUTPUT" : "CAPTURE",
		 pl->vb->index, pl->p, pl->name, pl->start, pl->last, &vaf);
	va_end(args);
}

/*
 * The port's rule: @pl inside port @port's 128 MiB window, @align
 * aligned (8 KiB, the chroma plane of NV12M and NV21M 16 bytes).
 */
static int codec_check_window(struct codec_dev *codec,
			      const struct codec_plane *pl, int port,
			      unsigned long align)
{
	static DEFINE_RATELIMIT_STATE(rs, DEFAULT_RATELIMIT_INTERVAL,
				      DEFAULT_RATELIMIT_BURST);
	unsigned long base = codec->port_base[port];

	if (IS_ALIGNED(pl->start, align) && pl->start >= base &&
	    pl->last - base < PORT_WINDOW)
		return 0;
	codec_refuse(codec, &rs, pl,
		     "not %s aligned inside port %c's window 0x%08lx-0x%08lx",
		     align == BUF_ALIGN ? "8 KiB" : "16-byte", 'A' + port,
		     base, base + PORT_WINDOW - 1);
	return -EINVAL;
}

/*
 * The device's rule for banks (error 10 at START): the picture and the
 * bitstream in different ones.  A picture plane (@out) in a bank of kind
 * "b"'s regions, or a bitstream buffer in a bank without them, might
 * meet the other kind.  Without a bank map, or without kind "b", the
 * device's own check is all there is.
 */
static int codec_check_bank(struct codec_dev *codec,
			    const struct codec_plane *pl, bool out)
{
	static DEFINE_RATELIMIT_STATE(rs, DEFAULT_RATELIMIT_INTERVAL,
				      DEFAULT_RATELIMIT_BURST);
	u32 others = out ? codec->bitstream_banks : ~codec->bitstream_banks;
	u32 bad = codec_banks(codec, pl->start, pl->last) & others;
	const struct codec_bank *b;

	if (!codec->bitstream_banks || !bad)
		return 0;
	b = &codec->bank[__ffs(bad)];
	codec_refuse(codec, &rs, pl,
		     "%s bank 0x%08lx-0x%08lx%s; pictures and bitstream need different banks",
		     out ? "in the bitstream's" : "in", b->start, b->last,
		     out ? " (kind \"b\")" : ", where pictures (kind \"a\") may be");
	return -EINVAL;
}

/*
 * A picture is sizeimage bytes from its data_offset: less would encode
 * what is not there.  A payload of 0 means the whole buffer (an imported
 * DMABUF queued with bytesused and length 0 gets here so: vb2 takes the
 * length from the DMABUF only after it has derived bytesused from it).
 */
static int codec_check_payload(const struct codec_ctx *ctx,
			       struct vb2_buffer *vb, unsigned int p)
{
	unsigned long need = vb->planes[p].data_offset +
			     ctx->raw.plane_fmt[p].sizeimage;
	unsigned long payload;

	if (!vb2_get_plane_payload(vb, p))
		vb2_set_plane_payload(vb, p, vb2_plane_size(vb, p));
	payload = vb2_get_plane_payload(vb, p);
	if (payload >= need)
		return 0;
	dev_dbg(ctx->codec->dev, "OUTPUT buffer %u plane %u: payload %lu < %lu\n",
		vb->index, p, payload, need);
	return -EINVAL;
}

/*
 * Everything the device will check of a buffer's planes at START, checked
 * here instead, at QBUF (or PREPARE_BUF): an imported DMABUF may be
 * anywhere, and a device error at run time would leave the application
 * with a queue in error and no reason.  Each refusal is logged with the
 * plane and its address.  The port windows and the banks are fixed at
 * probe and the format while buffers exist, so what passes here passes
 * at START too.
 */
static int codec_buf_prepare(struct vb2_buffer *vb)
{
	struct codec_ctx *ctx = vb2_get_drv_priv(vb->vb2_queue);
	struct codec_dev *codec = ctx->codec;
	bool out = V4L2_TYPE_IS_OUTPUT(vb->type);
	const struct v4l2_pix_format_mplane *pix = out ? &ctx->raw : &ctx->coded;
	int port = out ? PORT_A : PORT_B;
	struct codec_plane pl;
	unsigned int p;
	int ret;

	if (vb->num_planes != pix->num_planes)
		return -EINVAL;
	for (p = 0; p < pix->num_planes; p++) {
		/* The chroma plane of NV12M/NV21M: 16 bytes, the rest 8 KiB */
		unsigned long align = out && p ? CHROMA_ALIGN : BUF_ALIGN;

		ret = codec_plane_locate(ctx, vb, p, &pl);
		if (!ret)
			ret = codec_check_window(codec, &pl, port, align);
		if (!ret)
			ret = codec_check_bank(codec, &pl, out);
		if (!ret && out)
			ret = codec_check_payload(ctx, vb, p);
		if (ret)
			return ret;
	}
	return 0;
}

static void codec_buf_queue(struct vb2_buffer *vb)
{
	static const struct v4l2_event eos = { .type = V4L2_EVENT_EOS };
	struct vb2_v4l2_buffer *vbuf = to_vb2_v4l2_buffer(vb);
	struct codec_ctx *ctx = vb2_get_drv_priv(vb->vb2_queue);
	struct codec_dev *codec = ctx->codec;
	unsigned long flags;

	if (V4L2_TYPE_IS_CAPTURE(vb->type) && vb2_is_streaming(vb->vb2_queue)) {
		/* The drain state, as in codec_encoder_cmd() */
		spin_lock_irqsave(&codec->lock, flags);
		if (v4l2_m2m_dst_buf_is_last(ctx->fh.m2m_ctx)) {
			vb2_set_plane_payload(vb, 0, 0);
			vbuf->field = V4L2_FIELD_NONE;
			vbuf->sequence = ctx->cap_seq++;
			v4l2_m2m_last_buffer_done(ctx->fh.m2m_ctx, vbuf);
			spin_unlock_irqrestore(&codec->lock, flags);
			v4l2_event_queue_fh(&ctx->fh, &eos);
			return;
		}
		spin_unlock_irqrestore(&codec->lock, flags);
	}
	v4l2_m2m_buf_queue(ctx->fh.m2m_ctx, vbuf);
}

static int codec_start_streaming(struct vb2_queue *q, unsigned int count)
{
	struct codec_ctx *ctx = vb2_get_drv_priv(q);

	v4l2_m2m_update_start_streaming_state(ctx->fh.m2m_ctx, q);
	if (V4L2_TYPE_IS_OUTPUT(q->type))
		ctx->out_seq = 0;
	else
		ctx->cap_seq = 0;
	return 0;
}

static void codec_stop_streaming(struct vb2_queue *q)
{
	static const struct v4l2_event eos = { .type = V4L2_EVENT_EOS };
	struct codec_ctx *ctx = vb2_get_drv_priv(q);
	struct vb2_v4l2_buffer *vbuf;

	for (;;) {
		if (V4L2_TYPE_IS_OUTPUT(q->type))
			vbuf = v4l2_m2m_src_buf_remove(ctx->fh.m2m_ctx);
		else
			vbuf = v4l2_m2m_dst_buf_remove(ctx->fh.m2m_ctx);
		if (!vbuf)
			break;
		v4l2_m2m_buf_done(vbuf, VB2_BUF_STATE_ERROR);
	}
	v4l2_m2m_update_stop_streaming_state(ctx->fh.m2m_ctx, q);
	if (V4L2_TYPE_IS_OUTPUT(q->type) &&
	    v4l2_m2m_has_stopped(ctx->fh.m2m_ctx))
		v4l2_event_queue_fh(&ctx->fh, &eos);
}

static const struct vb2_ops codec_qops = {
	.queue_setup		= codec_queue_setup,
	.buf_out_validate	= codec_buf_out_validate,
	.buf_prepare		= codec_buf_prepare,
	.buf_queue		= codec_buf_queue,
	.start_streaming	= codec_start_streaming,
	.stop_streaming		= codec_stop_streaming,
	.wait_prepare		= vb2_ops_wait_prepare,
	.wait_finish		= vb2_ops_wait_finish,
};

static int codec_queue_init(void *priv, struct vb2_queue *src_vq,
			    struct vb2_queue *dst_vq)
{
	struct codec_ctx *ctx = priv;
	struct codec_dev *codec = ctx->codec;
	bool mp = codec->mplane;
	int ret;

	/* Pictures in through port A, the bitstream out through port B */
	src_vq->timestamp_flags = V4L2_BUF_FLAG_TIMESTAMP_COPY;
	ret = s5p_queue_init(src_vq, mp ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE :
					  V4L2_BUF_TYPE_VIDEO_OUTPUT,
			     &codec_qops, ctx, sizeof(struct v4l2_m2m_buffer),
			     &codec->mutex, codec->port[PORT_A]);
	if (ret)
		return ret;
	dst_vq->timestamp_flags = V4L2_BUF_FLAG_TIMESTAMP_COPY;
	return s5p_queue_init(dst_vq, mp ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
					   V4L2_BUF_TYPE_VIDEO_CAPTURE,
			      &codec_qops, ctx, sizeof(struct v4l2_m2m_buffer),
			      &codec->mutex, codec->port[PORT_B]);
}

/* ---- controls ---- */

static int codec_s_ctrl(struct v4l2_ctrl *ctrl)
{
	struct codec_ctx *ctx = container_of(ctrl->handler, struct codec_ctx,
					     hdl);

	switch (ctrl->id) {
	case V4L2_CID_JPEG_COMPRESSION_QUALITY:
		ctx->quality = ctrl->val;
		return 0;
	default:
		return -EINVAL;
	}
}

static const struct v4l2_ctrl_ops codec_ctrl_ops = {
	.s_ctrl = codec_s_ctrl,
};

/* ---- file operations ---- */

static int codec_open(struct file *file)
{
	struct codec_dev *codec = video_drvdata(file);
	struct codec_ctx *ctx;
	int ret;

	if (mutex_lock_interruptible(&codec->mutex))
		return -ERESTARTSYS;
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx) {
		ret = -ENOMEM;
		goto unlock;
	}
	ctx->codec = codec;
	v4l2_fh_init(&ctx->fh, video_devdata(file));
	file->private_data = &ctx->fh;

	v4l2_ctrl_handler_init(&ctx->hdl, 1);
	v4l2_ctrl_new_std(&ctx->hdl, &codec_ctrl_ops,
			  V4L2_CID_JPEG_COMPRESSION_QUALITY, 1, 100, 1, 75);
	if (ctx->hdl.error) {
		ret = ctx->hdl.error;
		goto free_hdl;
	}
	ctx->fh.ctrl_handler = &ctx->hdl;
	v4l2_ctrl_handler_setup(&ctx->hdl);

	ctx->raw.pixelformat = codec_raw_formats[0].fourcc;
	ctx->raw.width = DEF_WIDTH;
	ctx->raw.height = DEF_HEIGHT;
	codec_adjust_raw(&ctx->raw, codec->mplane);
	ctx->fmt = codec_find_fmt(ctx->raw.pixelformat, codec->mplane);
	codec_adjust_coded(ctx, &ctx->coded);

	ctx->fh.m2m_ctx = v4l2_m2m_ctx_init(codec->m2m_dev, ctx,
					    codec_queue_init);
	if (IS_ERR(ctx->fh.m2m_ctx)) {
		ret = PTR_ERR(ctx->fh.m2m_ctx);
		goto free_hdl;
	}
	v4l2_fh_add(&ctx->fh);
	mutex_unlock(&codec->mutex);
	return 0;

free_hdl:
	v4l2_ctrl_handler_free(&ctx->hdl);
	v4l2_fh_exit(&ctx->fh);
	kfree(ctx);
unlock:
	mutex_unlock(&codec->mutex);
	return ret;
}

static int codec_release(struct file *file)
{
	struct codec_dev *codec = video_drvdata(file);
	struct codec_ctx *ctx = file_to_ctx(file);

	v4l2_fh_del(&ctx->fh);
	/*
	 * A frame of this context still on the device is of no use now:
	 * v4l2_m2m_ctx_release() fails it at once (codec_job_abort()) rather
	 * than wait for it holding codec->mutex, which every other context's
	 * ioctls need.
	 */
	mutex_lock(&codec->mutex);
	v4l2_m2m_ctx_release(ctx->fh.m2m_ctx);
	mutex_unlock(&codec->mutex);
	v4l2_ctrl_handler_free(&ctx->hdl);
	v4l2_fh_exit(&ctx->fh);
	kfree(ctx);
	return 0;
}

static const struct v4l2_file_operations codec_fops = {
	.owner		= THIS_MODULE,
	.open		= codec_open,
	.release	= codec_release,
	.poll		= v4l2_m2m_fop_poll,
	.unlocked_ioctl	= video_ioctl2,
	.mmap		= v4l2_m2m_fop_mmap,
};

/* ---- probe ---- */

/*
 * Place port @p's 128 MiB window over the regions cma_map= gives kind
 * @kind: ending at their top, so that it also reaches below them (where
 * another device's buffers, imported as DMABUF, may be).
 */
static int codec_place_port(struct codec_dev *codec, int p, const char *kind)
{
	struct cma_info info;
	unsigned long base;
	int ret;

	/*
	 * Without a region the kind's buffers would come from wherever the
	 * DMA API's default memory is, which no port window is placed over:
	 * every one would be refused at QBUF.  Refuse to probe instead.
	 */
	ret = cma_info(&info, codec->dev, kind);
	if (ret) {
		dev_err(codec->dev,
			"no CMA region for kind \"%s\" (%d): give cma_map= a rule for %s/%s\n",
			kind, ret, dev_name(codec->dev), kind);
		return ret;
	}
	if (info.upper_bound - info.lower_bound > PORT_WINDOW)
		dev_warn(codec->dev,
			 "kind \"%s\" spans 0x%08lx-0x%08lx: more than port %c's 128 MiB window\n",
			 kind, info.lower_bound, info.upper_bound - 1, 'A' + p);
	base = info.upper_bound > PORT_WINDOW ?
	       ALIGN(info.upper_bound - PORT_WINDOW, PORT_BASE_ALIGN) : 0;
	base = min(base, ALIGN_DOWN(info.lower_bound, PORT_BASE_ALIGN));
	codec->port_base[p] = base;
	codec->kind_lo[p] = info.lower_bound;
	codec->kind_hi[p] = info.upper_bound;
	dev_info(codec->dev,
		 "port %c (kind \"%s\"): regions 0x%08lx-0x%08lx, window 0x%08lx-0x%08lx\n",
		 'A' + p, kind, info.lower_bound, info.upper_bound - 1, base,
		 base + PORT_WINDOW - 1);
	return 0;
}

/*
 * The memory banks, from the device tree's memory nodes (QEMU writes the
 * board's banks there), and the banks the bitstream (kind "b") is in:
 * codec_buf_prepare() refuses a picture plane in one of those, and a
 * bitstream buffer outside them, before the device would (error 10).
 * Without a bank map, or without kind "b", the device's own check is all
 * there is.
 */
static void codec_read_banks(struct codec_dev *codec)
{
	struct device_node *np;
	struct resource res;
	unsigned int i;
	int n;

	for_each_node_by_type(np, "memory") {
		if (!of_device_is_available(np))
			continue;
		for (n = 0; codec->nr_banks < MAX_BANKS; n++) {
			if (of_address_to_resource(np, n, &res))
				break;
			codec->bank[codec->nr_banks].start = res.start;
			codec->bank[codec->nr_banks].last = res.end;
			codec->nr_banks++;
		}
	}
	if (codec->kind_hi[PORT_B])
		codec->bitstream_banks =
			codec_banks(codec, codec->kind_lo[PORT_B],
				    codec->kind_hi[PORT_B] - 1);
	for (i = 0; i < codec->nr_banks; i++)
		dev_info(codec->dev, "bank %u: 0x%08lx-0x%08lx%s\n", i,
			 codec->bank[i].start, codec->bank[i].last,
			 codec->bitstream_banks & BIT(i) ?
			 ": the bitstream's (kind \"b\"), no pictures here" : "");
}

/*
 * The last reference to the video device is gone: the driver is unbound
 * (codec_remove()) and no file is open, so no job can be scheduled and
 * nothing can queue the work items again.  Only here is codec freed.
 */
static void codec_vdev_release(struct video_device *vfd)
{
	struct codec_dev *codec = container_of(vfd, struct codec_dev, vfd);

	cancel_delayed_work_sync(&codec->watchdog);
	cancel_work_sync(&codec->abort_work);
	v4l2_device_unregister(&codec->v4l2_dev);
	v4l2_m2m_release(codec->m2m_dev);
	media_device_cleanup(&codec->mdev);
	mutex_destroy(&codec->mutex);
	kfree(codec);
}

/* The registers, the device's ID, its interrupt; the device reset */
static int codec_map(struct codec_dev *codec, struct platform_device *pdev)
{
	u32 id;

	codec->regs = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(codec->regs))
		return PTR_ERR(codec->regs);
	id = readl(codec->regs + CODEC_ID);
	if (id != CODEC_ID_VALUE) {
		dev_err(codec->dev, "unknown device ID 0x%08x\n", id);
		return -ENODEV;
	}
	codec_write(codec, CODEC_CMD, CODEC_CMD_RESET);

	codec->irq = platform_get_irq(pdev, 0);
	return codec->irq < 0 ? codec->irq : 0;
}

/*
 * Kinds "a" and "b" in the same memory (one region for both, say) is a
 * placement error the device will report at every job: known at probe,
 * so said at probe too.
 */
static void codec_check_kinds(struct codec_dev *codec)
{
	const char *name = dev_name(codec->dev);

	if (!codec->kind_hi[PORT_A] || !codec->kind_hi[PORT_B] ||
	    codec->kind_lo[PORT_A] >= codec->kind_hi[PORT_B] ||
	    codec->kind_lo[PORT_B] >= codec->kind_hi[PORT_A])
		return;
	dev_err(codec->dev,
		"placement error: kinds \"a\" (%#lx-%#lx) and \"b\" (%#lx-%#lx) share memory\n",
		codec->kind_lo[PORT_A], codec->kind_hi[PORT_A] - 1,
		codec->kind_lo[PORT_B], codec->kind_hi[PORT_B] - 1);
	dev_err(codec->dev,
		"every job will fail: cma_map= must put %s/a and %s/b in different banks\n",
		name, name);
}

/*
 * The memory ports: one child device per kind, through which its buffers
 * are allocated and mapped (no segment size limit: each buffer is one
 * contiguous chunk), each port's window placed over its kind's regions;
 * then the memory banks.
 */
static int codec_setup_ports(struct codec_dev *codec)
{
	int ret;

	codec->port[PORT_A] = devm_cma_kind_device_create(codec->dev, "a");
	if (IS_ERR(codec->port[PORT_A]))
		return PTR_ERR(codec->port[PORT_A]);
	codec->port[PORT_B] = devm_cma_kind_device_create(codec->dev, "b");
	if (IS_ERR(codec->port[PORT_B]))
		return PTR_ERR(codec->port[PORT_B]);
	ret = codec_place_port(codec, PORT_A, "a");
	if (!ret)
		ret = codec_place_port(codec, PORT_B, "b");
	if (ret)
		return ret;
	codec_read_banks(codec);
	codec_check_kinds(codec);
	return 0;
}

/*
 * The media device (so that the video node's function is known), the
 * V4L2 and mem2mem devices, the interrupt and the video node.  On
 * failure codec is freed: by codec_vdev_release() once the video device
 * was registered, here before.
 */
static int codec_register(struct codec_dev *codec)
{
	int ret;

	codec->mdev.dev = codec->dev;
	strscpy(codec->mdev.model, CODEC_NAME, sizeof(codec->mdev.model));
	snprintf(codec->mdev.bus_info, sizeof(codec->mdev.bus_info),
		 "platform:%s", dev_name(codec->dev));
	media_device_init(&codec->mdev);
	codec->v4l2_dev.mdev = &codec->mdev;

	ret = v4l2_device_register(codec->dev, &codec->v4l2_dev);
	if (ret)
		goto cleanup_media;
	codec->m2m_dev = v4l2_m2m_init(&codec_m2m_ops);
	if (IS_ERR(codec->m2m_dev)) {
		ret = PTR_ERR(codec->m2m_dev);
		goto unreg_v4l2;
	}

	codec->vfd = (struct video_device) {
		.name = CODEC_NAME,
		.vfl_dir = VFL_DIR_M2M,
		.fops = &codec_fops,
		.ioctl_ops = &codec_ioctl_ops,
		.minor = -1,
		.release = codec_vdev_release,
		.device_caps = (codec->mplane ? V4L2_CAP_VIDEO_M2M_MPLANE :
						V4L2_CAP_VIDEO_M2M) |
			       V4L2_CAP_STREAMING,
		.lock = &codec->mutex,
		.v4l2_dev = &codec->v4l2_dev,
	};
	video_set_drvdata(&codec->vfd, codec);
	/*
	 * Not devm: the handler's cookie is codec, which the video device's
	 * release may free before devres runs; codec_remove() frees the
	 * interrupt before that can happen.
	 */
	ret = request_irq(codec->irq, codec_irq, 0, dev_name(codec->dev),
			  codec);
	if (ret)
		goto release_m2m;
	ret = video_register_device(&codec->vfd, VFL_TYPE_VIDEO, -1);
	if (ret)
		goto free_irq;
	ret = v4l2_m2m_register_media_controller(codec->m2m_dev, &codec->vfd,
						 MEDIA_ENT_F_PROC_VIDEO_ENCODER);
	if (ret)
		goto unreg_vdev;
	ret = media_device_register(&codec->mdev);
	if (ret)
		goto unreg_mc;
	return 0;

unreg_mc:
	v4l2_m2m_unregister_media_controller(codec->m2m_dev);
unreg_vdev:
	free_irq(codec->irq, codec);
	/* codec_vdev_release() frees the rest */
	video_unregister_device(&codec->vfd);
	return ret;
free_irq:
	free_irq(codec->irq, codec);
release_m2m:
	v4l2_m2m_release(codec->m2m_dev);
unreg_v4l2:
	v4l2_device_unregister(&codec->v4l2_dev);
cleanup_media:
	media_device_cleanup(&codec->mdev);
	kfree(codec);
	return ret;
}

static int codec_probe(struct platform_device *pdev)
{
	struct codec_dev *codec;
	int ret;

	codec = kzalloc(sizeof(*codec), GFP_KERNEL);
	if (!codec)
		return -ENOMEM;
	codec->dev = &pdev->dev;
	codec->mplane = s5p_multiplanar(&pdev->dev, multiplanar);
	mutex_init(&codec->mutex);
	spin_lock_init(&codec->lock);
	INIT_DELAYED_WORK(&codec->watchdog, codec_watchdog);
	INIT_WORK(&codec->abort_work, codec_abort_work);

	ret = codec_map(codec, pdev);
	if (!ret)
		ret = codec_setup_ports(codec);
	if (ret) {
		kfree(codec);
		return ret;
	}
	platform_set_drvdata(pdev, codec);
	/* From here on codec is freed by codec_register() or its release */
	ret = codec_register(codec);
	if (ret)
		return ret;
	dev_info(&pdev->dev, "Motion-JPEG encoder at /dev/%s, %s API\n",
		 video_device_node_name(&codec->vfd),
		 codec->mplane ? "multi-planar" : "single-planar");
	return 0;
}

static int codec_remove(struct platform_device *pdev)
{
	struct codec_dev *codec = platform_get_drvdata(pdev);
	unsigned long flags;

	/*
	 * The registers go with devres once this returns: stop the device
	 * and never touch it again.  A job scheduled from now on fails at
	 * once (codec_device_run()), and the watchdog is no longer armed.
	 */
	spin_lock_irqsave(&codec->lock, flags);
	codec->removed = true;
	codec_write(codec, CODEC_CMD, CODEC_CMD_RESET);
	spin_unlock_irqrestore(&codec->lock, flags);
	free_irq(codec->irq, codec);
	cancel_delayed_work_sync(&codec->watchdog);
	/* The job that was running, if any, fails now */
	codec_abort_job(codec, NULL, "device removed");

	/*
	 * Unregister last, as vim2m does: open files see -ENODEV until they
	 * are closed, and the last reference frees codec (codec_vdev_release(),
	 * which also waits for the work items that failing their jobs may
	 * still queue).
	 */
	media_device_unregister(&codec->mdev);
	v4l2_m2m_unregister_media_controller(codec->m2m_dev);
	video_unregister_device(&codec->vfd);
	return 0;
}

static const struct of_device_id codec_of_match[] = {
	{ .compatible = "qemu,s5pv210-codec" },
	{ }
};
MODULE_DEVICE_TABLE(of, codec_of_match);

static struct platform_driver codec_driver = {
	.probe = codec_probe,
	.remove = codec_remove,
	.driver = {
		.name = CODEC_NAME,
		.of_match_table = codec_of_match,
	},
};
module_platform_driver(codec_driver);

MODULE_DESCRIPTION("S5PV210 DMA-only Motion-JPEG encoder (V4L2 mem2mem)");
MODULE_LICENSE("GPL");
