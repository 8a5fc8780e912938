/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: <linux/sched/signal.h>: a fatal signal is pending while a test
 * sets shim_fatal_signal; a killable sleep calls shim_sleep_hook (what
 * another thread may do meanwhile: unpin a page) and counts itself.
 */
#ifndef __SHIM_LINUX_SCHED_SIGNAL_H
#define __SHIM_LINUX_SCHED_SIGNAL_H

extern int shim_fatal_signal;
extern long shim_sleeps;
extern void (*shim_sleep_hook)(void);

#define current			NULL
#define fatal_signal_pending(p)	(shim_fatal_signal != 0)
#define msecs_to_jiffies(ms)	((unsigned long)(ms))
long schedule_timeout_killable(long timeout);

#endif
