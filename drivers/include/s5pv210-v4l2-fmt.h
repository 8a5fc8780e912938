/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the camera (drivers/camera) and the codec (drivers/codec) share:
 * their raw picture formats and the lookup in a table of them, the plane
 * layout of a format, vb2's queue_setup sizes, the multiplanar= parameter
 * and the single-planar API's format from and to the multi-planar form.
 * Both keep their formats as struct v4l2_pix_format_mplane and offer the
 * single-planar API with multiplanar=1, where a format has one buffer.
 */
#ifndef S5PV210_V4L2_FMT_H
#define S5PV210_V4L2_FMT_H

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/videodev2.h>
#include <media/videobuf2-dma-contig.h>
#include <media/videobuf2-v4l2.h>

/*
 * A raw picture format: packed 4:2:2 (YUYV, UYVY: one plane of 2 bytes a
 * pixel) or 4:2:0 (NV12, NV21: a luma plane and a chroma plane of half as
 * many lines as long), in one memory buffer or, luma and chroma apart,
 * two (NV12M, NV21M).
 */
struct s5p_fmt {
	u32 fourcc;
	u32 hw;			/* the device's value for it */
	bool planar;		/* a luma and a chroma plane (4:2:0) */
	u8 buffers;		/* memory buffers, V4L2's planes */
};

/*
 * The format @fourcc of the @n in @fmts, if the API in use (@mplane or
 * not) offers it: the single-planar API has no format of two buffers.
 */
static inline const struct s5p_fmt *s5p_find_fmt(const struct s5p_fmt *fmts,
						 unsigned int n, u32 fourcc,
						 bool mplane)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (fmts[i].fourcc == fourcc && (mplane || fmts[i].buffers == 1))
			return &fmts[i];
	return NULL;
}

/* The @index-th of the @n formats in @fmts that the API in use offers */
static inline const struct s5p_fmt *s5p_enum_fmt(const struct s5p_fmt *fmts,
						 unsigned int n,
						 unsigned int index,
						 bool mplane)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!mplane && fmts[i].buffers > 1)
			continue;
		if (!index--)
			return &fmts[i];
	}
	return NULL;
}

/* The bytes of a line of @width pixels in @f's first plane */
static inline u32 s5p_fmt_line(const struct s5p_fmt *f, u32 width)
{
	return f->planar ? width : width * 2;
}

/*
 * @pix's planes for format @f, @pix->height lines of @bpl bytes.  Both
 * devices read or write the chroma plane with the luma plane's stride.
 */
static inline void s5p_fmt_planes(struct v4l2_pix_format_mplane *pix,
				  const struct s5p_fmt *f, u32 bpl)
{
	u32 luma = bpl * pix->height;

	memset(pix->plane_fmt, 0, sizeof(pix->plane_fmt));
	pix->num_planes = f->buffers;
	pix->plane_fmt[0].bytesperline = bpl;
	pix->plane_fmt[0].sizeimage = luma;
	if (f->planar && f->buffers == 2) {
		pix->plane_fmt[1].bytesperline = bpl;
		pix->plane_fmt[1].sizeimage = luma / 2;
	} else if (f->planar) {
		pix->plane_fmt[0].sizeimage += luma / 2;
	}
}

/*
 * vb2's queue_setup for a queue of format @pix: the sizes of its planes,
 * or (CREATE_BUFS, *@nplanes given) a check of the sizes asked for.  Each
 * plane is made @min bytes at least: the DMA API aligns a buffer to the
 * order of its size, so that is the way to an alignment of @min.
 */
static inline int s5p_queue_sizes(const struct v4l2_pix_format_mplane *pix,
				  unsigned int *nplanes, unsigned int sizes[],
				  unsigned int min)
{
	unsigned int p;

	if (*nplanes) {
		if (*nplanes != pix->num_planes)
			return -EINVAL;
		for (p = 0; p < *nplanes; p++)
			if (sizes[p] < pix->plane_fmt[p].sizeimage)
				return -EINVAL;
	} else {
		*nplanes = pix->num_planes;
		for (p = 0; p < *nplanes; p++)
			sizes[p] = pix->plane_fmt[p].sizeimage;
	}
	for (p = 0; p < *nplanes; p++)
		sizes[p] = max(sizes[p], min);
	return 0;
}

/*
 * A vb2 queue of @type as both drivers have them: MMAP and DMABUF buffers
 * of videobuf2-dma-contig allocated through @dev, the driver's @ops and
 * @priv, @buf_size bytes of struct a buffer, @lock held around its
 * ioctls, streaming from one buffer queued.  The caller sets
 * timestamp_flags.
 */
static inline int s5p_queue_init(struct vb2_queue *q, unsigned int type,
				 const struct vb2_ops *ops, void *priv,
				 unsigned int buf_size, struct mutex *lock,
				 struct device *dev)
{
	q->type = type;
	q->io_modes = VB2_MMAP | VB2_DMABUF;
	q->ops = ops;
	q->drv_priv = priv;
	q->buf_struct_size = buf_size;
	q->mem_ops = &vb2_dma_contig_memops;
	q->min_buffers_needed = 1;
	q->lock = lock;
	q->dev = dev;
	return vb2_queue_init(q);
}

/*
 * The API the multiplanar= parameter @param asks of @dev's driver (as
 * vivid's and vicodec's): 1 the single-planar one, 2 the multi-planar
 * one; anything else is said and taken as 2.  True for multi-planar.
 */
static inline bool s5p_multiplanar(struct device *dev, unsigned int param)
{
	if (param == 1 || param == 2)
		return param == 2;
	dev_warn(dev,
		 "multiplanar=%u is neither 1 (single-planar API) nor 2 (multi-planar): using 2\n",
		 param);
	return true;
}

/* VIDIOC_QUERYCAP's answer: @dev's driver @driver, the card @card */
static inline void s5p_querycap(struct v4l2_capability *cap,
				struct device *dev, const char *driver,
				const char *card)
{
	strscpy(cap->driver, driver, sizeof(cap->driver));
	strscpy(cap->card, card, sizeof(cap->card));
	snprintf(cap->bus_info, sizeof(cap->bus_info), "platform:%s",
		 dev_name(dev));
}

/* @mp's first plane as a single-planar format (the other planes dropped) */
static inline void s5p_pix_from_mp(struct v4l2_pix_format *pix,
				   const struct v4l2_pix_format_mplane *mp)
{
	memset(pix, 0, sizeof(*pix));
	pix->width = mp->width;
	pix->height = mp->height;
	pix->pixelformat = mp->pixelformat;
	pix->field = mp->field;
	pix->bytesperline = mp->plane_fmt[0].bytesperline;
	pix->sizeimage = mp->plane_fmt[0].sizeimage;
	pix->colorspace = mp->colorspace;
	pix->ycbcr_enc = mp->ycbcr_enc;
	pix->quantization = mp->quantization;
	pix->xfer_func = mp->xfer_func;
}

/* A single-planar format as a multi-planar one of one plane */
static inline void s5p_pix_to_mp(struct v4l2_pix_format_mplane *mp,
				 const struct v4l2_pix_format *pix)
{
	memset(mp, 0, sizeof(*mp));
	mp->width = pix->width;
	mp->height = pix->height;
	mp->pixelformat = pix->pixelformat;
	mp->field = pix->field;
	mp->num_planes = 1;
	mp->plane_fmt[0].bytesperline = pix->bytesperline;
	mp->plane_fmt[0].sizeimage = pix->sizeimage;
	mp->colorspace = pix->colorspace;
	mp->ycbcr_enc = pix->ycbcr_enc;
	mp->quantization = pix->quantization;
	mp->xfer_func = pix->xfer_func;
}

#endif /* S5PV210_V4L2_FMT_H */
