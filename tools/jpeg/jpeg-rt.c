// SPDX-License-Identifier: GPL-2.0
/*
 * jpeg-rt: a round trip through the S5PV210's JPEG block and Linux's
 * unmodified s5p-jpeg driver (tests/guest/jpeg.sh).
 *
 *   jpeg-rt ENC DEC RAW W H N JPEG OUT [QUALITY [SUBSAMPLING [RESTART]]]
 *
 * Reads N YUYV frames of W x H (W a multiple of 16, H of 8) from RAW,
 * encodes each with the encoder node ENC (MMAP, one buffer a queue) into
 * JPEG (the frames one after the other), decodes each JPEG frame with the
 * decoder node DEC back into YUYV frames in OUT, and prints per frame
 * (QUALITY: s5p-jpeg's 0 best to 3 worst; SUBSAMPLING 422 or 420; RESTART
 * the restart interval in MCUs: the encoder's controls)
 *
 *   frame I: JPEG N bytes, PSNR Y DB dB, CbCr DB dB
 *
 * (the decoded frame against the source frame), then
 *
 *   sizes: N,N,...
 *   min-psnr: Y DB CbCr DB
 *
 * With JPEG_RT_CHUNKS=FILE in the environment, debugfs' cma/chunks is
 * copied to FILE while the four buffers are still allocated (before the
 * nodes are closed): where they are.
 *
 * Exit status 0 when every step worked, 1 otherwise (with a message).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/videodev2.h>

static void die(const char *what)
{
	fprintf(stderr, "jpeg-rt: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void xioctl(int fd, unsigned long req, void *arg, const char *what)
{
	if (ioctl(fd, req, arg) < 0)
		die(what);
}

struct m2m {
	int fd;
	void *out, *cap;
	size_t out_len, cap_len;
	struct v4l2_format ofmt, cfmt;
	int streaming;
};

static void *map_one(int fd, enum v4l2_buf_type type, size_t *len)
{
	struct v4l2_requestbuffers rb = { .count = 1, .type = type, .memory = V4L2_MEMORY_MMAP };
	struct v4l2_buffer b = { .type = type, .memory = V4L2_MEMORY_MMAP, .index = 0 };
	void *p;

	xioctl(fd, VIDIOC_REQBUFS, &rb, "REQBUFS");
	if (rb.count < 1) {
		errno = ENOMEM;
		die("REQBUFS gave no buffer");
	}
	xioctl(fd, VIDIOC_QUERYBUF, &b, "QUERYBUF");
	p = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, b.m.offset);
	if (p == MAP_FAILED)
		die("mmap");
	*len = b.length;
	return p;
}

static void set_fmt(int fd, struct v4l2_format *f, enum v4l2_buf_type type, __u32 fcc,
		    __u32 w, __u32 h, __u32 sizeimage)
{
	memset(f, 0, sizeof(*f));
	f->type = type;
	f->fmt.pix.pixelformat = fcc;
	f->fmt.pix.width = w;
	f->fmt.pix.height = h;
	f->fmt.pix.sizeimage = sizeimage;
	xioctl(fd, VIDIOC_S_FMT, f, "S_FMT");
}

static void qbuf(int fd, enum v4l2_buf_type type, __u32 bytesused)
{
	struct v4l2_buffer b = { .type = type, .memory = V4L2_MEMORY_MMAP, .index = 0,
				 .bytesused = bytesused };

	xioctl(fd, VIDIOC_QBUF, &b, "QBUF");
}

/* DQBUF on TYPE (waits up to 10 s); returns bytesused, -1 on an error buffer */
static long dqbuf(int fd, enum v4l2_buf_type type)
{
	struct v4l2_buffer b = { .type = type, .memory = V4L2_MEMORY_MMAP };
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };

	for (;;) {
		if (ioctl(fd, VIDIOC_DQBUF, &b) == 0)
			return (b.flags & V4L2_BUF_FLAG_ERROR) ? -1 : (long)b.bytesused;
		if (errno != EAGAIN)
			die("DQBUF");
		if (poll(&p, 1, 10000) <= 0) {
			errno = ETIMEDOUT;
			die("waiting for a buffer");
		}
	}
}

static void streamon(int fd, enum v4l2_buf_type type)
{
	xioctl(fd, VIDIOC_STREAMON, &type, "STREAMON");
}

static double psnr(double se, double n)
{
	return se ? 10 * log10(255.0 * 255.0 * n / se) : 99.0;
}

int main(int argc, char **argv)
{
	const enum v4l2_buf_type O = V4L2_BUF_TYPE_VIDEO_OUTPUT, C = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct m2m enc = { 0 }, dec = { 0 };
	unsigned int w, h, n, i, x, y, frame;
	double miny = 99, minc = 99;
	unsigned char *raw, *jpeg;
	FILE *fraw, *fjpeg, *fout;
	char sizes[4096] = "";

	if (argc < 9 || argc > 12) {
		fprintf(stderr, "usage: jpeg-rt ENC DEC RAW W H N JPEG OUT [QUALITY [SUBSAMPLING [RESTART]]]\n");
		return 2;
	}
	w = atoi(argv[4]);
	h = atoi(argv[5]);
	n = atoi(argv[6]);
	frame = w * h * 2;
	raw = malloc(frame);
	jpeg = malloc(frame * 2);
	fraw = fopen(argv[3], "rb");
	fjpeg = fopen(argv[7], "wb");
	fout = fopen(argv[8], "wb");
	if (!raw || !jpeg || !fraw || !fjpeg || !fout)
		die("files");

	enc.fd = open(argv[1], O_RDWR | O_NONBLOCK);
	dec.fd = open(argv[2], O_RDWR | O_NONBLOCK);
	if (enc.fd < 0 || dec.fd < 0)
		die("open");
	if (argc >= 10) {
		struct v4l2_control c = { .id = V4L2_CID_JPEG_COMPRESSION_QUALITY,
					  .value = atoi(argv[9]) };

		xioctl(enc.fd, VIDIOC_S_CTRL, &c, "S_CTRL quality");
	}
	if (argc >= 11) {
		struct v4l2_control c = { .id = V4L2_CID_JPEG_CHROMA_SUBSAMPLING,
					  .value = atoi(argv[10]) == 420 ?
						   V4L2_JPEG_CHROMA_SUBSAMPLING_420 :
						   V4L2_JPEG_CHROMA_SUBSAMPLING_422 };

		xioctl(enc.fd, VIDIOC_S_CTRL, &c, "S_CTRL subsampling");
	}
	if (argc >= 12) {
		struct v4l2_control c = { .id = V4L2_CID_JPEG_RESTART_INTERVAL,
					  .value = atoi(argv[11]) };

		xioctl(enc.fd, VIDIOC_S_CTRL, &c, "S_CTRL restart interval");
	}
	set_fmt(enc.fd, &enc.ofmt, O, V4L2_PIX_FMT_YUYV, w, h, 0);
	set_fmt(enc.fd, &enc.cfmt, C, V4L2_PIX_FMT_JPEG, w, h, frame);
	if (enc.ofmt.fmt.pix.width != w || enc.ofmt.fmt.pix.height != h ||
	    enc.ofmt.fmt.pix.bytesperline != w * 2) {
		fprintf(stderr, "jpeg-rt: the encoder took %ux%u (%u bytes a line)\n",
			enc.ofmt.fmt.pix.width, enc.ofmt.fmt.pix.height,
			enc.ofmt.fmt.pix.bytesperline);
		return 1;
	}
	enc.out = map_one(enc.fd, O, &enc.out_len);
	enc.cap = map_one(enc.fd, C, &enc.cap_len);

	/* The decoder's OUTPUT holds the largest JPEG the encoder may give */
	set_fmt(dec.fd, &dec.ofmt, O, V4L2_PIX_FMT_JPEG, w, h, enc.cap_len);
	set_fmt(dec.fd, &dec.cfmt, C, V4L2_PIX_FMT_YUYV, w, h, 0);
	dec.out = map_one(dec.fd, O, &dec.out_len);

	for (i = 0; i < n; i++) {
		double sey = 0, sec = 0, py, pc;
		const unsigned char *d;
		long size, got;

		if (fread(raw, 1, frame, fraw) != frame) {
			errno = EIO;
			die("reading a raw frame");
		}
		/* encode */
		memcpy(enc.out, raw, frame);
		qbuf(enc.fd, O, frame);
		qbuf(enc.fd, C, 0);
		if (!enc.streaming) {
			streamon(enc.fd, O);
			streamon(enc.fd, C);
			enc.streaming = 1;
		}
		size = dqbuf(enc.fd, C);
		if (dqbuf(enc.fd, O) < 0 || size <= 0) {
			fprintf(stderr, "jpeg-rt: frame %u: the encode failed\n", i);
			return 1;
		}
		memcpy(jpeg, enc.cap, size);
		fwrite(jpeg, 1, size, fjpeg);
		snprintf(sizes + strlen(sizes), sizeof(sizes) - strlen(sizes), "%s%ld",
			 i ? "," : "", size);

		/* decode: the header is parsed when the OUTPUT buffer is queued */
		if (size > (long)dec.out_len) {
			fprintf(stderr, "jpeg-rt: frame %u: %ld bytes for a %zu byte buffer\n",
				i, size, dec.out_len);
			return 1;
		}
		memcpy(dec.out, jpeg, size);
		memset((char *)dec.out + size, 0, dec.out_len - size);
		qbuf(dec.fd, O, size);
		if (!dec.streaming) {
			streamon(dec.fd, O);
			dec.cfmt.type = C;
			xioctl(dec.fd, VIDIOC_G_FMT, &dec.cfmt, "G_FMT capture");
			if (dec.cfmt.fmt.pix.pixelformat != V4L2_PIX_FMT_YUYV ||
			    dec.cfmt.fmt.pix.width != w || dec.cfmt.fmt.pix.height != h) {
				fprintf(stderr, "jpeg-rt: the decoder gives %.4s %ux%u\n",
					(char *)&dec.cfmt.fmt.pix.pixelformat,
					dec.cfmt.fmt.pix.width, dec.cfmt.fmt.pix.height);
				return 1;
			}
			dec.cap = map_one(dec.fd, C, &dec.cap_len);
		}
		qbuf(dec.fd, C, 0);
		if (!dec.streaming) {
			streamon(dec.fd, C);
			dec.streaming = 1;
		}
		got = dqbuf(dec.fd, C);
		if (dqbuf(dec.fd, O) < 0 || got < 0) {
			fprintf(stderr, "jpeg-rt: frame %u: the decode failed\n", i);
			return 1;
		}
		d = dec.cap;
		for (y = 0; y < h; y++) {
			const unsigned char *s = raw + y * w * 2;
			const unsigned char *o = d + y * dec.cfmt.fmt.pix.bytesperline;

			for (x = 0; x < w * 2; x++) {
				double e = (double)s[x] - o[x];

				if (x & 1)
					sec += e * e;
				else
					sey += e * e;
			}
			fwrite(o, 1, w * 2, fout);
		}
		py = psnr(sey, w * h);
		pc = psnr(sec, w * h);
		printf("frame %u: JPEG %ld bytes, PSNR Y %.1f dB, CbCr %.1f dB\n", i, size, py, pc);
		miny = py < miny ? py : miny;
		minc = pc < minc ? pc : minc;
	}
	if (getenv("JPEG_RT_CHUNKS")) {
		FILE *in = fopen("/sys/kernel/debug/cma/chunks", "r");
		FILE *out = fopen(getenv("JPEG_RT_CHUNKS"), "w");
		char buf[4096];
		size_t k;

		if (!in || !out)
			die("copying cma/chunks");
		while ((k = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, k, out);
		fclose(in);
		fclose(out);
	}
	printf("sizes: %s\n", sizes);
	printf("min-psnr: Y %.1f CbCr %.1f\n", miny, minc);
	fclose(fjpeg);
	fclose(fout);
	return 0;
}
