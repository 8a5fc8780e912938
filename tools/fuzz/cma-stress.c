// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cma-stress: random allocations and frees through /dev/cma from several
 * processes, some killed with SIGKILL midway, with the CMA statistics
 * checked against what the processes hold (docs/fuzzing-guest.md).
 *
 *   cma-stress [-d DEVICE] [-s SEED] [-n OPS] [-p PROCS] [-k KILLS]
 *              [-c CHECKS] [-l LIVE] [-z MAXSIZE] [-m MAPPCT] [-Z]
 *              -r REGION[,REGION...] DEV[/KIND]...
 *
 * PROCS workers (default 4) do OPS operations in all (default 100000):
 * each allocates (a random DEV/KIND of the list, a size from one page to
 * MAXSIZE (default 1M) spread evenly over the powers of two, sometimes not
 * a whole number of pages, an alignment of 0 or 4K..1M) or frees one of
 * the at most LIVE (default 16) chunks it holds.  MAPPCT percent (default
 * 25) of the chunks are mmapped and every page stamped with the chunk's
 * own number; the stamps are checked when the chunk is freed (two chunks
 * sharing memory would overwrite each other's).  Some mapped chunks have
 * their file closed first: the mapping keeps the chunk.  A free is
 * munmap() and close() in either order.  With -Z a new chunk must read as
 * zeroes (a chunk holding the previous owner's data fails).
 *
 * KILLS times (default PROCS) a random worker is killed with SIGKILL at a
 * random point and a new one started in its place.  CHECKS times (default
 * 4), and once more at the end, every worker stops between two
 * operations and the statistics of the REGIONs (the regions the DEV/KINDs
 * are routed to, and nobody else uses) must show exactly what the workers
 * hold: sysfs "used" and "chunks" (over the values at the start), and the
 * set of chunks debugfs lists, address by address.  After every worker has
 * exited "used" and "chunks" must be back where they started, and
 * "alloc_ok" must have grown by the allocations the workers made (up to
 * one more per worker killed in the middle of one).
 *
 * Everything random comes from SEED (printed first).  Exit status 0, 1 on
 * any failed check, an unexpected errno (anything but ENOMEM), a stamp
 * that changed, or a worker that died of something else than our SIGKILL.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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
#include <sys/wait.h>

#include <linux/cma.h>

#define PAGE 4096UL
#define MAX_WORKERS 16
#define MAX_LIVE 64
#define MAX_REQ 16
#define MAX_REGIONS 16

struct livechunk {
	uint64_t start, size;
};

struct slot {
	volatile int paused, done, inflight;
	volatile unsigned long ops, allocs, enomem, frees, mapped, verified, dirty;
	volatile unsigned long live_bytes, live_n;
	struct livechunk live[MAX_LIVE];
};

struct shared {
	volatile unsigned long total;
	volatile int pause, quit;
	struct slot s[MAX_WORKERS];
};

struct chunk {
	int fd;
	uint64_t start, size;
	uint32_t *map;
	uint32_t stamp;
};

static const char *device = "/dev/cma";
static const char *sysfs = "/sys/kernel/mm/cma", *chunks_file = "/sys/kernel/debug/cma/chunks";
static char *reqs[MAX_REQ];
static int nreqs;
static char *regions[MAX_REGIONS];
static int nregions;
static struct shared *sh;
static unsigned long max_ops = 100000, max_size = 1 << 20;
static int max_live = 16, map_pct = 25, want_zero;
static uint64_t rng_state;

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd(void) { return splitmix(&rng_state); }
static uint32_t below(uint32_t n) { return n ? (uint32_t)(rnd() % n) : 0; }
static int chance(int pct) { return below(100) < (uint32_t)pct; }

static uint64_t seed_of(uint64_t seed, int w, int g)
{
	uint64_t x = seed ^ ((uint64_t)w << 40) ^ ((uint64_t)g << 20);

	splitmix(&x);
	return splitmix(&x);
}

static const char *ename(int e)
{
	switch (e) {
	case ENOMEM: return "ENOMEM";
	case ENOENT: return "ENOENT";
	case EINVAL: return "EINVAL";
	case EBADFD: return "EBADFD";
	case EFAULT: return "EFAULT";
	case ENOTTY: return "ENOTTY";
	case EINTR: return "EINTR";
	default: return strerror(e);
	}
}

/* ---- the worker ---- */
static struct chunk ch[MAX_LIVE];
static int nch;
static struct slot *me;
static int wid, wgen;
static uint32_t serial;

static void mirror(int i)
{
	me->live[i].start = ch[i].start;
	me->live[i].size = ch[i].size;
}

static void wfail(const char *fmt, uint64_t a, uint64_t b, uint64_t c)
{
	printf("cma-stress: FAIL: worker %d.%d: ", wid, wgen);
	printf(fmt, (unsigned long long)a, (unsigned long long)b, (unsigned long long)c);
	printf("\n");
	fflush(stdout);
	_exit(3);
}

static void do_alloc(void)
{
	struct cma_alloc_request r;
	char *req = reqs[below(nreqs)], *slash = strchr(req, '/');
	unsigned int maxlog = 0, lg;
	unsigned long pages, maxpages = max_size / PAGE;
	int fd, ret, e;
	struct chunk *c;

	while ((2UL << maxlog) <= maxpages)
		maxlog++;
	lg = below(maxlog + 1);
	pages = (1UL << lg) + below(1UL << lg);
	if (pages > maxpages)
		pages = maxpages;
	memset(&r, 0, sizeof(r));
	r.magic = CMA_MAGIC;
	if (slash) {
		memcpy(r.name, req, slash - req);
		strcpy(r.kind, slash + 1);
	} else {
		strcpy(r.name, req);
	}
	r.size = pages * PAGE - (chance(25) ? below(PAGE) : 0);
	r.alignment = chance(60) ? 0 : PAGE << below(9);

	fd = open(device, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		wfail("open %.0llu%.0llu: errno %llu", 0, 0, errno);
	me->inflight = 1;
	ret = ioctl(fd, IOCTL_CMA_ALLOC, &r);
	e = errno;
	if (ret < 0) {
		me->inflight = 0;
		close(fd);
		if (e == ENOMEM) {
			me->enomem++;
			return;
		}
		printf("cma-stress: FAIL: worker %d.%d: %s 0x%llx/0x%llx: %s\n", wid, wgen, req,
		       (unsigned long long)r.size, (unsigned long long)r.alignment, ename(e));
		fflush(stdout);
		_exit(3);
	}
	c = &ch[nch];
	c->fd = fd;
	c->start = r.start;
	c->size = (r.size + PAGE - 1) & ~(PAGE - 1);
	c->map = NULL;
	c->stamp = ((uint32_t)wid << 28) ^ ((uint32_t)wgen << 20) ^ ++serial;
	mirror(nch);
	me->live_n = ++nch;
	me->live_bytes += c->size;
	me->allocs++;
	me->inflight = 0;
	if (r.alignment && (r.start & (r.alignment - 1)))
		wfail("chunk 0x%llx is not aligned to 0x%llx%.0llu", r.start, r.alignment, 0);

	if (chance(map_pct)) {
		void *a = mmap(NULL, c->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		unsigned long i, words = PAGE / 4;

		if (a == MAP_FAILED)
			wfail("mmap of chunk 0x%llx (0x%llx bytes): errno %llu", c->start, c->size, errno);
		c->map = a;
		me->mapped++;
		for (i = 0; i < c->size / 4; i += words) {
			if (c->map[i] != 0 || c->map[i + words - 1] != 0) {
				me->dirty++;
				if (want_zero)
					wfail("new chunk 0x%llx holds data at +0x%llx (0x%llx)", c->start,
					      i * 4, c->map[i] ? c->map[i] : c->map[i + words - 1]);
			}
			c->map[i] = c->stamp;
			c->map[i + words - 1] = c->stamp;
		}
		if (chance(15)) {	/* the mapping alone keeps the chunk */
			close(fd);
			c->fd = -1;
		}
	}
}

static void do_free(void)
{
	int i = below(nch);
	struct chunk *c = &ch[i];

	if (c->map) {
		unsigned long j, words = PAGE / 4;

		for (j = 0; j < c->size / 4; j += words)
			if (c->map[j] != c->stamp || c->map[j + words - 1] != c->stamp)
				wfail("chunk 0x%llx: page +0x%llx lost its stamp (holds 0x%llx)", c->start,
				      j * 4, c->map[j] != c->stamp ? c->map[j] : c->map[j + words - 1]);
		me->verified++;
		if (c->fd >= 0 && chance(50)) {
			close(c->fd);
			c->fd = -1;
		}
		munmap(c->map, c->size);
	}
	if (c->fd >= 0)
		close(c->fd);
	me->live_bytes -= c->size;
	me->frees++;
	ch[i] = ch[--nch];
	mirror(i);
	me->live_n = nch;
}

static void wait_unpaused(int final)
{
	me->paused = 1;
	if (final)
		me->done = 1;
	while (final ? !sh->quit : sh->pause)
		usleep(1000);
	me->paused = 0;
}

static void worker(int w, int g, uint64_t seed)
{
	wid = w;
	wgen = g;
	me = &sh->s[w];
	rng_state = seed_of(seed, w, g);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (;;) {
		if (sh->pause)
			wait_unpaused(0);
		if (__atomic_fetch_add(&sh->total, 1, __ATOMIC_RELAXED) >= max_ops)
			break;
		me->ops++;
		if (nch == 0 || (nch < max_live && chance(55)))
			do_alloc();
		else
			do_free();
	}
	wait_unpaused(1);
	/* every chunk by hand half of the time, else exit frees them */
	if (chance(50))
		while (nch)
			do_free();
	exit(0);
}

/* ---- the parent's checks ---- */
static int failures;

static long long read_stat(const char *reg, const char *what)
{
	char path[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", sysfs, reg, what);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%lld", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

static long long sum_stat(const char *what)
{
	long long s = 0, v;
	int i;

	for (i = 0; i < nregions; i++) {
		v = read_stat(regions[i], what);
		if (v < 0) {
			printf("cma-stress: FAIL: cannot read %s/%s/%s\n", sysfs, regions[i], what);
			failures++;
			return -1;
		}
		s += v;
	}
	return s;
}

static int in_regions(const char *name)
{
	int i;

	for (i = 0; i < nregions; i++)
		if (!strcmp(regions[i], name))
			return 1;
	return 0;
}

static int cmp_chunk(const void *a, const void *b)
{
	const struct livechunk *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static struct livechunk want[MAX_WORKERS * MAX_LIVE], got[MAX_WORKERS * MAX_LIVE + 64];

/* What the workers hold (all stopped) against sysfs and debugfs */
static void check(const char *what, int procs, long long base_used, long long base_chunks)
{
	unsigned long bytes = 0, n = 0, ngot = 0, i;
	long long used, nchunks;
	char line[256], reg[64];
	int w, bad = 0;
	FILE *f;

	for (w = 0; w < procs; w++) {
		struct slot *s = &sh->s[w];

		for (i = 0; i < s->live_n; i++)
			want[n++] = s->live[i];
		bytes += s->live_bytes;
	}
	used = sum_stat("used") - base_used;
	nchunks = sum_stat("chunks") - base_chunks;
	qsort(want, n, sizeof(want[0]), cmp_chunk);
	for (i = 1; i < n; i++)
		if (want[i - 1].start + want[i - 1].size > want[i].start) {
			printf("cma-stress: FAIL: %s: chunks 0x%llx+0x%llx and 0x%llx overlap\n", what,
			       (unsigned long long)want[i - 1].start,
			       (unsigned long long)want[i - 1].size, (unsigned long long)want[i].start);
			bad = 1;
		}
	f = fopen(chunks_file, "r");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			unsigned long long st, sz;

			if (sscanf(line, "0x%llx: size=0x%llx region=%63s", &st, &sz, reg) == 3 &&
			    in_regions(reg) && ngot < sizeof(got) / sizeof(got[0]))
				got[ngot++] = (struct livechunk){ st, sz };
		}
		fclose(f);
		qsort(got, ngot, sizeof(got[0]), cmp_chunk);
		if (ngot != n || memcmp(got, want, n * sizeof(want[0]))) {
			unsigned long a = 0, b = 0, shown = 0;

			printf("cma-stress: FAIL: %s: debugfs lists %lu chunks in the regions, the workers hold %lu\n",
			       what, ngot, n);
			while ((a < n || b < ngot) && shown < 10) {	/* the differences */
				if (b >= ngot || (a < n && want[a].start < got[b].start)) {
					printf("cma-stress:   held, not listed: 0x%llx+0x%llx\n",
					       (unsigned long long)want[a].start, (unsigned long long)want[a].size);
					a++, shown++;
				} else if (a >= n || got[b].start < want[a].start) {
					printf("cma-stress:   listed, not held: 0x%llx+0x%llx\n",
					       (unsigned long long)got[b].start, (unsigned long long)got[b].size);
					b++, shown++;
				} else {
					if (got[b].size != want[a].size) {
						printf("cma-stress:   0x%llx: listed 0x%llx bytes, held 0x%llx\n",
						       (unsigned long long)got[b].start,
						       (unsigned long long)got[b].size,
						       (unsigned long long)want[a].size);
						shown++;
					}
					a++, b++;
				}
			}
			bad = 1;
		}
	} else {
		printf("cma-stress: note: no %s: chunks not compared\n", chunks_file);
	}
	if (used != (long long)bytes || nchunks != (long long)n)
		bad = 1;
	printf("cma-stress: %s: workers hold %lu chunks, %lu bytes; sysfs: %lld chunks, %lld bytes "
	       "used over the start; debugfs: %lu chunks: %s\n",
	       what, n, bytes, nchunks, used, ngot, bad ? "FAIL" : "ok");
	failures += bad;
}

/* Stop every worker between two operations */
static int pause_all(int procs, pid_t *pid, int final)
{
	int w, waited = 0;

	if (!final)
		sh->pause = 1;
	for (;;) {
		int all = 1;

		for (w = 0; w < procs; w++)
			if (pid[w] > 0 && !(final ? sh->s[w].done : sh->s[w].paused))
				all = 0;
		if (all)
			return 0;
		if (++waited > 120000) {
			printf("cma-stress: FAIL: workers did not stop within 120 s\n");
			failures++;
			return -1;
		}
		usleep(1000);
	}
}

int main(int argc, char **argv)
{
	uint64_t seed;
	unsigned long kills = ~0UL, checks = 4, killed = 0, nchecked = 0, *kill_at, i, sum_allocs = 0;
	unsigned long ambiguous = 0, enomem = 0, frees = 0, mapped = 0, verified = 0, dirty = 0, sum_ops = 0;
	int procs = 4, opt, w, gen[MAX_WORKERS] = { 0 };
	long long base_used, base_chunks, base_ok, used, nchunks, ok;
	pid_t pid[MAX_WORKERS];
	struct timespec t0, t1;
	struct timeval tv;
	char *end, *tok;
	double secs;

	gettimeofday(&tv, NULL);
	seed = ((uint64_t)tv.tv_sec * 1000003ULL) ^ (uint64_t)tv.tv_usec ^ ((uint64_t)getpid() << 32);
	while ((opt = getopt(argc, argv, "d:s:n:p:k:c:l:z:m:r:S:C:Z")) != -1) {
		switch (opt) {
		case 'd': device = optarg; break;
		case 's': seed = strtoull(optarg, &end, 0); if (*end) goto usage; break;
		case 'n': max_ops = strtoul(optarg, &end, 0); if (*end) goto usage; break;
		case 'p': procs = atoi(optarg); break;
		case 'k': kills = strtoul(optarg, &end, 0); if (*end) goto usage; break;
		case 'c': checks = strtoul(optarg, &end, 0); if (*end) goto usage; break;
		case 'l': max_live = atoi(optarg); break;
		case 'z': max_size = strtoul(optarg, &end, 0); if (*end) goto usage; break;
		case 'm': map_pct = atoi(optarg); break;
		case 'Z': want_zero = 1; break;
		case 'S': sysfs = optarg; break;
		case 'C': chunks_file = optarg; break;
		case 'r':
			for (tok = strtok(optarg, ","); tok && nregions < MAX_REGIONS; tok = strtok(NULL, ","))
				regions[nregions++] = tok;
			break;
		default: goto usage;
		}
	}
	for (; optind < argc && nreqs < MAX_REQ; optind++) {
		char *s = strchr(argv[optind], '/');

		if ((s ? (size_t)(s - argv[optind]) : strlen(argv[optind])) > 16 ||
		    (s && strlen(s + 1) > 16) || !*argv[optind])
			goto usage;
		reqs[nreqs++] = argv[optind];
	}
	if (!nreqs || !nregions || procs < 1 || procs > MAX_WORKERS || max_live < 1 ||
	    max_live > MAX_LIVE || max_size < PAGE)
		goto usage;
	if (kills == ~0UL)
		kills = procs;
	setvbuf(stdout, NULL, _IOLBF, 0);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("cma-stress: mmap");
		return 1;
	}
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	printf("cma-stress: seed %llu ops %lu procs %d kills %lu checks %lu live %d maxsize %lu map %d%% "
	       "regions", (unsigned long long)seed, max_ops, procs, kills, checks, max_live, max_size,
	       map_pct);
	for (i = 0; i < (unsigned long)nregions; i++)
		printf("%c%s", i ? ',' : ' ', regions[i]);
	printf(" requests");
	for (i = 0; i < (unsigned long)nreqs; i++)
		printf(" %s", reqs[i]);
	printf("\n");
	base_used = sum_stat("used");
	base_chunks = sum_stat("chunks");
	base_ok = sum_stat("alloc_ok");
	if (base_used < 0 || base_chunks < 0 || base_ok < 0)
		return 1;
	printf("cma-stress: start: %lld chunks, %lld bytes used, alloc_ok %lld\n", base_chunks,
	       base_used, base_ok);

	rng_state = seed_of(seed, 0xfff, 0);
	kill_at = calloc(kills + 1, sizeof(*kill_at));
	for (i = 0; i < kills; i++)
		kill_at[i] = 1 + below(max_ops - 1);
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
	for (;;) {
		int status, all_done = 1;
		unsigned long total = sh->total;
		pid_t p;

		while (killed < kills && total >= kill_at[killed] && total < max_ops) {
			w = below(procs);
			if (pid[w] > 0 && !sh->s[w].done) {
				kill(pid[w], SIGKILL);
				while (waitpid(pid[w], &status, 0) < 0 && errno == EINTR)
					;
				ambiguous += sh->s[w].inflight;
				printf("cma-stress: killed worker %d.%d at %lu operations (it held %lu chunks, %lu bytes%s)\n",
				       w, gen[w], total, sh->s[w].live_n, sh->s[w].live_bytes,
				       sh->s[w].inflight ? ", in an allocation" : "");
				sh->s[w].live_n = 0;
				sh->s[w].live_bytes = 0;
				sh->s[w].inflight = 0;
				sh->s[w].paused = 0;
				gen[w]++;
				pid[w] = fork();
				if (pid[w] == 0)
					worker(w, gen[w], seed);
			}
			killed++;
		}
		while (nchecked < checks && sh->total >= (nchecked + 1) * (max_ops / (checks + 1))) {
			char what[64];

			nchecked++;
			if (pause_all(procs, pid, 0) == 0) {
				snprintf(what, sizeof(what), "check %lu at %lu operations", nchecked, sh->total);
				check(what, procs, base_used, base_chunks);
			}
			sh->pause = 0;
		}
		for (w = 0; w < procs; w++)
			if (pid[w] > 0 && !sh->s[w].done)
				all_done = 0;
		if (all_done)
			break;
		while ((p = waitpid(-1, &status, WNOHANG)) > 0) {
			for (w = 0; w < procs && pid[w] != p; w++)
				;
			if (w < procs) {
				printf("cma-stress: FAIL: worker %d.%d %s %d\n", w, gen[w],
				       WIFSIGNALED(status) ? "died of signal" : "exited with",
				       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
				failures++;
				pid[w] = 0;
				sh->s[w].live_n = 0;
				sh->s[w].live_bytes = 0;
			}
		}
		usleep(2000);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pause_all(procs, pid, 1);
	check("end, workers stopped", procs, base_used, base_chunks);
	sh->quit = 1;
	for (;;) {	/* the workers and any orphan */
		int status;
		pid_t p = wait(&status);

		if (p < 0 && errno == EINTR)
			continue;
		if (p < 0)
			break;
		for (w = 0; w < procs && pid[w] != p; w++)
			;
		if (w < procs && (!WIFEXITED(status) || WEXITSTATUS(status))) {
			printf("cma-stress: FAIL: worker %d.%d ended with status %#x\n", w, gen[w], status);
			failures++;
		}
	}
	for (w = 0; w < procs; w++) {
		struct slot *s = &sh->s[w];

		sum_ops += s->ops;
		sum_allocs += s->allocs;
		enomem += s->enomem;
		frees += s->frees;
		mapped += s->mapped;
		verified += s->verified;
		dirty += s->dirty;
	}
	used = sum_stat("used") - base_used;
	nchunks = sum_stat("chunks") - base_chunks;
	ok = sum_stat("alloc_ok") - base_ok;
	i = used == 0 && nchunks == 0;
	printf("cma-stress: end, every worker gone: sysfs: %lld chunks, %lld bytes used over the start: %s\n",
	       nchunks, used, i ? "ok" : "FAIL");
	failures += !i;
	i = ok >= (long long)sum_allocs && ok <= (long long)(sum_allocs + ambiguous);
	printf("cma-stress: alloc_ok grew by %lld, the workers made %lu allocations (+%lu killed in one): %s\n",
	       ok, sum_allocs, ambiguous, i ? "ok" : "FAIL");
	failures += !i;
	secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("cma-stress: done: seed %llu: %lu operations in %.1f s (%.0f/s): %lu allocations, %lu ENOMEM, "
	       "%lu frees, %lu mapped (%lu verified, %lu pages not zeroed when new), %lu killed, %lu checks, %d failures\n",
	       (unsigned long long)seed, sum_ops, secs, secs > 0 ? sum_ops / secs : 0.0, sum_allocs, enomem,
	       frees, mapped, verified, dirty, killed, nchecked + 1, failures);
	return failures ? 1 : 0;
usage:
	fprintf(stderr, "usage: cma-stress [-d DEVICE] [-s SEED] [-n OPS] [-p PROCS] [-k KILLS] [-c CHECKS]\n"
			"                  [-l LIVE] [-z MAXSIZE] [-m MAPPCT] [-Z] -r REGION[,REGION...] DEV[/KIND]...\n");
	return 1;
}
