/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CMA allocation traces: what cma-test -r records, what cma-test -p and
 * the host benchmark (bench/host/) replay.  docs/benchmarks.md has the
 * full description; in short, one operation per line:
 *
 *   # cma-test record 1                       header (any '#' line is a comment)
 *   cma <cma= string>                         regions the trace was made for
 *   cma_map <cma_map= string>                 and the map (both optional)
 *   alloc <id> <dev> <kind> <size> <align> [<result>]
 *   free <id>
 *
 * <id> numbers an allocation (a positive integer, unique among the live
 * ones); its free, later in the file, ends the chunk's lifetime.  <dev>
 * and <kind> are what the driver would pass to cma_kind_alloc() (at most 16
 * characters each; kind "-" is the empty kind).  <size> and <align> are
 * numbers (decimal or 0x hex, optional K, M or G suffix); align 0 means a
 * page.  <result> is what the recording saw: the chunk's physical
 * address (0x hex) or an errno name (ENOMEM, ENOENT, ... or E<number>);
 * without it (hand-made and generated traces) a replay checks nothing
 * and only counts failures.  "a" and "f" are short for "alloc" and
 * "free".
 */
#ifndef CMA_TRACE_H
#define CMA_TRACE_H

#include <stddef.h>

#define TRACE_HEADER "# cma-test record 1"
#define TRACE_NAME_MAX 16

enum trace_type {
	TRACE_NONE,		/* blank line or comment */
	TRACE_ALLOC,
	TRACE_FREE,
	TRACE_CMA,		/* cma <string>: text in .text */
	TRACE_CMA_MAP,		/* cma_map <string>: text in .text */
	TRACE_ERROR,		/* unreadable: the reason is in .text */
};

enum trace_result {
	TRACE_UNCHECKED,	/* no result recorded */
	TRACE_ADDR,		/* .addr */
	TRACE_ERRNO,		/* .err */
};

struct trace_op {
	enum trace_type type;
	unsigned long id;
	char dev[TRACE_NAME_MAX + 1];
	char kind[TRACE_NAME_MAX + 1];	/* "" for the empty kind */
	unsigned long long size, align;
	enum trace_result result;
	unsigned long long addr;
	int err;
	char text[512];
};

/*
 * trace_parse() - read one line of a trace into @op.
 * Returns op->type.  Never writes to @line.
 */
enum trace_type trace_parse(const char *line, struct trace_op *op);

/*
 * A capture of the kernel's CMA trace events read as a trace: the lines of
 * tracefs's "trace" file (or trace_pipe, or trace-cmd report) with the
 * events cma_regions/cma_regions_alloc_finish and cma_regions_release
 * enabled.  trace_parse_event() reads one line: an allocation that
 * succeeded is a TRACE_ALLOC (a new id, its result the address, the region
 * the kernel took it from in .text), its release a TRACE_FREE of that id
 * (found by address among the live ones); an allocation that failed is a
 * TRACE_ALLOC with its errno and an empty .text; every other line
 * (headers, other events) is TRACE_NONE, and TRACE_ERROR says why an
 * event's line is unreadable (a release of an address not allocated in
 * the capture is one).  @st starts zeroed; trace_events_free() frees it.
 */
struct trace_events {
	unsigned long next_id;
	struct trace_live {
		unsigned long long addr;
		unsigned long id;
	} *live;
	size_t n, cap;
};

enum trace_type trace_parse_event(struct trace_events *st, const char *line,
				  struct trace_op *op);
void trace_events_free(struct trace_events *st);

/* A number with an optional K, M or G suffix; 0 on success. */
int trace_parse_size(const char *s, const char **end, unsigned long long *val);

/* errno <-> name ("ENOMEM", or "E<number>" for the ones without a name). */
const char *trace_errname(int e);
int trace_errnum(const char *name);

/*
 * Latency statistics: trace_stats_add() collects nanoseconds,
 * trace_stats_pct() sorts (once) and gives a percentile (0..100).
 */
struct trace_stats {
	unsigned long long *ns;
	size_t n, cap;
	int sorted;
};

void trace_stats_add(struct trace_stats *s, unsigned long long ns);
unsigned long long trace_stats_pct(struct trace_stats *s, double pct);
void trace_stats_free(struct trace_stats *s);

#endif
