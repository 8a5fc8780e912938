/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: min()/max() come with tools/include's <linux/kernel.h>. */
#include <linux/kernel.h>
