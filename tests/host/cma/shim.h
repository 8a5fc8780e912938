/* SPDX-License-Identifier: GPL-2.0 */
/* What the host harness (shim.c) offers the tests. */
#ifndef __CMA_HOST_SHIM_H
#define __CMA_HOST_SHIM_H

extern long shim_live_objects, shim_fail_after, shim_allocations;
extern char shim_log[];
extern int shim_log_echo, shim_warnings;

extern long shim_pages_cleared, shim_pages_given_back, shim_kmemleak_ignored;
extern unsigned long shim_cleared_lo, shim_cleared_hi;

void shim_pages_reset(void);
void shim_log_clear(void);
int shim_log_count(const char *needle);
void shim_memblock_reset(void);
void shim_memblock_add(unsigned long long base, unsigned long long size);
void shim_memblock_mark_nomap(unsigned long long base, unsigned long long size);
int shim_is_reserved_exactly(unsigned long long base, unsigned long long size);
int shim_memblock_banks(unsigned long long (*out)[2], int max);
unsigned long long shim_memblock_overlap(unsigned long long base, unsigned long long size);
int shim_early_param(const char *name, const char *val);
void shim_run_initcalls(void);

/* Movable regions (shim/linux/gfp.h) */
enum { SHIM_RESERVED, SHIM_LENT, SHIM_HELD };
extern unsigned long totalcma_pages, shim_zone_split;
extern long shim_contig_calls, shim_contig_errors, shim_lent_blocks;
extern long shim_free_taken, shim_free_busy;
extern int shim_contig_fail;
extern void (*shim_contig_hook)(void);
extern __thread int shim_mutexes_held, shim_spins_held;
extern __thread long shim_mutex_locks;
int shim_frame_state(unsigned long pfn);
unsigned long shim_frames_in(unsigned long pfn, unsigned long nr, int state);
void shim_pin(unsigned long pfn, int pinned);
void shim_resident(unsigned long pfn, unsigned long nr, int resident);
void shim_buddy(unsigned long pfn, unsigned long nr, unsigned int order, int free);
void shim_unmovable(unsigned long pfn, int unmovable);
extern long shim_page_reads;
extern int shim_fatal_signal;
extern long shim_sleeps;
extern void (*shim_sleep_hook)(void);

#endif
