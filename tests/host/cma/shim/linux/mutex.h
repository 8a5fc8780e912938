/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: <linux/mutex.h> on error-checking POSIX mutexes, so that
 * locking a held mutex or unlocking a free one is caught.
 */
#ifndef __SHIM_LINUX_MUTEX_H
#define __SHIM_LINUX_MUTEX_H

#include <pthread.h>

struct mutex {
	pthread_mutex_t m;
};

#define DEFINE_MUTEX(name) \
	struct mutex name = { PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP }

void mutex_init(struct mutex *lock);
void mutex_destroy(struct mutex *lock);
void mutex_lock(struct mutex *lock);
int mutex_lock_killable(struct mutex *lock);
void mutex_unlock(struct mutex *lock);

#endif
