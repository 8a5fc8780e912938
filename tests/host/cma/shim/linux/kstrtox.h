/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: <linux/kstrtox.h>, with the kernel's semantics. */
#ifndef __SHIM_LINUX_KSTRTOX_H
#define __SHIM_LINUX_KSTRTOX_H

int kstrtoull(const char *s, unsigned int base, unsigned long long *res);

#endif
