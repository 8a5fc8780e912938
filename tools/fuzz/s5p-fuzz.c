// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * s5p-fuzz: a seeded ioctl/mmap fuzzer for /dev/cma and V4L2 nodes
 * (docs/fuzzing-guest.md).
 *
 *   s5p-fuzz [-s SEED] [-n OPS] [-p PROCS] [-k KILLS] [-v] TARGET...
 *   TARGET := cma:PATH | cap:PATH | m2m:PATH | media:PATH
 *
 * PROCS worker processes (default 4) share OPS operations (default
 * 10000) on their own open files of the TARGETs, on files opened once
 * before the workers were forked (so that several processes use the same
 * open file at once), and on the DMABUF files the V4L2 nodes export.  An
 * operation is one of: open, close, dup, an ioctl (the device's real
 * numbers with random, boundary or structure-aware arguments, valid
 * pointers to random contents, bad pointers; numbers with a wrong size,
 * direction or number; random numbers), mmap (offsets learned from
 * QUERYBUF or random and boundary offsets and lengths), munmap (whole or
 * part), mremap, a touch of a mapping, poll, read, write, a stream set
 * up as an application would (S_FMT, REQBUFS, QUERYBUF and mmap, QBUF,
 * STREAMON, poll/DQBUF/QBUF, EXPBUF, ENCODER_CMD; MMAP or DMABUF from the
 * other device's exports) cut short at a random step, or a fork whose
 * child does a few operations on the inherited files and is killed or
 * waited for.  A periodic SIGALRM interrupts whatever blocks (DQBUF on an
 * idle queue).  KILLS times (default PROCS), at random points, a worker
 * is killed with SIGKILL and a new one started in its place.
 *
 * Everything random comes from SEED (default: from the clock), printed
 * first; worker W of generation G (the G-th started in slot W) runs on
 * seed_of(SEED, W, G).  With -p 1 -k 0 a run replays the same operations
 * (timing-dependent results aside, e.g. whether a frame is ready).
 *
 * Output: "s5p-fuzz: seed N ..." first, then a summary per worker
 * generation, then "s5p-fuzz: done: ..." (counts).  Exit status 0; 1 if
 * a worker died in a way this program did not cause (a signal other than
 * its own SIGKILL, a non-zero exit) or the arguments are bad.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <linux/cma.h>
#include <linux/dma-buf.h>
#include <linux/media.h>
#include <linux/videodev2.h>

#define PAGE 4096UL
#define MAX_TARGETS 8
#define MAX_FDS 24
#define MAX_MAPS 32
#define MAX_LEARN 32
#define MAX_WORKERS 32

enum ftype { T_CMA, T_CAP, T_M2M, T_MEDIA, T_DMABUF, T_OTHER };
static const char *const tname[] = { "cma", "cap", "m2m", "media", "dmabuf", "other" };

struct target {
	enum ftype type;
	const char *path;
};

struct fdent {
	int fd;
	enum ftype type;
	int shared;		/* opened before the fork: do not count as ours */
	unsigned long cma_size;	/* /dev/cma: the chunk's size once allocated */
};

struct mapping {
	char *addr;
	size_t len;
	int prot;
	enum ftype type;
};

struct learned {		/* an mmap offset QUERYBUF gave for a file */
	int fd;
	uint64_t off;
	uint32_t len;
};

/* Per worker slot, in memory shared with the parent */
struct wstat {
	volatile unsigned long ops, ioctl_ok, ioctl_err, mmap_ok, mmap_err,
		faults, forks, opens;
};

struct shared {
	volatile unsigned long total_ops;	/* all workers, all generations */
	struct wstat w[MAX_WORKERS];
};

static struct target targets[MAX_TARGETS];
static int ntargets;
static struct fdent fds[MAX_FDS];
static int nfds;
static struct mapping maps[MAX_MAPS];
static int nmaps;
static struct learned learn[MAX_LEARN];
static int nlearn;
static struct shared *sh;
static struct wstat *me;
static unsigned long max_ops;
static int verbose, worker_id, worker_gen, is_child;
static uint64_t rng_state;

/* The argument arena: 8 read-write pages, a PROT_NONE guard page, a
 * read-only page. */
static char *arena, *guard, *rdonly;
#define ARENA_RW (8 * PAGE)
#define NESTED_OFF (5 * PAGE)	/* arrays a structure points to */

/* ---- random numbers ---- */
static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd(void) { return splitmix(&rng_state); }
static uint32_t rnd32(void) { return (uint32_t)rnd(); }
static uint32_t below(uint32_t n) { return n ? (uint32_t)(rnd() % n) : 0; }
static int chance(int pct) { return below(100) < (uint32_t)pct; }

static uint64_t seed_of(uint64_t seed, int w, int g)
{
	uint64_t x = seed ^ ((uint64_t)w << 40) ^ ((uint64_t)g << 20);

	splitmix(&x);
	return splitmix(&x);
}

static const uint32_t b32[] = {
	0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 31, 32, 63, 64, 127, 128, 255, 256,
	1023, 1024, 4095, 4096, 4097, 8191, 8192, 0x7fff, 0x8000, 0xffff,
	0x10000, 0x100000, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe,
	0xffffffff,
};
static const uint64_t b64[] = {
	0x100000000ULL, 0x100001000ULL, 0x7fffffffffffffffULL,
	0x8000000000000000ULL, 0xfffffffffffff000ULL, 0xffffffffffffffffULL,
};

static uint32_t val32(void)
{
	switch (below(4)) {
	case 0: case 1: return b32[below(sizeof(b32) / sizeof(b32[0]))];
	case 2: return below(17);
	default: return rnd32();
	}
}

static uint64_t val64(void)
{
	return chance(25) ? b64[below(sizeof(b64) / sizeof(b64[0]))] : val32();
}

static void rnd_bytes(void *p, size_t n)
{
	unsigned char *c = p;

	while (n--)
		*c++ = (unsigned char)rnd();
}

/* ---- logging ---- */
static void vlog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void vlog(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	fprintf(stderr, "w%d.%d%s #%lu ", worker_id, worker_gen, is_child ? "c" : "", me->ops);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- signals: the periodic alarm, faults while touching a mapping ---- */
static sigjmp_buf touch_jmp;
static volatile sig_atomic_t in_touch;

static void on_alarm(int sig) { (void)sig; }

static void on_fault(int sig)
{
	if (in_touch)
		siglongjmp(touch_jmp, sig);
	signal(sig, SIG_DFL);	/* not ours to catch: die of it */
}

static void worker_signals(void)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 50000 }, { 0, 50000 } };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: blocking calls end in EINTR */
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = on_fault;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
}

/* ---- the file table ---- */
static struct fdent *add_fd(int fd, enum ftype type, int shared)
{
	if (fd < 0)
		return NULL;
	if (nfds == MAX_FDS) {
		close(fd);
		return NULL;
	}
	fds[nfds] = (struct fdent){ .fd = fd, .type = type, .shared = shared };
	return &fds[nfds++];
}

static void forget_learned(int fd)
{
	int i;

	for (i = 0; i < nlearn;)
		if (learn[i].fd == fd)
			learn[i] = learn[--nlearn];
		else
			i++;
}

static void drop_fd(int i)
{
	vlog("close fd %d (%s)", fds[i].fd, tname[fds[i].type]);
	close(fds[i].fd);
	forget_learned(fds[i].fd);
	fds[i] = fds[--nfds];
}

static void learn_off(int fd, uint64_t off, uint32_t len)
{
	int i = nlearn < MAX_LEARN ? nlearn++ : (int)below(MAX_LEARN);

	learn[i] = (struct learned){ fd, off, len };
}

static struct fdent *pick_fd(void)
{
	return nfds ? &fds[below(nfds)] : NULL;
}

static int pick_dmabuf_fd(void)
{
	int i, n = 0, cand[MAX_FDS];

	for (i = 0; i < nfds; i++)
		if (fds[i].type == T_DMABUF)
			cand[n++] = fds[i].fd;
	if (n && chance(75))
		return cand[below(n)];
	switch (below(5)) {
	case 0: return -1;
	case 1: return nfds ? fds[below(nfds)].fd : 0;	/* not a dmabuf */
	case 2: return 0;
	case 3: return 1000;
	default: return (int)val32();
	}
}

/* ---- pointers ---- */
static void *bad_ptr(void)
{
	switch (below(9)) {
	case 0: return NULL;
	case 1: return (void *)(uintptr_t)(1 + below(4096));
	case 2: return (void *)(uintptr_t)0xc0000000UL;	/* kernel */
	case 3: return (void *)(uintptr_t)0xffff0000UL;	/* vector page */
	case 4: return guard;
	case 5: return guard - 1 - below(64);	/* runs into the guard page */
	case 6: return (void *)(uintptr_t)rnd32();
	case 7: return (void *)(uintptr_t)0xbefff000UL;
	default: return rdonly;	/* readable, not writable */
	}
}

/* ---- V4L2 arguments ---- */
static uint32_t pick_buftype(const struct fdent *f)
{
	static const uint32_t cap[] = { V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE };
	static const uint32_t m2m[] = { V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE,
						V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE };

	if (chance(80)) {
		if (f->type == T_CAP)
			return cap[0];
		if (f->type == T_M2M)
			return m2m[below(2)];
	}
	return chance(70) ? below(16) : val32();
}

static int is_mplane(uint32_t t)
{
	return t == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE || t == V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE;
}

static uint32_t pick_memory(void)
{
	static const uint32_t m[] = { V4L2_MEMORY_MMAP, V4L2_MEMORY_MMAP, V4L2_MEMORY_MMAP,
				      V4L2_MEMORY_DMABUF, V4L2_MEMORY_DMABUF,
				      V4L2_MEMORY_USERPTR, V4L2_MEMORY_OVERLAY, 0 };

	return chance(90) ? m[below(8)] : val32();
}

static uint32_t pick_fourcc(void)
{
	static const uint32_t f[] = { V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_NV12M,
				      V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_NV21, V4L2_PIX_FMT_JPEG,
				      V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_RGB24 };

	return chance(85) ? f[below(8)] : val32();
}

static uint32_t pick_dim(void)
{
	static const uint32_t d[] = { 16, 32, 64, 120, 240, 320, 480, 640, 720, 1080,
				      1280, 1920, 2048 };

	switch (below(4)) {
	case 0: case 1: return d[below(13)];
	case 2: return val32();
	default: return below(4100);
	}
}

static uint32_t pick_cid(void)
{
	static const uint32_t c[] = { V4L2_CID_HFLIP, V4L2_CID_VFLIP,
				      V4L2_CID_JPEG_COMPRESSION_QUALITY, V4L2_CID_USER_CLASS,
				      V4L2_CID_JPEG_CLASS, V4L2_CID_BRIGHTNESS,
				      V4L2_CID_MIN_BUFFERS_FOR_CAPTURE };

	if (chance(70))
		return c[below(7)] | (chance(10) ? V4L2_CTRL_FLAG_NEXT_CTRL : 0);
	return chance(50) ? (V4L2_CTRL_FLAG_NEXT_CTRL | (chance(50) ? V4L2_CTRL_FLAG_NEXT_COMPOUND : 0))
			  : val32();
}

static void fill_format(struct v4l2_format *fm, const struct fdent *f)
{
	unsigned int i;

	fm->type = pick_buftype(f);
	if (is_mplane(fm->type)) {
		struct v4l2_pix_format_mplane *mp = &fm->fmt.pix_mp;

		mp->width = pick_dim();
		mp->height = pick_dim();
		mp->pixelformat = pick_fourcc();
		mp->field = chance(80) ? V4L2_FIELD_NONE : val32();
		mp->num_planes = chance(80) ? 1 + below(2) : (uint8_t)val32();
		for (i = 0; i < VIDEO_MAX_PLANES; i++) {
			mp->plane_fmt[i].sizeimage = chance(60) ? 0 : val32();
			mp->plane_fmt[i].bytesperline = chance(60) ? 0 : val32();
		}
		if (chance(20)) {
			mp->colorspace = below(14);
			mp->quantization = below(4);
			mp->xfer_func = below(8);
		}
	} else {
		struct v4l2_pix_format *p = &fm->fmt.pix;

		p->width = pick_dim();
		p->height = pick_dim();
		p->pixelformat = pick_fourcc();
		p->field = chance(80) ? V4L2_FIELD_NONE : val32();
		p->bytesperline = chance(60) ? 0 : val32();
		p->sizeimage = chance(60) ? 0 : val32();
		if (chance(20)) {
			p->colorspace = chance(80) ? below(14) : val32();
			p->quantization = below(4);
			p->xfer_func = below(8);
			p->ycbcr_enc = below(10);
		}
	}
}

static void fill_buffer(struct v4l2_buffer *b, const struct fdent *f)
{
	struct v4l2_plane *pl = (struct v4l2_plane *)(arena + NESTED_OFF);
	unsigned int i, n;

	b->type = pick_buftype(f);
	b->memory = pick_memory();
	b->index = chance(85) ? below(8) : val32();
	b->field = chance(80) ? V4L2_FIELD_NONE : val32();
	b->bytesused = chance(50) ? 0 : val32();
	b->flags = chance(70) ? 0 : rnd32();
	if (is_mplane(b->type)) {
		n = chance(80) ? 1 + below(2) : val32();
		b->length = n;
		memset(pl, 0, sizeof(*pl) * VIDEO_MAX_PLANES);
		for (i = 0; i < VIDEO_MAX_PLANES; i++) {
			pl[i].bytesused = chance(50) ? 0 : val32();
			pl[i].length = chance(50) ? 0 : val32();
			pl[i].data_offset = chance(80) ? 0 : val32();
			if (b->memory == V4L2_MEMORY_DMABUF)
				pl[i].m.fd = pick_dmabuf_fd();
			else if (b->memory == V4L2_MEMORY_USERPTR)
				pl[i].m.userptr = (unsigned long)(chance(50) ? arena : bad_ptr());
			else
				pl[i].m.mem_offset = chance(80) ? 0 : val32();
		}
		b->m.planes = chance(90) ? pl : bad_ptr();
	} else {
		if (b->memory == V4L2_MEMORY_DMABUF)
			b->m.fd = pick_dmabuf_fd();
		else if (b->memory == V4L2_MEMORY_USERPTR)
			b->m.userptr = (unsigned long)(chance(50) ? arena : bad_ptr());
		else
			b->m.offset = chance(80) ? 0 : val32();
		b->length = chance(60) && nlearn ? learn[below(nlearn)].len : val32();
	}
}

static void fill_ext_ctrls(struct v4l2_ext_controls *c)
{
	struct v4l2_ext_control *a = (struct v4l2_ext_control *)(arena + NESTED_OFF);
	static const uint32_t which[] = { 0, V4L2_CTRL_WHICH_DEF_VAL, V4L2_CTRL_WHICH_REQUEST_VAL,
					  V4L2_CTRL_CLASS_USER, V4L2_CTRL_CLASS_JPEG,
					  V4L2_CTRL_CLASS_CODEC };
	unsigned int i;

	c->which = chance(85) ? which[below(6)] : val32();
	c->count = chance(80) ? below(4) : val32();
	c->error_idx = val32();
	c->request_fd = chance(80) ? 0 : (int32_t)val32();
	memset(a, 0, 16 * sizeof(*a));
	for (i = 0; i < 16; i++) {
		a[i].id = pick_cid();
		a[i].size = chance(80) ? 0 : val32();
		if (a[i].size)
			a[i].ptr = chance(50) ? arena + NESTED_OFF + 2048 : bad_ptr();
		else
			a[i].value64 = (int64_t)val64();
	}
	c->controls = chance(90) ? a : bad_ptr();
}

/* A V4L2 ioctl's argument; returns 0 if it filled p with something to
 * try, after which a few bytes may be flipped. */
static void fill_v4l2(unsigned long cmd, void *p, size_t sz, const struct fdent *f)
{
	if (sz && chance(8)) {
		rnd_bytes(p, sz);
		return;
	}
	switch (cmd) {
	case VIDIOC_G_FMT: case VIDIOC_S_FMT: case VIDIOC_TRY_FMT:
		fill_format(p, f);
		break;
	case VIDIOC_REQBUFS: {
		struct v4l2_requestbuffers *r = p;

		r->count = chance(80) ? below(9) : val32();
		r->type = pick_buftype(f);
		r->memory = pick_memory();
		r->flags = chance(80) ? 0 : (uint8_t)rnd32();
		break;
	}
	case VIDIOC_QUERYBUF: case VIDIOC_QBUF: case VIDIOC_DQBUF: case VIDIOC_PREPARE_BUF:
		fill_buffer(p, f);
		break;
	case VIDIOC_EXPBUF: {
		struct v4l2_exportbuffer *e = p;

		e->type = pick_buftype(f);
		e->index = chance(85) ? below(8) : val32();
		e->plane = chance(80) ? below(2) : val32();
		e->flags = chance(80) ? (O_CLOEXEC | (chance(50) ? O_RDWR : O_RDONLY)) : val32();
		break;
	}
	case VIDIOC_STREAMON: case VIDIOC_STREAMOFF: case VIDIOC_G_INPUT: case VIDIOC_S_INPUT:
	case VIDIOC_G_PRIORITY: case VIDIOC_S_PRIORITY:
		*(uint32_t *)p = cmd == VIDIOC_S_PRIORITY ? (chance(80) ? below(5) : val32()) :
			(cmd == VIDIOC_STREAMON || cmd == VIDIOC_STREAMOFF) ? pick_buftype(f) :
			(chance(80) ? below(3) : val32());
		break;
	case VIDIOC_CREATE_BUFS: {
		struct v4l2_create_buffers *c = p;

		c->count = chance(80) ? below(9) : val32();
		c->memory = pick_memory();
		c->index = val32();
		fill_format(&c->format, f);
		break;
	}
	case VIDIOC_ENCODER_CMD: case VIDIOC_TRY_ENCODER_CMD: {
		struct v4l2_encoder_cmd *e = p;

		e->cmd = chance(85) ? below(4) : val32();
		e->flags = chance(80) ? 0 : val32();
		break;
	}
	case VIDIOC_DECODER_CMD: case VIDIOC_TRY_DECODER_CMD: {
		struct v4l2_decoder_cmd *d = p;

		d->cmd = chance(85) ? below(4) : val32();
		d->flags = chance(80) ? 0 : val32();
		break;
	}
	case VIDIOC_SUBSCRIBE_EVENT: case VIDIOC_UNSUBSCRIBE_EVENT: {
		struct v4l2_event_subscription *s = p;

		s->type = chance(80) ? below(8) : val32();
		s->id = chance(50) ? pick_cid() : val32();
		s->flags = chance(70) ? below(4) : val32();
		break;
	}
	case VIDIOC_G_CTRL: case VIDIOC_S_CTRL: {
		struct v4l2_control *c = p;

		c->id = pick_cid();
		c->value = (int32_t)val32();
		break;
	}
	case VIDIOC_G_EXT_CTRLS: case VIDIOC_S_EXT_CTRLS: case VIDIOC_TRY_EXT_CTRLS:
		fill_ext_ctrls(p);
		break;
	case VIDIOC_QUERYCTRL: case VIDIOC_QUERY_EXT_CTRL: case VIDIOC_QUERYMENU:
		*(uint32_t *)p = pick_cid();
		if (cmd == VIDIOC_QUERYMENU)
			((struct v4l2_querymenu *)p)->index = val32();
		break;
	case VIDIOC_G_PARM: case VIDIOC_S_PARM: {
		struct v4l2_streamparm *s = p;

		s->type = pick_buftype(f);
		s->parm.capture.timeperframe.numerator = chance(60) ? 1 : val32();
		s->parm.capture.timeperframe.denominator = chance(60) ? below(100) : val32();
		s->parm.capture.readbuffers = val32();
		s->parm.capture.capability = chance(80) ? 0 : val32();
		break;
	}
	case VIDIOC_ENUM_FMT: {
		struct v4l2_fmtdesc *d = p;

		d->index = chance(85) ? below(8) : val32();
		d->type = pick_buftype(f);
		d->mbus_code = chance(90) ? 0 : val32();
		break;
	}
	case VIDIOC_ENUM_FRAMESIZES: {
		struct v4l2_frmsizeenum *s = p;

		s->index = chance(85) ? below(3) : val32();
		s->pixel_format = pick_fourcc();
		break;
	}
	case VIDIOC_ENUM_FRAMEINTERVALS: {
		struct v4l2_frmivalenum *v = p;

		v->index = chance(85) ? below(9) : val32();
		v->pixel_format = pick_fourcc();
		v->width = pick_dim();
		v->height = pick_dim();
		break;
	}
	case VIDIOC_ENUMINPUT: case VIDIOC_ENUMOUTPUT: case VIDIOC_ENUMAUDIO: case VIDIOC_ENUMSTD:
		*(uint32_t *)p = chance(80) ? below(3) : val32();
		break;
	case VIDIOC_G_SELECTION: case VIDIOC_S_SELECTION: {
		struct v4l2_selection *s = p;

		s->type = pick_buftype(f);
		s->target = chance(80) ? below(0x104) : val32();
		s->flags = val32();
		s->r.left = (int32_t)val32();
		s->r.top = (int32_t)val32();
		s->r.width = pick_dim();
		s->r.height = pick_dim();
		break;
	}
	default:
		if (chance(50))
			rnd_bytes(p, sz);
		break;
	}
	if (sz && chance(12)) {	/* a few bytes flipped */
		int n = 1 + below(4);

		while (n--)
			((unsigned char *)p)[below(sz)] = (unsigned char)(chance(50) ? rnd() : 0xff);
	}
}

static void fill_cma(struct cma_alloc_request *r)
{
	static const char *const names[] = { "s5p-cam", "s5p-codec", "s5p-camera", "s5p-codec-1",
					     "", "x", "*", "fb200000.camera", "0123456789abcdef" };
	static const char *const kinds[] = { "", "a", "b", "fw", "y", "c", "*", "zz" };
	unsigned int i;

	r->magic = chance(92) ? CMA_MAGIC : rnd32();
	if (chance(85))
		strcpy(r->name, names[below(9)]);
	else
		for (i = 0; i < sizeof(r->name); i++)	/* may be unterminated */
			r->name[i] = (char)(chance(90) ? 'a' + below(26) : rnd());
	if (chance(85))
		strcpy(r->kind, kinds[below(8)]);
	else
		for (i = 0; i < sizeof(r->kind); i++)
			r->kind[i] = (char)(chance(90) ? 'a' + below(26) : rnd());
	r->pad = chance(80) ? 0 : (uint16_t)rnd32();
	switch (below(4)) {
	case 0: case 1: r->size = (1 + below(64)) * PAGE - (chance(30) ? below(PAGE) : 0); break;
	case 2: r->size = 1 + below(9 << 20); break;
	default: r->size = val64(); break;
	}
	switch (below(3)) {
	case 0: r->alignment = 0; break;
	case 1: r->alignment = 1ULL << below(25); break;
	default: r->alignment = val64(); break;
	}
	r->start = chance(80) ? 0 : val64();
}

/* ---- ioctl numbers ---- */
struct ioc {
	unsigned long cmd;
	const char *name;
};
#define I(x) { x, #x }
static const struct ioc v4l2_iocs[] = {
	I(VIDIOC_QUERYCAP), I(VIDIOC_ENUM_FMT), I(VIDIOC_G_FMT), I(VIDIOC_S_FMT),
	I(VIDIOC_REQBUFS), I(VIDIOC_QUERYBUF), I(VIDIOC_G_FBUF), I(VIDIOC_S_FBUF),
	I(VIDIOC_OVERLAY), I(VIDIOC_QBUF), I(VIDIOC_EXPBUF), I(VIDIOC_DQBUF),
	I(VIDIOC_STREAMON), I(VIDIOC_STREAMOFF), I(VIDIOC_G_PARM), I(VIDIOC_S_PARM),
	I(VIDIOC_G_STD), I(VIDIOC_S_STD), I(VIDIOC_ENUMSTD), I(VIDIOC_ENUMINPUT),
	I(VIDIOC_G_CTRL), I(VIDIOC_S_CTRL), I(VIDIOC_G_TUNER), I(VIDIOC_S_TUNER),
	I(VIDIOC_G_AUDIO), I(VIDIOC_S_AUDIO), I(VIDIOC_QUERYCTRL), I(VIDIOC_QUERYMENU),
	I(VIDIOC_G_INPUT), I(VIDIOC_S_INPUT), I(VIDIOC_G_EDID), I(VIDIOC_S_EDID),
	I(VIDIOC_G_OUTPUT), I(VIDIOC_S_OUTPUT), I(VIDIOC_ENUMOUTPUT), I(VIDIOC_G_AUDOUT),
	I(VIDIOC_S_AUDOUT), I(VIDIOC_G_MODULATOR), I(VIDIOC_S_MODULATOR),
	I(VIDIOC_G_FREQUENCY), I(VIDIOC_S_FREQUENCY), I(VIDIOC_CROPCAP), I(VIDIOC_G_CROP),
	I(VIDIOC_S_CROP), I(VIDIOC_G_JPEGCOMP), I(VIDIOC_S_JPEGCOMP), I(VIDIOC_QUERYSTD),
	I(VIDIOC_TRY_FMT), I(VIDIOC_ENUMAUDIO), I(VIDIOC_ENUMAUDOUT), I(VIDIOC_G_PRIORITY),
	I(VIDIOC_S_PRIORITY), I(VIDIOC_G_SLICED_VBI_CAP), I(VIDIOC_LOG_STATUS),
	I(VIDIOC_G_EXT_CTRLS), I(VIDIOC_S_EXT_CTRLS), I(VIDIOC_TRY_EXT_CTRLS),
	I(VIDIOC_ENUM_FRAMESIZES), I(VIDIOC_ENUM_FRAMEINTERVALS), I(VIDIOC_G_ENC_INDEX),
	I(VIDIOC_ENCODER_CMD), I(VIDIOC_TRY_ENCODER_CMD), I(VIDIOC_S_HW_FREQ_SEEK),
	I(VIDIOC_CREATE_BUFS), I(VIDIOC_PREPARE_BUF), I(VIDIOC_G_SELECTION),
	I(VIDIOC_S_SELECTION), I(VIDIOC_DECODER_CMD), I(VIDIOC_TRY_DECODER_CMD),
	I(VIDIOC_ENUM_DV_TIMINGS), I(VIDIOC_QUERY_DV_TIMINGS), I(VIDIOC_DV_TIMINGS_CAP),
	I(VIDIOC_ENUM_FREQ_BANDS), I(VIDIOC_DBG_G_CHIP_INFO), I(VIDIOC_QUERY_EXT_CTRL),
	I(VIDIOC_S_DV_TIMINGS), I(VIDIOC_G_DV_TIMINGS), I(VIDIOC_DQEVENT),
	I(VIDIOC_SUBSCRIBE_EVENT), I(VIDIOC_UNSUBSCRIBE_EVENT), I(VIDIOC_DBG_G_REGISTER),
};
/* The ones that move the drivers' state: asked for more often */
static const struct ioc v4l2_hot[] = {
	I(VIDIOC_S_FMT), I(VIDIOC_G_FMT), I(VIDIOC_TRY_FMT), I(VIDIOC_REQBUFS),
	I(VIDIOC_QUERYBUF), I(VIDIOC_QBUF), I(VIDIOC_DQBUF), I(VIDIOC_EXPBUF),
	I(VIDIOC_STREAMON), I(VIDIOC_STREAMOFF), I(VIDIOC_CREATE_BUFS), I(VIDIOC_PREPARE_BUF),
	I(VIDIOC_ENCODER_CMD), I(VIDIOC_S_CTRL), I(VIDIOC_S_EXT_CTRLS), I(VIDIOC_S_PARM),
	I(VIDIOC_SUBSCRIBE_EVENT), I(VIDIOC_DQEVENT),
};
static const struct ioc cma_iocs[] = { I(IOCTL_CMA_ALLOC) };
static const struct ioc dmabuf_iocs[] = {
	I(DMA_BUF_IOCTL_SYNC), I(DMA_BUF_SET_NAME_A), I(DMA_BUF_SET_NAME_B),
	I(DMA_BUF_IOCTL_EXPORT_SYNC_FILE), I(DMA_BUF_IOCTL_IMPORT_SYNC_FILE),
};
static const struct ioc media_iocs[] = {
	I(MEDIA_IOC_DEVICE_INFO), I(MEDIA_IOC_ENUM_ENTITIES), I(MEDIA_IOC_ENUM_LINKS),
	I(MEDIA_IOC_SETUP_LINK), I(MEDIA_IOC_G_TOPOLOGY), I(MEDIA_IOC_REQUEST_ALLOC),
};
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct ioc *table_of(enum ftype t, size_t *n)
{
	switch (t) {
	case T_CMA: *n = N(cma_iocs); return cma_iocs;
	case T_DMABUF: *n = N(dmabuf_iocs); return dmabuf_iocs;
	case T_MEDIA: *n = N(media_iocs); return media_iocs;
	default: *n = N(v4l2_iocs); return v4l2_iocs;
	}
}

static unsigned long real_cmd(enum ftype t)
{
	size_t n;
	const struct ioc *tab;

	if ((t == T_CAP || t == T_M2M) && chance(60))
		return v4l2_hot[below(N(v4l2_hot))].cmd;
	tab = table_of(t, &n);
	return tab[below(n)].cmd;
}

/* A number that is not quite any real one */
static unsigned long boundary_cmd(enum ftype t)
{
	unsigned long c = real_cmd(t);
	static const unsigned int types[] = { 'V', 'p', 'b', '|', 0, 0xff };

	switch (below(6)) {
	case 0: {	/* the size field */
		static const unsigned int sz[] = { 0, 1, 4, 63, 64, 65, 0x3fff };
		unsigned int s = chance(50) ? sz[below(7)] : _IOC_SIZE(c) + (chance(50) ? 1 : -1);

		return _IOC(_IOC_DIR(c), _IOC_TYPE(c), _IOC_NR(c), s & _IOC_SIZEMASK);
	}
	case 1:		/* the direction */
		return _IOC(below(4), _IOC_TYPE(c), _IOC_NR(c), _IOC_SIZE(c));
	case 2: {	/* the number */
		static const unsigned int nr[] = { 0, 1, 0x7f, 0x80, 0xfe, 0xff };

		return _IOC(_IOC_DIR(c), _IOC_TYPE(c),
			    chance(50) ? nr[below(6)] : (_IOC_NR(c) + (chance(50) ? 1 : -1)) & 0xff,
			    _IOC_SIZE(c));
	}
	case 3: {
		static const unsigned long v[] = { 0, 1, 0x7fffffff, 0x80000000, 0xffffffff };

		return v[below(5)];
	}
	case 4:
		return _IOC(below(4), types[below(N(types))], below(256), below(_IOC_SIZEMASK + 1));
	default:
		return rnd32();
	}
}

/* ---- operations ---- */
static void count_ioctl(int ret)
{
	if (ret < 0)
		me->ioctl_err++;
	else
		me->ioctl_ok++;
}

static void after_ioctl(struct fdent *f, unsigned long cmd, void *arg, int ret)
{
	if (ret < 0 || arg == NULL || (char *)arg < arena || (char *)arg >= arena + ARENA_RW)
		return;
	switch (cmd) {
	case VIDIOC_EXPBUF:
		add_fd(((struct v4l2_exportbuffer *)arg)->fd, T_DMABUF, 0);
		break;
	case DMA_BUF_IOCTL_EXPORT_SYNC_FILE:
		add_fd(((struct dma_buf_export_sync_file *)arg)->fd, T_OTHER, 0);
		break;
	case MEDIA_IOC_REQUEST_ALLOC:
		add_fd(*(int *)arg, T_OTHER, 0);
		break;
	case VIDIOC_QUERYBUF: {
		struct v4l2_buffer *b = arg;

		if (is_mplane(b->type)) {
			unsigned int i;

			if (b->m.planes != (void *)(arena + NESTED_OFF))
				break;
			for (i = 0; i < b->length && i < VIDEO_MAX_PLANES; i++)
				learn_off(f->fd, b->m.planes[i].m.mem_offset, b->m.planes[i].length);
		} else if (b->memory == V4L2_MEMORY_MMAP) {
			learn_off(f->fd, b->m.offset, b->length);
		}
		break;
	}
	case IOCTL_CMA_ALLOC:
		f->cma_size = (((struct cma_alloc_request *)arg)->size + PAGE - 1) & ~(PAGE - 1);
		break;
	}
}

static void op_ioctl(void)
{
	struct fdent *f = pick_fd();
	unsigned long cmd;
	size_t sz;
	void *arg;
	int ret;

	if (!f)
		return;
	switch (below(10)) {
	case 0:		/* another kind of device's number */
		cmd = real_cmd((enum ftype)below(5));
		break;
	case 1: case 2:
		cmd = boundary_cmd(f->type);
		break;
	default:
		cmd = real_cmd(f->type);
		break;
	}
	if (_IOC_TYPE(cmd) == 'X')	/* FIFREEZE/FITHAW: the VFS's, not the driver's */
		cmd = VIDIOC_QUERYCAP;
	sz = _IOC_SIZE(cmd);
	if (chance(10)) {
		arg = bad_ptr();
	} else {
		/* at the start of the arena, or ending at the guard page */
		arg = sz && sz <= NESTED_OFF && chance(30) ? guard - sz : arena;
		memset(arg, 0, sz ? sz : 64);
		if (cmd == IOCTL_CMA_ALLOC && sz == sizeof(struct cma_alloc_request))
			fill_cma(arg);
		else if (f->type == T_DMABUF && cmd == DMA_BUF_IOCTL_SYNC)
			((struct dma_buf_sync *)arg)->flags = chance(80) ? below(8) : val64();
		else if (f->type == T_DMABUF && (cmd == DMA_BUF_SET_NAME_A || cmd == DMA_BUF_SET_NAME_B)) {
			strcpy(arena + NESTED_OFF, chance(50) ? "fuzz" : "0123456789012345678901234567890123456789");
			*(void **)arg = chance(80) ? arena + NESTED_OFF : bad_ptr();
		} else
			fill_v4l2(cmd, arg, sz, f);
		if (chance(3))	/* a plain number instead of a pointer */
			arg = (void *)(uintptr_t)val32();
	}
	vlog("ioctl fd %d (%s) cmd %#lx arg %p", f->fd, tname[f->type], cmd, arg);
	ret = ioctl(f->fd, cmd, arg);
	count_ioctl(ret);
	after_ioctl(f, cmd, arg, ret);
}

static void touch(struct mapping *m)
{
	volatile char *p = (volatile char *)m->addr;
	volatile size_t off = chance(50) ? 0 : (chance(50) ? m->len - 1 : below(m->len));
	int sig;

	if (!(m->prot & PROT_READ))
		return;
	in_touch = 1;
	sig = sigsetjmp(touch_jmp, 1);
	if (sig == 0) {
		(void)p[off];
		if ((m->prot & PROT_WRITE) && chance(50))
			p[off] = (char)rnd();
	} else {
		static int shown;

		me->faults++;
		if (shown++ < 5)
			fprintf(stderr, "s5p-fuzz: w%d.%d: signal %d touching +%#zx of a %#zx-byte %s mapping\n",
				worker_id, worker_gen, sig, (size_t)off, m->len, tname[m->type]);
	}
	in_touch = 0;
}

static void op_mmap(void)
{
	static const uint64_t offs[] = { 0, PAGE, 2 * PAGE, 0x7ffff000ULL, 0x80000000ULL,
					 0xfffff000ULL, 0x100000000ULL, 0xffffffff000ULL };
	static const size_t lens[] = { PAGE, 2 * PAGE, 16 * PAGE, 0x100000, 0x800000,
				       0x10000000, 0 };
	static const int flags[] = { MAP_SHARED, MAP_SHARED, MAP_SHARED, MAP_PRIVATE,
				     MAP_SHARED | MAP_POPULATE, MAP_PRIVATE | MAP_POPULATE,
				     MAP_SHARED | MAP_NORESERVE, MAP_SHARED_VALIDATE };
	struct fdent *f = pick_fd();
	uint64_t off;
	size_t len;
	int prot, fl;
	void *a;

	if (!f || nmaps == MAX_MAPS)
		return;
	if (nlearn && chance(60)) {
		struct learned *l = &learn[below(nlearn)];

		if (chance(70))
			f = NULL;
		off = l->off + (chance(80) ? 0 : PAGE * (uint64_t)below(4));
		len = chance(80) ? l->len : l->len + PAGE * below(3) - (chance(50) ? PAGE : 0);
		if (!f) {
			int i;

			for (i = 0; i < nfds && fds[i].fd != l->fd; i++)
				;
			f = i < nfds ? &fds[i] : pick_fd();
		}
	} else if (f->cma_size && chance(70)) {
		off = PAGE * (uint64_t)below(f->cma_size / PAGE + 2);
		len = chance(50) ? f->cma_size - (off < f->cma_size ? off : 0) : PAGE * (1 + below(8));
	} else {
		off = chance(60) ? offs[below(N(offs))] : PAGE * (uint64_t)below(4096);
		len = chance(60) ? lens[below(N(lens))] : PAGE * (1 + below(64));
	}
	prot = chance(80) ? PROT_READ | PROT_WRITE : (chance(50) ? PROT_READ : (int)below(8));
	fl = flags[below(N(flags))];
	vlog("mmap fd %d (%s) off %#llx len %#zx prot %d flags %#x", f->fd, tname[f->type],
	     (unsigned long long)off, len, prot, fl);
	a = mmap(NULL, len, prot, fl, f->fd, (off_t)off);
	if (a == MAP_FAILED) {
		me->mmap_err++;
		return;
	}
	me->mmap_ok++;
	maps[nmaps] = (struct mapping){ a, len, prot, f->type };
	if (chance(70))
		touch(&maps[nmaps]);
	nmaps++;
}

static void op_munmap(void)
{
	struct mapping *m;
	int i;

	if (!nmaps)
		return;
	i = below(nmaps);
	m = &maps[i];
	if (m->len > PAGE && chance(25)) {	/* a page off the end: splits nothing, shrinks */
		vlog("munmap last page of %p+%#zx", m->addr, m->len);
		if (chance(50)) {
			munmap(m->addr + m->len - PAGE, PAGE);
		} else {
			void *r = mremap(m->addr, m->len, m->len - PAGE, 0);

			(void)r;
		}
		m->len -= PAGE;
		return;
	}
	if (m->len > 2 * PAGE && chance(15)) {	/* a hole in the middle: two mappings */
		size_t at = PAGE * (1 + below(m->len / PAGE - 2));

		vlog("munmap page +%#zx of %p+%#zx", at, m->addr, m->len);
		if (munmap(m->addr + at, PAGE) == 0 && nmaps < MAX_MAPS) {
			maps[nmaps] = (struct mapping){ m->addr + at + PAGE, m->len - at - PAGE,
							m->prot, m->type };
			m->len = at;
			nmaps++;
		}
		return;
	}
	if (chance(10)) {	/* growing: refused for these mappings */
		void *r = mremap(m->addr, m->len, m->len + PAGE, MREMAP_MAYMOVE);

		vlog("mremap %p+%#zx grow -> %p", m->addr, m->len, r);
		if (r != MAP_FAILED) {
			m->addr = r;
			m->len += PAGE;
		}
		return;
	}
	vlog("munmap %p+%#zx", m->addr, m->len);
	munmap(m->addr, m->len);
	*m = maps[--nmaps];
}

static void op_open(void)
{
	struct target *t;
	int fd;

	if (!ntargets || nfds >= MAX_FDS - 2)
		return;
	t = &targets[below(ntargets)];
	fd = open(t->path, (chance(70) ? O_RDWR : (chance(50) ? O_RDONLY : O_WRONLY)) |
		  (chance(60) ? O_NONBLOCK : 0) | O_CLOEXEC);
	vlog("open %s -> %d", t->path, fd);
	me->opens++;
	add_fd(fd, t->type, 0);
}

static void op_misc(void)
{
	struct fdent *f = pick_fd();
	char buf[256];
	ssize_t r;

	if (!f)
		return;
	switch (below(5)) {
	case 0: {
		struct pollfd p = { f->fd, (short)(chance(80) ? POLLIN | POLLOUT | POLLPRI : rnd32()), 0 };

		vlog("poll fd %d (%s)", f->fd, tname[f->type]);
		poll(&p, 1, below(20));
		break;
	}
	case 1:
		vlog("read fd %d (%s)", f->fd, tname[f->type]);
		r = read(f->fd, chance(80) ? buf : bad_ptr(), chance(50) ? sizeof(buf) : below(16));
		(void)r;
		break;
	case 2:
		rnd_bytes(buf, sizeof(buf));
		vlog("write fd %d (%s)", f->fd, tname[f->type]);
		r = write(f->fd, buf, below(sizeof(buf)));
		(void)r;
		break;
	case 3:
		vlog("dup fd %d (%s)", f->fd, tname[f->type]);
		if (nfds < MAX_FDS - 2)
			add_fd(fcntl(f->fd, F_DUPFD_CLOEXEC, 3), f->type, 0);
		break;
	default:
		vlog("toggle O_NONBLOCK fd %d", f->fd);
		fcntl(f->fd, F_SETFL, fcntl(f->fd, F_GETFL) ^ O_NONBLOCK);
		break;
	}
}

/*
 * A stream set up the way an application does it, cut short at a random
 * step: S_FMT, REQBUFS, QUERYBUF (+ mmap), QBUF, STREAMON, a few
 * poll/DQBUF/QBUF rounds, EXPBUF, ENCODER_CMD, STREAMOFF or REQBUFS 0.
 * What is left (queues streaming, buffers mapped or exported) is for the
 * other operations, closes and kills to meet.
 */
static int xioctl(struct fdent *f, unsigned long cmd, void *arg, const char *what)
{
	int ret = ioctl(f->fd, cmd, arg);

	vlog("stream fd %d (%s): %s -> %d%s%s", f->fd, tname[f->type], what, ret,
	     ret < 0 ? " " : "", ret < 0 ? strerror(errno) : "");
	count_ioctl(ret);
	after_ioctl(f, cmd, arg, ret);
	return ret;
}

/* one queue of a stream: format set, buffers asked for, queued */
static int stream_queue(struct fdent *f, uint32_t type, uint32_t fourcc, uint32_t w, uint32_t h,
			int *steps)
{
	struct v4l2_format *fm = (struct v4l2_format *)arena;
	struct v4l2_requestbuffers *rb = (struct v4l2_requestbuffers *)arena;
	struct v4l2_buffer *b = (struct v4l2_buffer *)arena;
	struct v4l2_plane *pl = (struct v4l2_plane *)(arena + NESTED_OFF);
	uint32_t memory = chance(80) ? V4L2_MEMORY_MMAP : V4L2_MEMORY_DMABUF;
	uint32_t count, i, p, nplanes = 1, sizeimage[VIDEO_MAX_PLANES] = { 0 };

	memset(fm, 0, sizeof(*fm));
	fm->type = type;
	if (is_mplane(type)) {
		fm->fmt.pix_mp.width = w;
		fm->fmt.pix_mp.height = h;
		fm->fmt.pix_mp.pixelformat = fourcc;
		fm->fmt.pix_mp.field = V4L2_FIELD_NONE;
		fm->fmt.pix_mp.num_planes = fourcc == V4L2_PIX_FMT_NV12M ||
					     fourcc == V4L2_PIX_FMT_NV21M ? 2 : 1;
	} else {
		fm->fmt.pix.width = w;
		fm->fmt.pix.height = h;
		fm->fmt.pix.pixelformat = fourcc;
		fm->fmt.pix.field = V4L2_FIELD_NONE;
	}
	if (xioctl(f, VIDIOC_S_FMT, fm, "S_FMT") < 0 && chance(50))
		return -1;
	if (is_mplane(type)) {
		nplanes = fm->fmt.pix_mp.num_planes;
		if (nplanes < 1 || nplanes > VIDEO_MAX_PLANES)
			nplanes = 1;
		for (p = 0; p < nplanes; p++)
			sizeimage[p] = fm->fmt.pix_mp.plane_fmt[p].sizeimage;
	} else {
		sizeimage[0] = fm->fmt.pix.sizeimage;
	}
	if (--*steps <= 0)
		return -1;
	memset(rb, 0, sizeof(*rb));
	rb->count = 1 + below(4);
	rb->type = type;
	rb->memory = memory;
	if (xioctl(f, VIDIOC_REQBUFS, rb, "REQBUFS") < 0)
		return -1;
	count = rb->count;
	if (count > 8)
		count = 8;
	for (i = 0; i < count && memory == V4L2_MEMORY_MMAP; i++) {
		memset(b, 0, sizeof(*b));
		memset(pl, 0, sizeof(*pl) * VIDEO_MAX_PLANES);
		b->type = type;
		b->memory = memory;
		b->index = i;
		if (is_mplane(type)) {
			b->length = nplanes;
			b->m.planes = pl;
		}
		if (xioctl(f, VIDIOC_QUERYBUF, b, "QUERYBUF") < 0)
			continue;
		if (chance(50) && nmaps < MAX_MAPS) {
			uint64_t off = is_mplane(type) ? pl[0].m.mem_offset : b->m.offset;
			size_t len = is_mplane(type) ? pl[0].length : b->length;
			void *a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd, (off_t)off);

			if (a != MAP_FAILED) {
				me->mmap_ok++;
				maps[nmaps++] = (struct mapping){ a, len, PROT_READ | PROT_WRITE, f->type };
			} else {
				me->mmap_err++;
			}
		}
	}
	if (--*steps <= 0)
		return -1;
	for (i = 0; i < count; i++) {
		memset(b, 0, sizeof(*b));
		memset(pl, 0, sizeof(*pl) * VIDEO_MAX_PLANES);
		b->type = type;
		b->memory = memory;
		b->index = i;
		b->field = V4L2_FIELD_NONE;
		if (is_mplane(type)) {
			b->length = nplanes;
			b->m.planes = pl;
			for (p = 0; p < nplanes; p++) {
				pl[p].bytesused = sizeimage[p];
				if (memory == V4L2_MEMORY_DMABUF)
					pl[p].m.fd = pick_dmabuf_fd();
			}
		} else {
			b->bytesused = V4L2_TYPE_IS_OUTPUT(type) ? sizeimage[0] : 0;
			if (memory == V4L2_MEMORY_DMABUF) {
				b->m.fd = pick_dmabuf_fd();
				b->length = sizeimage[0];
			}
		}
		xioctl(f, VIDIOC_QBUF, b, "QBUF");
	}
	return 0;
}

/* poll and DQBUF (and QBUF the buffer back) on a queue, a few times */
static void stream_rounds(struct fdent *f, const uint32_t *types, int ntypes)
{
	struct v4l2_buffer *b = (struct v4l2_buffer *)arena;
	struct v4l2_plane *pl = (struct v4l2_plane *)(arena + NESTED_OFF);
	int r, rounds = below(6);

	for (r = 0; r < rounds; r++) {
		struct pollfd p = { f->fd, POLLIN | POLLOUT | POLLPRI, 0 };
		uint32_t type = types[below(ntypes)];

		poll(&p, 1, 20 + below(100));
		memset(b, 0, sizeof(*b));
		memset(pl, 0, sizeof(*pl) * VIDEO_MAX_PLANES);
		b->type = type;
		b->memory = V4L2_MEMORY_MMAP;
		if (is_mplane(type)) {
			b->length = VIDEO_MAX_PLANES;
			b->m.planes = pl;
		}
		if (xioctl(f, VIDIOC_DQBUF, b, "DQBUF") < 0 && errno == EINVAL) {
			b->memory = V4L2_MEMORY_DMABUF;
			if (xioctl(f, VIDIOC_DQBUF, b, "DQBUF (DMABUF)") < 0)
				continue;
		}
		if (chance(80)) {
			if (V4L2_TYPE_IS_OUTPUT(type) && !b->bytesused)
				b->bytesused = b->length;
			xioctl(f, VIDIOC_QBUF, b, "QBUF again");
		}
	}
}

static void op_stream(void)
{
	static const uint32_t sizes[][2] = { { 640, 480 }, { 320, 240 }, { 32, 16 }, { 1280, 720 },
					     { 176, 144 }, { 1920, 1080 }, { 64, 64 } };
	static const uint32_t cam_fmts[] = { V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_NV12M };
	/* the codec's multi-planar API (its default) */
	static const uint32_t enc_fmts[] = { V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_NV12,
					     V4L2_PIX_FMT_NV21, V4L2_PIX_FMT_NV12M, V4L2_PIX_FMT_NV21M };
	struct fdent *f = NULL;
	int i, n = 0, steps = 1 + below(8), sz = below(chance(70) ? 3 : 7);
	struct fdent *cand[MAX_FDS];
	uint32_t type;

	for (i = 0; i < nfds; i++)
		if (fds[i].type == T_CAP || fds[i].type == T_M2M)
			cand[n++] = &fds[i];
	if (!n)
		return;
	f = cand[below(n)];
	/* The capture queue belongs to the first file that asks for buffers:
	 * often a file of our own, new, so that streams happen at all. */
	if (f->type == T_CAP && chance(50)) {	/* give back what our files hold */
		for (i = 0; i < nmaps;)
			if (maps[i].type == T_CAP) {
				munmap(maps[i].addr, maps[i].len);
				maps[i] = maps[--nmaps];
			} else {
				i++;
			}
		for (i = 0; i < nfds; i++) {
			struct v4l2_requestbuffers *rb = (struct v4l2_requestbuffers *)arena;

			if (fds[i].type != T_CAP)
				continue;
			memset(rb, 0, sizeof(*rb));
			rb->type = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
			rb->memory = V4L2_MEMORY_MMAP;
			if (xioctl(&fds[i], VIDIOC_REQBUFS, rb, "REQBUFS 0 (give back)") < 0) {
				rb->count = 0;
				rb->memory = V4L2_MEMORY_DMABUF;
				xioctl(&fds[i], VIDIOC_REQBUFS, rb, "REQBUFS 0 DMABUF (give back)");
			}
		}
	}
	if (f->type == T_CAP && chance(60) && nfds < MAX_FDS - 2) {
		for (i = 0; i < ntargets && targets[i].type != T_CAP; i++)
			;
		if (i < ntargets) {
			struct fdent *g = add_fd(open(targets[i].path, O_RDWR | O_CLOEXEC |
						      (chance(50) ? O_NONBLOCK : 0)), T_CAP, 0);

			me->opens++;
			if (g)
				f = g;
		}
	}
	vlog("stream on fd %d (%s), %d steps", f->fd, tname[f->type], steps);
	if (f->type == T_CAP) {
		static const uint32_t t[] = { V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE };

		type = t[0];
		if (stream_queue(f, type, cam_fmts[below(3)], sizes[sz][0], sizes[sz][1], &steps) < 0)
			return;
		if (--steps <= 0)
			return;
		xioctl(f, VIDIOC_STREAMON, &type, "STREAMON");
		stream_rounds(f, t, 1);
	} else {
		static const uint32_t t[] = { V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE,
						V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE };
		int s2 = steps;

		if (chance(30)) {
			struct v4l2_control c = { V4L2_CID_JPEG_COMPRESSION_QUALITY, 1 + below(100) };

			xioctl(f, VIDIOC_S_CTRL, &c, "S_CTRL quality");
		}
		if (stream_queue(f, t[0], enc_fmts[below(6)], sizes[sz][0], sizes[sz][1], &steps) < 0)
			return;
		if (stream_queue(f, t[1], V4L2_PIX_FMT_JPEG, sizes[sz][0], sizes[sz][1], &s2) < 0)
			return;
		if (--steps <= 0)
			return;
		type = t[0];
		xioctl(f, VIDIOC_STREAMON, &type, "STREAMON OUTPUT");
		type = t[1];
		xioctl(f, VIDIOC_STREAMON, &type, "STREAMON CAPTURE");
		stream_rounds(f, t, 2);
		if (chance(30)) {
			struct v4l2_encoder_cmd *e = (struct v4l2_encoder_cmd *)arena;

			memset(e, 0, sizeof(*e));
			e->cmd = chance(70) ? V4L2_ENC_CMD_STOP : V4L2_ENC_CMD_START;
			xioctl(f, VIDIOC_ENCODER_CMD, e, "ENCODER_CMD");
			stream_rounds(f, t, 2);
		}
	}
	if (chance(40)) {
		struct v4l2_exportbuffer *e = (struct v4l2_exportbuffer *)arena;

		memset(e, 0, sizeof(*e));
		e->type = f->type == T_CAP ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
			  chance(50) ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE :
				       V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
		e->index = below(4);
		e->flags = O_CLOEXEC | O_RDWR;
		xioctl(f, VIDIOC_EXPBUF, e, "EXPBUF");
	}
	switch (below(4)) {
	case 0:
		type = f->type == T_CAP ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
		       chance(50) ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE :
				       V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
		xioctl(f, VIDIOC_STREAMOFF, &type, "STREAMOFF");
		break;
	case 1: {
		struct v4l2_requestbuffers *rb = (struct v4l2_requestbuffers *)arena;

		memset(rb, 0, sizeof(*rb));
		rb->type = f->type == T_CAP ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
			   chance(50) ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE :
				       V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
		rb->memory = V4L2_MEMORY_MMAP;
		xioctl(f, VIDIOC_REQBUFS, rb, "REQBUFS 0");
		break;
	}
	default:	/* left streaming */
		break;
	}
}

static void run_ops(unsigned long budget);

static void op_fork(void)
{
	pid_t pid;
	uint64_t s = rnd();

	if (is_child)
		return;
	pid = fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		is_child = 1;
		rng_state = s;
		worker_signals();
		run_ops(1 + below(40));
		_exit(0);
	}
	me->forks++;
	vlog("fork -> %d", pid);
	if (chance(60)) {
		usleep(below(30000));
		kill(pid, SIGKILL);
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

static void one_op(void)
{
	uint32_t r = below(1000);

	if (r < 60)
		op_open();
	else if (r < 100) {
		if (nfds > 0) {
			int i = below(nfds);

			if (!fds[i].shared || chance(30))
				drop_fd(i);
		}
	} else if (r < 180)
		op_stream();
	else if (r < 700)
		op_ioctl();
	else if (r < 820)
		op_mmap();
	else if (r < 880)
		op_munmap();
	else if (r < 920) {
		if (nmaps)
			touch(&maps[below(nmaps)]);
	} else if (r < 995)
		op_misc();
	else
		op_fork();
}

static void run_ops(unsigned long budget)
{
	unsigned long n;

	for (n = 0; n < budget; n++) {
		if (!is_child && __atomic_fetch_add(&sh->total_ops, 1, __ATOMIC_RELAXED) >= max_ops)
			break;
		me->ops++;
		one_op();
	}
}

static void worker(int w, int g, uint64_t seed)
{
	worker_id = w;
	worker_gen = g;
	me = &sh->w[w];
	rng_state = seed_of(seed, w, g);
	worker_signals();
	run_ops(~0UL);
	/* half the time every file and mapping by hand, else exit does it */
	if (chance(50)) {
		while (nmaps)
			op_munmap();
		while (nfds)
			drop_fd(below(nfds));
	}
	exit(0);
}

static int parse_target(const char *arg)
{
	static const char *const pfx[] = { "cma:", "cap:", "m2m:", "media:" };
	static const enum ftype ty[] = { T_CMA, T_CAP, T_M2M, T_MEDIA };
	unsigned int i;

	if (ntargets == MAX_TARGETS)
		return -1;
	for (i = 0; i < 4; i++)
		if (!strncmp(arg, pfx[i], strlen(pfx[i])) && arg[strlen(pfx[i])]) {
			targets[ntargets++] = (struct target){ ty[i], arg + strlen(pfx[i]) };
			return 0;
		}
	return -1;
}

static void usage(void)
{
	fprintf(stderr, "usage: s5p-fuzz [-s SEED] [-n OPS] [-p PROCS] [-k KILLS] [-v] "
			"{cma|cap|m2m|media}:PATH...\n");
	exit(1);
}

int main(int argc, char **argv)
{
	uint64_t seed;
	unsigned long kills = ~0UL, killed = 0, *kill_at, i;
	int procs = 4, opt, w, bad = 0, gen[MAX_WORKERS] = { 0 };
	pid_t pid[MAX_WORKERS];
	struct timespec t0, t1;
	struct timeval tv;
	char *end;
	struct wstat tot = { 0 };

	gettimeofday(&tv, NULL);
	seed = ((uint64_t)tv.tv_sec * 1000003ULL) ^ (uint64_t)tv.tv_usec ^ ((uint64_t)getpid() << 32);
	max_ops = 10000;
	while ((opt = getopt(argc, argv, "s:n:p:k:v")) != -1) {
		switch (opt) {
		case 's': seed = strtoull(optarg, &end, 0); if (*end) usage(); break;
		case 'n': max_ops = strtoul(optarg, &end, 0); if (*end) usage(); break;
		case 'p': procs = atoi(optarg); break;
		case 'k': kills = strtoul(optarg, &end, 0); if (*end) usage(); break;
		case 'v': verbose = 1; break;
		default: usage();
		}
	}
	if (procs < 1 || procs > MAX_WORKERS)
		usage();
	for (; optind < argc; optind++)
		if (parse_target(argv[optind]))
			usage();
	if (!ntargets)
		usage();
	if (kills == ~0UL)
		kills = procs;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("s5p-fuzz: seed %llu ops %lu procs %d kills %lu targets", (unsigned long long)seed,
	       max_ops, procs, kills);
	for (w = 0; w < ntargets; w++)
		printf(" %s:%s", tname[targets[w].type], targets[w].path);
	printf("\n");
	printf("s5p-fuzz: replay with: s5p-fuzz -s %llu -n %lu -p %d -k %lu ...\n",
	       (unsigned long long)seed, max_ops, procs, kills);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	arena = mmap(NULL, ARENA_RW + 2 * PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || arena == MAP_FAILED) {
		perror("s5p-fuzz: mmap");
		return 1;
	}
	guard = arena + ARENA_RW;
	rdonly = guard + PAGE;
	mprotect(guard, PAGE, PROT_NONE);
	mprotect(rdonly, PAGE, PROT_READ);
	me = &sh->w[0];

	/* Orphans of killed workers come back to us to be reaped */
	prctl(PR_SET_CHILD_SUBREAPER, 1);

	/* Files every worker shares: one open of each target */
	rng_state = seed_of(seed, 0xfff, 0);
	for (w = 0; w < ntargets; w++) {
		int fd = open(targets[w].path, O_RDWR | O_NONBLOCK | O_CLOEXEC);

		if (fd < 0) {
			fprintf(stderr, "s5p-fuzz: %s: %s\n", targets[w].path, strerror(errno));
			return 1;
		}
		add_fd(fd, targets[w].type, 1);
	}
	/* Kill points, in operations done so far, sorted */
	kill_at = calloc(kills + 1, sizeof(*kill_at));
	for (i = 0; i < kills; i++)
		kill_at[i] = below(max_ops);
	for (i = 1; i < kills; i++) {
		unsigned long v = kill_at[i], j = i;

		while (j > 0 && kill_at[j - 1] > v) {
			kill_at[j] = kill_at[j - 1];
			j--;
		}
		kill_at[j] = v;
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (w = 0; w < procs; w++) {
		pid[w] = fork();
		if (pid[w] == 0)
			worker(w, 0, seed);
	}
	/* The shared files are the first generation's: held here too, a
	 * capture queue one of them took would stay taken for the whole run. */
	while (nfds)
		close(fds[--nfds].fd);
	for (;;) {
		int status, alive = 0;
		pid_t p;

		while (killed < kills && sh->total_ops >= kill_at[killed]) {
			w = below(procs);
			if (pid[w] > 0) {
				kill(pid[w], SIGKILL);
				while (waitpid(pid[w], &status, 0) < 0 && errno == EINTR)
					;
				printf("s5p-fuzz: killed worker %d.%d after %lu of its operations (%lu in all)\n",
				       w, gen[w], sh->w[w].ops, sh->total_ops);
				if (sh->total_ops < max_ops) {
					gen[w]++;
					pid[w] = fork();
					if (pid[w] == 0)
						worker(w, gen[w], seed);
				} else {
					pid[w] = 0;
				}
			}
			killed++;
		}
		p = waitpid(-1, &status, WNOHANG);
		if (p > 0) {
			for (w = 0; w < procs && pid[w] != p; w++)
				;
			if (w < procs) {
				pid[w] = 0;
				if (!WIFEXITED(status) || WEXITSTATUS(status)) {
					printf("s5p-fuzz: FAIL: worker %d.%d %s %d\n", w, gen[w],
					       WIFSIGNALED(status) ? "died of signal" : "exited with",
					       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
					bad = 1;
				}
			}
			continue;
		}
		for (w = 0; w < procs; w++)
			alive += pid[w] > 0;
		if (!alive && p < 0)
			break;	/* no workers, no orphans */
		usleep(2000);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (w = 0; w < procs; w++) {
		struct wstat *s = &sh->w[w];

		printf("s5p-fuzz: worker %d (%d generations): %lu ops, ioctl %lu ok %lu failed, "
		       "mmap %lu ok %lu failed, %lu opens, %lu forks, %lu faults\n",
		       w, gen[w] + 1, s->ops, s->ioctl_ok, s->ioctl_err, s->mmap_ok, s->mmap_err,
		       s->opens, s->forks, s->faults);
		tot.ops += s->ops;
		tot.ioctl_ok += s->ioctl_ok;
		tot.ioctl_err += s->ioctl_err;
		tot.mmap_ok += s->mmap_ok;
		tot.mmap_err += s->mmap_err;
		tot.forks += s->forks;
		tot.faults += s->faults;
	}
	printf("s5p-fuzz: done: seed %llu: %lu ops in %.1f s, ioctl %lu ok %lu failed, mmap %lu ok "
	       "%lu failed, %lu forks, %lu killed, %lu faults%s\n",
	       (unsigned long long)seed, tot.ops,
	       (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, tot.ioctl_ok,
	       tot.ioctl_err, tot.mmap_ok, tot.mmap_err, tot.forks, killed, tot.faults,
	       bad ? ", FAILED" : "");
	return bad;
}
