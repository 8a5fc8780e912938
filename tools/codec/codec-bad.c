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
 *   codec-bad abort CODEC N           N times: a YUYV 1920x1080 frame (about
 *                                     40 ms of modelled device time) queued,
 *                                     STREAMON, STREAMOFF on OUTPUT at once,
 *                                     the CAPTURE buffer dequeued: ERROR
 *                                     (the job aborted) or done (waited for);
 *                                     then one frame encoded to the end
 *   codec-bad fmtbusy CODEC           S_FMT on CAPTURE with buffers on OUTPUT,
 *                                     on CAPTURE, on neither (dev-encoder.rst:
 *                                     EBUSY while either queue has buffers)
 *   codec-bad parm CODEC              G_PARM/S_PARM on OUTPUT (1/25, then 0/0)
 *                                     and on CAPTURE: what each returns
 *   codec-bad drain CODEC N           N times: a frame queued, ENC_CMD STOP at
 *                                     once (racing the frame's interrupt), the
 *                                     CAPTURE buffers dequeued until LAST (20 s),
 *                                     ENC_CMD START; one line per drain
 *   codec-bad zerocopy CODEC CAM FOURCC all|all/N|WxH...
 *                                     camera -> codec zero copy: for each size
 *                                     two camera buffers captured (MMAP),
 *                                     exported and queued on the codec's
 *                                     OUTPUT (DMABUF), both encoded; all:
 *                                     every width the camera offers at a
 *                                     small height and every height at a
 *                                     small width, buffers encoded as they
 *                                     are (no frames), then 1920x1080,
 *                                     1280x720, 640x480 and 320x240 with
 *                                     frames; all/N: every Nth size of
 *                                     those two sweeps and the last of each
 *                                     (1920 wide, 1080 high), then the four
 *                                     with frames; a line per failure, a
 *                                     summary
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
	case ENOTTY: return "ENOTTY";
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

/*
 * The codec's API: multi-planar (V4L2_CAP_VIDEO_M2M_MPLANE, the driver's
 * default) or single-planar (multiplanar=1).  OUT and CAP are its buffer
 * types; the helpers below hide the difference.
 */
static bool mp;
static unsigned int OUT = V4L2_BUF_TYPE_VIDEO_OUTPUT, CAP = V4L2_BUF_TYPE_VIDEO_CAPTURE;

static int open_codec(const char *path, int flags)
{
	int fd = open_dev(path, flags);
	struct v4l2_capability caps = { 0 };

	ioctl(fd, VIDIOC_QUERYCAP, &caps);
	mp = caps.device_caps & V4L2_CAP_VIDEO_M2M_MPLANE;
	OUT = mp ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE : V4L2_BUF_TYPE_VIDEO_OUTPUT;
	CAP = mp ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE : V4L2_BUF_TYPE_VIDEO_CAPTURE;
	return fd;
}

static void fmt_set(struct v4l2_format *f, unsigned int type, unsigned int w,
		    unsigned int h, __u32 pf)
{
	memset(f, 0, sizeof(*f));
	f->type = type;
	if (V4L2_TYPE_IS_MULTIPLANAR(type)) {
		f->fmt.pix_mp.width = w;
		f->fmt.pix_mp.height = h;
		f->fmt.pix_mp.pixelformat = pf;
	} else {
		f->fmt.pix.width = w;
		f->fmt.pix.height = h;
		f->fmt.pix.pixelformat = pf;
	}
}

#define FMT_GET(f, sp, mpf) (V4L2_TYPE_IS_MULTIPLANAR((f)->type) ? (f)->fmt.pix_mp.mpf : (f)->fmt.pix.sp)
static unsigned int fmt_w(const struct v4l2_format *f) { return FMT_GET(f, width, width); }
static unsigned int fmt_h(const struct v4l2_format *f) { return FMT_GET(f, height, height); }
static __u32 fmt_pf(const struct v4l2_format *f) { return FMT_GET(f, pixelformat, pixelformat); }
static unsigned int fmt_planes(const struct v4l2_format *f)
{
	return V4L2_TYPE_IS_MULTIPLANAR(f->type) ? f->fmt.pix_mp.num_planes : 1;
}
static unsigned int fmt_bpl(const struct v4l2_format *f, unsigned int p)
{
	return FMT_GET(f, bytesperline, plane_fmt[p].bytesperline);
}
static unsigned int fmt_size(const struct v4l2_format *f, unsigned int p)
{
	return FMT_GET(f, sizeimage, plane_fmt[p].sizeimage);
}

/* A buffer of either API, with room for its planes */
struct buf {
	struct v4l2_buffer b;
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
};

static void buf_init(struct buf *x, unsigned int type, unsigned int mem,
		     unsigned int index, unsigned int nplanes)
{
	memset(x, 0, sizeof(*x));
	x->b.type = type;
	x->b.memory = mem;
	x->b.index = index;
	if (V4L2_TYPE_IS_MULTIPLANAR(type)) {
		x->b.m.planes = x->planes;
		x->b.length = nplanes;
	}
}

/* Plane @p's bytesused, length, mmap offset; its DMABUF fd */
static __u32 *buf_used(struct buf *x, unsigned int p)
{
	return V4L2_TYPE_IS_MULTIPLANAR(x->b.type) ? &x->planes[p].bytesused : &x->b.bytesused;
}
static __u32 *buf_len(struct buf *x, unsigned int p)
{
	return V4L2_TYPE_IS_MULTIPLANAR(x->b.type) ? &x->planes[p].length : &x->b.length;
}
static __u32 buf_offset(struct buf *x, unsigned int p)
{
	return V4L2_TYPE_IS_MULTIPLANAR(x->b.type) ? x->planes[p].m.mem_offset : x->b.m.offset;
}
static void buf_fd(struct buf *x, unsigned int p, int fd)
{
	if (V4L2_TYPE_IS_MULTIPLANAR(x->b.type))
		x->planes[p].m.fd = fd;
	else
		x->b.m.fd = fd;
}

static void set_fmt(int fd, unsigned int type, unsigned int w, unsigned int h)
{
	struct v4l2_format f;

	fmt_set(&f, type, w, h, V4L2_PIX_FMT_YUYV);
	step(V4L2_TYPE_IS_OUTPUT(type) ? "S_FMT output" : "S_FMT capture",
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
	int fd = open_codec(codec, O_RDWR | O_NONBLOCK);
	unsigned int out = OUT, cap = CAP;
	struct buf b;

	buf_init(&b, cap, V4L2_MEMORY_MMAP, 0, 1);
	step("STREAMON output without buffers", fd, VIDIOC_STREAMON, &out);
	step("STREAMON capture without buffers", fd, VIDIOC_STREAMON, &cap);
	reqbufs("REQBUFS output 2", fd, out, V4L2_MEMORY_MMAP, 2);
	reqbufs("REQBUFS capture 2", fd, cap, V4L2_MEMORY_MMAP, 2);
	step("STREAMON output, none queued", fd, VIDIOC_STREAMON, &out);
	step("STREAMON capture, none queued", fd, VIDIOC_STREAMON, &cap);
	usleep(200000);
	step("DQBUF capture, none queued", fd, VIDIOC_DQBUF, &b.b);
	step("STREAMOFF output", fd, VIDIOC_STREAMOFF, &out);
	step("STREAMOFF capture", fd, VIDIOC_STREAMOFF, &cap);
	close(fd);
	return 0;
}

static int cmd_import(const char *codec, const char *cam, unsigned int w,
		      unsigned int h)
{
	int cfd = open_codec(codec, O_RDWR | O_NONBLOCK), kfd = open_dev(cam, O_RDWR);
	struct v4l2_capability caps = { 0 };
	struct v4l2_format f = { 0 };
	struct v4l2_exportbuffer eb = { 0 };
	struct buf b;
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
	set_fmt(cfd, OUT, 640, 480);
	reqbufs("REQBUFS output dmabuf 1", cfd, OUT, V4L2_MEMORY_DMABUF, 1);
	buf_init(&b, OUT, V4L2_MEMORY_DMABUF, 0, 1);
	buf_fd(&b, 0, eb.fd);
	step("QBUF output dmabuf", cfd, VIDIOC_QBUF, &b.b);
	close(eb.fd);
	close(cfd);
	close(kfd);
	return 0;
}

static int cmd_tryfmt(const char *codec, const char *fcc, const char *w, const char *h)
{
	int fd = open_codec(codec, O_RDWR);
	struct v4l2_format f;
	unsigned int p;
	__u32 pf;

	if (strlen(fcc) != 4) {
		fprintf(stderr, "codec-bad: a fourcc has 4 characters, not '%s'\n", fcc);
		exit(1);
	}
	fmt_set(&f, OUT, strtoul(w, NULL, 0), strtoul(h, NULL, 0),
		v4l2_fourcc(fcc[0], fcc[1], fcc[2], fcc[3]));
	if (!step("TRY_FMT output", fd, VIDIOC_TRY_FMT, &f)) {
		/* a plane: "bytesperline B sizeimage S", one after the other */
		pf = fmt_pf(&f);
		printf("format: %c%c%c%c %ux%u", pf & 0xff, pf >> 8 & 0xff,
		       pf >> 16 & 0xff, pf >> 24, fmt_w(&f), fmt_h(&f));
		for (p = 0; p < fmt_planes(&f); p++)
			printf(" bytesperline %u sizeimage %u", fmt_bpl(&f, p), fmt_size(&f, p));
		printf("\n");
	}
	close(fd);
	return 0;
}

static int cmd_encode(const char *codec)
{
	int fd = open_codec(codec, O_RDWR | O_NONBLOCK);
	unsigned int out = OUT, cap = CAP;
	struct buf ob, cb;
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };
	unsigned int olen;
	void *m;
	int n;

	set_fmt(fd, out, 64, 64);
	buf_init(&ob, out, V4L2_MEMORY_MMAP, 0, 1);
	buf_init(&cb, cap, V4L2_MEMORY_MMAP, 0, 1);
	if (reqbufs("REQBUFS output 1", fd, out, V4L2_MEMORY_MMAP, 1) ||
	    reqbufs("REQBUFS capture 1", fd, cap, V4L2_MEMORY_MMAP, 1) ||
	    step("QUERYBUF output", fd, VIDIOC_QUERYBUF, &ob.b))
		return 0;
	olen = *buf_len(&ob, 0);
	m = mmap(NULL, olen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, buf_offset(&ob, 0));
	if (m == MAP_FAILED) {
		printf("mmap output: errno %s\n", ename(errno));
		return 0;
	}
	memset(m, 0x80, olen);
	*buf_used(&ob, 0) = olen;
	step("QBUF output", fd, VIDIOC_QBUF, &ob.b);
	step("QBUF capture", fd, VIDIOC_QBUF, &cb.b);
	step("STREAMON output", fd, VIDIOC_STREAMON, &out);
	step("STREAMON capture", fd, VIDIOC_STREAMON, &cap);
	n = poll(&p, 1, 5000);
	printf("poll: %s%s%s\n", n == 0 ? "timeout" : n < 0 ? "error" : "ready",
	       p.revents & POLLERR ? " POLLERR" : "", p.revents & POLLIN ? " POLLIN" : "");
	buf_init(&cb, cap, V4L2_MEMORY_MMAP, 0, 1);
	if (!step("DQBUF capture", fd, VIDIOC_DQBUF, &cb.b))
		printf("capture buffer: bytesused %u%s\n", *buf_used(&cb, 0),
		       cb.b.flags & V4L2_BUF_FLAG_ERROR ? " ERROR" : "");
	buf_init(&ob, out, V4L2_MEMORY_MMAP, 0, 1);
	if (!step("DQBUF output", fd, VIDIOC_DQBUF, &ob.b))
		printf("output buffer:%s\n", ob.b.flags & V4L2_BUF_FLAG_ERROR ? " ERROR" : " done");
	*buf_used(&ob, 0) = olen;
	step("QBUF output again", fd, VIDIOC_QBUF, &ob.b);
	step("STREAMOFF output", fd, VIDIOC_STREAMOFF, &out);
	step("STREAMOFF capture", fd, VIDIOC_STREAMOFF, &cap);
	munmap(m, olen);
	close(fd);
	return 0;
}

static int cmd_payload(const char *codec)
{
	int fd = open_codec(codec, O_RDWR | O_NONBLOCK);
	unsigned int out = OUT;
	struct v4l2_format f = { .type = out };
	struct buf ob;

	set_fmt(fd, out, 64, 64);
	if (step("G_FMT output", fd, VIDIOC_G_FMT, &f) ||
	    reqbufs("REQBUFS output 2", fd, out, V4L2_MEMORY_MMAP, 2))
		return 0;
	buf_init(&ob, out, V4L2_MEMORY_MMAP, 0, 1);
	*buf_used(&ob, 0) = fmt_size(&f, 0) / 2;
	step("QBUF output, half the payload", fd, VIDIOC_QBUF, &ob.b);
	buf_init(&ob, out, V4L2_MEMORY_MMAP, 1, 1);
	*buf_used(&ob, 0) = fmt_size(&f, 0);
	step("QBUF output, the whole payload", fd, VIDIOC_QBUF, &ob.b);
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
static int dqbuf_wait(int fd, unsigned int type, struct buf *b)
{
	struct pollfd p = { .fd = fd };
	double end = now_s() + 20;

	/* m2m: POLLIN says CAPTURE has a buffer done, POLLOUT says OUTPUT */
	p.events = V4L2_TYPE_IS_OUTPUT(type) ? POLLOUT : POLLIN;
	for (;;) {
		buf_init(b, type, V4L2_MEMORY_MMAP, 0, VIDEO_MAX_PLANES);
		if (!ioctl(fd, VIDIOC_DQBUF, &b->b))
			return 0;
		if (errno != EAGAIN)
			return -errno;
		if (now_s() > end)
			return -ETIMEDOUT;
		poll(&p, 1, 100);
	}
}

/*
 * STREAMOFF on OUTPUT while a job runs: the driver's .job_abort resets
 * the device and fails the job at once (the CAPTURE buffer comes back with
 * ERROR), instead of waiting, the device's lock held, for the interrupt
 * (or, on a stuck device, the 10 s watchdog).  The job takes about 40 ms
 * of modelled device time (1920x1080 at 50 Mpixel/s) plus its host's
 * encode: a STREAMOFF issued right after STREAMON finds it running, unless
 * the guest was descheduled that long, so one abort in N is the verdict.
 */
static int cmd_abort(const char *codec, unsigned int n)
{
	int fd = open_codec(codec, O_RDWR | O_NONBLOCK);
	unsigned int out = OUT, cap = CAP;
	struct v4l2_format f = { .type = out };
	struct buf b;
	unsigned int i, aborted = 0, waited = 0, other = 0;
	double t = 0, worst = 0;
	int ret;

	set_fmt(fd, out, 1920, 1080);
	if (step("G_FMT output", fd, VIDIOC_G_FMT, &f) ||
	    reqbufs("REQBUFS output 1", fd, out, V4L2_MEMORY_MMAP, 1) ||
	    reqbufs("REQBUFS capture 1", fd, cap, V4L2_MEMORY_MMAP, 1) ||
	    step("STREAMON capture", fd, VIDIOC_STREAMON, &cap))
		return 0;
	for (i = 0; i <= n; i++) {
		buf_init(&b, cap, V4L2_MEMORY_MMAP, 0, 1);
		if (ioctl(fd, VIDIOC_QBUF, &b.b)) {
			printf("abort %u: QBUF capture: errno %s\n", i, ename(errno));
			break;
		}
		buf_init(&b, out, V4L2_MEMORY_MMAP, 0, 1);
		*buf_used(&b, 0) = fmt_size(&f, 0);
		if (ioctl(fd, VIDIOC_QBUF, &b.b) || ioctl(fd, VIDIOC_STREAMON, &out)) {
			printf("abort %u: QBUF/STREAMON output: errno %s\n", i, ename(errno));
			break;
		}
		/* the last round: the frame encoded to the end */
		if (i < n) {
			t = now_s();
			ret = ioctl(fd, VIDIOC_STREAMOFF, &out);
			t = now_s() - t;
			if (ret) {
				printf("abort %u: STREAMOFF output: errno %s\n", i, ename(errno));
				break;
			}
			if (t > worst)
				worst = t;
		}
		ret = dqbuf_wait(fd, cap, &b);
		if (ret) {
			printf("abort %u: DQBUF capture: errno %s\n", i, ename(-ret));
			other++;
		} else if (i == n) {
			printf("abort: then a frame encoded: bytesused %u%s\n", *buf_used(&b, 0),
			       b.b.flags & V4L2_BUF_FLAG_ERROR ? " ERROR" : "");
		} else if (b.b.flags & V4L2_BUF_FLAG_ERROR) {
			aborted++;
		} else if (*buf_used(&b, 0)) {
			waited++;
			printf("abort %u: the job was waited for (a %u-byte frame; STREAMOFF took %.3f s)\n",
			       i, *buf_used(&b, 0), t);
		} else {
			other++;
			printf("abort %u: an empty buffer without ERROR\n", i);
		}
		if (i == n)
			break;
	}
	printf("aborts: %u of %u jobs aborted at STREAMOFF, %u waited for, %u other; slowest STREAMOFF %.3f s\n",
	       aborted, n, waited, other, worst);
	ioctl(fd, VIDIOC_STREAMOFF, &out);
	ioctl(fd, VIDIOC_STREAMOFF, &cap);
	close(fd);
	return 0;
}

/* S_FMT(CAPTURE) while either queue has buffers: EBUSY (dev-encoder.rst) */
static int cmd_fmtbusy(const char *codec)
{
	int fd = open_codec(codec, O_RDWR | O_NONBLOCK);
	struct v4l2_format f;

	fmt_set(&f, CAP, 0, 0, V4L2_PIX_FMT_JPEG);
	reqbufs("REQBUFS output 1", fd, OUT, V4L2_MEMORY_MMAP, 1);
	step("S_FMT capture, OUTPUT has buffers", fd, VIDIOC_S_FMT, &f);
	reqbufs("REQBUFS output 0", fd, OUT, V4L2_MEMORY_MMAP, 0);
	reqbufs("REQBUFS capture 1", fd, CAP, V4L2_MEMORY_MMAP, 1);
	step("S_FMT capture, CAPTURE has buffers", fd, VIDIOC_S_FMT, &f);
	reqbufs("REQBUFS capture 0", fd, CAP, V4L2_MEMORY_MMAP, 0);
	step("S_FMT capture, no buffers", fd, VIDIOC_S_FMT, &f);
	close(fd);
	return 0;
}

static void print_parm(const char *what, const struct v4l2_streamparm *p)
{
	const struct v4l2_outputparm *o = &p->parm.output;

	printf("%s: capability%s timeperframe %u/%u\n", what,
	       o->capability & V4L2_CAP_TIMEPERFRAME ? " TIMEPERFRAME" : " none",
	       o->timeperframe.numerator, o->timeperframe.denominator);
}

/* G/S_PARM on both queues, and what they return */
static int cmd_parm(const char *codec)
{
	int fd = open_codec(codec, O_RDWR | O_NONBLOCK);
	struct v4l2_streamparm p = { .type = OUT };

	if (!step("G_PARM output", fd, VIDIOC_G_PARM, &p))
		print_parm("default", &p);
	memset(&p, 0, sizeof(p));
	p.type = OUT;
	p.parm.output.timeperframe.numerator = 1;
	p.parm.output.timeperframe.denominator = 25;
	if (!step("S_PARM output 1/25", fd, VIDIOC_S_PARM, &p))
		print_parm("set 1/25", &p);
	memset(&p, 0, sizeof(p));
	p.type = OUT;
	if (!step("G_PARM output again", fd, VIDIOC_G_PARM, &p))
		print_parm("got", &p);
	memset(&p, 0, sizeof(p));
	p.type = OUT;
	if (!step("S_PARM output 0/0", fd, VIDIOC_S_PARM, &p))
		print_parm("set 0/0", &p);
	memset(&p, 0, sizeof(p));
	p.type = CAP;
	step("G_PARM capture", fd, VIDIOC_G_PARM, &p);
	memset(&p, 0, sizeof(p));
	p.type = CAP;
	p.parm.capture.timeperframe.numerator = 1;
	p.parm.capture.timeperframe.denominator = 25;
	step("S_PARM capture", fd, VIDIOC_S_PARM, &p);
	close(fd);
	return 0;
}

static int cmd_drain(const char *codec, unsigned int n)
{
	int fd = open_codec(codec, O_RDWR | O_NONBLOCK);
	unsigned int out = OUT, cap = CAP;
	struct v4l2_format f = { .type = out };
	struct v4l2_encoder_cmd stop = { .cmd = V4L2_ENC_CMD_STOP };
	struct v4l2_encoder_cmd start = { .cmd = V4L2_ENC_CMD_START };
	struct buf b;
	unsigned int i, good = 0, frames = 0;
	int ret;

	set_fmt(fd, out, 64, 64);
	if (step("G_FMT output", fd, VIDIOC_G_FMT, &f) ||
	    reqbufs("REQBUFS output 1", fd, out, V4L2_MEMORY_MMAP, 1) ||
	    reqbufs("REQBUFS capture 2", fd, cap, V4L2_MEMORY_MMAP, 2))
		return 0;
	for (i = 0; i < 2; i++) {
		buf_init(&b, cap, V4L2_MEMORY_MMAP, i, 1);
		if (step("QBUF capture", fd, VIDIOC_QBUF, &b.b))
			return 0;
	}
	if (step("STREAMON output", fd, VIDIOC_STREAMON, &out) ||
	    step("STREAMON capture", fd, VIDIOC_STREAMON, &cap))
		return 0;
	for (i = 0; i < n; i++) {
		const char *what = "ok";
		bool last = false;

		buf_init(&b, out, V4L2_MEMORY_MMAP, 0, 1);
		*buf_used(&b, 0) = fmt_size(&f, 0);
		if (ioctl(fd, VIDIOC_QBUF, &b.b)) {
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
			last = b.b.flags & V4L2_BUF_FLAG_LAST;
			if (*buf_used(&b, 0) && !(b.b.flags & V4L2_BUF_FLAG_ERROR))
				frames++;
			*buf_used(&b, 0) = 0;
			b.b.flags = 0;
			if (ioctl(fd, VIDIOC_QBUF, &b.b)) {
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

/*
 * One size: 0, or -1 when a step failed (reported).  A camera format of
 * two buffers (NM12) exports two DMABUFs a buffer, imported as the two
 * planes of one codec buffer.
 */
static int zc_one(const char *codec, int kfd, const char *fcc, unsigned int w,
		  unsigned int h, bool capture)
{
	unsigned int ktype = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
	__u32 pf = v4l2_fourcc(fcc[0], fcc[1], fcc[2], fcc[3]);
	struct v4l2_format kf = { .type = ktype }, cf;
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct v4l2_buffer kb;
	struct buf b;
	struct v4l2_exportbuffer eb;
	struct v4l2_requestbuffers rb;
	int dfd[2][2] = { { -1, -1 }, { -1, -1 } }, cfd = -1, ret = -1;
	unsigned int i, p, np, klen[2][2] = { { 0 } }, mlen = 0;
	char msg[200];
	void *m;

	zc_sizes++;
	kf.fmt.pix_mp.width = w;
	kf.fmt.pix_mp.height = h;
	kf.fmt.pix_mp.pixelformat = pf;
	if (ioctl(kfd, VIDIOC_S_FMT, &kf) || kf.fmt.pix_mp.width != w ||
	    kf.fmt.pix_mp.height != h || kf.fmt.pix_mp.pixelformat != pf ||
	    kf.fmt.pix_mp.num_planes < 1 || kf.fmt.pix_mp.num_planes > 2) {
		zc_fail(fcc, w, h, "camera S_FMT refused or adjusted the size");
		return -1;
	}
	np = kf.fmt.pix_mp.num_planes;
	memset(&rb, 0, sizeof(rb));
	rb.count = 2;
	rb.type = ktype;
	rb.memory = V4L2_MEMORY_MMAP;
	if (ioctl(kfd, VIDIOC_REQBUFS, &rb) || rb.count != 2) {
		zc_fail(fcc, w, h, "camera REQBUFS 2 failed");
		goto out;
	}
	for (i = 0; i < 2; i++) {
		memset(&kb, 0, sizeof(kb));
		kb.type = ktype;
		kb.memory = V4L2_MEMORY_MMAP;
		kb.index = i;
		kb.m.planes = planes;
		kb.length = np;
		if (ioctl(kfd, VIDIOC_QUERYBUF, &kb)) {
			zc_fail(fcc, w, h, "camera QUERYBUF failed");
			goto out;
		}
		for (p = 0; p < np; p++) {
			memset(&eb, 0, sizeof(eb));
			eb.type = ktype;
			eb.index = i;
			eb.plane = p;
			if (ioctl(kfd, VIDIOC_EXPBUF, &eb)) {
				zc_fail(fcc, w, h, "camera EXPBUF failed");
				goto out;
			}
			dfd[i][p] = eb.fd;
			klen[i][p] = planes[p].length;
		}
		if (ioctl(kfd, VIDIOC_QBUF, &kb)) {
			zc_fail(fcc, w, h, "camera QBUF failed");
			goto out;
		}
	}
	/* Two frames captured, one in each buffer (or the zeroed buffers) */
	if (!capture)
		goto codec;
	if (ioctl(kfd, VIDIOC_STREAMON, &ktype)) {
		zc_fail(fcc, w, h, "camera STREAMON failed");
		goto out;
	}
	for (i = 0; i < 2; i++) {
		struct pollfd pfd = { .fd = kfd, .events = POLLIN };

		memset(&kb, 0, sizeof(kb));
		kb.type = ktype;
		kb.memory = V4L2_MEMORY_MMAP;
		kb.m.planes = planes;
		kb.length = np;
		if (poll(&pfd, 1, 20000) != 1 || ioctl(kfd, VIDIOC_DQBUF, &kb) ||
		    (kb.flags & V4L2_BUF_FLAG_ERROR)) {
			zc_fail(fcc, w, h, "camera frame not captured");
			ioctl(kfd, VIDIOC_STREAMOFF, &ktype);
			goto out;
		}
	}
	ioctl(kfd, VIDIOC_STREAMOFF, &ktype);

codec:
	/* The codec: the same picture on OUTPUT, both camera buffers imported */
	cfd = open_codec(codec, O_RDWR | O_NONBLOCK);
	fmt_set(&cf, OUT, w, h, pf);
	if (ioctl(cfd, VIDIOC_S_FMT, &cf) || fmt_w(&cf) != w || fmt_h(&cf) != h ||
	    fmt_pf(&cf) != pf || fmt_planes(&cf) != np) {
		zc_fail(fcc, w, h, "codec S_FMT refused or adjusted the size or format");
		goto out;
	}
	for (p = 0; p < np; p++) {
		if (fmt_bpl(&cf, p) != kf.fmt.pix_mp.plane_fmt[p].bytesperline) {
			snprintf(msg, sizeof(msg), "plane %u bytesperline: camera %u, codec %u",
				 p, kf.fmt.pix_mp.plane_fmt[p].bytesperline, fmt_bpl(&cf, p));
			zc_fail(fcc, w, h, msg);
			goto out;
		}
	}
	memset(&rb, 0, sizeof(rb));
	rb.count = 2;
	rb.type = OUT;
	rb.memory = V4L2_MEMORY_DMABUF;
	if (ioctl(cfd, VIDIOC_REQBUFS, &rb)) {
		zc_fail(fcc, w, h, "codec REQBUFS output DMABUF failed");
		goto out;
	}
	memset(&rb, 0, sizeof(rb));
	rb.count = 1;
	rb.type = CAP;
	rb.memory = V4L2_MEMORY_MMAP;
	if (ioctl(cfd, VIDIOC_REQBUFS, &rb)) {
		zc_fail(fcc, w, h, "codec REQBUFS capture failed");
		goto out;
	}
	for (i = 0; i < 2; i++) {
		buf_init(&b, OUT, V4L2_MEMORY_DMABUF, i, np);
		for (p = 0; p < np; p++) {
			buf_fd(&b, p, dfd[i][p]);
			*buf_len(&b, p) = klen[i][p];
			*buf_used(&b, p) = fmt_size(&cf, p);
		}
		if (ioctl(cfd, VIDIOC_QBUF, &b.b)) {
			if (np > 1)
				snprintf(msg, sizeof(msg), "codec QBUF of camera buffer %u (%u and %u bytes): errno %s",
					 i, klen[i][0], klen[i][1], ename(errno));
			else
				snprintf(msg, sizeof(msg), "codec QBUF of camera buffer %u (%u bytes): errno %s",
					 i, klen[i][0], ename(errno));
			zc_fail(fcc, w, h, msg);
			goto out;
		}
		zc_imported++;
	}
	buf_init(&b, CAP, V4L2_MEMORY_MMAP, 0, 1);
	if (ioctl(cfd, VIDIOC_QUERYBUF, &b.b)) {
		zc_fail(fcc, w, h, "codec QUERYBUF capture failed");
		goto out;
	}
	mlen = *buf_len(&b, 0);
	m = mmap(NULL, mlen, PROT_READ, MAP_SHARED, cfd, buf_offset(&b, 0));
	if (m == MAP_FAILED) {
		zc_fail(fcc, w, h, "codec capture mmap failed");
		goto out;
	}
	if (ioctl(cfd, VIDIOC_QBUF, &b.b) || ioctl(cfd, VIDIOC_STREAMON, &OUT) ||
	    ioctl(cfd, VIDIOC_STREAMON, &CAP)) {
		zc_fail(fcc, w, h, "codec QBUF capture/STREAMON failed");
		goto unmap;
	}
	for (i = 0; i < 2; i++) {
		const unsigned char *j = m;
		int err = dqbuf_wait(cfd, CAP, &b);
		unsigned int used = *buf_used(&b, 0);

		if (err || (b.b.flags & V4L2_BUF_FLAG_ERROR) ||
		    used < 4 || j[0] != 0xff || j[1] != 0xd8 ||
		    j[used - 2] != 0xff || j[used - 1] != 0xd9) {
			snprintf(msg, sizeof(msg), "frame from camera buffer %u not encoded (%s, bytesused %u%s)",
				 i, err == -ETIMEDOUT ? "none within 20 s" : err ? ename(-err) : "dequeued",
				 used, b.b.flags & V4L2_BUF_FLAG_ERROR ? ", ERROR" : "");
			zc_fail(fcc, w, h, msg);
			goto unmap;
		}
		zc_encoded++;
		*buf_used(&b, 0) = 0;
		b.b.flags = 0;
		if (i == 0 && ioctl(cfd, VIDIOC_QBUF, &b.b)) {
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
		for (p = 0; p < 2; p++)
			if (dfd[i][p] >= 0)
				close(dfd[i][p]);
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
		unsigned int every = 1;
		char end;

		if (!strcmp(sizes[s], "all") ||
		    (sscanf(sizes[s], "all/%u%c", &every, &end) == 1 && every >= 1)) {
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
				if (i % every == 0 || w == 1920)
					zc_one(codec, kfd, fcc, w, 16 + (i * 14) % 48, false);
			for (i = 0, h = 16; h <= 1080; h += 2, i++)
				if (i % every == 0 || h == 1080)
					zc_one(codec, kfd, fcc, 32 + (i * 40) % 96, h, false);
			/* and the largest and common sizes with camera frames */
			zc_one(codec, kfd, fcc, 1920, 1080, true);
			zc_one(codec, kfd, fcc, 1280, 720, true);
			zc_one(codec, kfd, fcc, 640, 480, true);
			zc_one(codec, kfd, fcc, 320, 240, true);
		} else if (sscanf(sizes[s], "%ux%u", &w, &h) == 2) {
			zc_one(codec, kfd, fcc, w, h, true);
		} else {
			fprintf(stderr, "codec-bad: a size is WxH, all or all/N (N >= 1), not '%s'\n", sizes[s]);
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
	if (argc == 4 && !strcmp(argv[1], "abort"))
		return cmd_abort(argv[2], strtoul(argv[3], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "fmtbusy"))
		return cmd_fmtbusy(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "parm"))
		return cmd_parm(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "drain"))
		return cmd_drain(argv[2], strtoul(argv[3], NULL, 0));
	if (argc >= 6 && !strcmp(argv[1], "zerocopy"))
		return cmd_zerocopy(argv[2], argv[3], argv[4], argc - 5, argv + 5);
	fprintf(stderr, "usage: codec-bad nobufs CODEC | import CODEC CAMERA W H |\n"
		"       tryfmt CODEC FOURCC W H | encode CODEC | payload CODEC |\n"
		"       abort CODEC N | fmtbusy CODEC | parm CODEC |\n"
		"       drain CODEC N | zerocopy CODEC CAMERA FOURCC all|WxH...\n");
	return 1;
}
