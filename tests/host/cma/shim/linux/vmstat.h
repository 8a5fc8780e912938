/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: <linux/vmstat.h>: the CMA events of /proc/vmstat, counted. */
#ifndef __SHIM_LINUX_VMSTAT_H
#define __SHIM_LINUX_VMSTAT_H

enum { CMA_ALLOC_SUCCESS, CMA_ALLOC_FAIL, SHIM_NR_VM_EVENTS };
extern long shim_vm_events[SHIM_NR_VM_EVENTS];
#define count_vm_event(item)	__atomic_add_fetch(&shim_vm_events[item], 1, __ATOMIC_SEQ_CST)

#endif
