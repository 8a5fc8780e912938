/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: <linux/refcount.h>, atomic, and saturating like the kernel's
 * (with a warning) instead of wrapping.
 */
#ifndef __SHIM_LINUX_REFCOUNT_H
#define __SHIM_LINUX_REFCOUNT_H

#include <limits.h>
#include <linux/kernel.h>

typedef struct {
	int refs;
} refcount_t;

#define REFCOUNT_SATURATED	(INT_MIN / 2)

static inline void refcount_set(refcount_t *r, int n)
{
	__atomic_store_n(&r->refs, n, __ATOMIC_SEQ_CST);
}

static inline unsigned int refcount_read(const refcount_t *r)
{
	return __atomic_load_n(&r->refs, __ATOMIC_SEQ_CST);
}

static inline void refcount_inc(refcount_t *r)
{
	int old = __atomic_fetch_add(&r->refs, 1, __ATOMIC_SEQ_CST);

	if (WARN_ON(old <= 0 || old == INT_MAX))
		refcount_set(r, REFCOUNT_SATURATED);
}

static inline bool refcount_dec_and_test(refcount_t *r)
{
	int old = __atomic_fetch_sub(&r->refs, 1, __ATOMIC_SEQ_CST);

	if (WARN_ON(old <= 0)) {
		refcount_set(r, REFCOUNT_SATURATED);
		return false;
	}
	return old == 1;
}

#endif
