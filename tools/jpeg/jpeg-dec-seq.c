// SPDX-License-Identifier: GPL-2.0
/*
 * jpeg-dec-seq: a JPEG decoder node fed a whole stream at once, sizes
 * changing on the way, as a stateful decoder's client feeds it
 * (Documentation/userspace-api/media/v4l/dev-decoder.rst; tests/guest/jpeg.sh).
 *
 *   jpeg-dec-seq DEC MJPEG...
 *
 * Splits each MJPEG file (JPEG frames one after the other, SOI to EOI) into
 * its frames and queues them all on DEC's OUTPUT queue before streaming
 * (MMAP, one buffer a frame: REQBUFS must grant them all), then decodes
 * into YUYV with two CAPTURE buffers.  On V4L2_EVENT_SOURCE_CHANGE the
 * CAPTURE queue is stopped, its buffers freed, the new format read and
 * two new buffers of that size allocated; decoding goes on.  Prints
 *
 *   frame I: WxH, N bytes
 *
 * for each decoded frame (the CAPTURE format it came in), then
 *
 *   source-changes: N
 *
 * (the events after the first, which initialization waits for).  Exit status 0 when every
 * frame came back decoded, 1 otherwise (with a message).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/videodev2.h>

#define MAX_FRAMES	32
#define NR_CAP		2

static const enum v4l2_buf_type O = V4L2_BUF_TYPE_VIDEO_OUTPUT;
static const enum v4l2_buf_type C = V4L2_BUF_TYPE_VIDEO_CAPTURE;

struct frame {
	unsigned char *data;
	size_t len;
};

static int fd;
static void *cap[NR_CAP];
static size_t cap_len[NR_CAP];
static struct v4l2_format cfmt;

static void die(const char *what)
{
	fprintf(stderr, "jpeg-dec-seq: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void xioctl(unsigned long req, void *arg, const char *what)
{
	if (ioctl(fd, req, arg) < 0)
		die(what);
}

/* The frames of @path appended to @f from @n; returns the new count */
static unsigned int split(const char *path, struct frame *f, unsigned int n)
{
	FILE *in = fopen(path, "rb");
	unsigned char *buf;
	size_t len = 0, cap = 1 << 16, i, start = 0;
	size_t got;

	if (!in)
		die(path);
	buf = malloc(cap);
	while (buf && (got = fread(buf + len, 1, cap - len, in)) > 0) {
		len += got;
		if (len == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(in);
	if (!buf) {
		errno = ENOMEM;
		die(path);
	}
	for (i = 0; i + 1 < len; i++) {
		if (buf[i] != 0xff)
			continue;
		if (buf[i + 1] == 0xd8)
			start = i;
		if (buf[i + 1] == 0xd9) {
			if (n == MAX_FRAMES) {
				errno = E2BIG;
				die("too many frames");
			}
			f[n].len = i + 2 - start;
			f[n].data = buf + start;
			n++;
		}
	}
	return n;
}

/* The CAPTURE queue: the driver's format as YUYV, NR_CAP buffers queued */
static void cap_setup(void)
{
	struct v4l2_requestbuffers rb = { .count = NR_CAP, .type = C, .memory = V4L2_MEMORY_MMAP };
	unsigned int i;

	memset(&cfmt, 0, sizeof(cfmt));
	cfmt.type = C;
	xioctl(VIDIOC_G_FMT, &cfmt, "G_FMT CAPTURE");
	cfmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	xioctl(VIDIOC_S_FMT, &cfmt, "S_FMT CAPTURE");
	xioctl(VIDIOC_REQBUFS, &rb, "REQBUFS CAPTURE");
	if (rb.count < 1) {
		errno = ENOMEM;
		die("REQBUFS CAPTURE gave no buffer");
	}
	for (i = 0; i < NR_CAP; i++) {
		struct v4l2_buffer b = { .type = C, .memory = V4L2_MEMORY_MMAP, .index = i };

		xioctl(VIDIOC_QUERYBUF, &b, "QUERYBUF CAPTURE");
		cap_len[i] = b.length;
		cap[i] = mmap(NULL, b.length, PROT_READ, MAP_SHARED, fd, b.m.offset);
		if (cap[i] == MAP_FAILED)
			die("mmap CAPTURE");
		xioctl(VIDIOC_QBUF, &b, "QBUF CAPTURE");
	}
	xioctl(VIDIOC_STREAMON, (void *)&C, "STREAMON CAPTURE");
}

static void cap_teardown(void)
{
	struct v4l2_requestbuffers rb = { .count = 0, .type = C, .memory = V4L2_MEMORY_MMAP };
	unsigned int i;

	xioctl(VIDIOC_STREAMOFF, (void *)&C, "STREAMOFF CAPTURE");
	for (i = 0; i < NR_CAP; i++)
		munmap(cap[i], cap_len[i]);
	xioctl(VIDIOC_REQBUFS, &rb, "REQBUFS 0 CAPTURE");
}

int main(int argc, char **argv)
{
	static struct frame f[MAX_FRAMES];
	struct v4l2_event_subscription sub = { .type = V4L2_EVENT_SOURCE_CHANGE };
	struct v4l2_requestbuffers rb = { .type = O, .memory = V4L2_MEMORY_MMAP };
	struct v4l2_format ofmt = { .type = O };
	unsigned int n = 0, i, done = 0, changes = 0;
	size_t max = 0;
	int a;

	if (argc < 3) {
		fprintf(stderr, "usage: jpeg-dec-seq DEC MJPEG...\n");
		return 2;
	}
	for (a = 2; a < argc; a++)
		n = split(argv[a], f, n);
	if (n < 2) {
		fprintf(stderr, "jpeg-dec-seq: %u frames: give at least two\n", n);
		return 1;
	}
	for (i = 0; i < n; i++)
		if (f[i].len > max)
			max = f[i].len;

	fd = open(argv[1], O_RDWR | O_NONBLOCK);
	if (fd < 0)
		die(argv[1]);
	xioctl(VIDIOC_SUBSCRIBE_EVENT, &sub, "SUBSCRIBE_EVENT");
	ofmt.fmt.pix.pixelformat = V4L2_PIX_FMT_JPEG;
	ofmt.fmt.pix.width = 64;
	ofmt.fmt.pix.height = 64;
	ofmt.fmt.pix.sizeimage = (max + 4095) & ~4095UL;
	xioctl(VIDIOC_S_FMT, &ofmt, "S_FMT OUTPUT");

	/* Every frame queued before streaming: one buffer each */
	rb.count = n;
	xioctl(VIDIOC_REQBUFS, &rb, "REQBUFS OUTPUT");
	if (rb.count < n) {
		fprintf(stderr, "jpeg-dec-seq: REQBUFS OUTPUT granted %u buffers for %u frames\n",
			rb.count, n);
		return 1;
	}
	for (i = 0; i < n; i++) {
		struct v4l2_buffer b = { .type = O, .memory = V4L2_MEMORY_MMAP, .index = i };
		void *p;

		xioctl(VIDIOC_QUERYBUF, &b, "QUERYBUF OUTPUT");
		if (b.length < f[i].len) {
			fprintf(stderr, "jpeg-dec-seq: frame %u: %zu bytes, buffer %u\n",
				i, f[i].len, b.length);
			return 1;
		}
		p = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, b.m.offset);
		if (p == MAP_FAILED)
			die("mmap OUTPUT");
		memcpy(p, f[i].data, f[i].len);
		munmap(p, b.length);
		b.bytesused = f[i].len;
		xioctl(VIDIOC_QBUF, &b, "QBUF OUTPUT");
	}
	/*
	 * Initialization (dev-decoder.rst): the first header, parsed once
	 * OUTPUT streams, sets the formats and signals it; then CAPTURE.
	 */
	xioctl(VIDIOC_STREAMON, (void *)&O, "STREAMON OUTPUT");
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLPRI };
		struct v4l2_event ev;

		if (poll(&p, 1, 10000) <= 0) {
			fprintf(stderr, "jpeg-dec-seq: no source change event after STREAMON\n");
			return 1;
		}
		if (ioctl(fd, VIDIOC_DQEVENT, &ev) == 0 &&
		    ev.type == V4L2_EVENT_SOURCE_CHANGE)
			break;
	}
	cap_setup();

	while (done < n) {
		struct pollfd p = { .fd = fd, .events = POLLIN | POLLPRI };
		struct v4l2_buffer b = { .type = C, .memory = V4L2_MEMORY_MMAP };
		struct v4l2_event ev;

		if (poll(&p, 1, 10000) <= 0) {
			fprintf(stderr, "jpeg-dec-seq: frame %u: nothing after 10 s\n", done);
			return 1;
		}
		if (p.revents & POLLPRI) {
			while (ioctl(fd, VIDIOC_DQEVENT, &ev) == 0) {
				if (ev.type != V4L2_EVENT_SOURCE_CHANGE)
					continue;
				changes++;
				/* What was decoded at the old size first */
				while (ioctl(fd, VIDIOC_DQBUF, &b) == 0) {
					if (b.flags & V4L2_BUF_FLAG_ERROR) {
						fprintf(stderr, "jpeg-dec-seq: frame %u: error\n", done);
						return 1;
					}
					printf("frame %u: %ux%u, %u bytes\n", done++,
					       cfmt.fmt.pix.width, cfmt.fmt.pix.height, b.bytesused);
				}
				cap_teardown();
				cap_setup();
			}
			continue;
		}
		if (ioctl(fd, VIDIOC_DQBUF, &b) < 0) {
			if (errno == EAGAIN)
				continue;
			die("DQBUF CAPTURE");
		}
		if (b.flags & V4L2_BUF_FLAG_ERROR) {
			fprintf(stderr, "jpeg-dec-seq: frame %u: error\n", done);
			return 1;
		}
		printf("frame %u: %ux%u, %u bytes\n", done++, cfmt.fmt.pix.width,
		       cfmt.fmt.pix.height, b.bytesused);
		xioctl(VIDIOC_QBUF, &b, "QBUF CAPTURE");
	}
	printf("source-changes: %u\n", changes);
	return 0;
}
