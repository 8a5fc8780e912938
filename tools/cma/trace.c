// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CMA allocation traces: the parser shared by cma-test and the host
 * benchmark.  The format is described in trace.h and docs/benchmarks.md.
 */
#include "trace.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

int trace_parse_size(const char *s, const char **end, unsigned long long *val)
{
	unsigned long long v;
	char *e;
	int shift = 0;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &e, 0);
	if (errno)
		return -1;
	switch (*e) {
	case 'G': case 'g':
		shift = 30;
		break;
	case 'M': case 'm':
		shift = 20;
		break;
	case 'K': case 'k':
		shift = 10;
		break;
	}
	if (shift) {
		if (v > (ULLONG_MAX >> shift))
			return -1;
		v <<= shift;
		e++;
	}
	*end = e;
	*val = v;
	return 0;
}

static const struct {
	int err;
	const char *name;
} errnames[] = {
	{ EINVAL, "EINVAL" }, { ENOENT, "ENOENT" }, { ENOMEM, "ENOMEM" },
	{ ENOTTY, "ENOTTY" }, { EBADFD, "EBADFD" }, { EFAULT, "EFAULT" },
	{ ENOSPC, "ENOSPC" }, { ENODEV, "ENODEV" }, { EACCES, "EACCES" },
	{ EPERM, "EPERM" }, { EAGAIN, "EAGAIN" }, { EBUSY, "EBUSY" },
};

const char *trace_errname(int e)
{
	static char buf[16];
	size_t i;

	for (i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (errnames[i].err == e)
			return errnames[i].name;
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

int trace_errnum(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (!strcmp(errnames[i].name, name))
			return errnames[i].err;
	if (name[0] == 'E' && isdigit((unsigned char)name[1]))
		return atoi(name + 1);
	return -1;
}

/* The next word of *s (at most @max characters) into @buf; 0 on success. */
static int word(const char **s, char *buf, size_t max)
{
	const char *p = skip_space(*s), *q = p;

	while (*q && !isspace((unsigned char)*q))
		q++;
	if (q == p || (size_t)(q - p) > max)
		return -1;
	memcpy(buf, p, q - p);
	buf[q - p] = '\0';
	*s = q;
	return 0;
}

static enum trace_type bad(struct trace_op *op, const char *why)
{
	op->type = TRACE_ERROR;
	snprintf(op->text, sizeof(op->text), "%s", why);
	return TRACE_ERROR;
}

static int number(const char **s, unsigned long long *v)
{
	const char *p = skip_space(*s), *e;

	if (trace_parse_size(p, &e, v) || (*e && !isspace((unsigned char)*e)))
		return -1;
	*s = e;
	return 0;
}

/* A directive's argument: the rest of the line, spaces trimmed. */
static enum trace_type directive(struct trace_op *op, enum trace_type type,
				 const char *s)
{
	size_t n;

	s = skip_space(s);
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= sizeof(op->text))
		return bad(op, "directive too long");
	memcpy(op->text, s, n);
	op->text[n] = '\0';
	op->type = type;
	return type;
}

enum trace_type trace_parse(const char *line, struct trace_op *op)
{
	char cmd[16], res[32];
	const char *s;
	unsigned long long id;

	memset(op, 0, sizeof(*op));
	s = skip_space(line);
	if (!*s || *s == '#')
		return op->type = TRACE_NONE;
	if (word(&s, cmd, sizeof(cmd) - 1))
		return bad(op, "unknown operation");
	if (!strcmp(cmd, "cma"))
		return directive(op, TRACE_CMA, s);
	if (!strcmp(cmd, "cma_map"))
		return directive(op, TRACE_CMA_MAP, s);
	if (strcmp(cmd, "alloc") && strcmp(cmd, "a") && strcmp(cmd, "free") &&
	    strcmp(cmd, "f"))
		return bad(op, "unknown operation");
	s = skip_space(s);
	if (!isdigit((unsigned char)*s) || number(&s, &id) || !id || id > ULONG_MAX)
		return bad(op, "bad id");
	op->id = id;
	if (cmd[0] == 'f') {
		if (*skip_space(s))
			return bad(op, "unexpected text after the id");
		return op->type = TRACE_FREE;
	}
	if (word(&s, op->dev, TRACE_NAME_MAX))
		return bad(op, "missing device, or longer than 16 characters");
	if (word(&s, op->kind, TRACE_NAME_MAX))
		return bad(op, "missing kind, or longer than 16 characters");
	if (!strcmp(op->kind, "-"))
		op->kind[0] = '\0';
	if (number(&s, &op->size) || !op->size)
		return bad(op, "bad size");
	if (number(&s, &op->align) || (op->align & (op->align - 1)))
		return bad(op, "bad alignment (0 or a power of two)");
	s = skip_space(s);
	if (*s) {
		if (word(&s, res, sizeof(res) - 1) || *skip_space(s))
			return bad(op, "unexpected text after the result");
		if (res[0] == 'E') {
			op->err = trace_errnum(res);
			if (op->err < 0)
				return bad(op, "bad result");
			op->result = TRACE_ERRNO;
		} else {
			const char *r = res;

			if (number(&r, &op->addr))
				return bad(op, "bad result");
			op->result = TRACE_ADDR;
		}
	}
	return op->type = TRACE_ALLOC;
}

/* Trace events (tracefs) */

/* The value of "KEY=" in @line (up to the next space) into @buf; 0 if found. */
static int field(const char *line, const char *key, char *buf, size_t max)
{
	size_t k = strlen(key), n;
	const char *p = line;

	while ((p = strstr(p, key))) {
		if (p > line && !isspace((unsigned char)p[-1])) {
			p += k;
			continue;
		}
		p += k;
		n = strcspn(p, " \t\r\n");
		if (n >= max)
			return -1;
		memcpy(buf, p, n);
		buf[n] = '\0';
		return 0;
	}
	return -1;
}

static int field_num(const char *line, const char *key, unsigned long long *v)
{
	char buf[32];
	const char *e;

	if (field(line, key, buf, sizeof(buf)))
		return -1;
	if (buf[0] == '-') {
		long long x = strtoll(buf, (char **)&e, 10);

		*v = (unsigned long long)x;
		return *e ? -1 : 0;
	}
	return trace_parse_size(buf, &e, v) || *e ? -1 : 0;
}

/* "owner=DEV/KIND": the device and the kind ("" for the empty kind). */
static int owner(const char *line, struct trace_op *op)
{
	char buf[2 * TRACE_NAME_MAX + 2], *slash;

	if (field(line, "owner=", buf, sizeof(buf)))
		return -1;
	slash = strchr(buf, '/');
	if (!slash || slash == buf || strlen(slash + 1) > TRACE_NAME_MAX ||
	    (size_t)(slash - buf) > TRACE_NAME_MAX)
		return -1;
	*slash = '\0';
	strcpy(op->dev, buf);
	strcpy(op->kind, slash + 1);
	return 0;
}

enum trace_type trace_parse_event(struct trace_events *st, const char *line,
				  struct trace_op *op)
{
	unsigned long long size, align, addr, err;
	char region[sizeof(op->text)];
	size_t i;

	memset(op, 0, sizeof(*op));
	if (strstr(line, " cma_regions_alloc_finish: ")) {
		if (owner(line, op) || field(line, "region=", region, sizeof(region)) ||
		    field_num(line, "size=", &size) || field_num(line, "align=", &align) ||
		    field_num(line, "addr=", &addr) || field_num(line, "err=", &err))
			return bad(op, "an alloc_finish event without its owner, region, size, align, addr or err");
		if (!size || (align & (align - 1)))
			return bad(op, "an alloc_finish event with a bad size or alignment");
		op->id = ++st->next_id;
		op->size = size;
		op->align = align;
		if (err) {
			op->result = TRACE_ERRNO;
			op->err = -(int)err;
			return op->type = TRACE_ALLOC;
		}
		if (st->n == st->cap) {
			size_t cap = st->cap ? 2 * st->cap : 256;
			struct trace_live *l = realloc(st->live, cap * sizeof(*l));

			if (!l)
				return bad(op, "out of memory");
			st->live = l;
			st->cap = cap;
		}
		st->live[st->n].addr = addr;
		st->live[st->n++].id = op->id;
		op->result = TRACE_ADDR;
		op->addr = addr;
		strcpy(op->text, region);
		return op->type = TRACE_ALLOC;
	}
	if (strstr(line, " cma_regions_release: ")) {
		if (field_num(line, "addr=", &addr))
			return bad(op, "a release event without its addr");
		for (i = st->n; i-- > 0;)
			if (st->live[i].addr == addr)
				break;
		if (i == (size_t)-1)
			return bad(op, "a release of an address the capture did not allocate");
		op->id = st->live[i].id;
		st->live[i] = st->live[--st->n];
		return op->type = TRACE_FREE;
	}
	return op->type = TRACE_NONE;
}

void trace_events_free(struct trace_events *st)
{
	free(st->live);
	memset(st, 0, sizeof(*st));
}

/* Statistics */

void trace_stats_add(struct trace_stats *s, unsigned long long ns)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		unsigned long long *p = realloc(s->ns, cap * sizeof(*p));

		if (!p)
			return;		/* statistics degrade, nothing else */
		s->ns = p;
		s->cap = cap;
	}
	s->ns[s->n++] = ns;
	s->sorted = 0;
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

unsigned long long trace_stats_pct(struct trace_stats *s, double pct)
{
	size_t i;

	if (!s->n)
		return 0;
	if (!s->sorted) {
		qsort(s->ns, s->n, sizeof(*s->ns), cmp_ull);
		s->sorted = 1;
	}
	i = (size_t)(pct / 100.0 * (double)(s->n - 1) + 0.5);
	return s->ns[i < s->n ? i : s->n - 1];
}

void trace_stats_free(struct trace_stats *s)
{
	free(s->ns);
	s->ns = NULL;
	s->n = s->cap = 0;
}
