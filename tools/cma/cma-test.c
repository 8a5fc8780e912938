// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cma-test: drive the Contiguous Memory Allocator through /dev/cma.
 *
 * Reads commands from standard input (one per line), or runs the one
 * command given as its arguments ("cma-test stats cam"):
 *
 *   l, list                                  list the chunks held
 *   a, alloc <dev>[/<kind>] <size>[/<align>] allocate a chunk as <dev>
 *   f, free [<num>]                          free chunk <num> (default: the last)
 *   fill <num> <byte>                        write <byte> all over the chunk (mmap)
 *   check <num> <byte>                       check the chunk holds only <byte> (mmap)
 *   map <num> <offset> <length>              try to mmap part of the chunk
 *   stats [<region>]                         per-region statistics (sysfs) and
 *                                            the region's chunks (debugfs)
 *   # ...                                    a comment
 *   <empty line>                             repeat the previous command
 *
 * <num> is the number "list" shows (the chunk's file descriptor); sizes take
 * K, M and G suffixes.  With -r FILE every allocation and free is also
 * written to FILE; -p FILE replays such a file instead of reading commands
 * and checks that each allocation gets the recorded result (the format,
 * shared with the host benchmark, is in trace.h); -t adds per-operation
 * timing to a replay.  docs/cma.md describes the output, docs/benchmarks.md
 * the trace format.
 *
 * Based on the 2010 tools/cma/cma-test.c by Michal Nazarewicz.
 */
#include <linux/cma.h>

#include "trace.h"

#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RECORD_HEADER TRACE_HEADER

struct chunk {
	struct chunk *next, *prev;
	int fd;
	unsigned int id;		/* sequence number, for the record */
	unsigned long size;		/* as requested */
	unsigned long start;
};

static struct chunk chunks = { .next = &chunks, .prev = &chunks };
static int open_failed;		/* do_alloc() failed opening the device */
static const char *device = "/dev/cma";
static const char *stats_dir = "/sys/kernel/mm/cma";
static const char *chunks_file = "/sys/kernel/debug/cma/chunks";
static FILE *record;
static unsigned int next_id = 1;
static int failures;		/* commands that went wrong */

#define for_each_chunk(c) for (c = chunks.next; c != &chunks; c = c->next)

static void err(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	failures++;
}

static char *skip_space(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* A size with an optional K, M or G suffix (trace.c's parser); 0 on success. */
static int parse_size(char *s, char **end, unsigned long *val)
{
	unsigned long long v;
	const char *e;

	if (trace_parse_size(s, &e, &v) || v > ULONG_MAX)
		return -1;
	*end = (char *)e;
	*val = v;
	return 0;
}

static const char *errname(int e)
{
	return trace_errname(e);
}

/* Per-operation timing (-t): the ioctl of an allocation, the close of a free. */
static int timing;
static struct trace_stats alloc_ns, free_ns;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static struct chunk *find_chunk(int fd)
{
	struct chunk *c;

	for_each_chunk(c)
		if (c->fd == fd)
			return c;
	return NULL;
}

static void print_chunk(const struct chunk *c)
{
	printf("%3d: 0x%lx@0x%lx\n", c->fd, c->size, c->start);
}

/*
 * Allocate as dev/kind; returns the new chunk, or NULL with errno set.
 * The outcome goes to the record.
 */
static struct chunk *do_alloc(const char *dev, const char *kind,
			      unsigned long size, unsigned long align)
{
	struct cma_alloc_request req;
	unsigned long long t0;
	struct chunk *c;
	int fd, e;

	open_failed = 0;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	fd = open(device, O_RDWR);
	if (fd < 0) {
		e = errno;
		free(c);
		open_failed = 1;
		errno = e;
		return NULL;
	}
	memset(&req, 0, sizeof(req));
	req.magic = CMA_MAGIC;
	strcpy(req.name, dev);
	strcpy(req.kind, kind);
	req.size = size;
	req.alignment = align;
	c->id = next_id++;
	t0 = timing ? now_ns() : 0;
	e = ioctl(fd, IOCTL_CMA_ALLOC, &req);
	if (timing)
		trace_stats_add(&alloc_ns, now_ns() - t0);
	if (e < 0) {
		e = errno;
		if (record)
			fprintf(record, "alloc %u %s %s 0x%lx 0x%lx %s\n", c->id,
				dev, *kind ? kind : "-", size, align, errname(e));
		close(fd);
		free(c);
		errno = e;
		return NULL;
	}
	c->fd = fd;
	c->size = size;
	c->start = req.start;
	c->next = &chunks;
	c->prev = chunks.prev;
	chunks.prev->next = c;
	chunks.prev = c;
	if (record)
		fprintf(record, "alloc %u %s %s 0x%lx 0x%lx 0x%lx\n", c->id, dev,
			*kind ? kind : "-", size, align, c->start);
	return c;
}

static void do_free(struct chunk *c)
{
	unsigned long long t0 = timing ? now_ns() : 0;

	c->prev->next = c->next;
	c->next->prev = c->prev;
	close(c->fd);
	if (timing)
		trace_stats_add(&free_ns, now_ns() - t0);
	if (record)
		fprintf(record, "free %u\n", c->id);
	free(c);
}

/* Commands */

static void cmd_list(const char *cmd, char *args)
{
	struct chunk *c;

	(void)cmd;
	(void)args;
	for_each_chunk(c)
		print_chunk(c);
}

static int region_dir(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/*
 * After an ENOENT (no cma_map= rule matches @dev): what to type instead.
 * The regions are the directories of the statistics (-s), the rules the
 * debugfs file "map" next to the chunk list (-c).
 */
static void explain_no_rule(const char *cmd, const char *dev)
{
	char path[PATH_MAX], line[256];
	struct dirent **names;
	const char *slash;
	int n, i, is_region = 0;
	FILE *fp;

	n = scandir(stats_dir, &names, region_dir, alphasort);
	if (n > 0) {
		fprintf(stderr, "%s: the regions are", cmd);
		for (i = 0; i < n; i++) {
			fprintf(stderr, "%s %s", i ? "," : "", names[i]->d_name);
			if (!strcmp(names[i]->d_name, dev))
				is_region = 1;
			free(names[i]);
		}
		fprintf(stderr, " (%s)\n", stats_dir);
		free(names);
	}
	if (is_region)
		fprintf(stderr, "%s: \"%s\" is a region: alloc takes a device, which the cma_map= rules send to a region\n",
			cmd, dev);
	fprintf(stderr, "%s: usage: a <dev>[/<kind>] <size>[/<align>]\n", cmd);
	slash = strrchr(chunks_file, '/');
	snprintf(path, sizeof(path), "%.*s/map", slash ? (int)(slash - chunks_file) : 1,
		 slash ? chunks_file : ".");
	fp = fopen(path, "r");
	if (!fp)
		return;
	fprintf(stderr, "%s: the cma_map= rules (%s):\n", cmd, path);
	while (fgets(line, sizeof(line), fp))
		fprintf(stderr, "%s:     %s", cmd, line);
	fclose(fp);
}

static void cmd_alloc(const char *cmd, char *args)
{
	char *dev, *kind = NULL, *p;
	unsigned long size, align = 0;
	struct chunk *c;

	args = skip_space(args);
	if (!*args) {
		err(cmd, "expecting name");
		return;
	}
	dev = args;
	for (p = args; *p && !isspace((unsigned char)*p); p++)
		if (*p == '/' && !kind)
			kind = p;
	if (!*p) {
		err(cmd, "expecting size after name");
		return;
	}
	*p++ = '\0';
	if (kind)
		*kind++ = '\0';
	if (strlen(dev) > sizeof(((struct cma_alloc_request *)0)->name) - 1 ||
	    (kind && strlen(kind) > sizeof(((struct cma_alloc_request *)0)->kind) - 1)) {
		err(cmd, "name or kind too long");
		return;
	}

	p = skip_space(p);
	if (parse_size(p, &p, &size) || !size) {
		err(cmd, "invalid size");
		return;
	}
	if (*p == '/' && parse_size(p + 1, &p, &align)) {
		err(cmd, "invalid alignment");
		return;
	}
	p = skip_space(p);
	if (*p) {
		err(cmd, "unknown arguments at the end: %s", p);
		return;
	}

	fprintf(stderr, "%s: allocating 0x%lx/0x%lx\n", cmd, size, align);
	c = do_alloc(dev, kind ? kind : "", size, align);
	if (!c && open_failed) {
		err(cmd, "%s: %s (%s)", device, strerror(errno), errname(errno));
		return;
	}
	if (!c && errno == ENOENT) {
		err(cmd, "no cma_map= rule matches device \"%s\"%s%s%s: cma_alloc: %s (ENOENT)",
		    dev, kind ? " kind \"" : "", kind ? kind : "", kind ? "\"" : "",
		    strerror(ENOENT));
		explain_no_rule(cmd, dev);
		return;
	}
	if (!c) {
		err(cmd, "cma_alloc: %s (%s)", strerror(errno), errname(errno));
		return;
	}
	print_chunk(c);
}

/* The chunk numbered by @args, or the last one when @args is empty. */
static struct chunk *chunk_arg(const char *cmd, char **args)
{
	unsigned long num;
	struct chunk *c;
	char *p = skip_space(*args);

	if (!*p) {
		if (chunks.prev == &chunks) {
			err(cmd, "no chunks");
			return NULL;
		}
		*args = p;
		return chunks.prev;
	}
	errno = 0;
	num = strtoul(p, &p, 10);
	if (errno || num > INT_MAX || (*p && !isspace((unsigned char)*p))) {
		err(cmd, "invalid number");
		return NULL;
	}
	c = find_chunk((int)num);
	if (!c)
		err(cmd, "no chunk %3lu", num);
	*args = skip_space(p);
	return c;
}

static void cmd_free(const char *cmd, char *args)
{
	struct chunk *c = chunk_arg(cmd, &args);

	if (!c)
		return;
	if (*args) {
		err(cmd, "unknown arguments at the end: %s", args);
		return;
	}
	fprintf(stderr, "%s: freeing 0x%lx@0x%lx\n", cmd, c->size, c->start);
	do_free(c);
}

static int byte_arg(const char *cmd, char *args, unsigned char *byte)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(args, &end, 0);
	if (errno || end == args || v > 255 || *skip_space(end)) {
		err(cmd, "expecting a byte value");
		return -1;
	}
	*byte = v;
	return 0;
}

static unsigned long chunk_len(const struct chunk *c)
{
	long page = sysconf(_SC_PAGESIZE);

	return (c->size + page - 1) & ~(page - 1);
}

static void cmd_fill(const char *cmd, char *args)
{
	struct chunk *c = chunk_arg(cmd, &args);
	unsigned char byte;
	void *p;

	if (!c || byte_arg(cmd, args, &byte))
		return;
	p = mmap(NULL, chunk_len(c), PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (p == MAP_FAILED) {
		err(cmd, "mmap: %s (%s)", strerror(errno), errname(errno));
		return;
	}
	memset(p, byte, chunk_len(c));
	munmap(p, chunk_len(c));
	printf("%3d: filled 0x%lx bytes with 0x%02x\n", c->fd, chunk_len(c), byte);
}

static void cmd_check(const char *cmd, char *args)
{
	struct chunk *c = chunk_arg(cmd, &args);
	const unsigned char *p;
	unsigned char byte;
	unsigned long i;

	if (!c || byte_arg(cmd, args, &byte))
		return;
	p = mmap(NULL, chunk_len(c), PROT_READ, MAP_SHARED, c->fd, 0);
	if (p == MAP_FAILED) {
		err(cmd, "mmap: %s (%s)", strerror(errno), errname(errno));
		return;
	}
	for (i = 0; i < chunk_len(c) && p[i] == byte; i++)
		;
	if (i == chunk_len(c)) {
		printf("%3d: 0x%lx bytes of 0x%02x\n", c->fd, i, byte);
	} else {
		printf("%3d: mismatch at +0x%lx: 0x%02x, not 0x%02x\n", c->fd, i,
		       p[i], byte);
		failures++;
	}
	munmap((void *)p, chunk_len(c));
}

static void cmd_map(const char *cmd, char *args)
{
	struct chunk *c = chunk_arg(cmd, &args);
	unsigned long off, len;
	char *p = args;
	void *m;

	if (!c)
		return;
	if (parse_size(p, &p, &off) || parse_size(skip_space(p), &p, &len) ||
	    *skip_space(p)) {
		err(cmd, "expecting <offset> <length>");
		return;
	}
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, off);
	if (m == MAP_FAILED) {
		printf("%3d: mmap +0x%lx/0x%lx: %s\n", c->fd, off, len, errname(errno));
		return;
	}
	munmap(m, len);
	printf("%3d: mmap +0x%lx/0x%lx: ok\n", c->fd, off, len);
}

/* The files of /sys/kernel/mm/cma/<region>/, in the order stats prints them. */
static const char *const stat_files[] = {
	"base", "size", "allocator", "used", "free", "chunks", "largest_free",
	"alloc_ok", "alloc_fail", NULL
};

/* One region's line, then its chunks from debugfs (indented). */
static int print_region_stats(const char *cmd, const char *name)
{
	char path[PATH_MAX], val[64], line[256], want[80];
	const char *const *f;
	FILE *fp;
	int bad = 0;

	printf("%s:", name);
	for (f = stat_files; *f; f++) {
		snprintf(path, sizeof(path), "%s/%s/%s", stats_dir, name, *f);
		fp = fopen(path, "r");
		if (!fp || !fgets(val, sizeof(val), fp)) {
			strcpy(val, "?");
			bad = 1;
		}
		if (fp)
			fclose(fp);
		val[strcspn(val, "\n")] = '\0';
		printf(" %s=%s", *f, val);
	}
	printf("\n");
	if (bad)
		err(cmd, "region %s: cannot read every file of %s/%s", name, stats_dir, name);

	fp = fopen(chunks_file, "r");
	if (!fp)
		return bad;
	snprintf(want, sizeof(want), " region=%s ", name);
	while (fgets(line, sizeof(line), fp))
		if (strstr(line, want))
			printf("    %s", line);
	fclose(fp);
	return bad;
}

static void cmd_stats(const char *cmd, char *args)
{
	struct dirent **names;
	char *name = skip_space(args), *end;
	struct stat st;
	char path[PATH_MAX];
	int n, i;

	end = name;
	while (*end && !isspace((unsigned char)*end))
		end++;
	if (*skip_space(end)) {
		err(cmd, "unknown arguments at the end: %s", skip_space(end));
		return;
	}
	*end = '\0';
	if (*name) {
		snprintf(path, sizeof(path), "%s/%s", stats_dir, name);
		if (strchr(name, '/') || stat(path, &st) || !S_ISDIR(st.st_mode)) {
			err(cmd, "no region %s in %s", name, stats_dir);
			return;
		}
		print_region_stats(cmd, name);
		return;
	}
	n = scandir(stats_dir, &names, region_dir, alphasort);
	if (n < 0) {
		err(cmd, "%s: %s (no CMA regions, or no sysfs)", stats_dir, strerror(errno));
		return;
	}
	for (i = 0; i < n; i++) {
		print_region_stats(cmd, names[i]->d_name);
		free(names[i]);
	}
	free(names);
}

static const struct command {
	const char *name;
	void (*handle)(const char *cmd, char *args);
} commands[] = {
	{ "list", cmd_list }, { "l", cmd_list },
	{ "alloc", cmd_alloc }, { "a", cmd_alloc },
	{ "free", cmd_free }, { "f", cmd_free },
	{ "fill", cmd_fill }, { "check", cmd_check }, { "map", cmd_map },
	{ "stats", cmd_stats },
	{ NULL, NULL }
};

static void handle_command(char *line)
{
	static char last[1024];
	const struct command *cmd;
	char *name;

	line = skip_space(line);
	if (*line == '#')
		return;
	if (!*line)
		strcpy(line, last);	/* both buffers are 1024 bytes */
	else
		strcpy(last, line);
	if (!*line)
		return;

	name = line;
	while (*line && !isspace((unsigned char)*line))
		line++;
	if (*line)
		*line++ = '\0';
	for (cmd = commands; cmd->name; cmd++) {
		if (!strcmp(name, cmd->name)) {
			cmd->handle(name, line);
			if (record)
				fflush(record);
			return;
		}
	}
	err(name, "unknown command");
}

/* Replay */

static void print_stats(const char *what, struct trace_stats *st)
{
	if (!st->n)
		return;
	printf("replay: %s ns: n=%zu p50=%llu p99=%llu max=%llu\n", what, st->n,
	       trace_stats_pct(st, 50), trace_stats_pct(st, 99),
	       trace_stats_pct(st, 100));
}

/*
 * Replay a trace (trace.h): allocations whose result was recorded must get
 * it again (else a mismatch); the others only count their failures.
 */
static int replay(const char *path, int quiet)
{
	unsigned int allocs = 0, frees = 0, mismatches = 0, failed = 0, lineno = 0;
	struct { unsigned long rec; struct chunk *c; } *ids = NULL;
	size_t nids = 0, cap = 0;
	char line[1024], first_fail[160] = "", want[32];
	struct trace_op op;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "cma-test: %s: %s\n", path, strerror(errno));
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		struct chunk *c;
		size_t i;

		lineno++;
		switch (trace_parse(line, &op)) {
		case TRACE_NONE:
		case TRACE_CMA:		/* boot parameters: for the one who boots */
		case TRACE_CMA_MAP:
			continue;
		case TRACE_ERROR:
			line[strcspn(line, "\n")] = '\0';
			fprintf(stderr, "replay: %s:%u: cannot parse: %s (%s)\n", path,
				lineno, line, op.text);
			mismatches++;
			continue;
		case TRACE_ALLOC:
			allocs++;
			if (op.size > ULONG_MAX || op.align > ULONG_MAX) {
				fprintf(stderr, "replay: %s:%u: size or alignment too large\n",
					path, lineno);
				mismatches++;
				continue;
			}
			c = do_alloc(op.dev, op.kind, op.size, op.align);
			if (!c && op.result == TRACE_UNCHECKED) {
				int e = errno;

				if (!failed++)
					snprintf(first_fail, sizeof(first_fail),
						 "line %u: alloc %lu %s/%s 0x%llx/0x%llx: %s",
						 lineno, op.id, op.dev, op.kind, op.size,
						 op.align, errname(e));
			}
			if (c || op.result == TRACE_UNCHECKED) {
				/* a failed unchecked allocation is remembered for its free */
				if (nids == cap) {
					cap = cap ? 2 * cap : 64;
					ids = realloc(ids, cap * sizeof(*ids));
					if (!ids) {
						fprintf(stderr, "replay: out of memory\n");
						exit(2);
					}
				}
				ids[nids].rec = op.id;
				ids[nids++].c = c;
			}
			if (op.result == TRACE_ADDR)
				snprintf(want, sizeof(want), "0x%llx", op.addr);
			else
				snprintf(want, sizeof(want), "%s", errname(op.err));
			if (op.result == TRACE_UNCHECKED) {
				if (c && !quiet)
					print_chunk(c);
			} else if (c) {
				if (op.result == TRACE_ERRNO || c->start != op.addr) {
					printf("replay: line %u: alloc %lu: 0x%lx, recorded %s\n",
					       lineno, op.id, c->start, want);
					mismatches++;
				} else if (!quiet) {
					print_chunk(c);
				}
			} else if (op.result == TRACE_ADDR || errno != op.err) {
				printf("replay: line %u: alloc %lu: %s, recorded %s\n", lineno,
				       op.id, errname(errno), want);
				mismatches++;
			} else if (!quiet) {
				printf("replay: line %u: alloc %lu: %s, as recorded\n", lineno,
				       op.id, errname(errno));
			}
			break;
		case TRACE_FREE:
			frees++;
			for (i = 0; i < nids && ids[i].rec != op.id; i++)
				;
			if (i == nids) {
				printf("replay: line %u: free %lu: no such chunk\n", lineno,
				       op.id);
				mismatches++;
				continue;
			}
			if (ids[i].c)
				do_free(ids[i].c);
			ids[i] = ids[--nids];
			break;
		}
		if (record)
			fflush(record);
	}
	fclose(f);
	free(ids);
	printf("replay: %u allocations, %u frees, %u mismatches\n", allocs, frees,
	       mismatches);
	if (failed)
		printf("replay: %u allocations failed, the first at %s\n", failed,
		       first_fail);
	if (timing) {
		print_stats("alloc", &alloc_ns);
		print_stats("free", &free_ns);
	}
	return mismatches ? 1 : 0;
}

static void usage(FILE *out)
{
	fputs("usage: cma-test [-d DEVICE] [-r RECORD] [-p REPLAY [-t]] [-q] [-s DIR] [-c FILE]\n"
	      "       cma-test [OPTION...] COMMAND [ARG...]   (run that one command)\n"
	      "  -d DEVICE  the CMA test device (default /dev/cma)\n"
	      "  -s DIR     the regions' statistics (default /sys/kernel/mm/cma)\n"
	      "  -c FILE    the chunk list (default /sys/kernel/debug/cma/chunks)\n"
	      "  -r FILE    record allocations and frees to FILE\n"
	      "  -p FILE    replay FILE instead of reading commands; exit 1 if\n"
	      "             any allocation's result differs from the record\n"
	      "  -t         with -p: time each allocation (ioctl) and free (close),\n"
	      "             print n, p50, p99 and max in nanoseconds\n"
	      "  -q         do not print the command summary, nor (with -p) a line\n"
	      "             per allocation\n"
	      "commands (standard input, or one as the arguments):\n"
	      " l or list                                 list allocated chunks\n"
	      " a or alloc <dev>[/<kind>] <size>[/<align>] allocate a chunk\n"
	      " f or free  [<num>]                        free a chunk\n"
	      " fill <num> <byte>                         fill a chunk (mmap)\n"
	      " check <num> <byte>                        check a chunk's contents\n"
	      " map <num> <offset> <length>               try to mmap part of a chunk\n"
	      " stats [<region>]                          per-region statistics\n"
	      " # ...                                     comment\n"
	      " <empty line>                              repeat previous\n", out);
}

int main(int argc, char **argv)
{
	const char *record_path = NULL, *replay_path = NULL;
	int quiet = 0, opt, ret = 0, skip = 0;
	unsigned int no = 1;
	char line[1024];

	while ((opt = getopt(argc, argv, "d:r:p:tqs:c:h")) != -1) {
		switch (opt) {
		case 'd':
			device = optarg;
			break;
		case 's':
			stats_dir = optarg;
			break;
		case 'c':
			chunks_file = optarg;
			break;
		case 'r':
			record_path = optarg;
			break;
		case 'p':
			replay_path = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case 't':
			timing = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if ((optind != argc && replay_path) || (timing && !replay_path)) {
		usage(stderr);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (record_path) {
		record = fopen(record_path, "w");
		if (!record) {
			fprintf(stderr, "cma-test: %s: %s\n", record_path, strerror(errno));
			return 2;
		}
		fprintf(record, "%s\n", RECORD_HEADER);
	}

	if (replay_path) {
		ret = replay(replay_path, quiet);
	} else if (optind != argc) {
		/* One command, from the arguments: "cma-test stats cam". */
		line[0] = '\0';
		for (; optind < argc; optind++) {
			if (strlen(line) + strlen(argv[optind]) + 2 > sizeof(line)) {
				fprintf(stderr, "cma-test: command too long\n");
				return 2;
			}
			if (line[0])
				strcat(line, " ");
			strcat(line, argv[optind]);
		}
		handle_command(line);
		ret = failures ? 1 : 0;
	} else {
		if (!quiet)
			usage(stderr);
		while (fgets(line, sizeof(line), stdin)) {
			char *nl = strchr(line, '\n');

			if (nl) {
				if (skip) {
					fprintf(stderr, "cma: %u: line too long\n", no);
					skip = 0;
				} else {
					*nl = '\0';
					handle_command(line);
				}
				++no;
			} else if (feof(stdin)) {
				handle_command(line);	/* last line without a newline */
			} else {
				skip = 1;
			}
		}
		ret = failures ? 1 : 0;
	}

	while (chunks.next != &chunks)
		do_free(chunks.next);
	if (record && fclose(record)) {
		fprintf(stderr, "cma-test: %s: %s\n", record_path, strerror(errno));
		ret = 2;
	}
	return ret;
}
