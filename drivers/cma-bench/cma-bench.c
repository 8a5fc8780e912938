// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cma-bench: replay CMA allocation traces with dma_alloc_coherent()
 *
 * The other side of the CMA benchmark (docs/benchmarks.md): the same
 * trace that cma-test replays through /dev/cma is written into
 * /sys/kernel/debug/cma-bench/trace, and each "alloc" becomes a
 * dma_alloc_coherent() of the same (page-rounded) size for a platform
 * device of this module's own, "cma-bench", each "free" a
 * dma_free_coherent().  The page allocator serves them, unless a cma_map=
 * rule names "cma-bench" (the regions serve them) or the kernel is the
 * mainline-cma flavour (6.1's CMA area serves them, with the page allocator
 * behind it); the requested alignment and the device/kind are not used (a
 * coherent buffer is aligned to its size's order anyway).
 *
 *   cat media.trace >/sys/kernel/debug/cma-bench/trace
 *   cat /sys/kernel/debug/cma-bench/result
 *
 * result:
 *   allocations <n> failed <n> frees <n> held <n> bad-lines <n>
 *   bytes-allocated <n>                  (page-rounded, successful ones)
 *   first-failure line <n> size <bytes> | first-failure none
 *   alloc-ns n=<n> p50=<ns> p99=<ns> max=<ns>
 *   free-ns n=<n> p50=<ns> p99=<ns> max=<ns>
 *
 * With api=cma (a kernel with CONFIG_CMA_REGIONS), each "alloc" is
 * instead a __cma_alloc() for the trace's device and kind, and each "free"
 * a cma_kind_put(): the allocation itself, placed by cma_map=, without the
 * /dev/cma ioctl round trip that cma-test's replay times.
 *
 * Writing "reset" to result frees what is still held and clears the
 * figures.
 *
 * With CONFIG_CMA_REGIONS, two more files (docs/benchmarks.md,
 * "Contention"; tests/guest/movable.sh):
 *
 *   echo "DEV KIND SIZE ROUNDS" >/sys/kernel/debug/cma-bench/contend
 *   cat /sys/kernel/debug/cma-bench/contend
 *
 * A kernel thread makes ROUNDS claims of SIZE bytes as DEV/KIND (a movable
 * region under a hog: each migrates) and frees each; meanwhile the writer
 * times, in a loop until the claims end, a 4 KiB dma_alloc_coherent() and
 * dma_free_coherent() of the module's own device "cma-bench" (another
 * device, with its own cma_map= rule), a read of
 * /sys/kernel/mm/cma/<region>/used of the claimed region, and the last
 * cma_kind_put() of one of 64 page-sized chunks of DEV/KIND allocated before
 * the claims.  Reading gives
 *   claims <n> failed <n> claim-ns p50=<ns> max=<ns>
 *   dma4k-ns n=<n> p50=<ns> p99=<ns> max=<ns>
 *   used-read-ns n=<n> p50=<ns> p99=<ns> max=<ns>
 *   put-ns n=<n> p50=<ns> p99=<ns> max=<ns>
 *
 *   echo "atomic DEV KIND" >/sys/kernel/debug/cma-bench/free
 *   echo "reclaim DEV KIND" >/sys/kernel/debug/cma-bench/free
 *
 * allocate a page as DEV/KIND and release it with its last cma_kind_put() with
 * interrupts off and a spinlock held ("atomic"), or inside a reclaim
 * context as lockdep sees one (fs_reclaim_acquire(GFP_KERNEL), what a
 * shrinker runs under: "reclaim").  Neither may sleep, wait for a claim
 * or deadlock; the debug kernel (DEBUG_ATOMIC_SLEEP, lockdep) reports it
 * if they could.  Trace lines are the format of tools/cma/trace.h; "#" lines,
 * blank lines and the "cma"/"cma_map" directives are skipped, anything
 * else (or a size above 1 GiB) counts as a bad line; the first is logged.
 */
#include <linux/cma.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#ifdef CONFIG_CMA_REGIONS
#include <linux/cma-int.h>
#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/sched/mm.h>
#include <linux/spinlock.h>
#endif

#define CMA_BENCH_MAX_OPS	65536	/* timings kept per kind of operation */
#define CMA_BENCH_LINE		256

struct cma_bench_buf {
	unsigned long id;
	size_t size;
	void *cpu;
	dma_addr_t dma;
};

static char *api = "dma";
module_param(api, charp, 0444);
MODULE_PARM_DESC(api, "what an alloc calls: dma (dma_alloc_coherent(), the default) or cma (__cma_alloc(), with CONFIG_CMA_REGIONS)");
static bool use_cma;

static struct platform_device *cma_bench_pdev;
static struct dentry *cma_bench_dir;
static DEFINE_MUTEX(cma_bench_lock);

/* All below under cma_bench_lock. */
static struct cma_bench_buf *held;
static unsigned int nr_held, max_held;
static u64 *alloc_ns, *free_ns;
static unsigned int nr_alloc_ns, nr_free_ns;
static unsigned long allocs, fails, frees, bad_lines, lineno;
static unsigned long long bytes;
static unsigned long first_fail_line;
static size_t first_fail_size;
static char partial[CMA_BENCH_LINE];
static size_t partial_len;

/* Give back a buffer that was allocated. */
static void cma_bench_release(struct cma_bench_buf *b)
{
#ifdef CONFIG_CMA_REGIONS
	if (use_cma) {
		cma_kind_put(b->dma);
		return;
	}
#endif
	dma_free_coherent(&cma_bench_pdev->dev, b->size, b->cpu, b->dma);
}

static void cma_bench_free_all(void)
{
	while (nr_held) {
		struct cma_bench_buf *b = &held[--nr_held];

		if (b->cpu)
			cma_bench_release(b);
	}
}

static void cma_bench_reset(void)
{
	cma_bench_free_all();
	nr_alloc_ns = nr_free_ns = 0;
	allocs = fails = frees = bad_lines = lineno = 0;
	bytes = 0;
	first_fail_line = 0;
	first_fail_size = 0;
	partial_len = 0;
}

static void cma_bench_alloc(unsigned long id, const char *dev, const char *kind,
			    unsigned long long size, unsigned long long align)
{
	struct cma_bench_buf *b;
	u64 t0;

	if (nr_held == max_held) {
		unsigned int n = max_held ? 2 * max_held : 256;
		struct cma_bench_buf *p = kvrealloc(held, max_held * sizeof(*held),
						     n * sizeof(*held), GFP_KERNEL);

		if (!p) {
			bad_lines++;
			return;
		}
		held = p;
		max_held = n;
	}
	b = &held[nr_held++];
	b->id = id;
	b->size = PAGE_ALIGN(size);
	allocs++;
	t0 = ktime_get_ns();
#ifdef CONFIG_CMA_REGIONS
	if (use_cma) {
		unsigned long addr = __cma_alloc(dev, strcmp(kind, "-") ? kind : "",
						 b->size, align);

		b->cpu = IS_ERR_VALUE(addr) ? NULL : (void *)1;
		b->dma = addr;
	} else
#endif
	b->cpu = dma_alloc_coherent(&cma_bench_pdev->dev, b->size, &b->dma,
				    GFP_KERNEL | __GFP_NOWARN);
	if (nr_alloc_ns < CMA_BENCH_MAX_OPS)
		alloc_ns[nr_alloc_ns++] = ktime_get_ns() - t0;
	if (b->cpu)
		bytes += b->size;
	if (!b->cpu && !fails++) {
		first_fail_line = lineno;
		first_fail_size = b->size;
	}
}

static void cma_bench_free(unsigned long id)
{
	unsigned int i;
	u64 t0;

	for (i = 0; i < nr_held && held[i].id != id; i++)
		;
	if (i == nr_held) {
		bad_lines++;
		return;
	}
	if (held[i].cpu) {
		t0 = ktime_get_ns();
		cma_bench_release(&held[i]);
		if (nr_free_ns < CMA_BENCH_MAX_OPS)
			free_ns[nr_free_ns++] = ktime_get_ns() - t0;
		frees++;
	}
	held[i] = held[--nr_held];
}

/* A trace number (memparse(): decimal or 0x, K/M/G suffix) ending a word. */
static int cma_bench_number(char **s, unsigned long long *val)
{
	char *word = strsep(s, " \t"), *end;

	while (word && !*word)		/* runs of blanks */
		word = strsep(s, " \t");
	if (!word || !isdigit(*word))
		return -EINVAL;
	*val = memparse(word, &end);
	return *end ? -EINVAL : 0;
}

/* The next word, or NULL. */
static char *cma_bench_word(char **s)
{
	char *word = strsep(s, " \t");

	while (word && !*word)
		word = strsep(s, " \t");
	return word;
}

/* One line of a trace, NUL-terminated, without its newline. */
static void cma_bench_line(char *line)
{
	unsigned long long id, size, align;
	char *s = strim(line), *op, *dev, *kind;

	lineno++;
	if (!*s || *s == '#')
		return;
	op = cma_bench_word(&s);
	if (!strcmp(op, "cma") || !strcmp(op, "cma_map"))
		return;
	if ((!strcmp(op, "alloc") || !strcmp(op, "a")) &&
	    !cma_bench_number(&s, &id) && id && (dev = cma_bench_word(&s)) &&
	    (kind = cma_bench_word(&s)) && !cma_bench_number(&s, &size) && size &&
	    size <= SZ_1G && !cma_bench_number(&s, &align) &&
	    !(align & (align - 1))) {
		/* an optional recorded result may follow: not used */
		cma_bench_alloc(id, dev, kind, size, align);
		return;
	}
	if ((!strcmp(op, "free") || !strcmp(op, "f")) &&
	    !cma_bench_number(&s, &id) && !cma_bench_word(&s)) {
		cma_bench_free(id);
		return;
	}
	if (!bad_lines++)
		pr_warn("cma-bench: line %lu: cannot parse\n", lineno);
}

static ssize_t cma_bench_trace_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	char *buf, *p, *nl;
	size_t done = 0;

	buf = kmalloc(PAGE_SIZE + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	mutex_lock(&cma_bench_lock);
	while (done < count) {
		size_t n = min_t(size_t, count - done, PAGE_SIZE);

		if (copy_from_user(buf, ubuf + done, n)) {
			mutex_unlock(&cma_bench_lock);
			kfree(buf);
			return done ? done : -EFAULT;
		}
		buf[n] = '\0';
		for (p = buf; p < buf + n; p = nl + 1) {
			nl = memchr(p, '\n', buf + n - p);
			if (!nl) {
				/* keep the start of a line split across writes */
				size_t len = buf + n - p;

				if (partial_len + len >= sizeof(partial))
					len = sizeof(partial) - 1 - partial_len;
				memcpy(partial + partial_len, p, len);
				partial_len += len;
				break;
			}
			*nl = '\0';
			if (partial_len) {
				size_t len = min_t(size_t, nl - p,
						   sizeof(partial) - 1 - partial_len);

				memcpy(partial + partial_len, p, len);
				partial[partial_len + len] = '\0';
				partial_len = 0;
				cma_bench_line(partial);
			} else {
				cma_bench_line(p);
			}
		}
		done += n;
	}
	mutex_unlock(&cma_bench_lock);
	kfree(buf);
	*ppos += count;
	return count;
}

static int cma_bench_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void cma_bench_show_ns(struct seq_file *m, const char *what, u64 *ns,
			      unsigned int n)
{
	if (!n) {
		seq_printf(m, "%s n=0\n", what);
		return;
	}
	sort(ns, n, sizeof(*ns), cma_bench_cmp, NULL);
	seq_printf(m, "%s n=%u p50=%llu p99=%llu max=%llu\n", what, n,
		   ns[(n - 1) / 2], ns[(n - 1) * 99 / 100], ns[n - 1]);
}

static int cma_bench_result_show(struct seq_file *m, void *v)
{
	mutex_lock(&cma_bench_lock);
	if (partial_len) {		/* a last line without a newline */
		partial[partial_len] = '\0';
		partial_len = 0;
		cma_bench_line(partial);
	}
	seq_printf(m, "allocations %lu failed %lu frees %lu held %u bad-lines %lu\n",
		   allocs, fails, frees, nr_held, bad_lines);
	seq_printf(m, "bytes-allocated %llu\n", bytes);
	if (fails)
		seq_printf(m, "first-failure line %lu size %zu\n", first_fail_line,
			   first_fail_size);
	else
		seq_puts(m, "first-failure none\n");
	cma_bench_show_ns(m, "alloc-ns", alloc_ns, nr_alloc_ns);
	cma_bench_show_ns(m, "free-ns", free_ns, nr_free_ns);
	mutex_unlock(&cma_bench_lock);
	return 0;
}

static int cma_bench_result_open(struct inode *inode, struct file *file)
{
	return single_open(file, cma_bench_result_show, NULL);
}

static ssize_t cma_bench_result_write(struct file *file, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	char buf[8] = "";

	if (copy_from_user(buf, ubuf, min(count, sizeof(buf) - 1)))
		return -EFAULT;
	if (strncmp(buf, "reset", 5))
		return -EINVAL;
	mutex_lock(&cma_bench_lock);
	cma_bench_reset();
	mutex_unlock(&cma_bench_lock);
	return count;
}

#ifdef CONFIG_CMA_REGIONS
#define CMA_BENCH_PUTS		64
#define CMA_BENCH_SAMPLES	4096

struct cma_bench_contend {
	char dev[32], kind[32];
	unsigned long size;
	unsigned int rounds, claims, failed;
	u64 claim_ns[64];
	bool done;
	struct completion started;
};

/*
 * One run at a time (held across the run, which reads sysfs: never taken
 * under a seq_file's lock); the last figures under their own lock, taken
 * only to copy them.
 */
static DEFINE_MUTEX(cma_bench_contend_lock);
static DEFINE_MUTEX(cma_bench_contend_out_lock);
static char cma_bench_contend_out[512] = "none\n";

static struct cma_region *cma_bench_found;

/* cma_walk_regions(): find the region holding the address *@data. */
static int cma_bench_region_of(struct cma_region *reg, void *data)
{
	unsigned long addr = *(unsigned long *)data;

	if (addr < cma_region_start(reg) ||
	    addr - cma_region_start(reg) >= cma_region_size(reg))
		return 0;
	cma_bench_found = reg;
	return 1;
}

static int cma_bench_claimer(void *data)
{
	struct cma_bench_contend *c = data;
	unsigned long addr;
	unsigned int i;
	u64 t0;

	complete(&c->started);
	for (i = 0; i < c->rounds; i++) {
		t0 = ktime_get_ns();
		addr = __cma_alloc(c->dev, c->kind, c->size, 0);
		if (IS_ERR_VALUE(addr)) {
			c->failed++;
			continue;
		}
		if (c->claims < ARRAY_SIZE(c->claim_ns))
			c->claim_ns[c->claims] = ktime_get_ns() - t0;
		c->claims++;
		cma_kind_put(addr);
	}
	WRITE_ONCE(c->done, true);
	return 0;
}

static void cma_bench_figures(char *buf, size_t len, const char *what,
			      u64 *ns, unsigned int n)
{
	if (!n) {
		scnprintf(buf, len, "%s n=0\n", what);
		return;
	}
	sort(ns, n, sizeof(*ns), cma_bench_cmp, NULL);
	scnprintf(buf, len, "%s n=%u p50=%llu p99=%llu max=%llu\n", what, n,
		  ns[n / 2], ns[(n * 99) / 100], ns[n - 1]);
}

static int cma_bench_contend_run(struct cma_bench_contend *c)
{
	u64 *dma_ns, *read_ns, put_ns[CMA_BENCH_PUTS], t0;
	unsigned long puts[CMA_BENCH_PUTS];
	unsigned int nd = 0, nr = 0, np = 0, i;
	struct task_struct *t;
	struct cma_region *reg = NULL;
	char path[80], val[32], *o, *res;
	struct file *f = NULL;
	dma_addr_t dma;
	loff_t pos;
	void *cpu;
	int ret = 0;

	dma_ns = vmalloc(CMA_BENCH_SAMPLES * sizeof(u64));
	read_ns = vmalloc(CMA_BENCH_SAMPLES * sizeof(u64));
	res = kzalloc(sizeof(cma_bench_contend_out), GFP_KERNEL);
	if (!dma_ns || !read_ns || !res) {
		ret = -ENOMEM;
		goto out;
	}
	/* The region the claims come from: the one holding a first chunk. */
	for (i = 0; i < CMA_BENCH_PUTS; i++) {
		puts[i] = __cma_alloc(c->dev, c->kind, PAGE_SIZE, 0);
		if (IS_ERR_VALUE(puts[i])) {
			ret = (long)puts[i];
			while (i--)
				cma_kind_put(puts[i]);
			goto out;
		}
	}
	ret = cma_walk_regions(cma_bench_region_of, &puts[0]);
	reg = ret > 0 ? cma_bench_found : NULL;
	ret = 0;
	if (reg) {
		snprintf(path, sizeof(path), "/sys/kernel/mm/cma/%s/used",
			 cma_region_name(reg));
		f = filp_open(path, O_RDONLY, 0);
		if (IS_ERR(f))
			f = NULL;
	}

	init_completion(&c->started);
	t = kthread_create(cma_bench_claimer, c, "cma-bench-claim");
	if (IS_ERR(t)) {
		ret = PTR_ERR(t);
		for (i = 0; i < CMA_BENCH_PUTS; i++)
			cma_kind_put(puts[i]);
		goto out;
	}
	get_task_struct(t);
	wake_up_process(t);
	wait_for_completion(&c->started);
	while (!READ_ONCE(c->done)) {
		if (nd < CMA_BENCH_SAMPLES) {
			t0 = ktime_get_ns();
			cpu = dma_alloc_coherent(&cma_bench_pdev->dev, SZ_4K,
						 &dma, GFP_KERNEL);
			if (cpu)
				dma_free_coherent(&cma_bench_pdev->dev, SZ_4K,
						  cpu, dma);
			dma_ns[nd++] = ktime_get_ns() - t0;
		}
		if (f && nr < CMA_BENCH_SAMPLES) {
			pos = 0;
			t0 = ktime_get_ns();
			kernel_read(f, val, sizeof(val) - 1, &pos);
			read_ns[nr++] = ktime_get_ns() - t0;
		}
		if (np < CMA_BENCH_PUTS) {
			t0 = ktime_get_ns();
			cma_kind_put(puts[np]);
			put_ns[np++] = ktime_get_ns() - t0;
		}
		usleep_range(500, 1000);
	}
	kthread_stop(t);
	put_task_struct(t);
	for (i = np; i < CMA_BENCH_PUTS; i++)
		cma_kind_put(puts[i]);

	o = res;
	scnprintf(o, 128, "claims %u failed %u claim-ms", c->claims,
		  c->failed);
	for (i = 0; i < min_t(unsigned int, c->claims, 8); i++)
		scnprintf(o + strlen(o), 128 - strlen(o), " %llu",
			  div_u64(c->claim_ns[i], NSEC_PER_MSEC));
	strlcat(o, "\n", 512);
	cma_bench_figures(o + strlen(o), 512 - strlen(o), "dma4k-ns", dma_ns,
			  nd);
	cma_bench_figures(o + strlen(o), 512 - strlen(o), "used-read-ns",
			  read_ns, nr);
	cma_bench_figures(o + strlen(o), 512 - strlen(o), "put-ns", put_ns,
			  np);
	mutex_lock(&cma_bench_contend_out_lock);
	strscpy(cma_bench_contend_out, res, sizeof(cma_bench_contend_out));
	mutex_unlock(&cma_bench_contend_out_lock);
out:
	kfree(res);
	if (f)
		filp_close(f, NULL);
	vfree(dma_ns);
	vfree(read_ns);
	return ret;
}

static ssize_t cma_bench_contend_write(struct file *file,
				       const char __user *ubuf, size_t count,
				       loff_t *ppos)
{
	struct cma_bench_contend *c;
	char *buf;
	int ret;

	if (count >= 128)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c) {
		kfree(buf);
		return -ENOMEM;
	}
	ret = sscanf(buf, "%31s %31s %lu %u", c->dev, c->kind, &c->size,
		     &c->rounds);
	kfree(buf);
	if (ret != 4 || !c->size || !c->rounds) {
		kfree(c);
		return -EINVAL;
	}
	if (!strcmp(c->kind, "-"))
		c->kind[0] = '\0';
	mutex_lock(&cma_bench_contend_lock);
	ret = cma_bench_contend_run(c);
	mutex_unlock(&cma_bench_contend_lock);
	kfree(c);
	return ret ?: count;
}

static int cma_bench_contend_show(struct seq_file *m, void *v)
{
	mutex_lock(&cma_bench_contend_out_lock);
	seq_puts(m, cma_bench_contend_out);
	mutex_unlock(&cma_bench_contend_out_lock);
	return 0;
}

static int cma_bench_contend_open(struct inode *inode, struct file *file)
{
	return single_open(file, cma_bench_contend_show, NULL);
}

static const struct file_operations cma_bench_contend_fops = {
	.owner = THIS_MODULE,
	.open = cma_bench_contend_open,
	.read = seq_read,
	.write = cma_bench_contend_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static DEFINE_SPINLOCK(cma_bench_atomic_lock);

static ssize_t cma_bench_free_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	char *buf, how[16], dev[32], kind[32];
	unsigned long addr, flags;
	int ret;

	if (count >= 96)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = sscanf(buf, "%15s %31s %31s", how, dev, kind);
	kfree(buf);
	if (ret != 3)
		return -EINVAL;
	if (!strcmp(kind, "-"))
		kind[0] = '\0';
	if (strcmp(how, "atomic") && strcmp(how, "reclaim"))
		return -EINVAL;
	addr = __cma_alloc(dev, kind, PAGE_SIZE, 0);
	if (IS_ERR_VALUE(addr))
		return (long)addr;
	if (!strcmp(how, "atomic")) {
		spin_lock_irqsave(&cma_bench_atomic_lock, flags);
		ret = cma_kind_put(addr);
		spin_unlock_irqrestore(&cma_bench_atomic_lock, flags);
	} else {
		fs_reclaim_acquire(GFP_KERNEL);
		ret = cma_kind_put(addr);
		fs_reclaim_release(GFP_KERNEL);
	}
	pr_info("cma-bench: %s: last cma_kind_put() of %s/%s at %#lx: %d\n", how,
		dev, kind, addr, ret);
	return ret == 1 ? count : -EIO;
}

static const struct file_operations cma_bench_free_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = cma_bench_free_write,
	.llseek = no_llseek,
};
#endif

static const struct file_operations cma_bench_trace_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = cma_bench_trace_write,
	.llseek = no_llseek,
};

static const struct file_operations cma_bench_result_fops = {
	.owner = THIS_MODULE,
	.open = cma_bench_result_open,
	.read = seq_read,
	.write = cma_bench_result_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int __init cma_bench_init(void)
{
	int ret;

	if (!strcmp(api, "cma")) {
		if (!IS_ENABLED(CONFIG_CMA_REGIONS)) {
			pr_err("cma-bench: api=cma needs a kernel with CONFIG_CMA_REGIONS\n");
			return -EINVAL;
		}
		use_cma = true;
	} else if (strcmp(api, "dma")) {
		pr_err("cma-bench: api=%s: not dma or cma\n", api);
		return -EINVAL;
	}
	alloc_ns = vmalloc(CMA_BENCH_MAX_OPS * sizeof(*alloc_ns));
	free_ns = vmalloc(CMA_BENCH_MAX_OPS * sizeof(*free_ns));
	if (!alloc_ns || !free_ns) {
		ret = -ENOMEM;
		goto err;
	}
	cma_bench_pdev = platform_device_register_simple("cma-bench", -1, NULL, 0);
	if (IS_ERR(cma_bench_pdev)) {
		ret = PTR_ERR(cma_bench_pdev);
		goto err;
	}
	ret = dma_coerce_mask_and_coherent(&cma_bench_pdev->dev, DMA_BIT_MASK(32));
	if (ret)
		goto err_pdev;
	cma_bench_dir = debugfs_create_dir("cma-bench", NULL);
	debugfs_create_file("trace", 0200, cma_bench_dir, NULL, &cma_bench_trace_fops);
	debugfs_create_file("result", 0600, cma_bench_dir, NULL, &cma_bench_result_fops);
#ifdef CONFIG_CMA_REGIONS
	debugfs_create_file("contend", 0600, cma_bench_dir, NULL, &cma_bench_contend_fops);
	debugfs_create_file("free", 0200, cma_bench_dir, NULL, &cma_bench_free_fops);
#endif
	return 0;

err_pdev:
	platform_device_unregister(cma_bench_pdev);
err:
	vfree(alloc_ns);
	vfree(free_ns);
	return ret;
}

static void __exit cma_bench_exit(void)
{
	debugfs_remove_recursive(cma_bench_dir);
	mutex_lock(&cma_bench_lock);
	cma_bench_reset();
	mutex_unlock(&cma_bench_lock);
	kvfree(held);
	platform_device_unregister(cma_bench_pdev);
	vfree(alloc_ns);
	vfree(free_ns);
}

module_init(cma_bench_init);
module_exit(cma_bench_exit);
MODULE_DESCRIPTION("Replay CMA allocation traces with dma_alloc_coherent()");
MODULE_LICENSE("GPL");
