/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: <linux/device.h>, a device is a name. */
#ifndef __SHIM_LINUX_DEVICE_H
#define __SHIM_LINUX_DEVICE_H

struct device {
	const char *init_name;
};

static inline const char *dev_name(const struct device *dev)
{
	return dev->init_name;
}

#endif
