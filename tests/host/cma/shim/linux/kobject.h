/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: <linux/kobject.h>; the host build has no CONFIG_SYSFS. */
