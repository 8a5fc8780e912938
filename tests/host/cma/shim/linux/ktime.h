/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: <linux/ktime.h>: a clock that advances 1 us per reading. */
#ifndef __SHIM_LINUX_KTIME_H
#define __SHIM_LINUX_KTIME_H

#include <linux/types.h>

#define NSEC_PER_USEC	1000L
u64 ktime_get_ns(void);

#endif
