/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: <linux/sysfs.h>; the host build has no CONFIG_SYSFS. */
