/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: <linux/libfdt.h> is the system's libfdt (package libfdt-dev). */
#ifndef __SHIM_LINUX_LIBFDT_H
#define __SHIM_LINUX_LIBFDT_H
#include <libfdt.h>
#endif
