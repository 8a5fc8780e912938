/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OF_HOST_H
#define OF_HOST_H
int of_host_load(const char *path);
int of_host_memory(void (*add)(unsigned long long base, unsigned long long size));
void of_host_scan_reserved_mem(void);
#endif
