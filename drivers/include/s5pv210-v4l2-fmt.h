/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The single-planar API's format from and to the multi-planar form, for
 * the camera (drivers/camera) and the codec (drivers/codec): both keep
 * their formats as struct v4l2_pix_format_mplane and offer the
 * single-planar API with multiplanar=1, where a format has one buffer.
 */
#ifndef S5PV210_V4L2_FMT_H
#define S5PV210_V4L2_FMT_H

#include <linux/string.h>
#include <linux/videodev2.h>

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
