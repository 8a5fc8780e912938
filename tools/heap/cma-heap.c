// SPDX-License-Identifier: GPL-2.0
/*
 * cma-heap: the dma-buf heaps of the CMA regions, /dev/dma_heap/<region>
 * (kernel patch "dma-buf: heaps: a heap per CMA region", docs/cma.md).
 *
 *   cma-heap list
 *       every heap in /dev/dma_heap, with its region's size and use
 *   cma-heap alloc HEAP SIZE [FD_FLAGS [HEAP_FLAGS]]
 *       allocate SIZE bytes (K, M, G suffixes) and free them again
 *   cma-heap hold HEAP SIZE COUNT
 *       allocate COUNT buffers, map and touch each, print "held COUNT",
 *       then wait until killed
 *   cma-heap encode HEAP CODEC FOURCC W H OUT [IN] [--close]
 *       a WxH FOURCC picture (from the raw file IN, or a test picture)
 *       in a buffer of HEAP, imported into the codec's OUTPUT queue as
 *       V4L2_MEMORY_DMABUF and encoded; the JPEG goes to OUT.  Then the
 *       picture is read back through the mapping (DMA_BUF_IOCTL_SYNC) while
 *       the codec still has the buffer mapped.  --close: the buffer's file
 *       descriptor is closed (and unmapped) once it is queued instead
 *   cma-heap bad HEAP
 *       the bad-input cases, one line each ("CASE: errno NAME" or
 *       "CASE: ok ..."): zero size, larger than the region, a length
 *       above 32 bits, bad fd_flags, bad heap_flags, a non-zero fd field,
 *       private and out-of-range mmap, new buffers zeroed, close while
 *       mapped, the heap filled up
 *
 * HEAP is a name in /dev/dma_heap or a path.  Diagnostics name the step,
 * the errno and what it means; the exit status is 1 when a step of
 * alloc, hold or encode fails (bad always exits 0 once the heap opened:
 * its lines are the result).
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/dma-buf.h>
#include <linux/dma-heap.h>
#include <linux/videodev2.h>

#define HEAP_DIR	"/dev/dma_heap"
#define SYSFS_CMA	"/sys/kernel/mm/cma"
#define CHUNKS		"/sys/kernel/debug/cma/chunks"

static const char *ename(int e)
{
	static char buf[16];

	switch (e) {
	case EINVAL: return "EINVAL";
	case ENOMEM: return "ENOMEM";
	case ENOENT: return "ENOENT";
	case ENODEV: return "ENODEV";
	case EFAULT: return "EFAULT";
	case EBUSY: return "EBUSY";
	case EAGAIN: return "EAGAIN";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOTTY: return "ENOTTY";
	case EIO: return "EIO";
	case ETIMEDOUT: return "ETIMEDOUT";
	}
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("cma-heap: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* "8M", "0x1000", "4096": bytes; exits on anything else */
static uint64_t parse_size(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *s == '-')
		die("'%s' is not a size (bytes, with K, M or G)", s);
	switch (*end) {
	case 'K': case 'k': v <<= 10; end++; break;
	case 'M': case 'm': v <<= 20; end++; break;
	case 'G': case 'g': v <<= 30; end++; break;
	}
	if (*end)
		die("'%s' is not a size (bytes, with K, M or G)", s);
	return v;
}

static const char *heap_name(const char *heap)
{
	const char *s = strrchr(heap, '/');

	return s ? s + 1 : heap;
}

static int heap_open(const char *heap)
{
	char path[256];
	int fd;

	if (strchr(heap, '/'))
		snprintf(path, sizeof(path), "%s", heap);
	else
		snprintf(path, sizeof(path), HEAP_DIR "/%s", heap);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("cannot open %s: %s (%s)%s", path, strerror(errno), ename(errno),
		    errno == ENOENT ? "; 'cma-heap list' lists the heaps (cma_heaps= may leave a region out)" : "");
	return fd;
}

/* A region's value from sysfs, or -1 */
static long long region_stat(const char *region, const char *file)
{
	char path[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), SYSFS_CMA "/%s/%s", region, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lli", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* Chunks in debugfs owned by the heaps, or -1 if unreadable */
static int heap_chunks(void)
{
	char line[256];
	int n = 0;
	FILE *f = fopen(CHUNKS, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, " owner=dma-heap"))
			n++;
	fclose(f);
	return n;
}

/* DMA_HEAP_IOCTL_ALLOC: the dma-buf fd, or -errno */
static int heap_alloc(int hfd, uint64_t len, uint32_t fd_flags, uint64_t heap_flags,
		      uint32_t fd_field)
{
	struct dma_heap_allocation_data d = {
		.len = len, .fd = fd_field, .fd_flags = fd_flags, .heap_flags = heap_flags,
	};

	if (ioctl(hfd, DMA_HEAP_IOCTL_ALLOC, &d) < 0)
		return -errno;
	return d.fd;
}

static int buf_sync(int bfd, uint64_t flags)
{
	struct dma_buf_sync s = { .flags = flags };

	return ioctl(bfd, DMA_BUF_IOCTL_SYNC, &s) < 0 ? -errno : 0;
}

/* What an allocation's errno means here */
static const char *alloc_hint(int e)
{
	switch (e) {
	case EINVAL: return "the size is 0 or above what the kernel can hold, or bad flags";
	case ENOMEM: return "the region has no free block that large (full, fragmented or smaller than the request)";
	default: return "";
	}
}

static int cmd_list(void)
{
	DIR *d = opendir(HEAP_DIR);
	struct dirent *e;
	int n = 0;

	if (!d)
		die("cannot open " HEAP_DIR ": %s (%s): no dma-buf heap in this kernel (CONFIG_DMABUF_HEAPS)",
		    strerror(errno), ename(errno));
	while ((e = readdir(d))) {
		long long size;

		if (e->d_name[0] == '.')
			continue;
		n++;
		size = region_stat(e->d_name, "size");
		if (size < 0)
			printf("%s: " HEAP_DIR "/%s (no CMA region of that name)\n", e->d_name, e->d_name);
		else
			printf("%s: " HEAP_DIR "/%s region size=%lld used=%lld free=%lld largest_free=%lld\n",
			       e->d_name, e->d_name, size, region_stat(e->d_name, "used"),
			       region_stat(e->d_name, "free"), region_stat(e->d_name, "largest_free"));
	}
	closedir(d);
	if (!n)
		printf("no heap in " HEAP_DIR "\n");
	return 0;
}

static int cmd_alloc(const char *heap, const char *size, const char *fdf, const char *hf)
{
	int hfd = heap_open(heap), bfd;
	uint64_t len = parse_size(size);
	uint32_t fd_flags = fdf ? strtoul(fdf, NULL, 0) : O_RDWR | O_CLOEXEC;
	uint64_t heap_flags = hf ? strtoull(hf, NULL, 0) : 0;

	bfd = heap_alloc(hfd, len, fd_flags, heap_flags, 0);
	if (bfd < 0) {
		fprintf(stderr, "cma-heap: alloc %llu bytes from %s: %s (%s): %s\n",
			(unsigned long long)len, heap_name(heap), strerror(-bfd), ename(-bfd),
			alloc_hint(-bfd));
		return 1;
	}
	printf("alloc: %llu bytes from %s: dma-buf fd %d\n", (unsigned long long)len,
	       heap_name(heap), bfd);
	close(bfd);
	close(hfd);
	return 0;
}

static int cmd_hold(const char *heap, const char *size, const char *count)
{
	int hfd = heap_open(heap), i, n = atoi(count), bfd;
	uint64_t len = parse_size(size);
	char *m;

	for (i = 0; i < n; i++) {
		bfd = heap_alloc(hfd, len, O_RDWR | O_CLOEXEC, 0, 0);
		if (bfd < 0) {
			fprintf(stderr, "cma-heap: hold: buffer %d of %llu bytes from %s: %s (%s)\n",
				i + 1, (unsigned long long)len, heap_name(heap), strerror(-bfd),
				ename(-bfd));
			return 1;
		}
		m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, bfd, 0);
		if (m == MAP_FAILED) {
			fprintf(stderr, "cma-heap: hold: mmap: %s (%s)\n", strerror(errno), ename(errno));
			return 1;
		}
		buf_sync(bfd, DMA_BUF_SYNC_START | DMA_BUF_SYNC_WRITE);
		memset(m, 0x5a, len);
		buf_sync(bfd, DMA_BUF_SYNC_END | DMA_BUF_SYNC_WRITE);
		/* the fd and the mapping stay: the process holds both */
	}
	printf("held %d\n", n);
	fflush(stdout);
	for (;;)
		pause();
}

/* ---- encode ---- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int xioctl(const char *what, int fd, unsigned long req, void *arg)
{
	if (ioctl(fd, req, arg) == 0)
		return 0;
	fprintf(stderr, "cma-heap: encode: %s: %s (%s)\n", what, strerror(errno), ename(errno));
	return -1;
}

/* A test picture: luma ramps, chroma bands (packed or NV12/NV21 layouts) */
static void test_picture(unsigned char *p, uint32_t fourcc, unsigned int w, unsigned int h,
			 unsigned int bpl)
{
	unsigned int x, y;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			unsigned char luma = (x * 255 / (w ? w : 1) + y * 255 / (h ? h : 1)) / 2;
			unsigned char cb = 64 + 128 * x / w, cr = 64 + 128 * y / h;

			switch (fourcc) {
			case V4L2_PIX_FMT_YUYV:
				p[y * bpl + 2 * x] = luma;
				p[y * bpl + 2 * x + 1] = x & 1 ? cr : cb;
				break;
			case V4L2_PIX_FMT_UYVY:
				p[y * bpl + 2 * x + 1] = luma;
				p[y * bpl + 2 * x] = x & 1 ? cr : cb;
				break;
			default: /* NV12, NV21 */
				p[y * bpl + x] = luma;
				if (!(y & 1))
					p[bpl * h + (y / 2) * bpl + x] =
						(x & 1) == (fourcc == V4L2_PIX_FMT_NV21) ? cb : cr;
			}
		}
}

static int cmd_encode(int argc, char **argv)
{
	const char *heap = argv[0], *codec = argv[1], *fcc = argv[2], *out = argv[5];
	const char *in = NULL;
	unsigned int w = strtoul(argv[3], NULL, 0), h = strtoul(argv[4], NULL, 0);
	int close_early = 0, hfd, cfd, bfd, i, n;
	unsigned int otype = V4L2_BUF_TYPE_VIDEO_OUTPUT, ctype = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct v4l2_capability caps = { 0 };
	struct v4l2_format f = { 0 };
	struct v4l2_requestbuffers rb;
	struct v4l2_buffer ob, cb;
	/* the codec's multi-planar API (its default): one plane here */
	struct v4l2_plane op = { 0 }, cp = { 0 };
	uint32_t bpl, cused, clen, coff;
	int mp;
	struct pollfd p;
	unsigned char *m, *j, *jcopy;
	uint32_t fourcc, size;
	unsigned int sum;
	double end;
	FILE *o;

	for (i = 6; i < argc; i++) {
		if (!strcmp(argv[i], "--close"))
			close_early = 1;
		else if (!in)
			in = argv[i];
		else
			die("encode: unexpected argument '%s'", argv[i]);
	}
	if (strlen(fcc) != 4)
		die("encode: a fourcc has 4 characters (YUYV, UYVY, NV12, NV21), not '%s'", fcc);
	fourcc = v4l2_fourcc(fcc[0], fcc[1], fcc[2], fcc[3]);
	hfd = heap_open(heap);
	cfd = open(codec, O_RDWR | O_NONBLOCK);
	if (cfd < 0)
		die("encode: cannot open the codec %s: %s (%s)", codec, strerror(errno), ename(errno));

	ioctl(cfd, VIDIOC_QUERYCAP, &caps);
	mp = !!(caps.device_caps & V4L2_CAP_VIDEO_M2M_MPLANE);
	if (mp) {
		otype = V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE;
		ctype = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
	}
	f.type = otype;
	if (mp) {
		f.fmt.pix_mp.width = w;
		f.fmt.pix_mp.height = h;
		f.fmt.pix_mp.pixelformat = fourcc;
	} else {
		f.fmt.pix.width = w;
		f.fmt.pix.height = h;
		f.fmt.pix.pixelformat = fourcc;
	}
	if (xioctl("S_FMT output", cfd, VIDIOC_S_FMT, &f))
		return 1;
	if (mp && f.fmt.pix_mp.num_planes != 1)
		die("encode: %s has %u planes: one buffer formats only (YUYV, UYVY, NV12, NV21)",
		    fcc, f.fmt.pix_mp.num_planes);
	if (mp) {
		struct v4l2_pix_format_mplane *m = &f.fmt.pix_mp;
		uint32_t pf = m->pixelformat;

		/* the same fields the single-planar API has */
		f.fmt.pix.width = m->width;
		f.fmt.pix.height = m->height;
		f.fmt.pix.pixelformat = pf;
		bpl = m->plane_fmt[0].bytesperline;
		size = m->plane_fmt[0].sizeimage;
	} else {
		bpl = f.fmt.pix.bytesperline;
		size = f.fmt.pix.sizeimage;
	}
	if (f.fmt.pix.width != w || f.fmt.pix.height != h || f.fmt.pix.pixelformat != fourcc)
		die("encode: the codec does not take %s %ux%u (it offers %.4s %ux%u)", fcc, w, h,
		    (char *)&f.fmt.pix.pixelformat, f.fmt.pix.width, f.fmt.pix.height);

	/* the picture, in a buffer of the heap, written through a mapping */
	bfd = heap_alloc(hfd, size, O_RDWR | O_CLOEXEC, 0, 0);
	if (bfd < 0)
		die("encode: %u bytes from heap %s: %s (%s): %s", size, heap_name(heap),
		    strerror(-bfd), ename(-bfd), alloc_hint(-bfd));
	printf("encode: %u bytes from heap %s (dma-buf fd %d)\n", size, heap_name(heap), bfd);
	m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, bfd, 0);
	if (m == MAP_FAILED)
		die("encode: mmap of the heap buffer: %s (%s)", strerror(errno), ename(errno));
	if (buf_sync(bfd, DMA_BUF_SYNC_START | DMA_BUF_SYNC_WRITE))
		die("encode: DMA_BUF_IOCTL_SYNC start: %s", strerror(errno));
	if (in) {
		/* read into a copy, for the same reason as the JPEG is written from one */
		unsigned char *raw = malloc(size);
		int ifd = open(in, O_RDONLY);
		ssize_t got = ifd < 0 || !raw ? -1 : read(ifd, raw, size);

		if (got != (ssize_t)size)
			die("encode: %s: %s (need %u bytes of %s %ux%u)", in,
			    got < 0 ? strerror(errno) : "too short", size, fcc, w, h);
		memcpy(m, raw, size);
		free(raw);
		close(ifd);
	} else {
		test_picture(m, fourcc, w, h, bpl);
	}
	for (sum = 0, i = 0; i < (int)size; i++)
		sum = sum * 31 + m[i];
	if (buf_sync(bfd, DMA_BUF_SYNC_END | DMA_BUF_SYNC_WRITE))
		die("encode: DMA_BUF_IOCTL_SYNC end: %s", strerror(errno));
	if (close_early)
		munmap(m, size);

	rb = (struct v4l2_requestbuffers){ .count = 1, .type = otype, .memory = V4L2_MEMORY_DMABUF };
	if (xioctl("REQBUFS output (DMABUF)", cfd, VIDIOC_REQBUFS, &rb))
		return 1;
	rb = (struct v4l2_requestbuffers){ .count = 1, .type = ctype, .memory = V4L2_MEMORY_MMAP };
	if (xioctl("REQBUFS capture (MMAP)", cfd, VIDIOC_REQBUFS, &rb))
		return 1;
	cb = (struct v4l2_buffer){ .type = ctype, .memory = V4L2_MEMORY_MMAP };
	if (mp) {
		cb.m.planes = &cp;
		cb.length = 1;
	}
	if (xioctl("QUERYBUF capture", cfd, VIDIOC_QUERYBUF, &cb))
		return 1;
	clen = mp ? cp.length : cb.length;
	coff = mp ? cp.m.mem_offset : cb.m.offset;
	j = mmap(NULL, clen, PROT_READ, MAP_SHARED, cfd, coff);
	if (j == MAP_FAILED)
		die("encode: mmap of the capture buffer: %s", strerror(errno));

	ob = (struct v4l2_buffer){ .type = otype, .memory = V4L2_MEMORY_DMABUF,
				   .bytesused = size, .length = size };
	ob.m.fd = bfd;
	if (mp) {
		op = (struct v4l2_plane){ .bytesused = size, .length = size };
		op.m.fd = bfd;
		ob.m.planes = &op;
		ob.length = 1;
	}
	if (xioctl("QBUF output (the heap buffer)", cfd, VIDIOC_QBUF, &ob))
		return 1;
	if (close_early) {
		close(bfd);
		printf("encode: buffer fd closed after QBUF; heap chunks held: %d\n", heap_chunks());
	}
	if (xioctl("QBUF capture", cfd, VIDIOC_QBUF, &cb) ||
	    xioctl("STREAMON output", cfd, VIDIOC_STREAMON, &otype) ||
	    xioctl("STREAMON capture", cfd, VIDIOC_STREAMON, &ctype))
		return 1;

	/* the codec's busy time includes its host's encode time: 20 s */
	end = now_s() + 20;
	for (;;) {
		cb = (struct v4l2_buffer){ .type = ctype, .memory = V4L2_MEMORY_MMAP };
		if (mp) {
			cb.m.planes = &cp;
			cb.length = 1;
		}
		if (!ioctl(cfd, VIDIOC_DQBUF, &cb))
			break;
		if (errno != EAGAIN || now_s() > end) {
			fprintf(stderr, "cma-heap: encode: DQBUF capture: %s (%s)\n",
				errno == EAGAIN ? "no frame in 20 s" : strerror(errno),
				errno == EAGAIN ? "ETIMEDOUT" : ename(errno));
			return 1;
		}
		p = (struct pollfd){ .fd = cfd, .events = POLLIN };
		poll(&p, 1, 100);
	}
	cused = mp ? cp.bytesused : cb.bytesused;
	if (cb.flags & V4L2_BUF_FLAG_ERROR || cused < 4)
		die("encode: the codec returned an error buffer (%u bytes)", cused);
	n = j[0] == 0xff && j[1] == 0xd8 && j[cused - 2] == 0xff &&
	    j[cused - 1] == 0xd9;
	/*
	 * Written from a copy: a file system that pins the pages of the
	 * buffer it writes from (9p's zero copy, /host) cannot pin those of
	 * a device mapping (EFAULT).
	 */
	jcopy = malloc(cused);
	if (!jcopy)
		die("encode: out of memory for %u bytes", cused);
	memcpy(jcopy, j, cused);
	o = fopen(out, "wb");
	if (!o || fwrite(jcopy, 1, cused, o) != cused || fclose(o))
		die("encode: cannot write %s: %s", out, strerror(errno));
	free(jcopy);
	printf("encode: %s %ux%u from heap %s -> %u bytes of JPEG (%s) in %s\n", fcc, w, h,
	       heap_name(heap), cused, n ? "SOI to EOI" : "no SOI/EOI", out);
	ob = (struct v4l2_buffer){ .type = otype, .memory = V4L2_MEMORY_DMABUF };
	if (mp) {
		ob.m.planes = &op;
		ob.length = 1;
	}
	xioctl("DQBUF output", cfd, VIDIOC_DQBUF, &ob);
	if (!close_early) {
		/*
		 * The codec keeps the buffer mapped for its device (DMA_TO_DEVICE)
		 * until it is requeued or freed: the CPU reads it back in between.
		 */
		unsigned int sum2 = 0;
		int r1 = buf_sync(bfd, DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ), r2;

		for (i = 0; i < (int)size; i++)
			sum2 = sum2 * 31 + m[i];
		r2 = buf_sync(bfd, DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ);
		printf("encode: read back while the codec has the buffer mapped: sync %s, %s\n",
		       r1 || r2 ? "failed" : "ok", sum2 == sum ? "same picture" : "DIFFERENT picture");
		munmap(m, size);
	}
	xioctl("STREAMOFF output", cfd, VIDIOC_STREAMOFF, &otype);
	xioctl("STREAMOFF capture", cfd, VIDIOC_STREAMOFF, &ctype);
	munmap(j, clen);
	close(cfd);
	if (!close_early)
		close(bfd);
	close(hfd);
	printf("encode: codec and buffer closed; heap chunks held: %d\n", heap_chunks());
	return n ? 0 : 1;
}

/* ---- bad input ---- */

static void result(const char *what, int ret, const char *okfmt, ...)
{
	va_list ap;

	if (ret < 0) {
		printf("%s: errno %s\n", what, ename(-ret));
	} else {
		printf("%s: ok", what);
		if (okfmt) {
			putchar(' ');
			va_start(ap, okfmt);
			vprintf(okfmt, ap);
			va_end(ap);
		}
		putchar('\n');
	}
	fflush(stdout);
}

static int cmd_bad(const char *heap)
{
	const char *name = heap_name(heap);
	long long rsize = region_stat(name, "size");
	int hfd = heap_open(heap), bfd, fds[4096], n, i;
	long ps = sysconf(_SC_PAGESIZE);
	unsigned char *m;
	size_t off;

	if (rsize <= 0)
		die("bad: no " SYSFS_CMA "/%s/size: %s is not a CMA region's heap", name, name);

	bfd = heap_alloc(hfd, 0, O_RDWR, 0, 0);
	result("zero size", bfd, NULL);
	if (bfd >= 0)
		close(bfd);
	bfd = heap_alloc(hfd, rsize + ps, O_RDWR, 0, 0);
	result("larger than the region", bfd, NULL);
	if (bfd >= 0)
		close(bfd);
	bfd = heap_alloc(hfd, (1ULL << 32) + ps, O_RDWR, 0, 0);
	if (bfd >= 0) {
		printf("4 GiB + 1 page: ok, a buffer of %lld bytes\n",
		       (long long)lseek(bfd, 0, SEEK_END));
		close(bfd);
	} else {
		result("4 GiB + 1 page", bfd, NULL);
	}
	bfd = heap_alloc(hfd, ps, O_RDWR | O_NONBLOCK, 0, 0);
	result("fd_flags O_NONBLOCK", bfd, NULL);
	if (bfd >= 0)
		close(bfd);
	bfd = heap_alloc(hfd, ps, O_RDWR, 1, 0);
	result("heap_flags 1", bfd, NULL);
	if (bfd >= 0)
		close(bfd);
	bfd = heap_alloc(hfd, ps, O_RDWR, 0, 3);
	result("fd field not 0", bfd, NULL);
	if (bfd >= 0)
		close(bfd);

	/* mappings */
	bfd = heap_alloc(hfd, ps, O_RDWR | O_CLOEXEC, 0, 0);
	result("one page", bfd, NULL);
	if (bfd < 0)
		return 0;
	m = mmap(NULL, ps, PROT_READ | PROT_WRITE, MAP_PRIVATE, bfd, 0);
	result("mmap MAP_PRIVATE", m == MAP_FAILED ? -errno : 0, NULL);
	if (m != MAP_FAILED)
		munmap(m, ps);
	m = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE, MAP_SHARED, bfd, 0);
	result("mmap 2 pages of a 1-page buffer", m == MAP_FAILED ? -errno : 0, NULL);
	if (m != MAP_FAILED)
		munmap(m, 2 * ps);
	m = mmap(NULL, ps, PROT_READ | PROT_WRITE, MAP_SHARED, bfd, ps);
	result("mmap at offset 1 page of a 1-page buffer", m == MAP_FAILED ? -errno : 0, NULL);
	if (m != MAP_FAILED)
		munmap(m, ps);

	/* close while mapped: the mapping keeps the chunk */
	m = mmap(NULL, ps, PROT_READ | PROT_WRITE, MAP_SHARED, bfd, 0);
	if (m == MAP_FAILED) {
		result("mmap", -errno, NULL);
		return 0;
	}
	close(bfd);
	memset(m, 0xa5, ps);
	for (off = 0; off < (size_t)ps && m[off] == 0xa5; off++)
		;
	result("close while mapped", 0, "(written and read back: %s; heap chunks held: %d)",
	       off == (size_t)ps ? "same" : "differs", heap_chunks());
	munmap(m, ps);
	result("unmapped", 0, "(heap chunks held: %d)", heap_chunks());

	/* a new buffer is zeroed, though the last one was filled */
	bfd = heap_alloc(hfd, ps, O_RDWR | O_CLOEXEC, 0, 0);
	m = bfd < 0 ? MAP_FAILED : mmap(NULL, ps, PROT_READ, MAP_SHARED, bfd, 0);
	if (m == MAP_FAILED) {
		result("new buffer", bfd < 0 ? bfd : -errno, NULL);
	} else {
		buf_sync(bfd, DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ);
		for (off = 0; off < (size_t)ps && !m[off]; off++)
			;
		buf_sync(bfd, DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ);
		result("new buffer", 0, "(%s)", off == (size_t)ps ? "zeroed" : "NOT zeroed");
		munmap(m, ps);
	}
	if (bfd >= 0)
		close(bfd);

	/* the heap filled with 1 MiB buffers, until it says ENOMEM */
	for (n = 0; n < (int)(sizeof(fds) / sizeof(fds[0])); n++) {
		fds[n] = heap_alloc(hfd, 1 << 20, O_RDWR | O_CLOEXEC, 0, 0);
		if (fds[n] < 0)
			break;
	}
	if (n == (int)(sizeof(fds) / sizeof(fds[0]))) {
		printf("heap full: not full after %d buffers\n", n);
	} else {
		printf("heap full: %d buffers of 1 MiB, then errno %s\n", n, ename(-fds[n]));
		bfd = heap_alloc(hfd, ps, O_RDWR | O_CLOEXEC, 0, 0);
		result("one page more", bfd, NULL);
		if (bfd >= 0)
			close(bfd);
	}
	for (i = 0; i < n; i++)
		close(fds[i]);
	result("all closed", 0, "(heap chunks held: %d)", heap_chunks());
	close(hfd);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: cma-heap list\n"
		"       cma-heap alloc HEAP SIZE [FD_FLAGS [HEAP_FLAGS]]\n"
		"       cma-heap hold HEAP SIZE COUNT\n"
		"       cma-heap encode HEAP CODEC FOURCC W H OUT [IN] [--close]\n"
		"       cma-heap bad HEAP\n"
		"HEAP: a name in " HEAP_DIR " (a CMA region) or a path; SIZE: bytes, K, M, G\n");
	exit(1);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "list") && argc == 2)
		return cmd_list();
	if (!strcmp(argv[1], "alloc") && argc >= 4 && argc <= 6)
		return cmd_alloc(argv[2], argv[3], argc > 4 ? argv[4] : NULL,
				 argc > 5 ? argv[5] : NULL);
	if (!strcmp(argv[1], "hold") && argc == 5)
		return cmd_hold(argv[2], argv[3], argv[4]);
	if (!strcmp(argv[1], "encode") && argc >= 8 && argc <= 10)
		return cmd_encode(argc - 2, argv + 2);
	if (!strcmp(argv[1], "bad") && argc == 3)
		return cmd_bad(argv[2]);
	usage();
	return 1;
}
