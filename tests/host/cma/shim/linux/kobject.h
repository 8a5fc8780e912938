/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: <linux/kobject.h>; the host build has no CONFIG_SYSFS.
 * mm/cma.h's struct cma_kobject embeds one.
 */
#ifndef _SHIM_LINUX_KOBJECT_H
#define _SHIM_LINUX_KOBJECT_H
struct kobject {
	int unused;
};
#endif
