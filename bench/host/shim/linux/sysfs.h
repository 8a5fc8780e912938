/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fallback for tests/host/cma/shim (searched first): the host build has no
 * CONFIG_SYSFS, so nothing of <linux/sysfs.h> is used, only included.
 */
#ifndef __BENCH_SHIM_LINUX_SYSFS_H
#define __BENCH_SHIM_LINUX_SYSFS_H
#endif
