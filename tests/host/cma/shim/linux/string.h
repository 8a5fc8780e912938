/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: tools/include's <linux/string.h> plus strscpy(). */
#ifndef __SHIM_LINUX_STRING_H
#define __SHIM_LINUX_STRING_H

#include_next <linux/string.h>
#include <sys/types.h>

ssize_t strscpy(char *dest, const char *src, size_t count);

#endif
