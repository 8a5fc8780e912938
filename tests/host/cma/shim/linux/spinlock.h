/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: <linux/spinlock.h> on error-checking POSIX mutexes.  The
 * harness counts the spinlocks each thread holds: sleeping under one
 * (a mutex, a GFP_KERNEL allocation, a migration) is a warning.
 */
#ifndef __SHIM_LINUX_SPINLOCK_H
#define __SHIM_LINUX_SPINLOCK_H

#include <pthread.h>

typedef struct {
	pthread_mutex_t m;
} spinlock_t;

#define DEFINE_SPINLOCK(name) \
	spinlock_t name = { PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP }

void spin_lock_init(spinlock_t *lock);
void shim_spin_lock(spinlock_t *lock);
void shim_spin_unlock(spinlock_t *lock);

#define spin_lock_irqsave(lock, flags) \
	do { (flags) = 0; shim_spin_lock(lock); } while (0)
#define spin_unlock_irqrestore(lock, flags) \
	do { (void)(flags); shim_spin_unlock(lock); } while (0)
#define spin_lock(lock)		shim_spin_lock(lock)
#define spin_unlock(lock)	shim_spin_unlock(lock)

#endif
