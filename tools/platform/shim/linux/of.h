/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the part of <linux/of.h> the flat-tree code uses. */
#ifndef __SHIM_LINUX_OF_H
#define __SHIM_LINUX_OF_H
#include <linux/types.h>
#include <arpa/inet.h>

#define OF_BAD_ADDR	((u64)-1)

#ifndef be32_to_cpu
#define be32_to_cpu(x)	ntohl(x)
#define cpu_to_be32(x)	htonl(x)
#endif
#define be32_to_cpup(p)	be32_to_cpu(*(p))

static inline u64 of_read_number(const __be32 *cell, int size)
{
	u64 r = 0;

	for (; size--; cell++)
		r = (r << 32) | be32_to_cpu(*cell);
	return r;
}
#endif
