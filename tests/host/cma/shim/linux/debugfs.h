/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: <linux/debugfs.h>; the host build has no CONFIG_DEBUG_FS.
 * mm/cma.h (struct cma, which mm/cma-regions.c includes for
 * cma_sysfs_root()) includes it and wants spinlock_t.
 */
#ifndef _SHIM_LINUX_DEBUGFS_H
#define _SHIM_LINUX_DEBUGFS_H
#include <linux/spinlock.h>
#endif
