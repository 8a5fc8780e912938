// SPDX-License-Identifier: GPL-2.0
/*
 * codec-bad: drive the S5PV210 codec's V4L2 driver where v4l2-ctl cannot,
 * and print what each step returned ("STEP: ok" or "STEP: errno NAME"),
 * one line each, for tests/guest/codec.sh to check.
 *
 *   codec-bad nobufs CODEC            STREAMON without buffers; with buffers
 *                                     but none queued (no job may run)
 *   codec-bad import CODEC CAM W H    QBUF on OUTPUT (YUYV 640x480) of a
 *                                     camera buffer (YUYV WxH) as DMABUF
 *   codec-bad tryfmt CODEC FOURCC W H TRY_FMT on OUTPUT, prints the result
 *   codec-bad encode CODEC            one grey 64x64 YUYV frame through MMAP:
 *                                     QBUF, STREAMON, poll (5 s), DQBUF, and
 *                                     QBUF again after an error
 *   codec-bad payload CODEC           QBUF on OUTPUT with bytesused half of
 *                                     sizeimage, then all of it
 *   codec-bad drain CODEC N           N times: a frame queued, ENC_CMD STOP at
 *                                     once (racing the frame's interrupt), the
 *                                     CAPTURE buffers dequeued until LAST (20 s),
 *                                     ENC_CMD START; one line per drain
 *   codec-bad zerocopy CODEC CAM FOURCC all|WxH...
 *                                     camera -> codec zero copy: for each size
 *                                     two camera buffers captured (MMAP),
 *                                     exported and queued on the codec's
 *                                     OUTPUT (DMABUF), both encoded; all:
 *                                     every width the camera offers at a
 *                                     small height and every height at a
 *                                     small width, buffers encoded as they
 *                                     are (no frames), then 1920x1080,
 *                                     1280x720, 640x480 and 320x240 with
 *                                     frames; a line per failure, a summary
 *
 * Exit status 0 when every ioctl could be attempted, 1 on bad usage or when
 * a device cannot be opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/videodev2.h>

static const char *ename(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EIO: return "EIO";
	case EAGAIN: return "EAGAIN";
	case EBUSY: return "EBUSY";
	case ENODEV: return "ENODEV";
	case ENOMEM: return "ENOMEM";
	case EFAULT: return "EFAULT";
	case EPIPE: return "EPIPE";
	default: return strerror(e);
	}
}

/* Run one ioctl and print "WHAT: ok" or "WHAT: errno NAME" */
static int step(const char *what, int fd, unsigned long req, void *arg)
{
	int ret = ioctl(fd, req, arg);

	if (ret < 0)
		printf("%s: errno %s\n", what, ename(errno));
	else
		printf("%s: ok\n", what);
	fflush(stdout);
	return ret < 0 ? -errno : 0;
}

static int open_dev(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0) {
		fprintf(stderr, "codec-bad: cannot open %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return fd;
}

static void set_fmt(int fd, unsigned int type, unsigned int w, unsigned int h)
{
	struct v4l2_format f = { .type = type };

	f.fmt.pix.width = w;
	f.fmt.pix.height = h;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	step(type == V4L2_BUF_TYPE_VIDEO_OUTPUT ? "S_FMT output" : "S_FMT capture",
	     fd, VIDIOC_S_FMT, &f);
}

static int reqbufs(const char *what, int fd, unsigned int type, unsigned int mem,
		   unsigned int count)
{
	struct v4l2_requestbuffers rb = { .count = count, .type = type, .memory = mem };

	return step(what, fd, VIDIOC_REQBUFS, &rb);
}

static int cmd_nobufs(const char *codec)
{
	int fd = open_dev(codec, O_RDWR | O_NONBLOCK);
	unsigned int out = V4L2_BUF_TYPE_VIDEO_OUTPUT, cap = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct v4l2_buffer b = { .type = cap, .memory = V4L2_MEMORY_MMAP };

	step("STREAMON output without buffers", fd, VIDIOC_STREAMON, &out);
	step("STREAMON capture without buffers", fd, VIDIOC_STREAMON, &cap);
	reqbufs("REQBUFS output 2", fd, out, V4L2_MEMORY_MMAP, 2);
	reqbufs("REQBUFS capture 2", fd, cap, V4L2_MEMORY_MMAP, 2);
	step("STREAMON output, none queued", fd, VIDIOC_STREAMON, &out);
	step("STREAMON capture, none queued", fd, VIDIOC_STREAMON, &cap);
	usleep(200000);
	step("DQBUF capture, none queued", fd, VIDIOC_DQBUF, &b);
	step("STREAMOFF output", fd, VIDIOC_STREAMOFF, &out);
	step("STREAMOFF capture", fd, VIDIOC_STREAMOFF, &cap);
	close(fd);
	return 0;
}

static int cmd_import(const char *codec, const char *cam, unsigned int w,
		      unsigned int h)
{
	int cfd = open_dev(codec, O_RDWR | O_NONBLOCK), kfd = open_dev(cam, O_RDWR);
	struct v4l2_capability caps = { 0 };
	struct v4l2_format f = { 0 };
	struct v4l2_exportbuffer eb = { 0 };
	struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT,
				 .memory = V4L2_MEMORY_DMABUF };
	unsigned int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	/* camera: one WxH YUYV buffer; codec OUTPUT wants 640x480 */
	ioctl(kfd, VIDIOC_QUERYCAP, &caps);
	if (caps.device_caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE) {
		type = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
		f.fmt.pix_mp.width = w;
		f.fmt.pix_mp.height = h;
		f.fmt.pix_mp.pixelformat = V4L2_PIX_FMT_YUYV;
		f.fmt.pix_mp.num_planes = 1;
	} else {
		f.fmt.pix.width = w;
		f.fmt.pix.height = h;
		f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	}
	f.type = type;
	step("S_FMT camera", kfd, VIDIOC_S_FMT, &f);
	reqbufs("REQBUFS camera 1", kfd, type, V4L2_MEMORY_MMAP, 1);
	eb.type = type;
	if (step("EXPBUF camera", kfd, VIDIOC_EXPBUF, &eb))
		return 0;
	set_fmt(cfd, V4L2_BUF_TYPE_VIDEO_OUTPUT, 640, 480);
	reqbufs("REQBUFS output dmabuf 1", cfd, V4L2_BUF_TYPE_VIDEO_OUTPUT,
		V4L2_MEMORY_DMABUF, 1);
	b.m.fd = eb.fd;
	step("QBUF output dmabuf", cfd, VIDIOC_QBUF, &b);
	close(eb.fd);
	close(cfd);
	close(kfd);
	return 0;
}

static int cmd_tryfmt(const char *codec, const char *fcc, const char *w, const char *h)
{
	int fd = open_dev(codec, O_RDWR);
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT };
	__u32 pf;

	if (strlen(fcc) != 4) {
		fprintf(stderr, "codec-bad: a fourcc has 4 characters, not '%s'\n", fcc);
		exit(1);
	}
	f.fmt.pix.width = strtoul(w, NULL, 0);
	f.fmt.pix.height = strtoul(h, NULL, 0);
	f.fmt.pix.pixelformat = v4l2_fourcc(fcc[0], fcc[1], fcc[2], fcc[3]);
	if (!step("TRY_FMT output", fd, VIDIOC_TRY_FMT, &f)) {
		pf = f.fmt.pix.pixelformat;
		printf("format: %c%c%c%c %ux%u bytesperline %u sizeimage %u\n",
		       pf & 0xff, pf >> 8 & 0xff, pf >> 16 & 0xff, pf >> 24,
		       f.fmt.pix.width, f.fmt.pix.height, f.fmt.pix.bytesperline,
		       f.fmt.pix.sizeimage);
	}
	close(fd);
	return 0;
}

static int cmd_encode(const char *codec)
{
	int fd = open_dev(codec, O_RDWR | O_NONBLOCK);
	unsigned int out = V4L2_BUF_TYPE_VIDEO_OUTPUT, cap = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct v4l2_buffer ob = { .type = out, .memory = V4L2_MEMORY_MMAP };
	struct v4l2_buffer cb = { .type = cap, .memory = V4L2_MEMORY_MMAP };
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };
	void *m;
	int n;

	set_fmt(fd, out, 64, 64);
	if (reqbufs("REQBUFS output 1", fd, out, V4L2_MEMORY_MMAP, 1) ||
	    reqbufs("REQBUFS capture 1", fd, cap, V4L2_MEMORY_MMAP, 1) ||
	    step("QUERYBUF output", fd, VIDIOC_QUERYBUF, &ob))
		return 0;
	m = mmap(NULL, ob.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, ob.m.offset);
	if (m == MAP_FAILED) {
		printf("mmap output: errno %s\n", ename(errno));
		return 0;
	}
	memset(m, 0x80, ob.length);
	ob.bytesused = ob.length;
	step("QBUF output", fd, VIDIOC_QBUF, &ob);
	step("QBUF capture", fd, VIDIOC_QBUF, &cb);
	step("STREAMON output", fd, VIDIOC_STREAMON, &out);
	step("STREAMON capture", fd, VIDIOC_STREAMON, &cap);
	n = poll(&p, 1, 5000);
	printf("poll: %s%s%s\n", n == 0 ? "timeout" : n < 0 ? "error" : "ready",
	       p.revents & POLLERR ? " POLLERR" : "", p.revents & POLLIN ? " POLLIN" : "");
	memset(&cb, 0, sizeof(cb));
	cb.type = cap;
	cb.memory = V4L2_MEMORY_MMAP;
	if (!step("DQBUF capture", fd, VIDIOC_DQBUF, &cb))
		printf("capture buffer: bytesused %u%s\n", cb.bytesused,
		       cb.flags & V4L2_BUF_FLAG_ERROR ? " ERROR" : "");
	memset(&ob, 0, sizeof(ob));
	ob.type = out;
	ob.memory = V4L2_MEMORY_MMAP;
	if (!step("DQBUF output", fd, VIDIOC_DQBUF, &ob))
		printf("output buffer:%s\n", ob.flags & V4L2_BUF_FLAG_ERROR ? " ERROR" : " done");
	ob.bytesused = ob.length;
	step("QBUF output again", fd, VIDIOC_QBUF, &ob);
	step("STREAMOFF output", fd, VIDIOC_STREAMOFF, &out);
	step("STREAMOFF capture", fd, VIDIOC_STREAMOFF, &cap);
	munmap(m, ob.length);
	close(fd);
	return 0;
}

static int cmd_payload(const char *codec)
{
	int fd = open_dev(codec, O_RDWR | O_NONBLOCK);
	unsigned int out = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	struct v4l2_format f = { .type = out };
	struct v4l2_buffer ob = { .type = out, .memory = V4L2_MEMORY_MMAP };

	set_fmt(fd, out, 64, 64);
	if (step("G_FMT output", fd, VIDIOC_G_FMT, &f) ||
	    reqbufs("REQBUFS output 2", fd, out, V4L2_MEMORY_MMAP, 2))
		return 0;
	ob.bytesused = f.fmt.pix.sizeimage / 2;
	step("QBUF output, half the payload", fd, VIDIOC_QBUF, &ob);
	memset(&ob, 0, sizeof(ob));
	ob.type = out;
	ob.memory = V4L2_MEMORY_MMAP;
	ob.index = 1;
	ob.bytesused = f.fmt.pix.sizeimage;
	step("QBUF output, the whole payload", fd, VIDIOC_QBUF, &ob);
	close(fd);
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * DQBUF on @fd's @type (MMAP), waiting up to 20 s (the codec's busy time
 * includes its host's encode time; the driver gives up after 10 s);
 * 0, or -errno
 */
static int dqbuf_wait(int fd, unsigned int type, struct v4l2_buffer *b)
{
	struct pollfd p = { .fd = fd };
	double end = now_s() + 20;

	/* m2m: POLLIN says CAPTURE has a buffer done, POLLOUT says OUTPUT */
	p.events = V4L2_TYPE_IS_OUTPUT(type) ? POLLOUT : POLLIN;
	for (;;) {
		memset(b, 0, sizeof(*b));
		b->type = type;
		b->memory = V4L2_MEMORY_MMAP;
		if (!ioctl(fd, VIDIOC_DQBUF, b))
			return 0;
		if (errno != EAGAIN)
			return -errno;
		if (now_s() > end)
			return -ETIMEDOUT;
		poll(&p, 1, 100);
	}
}

static int cmd_drain(const char *codec, unsigned int n)
{
	int fd = open_dev(codec, O_RDWR | O_NONBLOCK);
	unsigned int out = V4L2_BUF_TYPE_VIDEO_OUTPUT, cap = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct v4l2_format f = { .type = out };
	struct v4l2_encoder_cmd stop = { .cmd = V4L2_ENC_CMD_STOP };
	struct v4l2_encoder_cmd start = { .cmd = V4L2_ENC_CMD_START };
	struct v4l2_buffer b;
	unsigned int i, good = 0, frames = 0;
	int ret;

	set_fmt(fd, out, 64, 64);
	if (step("G_FMT output", fd, VIDIOC_G_FMT, &f) ||
	    reqbufs("REQBUFS output 1", fd, out, V4L2_MEMORY_MMAP, 1) ||
	    reqbufs("REQBUFS capture 2", fd, cap, V4L2_MEMORY_MMAP, 2))
		return 0;
	for (i = 0; i < 2; i++) {
		memset(&b, 0, sizeof(b));
		b.type = cap;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		if (step("QBUF capture", fd, VIDIOC_QBUF, &b))
			return 0;
	}
	if (step("STREAMON output", fd, VIDIOC_STREAMON, &out) ||
	    step("STREAMON capture", fd, VIDIOC_STREAMON, &cap))
		return 0;
	for (i = 0; i < n; i++) {
		const char *what = "ok";
		bool last = false;

		memset(&b, 0, sizeof(b));
		b.type = out;
		b.memory = V4L2_MEMORY_MMAP;
		b.bytesused = f.fmt.pix.sizeimage;
		if (ioctl(fd, VIDIOC_QBUF, &b)) {
			printf("drain %u: QBUF output: errno %s\n", i, ename(errno));
			break;
		}
		if (ioctl(fd, VIDIOC_ENCODER_CMD, &stop)) {
			printf("drain %u: ENC_CMD STOP: errno %s\n", i, ename(errno));
			break;
		}
		/* CAPTURE buffers until the one flagged LAST */
		while (!last) {
			ret = dqbuf_wait(fd, cap, &b);
			if (ret) {
				what = ret == -ETIMEDOUT ? "no LAST buffer within 20 s (hang)" :
				       ret == -EPIPE ? "DQBUF capture: errno EPIPE (still stopped)" :
				       "DQBUF capture failed";
				break;
			}
			last = b.flags & V4L2_BUF_FLAG_LAST;
			if (b.bytesused && !(b.flags & V4L2_BUF_FLAG_ERROR))
				frames++;
			b.bytesused = 0;
			b.flags = 0;
			if (ioctl(fd, VIDIOC_QBUF, &b)) {
				what = "QBUF capture failed";
				break;
			}
		}
		if (last && dqbuf_wait(fd, out, &b))
			what = "DQBUF output failed";
		if (last && ioctl(fd, VIDIOC_ENCODER_CMD, &start))
			what = "ENC_CMD START failed";
		printf("drain %u: %s\n", i, what);
		fflush(stdout);
		if (strcmp(what, "ok"))
			break;
		good++;
	}
	printf("drains: %u of %u ended with LAST and restarted, %u frames\n", good, n, frames);
	close(fd);
	return 0;
}

/* ---- zerocopy ---- */

static unsigned int zc_sizes, zc_imported, zc_encoded, zc_failed;

static void zc_fail(const char *fcc, unsigned int w, unsigned int h, const char *what)
{
	printf("zerocopy %s %ux%u: %s\n", fcc, w, h, what);
	fflush(stdout);
	zc_failed++;
}

/* One size: 0, or -1 when a step failed (reported) */
static int zc_one(const char *codec, int kfd, const char *fcc, unsigned int w,
		  unsigned int h, bool capture)
{
	unsigned int ktype = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
	unsigned int out = V4L2_BUF_TYPE_VIDEO_OUTPUT, cap = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	__u32 pf = v4l2_fourcc(fcc[0], fcc[1], fcc[2], fcc[3]);
	struct v4l2_format kf = { .type = ktype }, cf = { .type = out };
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct v4l2_buffer b;
	struct v4l2_exportbuffer eb;
	struct v4l2_requestbuffers rb;
	int dfd[2] = { -1, -1 }, cfd = -1, ret = -1;
	unsigned int i, klen[2] = { 0, 0 }, mlen = 0;
	char msg[160];
	void *m;

	zc_sizes++;
	kf.fmt.pix_mp.width = w;
	kf.fmt.pix_mp.height = h;
	kf.fmt.pix_mp.pixelformat = pf;
	kf.fmt.pix_mp.num_planes = 1;
	if (ioctl(kfd, VIDIOC_S_FMT, &kf) || kf.fmt.pix_mp.width != w ||
	    kf.fmt.pix_mp.height != h || kf.fmt.pix_mp.pixelformat != pf) {
		zc_fail(fcc, w, h, "camera S_FMT refused or adjusted the size");
		return -1;
	}
	memset(&rb, 0, sizeof(rb));
	rb.count = 2;
	rb.type = ktype;
	rb.memory = V4L2_MEMORY_MMAP;
	if (ioctl(kfd, VIDIOC_REQBUFS, &rb) || rb.count != 2) {
		zc_fail(fcc, w, h, "camera REQBUFS 2 failed");
		goto out;
	}
	for (i = 0; i < 2; i++) {
		memset(&b, 0, sizeof(b));
		b.type = ktype;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		b.m.planes = planes;
		b.length = 1;
		memset(&eb, 0, sizeof(eb));
		eb.type = ktype;
		eb.index = i;
		if (ioctl(kfd, VIDIOC_QUERYBUF, &b) || ioctl(kfd, VIDIOC_EXPBUF, &eb) ||
		    ioctl(kfd, VIDIOC_QBUF, &b)) {
			zc_fail(fcc, w, h, "camera QUERYBUF/EXPBUF/QBUF failed");
			goto out;
		}
		dfd[i] = eb.fd;
		klen[i] = planes[0].length;
	}
	/* Two frames captured, one in each buffer (or the zeroed buffers) */
	if (!capture)
		goto codec;
	if (ioctl(kfd, VIDIOC_STREAMON, &ktype)) {
		zc_fail(fcc, w, h, "camera STREAMON failed");
		goto out;
	}
	for (i = 0; i < 2; i++) {
		struct pollfd p = { .fd = kfd, .events = POLLIN };

		memset(&b, 0, sizeof(b));
		b.type = ktype;
		b.memory = V4L2_MEMORY_MMAP;
		b.m.planes = planes;
		b.length = 1;
		if (poll(&p, 1, 20000) != 1 || ioctl(kfd, VIDIOC_DQBUF, &b) ||
		    (b.flags & V4L2_BUF_FLAG_ERROR)) {
			zc_fail(fcc, w, h, "camera frame not captured");
			ioctl(kfd, VIDIOC_STREAMOFF, &ktype);
			goto out;
		}
	}
	ioctl(kfd, VIDIOC_STREAMOFF, &ktype);

codec:
	/* The codec: the same picture on OUTPUT, both camera buffers imported */
	cfd = open_dev(codec, O_RDWR | O_NONBLOCK);
	cf.fmt.pix.width = w;
	cf.fmt.pix.height = h;
	cf.fmt.pix.pixelformat = pf;
	if (ioctl(cfd, VIDIOC_S_FMT, &cf) || cf.fmt.pix.width != w || cf.fmt.pix.height != h ||
	    cf.fmt.pix.pixelformat != pf) {
		zc_fail(fcc, w, h, "codec S_FMT refused or adjusted the size");
		goto out;
	}
	if (cf.fmt.pix.bytesperline != kf.fmt.pix_mp.plane_fmt[0].bytesperline) {
		snprintf(msg, sizeof(msg), "bytesperline: camera %u, codec %u",
			 kf.fmt.pix_mp.plane_fmt[0].bytesperline, cf.fmt.pix.bytesperline);
		zc_fail(fcc, w, h, msg);
		goto out;
	}
	memset(&rb, 0, sizeof(rb));
	rb.count = 2;
	rb.type = out;
	rb.memory = V4L2_MEMORY_DMABUF;
	if (ioctl(cfd, VIDIOC_REQBUFS, &rb)) {
		zc_fail(fcc, w, h, "codec REQBUFS output DMABUF failed");
		goto out;
	}
	memset(&rb, 0, sizeof(rb));
	rb.count = 1;
	rb.type = cap;
	rb.memory = V4L2_MEMORY_MMAP;
	if (ioctl(cfd, VIDIOC_REQBUFS, &rb)) {
		zc_fail(fcc, w, h, "codec REQBUFS capture failed");
		goto out;
	}
	for (i = 0; i < 2; i++) {
		memset(&b, 0, sizeof(b));
		b.type = out;
		b.memory = V4L2_MEMORY_DMABUF;
		b.index = i;
		b.m.fd = dfd[i];
		b.length = klen[i];
		b.bytesused = cf.fmt.pix.sizeimage;
		if (ioctl(cfd, VIDIOC_QBUF, &b)) {
			snprintf(msg, sizeof(msg), "codec QBUF of camera buffer %u (%u bytes): errno %s",
				 i, klen[i], ename(errno));
			zc_fail(fcc, w, h, msg);
			goto out;
		}
		zc_imported++;
	}
	memset(&b, 0, sizeof(b));
	b.type = cap;
	b.memory = V4L2_MEMORY_MMAP;
	if (ioctl(cfd, VIDIOC_QUERYBUF, &b)) {
		zc_fail(fcc, w, h, "codec QUERYBUF capture failed");
		goto out;
	}
	mlen = b.length;
	m = mmap(NULL, mlen, PROT_READ, MAP_SHARED, cfd, b.m.offset);
	if (m == MAP_FAILED) {
		zc_fail(fcc, w, h, "codec capture mmap failed");
		goto out;
	}
	if (ioctl(cfd, VIDIOC_QBUF, &b) || ioctl(cfd, VIDIOC_STREAMON, &out) ||
	    ioctl(cfd, VIDIOC_STREAMON, &cap)) {
		zc_fail(fcc, w, h, "codec QBUF capture/STREAMON failed");
		goto unmap;
	}
	for (i = 0; i < 2; i++) {
		const unsigned char *j = m;

		int err = dqbuf_wait(cfd, cap, &b);

		if (err || (b.flags & V4L2_BUF_FLAG_ERROR) ||
		    b.bytesused < 4 || j[0] != 0xff || j[1] != 0xd8 ||
		    j[b.bytesused - 2] != 0xff || j[b.bytesused - 1] != 0xd9) {
			snprintf(msg, sizeof(msg), "frame from camera buffer %u not encoded (%s, bytesused %u%s)",
				 i, err == -ETIMEDOUT ? "none within 20 s" : err ? ename(-err) : "dequeued",
				 b.bytesused, b.flags & V4L2_BUF_FLAG_ERROR ? ", ERROR" : "");
			zc_fail(fcc, w, h, msg);
			goto unmap;
		}
		zc_encoded++;
		b.bytesused = 0;
		b.flags = 0;
		if (i == 0 && ioctl(cfd, VIDIOC_QBUF, &b)) {
			zc_fail(fcc, w, h, "codec QBUF capture again failed");
			goto unmap;
		}
	}
	ret = 0;
unmap:
	munmap(m, mlen);
out:
	if (cfd >= 0)
		close(cfd);
	for (i = 0; i < 2; i++)
		if (dfd[i] >= 0)
			close(dfd[i]);
	memset(&rb, 0, sizeof(rb));
	rb.type = ktype;
	rb.memory = V4L2_MEMORY_MMAP;
	ioctl(kfd, VIDIOC_REQBUFS, &rb);
	return ret;
}

static int cmd_zerocopy(const char *codec, const char *cam, const char *fcc,
			int nsizes, char **sizes)
{
	int kfd = open_dev(cam, O_RDWR);
	struct v4l2_streamparm parm = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE };
	unsigned int w, h, i;
	int s;

	if (strlen(fcc) != 4) {
		fprintf(stderr, "codec-bad: a fourcc has 4 characters, not '%s'\n", fcc);
		exit(1);
	}
	/* Frames as fast as the camera makes them */
	parm.parm.capture.timeperframe.numerator = 1;
	parm.parm.capture.timeperframe.denominator = 60;
	ioctl(kfd, VIDIOC_S_PARM, &parm);
	for (s = 0; s < nsizes; s++) {
		if (!strcmp(sizes[s], "all")) {
			/*
			 * Every width (32-1920, step 8) at a small height that
			 * moves, every height (16-1080, step 2) at a small width
			 * that moves: what decides the import is the buffer's
			 * size (its alignment after the one before) and the line
			 * length, not the picture.  Small, and without waiting
			 * for camera frames (the buffers are encoded as they
			 * are, zeroed), so that 770 sizes take a minute or two.
			 */
			for (i = 0, w = 32; w <= 1920; w += 8, i++)
				zc_one(codec, kfd, fcc, w, 16 + (i * 14) % 48, false);
			for (i = 0, h = 16; h <= 1080; h += 2, i++)
				zc_one(codec, kfd, fcc, 32 + (i * 40) % 96, h, false);
			/* and the largest and common sizes with camera frames */
			zc_one(codec, kfd, fcc, 1920, 1080, true);
			zc_one(codec, kfd, fcc, 1280, 720, true);
			zc_one(codec, kfd, fcc, 640, 480, true);
			zc_one(codec, kfd, fcc, 320, 240, true);
		} else if (sscanf(sizes[s], "%ux%u", &w, &h) == 2) {
			zc_one(codec, kfd, fcc, w, h, true);
		} else {
			fprintf(stderr, "codec-bad: a size is WxH or all, not '%s'\n", sizes[s]);
			exit(1);
		}
	}
	printf("zerocopy %s: %u sizes, %u camera buffers imported, %u frames encoded, %u failed\n",
	       fcc, zc_sizes, zc_imported, zc_encoded, zc_failed);
	close(kfd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "nobufs"))
		return cmd_nobufs(argv[2]);
	if (argc == 6 && !strcmp(argv[1], "import"))
		return cmd_import(argv[2], argv[3], strtoul(argv[4], NULL, 0),
				  strtoul(argv[5], NULL, 0));
	if (argc == 6 && !strcmp(argv[1], "tryfmt"))
		return cmd_tryfmt(argv[2], argv[3], argv[4], argv[5]);
	if (argc == 3 && !strcmp(argv[1], "encode"))
		return cmd_encode(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "payload"))
		return cmd_payload(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "drain"))
		return cmd_drain(argv[2], strtoul(argv[3], NULL, 0));
	if (argc >= 6 && !strcmp(argv[1], "zerocopy"))
		return cmd_zerocopy(argv[2], argv[3], argv[4], argc - 5, argv + 5);
	fprintf(stderr, "usage: codec-bad nobufs CODEC | import CODEC CAMERA W H |\n"
		"       tryfmt CODEC FOURCC W H | encode CODEC | payload CODEC |\n"
		"       drain CODEC N | zerocopy CODEC CAMERA FOURCC all|WxH...\n");
	return 1;
}
