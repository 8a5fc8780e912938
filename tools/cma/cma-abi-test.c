// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cma-abi-test: check the /dev/cma ioctl and mmap ABI, including every
 * error path, and print one TAP line ("ok - ..." / "not ok - ...") per
 * check.
 *
 *   cma-abi-test [-d DEVICE] <dev>[/<kind>] [<size>]
 *
 * <dev>[/<kind>] must be routed by cma_map= to a region with at least
 * 2 * <size> (default 64 KiB) free.  Exits 1 if any check failed.
 */
#include <linux/cma.h>

#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Static_assert(sizeof(struct cma_alloc_request) == 64, "request is 64 bytes");
_Static_assert(offsetof(struct cma_alloc_request, kind) == 21, "kind at 21");
_Static_assert(offsetof(struct cma_alloc_request, size) == 40, "size at 40");
_Static_assert(offsetof(struct cma_alloc_request, start) == 56, "start at 56");

static const char *device = "/dev/cma";
static const char *dev, *kind = "";
static int failed;

static void result(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void result(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", ok ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	failed |= !ok;
}

static void request(struct cma_alloc_request *req, unsigned long long size,
		    unsigned long long align)
{
	memset(req, 0, sizeof(*req));
	req->magic = CMA_MAGIC;
	strcpy(req->name, dev);
	strcpy(req->kind, kind);
	req->size = size;
	req->alignment = align;
}

static int open_dev(void)
{
	int fd = open(device, O_RDWR);

	if (fd < 0) {
		printf("Bail out! %s: %s\n", device, strerror(errno));
		exit(1);
	}
	return fd;
}

/* An ioctl on a fresh file that must fail with @want. */
static void expect_errno(const char *what, struct cma_alloc_request *req,
			 unsigned long cmd, int want)
{
	int fd = open_dev(), ret, e;

	ret = ioctl(fd, cmd, req);
	e = errno;
	result(ret < 0 && e == want, "%s: errno %d (%s), expected %d (%s)", what,
	       ret < 0 ? e : 0, ret < 0 ? strerror(e) : "success", want,
	       strerror(want));
	close(fd);
}

int main(int argc, char **argv)
{
	unsigned long size = 64 * 1024, page = sysconf(_SC_PAGESIZE);
	struct cma_alloc_request req;
	char *slash, *arg;
	unsigned long long first;
	int opt, fd, fd2, ret;
	unsigned char *p;
	unsigned long i;

	while ((opt = getopt(argc, argv, "d:")) != -1) {
		if (opt != 'd') {
			fprintf(stderr, "usage: cma-abi-test [-d DEVICE] <dev>[/<kind>] [<size>]\n");
			return 2;
		}
		device = optarg;
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: cma-abi-test [-d DEVICE] <dev>[/<kind>] [<size>]\n");
		return 2;
	}
	arg = argv[optind];
	slash = strchr(arg, '/');
	if (slash) {
		*slash = '\0';
		kind = slash + 1;
	}
	dev = arg;
	if (optind + 1 < argc)
		size = strtoul(argv[optind + 1], NULL, 0);
	if (strlen(dev) > 16 || strlen(kind) > 16 || size < page) {
		fprintf(stderr, "cma-abi-test: bad arguments\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* Requests refused before anything is allocated */
	request(&req, size, 0);
	expect_errno("an unknown ioctl", &req, _IOWR('p', 1, struct cma_alloc_request), ENOTTY);
	expect_errno("an ioctl number for another size", &req,
		     _IOWR('p', 0, uint32_t), ENOTTY);
	fd = open_dev();
	ret = ioctl(fd, IOCTL_CMA_ALLOC, NULL);
	result(ret < 0 && errno == EINVAL, "a NULL request: EINVAL");
	ret = ioctl(fd, IOCTL_CMA_ALLOC, (void *)16);
	result(ret < 0 && errno == EFAULT, "a request at a bad address: EFAULT");
	close(fd);

	request(&req, size, 0);
	req.magic ^= 1;
	expect_errno("a bad magic", &req, IOCTL_CMA_ALLOC, ENOTTY);
	request(&req, size, 0);
	memset(req.name, 'x', sizeof(req.name));
	expect_errno("an unterminated device name", &req, IOCTL_CMA_ALLOC, EINVAL);
	request(&req, size, 0);
	memset(req.kind, 'x', sizeof(req.kind));
	expect_errno("an unterminated kind", &req, IOCTL_CMA_ALLOC, EINVAL);
	request(&req, size, 0);
	req.name[0] = '\0';
	expect_errno("an empty device name", &req, IOCTL_CMA_ALLOC, EINVAL);
	request(&req, 0, 0);
	expect_errno("size 0", &req, IOCTL_CMA_ALLOC, EINVAL);
	request(&req, size, 3);
	expect_errno("alignment 3", &req, IOCTL_CMA_ALLOC, EINVAL);
	request(&req, size, 0x3000);
	expect_errno("alignment 0x3000", &req, IOCTL_CMA_ALLOC, EINVAL);
	if (sizeof(long) == 4) {
		request(&req, 1ULL << 32, 0);
		expect_errno("a size above 4 GiB on a 32-bit kernel", &req, IOCTL_CMA_ALLOC,
			     EINVAL);
		request(&req, size, 1ULL << 32);
		expect_errno("an alignment above 4 GiB on a 32-bit kernel", &req,
			     IOCTL_CMA_ALLOC, EINVAL);
	}
	request(&req, 0xfff00000UL, 0);
	expect_errno("a size no region can hold", &req, IOCTL_CMA_ALLOC, ENOMEM);
	request(&req, size, 0);
	strcpy(req.name, "no-such-dev-x");
	strcpy(req.kind, "no-such-kind");
	expect_errno("a device and kind no rule matches", &req, IOCTL_CMA_ALLOC, ENOENT);

	fd = open_dev();
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	result(p == MAP_FAILED && errno == EBADFD, "mmap before an allocation: EBADFD");
	close(fd);

	/* One chunk */
	fd = open_dev();
	request(&req, size + 1, 0);
	req.start = 0;
	ret = ioctl(fd, IOCTL_CMA_ALLOC, &req);
	result(ret == 0 && req.start && !(req.start % page),
	       "allocate 0x%lx bytes as %s/%s: 0x%llx", size + 1, dev, kind,
	       (unsigned long long)req.start);
	if (ret) {
		printf("Bail out! cannot allocate as %s/%s: %s\n", dev, kind, strerror(errno));
		return 1;
	}
	result(req.magic == CMA_MAGIC && req.size == size + 1 && !strcmp(req.name, dev),
	       "the ioctl writes back only the start");
	first = req.start;
	request(&req, size, 0);
	ret = ioctl(fd, IOCTL_CMA_ALLOC, &req);
	result(ret < 0 && errno == EBADFD, "a second allocation on the same file: EBADFD");

	/* The chunk is size + 1 rounded up to pages. */
	size = (size + 1 + page - 1) & ~(page - 1);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	result(p != MAP_FAILED, "mmap the whole chunk (0x%lx bytes)", size);
	if (p != MAP_FAILED) {
		for (i = 0; i < size; i++)
			p[i] = (unsigned char)(i * 7 + 3);
		munmap(p, size);
		p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
		for (i = 0; p != MAP_FAILED && i < size; i++)
			if (p[i] != (unsigned char)(i * 7 + 3))
				break;
		result(p != MAP_FAILED && i == size,
		       "a second mapping reads back what the first wrote");
		if (p != MAP_FAILED)
			munmap(p, size);
	}
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, size - page);
	result(p != MAP_FAILED, "mmap the last page");
	if (p != MAP_FAILED)
		munmap(p, page);
	p = mmap(NULL, size + page, PROT_READ, MAP_SHARED, fd, 0);
	result(p == MAP_FAILED && errno == ENOSPC, "mmap longer than the chunk: ENOSPC");
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, size);
	result(p == MAP_FAILED && errno == ENOSPC, "mmap at the chunk's end: ENOSPC");
	p = mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, fd, size - page);
	result(p == MAP_FAILED && errno == ENOSPC, "mmap across the chunk's end: ENOSPC");
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, (off_t)0x7fff0000 & ~(page - 1));
	result(p == MAP_FAILED && errno == ENOSPC, "mmap far beyond the chunk: ENOSPC");

	/* Closing frees: the same request gets the same place again. */
	fd2 = open_dev();
	request(&req, size, 0);
	ret = ioctl(fd2, IOCTL_CMA_ALLOC, &req);
	result(ret == 0 && req.start != first, "a second file gets another chunk (0x%llx)",
	       (unsigned long long)req.start);
	close(fd2);
	close(fd);
	fd = open_dev();
	request(&req, size, 0);
	ret = ioctl(fd, IOCTL_CMA_ALLOC, &req);
	result(ret == 0 && req.start == first,
	       "after close the chunk is free again: 0x%llx, first 0x%llx",
	       (unsigned long long)req.start, first);
	close(fd);

	/* A mapping keeps the chunk until it goes. */
	fd = open_dev();
	request(&req, size, 0);
	ret = ioctl(fd, IOCTL_CMA_ALLOC, &req);
	p = ret ? MAP_FAILED : mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p != MAP_FAILED) {
		memset(p, 0x5a, size);
		fd2 = open_dev();
		request(&req, size, 0);
		ret = ioctl(fd2, IOCTL_CMA_ALLOC, &req);
		result(ret == 0 && req.start != first,
		       "a chunk still mapped after close is not handed out again");
		close(fd2);
		munmap(p, size);
		fd2 = open_dev();
		request(&req, size, 0);
		ret = ioctl(fd2, IOCTL_CMA_ALLOC, &req);
		result(ret == 0 && req.start == first, "after munmap it is free");
		close(fd2);
	} else {
		result(0, "map a chunk and close its file");
	}
	return failed;
}
