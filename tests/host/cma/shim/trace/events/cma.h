/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: <trace/events/cma.h>, the CMA areas' events: none recorded. */
#ifndef __SHIM_TRACE_EVENTS_CMA_H
#define __SHIM_TRACE_EVENTS_CMA_H

#define trace_cma_alloc_start(name, count, align)			\
	do { (void)(name); (void)(count); (void)(align); } while (0)
#define trace_cma_alloc_finish(name, pfn, page, count, align)		\
	do { (void)(name); (void)(pfn); (void)(page); (void)(count);	\
	     (void)(align); } while (0)
#define trace_cma_release(name, pfn, page, count)			\
	do { (void)(name); (void)(pfn); (void)(page); (void)(count); } while (0)

#endif
